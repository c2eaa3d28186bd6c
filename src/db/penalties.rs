//! Each league's list of penalty kinds, the penalties given, and the fines
//! ledger. Nothing here is deleted: a withdrawn penalty is voided, a fine is
//! marked paid, each with an audit entry.

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::audit::{NewAudit, insert_audit};
use super::{
    Constraint, Db, DbError, FineId, FixtureId, LeagueId, PenaltyId, PenaltyKindId, PlayerId,
    Result, SeasonId, TeamId, UserId, now,
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

/// The penalty `new` of `league`, audited, and its kind. A kind of another
/// league is [`DbError::ForeignKey`].
pub(crate) async fn insert_penalty(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewPenalty,
    by: Option<UserId>,
) -> Result<(Penalty, PenaltyKind)> {
    let kind = sql::query_as::<PenaltyKind>(&format!(
        "SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 AND id = $2"
    ))
    .bind(league)
    .bind(new.kind_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| {
        DbError::ForeignKey(Constraint {
            table: Some("penalty_kinds".into()),
            detail: format!("penalty kind {} of another league", new.kind_id),
        })
    })?;
    let penalty = sql::query_as::<Penalty>(&format!(
        "INSERT INTO penalties (league_id, season_id, fixture_id, team_id, player_id, kind_id, \
         amount, note, recorded_by, recorded_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(new.season_id)
    .bind(new.fixture_id)
    .bind(new.team_id)
    .bind(new.player_id)
    .bind(new.kind_id)
    .bind(new.amount)
    .bind(&new.note)
    .bind(by)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?;
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "penalty", penalty.id.0, "record").after(Some(&penalty)),
    )
    .await?;
    Ok((penalty, kind))
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
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<PenaltyKind>(&sql)
            .bind(league)
            .bind(&new.code)
            .bind(&new.name)
            .bind(new.effect.as_str())
            .bind(new.amount)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    /// The league's list of penalty kinds.
    pub async fn penalty_kinds(&self, league: LeagueId) -> Result<Vec<PenaltyKind>> {
        let sql =
            format!("SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 ORDER BY name");
        sql::query_as::<PenaltyKind>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }

    pub async fn penalty(&self, league: LeagueId, id: PenaltyId) -> Result<Penalty> {
        let sql = format!("SELECT {COLUMNS} FROM penalties WHERE league_id = $1 AND id = $2");
        sql::query_as::<Penalty>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("penalty {id}")))
    }

    /// A season's penalties, voided ones included, oldest first.
    pub async fn penalties(&self, league: LeagueId, season: SeasonId) -> Result<Vec<Penalty>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM penalties WHERE league_id = $1 AND season_id = $2 ORDER BY id"
        );
        sql::query_as::<Penalty>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
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
        let mut tx = self.write(league).await?;
        let before = sql::query_as::<Penalty>(&select)
            .bind(league)
            .bind(id)
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| DbError::not_found(format!("penalty {id}")))?;
        let after = sql::query_as::<Penalty>(&update)
            .bind(league)
            .bind(id)
            .bind(void.then(now))
            .fetch_one(&mut tx)
            .await?;
        let action = if void { "void" } else { "reinstate" };
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "penalty", id.0, action)
                .before(Some(&before))
                .after(Some(&after)),
        )
        .await?;
        tx.commit().await?;
        Ok(after)
    }

    /// The league's fines ledger, oldest first.
    pub async fn fines(&self, league: LeagueId) -> Result<Vec<Fine>> {
        let sql = format!("SELECT {FINE_COLUMNS} FROM fines WHERE league_id = $1 ORDER BY id");
        sql::query_as::<Fine>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
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
        let mut tx = self.write(league).await?;
        let before = sql::query_as::<Fine>(&select)
            .bind(league)
            .bind(id)
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| DbError::not_found(format!("fine {id}")))?;
        let after = sql::query_as::<Fine>(&update)
            .bind(league)
            .bind(id)
            .bind(paid_at)
            .fetch_one(&mut tx)
            .await?;
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "fine", id.0, "paid")
                .before(Some(&before))
                .after(Some(&after)),
        )
        .await?;
        tx.commit().await?;
        Ok(after)
    }
}

/// For the secretary's console: one penalty kind, and changing it.
impl Db {
    pub async fn penalty_kind(&self, league: LeagueId, id: PenaltyKindId) -> Result<PenaltyKind> {
        let sql =
            format!("SELECT {KIND_COLUMNS} FROM penalty_kinds WHERE league_id = $1 AND id = $2");
        sql::query_as::<PenaltyKind>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
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
        let mut tx = self.write(league).await?;
        let before = sql::query_as::<PenaltyKind>(&select)
            .bind(league)
            .bind(id)
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| DbError::not_found(format!("penalty kind {id}")))?;
        let after = sql::query_as::<PenaltyKind>(&update)
            .bind(league)
            .bind(id)
            .bind(&new.code)
            .bind(&new.name)
            .bind(new.effect.as_str())
            .bind(new.amount)
            .fetch_one(&mut tx)
            .await?;
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "penalty_kind", id.0, "change")
                .before(Some(&before))
                .after(Some(&after)),
        )
        .await?;
        tx.commit().await?;
        Ok(after)
    }
}

/// A new line in the fines ledger, unpaid, audited.
pub(crate) async fn insert_fine(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewFine,
    by: Option<UserId>,
) -> Result<Fine> {
    let fine = sql::query_as::<Fine>(&format!(
        "INSERT INTO fines (league_id, team_id, player_id, penalty_id, amount_pence, reason, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {FINE_COLUMNS}"
    ))
    .bind(league)
    .bind(new.team_id)
    .bind(new.player_id)
    .bind(new.penalty_id)
    .bind(new.amount_pence)
    .bind(&new.reason)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?;
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "fine", fine.id.0, "record").after(Some(&fine)),
    )
    .await?;
    Ok(fine)
}

/// The amount of `league`'s penalty kind `kind`, if it has that kind.
pub(crate) async fn kind_amount(
    tx: &mut Tx,
    league: LeagueId,
    kind: PenaltyKindId,
) -> Result<Option<i64>> {
    sql::query_scalar("SELECT amount FROM penalty_kinds WHERE league_id = $1 AND id = $2")
        .bind(league)
        .bind(kind)
        .fetch_optional(&mut *tx)
        .await
}
