//! What the secretary's week (issue 39) reads beyond the fixture lists:
//! score pads left unsubmitted after their night, and when a secretary
//! last reminded a fixture's captains. One query each, whatever the
//! number of fixtures.

use chrono::{DateTime, Utc};

use super::sql::{self, Exec};
use super::{Db, FixtureId, LeagueId, Result};

/// A fixture with boards kept on the score pads and no result submitted.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PadsLeft {
    pub fixture_id: FixtureId,
    /// How many boards have taps.
    pub boards: i64,
    /// The last tap on any of them.
    pub last_tap: DateTime<Utc>,
}

/// The audit entries of a secretary's reminders: one per fixture reminded,
/// its id the fixture's.
pub(crate) const REMINDER: &str = "reminder";

/// When each fixture of `league` (or only `fixture`) was last reminded by
/// a secretary, on `on` (the database or a transaction).
pub(crate) async fn reminded<'a>(
    on: impl Exec<'a>,
    league: LeagueId,
    fixture: Option<FixtureId>,
) -> Result<Vec<(FixtureId, DateTime<Utc>)>> {
    let one = if fixture.is_some() {
        " AND entity_id = $3"
    } else {
        ""
    };
    let sql = format!(
        "SELECT entity_id, MAX(at) FROM audit WHERE league_id = $1 AND entity = $2{one} \
         GROUP BY entity_id"
    );
    let q = sql::query_as::<(FixtureId, DateTime<Utc>)>(&sql)
        .bind(league)
        .bind(REMINDER);
    match fixture {
        Some(f) => q.bind(f),
        None => q,
    }
    .fetch_all(on)
    .await
}

impl Db {
    /// Fixtures of `league` that started before `before`, are still to be
    /// played (scheduled or postponed) with no version of a result in a
    /// season not closed (as `counted::AWAITING_RESULT` counts the
    /// missing), and have boards tapped on the score pads, oldest first. Whether their
    /// night is over is the caller's to say, in the league's time zone.
    pub async fn pads_left(
        &self,
        league: LeagueId,
        before: DateTime<Utc>,
    ) -> Result<Vec<PadsLeft>> {
        sql::query_as::<PadsLeft>(
            "SELECT p.fixture_id, COUNT(*) AS boards, MAX(p.updated_at) AS last_tap \
             FROM pad_boards p \
             JOIN fixtures f ON f.league_id = p.league_id AND f.id = p.fixture_id \
             WHERE p.league_id = $1 AND f.status IN ('scheduled', 'postponed') \
             AND f.starts_at < $2 \
             AND NOT EXISTS (SELECT 1 FROM result_versions rv \
                             WHERE rv.fixture_id = f.id AND rv.league_id = f.league_id) \
             AND NOT EXISTS (SELECT 1 FROM seasons cs WHERE cs.id = f.season_id \
                             AND cs.league_id = f.league_id AND cs.closed_at IS NOT NULL) \
             GROUP BY p.fixture_id, f.starts_at ORDER BY f.starts_at, p.fixture_id",
        )
        .bind(league)
        .bind(before)
        .fetch_all(self)
        .await
    }

    /// When a secretary last reminded the captains of each fixture of
    /// `league` that was ever reminded.
    pub async fn reminded(&self, league: LeagueId) -> Result<Vec<(FixtureId, DateTime<Utc>)>> {
        reminded(self, league, None).await
    }
}
