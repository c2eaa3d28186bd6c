//! A division's season of fixtures, stored at once and thrown away at
//! once (the use cases are `app::schedule`'s).

use super::sql::{self, Tx};

use super::{DivisionId, LeagueId, Result};

/// Fixtures of a division, as a subquery of ids (`$1` the league, `$2` the
/// division).
const OF_DIVISION: &str = "(SELECT id FROM fixtures WHERE league_id = $1 AND division_id = $2)";

/// Takes `division` of `league` for this transaction: whether it exists.
/// On Postgres its row is locked, so that two saves (or a save and a
/// discard) at once cannot both find it as it was; SQLite's
/// `BEGIN IMMEDIATE` already lets one writer in at a time.
pub async fn lock_division(tx: &mut Tx, league: LeagueId, division: DivisionId) -> Result<bool> {
    let lock = tx.dialect(
        "SELECT id FROM divisions WHERE league_id = $1 AND id = $2",
        "SELECT id FROM divisions WHERE league_id = $1 AND id = $2 FOR UPDATE",
    );
    let found = sql::query_scalar::<DivisionId>(lock)
        .bind(league)
        .bind(division)
        .fetch_optional(tx)
        .await?;
    Ok(found.is_some())
}

/// How many fixtures `division` has.
pub async fn division_fixture_count(
    tx: &mut Tx,
    league: LeagueId,
    division: DivisionId,
) -> Result<i64> {
    sql::query_scalar("SELECT COUNT(*) FROM fixtures WHERE league_id = $1 AND division_id = $2")
        .bind(league)
        .bind(division)
        .fetch_one(tx)
        .await
}

/// How much is recorded against `division`'s fixtures: result versions,
/// penalties, score-pad boards, and fixtures played or walked over.
pub async fn division_records(tx: &mut Tx, league: LeagueId, division: DivisionId) -> Result<i64> {
    let recorded = format!(
        "SELECT \
         (SELECT COUNT(*) FROM result_versions WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
         + (SELECT COUNT(*) FROM penalties WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
         + (SELECT COUNT(*) FROM pad_boards WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}) \
         + (SELECT COUNT(*) FROM fixtures WHERE league_id = $1 AND division_id = $2 \
            AND status IN ('played', 'walkover'))"
    );
    sql::query_scalar(&recorded)
        .bind(league)
        .bind(division)
        .fetch_one(tx)
        .await
}

/// Deletes `division`'s fixtures and their score-pad links: how many
/// fixtures went.
pub async fn delete_division_fixtures(
    tx: &mut Tx,
    league: LeagueId,
    division: DivisionId,
) -> Result<u64> {
    let links =
        format!("DELETE FROM pad_links WHERE league_id = $1 AND fixture_id IN {OF_DIVISION}");
    sql::query(&links)
        .bind(league)
        .bind(division)
        .execute(&mut *tx)
        .await?;
    let gone = sql::query("DELETE FROM fixtures WHERE league_id = $1 AND division_id = $2")
        .bind(league)
        .bind(division)
        .execute(tx)
        .await?
        .rows_affected();
    Ok(gone)
}
