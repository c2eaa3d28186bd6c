//! Fixtures: who plays whom, where and when, and how it stands.

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    CupId, Db, DbError, DivisionId, FixtureId, LeagueId, Result, SeasonId, TeamId, VenueId,
};

pub use crate::domain::{FixtureStatus, Side};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fixture {
    pub id: FixtureId,
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    /// The division of a league fixture; `None` for a cup tie.
    pub division_id: Option<DivisionId>,
    /// The cup of a cup tie; `None` for a league fixture.
    pub cup_id: Option<CupId>,
    pub round: i64,
    pub starts_at: Option<DateTime<Utc>>,
    pub home_team_id: TeamId,
    pub away_team_id: TeamId,
    pub venue_id: Option<VenueId>,
    pub status: FixtureStatus,
    pub conceded_by: Option<Side>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewFixture {
    pub season_id: SeasonId,
    pub division_id: DivisionId,
    pub round: i64,
    pub starts_at: Option<DateTime<Utc>>,
    pub home_team_id: TeamId,
    pub away_team_id: TeamId,
    pub venue_id: Option<VenueId>,
}

/// What may change on a fixture after it is made: its date (a postponement
/// moves one fixture alone), venue, round and status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixtureChange {
    pub round: i64,
    pub starts_at: Option<DateTime<Utc>>,
    pub venue_id: Option<VenueId>,
    pub status: FixtureStatus,
    /// Given exactly when `status` is `walkover`.
    pub conceded_by: Option<Side>,
}

impl From<&Fixture> for FixtureChange {
    fn from(f: &Fixture) -> FixtureChange {
        FixtureChange {
            round: f.round,
            starts_at: f.starts_at,
            venue_id: f.venue_id,
            status: f.status,
            conceded_by: f.conceded_by,
        }
    }
}

/// A recorded change of a fixture (its audit entry), for the calendar
/// feeds: its date and status before (`None` when it was made) and after.
#[derive(Debug, Clone, PartialEq)]
pub struct FixtureChangeLine {
    pub fixture_id: FixtureId,
    pub at: DateTime<Utc>,
    pub before: Option<FixtureMoment>,
    pub after: Option<FixtureMoment>,
}

/// A fixture's date and status as an audit entry saw it (the rest of the
/// stored fixture is not read, so entries written by older or newer
/// versions read the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct FixtureMoment {
    pub starts_at: Option<DateTime<Utc>>,
    pub status: FixtureStatus,
}

/// What the calendar feeds read of the audit trail: the fixtures' changes
/// and when their divisions' fixtures were thrown away, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FixtureHistory {
    pub changes: Vec<FixtureChangeLine>,
    pub discards: Vec<(DivisionId, DateTime<Utc>)>,
}

#[derive(sqlx::FromRow)]
struct HistoryRow {
    entity: String,
    entity_id: i64,
    at: DateTime<Utc>,
    before: Option<String>,
    after: Option<String>,
}

/// A fixture as stored; also read by `schedule`, which saves many at once.
#[derive(sqlx::FromRow)]
pub(super) struct FixtureRow {
    id: FixtureId,
    league_id: LeagueId,
    season_id: SeasonId,
    division_id: Option<DivisionId>,
    cup_id: Option<CupId>,
    round: i64,
    starts_at: Option<DateTime<Utc>>,
    home_team_id: TeamId,
    away_team_id: TeamId,
    venue_id: Option<VenueId>,
    status: String,
    conceded_by: Option<String>,
}

impl TryFrom<FixtureRow> for Fixture {
    type Error = DbError;

    fn try_from(r: FixtureRow) -> Result<Fixture> {
        Ok(Fixture {
            id: r.id,
            league_id: r.league_id,
            season_id: r.season_id,
            division_id: r.division_id,
            cup_id: r.cup_id,
            round: r.round,
            starts_at: r.starts_at,
            home_team_id: r.home_team_id,
            away_team_id: r.away_team_id,
            venue_id: r.venue_id,
            status: r.status.parse()?,
            conceded_by: r.conceded_by.map(|s| s.parse()).transpose()?,
        })
    }
}

pub(super) const COLUMNS: &str = "id, league_id, season_id, division_id, cup_id, round, starts_at, \
                       home_team_id, away_team_id, venue_id, status, conceded_by";

