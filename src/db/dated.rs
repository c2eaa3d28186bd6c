//! Times written as given rather than as the moment of writing: for the
//! demo, whose results, penalties and pads stand for things done on the
//! nights before it was made (a result entered after its match, approved
//! days later; a pad tapped minutes ago). Nothing else dates a record.

use chrono::{DateTime, Utc};

use super::sql::{self, Tx};
use super::{Db, FixtureId, LeagueId, PenaltyId, Result, ResultVersionId};

/// Dates a result version as written at `created_at`, and its status (if
/// one was set after) as set at `status_at`.
pub(crate) async fn date_version(
    tx: &mut Tx,
    league: LeagueId,
    version: ResultVersionId,
    created_at: DateTime<Utc>,
    status_at: Option<DateTime<Utc>>,
) -> Result<()> {
    sql::query(
        "UPDATE result_versions SET created_at = $3, \
         status_at = CASE WHEN status_at IS NULL THEN NULL ELSE $4 END \
         WHERE league_id = $1 AND id = $2",
    )
    .bind(league)
    .bind(version)
    .bind(created_at)
    .bind(status_at.unwrap_or(created_at))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

impl Db {
    /// Dates a board's pad as last tapped at `at`.
    pub async fn date_pad(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self
            .begin_write(Some(super::generation::live(league)))
            .await?;
        sql::query(
            "UPDATE pad_boards SET updated_at = $4 \
             WHERE league_id = $1 AND fixture_id = $2 AND board = $3",
        )
        .bind(league)
        .bind(fixture)
        .bind(board)
        .bind(at)
        .execute(&mut tx)
        .await?;
        // The match's own live pages too, as for a tap.
        sql::query(super::generation::RAISE)
            .bind(super::generation::live_fixture(fixture))
            .execute(&mut tx)
            .await?;
        tx.commit().await
    }

    /// Dates a penalty as recorded at `at`, and its line in the fines
    /// ledger, if it has one, as raised then.
    pub async fn date_penalty(
        &self,
        league: LeagueId,
        penalty: PenaltyId,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.write(league).await?;
        for statement in [
            "UPDATE penalties SET recorded_at = $3 WHERE league_id = $1 AND id = $2",
            "UPDATE fines SET created_at = $3 WHERE league_id = $1 AND penalty_id = $2",
        ] {
            sql::query(statement)
                .bind(league)
                .bind(penalty)
                .bind(at)
                .execute(&mut tx)
                .await?;
        }
        tx.commit().await
    }
}
