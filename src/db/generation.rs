//! The page generations: numbers that write transactions raise (see
//! `sql::Tx::commit`), so that a rendered page kept under the generation read
//! before it was rendered is known to be current while the number stands.
//! One for the installation and one per league: a write names the league
//! it changed, or changes what every page may show (a league's name, an
//! account). Shared by every app server on the database, so a write
//! through any of them is seen by all.

use super::sql;
use std::collections::HashMap;

use super::{Db, FixtureId, LeagueId, Result};

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
    // Saturating: an address may name any id, even past the ids there are
    // (`…/matches/9223372036854775807`); such a scope is never written.
    (-(1_i64 << 32)).saturating_sub(fixture.0)
}

/// The scope every change to a session raises (`db::sessions`): what the
/// sessions a server keeps in memory follow. Below every fixture's scope;
/// a fixture id that would reach it names no fixture there is.
pub(crate) const SESSIONS: i64 = i64::MIN + 1;

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

/// Raises a scope's generation ($1): run by `Tx::commit` on its
/// transaction, last thing before it commits (so the row's lock is held
/// only for the commit). A league's row is made by its first write.
pub(crate) const RAISE: &str = "INSERT INTO page_generations (scope, generation) VALUES ($1, 1) \
     ON CONFLICT (scope) DO UPDATE SET generation = page_generations.generation + 1";

/// [`RAISE`] for a write to league $1's records: raises that league's
/// generation and those of every league that people link to it, however
/// indirectly (its ratings pool), since the ratings their pages show are
/// worked out over its games too. In the order of the scopes, so that two
/// writes to linked leagues at once wait for each other, never deadlock.
pub(crate) const RAISE_POOL: &str = "WITH RECURSIVE pool (league_id) AS ( \
     SELECT CAST($1 AS BIGINT) \
     UNION SELECT o.league_id FROM pool \
     JOIN players p ON p.league_id = pool.league_id AND p.person_id IS NOT NULL \
     JOIN players o ON o.person_id = p.person_id) \
     INSERT INTO page_generations (scope, generation) \
     SELECT league_id, 1 FROM pool WHERE league_id IS NOT NULL ORDER BY league_id \
     ON CONFLICT (scope) DO UPDATE SET generation = page_generations.generation + 1";

/// The statement that raises `scope`: a league's raises its pool too.
pub(crate) fn raise(scope: i64) -> &'static str {
    if scope > INSTALLATION {
        RAISE_POOL
    } else {
        RAISE
    }
}

/// The generations a league's pages are kept under, read at once: one
/// query serves the records pages, the live pages and every match page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageGenerations {
    /// The installation's and the league's: what every page of the league
    /// follows (outside the leagues: every scope's).
    pub records: i64,
    /// The installation's alone: what every account's name and roles
    /// follow (outside the leagues: every scope's, as `records`).
    pub installation: i64,
    /// The sessions' (see [`SESSIONS`]).
    pub sessions: i64,
    /// The league's live scope: every tap of the league.
    pub live: i64,
    /// Each asked fixture's live scope (0: never tapped).
    pub fixtures: HashMap<FixtureId, i64>,
}

/// Every league's records generation at once (see
/// [`Db::record_generations`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordGenerations {
    /// The pages outside the leagues'.
    pub all: i64,
    installation: i64,
    leagues: HashMap<LeagueId, i64>,
}

impl RecordGenerations {
    /// `league`'s, as [`Db::page_generation`] reads it for
    /// `Follows::Records`.
    pub fn of(&self, league: LeagueId) -> i64 {
        self.leagues
            .get(&league)
            .copied()
            .unwrap_or(self.installation)
    }
}

impl PageGenerations {
    /// The generation of a page that follows `follows`: a sum of numbers
    /// that only ever rise, so it changes whenever one of them does.
    pub fn of(&self, follows: Follows) -> i64 {
        match follows {
            Follows::Records => self.records,
            Follows::League => self.records + self.live,
            Follows::Fixture(f) => self.records + self.fixtures.get(&f).copied().unwrap_or(0),
        }
    }
}

