//! The games a rating reads (issue 27): every counted game of a league with
//! a winner, its players by side, in one query.

use super::sql::{self};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::counted::{COUNTED_GAMES, CURRENT_VERSION};
use super::stats::COUNTED_JOINS;
use super::{Db, FixtureId, LeagueId, PlayerId, Result, ResultVersionId};
use crate::league::ratings::{GameKey, RatedGame};
use crate::rules::Format;

#[derive(sqlx::FromRow)]
struct SeatRow {
    game_id: i64,
    fixture_id: FixtureId,
    starts_at: Option<DateTime<Utc>>,
    board: i64,
    number: i64,
    format: String,
    winner_side: i64,
    player_id: PlayerId,
    side: i64,
}

impl Db {
    /// The leagues' rated games: those their tables count (approved,
    /// current, neither void nor walkover), league and cup alike, with a
    /// winner. Read whole each time: the definition that the ratings' own
    /// read ([`Db::rated_games_kept`]) is tested against.
    pub async fn rated_games(&self, leagues: &[LeagueId]) -> Result<Vec<RatedGame>> {
        // Numbers made here from typed ids, never text from a request.
        let leagues: Vec<String> = leagues.iter().map(|l| l.0.to_string()).collect();
        let leagues = if leagues.is_empty() {
            "NULL".to_owned()
        } else {
            leagues.join(", ")
        };
        let sql = format!(
            "SELECT g.id AS game_id, f.id AS fixture_id, f.starts_at, b.number AS board, \
             g.number, g.format, CAST(g.winner_side AS BIGINT) AS winner_side, gp.player_id, \
             CAST(gp.side AS BIGINT) AS side \
             {COUNTED_JOINS} WHERE f.league_id IN ({leagues}) AND {COUNTED_GAMES} \
             AND g.winner_side IS NOT NULL \
             ORDER BY g.id, gp.side, gp.side_position"
        );
        let rows: Vec<SeatRow> = sql::query_as(&sql).fetch_all(self).await?;
        let mut out: Vec<RatedGame> = Vec::new();
        let mut last = None;
        for r in rows {
            if last != Some(r.game_id) {
                // A format this build does not know is not rated.
                let Ok(format) = r.format.parse::<Format>() else {
                    last = None;
                    continue;
                };
                last = Some(r.game_id);
                out.push(RatedGame {
                    key: GameKey {
                        played_at: r.starts_at.map_or(i64::MAX, |t| t.timestamp()),
                        fixture: r.fixture_id.0,
                        board: r.board,
                        number: r.number,
                    },
                    format,
                    sides: [Vec::new(), Vec::new()],
                    winner: usize::try_from(r.winner_side).unwrap_or(usize::MAX),
                });
            }
            if let (Some(g), Ok(side)) = (out.last_mut(), usize::try_from(r.side))
                && side < 2
            {
                g.sides[side].push(r.player_id);
            }
        }
        Ok(out)
    }
}

/// The rated games of each counted result version, as read once (one per
/// app server; bounded): a version's games never change, so after a change
/// the ratings read the leagues' counted versions and only the games of
/// versions new since ([`Db::rated_games_kept`]).
#[derive(Default)]
pub struct KeptGames {
    kept: Mutex<HashMap<ResultVersionId, Arc<Vec<VersionGame>>>>,
}

/// Most versions kept (a few seasons of every league of a large
/// installation); past it they are all let go.
const MOST_KEPT_VERSIONS: usize = 32_768;

/// A rated game of a version, without what its fixture says of it (the
/// date can change while the version stands).
#[derive(Debug)]
struct VersionGame {
    board: i64,
    number: i64,
    format: Format,
    winner: usize,
    sides: [Vec<PlayerId>; 2],
}

