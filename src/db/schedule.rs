//! A division's season of fixtures saved at once: all of them in one
//! transaction, or none.

use super::sql;
use crate::league::refusal::Refusal;
use std::collections::BTreeSet;

use super::audit::{NewAudit, insert_audit};
use super::fixtures::{FixtureRow, insert_sql};
use super::{Db, DbError, DivisionId, Fixture, LeagueId, NewFixture, Result, UserId};

/// The audit entry of a generated season: the division's id, and the
/// fixtures made.
#[derive(serde::Serialize)]
struct Generated<'a> {
    fixtures: &'a [Fixture],
}

impl Db {
    /// A division's whole season of scheduled fixtures, written in one
    /// transaction with one audit entry (`division`, `fixtures`). Refused
    /// ([`DbError::Conflict`]) when a division named already has fixtures:
    /// a season is generated once, and changed fixture by fixture after.
    pub async fn create_fixtures(
        &self,
        league: LeagueId,
        new: &[NewFixture],
        by: Option<UserId>,
    ) -> Result<Vec<Fixture>> {
        let divisions: BTreeSet<DivisionId> = new.iter().map(|f| f.division_id).collect();
        // On Postgres, lock the division's row so that two saves at once
        // cannot both find it empty; SQLite's `BEGIN IMMEDIATE` already
        // lets one writer in at a time.
        let lock = self.dialect(
            "SELECT id FROM divisions WHERE league_id = $1 AND id = $2",
            "SELECT id FROM divisions WHERE league_id = $1 AND id = $2 FOR UPDATE",
        );
        let count = "SELECT COUNT(*) FROM fixtures WHERE league_id = $1 AND division_id = $2";
        let insert = insert_sql();
        let mut tx = self.write(league).await?;
        for division in &divisions {
            sql::query_scalar::<DivisionId>(lock)
                .bind(league)
                .bind(*division)
                .fetch_optional(&mut tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("division {division}")))?;
            let existing: i64 = sql::query_scalar(count)
                .bind(league)
                .bind(*division)
                .fetch_one(&mut tx)
                .await?;
            if existing > 0 {
                return Err(Refusal::DivisionScheduled { fixtures: existing }.into());
            }
        }
        let mut made = Vec::with_capacity(new.len());
        for f in new {
            let fixture: Fixture = sql::query_as::<FixtureRow>(&insert)
                .bind(league)
                .bind(f.season_id)
                .bind(f.division_id)
                .bind(f.round)
                .bind(f.starts_at)
                .bind(f.home_team_id)
                .bind(f.away_team_id)
                .bind(f.venue_id)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            made.push(fixture);
        }
        for division in &divisions {
            let fixtures: Vec<Fixture> = made
                .iter()
                .filter(|f| f.division_id == Some(*division))
                .cloned()
                .collect();
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "division", division.0, "fixtures").after(Some(
                    &Generated {
                        fixtures: &fixtures,
                    },
                )),
            )
            .await?;
        }
        tx.commit().await?;
        Ok(made)
    }

    /// Throws a division's generated season away, so that it can be made
    /// again: all its fixtures, in one transaction with one audit entry
    /// (`division`, `fixtures discarded`). Refused ([`DbError::Conflict`])
    /// once anything was recorded against one of them (a result, a
    /// walkover, a penalty, a board on the score pad): those stay.
    pub async fn discard_fixtures(
        &self,
        league: LeagueId,
        division: DivisionId,
        by: Option<UserId>,
    ) -> Result<usize> {
        let lock = self.dialect(
            "SELECT id FROM divisions WHERE league_id = $1 AND id = $2",
            "SELECT id FROM divisions WHERE league_id = $1 AND id = $2 FOR UPDATE",
        );
        const OF_DIVISION: &str =
            "(SELECT id FROM fixtures WHERE league_id = $1 AND division_id = $2)";
        let recorded = format!(
            "SELECT \
             (SELECT COUNT(*) FROM result_versions WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
             + (SELECT COUNT(*) FROM penalties WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
             + (SELECT COUNT(*) FROM pad_boards WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
             + (SELECT COUNT(*) FROM fixtures WHERE league_id = $1 AND division_id = $2 \
                AND status IN ('played', 'walkover'))"
        );
        let links =
            format!("DELETE FROM pad_links WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}");
        let fixtures = "DELETE FROM fixtures WHERE league_id = $1 AND division_id = $2";
        let mut tx = self.write(league).await?;
        let out = {
            sql::query_scalar::<DivisionId>(lock)
                .bind(league)
                .bind(division)
                .fetch_optional(&mut tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("division {division}")))?;
            let n: i64 = sql::query_scalar(&recorded)
                .bind(league)
                .bind(division)
                .fetch_one(&mut tx)
                .await?;
            if n > 0 {
                return Err(Refusal::FixturesHaveRecords.into());
            }
            sql::query(&links)
                .bind(league)
                .bind(division)
                .execute(&mut tx)
                .await?;
            let gone = sql::query(fixtures)
                .bind(league)
                .bind(division)
                .execute(&mut tx)
                .await?
                .rows_affected();
            insert_audit(
                &mut tx,
                NewAudit::new(
                    Some(league),
                    by,
                    "division",
                    division.0,
                    "fixtures discarded",
                ),
            )
            .await?;
            usize::try_from(gone).unwrap_or(usize::MAX)
        };
        tx.commit().await?;
        Ok(out)
    }
}