impl Db {
    /// The generations of the pages of the league whose short name is
    /// `league` (they show that league and the installation's names), with
    /// the live scopes of the league and of `fixtures`; or, when `league`
    /// is None, of every page. One query. They change whenever anything
    /// such a page may show does (and sometimes when nothing does).
    pub async fn page_generations(
        &self,
        league: Option<&str>,
        fixtures: &[FixtureId],
    ) -> Result<PageGenerations> {
        let Some(short) = league else {
            // Pages outside the leagues show no taps: a night of taps
            // leaves them kept, as it does a league's other pages.
            let (records, sessions): (i64, i64) = sql::query_as(
                "SELECT CAST(COALESCE(SUM(CASE WHEN scope >= 0 THEN generation END), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN scope = $1 THEN generation END), 0) AS BIGINT) \
                 FROM page_generations WHERE scope >= 0 OR scope = $1",
            )
            .bind(SESSIONS)
            .fetch_one(self)
            .await?;
            return Ok(PageGenerations {
                records,
                installation: records,
                sessions,
                ..PageGenerations::default()
            });
        };
        // The fixtures' scopes are numbers made here from parsed ids.
        let scopes: Vec<String> = fixtures
            .iter()
            .map(|f| live_fixture(*f).to_string())
            .collect();
        let of_fixtures = if scopes.is_empty() {
            String::new()
        } else {
            format!(" OR scope IN ({})", scopes.join(", "))
        };
        let sql = format!(
            "SELECT scope, generation FROM page_generations WHERE scope IN (0, {SESSIONS}) \
             OR scope IN (SELECT id FROM leagues WHERE short_name = $1 \
             UNION ALL SELECT -id FROM leagues WHERE short_name = $1){of_fixtures}"
        );
        let rows: Vec<(i64, i64)> = sql::query_as(&sql).bind(short).fetch_all(self).await?;
        let mut out = PageGenerations::default();
        // Every fixture asked is answered, a fixture never tapped with 0.
        out.fixtures.extend(fixtures.iter().map(|f| (*f, 0)));
        for (scope, generation) in rows {
            if scope == INSTALLATION {
                out.installation = generation;
            }
            if scope == SESSIONS {
                out.sessions = generation;
            } else if scope >= 0 {
                out.records += generation;
            } else if scope > -(1_i64 << 32) {
                out.live += generation;
            } else {
                out.fixtures
                    .insert(FixtureId(-(1_i64 << 32) - scope), generation);
            }
        }
        Ok(out)
    }

    /// The generation of every league's pages that follow its records
    /// (`Follows::Records`), and of the pages outside the leagues, which
    /// follow every league's: one query.
    pub async fn record_generations(&self) -> Result<RecordGenerations> {
        let rows: Vec<(i64, i64)> =
            sql::query_as("SELECT scope, generation FROM page_generations WHERE scope >= 0")
                .fetch_all(self)
                .await?;
        let installation = rows
            .iter()
            .find(|(scope, _)| *scope == INSTALLATION)
            .map_or(0, |(_, g)| *g);
        Ok(RecordGenerations {
            all: rows.iter().map(|(_, g)| g).sum(),
            leagues: rows
                .into_iter()
                .filter(|(scope, _)| *scope != INSTALLATION)
                .map(|(scope, g)| (LeagueId(scope), installation + g))
                .collect(),
            installation,
        })
    }

    /// The generation of one kind of page (see [`Db::page_generations`]).
    pub async fn page_generation(&self, league: Option<&str>, follows: Follows) -> Result<i64> {
        let fixtures: Vec<FixtureId> = match follows {
            Follows::Fixture(f) => vec![f],
            _ => Vec::new(),
        };
        Ok(self.page_generations(league, &fixtures).await?.of(follows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_fixture_id_an_address_names_has_a_scope() {
        assert_eq!(live_fixture(FixtureId(1)), -(1_i64 << 32) - 1);
        assert_eq!(live_fixture(FixtureId(i64::MAX)), i64::MIN);
        assert!(live_fixture(FixtureId(1)) < live(LeagueId(u32::MAX as i64)));
    }
}
