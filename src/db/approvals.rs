//! The results a league's secretaries have still to approve: each
//! fixture's current version when it is not approved, with who took each
//! step so far (entered it; confirmed or disputed it), in one query.

use super::sql::{self};
use chrono::{DateTime, Utc};

use super::results::CURRENT;
use super::{Db, FixtureId, LeagueId, Result, ResultStatus, UserId};

/// A fixture's current result version, awaiting approval.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PendingVersion {
    pub fixture_id: FixtureId,
    pub version: i64,
    #[sqlx(try_from = "String")]
    pub status: ResultStatus,
    /// A dispute's note.
    pub status_note: String,
    pub created_at: DateTime<Utc>,
    /// Who entered it, when the account still exists.
    pub entered_by: Option<String>,
    pub created_by: Option<UserId>,
    /// Who confirmed or disputed it (the status's own step), when the
    /// account still exists; `None` while it is as it was entered.
    pub status_by_name: Option<String>,
    pub status_by: Option<UserId>,
    pub status_at: Option<DateTime<Utc>>,
}

impl Db {
    /// Every fixture of the league whose current result is entered,
    /// confirmed or disputed, oldest entry first. Void fixtures and
    /// walkovers are left out: their results do not count.
    pub async fn pending_versions(&self, league: LeagueId) -> Result<Vec<PendingVersion>> {
        let sql = format!(
            "SELECT v.fixture_id, v.version, v.status, v.status_note, v.created_at, \
             u.username AS entered_by, v.created_by, \
             s.username AS status_by_name, v.status_by, v.status_at \
             FROM fixtures f \
             JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
             LEFT JOIN users u ON u.id = v.created_by \
             LEFT JOIN users s ON s.id = v.status_by \
             WHERE f.league_id = $1 AND {CURRENT} AND v.status <> 'approved' \
             AND f.status NOT IN ('void', 'walkover') \
             ORDER BY v.created_at, v.fixture_id"
        );
        sql::query_as::<PendingVersion>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }
}
