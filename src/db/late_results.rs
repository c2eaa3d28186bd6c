//! Late results (issue 26): each league's rule, the fixtures it makes late
//! and not yet penalised (the one-click penalty that settles one is
//! `app::penalties::apply_late_result`).

use super::counted::AWAITING_RESULT;
use super::sql::{self, Tx};
use chrono::{DateTime, Duration, Utc};

use super::mail::FixtureFacts;
use super::{Db, FixtureId, LeagueId, PenaltyKindId, Result, UserId};
use crate::db::audit::{NewAudit, insert_audit};
use crate::league::late_results::LateResultRule;
use crate::league::time::Zone;

/// A fixture late by its league's rule with no penalty of the rule's kind.
#[derive(Debug, Clone)]
pub struct LateResult {
    pub league_id: LeagueId,
    pub league_short: String,
    pub league_name: String,
    pub fixture: FixtureFacts,
    pub kind_id: PenaltyKindId,
    pub kind_name: String,
    pub days_late: u32,
}

#[derive(sqlx::FromRow)]
struct LateRow {
    league_id: LeagueId,
    league_short: String,
    league_name: String,
    time_zone: String,
    rule_days: i64,
    kind_id: PenaltyKindId,
    kind_name: String,
    #[sqlx(flatten)]
    fixture: FixtureFacts,
}

/// Fixtures of open seasons still scheduled, with no result entered and no
/// penalty of the rule's kind (voided ones count: a secretary who withdrew
/// it has decided), played before `$1`. `{scope}` narrows it.
fn late_sql(scope: &str) -> String {
    format!(
        "SELECT l.id AS league_id, l.short_name AS league_short, l.name AS league_name, \
         l.time_zone, r.days AS rule_days, r.kind_id, k.name AS kind_name, \
         f.id, f.season_id, f.home_team_id, f.away_team_id, h.name AS home, a.name AS away, \
         f.starts_at, v.name AS venue \
         FROM late_result_rules r JOIN leagues l ON l.id = r.league_id \
         JOIN penalty_kinds k ON k.league_id = r.league_id AND k.id = r.kind_id \
         JOIN fixtures f ON f.league_id = r.league_id \
         JOIN teams h ON h.id = f.home_team_id JOIN teams a ON a.id = f.away_team_id \
         LEFT JOIN venues v ON v.id = f.venue_id \
         WHERE {AWAITING_RESULT} AND f.starts_at < $1 \
         AND NOT EXISTS (SELECT 1 FROM penalties p WHERE p.league_id = f.league_id \
                         AND p.fixture_id = f.id AND p.kind_id = r.kind_id) \
         {scope} ORDER BY f.starts_at, f.id"
    )
}

/// The rows the rule makes late on `now` (the query's bound is a cheap one
/// day; the league's own dates decide here).
fn late(rows: Vec<LateRow>, now: DateTime<Utc>) -> Vec<LateResult> {
    rows.into_iter()
        .filter_map(|r| {
            let rule = LateResultRule {
                days: u32::try_from(r.rule_days).ok()?,
                kind: r.kind_id,
            };
            let zone = Zone::parse(&r.time_zone).unwrap_or_default();
            let days_late = rule.days_late(zone, r.fixture.starts_at?, now)?;
            Some(LateResult {
                league_id: r.league_id,
                league_short: r.league_short,
                league_name: r.league_name,
                fixture: r.fixture,
                kind_id: r.kind_id,
                kind_name: r.kind_name,
                days_late,
            })
        })
        .collect()
}

impl Db {
    /// The league's rule for late results, if it has one.
    pub async fn late_result_rule(&self, league: LeagueId) -> Result<Option<LateResultRule>> {
        let row: Option<(i64, PenaltyKindId)> =
            sql::query_as("SELECT days, kind_id FROM late_result_rules WHERE league_id = $1")
                .bind(league)
                .fetch_optional(self)
                .await?;
        Ok(row.and_then(|(days, kind)| {
            Some(LateResultRule {
                days: u32::try_from(days).ok()?,
                kind,
            })
        }))
    }

    /// Sets (or with `None` removes) the league's rule, audited. A kind of
    /// another league is [`DbError::ForeignKey`].
    pub async fn set_late_result_rule(
        &self,
        league: LeagueId,
        rule: Option<LateResultRule>,
        by: Option<UserId>,
    ) -> Result<()> {
        let mut tx = self.write(league).await?;
        sql::query("DELETE FROM late_result_rules WHERE league_id = $1")
            .bind(league)
            .execute(&mut tx)
            .await?;
        if let Some(r) = rule {
            sql::query(
                "INSERT INTO late_result_rules (league_id, days, kind_id) VALUES ($1, $2, $3)",
            )
            .bind(league)
            .bind(i64::from(r.days))
            .bind(r.kind)
            .execute(&mut tx)
            .await?;
        }
        let after = rule.map(|r| serde_json::json!({"days": r.days, "kind_id": r.kind.0}));
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "late_result_rule", league.0, "set")
                .after(after.as_ref()),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The late results of `league` (or, with `None`, of every league) on
    /// `now`, oldest fixture first. One query.
    pub async fn late_results(
        &self,
        league: Option<LeagueId>,
        now: DateTime<Utc>,
    ) -> Result<Vec<LateResult>> {
        let sql = late_sql(if league.is_some() {
            "AND r.league_id = $2"
        } else {
            ""
        });
        let rows: Vec<LateRow> = {
            let q = sql::query_as(&sql).bind(now - Duration::days(1));
            match league {
                Some(l) => q.bind(l),
                None => q,
            }
            .fetch_all(self)
            .await?
        };
        Ok(late(rows, now))
    }
}

/// `fixture` as the late-result rule sees it on `now`, if it is late under
/// the league's rule and not yet penalised under it.
pub(crate) async fn late_result(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    now: DateTime<Utc>,
) -> Result<Option<LateResult>> {
    let rows: Vec<LateRow> = sql::query_as(&late_sql("AND r.league_id = $2 AND f.id = $3"))
        .bind(now - Duration::days(1))
        .bind(league)
        .bind(fixture)
        .fetch_all(&mut *tx)
        .await?;
    Ok(late(rows, now).pop())
}