/// Stores a scheduled fixture; a play-off's (`playoff`) result settles
/// only the order of teams level on every rule, and never counts in the
/// table.
pub(crate) async fn insert_fixture(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewFixture,
    playoff: bool,
) -> Result<Fixture> {
    sql::query_as::<FixtureRow>(&format!(
        "INSERT INTO fixtures (league_id, season_id, division_id, round, starts_at, \
         home_team_id, away_team_id, venue_id, status, playoff) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9) RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(new.season_id)
    .bind(new.division_id)
    .bind(new.round)
    .bind(new.starts_at)
    .bind(new.home_team_id)
    .bind(new.away_team_id)
    .bind(new.venue_id)
    .bind(playoff)
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// The fixture `fixture` of `league`, or not found, in a write
/// transaction. On Postgres its row is locked, so that two writers of one
/// fixture take version numbers and change statuses in turn (SQLite has
/// one writer at a time already). A cup tie's cup is locked first: every
/// write that may move a cup's draw takes the cup before the fixture, so a
/// correction in one round and a result in the next wait for each other
/// instead of deadlocking.
pub(crate) async fn lock_fixture(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Fixture> {
    if tx.is_postgres() {
        sql::query(
            "SELECT c.id FROM cups c JOIN fixtures f ON f.cup_id = c.id \
             AND f.league_id = c.league_id WHERE f.league_id = $1 AND f.id = $2 \
             FOR UPDATE OF c",
        )
        .bind(league)
        .bind(fixture)
        .execute(&mut *tx)
        .await?;
    }
    let lock = tx.dialect("", " FOR UPDATE");
    sql::query_as::<FixtureRow>(&format!(
        "SELECT {COLUMNS} FROM fixtures WHERE league_id = $1 AND id = $2{lock}"
    ))
    .bind(league)
    .bind(fixture)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DbError::not_found(format!("fixture {fixture}")))?
    .try_into()
}

impl Db {
    /// A scheduled fixture between two teams entered in the division.
    pub async fn create_fixture(&self, league: LeagueId, new: &NewFixture) -> Result<Fixture> {
        let mut tx = self.write(league).await?;
        let out = insert_fixture(&mut tx, league, new, false).await?;
        tx.commit().await?;
        Ok(out)
    }

    pub async fn fixture(&self, league: LeagueId, id: FixtureId) -> Result<Fixture> {
        let sql = format!("SELECT {COLUMNS} FROM fixtures WHERE league_id = $1 AND id = $2");
        sql::query_as::<FixtureRow>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("fixture {id}")))?
            .try_into()
    }

    /// Whether the season has any fixture (the console's set-up checklist
    /// asks on every visit: one row at most, not the season's all).
    pub async fn has_fixtures(&self, league: LeagueId, season: SeasonId) -> Result<bool> {
        let found: Option<i64> = sql::query_scalar(
            "SELECT id FROM fixtures WHERE league_id = $1 AND season_id = $2 LIMIT 1",
        )
        .bind(league)
        .bind(season)
        .fetch_optional(self)
        .await?;
        Ok(found.is_some())
    }

    /// A season's fixtures, by round and date.
    pub async fn fixtures(&self, league: LeagueId, season: SeasonId) -> Result<Vec<Fixture>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM fixtures WHERE league_id = $1 AND season_id = $2 \
             ORDER BY round, starts_at, id"
        );
        sql::query_as::<FixtureRow>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(Fixture::try_from)
            .collect()
    }

    /// A division's fixtures, by round and date.
    pub async fn division_fixtures(
        &self,
        league: LeagueId,
        division: DivisionId,
    ) -> Result<Vec<Fixture>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM fixtures WHERE league_id = $1 AND division_id = $2 \
             ORDER BY round, starts_at, id"
        );
        sql::query_as::<FixtureRow>(&sql)
            .bind(league)
            .bind(division)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(Fixture::try_from)
            .collect()
    }

    /// The recorded changes of `fixtures` and the discards of `divisions`'
    /// fixtures, oldest first: one query over the audit trail.
    pub async fn fixture_history(
        &self,
        league: LeagueId,
        fixtures: &[FixtureId],
        divisions: &[DivisionId],
    ) -> Result<FixtureHistory> {
        let places = |from: usize, n: usize| {
            let list: Vec<String> = (from..from + n).map(|i| format!("${i}")).collect();
            if list.is_empty() {
                "NULL".to_owned()
            } else {
                list.join(", ")
            }
        };
        let sql = format!(
            "SELECT entity, entity_id, at, before, after FROM audit WHERE league_id = $1 \
             AND ((entity = 'fixture' AND entity_id IN ({})) \
             OR (entity = 'division' AND action = 'fixtures discarded' AND entity_id IN ({}))) \
             ORDER BY id",
            places(2, fixtures.len()),
            places(2 + fixtures.len(), divisions.len())
        );
        let rows = {
            let mut query = sql::query_as::<HistoryRow>(&sql).bind(league);
            for f in fixtures {
                query = query.bind(*f);
            }
            for d in divisions {
                query = query.bind(*d);
            }
            query.fetch_all(self).await?
        };
        let fixture = |text: Option<String>| -> Result<Option<FixtureMoment>> {
            text.map(|t| super::parse_json("a fixture in the audit trail", &t))
                .transpose()
        };
        let mut out = FixtureHistory::default();
        for r in rows {
            if r.entity == "division" {
                out.discards.push((DivisionId(r.entity_id), r.at));
            } else {
                out.changes.push(FixtureChangeLine {
                    fixture_id: FixtureId(r.entity_id),
                    at: r.at,
                    before: fixture(r.before)?,
                    after: fixture(r.after)?,
                });
            }
        }
        Ok(out)
    }
}

/// Writes every field of `change` to `fixture`; the fixture after.
pub(crate) async fn write_fixture_change(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    change: &FixtureChange,
) -> Result<Fixture> {
    sql::query_as::<FixtureRow>(&format!(
        "UPDATE fixtures SET round = $3, starts_at = $4, venue_id = $5, status = $6, \
         conceded_by = $7 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(fixture)
    .bind(change.round)
    .bind(change.starts_at)
    .bind(change.venue_id)
    .bind(change.status.as_str())
    .bind(change.conceded_by.map(Side::as_str))
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// Sets `fixture`'s status and the side that conceded it; the fixture
/// after.
pub(crate) async fn set_fixture_status(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    status: FixtureStatus,
    conceded_by: Option<Side>,
) -> Result<Fixture> {
    sql::query_as::<FixtureRow>(&format!(
        "UPDATE fixtures SET status = $3, conceded_by = $4 WHERE league_id = $1 AND id = $2 \
         RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(fixture)
    .bind(status.as_str())
    .bind(conceded_by.map(Side::as_str))
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}
