//! The page generations: numbers that write transactions raise (see
//! `write_tx!`), so that a rendered page kept under the generation read
//! before it was rendered is known to be current while the number stands.
//! One for the installation and one per league: a write names the league
//! it changed, or changes what every page may show (a league's name, an
//! account). Shared by every app server on the database, so a write
//! through any of them is seen by all.

use super::{Db, FixtureId, LeagueId, Result, read_pool};

/// The scope of a write that any page may show.
pub(crate) const INSTALLATION: i64 = 0;

/// The scope of a write to one league's records.
pub(crate) fn scope(league: LeagueId) -> i64 {
    league.0
}

/// The scope of a write that only the league's live pages show (a tap on
/// a score pad): the live page and the league's pub screen. Kept apart from
/// the league's own scope so that a night of taps leaves the tables,
/// fixtures and home pages kept. Negative, so it never meets a league's id.
pub(crate) fn live(league: LeagueId) -> i64 {
    -league.0
}

/// The scope of a tap on one fixture's pads, which its match page and its
/// pub screen show: a night's ten matches are each rendered again for
/// their own taps only. Below every league's live scope (league ids stay
/// under 2^32).
pub(crate) fn live_fixture(fixture: FixtureId) -> i64 {
    -(1_i64 << 32) - fixture.0
}

/// Which taps a page follows besides its league's records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Follows {
    /// None: the tables, fixtures, home, every page but these.
    Records,
    /// Every board of the league: the live page and the league's screen.
    League,
    /// One fixture's boards: its match page and its screen.
    Fixture(FixtureId),
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
    /// `follows`: the taps the page shows too (see [`live`] and
    /// [`live_fixture`]).
    pub async fn page_generation(&self, league: Option<&str>, follows: Follows) -> Result<i64> {
        const SUM: &str =
            "SELECT CAST(COALESCE(SUM(generation), 0) AS BIGINT) FROM page_generations";
        let of_league = match follows {
            Follows::Records => format!(
                "{SUM} WHERE scope = 0 OR scope = (SELECT id FROM leagues WHERE short_name = $1)"
            ),
            Follows::League => format!(
                "{SUM} WHERE scope = 0 OR scope IN (SELECT id FROM leagues WHERE short_name = $1 \
                 UNION ALL SELECT -id FROM leagues WHERE short_name = $1)"
            ),
            Follows::Fixture(f) => format!(
                "{SUM} WHERE scope = 0 OR scope = {} \
                 OR scope = (SELECT id FROM leagues WHERE short_name = $1)",
                live_fixture(f)
            ),
        };
        read_pool!(self, pool => {
            let generation: i64 = match league {
                Some(short) => sqlx::query_scalar(&of_league)
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
