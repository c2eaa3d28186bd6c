//! The page generations: numbers that write transactions raise (see
//! `write_tx!`), so that a rendered page kept under the generation read
//! before it was rendered is known to be current while the number stands.
//! One for the installation and one per league: a write names the league
//! it changed, or changes what every page may show (a league's name, an
//! account). Shared by every app server on the database, so a write
//! through any of them is seen by all.

use super::{Db, LeagueId, Result, read_pool};

/// The scope of a write that any page may show.
pub(crate) const INSTALLATION: i64 = 0;

/// The scope of a write to one league's records.
pub(crate) fn scope(league: LeagueId) -> i64 {
    league.0
}

/// The scope of a write that only the league's live pages show (a tap on
/// a score pad): the live page, a match's page, the pub screens. Kept apart
/// from the league's own scope so that a night of taps leaves the tables,
/// fixtures and home pages kept. Negative, so it never meets a league's id.
pub(crate) fn live(league: LeagueId) -> i64 {
    -league.0
}

/// Raises a scope's generation ($1): run by `write_tx!` on its
/// transaction, last thing before it commits (so the row's lock is held
/// only for the commit). A league's row is made by its first write.
pub(crate) const RAISE: &str = "INSERT INTO page_generations (scope, generation) VALUES ($1, 1) \
     ON CONFLICT (scope) DO UPDATE SET generation = page_generations.generation + 1";

impl Db {
    /// The generation of the pages of the league whose short name is
    /// `league` (they show that league and the installation's names), or
    /// of every page when `league` is None. It changes whenever anything
    /// such a page may show does (and sometimes when nothing does): the sum
    /// of numbers that only ever rise.
    ///
    /// `live`: the page also shows the league's boards in play, so it
    /// follows the pads' taps too (see [`live`]).
    pub async fn page_generation(&self, league: Option<&str>, live: bool) -> Result<i64> {
        let of_league = if live {
            "SELECT CAST(COALESCE(SUM(generation), 0) AS BIGINT) FROM page_generations \
             WHERE scope = 0 OR scope IN (SELECT id FROM leagues WHERE short_name = $1 \
             UNION ALL SELECT -id FROM leagues WHERE short_name = $1)"
        } else {
            "SELECT CAST(COALESCE(SUM(generation), 0) AS BIGINT) FROM page_generations \
             WHERE scope = 0 OR scope = (SELECT id FROM leagues WHERE short_name = $1)"
        };
        read_pool!(self, pool => {
            let generation: i64 = match league {
                Some(short) => sqlx::query_scalar(of_league)
                .bind(short)
                .fetch_one(pool)
                .await?,
                None => sqlx::query_scalar(
                    "SELECT CAST(COALESCE(SUM(generation), 0) AS BIGINT) FROM page_generations",
                )
                .fetch_one(pool)
                .await?,
            };
            Ok(generation)
        })
    }
}
