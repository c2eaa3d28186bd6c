//! Each league's list of penalty kinds, the penalties given, and the fines
//! ledger. Nothing here is deleted: a withdrawn penalty is voided, a fine is
//! marked paid, each with an audit entry.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::audit::{NewAudit, insert_audit};
use super::{
    Db, DbError, FineId, FixtureId, LeagueId, PenaltyId, PenaltyKindId, PlayerId, Result, SeasonId,
    TeamId, UserId, now, read_pool, write_tx,
};

pub use crate::league::penalties::PenaltyEffect;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct PenaltyKind {
    pub id: PenaltyKindId,
    pub league_id: LeagueId,
    /// Short and unique in the league, e.g. `late-card`.
    pub code: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub effect: PenaltyEffect,
    /// The default amount (points, games, pence) for the effect.
    pub amount: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewPenaltyKind {
    pub code: String,
    pub name: String,
    pub effect: PenaltyEffect,
    pub amount: i64,
}

/// A penalty against a team or a player (exactly one of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Penalty {
    pub id: PenaltyId,
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    pub fixture_id: Option<FixtureId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub kind_id: PenaltyKindId,
    pub amount: i64,
    pub note: String,
    pub recorded_by: Option<UserId>,
    pub recorded_at: DateTime<Utc>,
    pub voided_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewPenalty {
    pub season_id: SeasonId,
    pub fixture_id: Option<FixtureId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub kind_id: PenaltyKindId,
    pub amount: i64,
    pub note: String,
}

/// A line of the fines ledger: money owed by a team or a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Fine {
    pub id: FineId,
    pub league_id: LeagueId,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    /// The penalty that gave rise to it, if any.
    pub penalty_id: Option<PenaltyId>,
    pub amount_pence: i64,
    pub reason: String,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewFine {
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub penalty_id: Option<PenaltyId>,
    pub amount_pence: i64,
    pub reason: String,
}

pub(crate) const KIND_COLUMNS: &str = "id, league_id, code, name, effect, amount";
pub(crate) const COLUMNS: &str = "id, league_id, season_id, fixture_id, team_id, player_id, kind_id, amount, \
                       note, recorded_by, recorded_at, voided_at";
pub(crate) const FINE_COLUMNS: &str =
    "id, league_id, team_id, player_id, penalty_id, amount_pence, reason, created_at, paid_at";

/// Inside a write transaction: the penalty `$new` of `$league` and, for a
/// fine, its line in the ledger, each audited; `(Penalty, Option<Fine>)`.
/// A kind of another league is [`DbError::ForeignKey`].
macro_rules! insert_penalty {
    ($tx:ident, $league:expr, $new:expr, $fine_reason:expr, $by:expr) => {{
        let (league, new, by): (
            $crate::db::LeagueId,
            &$crate::db::NewPenalty,
            Option<$crate::db::UserId>,
        ) = ($league, $new, $by);
        let fine_reason: Option<String> = $fine_reason;
        let sql = format!(
            "INSERT INTO penalties (league_id, season_id, fixture_id, team_id, player_id, kind_id, \
             amount, note, recorded_by, recorded_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {}",
            $crate::db::penalties::COLUMNS
        );
        let kind_sql = format!(
            "SELECT {} FROM penalty_kinds WHERE league_id = $1 AND id = $2",
            $crate::db::penalties::KIND_COLUMNS
        );
        let fine_sql = format!(
            "INSERT INTO fines (league_id, team_id, player_id, penalty_id, amount_pence, reason, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {}",
            $crate::db::penalties::FINE_COLUMNS
        );
        let kind = sqlx::query_as::<_, $crate::db::PenaltyKind>(&kind_sql)
            .bind(league)
            .bind(new.kind_id)
            .fetch_optional(&mut *$tx)
            .await?
            .ok_or_else(|| {
                $crate::db::DbError::ForeignKey(format!(
                    "penalty kind {} of another league",
                    new.kind_id
                ))
            })?;
        let penalty = sqlx::query_as::<_, $crate::db::Penalty>(&sql)
            .bind(league)
            .bind(new.season_id)
            .bind(new.fixture_id)
            .bind(new.team_id)
            .bind(new.player_id)
            .bind(new.kind_id)
            .bind(new.amount)
            .bind(&new.note)
            .bind(by)
            .bind($crate::db::now())
            .fetch_one(&mut *$tx)
            .await?;
        $crate::db::audit::insert_audit!(
            $tx,
            $crate::db::audit::NewAudit::new(Some(league), by, "penalty", penalty.id.0, "record")
                .after(Some(&penalty))
        );
        let fine = if kind.effect == $crate::db::PenaltyEffect::Fine {
            let reason = fine_reason.unwrap_or_else(|| {
                if new.note.is_empty() {
                    kind.name.clone()
                } else {
                    format!("{}: {}", kind.name, new.note)
                }
            });
            let fine = sqlx::query_as::<_, $crate::db::Fine>(&fine_sql)
                .bind(league)
                .bind(new.team_id)
                .bind(new.player_id)
                .bind(penalty.id)
                .bind(new.amount)
                .bind(reason)
                .bind($crate::db::now())
                .fetch_one(&mut *$tx)
                .await?;
            $crate::db::audit::insert_audit!(
                $tx,
                $crate::db::audit::NewAudit::new(Some(league), by, "fine", fine.id.0, "record")
                    .after(Some(&fine))
            );
            Some(fine)
        } else {
            None
        };
        (penalty, fine)
    }};
}
pub(crate) use insert_penalty;

fn exactly_one(team: Option<TeamId>, player: Option<PlayerId>) -> Result<()> {
    if team.is_some() == player.is_some() {
        return Err(DbError::Invalid(
            "a penalty or fine is against a team or a player: give exactly one".into(),
        ));
    }
    Ok(())
}

impl Db {
    pub async fn add_penalty_kind(
        &self,
        league: LeagueId,
        new: &NewPenaltyKind,
    ) -> Result<PenaltyKind> {
        let sql = format!(
            "INSERT INTO penalty_kinds (league_id, code, name, effect, amount) \
             VALUES ($1, $2, $3, $4, $5) RETURNING {KIND_COLUMNS}"
        );
        Ok(
            write_tx!(self, league, tx => sqlx::query_as::<_, PenaltyKind>(&sql)
            .bind(league)
            .bind(&new.code)
            .bind(&new.name)
            .bind(new.effect.as_str())
            .bind(new.amount)
            .fetch_one(&mut *tx)
            .await?),
        )
    }

    /// The league's list of penalty kinds.
    pub async fn penalty_kinds(&self, league: LeagueId) -> Result<Vec<PenaltyKind>> {
        let sql =
            format!("SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 ORDER BY name");
        Ok(
            read_pool!(self, pool => sqlx::query_as::<_, PenaltyKind>(&sql)
            .bind(league)
            .fetch_all(pool)
            .await?),
        )
    }

    /// Records a penalty; for a kind whose effect is a fine, its line in
    /// the fines ledger too, in the same transaction (owed, with the kind's
    /// name and the note as its reason).
    pub async fn record_penalty(
        &self,
        league: LeagueId,
        new: &NewPenalty,
        by: Option<UserId>,
    ) -> Result<Penalty> {
        Ok(self
            .record_penalty_with_fine(league, new, None, by)
            .await?
            .0)
    }

    /// [`Db::record_penalty`], giving back the fine line it wrote, if any;
    /// `fine_reason` replaces the reason made from the kind and the note.
    pub async fn record_penalty_with_fine(
        &self,
        league: LeagueId,
        new: &NewPenalty,
        fine_reason: Option<String>,
        by: Option<UserId>,
    ) -> Result<(Penalty, Option<Fine>)> {
        exactly_one(new.team_id, new.player_id)?;
        Ok(write_tx!(self, league, tx => insert_penalty!(tx, league, new, fine_reason, by)))
    }

    pub async fn penalty(&self, league: LeagueId, id: PenaltyId) -> Result<Penalty> {
        let sql = format!("SELECT {COLUMNS} FROM penalties WHERE league_id = $1 AND id = $2");
        read_pool!(self, pool => sqlx::query_as::<_, Penalty>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(pool)
            .await?)
        .ok_or_else(|| DbError::not_found(format!("penalty {id}")))
    }

    /// A season's penalties, voided ones included, oldest first.
    pub async fn penalties(&self, league: LeagueId, season: SeasonId) -> Result<Vec<Penalty>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM penalties WHERE league_id = $1 AND season_id = $2 ORDER BY id"
        );
        Ok(read_pool!(self, pool => sqlx::query_as::<_, Penalty>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(pool)
            .await?))
    }

    /// Withdraws a penalty (`void = true`) or reinstates it (`false`).
    pub async fn void_penalty(
        &self,
        league: LeagueId,
        id: PenaltyId,
        void: bool,
        by: Option<UserId>,
    ) -> Result<Penalty> {
        let select = format!("SELECT {COLUMNS} FROM penalties WHERE league_id = $1 AND id = $2");
        let update = format!(
            "UPDATE penalties SET voided_at = $3 WHERE league_id = $1 AND id = $2 \
             RETURNING {COLUMNS}"
        );
        Ok(write_tx!(self, league, tx => {
            let before = sqlx::query_as::<_, Penalty>(&select)
                .bind(league)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("penalty {id}")))?;
            let after = sqlx::query_as::<_, Penalty>(&update)
                .bind(league)
                .bind(id)
                .bind(void.then(now))
                .fetch_one(&mut *tx)
                .await?;
            let action = if void { "void" } else { "reinstate" };
            insert_audit!(tx, NewAudit::new(Some(league), by, "penalty", id.0, action)
                .before(Some(&before))
                .after(Some(&after)));
            after
        }))
    }

    /// A new line in the fines ledger, unpaid.
    pub async fn add_fine(
        &self,
        league: LeagueId,
        new: &NewFine,
        by: Option<UserId>,
    ) -> Result<Fine> {
        exactly_one(new.team_id, new.player_id)?;
        let sql = format!(
            "INSERT INTO fines (league_id, team_id, player_id, penalty_id, amount_pence, reason, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {FINE_COLUMNS}"
        );
        Ok(write_tx!(self, league, tx => {
            let fine = sqlx::query_as::<_, Fine>(&sql)
                .bind(league)
                .bind(new.team_id)
                .bind(new.player_id)
                .bind(new.penalty_id)
                .bind(new.amount_pence)
                .bind(&new.reason)
                .bind(now())
                .fetch_one(&mut *tx)
                .await?;
            insert_audit!(tx, NewAudit::new(Some(league), by, "fine", fine.id.0, "record")
                .after(Some(&fine)));
            fine
        }))
    }

    /// The league's fines ledger, oldest first.
    pub async fn fines(&self, league: LeagueId) -> Result<Vec<Fine>> {
        let sql = format!("SELECT {FINE_COLUMNS} FROM fines WHERE league_id = $1 ORDER BY id");
        Ok(read_pool!(self, pool => sqlx::query_as::<_, Fine>(&sql)
            .bind(league)
            .fetch_all(pool)
            .await?))
    }

    /// Marks a fine paid at `paid_at`, or unpaid again with `None`.
    pub async fn set_fine_paid(
        &self,
        league: LeagueId,
        id: FineId,
        paid_at: Option<DateTime<Utc>>,
        by: Option<UserId>,
    ) -> Result<Fine> {
        let select = format!("SELECT {FINE_COLUMNS} FROM fines WHERE league_id = $1 AND id = $2");
        let update = format!(
            "UPDATE fines SET paid_at = $3 WHERE league_id = $1 AND id = $2 \
             RETURNING {FINE_COLUMNS}"
        );
        Ok(write_tx!(self, league, tx => {
            let before = sqlx::query_as::<_, Fine>(&select)
                .bind(league)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("fine {id}")))?;
            let after = sqlx::query_as::<_, Fine>(&update)
                .bind(league)
                .bind(id)
                .bind(paid_at)
                .fetch_one(&mut *tx)
                .await?;
            insert_audit!(tx, NewAudit::new(Some(league), by, "fine", id.0, "paid")
                .before(Some(&before))
                .after(Some(&after)));
            after
        }))
    }
}