impl KeptGames {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ResultVersionId, Arc<Vec<VersionGame>>>> {
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(sqlx::FromRow)]
struct CountedVersion {
    version_id: ResultVersionId,
    fixture_id: FixtureId,
    starts_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct VersionSeatRow {
    version_id: ResultVersionId,
    game_id: i64,
    board: i64,
    number: i64,
    format: String,
    winner_side: i64,
    player_id: PlayerId,
    side: i64,
}

/// Numbers made here from typed ids, never text from a request.
fn id_list(ids: impl Iterator<Item = i64>) -> String {
    let ids: Vec<String> = ids.map(|i| i.to_string()).collect();
    if ids.is_empty() {
        "NULL".to_owned()
    } else {
        ids.join(", ")
    }
}

impl Db {
    /// [`Db::rated_games`], the games of versions read before taken from
    /// `kept`: one read of the counted versions (those `COUNTED_GAMES`
    /// counts) and one of the games of those not kept, in one snapshot.
    pub async fn rated_games_kept(
        &self,
        kept: &KeptGames,
        leagues: &[LeagueId],
    ) -> Result<Vec<RatedGame>> {
        let mut tx = self.read_tx().await?;
        let sql = format!(
            "SELECT v.id AS version_id, f.id AS fixture_id, f.starts_at FROM fixtures f \
             JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
             WHERE f.league_id IN ({}) AND f.status NOT IN ('void', 'walkover') \
             AND v.status = 'approved' AND {CURRENT_VERSION} ORDER BY v.id",
            id_list(leagues.iter().map(|l| l.0))
        );
        let versions: Vec<CountedVersion> = sql::query_as(&sql).fetch_all(&mut tx).await?;
        let mut found: HashMap<ResultVersionId, Arc<Vec<VersionGame>>> = {
            let kept = kept.lock();
            versions
                .iter()
                .filter_map(|v| Some((v.version_id, kept.get(&v.version_id)?.clone())))
                .collect()
        };
        let missing: Vec<ResultVersionId> = versions
            .iter()
            .map(|v| v.version_id)
            .filter(|id| !found.contains_key(id))
            .collect();
        if !missing.is_empty() {
            let sql = format!(
                "SELECT b.version_id, g.id AS game_id, b.number AS board, g.number, g.format, \
                 CAST(g.winner_side AS BIGINT) AS winner_side, gp.player_id, \
                 CAST(gp.side AS BIGINT) AS side \
                 FROM boards b JOIN games g ON g.board_id = b.id \
                 JOIN game_players gp ON gp.game_id = g.id \
                 WHERE b.version_id IN ({}) AND g.finished = TRUE \
                 AND g.winner_side IS NOT NULL ORDER BY g.id, gp.side, gp.side_position",
                id_list(missing.iter().map(|v| v.0))
            );
            let rows: Vec<VersionSeatRow> = sql::query_as(&sql).fetch_all(&mut tx).await?;
            let mut read: HashMap<ResultVersionId, Vec<VersionGame>> =
                missing.iter().map(|v| (*v, Vec::new())).collect();
            let mut last = None;
            for r in rows {
                let games = read.entry(r.version_id).or_default();
                if last != Some(r.game_id) {
                    // A format this build does not know is not rated.
                    let Ok(format) = r.format.parse::<Format>() else {
                        last = None;
                        continue;
                    };
                    last = Some(r.game_id);
                    games.push(VersionGame {
                        board: r.board,
                        number: r.number,
                        format,
                        winner: usize::try_from(r.winner_side).unwrap_or(usize::MAX),
                        sides: [Vec::new(), Vec::new()],
                    });
                }
                if let (Some(g), Ok(side)) = (games.last_mut(), usize::try_from(r.side))
                    && side < 2
                {
                    g.sides[side].push(r.player_id);
                }
            }
            let mut kept = kept.lock();
            if kept.len() + read.len() > MOST_KEPT_VERSIONS {
                kept.clear();
            }
            for (id, games) in read {
                let games = Arc::new(games);
                kept.insert(id, games.clone());
                found.insert(id, games);
            }
        }
        tx.commit().await?;
        let mut out = Vec::new();
        for v in &versions {
            for g in found.get(&v.version_id).map_or(&[][..], |g| g.as_slice()) {
                out.push(RatedGame {
                    key: GameKey {
                        played_at: v.starts_at.map_or(i64::MAX, |t| t.timestamp()),
                        fixture: v.fixture_id.0,
                        board: g.board,
                        number: g.number,
                    },
                    format: g.format,
                    sides: g.sides.clone(),
                    winner: g.winner,
                });
            }
        }
        Ok(out)
    }
}

/// A player as a rating list names them: with the team of the latest
/// season they were registered in.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RatedPlayer {
    pub id: PlayerId,
    pub league_id: LeagueId,
    pub name: String,
    pub team: Option<String>,
    /// The same person's records in other leagues share this.
    pub person_id: Option<crate::db::PersonId>,
}

impl Db {
    /// Every player of `league` (or, with `None`, of every league), each
    /// with their latest team: one query.
    pub async fn rated_players(&self, league: Option<LeagueId>) -> Result<Vec<RatedPlayer>> {
        let sql = format!(
            "SELECT p.id, p.league_id, p.name, p.person_id, \
             (SELECT t.name FROM registrations r JOIN teams t ON t.id = r.team_id \
              AND t.league_id = r.league_id WHERE r.league_id = p.league_id \
              AND r.player_id = p.id ORDER BY r.season_id DESC LIMIT 1) AS team \
             FROM players p {} ORDER BY p.id",
            if league.is_some() {
                "WHERE p.league_id = $1"
            } else {
                ""
            }
        );
        Ok({
            let q = sql::query_as::<RatedPlayer>(&sql);
            match league {
                Some(l) => q.bind(l),
                None => q,
            }
            .fetch_all(self)
            .await?
        })
    }
}

/// A seat of a game of a season's current results, for the results export.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameSeatLine {
    pub fixture_id: FixtureId,
    pub board: i64,
    pub number: i64,
    pub format: String,
    pub winner_side: Option<i64>,
    /// The game counts in the tables and the ratings.
    pub counts: bool,
    pub side: i64,
    pub player_id: PlayerId,
    pub name: String,
}

impl Db {
    /// Every seat of every game of the season's current result versions,
    /// in fixture, board, game and seat order: one query.
    pub async fn season_game_seats(
        &self,
        league: LeagueId,
        season: crate::db::SeasonId,
    ) -> Result<Vec<GameSeatLine>> {
        let sql = format!(
            "SELECT f.id AS fixture_id, b.number AS board, g.number, g.format, \
             CAST(g.winner_side AS BIGINT) AS winner_side, \
             CASE WHEN {COUNTED_GAMES} THEN TRUE ELSE FALSE END AS counts, \
             CAST(gp.side AS BIGINT) AS side, gp.player_id, p.name \
             {COUNTED_JOINS} JOIN players p ON p.id = gp.player_id \
             WHERE f.league_id = $1 AND f.season_id = $2 AND {CURRENT_VERSION} \
             ORDER BY f.id, b.number, g.number, gp.side, gp.side_position"
        );
        sql::query_as::<GameSeatLine>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }
}