/// For the secretary's console: one penalty kind, and changing it.
impl Db {
    pub async fn penalty_kind(&self, league: LeagueId, id: PenaltyKindId) -> Result<PenaltyKind> {
        let sql =
            format!("SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 AND id = $2");
        read_pool!(self, pool => sqlx::query_as::<_, PenaltyKind>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(pool)
            .await?)
        .ok_or_else(|| DbError::not_found(format!("penalty kind {id}")))
    }

    /// Changes a kind's code, name, effect or default amount, with an audit
    /// entry; penalties recorded already keep the amount they were given.
    /// A code the league uses already is [`DbError::Unique`].
    pub async fn update_penalty_kind(
        &self,
        league: LeagueId,
        id: PenaltyKindId,
        new: &NewPenaltyKind,
        by: Option<UserId>,
    ) -> Result<PenaltyKind> {
        let select =
            format!("SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 AND id = $2");
        let update = format!(
            "UPDATE penalty_kinds SET code = $3, name = $4, effect = $5, amount = $6 \
             WHERE league_id = $1 AND id = $2 RETURNING {KIND_COLUMNS}"
        );
        Ok(write_tx!(self, league, tx => {
            let before = sqlx::query_as::<_, PenaltyKind>(&select)
                .bind(league)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("penalty kind {id}")))?;
            let after = sqlx::query_as::<_, PenaltyKind>(&update)
                .bind(league)
                .bind(id)
                .bind(&new.code)
                .bind(&new.name)
                .bind(new.effect.as_str())
                .bind(new.amount)
                .fetch_one(&mut *tx)
                .await?;
            insert_audit!(tx, NewAudit::new(Some(league), by, "penalty_kind", id.0, "change")
                .before(Some(&before))
                .after(Some(&after)));
            after
        }))
    }
}
