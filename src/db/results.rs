//! Match results: a fixture's boards, each with its games, each game stored
//! hand by hand and play by play, so that tables and statistics are queries
//! over rows rather than over one JSON blob per match.
//!
//! A result has versions. Writing a result adds a version with its own rows
//! (earlier versions keep theirs); a restore adds a version copying an
//! earlier one; the highest version is the current one, which reads return.
//! Each of these writes is one transaction and leaves an audit entry with
//! the result before and after.
//!
//! Rows refer to players by id; the game records read back name them by the
//! registered players' names, so a record reads back `==` to what was
//! written as long as no player was renamed in between.

use super::sql::{self, Arg, Bind, Exec, On, Row, Tx};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{
    Db, DbError, Fixture, FixtureId, LeagueId, PlayerId, Result, ResultVersionId, SeasonId, Side,
    TeamId, UserId, json_text, now, parse_json,
};
use crate::rules::{EndRecord, GameRecord, HandRecord, PenaltyRecord, PlayRecord};

/// The match format's board kinds are the ones results store.
pub use crate::league::match_format::BoardKind;

pub use crate::domain::ResultStatus;

pub use crate::league::match_result::{BoardResult, GameOutcome, GameResult, MatchResult, Roster};

/// One version of a fixture's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultVersion {
    pub id: ResultVersionId,
    pub league_id: LeagueId,
    pub fixture_id: FixtureId,
    /// 1 for the first entry, then 2, 3, ... for corrections and restores.
    pub version: i64,
    pub status: ResultStatus,
    /// The note of a dispute or approval.
    pub status_note: String,
    /// Who set the status (confirmed, disputed, approved) and when; `None`
    /// for the status a version was written with.
    pub status_by: Option<UserId>,
    pub status_at: Option<DateTime<Utc>>,
    /// The season's ruleset when this version was written.
    pub format: String,
    pub options: Map<String, Value>,
    /// The version this one copies, when it is a restore.
    pub restored_from: Option<i64>,
    pub created_by: Option<UserId>,
    pub created_at: DateTime<Utc>,
}

/// A version and its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredResult {
    pub version: ResultVersion,
    pub result: MatchResult,
}

/// A current result as [`Db::current_results_kept`] reads it: the kept
/// result itself, shared, not a copy of every hand.
pub struct SharedResult {
    pub version: ResultVersion,
    pub result: Arc<MatchResult>,
}

/// Results assembled from their rows, by version (see
/// [`Db::current_results_kept`]), each with the names of its players it was
/// made with. One per app server; bounded.
#[derive(Default)]
pub struct KeptResults {
    kept: std::sync::Mutex<HashMap<ResultVersionId, KeptResult>>,
}

struct KeptResult {
    names: Vec<(PlayerId, String)>,
    result: Arc<MatchResult>,
}

/// Most results kept (a few large leagues' seasons); past it they are all
/// let go.
const MOST_KEPT_RESULTS: usize = 8192;

impl KeptResults {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ResultVersionId, KeptResult>> {
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Those of `ids` kept whose players all still have their names.
    fn current(
        &self,
        ids: &[ResultVersionId],
        names: &HashMap<PlayerId, String>,
    ) -> HashMap<ResultVersionId, Arc<MatchResult>> {
        let kept = self.lock();
        ids.iter()
            .filter_map(|id| {
                let k = kept.get(id)?;
                k.names
                    .iter()
                    .all(|(p, name)| names.get(p) == Some(name))
                    .then(|| (*id, k.result.clone()))
            })
            .collect()
    }

    fn keep(
        &self,
        id: ResultVersionId,
        result: &Arc<MatchResult>,
        names: &HashMap<PlayerId, String>,
    ) {
        let players: Vec<(PlayerId, String)> = result
            .boards
            .iter()
            .flat_map(|b| b.home.iter().chain(&b.away))
            .filter_map(|p| names.get(p).map(|n| (*p, n.clone())))
            .collect();
        let mut kept = self.lock();
        if kept.len() >= MOST_KEPT_RESULTS {
            kept.clear();
        }
        kept.insert(
            id,
            KeptResult {
                names: players,
                result: result.clone(),
            },
        );
    }
}

// ---------------------------------------------------------------------------
// Rows

#[derive(sqlx::FromRow)]
pub(super) struct VersionRow {
    id: ResultVersionId,
    league_id: LeagueId,
    fixture_id: FixtureId,
    version: i64,
    status: String,
    status_note: String,
    status_by: Option<UserId>,
    status_at: Option<DateTime<Utc>>,
    format: String,
    options: String,
    restored_from: Option<i64>,
    created_by: Option<UserId>,
    created_at: DateTime<Utc>,
}

impl TryFrom<VersionRow> for ResultVersion {
    type Error = DbError;

    fn try_from(r: VersionRow) -> Result<ResultVersion> {
        Ok(ResultVersion {
            id: r.id,
            league_id: r.league_id,
            fixture_id: r.fixture_id,
            version: r.version,
            status: r.status.parse()?,
            status_note: r.status_note,
            status_by: r.status_by,
            status_at: r.status_at,
            format: r.format,
            options: parse_json("ruleset options of a result", &r.options)?,
            restored_from: r.restored_from,
            created_by: r.created_by,
            created_at: r.created_at,
        })
    }
}

pub(crate) const VERSION_COLUMNS: &str = "id, league_id, fixture_id, version, status, status_note, \
                               status_by, status_at, format, options, restored_from, created_by, \
                               created_at";

#[derive(sqlx::FromRow)]
struct NameRow {
    id: PlayerId,
    name: String,
}

#[derive(sqlx::FromRow)]
struct BoardRow {
    id: i64,
    version_id: ResultVersionId,
    number: i64,
    kind: String,
    conceded_by: Option<String>,
}

#[derive(sqlx::FromRow)]
struct BoardPlayerRow {
    board_id: i64,
    side: String,
    player_id: PlayerId,
}

#[derive(sqlx::FromRow)]
struct GameRow {
    id: i64,
    board_id: i64,
    format: String,
    options: Option<String>,
    draw_given: bool,
    first_pose_player_id: Option<PlayerId>,
    total_0: Option<i64>,
    total_1: Option<i64>,
    winner_side: Option<i64>,
    finished: Option<bool>,
    next_pose_player_id: Option<PlayerId>,
    score_only: bool,
}

#[derive(sqlx::FromRow)]
struct GamePlayerRow {
    game_id: i64,
    player_id: PlayerId,
    side: i64,
    side_position: i64,
    drawn_tile: Option<String>,
}

#[derive(sqlx::FromRow)]
struct HandRow {
    id: i64,
    game_id: i64,
    end_kind: String,
    out_player_id: Option<PlayerId>,
    left_given: bool,
}

#[derive(sqlx::FromRow)]
struct PipsRow {
    hand_id: i64,
    player_id: PlayerId,
    pips: i64,
}

#[derive(sqlx::FromRow)]
struct PlayRow {
    hand_id: i64,
    player_id: PlayerId,
    points: i64,
    out: bool,
    muggins: bool,
}

#[derive(sqlx::FromRow)]
struct GamePenaltyRow {
    game_id: i64,
    player_id: PlayerId,
    kind: String,
    before_hand: i64,
    minutes: Option<i64>,
}

/// Every row of some versions, each kind in order.
struct VersionRows {
    names: Vec<NameRow>,
    boards: Vec<BoardRow>,
    board_players: Vec<BoardPlayerRow>,
    games: Vec<GameRow>,
    game_players: Vec<GamePlayerRow>,
    hands: Vec<HandRow>,
    pips: Vec<PipsRow>,
    plays: Vec<PlayRow>,
    penalties: Vec<GamePenaltyRow>,
}

/// Joins from a result row up to its version, scoped to the league: one
/// of `versions` versions, bound from `$2` on (none: no row).
fn up_from_board(versions: usize) -> String {
    let places: Vec<String> = (0..versions).map(|i| format!("${}", i + 2)).collect();
    let list = if places.is_empty() {
        "NULL".to_owned()
    } else {
        places.join(", ")
    };
    format!(
        "JOIN result_versions v ON v.id = b.version_id WHERE v.league_id = $1 AND v.id IN ({list})"
    )
}

/// Loads the rows of the versions `versions` of league `league` on `on`
/// (the database or a transaction): nine queries, however many versions.
async fn fetch_version_rows(
    on: &mut On<'_>,
    league: LeagueId,
    versions: &[ResultVersionId],
) -> Result<VersionRows> {
    let up = up_from_board(versions.len());
    Ok(VersionRows {
        names: fetch_names(on, league, versions).await?,
        boards: fetch::<BoardRow>(
            on,
            league,
            versions,
            format!(
                "SELECT b.id, b.version_id, b.number, b.kind, b.conceded_by FROM boards b \
                 {up} ORDER BY b.version_id, b.number"
            ),
        )
        .await?,
        board_players: fetch::<BoardPlayerRow>(
            on,
            league,
            versions,
            format!(
                "SELECT bp.board_id, bp.side, bp.player_id FROM board_players bp \
                 JOIN boards b ON b.id = bp.board_id {up} \
                 ORDER BY bp.board_id, bp.side, bp.position"
            ),
        )
        .await?,
        games: fetch::<GameRow>(
            on,
            league,
            versions,
            format!(
                "SELECT g.id, g.board_id, g.format, g.options, g.draw_given, \
                 g.first_pose_player_id, g.total_0, g.total_1, g.winner_side, g.finished, \
                 g.next_pose_player_id, g.score_only FROM games g \
                 JOIN boards b ON b.id = g.board_id {up} ORDER BY g.board_id, g.number"
            ),
        )
        .await?,
        game_players: fetch::<GamePlayerRow>(
            on,
            league,
            versions,
            format!(
                "SELECT gp.game_id, gp.player_id, gp.side, gp.side_position, gp.drawn_tile \
                 FROM game_players gp JOIN games g ON g.id = gp.game_id \
                 JOIN boards b ON b.id = g.board_id {up} \
                 ORDER BY gp.game_id, gp.position"
            ),
        )
        .await?,
        hands: fetch::<HandRow>(
            on,
            league,
            versions,
            format!(
                "SELECT h.id, h.game_id, h.end_kind, h.out_player_id, h.left_given FROM hands h \
                 JOIN games g ON g.id = h.game_id JOIN boards b ON b.id = g.board_id \
                 {up} ORDER BY h.game_id, h.number"
            ),
        )
        .await?,
        pips: fetch::<PipsRow>(
            on,
            league,
            versions,
            format!(
                "SELECT hp.hand_id, hp.player_id, hp.pips FROM hand_pips hp \
                 JOIN hands h ON h.id = hp.hand_id JOIN games g ON g.id = h.game_id \
                 JOIN boards b ON b.id = g.board_id {up} \
                 ORDER BY hp.hand_id, hp.player_id"
            ),
        )
        .await?,
        plays: fetch::<PlayRow>(
            on,
            league,
            versions,
            format!(
                "SELECT pl.hand_id, pl.player_id, pl.points, pl.out, pl.muggins FROM plays pl \
                 JOIN hands h ON h.id = pl.hand_id JOIN games g ON g.id = h.game_id \
                 JOIN boards b ON b.id = g.board_id {up} \
                 ORDER BY pl.hand_id, pl.number"
            ),
        )
        .await?,
        penalties: fetch::<GamePenaltyRow>(
            on,
            league,
            versions,
            format!(
                "SELECT gpen.game_id, gpen.player_id, gpen.kind, gpen.before_hand, gpen.minutes \
                 FROM game_penalties gpen JOIN games g ON g.id = gpen.game_id \
                 JOIN boards b ON b.id = g.board_id {up} \
                 ORDER BY gpen.game_id, gpen.number"
            ),
        )
        .await?,
    })
}

/// The current versions of `fixtures` (those that have one), by fixture.
async fn current_versions(
    tx: &mut Tx,
    league: LeagueId,
    fixtures: &[FixtureId],
) -> Result<Vec<ResultVersion>> {
    let places: Vec<String> = (0..fixtures.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM result_versions v WHERE v.league_id = $1 \
         AND v.fixture_id IN ({}) AND {CURRENT} ORDER BY v.fixture_id",
        places.join(", ")
    );
    let mut query = sql::query_as::<VersionRow>(&sql).bind(league);
    for f in fixtures {
        query = query.bind(*f);
    }
    query
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(ResultVersion::try_from)
        .collect()
}

/// The names of the players on the boards of `versions`.
async fn fetch_names(
    on: &mut On<'_>,
    league: LeagueId,
    versions: &[ResultVersionId],
) -> Result<Vec<NameRow>> {
    let up = up_from_board(versions.len());
    fetch::<NameRow>(
        on,
        league,
        versions,
        format!(
            "SELECT DISTINCT p.id, p.name FROM players p \
             JOIN board_players bp ON bp.player_id = p.id \
             JOIN boards b ON b.id = bp.board_id {up} AND p.league_id = $1"
        ),
    )
    .await
}

/// The rows `select` (with `$1` the league, then one placeholder a version)
/// reads for `versions`.
async fn fetch<T: Row>(
    on: &mut On<'_>,
    league: LeagueId,
    versions: &[ResultVersionId],
    select: String,
) -> Result<Vec<T>> {
    let mut query = sql::query_as::<T>(&select).bind(league);
    for v in versions {
        query = query.bind(*v);
    }
    query.fetch_all(&mut *on).await
}

fn group<R>(rows: Vec<R>, key: impl Fn(&R) -> i64) -> HashMap<i64, Vec<R>> {
    let mut out: HashMap<i64, Vec<R>> = HashMap::new();
    for row in rows {
        out.entry(key(&row)).or_default().push(row);
    }
    out
}

/// The result of `version` from its rows.
fn assemble_one(rows: VersionRows, version: ResultVersionId) -> Result<MatchResult> {
    Ok(assemble(rows)?.remove(&version).unwrap_or_default())
}

/// Rows back into the results they were written from, by version.
fn assemble(rows: VersionRows) -> Result<HashMap<ResultVersionId, MatchResult>> {
    let names: HashMap<PlayerId, String> = rows.names.into_iter().map(|r| (r.id, r.name)).collect();
    let name = |id: PlayerId| -> Result<String> {
        names
            .get(&id)
            .cloned()
            .ok_or_else(|| DbError::Corrupt(format!("player {id} of a result is not on its board")))
    };
    let mut board_players = group(rows.board_players, |r| r.board_id);
    let mut games = group(rows.games, |r| r.board_id);
    let mut game_players = group(rows.game_players, |r| r.game_id);
    let mut hands = group(rows.hands, |r| r.game_id);
    let mut pips = group(rows.pips, |r| r.hand_id);
    let mut plays = group(rows.plays, |r| r.hand_id);
    let mut penalties = group(rows.penalties, |r| r.game_id);

    let mut versions: Vec<(ResultVersionId, Vec<BoardRow>)> = Vec::new();
    for b in rows.boards {
        match versions.last_mut() {
            Some((v, boards)) if *v == b.version_id => boards.push(b),
            _ => versions.push((b.version_id, vec![b])),
        }
    }
    let mut out = HashMap::new();
    for (version, version_boards) in versions {
        let mut boards = Vec::with_capacity(version_boards.len());
        for (i, b) in version_boards.into_iter().enumerate() {
            if b.number != i as i64 + 1 {
                return Err(DbError::Corrupt(format!("board {} is missing", i + 1)));
            }
            let (mut home, mut away) = (Vec::new(), Vec::new());
            for p in board_players.remove(&b.id).unwrap_or_default() {
                match p.side.parse::<Side>()? {
                    Side::Home => home.push(p.player_id),
                    Side::Away => away.push(p.player_id),
                }
            }
            let mut board_games = Vec::new();
            for g in games.remove(&b.id).unwrap_or_default() {
                let mut players = Vec::new();
                let mut sides: BTreeMap<i64, BTreeMap<i64, String>> = BTreeMap::new();
                let mut draw = BTreeMap::new();
                for gp in game_players.remove(&g.id).unwrap_or_default() {
                    let n = name(gp.player_id)?;
                    players.push(n.clone());
                    sides
                        .entry(gp.side)
                        .or_default()
                        .insert(gp.side_position, n.clone());
                    if let Some(tile) = gp.drawn_tile {
                        draw.insert(n, tile);
                    }
                }
                let mut game_hands = Vec::new();
                for h in hands.remove(&g.id).unwrap_or_default() {
                    let counts = pips
                        .remove(&h.id)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|p| Ok((name(p.player_id)?, p.pips)))
                        .collect::<Result<BTreeMap<_, _>>>()?;
                    let end = match h.end_kind.as_str() {
                        "none" => None,
                        "abandoned" => Some(EndRecord {
                            abandoned: true,
                            ..EndRecord::default()
                        }),
                        "blocked" => Some(EndRecord {
                            blocked: Some(counts),
                            ..EndRecord::default()
                        }),
                        "out" => Some(EndRecord {
                            out: Some(name(h.out_player_id.ok_or_else(|| {
                                DbError::Corrupt("a hand played out names no player".into())
                            })?)?),
                            left: h.left_given.then_some(counts),
                            ..EndRecord::default()
                        }),
                        other => return Err(DbError::Corrupt(format!("hand end `{other}`"))),
                    };
                    let hand_plays = plays
                        .remove(&h.id)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|p| {
                            Ok(PlayRecord {
                                by: name(p.player_id)?,
                                points: p.points,
                                out: p.out,
                                muggins: p.muggins,
                            })
                        })
                        .collect::<Result<Vec<_>>>()?;
                    game_hands.push(HandRecord {
                        plays: hand_plays,
                        end,
                    });
                }
                let game_penalties = penalties
                    .remove(&g.id)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|p| {
                        Ok(PenaltyRecord {
                            player: name(p.player_id)?,
                            kind: p.kind,
                            before_hand: p.before_hand,
                            minutes: p.minutes,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                let outcome = match (g.total_0, g.total_1, g.finished) {
                    (Some(t0), Some(t1), Some(finished)) => Some(GameOutcome {
                        totals: [t0, t1],
                        winner: g.winner_side.map(|w| w as usize),
                        finished,
                        next_pose: g.next_pose_player_id.map(name).transpose()?,
                    }),
                    _ => None,
                };
                board_games.push(GameResult {
                    record: GameRecord {
                        format: g.format,
                        players,
                        sides: sides
                            .into_values()
                            .map(|members| members.into_values().collect())
                            .collect(),
                        draw: g.draw_given.then_some(draw),
                        first_pose: g.first_pose_player_id.map(name).transpose()?,
                        hands: game_hands,
                        options: g
                            .options
                            .as_deref()
                            .map(|o| parse_json("game options", o))
                            .transpose()?,
                        penalties: game_penalties,
                    },
                    outcome,
                    score_only: g.score_only,
                });
            }
            boards.push(BoardResult {
                kind: b.kind.parse().map_err(DbError::Corrupt)?,
                home,
                away,
                games: board_games,
                conceded_by: b.conceded_by.as_deref().map(str::parse).transpose()?,
            });
        }
        out.insert(version, MatchResult { boards });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Records into rows

/// Most rows one INSERT carries (at most twelve values each: well under
/// either database's limit on a statement's parameters), on Postgres,
/// where each statement is a round trip to the server.
const ROWS_A_STATEMENT: usize = 1000;

/// The same on SQLite, in the program itself: binding each value looks
/// its name up in a list of the statement's names, a cost that grows with
/// the square of its values. A thousand rows a statement spent a third of
/// the demo's time there; 25 rows took the 10-league demo from 28 s to
/// 15 s of processor time (debug build).
const ROWS_A_STATEMENT_SQLITE: usize = 25;

/// Inserts `rows` (each its values in the columns' order) with `prefix`
/// (`INSERT INTO t (columns) `), at most [`ROWS_A_STATEMENT`] a
/// statement ([`ROWS_A_STATEMENT_SQLITE`] on SQLite).
async fn insert_rows(tx: &mut Tx, prefix: &str, rows: Vec<Vec<Arg>>) -> Result<()> {
    let per = tx.dialect(ROWS_A_STATEMENT_SQLITE, ROWS_A_STATEMENT);
    for (statement, values) in statements(prefix, rows, "", per) {
        let mut q = sql::query(&statement);
        for value in values {
            q = q.bind(value);
        }
        q.execute(&mut *tx).await?;
    }
    Ok(())
}

/// [`insert_rows`], reading back the rows `returning` (` RETURNING ...`)
/// gives.
async fn insert_rows_returning<T: Row>(
    tx: &mut Tx,
    prefix: &str,
    rows: Vec<Vec<Arg>>,
    returning: &str,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    let per = tx.dialect(ROWS_A_STATEMENT_SQLITE, ROWS_A_STATEMENT);
    for (statement, values) in statements(prefix, rows, returning, per) {
        let mut q = sql::query_as::<T>(&statement);
        for value in values {
            q = q.bind(value);
        }
        out.extend(q.fetch_all(&mut *tx).await?);
    }
    Ok(out)
}

/// The INSERT statements of `rows`, `per` rows each, with their values
/// in order.
fn statements(
    prefix: &str,
    rows: Vec<Vec<Arg>>,
    returning: &str,
    per: usize,
) -> Vec<(String, Vec<Arg>)> {
    let mut out = Vec::new();
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Arg>> = rows.by_ref().take(per).collect();
        let statement = format!(
            "{prefix}VALUES {}{returning}",
            sql::value_rows(chunk.len(), chunk[0].len(), 1)
        );
        out.push((statement, chunk.into_iter().flatten().collect()));
    }
    out
}

/// The id stored for a row's key, as its INSERT returned it.
fn stored<K: std::hash::Hash + Eq + std::fmt::Debug>(
    ids: &HashMap<K, i64>,
    key: K,
    what: &str,
) -> Result<i64> {
    ids.get(&key)
        .copied()
        .ok_or_else(|| DbError::Corrupt(format!("{what} {key:?} was not stored")))
}

struct BoardPlan {
    kind: BoardKind,
    conceded_by: Option<Side>,
    players: Vec<(Side, PlayerId)>,
    games: Vec<GamePlan>,
}

struct GamePlan {
    score_only: bool,
    format: String,
    options: Option<String>,
    draw_given: bool,
    first_pose: Option<PlayerId>,
    /// The outcome's columns: all `None` when no outcome was given.
    totals: [Option<i64>; 2],
    winner: Option<i64>,
    finished: Option<bool>,
    next_pose: Option<PlayerId>,
    /// In order of play.
    players: Vec<Seat>,
    hands: Vec<HandPlan>,
    penalties: Vec<(PlayerId, String, i64, Option<i64>)>,
}

struct Seat {
    player: PlayerId,
    /// Index into the record's `sides`; `None` until a side names the player.
    side: Option<i64>,
    side_position: i64,
    drawn_tile: Option<String>,
}

struct HandPlan {
    end_kind: &'static str,
    out: Option<PlayerId>,
    left_given: bool,
    pips: Vec<(PlayerId, i64)>,
    /// Player, points, out, muggins.
    plays: Vec<(PlayerId, i64, bool, bool)>,
}

/// A result the use case should have checked
/// ([`crate::league::match_result::check_names`]) names a player it
/// cannot store: refused like a check constraint, for the log.
fn unchecked(board: usize, game: usize, what: impl std::fmt::Display) -> DbError {
    DbError::Check(super::error::Constraint {
        table: Some("result rows".into()),
        detail: format!("board {board}, game {game}: {what} (the result was not checked)"),
    })
}

/// Turns a result, checked against `roster` before, into rows.
fn plan(result: &MatchResult, roster: &Roster) -> Result<Vec<BoardPlan>> {
    let mut boards = Vec::with_capacity(result.boards.len());
    for (bi, board) in result.boards.iter().enumerate() {
        let bn = bi + 1;
        // The board's players by name: the names its game records use.
        let mut by_name: HashMap<&str, PlayerId> = HashMap::new();
        let mut players = Vec::new();
        for (side, ids) in [(Side::Home, &board.home), (Side::Away, &board.away)] {
            for &id in ids {
                let (name, _) = roster
                    .get(&id)
                    .ok_or_else(|| unchecked(bn, 0, format!("player {id} is not registered")))?;
                by_name.insert(name.as_str(), id);
                players.push((side, id));
            }
        }
        let mut games = Vec::with_capacity(board.games.len());
        for (gi, game) in board.games.iter().enumerate() {
            let gn = gi + 1;
            let r = &game.record;
            let mut seats: Vec<Seat> = Vec::new();
            let mut in_game: HashMap<&str, usize> = HashMap::new();
            for (pos, n) in r.players.iter().enumerate() {
                in_game.insert(n.as_str(), pos);
                seats.push(Seat {
                    player: *by_name
                        .get(n.as_str())
                        .ok_or_else(|| unchecked(bn, gn, format!("`{n}` is not on the board")))?,
                    side: None,
                    side_position: 0,
                    drawn_tile: None,
                });
            }
            let seat = |n: &str| -> Result<usize> {
                in_game
                    .get(n)
                    .copied()
                    .ok_or_else(|| unchecked(bn, gn, format!("`{n}` is not in the game")))
            };
            for (side, members) in r.sides.iter().enumerate() {
                for (place, n) in members.iter().enumerate() {
                    let s = &mut seats[seat(n)?];
                    s.side = Some(side as i64);
                    s.side_position = place as i64;
                }
            }
            for (n, tile) in r.draw.iter().flatten() {
                seats[seat(n)?].drawn_tile = Some(tile.clone());
            }
            let game_player = |n: &str| -> Result<PlayerId> { Ok(seats[seat(n)?].player) };
            let mut hands = Vec::with_capacity(r.hands.len());
            for hand in &r.hands {
                let counts = |m: &BTreeMap<String, i64>| -> Result<Vec<(PlayerId, i64)>> {
                    m.iter().map(|(n, &p)| Ok((game_player(n)?, p))).collect()
                };
                let (end_kind, out, left_given, pips) = match &hand.end {
                    None => ("none", None, false, Vec::new()),
                    Some(EndRecord {
                        out: Some(n), left, ..
                    }) => (
                        "out",
                        Some(game_player(n)?),
                        left.is_some(),
                        left.as_ref().map(counts).transpose()?.unwrap_or_default(),
                    ),
                    Some(EndRecord {
                        blocked: Some(b), ..
                    }) => ("blocked", None, false, counts(b)?),
                    Some(EndRecord { .. }) => ("abandoned", None, false, Vec::new()),
                };
                let plays = hand
                    .plays
                    .iter()
                    .map(|p| Ok((game_player(&p.by)?, p.points, p.out, p.muggins)))
                    .collect::<Result<Vec<_>>>()?;
                hands.push(HandPlan {
                    end_kind,
                    out,
                    left_given,
                    pips,
                    plays,
                });
            }
            let penalties = r
                .penalties
                .iter()
                .map(|p| {
                    Ok((
                        game_player(&p.player)?,
                        p.kind.clone(),
                        p.before_hand,
                        p.minutes,
                    ))
                })
                .collect::<Result<Vec<_>>>()?;
            let outcome = game.outcome.as_ref();
            games.push(GamePlan {
                score_only: game.score_only,
                format: r.format.clone(),
                options: r.options.as_ref().map(json_text),
                draw_given: r.draw.is_some(),
                first_pose: r.first_pose.as_deref().map(game_player).transpose()?,
                totals: [outcome.map(|o| o.totals[0]), outcome.map(|o| o.totals[1])],
                winner: outcome.and_then(|o| o.winner).map(|w| w as i64),
                finished: outcome.map(|o| o.finished),
                next_pose: outcome
                    .and_then(|o| o.next_pose.as_deref())
                    .map(game_player)
                    .transpose()?,
                players: seats,
                hands,
                penalties,
            });
        }
        boards.push(BoardPlan {
            kind: board.kind,
            conceded_by: board.conceded_by,
            players,
            games,
        });
    }
    Ok(boards)
}

// ---------------------------------------------------------------------------

/// What a new version of a fixture's result is, beside its rows.
pub(crate) struct NewVersion<'a> {
    pub fixture: &'a Fixture,
    /// Its number: one past the current version's.
    pub number: i64,
    pub status: ResultStatus,
    pub note: String,
    /// The version it copies, for a restore.
    pub restored_from: Option<i64>,
    pub by: Option<UserId>,
}

/// The current version of `fixture`'s result, or `None` before any.
pub(crate) async fn current_version(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Option<ResultVersion>> {
    sql::query_as::<VersionRow>(&format!(
        "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
         ORDER BY version DESC LIMIT 1"
    ))
    .bind(league)
    .bind(fixture)
    .fetch_optional(&mut *tx)
    .await?
    .map(ResultVersion::try_from)
    .transpose()
}

/// Version number `n` of `fixture`'s result.
pub(crate) async fn numbered_version(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    n: i64,
) -> Result<ResultVersion> {
    sql::query_as::<VersionRow>(&format!(
        "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
         AND version = $3"
    ))
    .bind(league)
    .bind(fixture)
    .bind(n)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DbError::not_found(format!("version {n} of fixture {fixture}'s result")))?
    .try_into()
}

/// The result a stored version holds.
pub(crate) async fn version_result(
    tx: &mut Tx,
    league: LeagueId,
    version: ResultVersionId,
) -> Result<MatchResult> {
    let rows = fetch_version_rows(&mut (&mut *tx).on(), league, &[version]).await?;
    assemble_one(rows, version)
}

/// Who may be named on `f`'s boards, with their names and sides: the
/// players of its two teams on its date (transfers after it do not move a
/// player out of this match), or a singles or pairs cup tie's two entrants
/// (who may share a team).
pub(crate) async fn fixture_roster(tx: &mut Tx, league: LeagueId, f: &Fixture) -> Result<Roster> {
    let entrants: Vec<super::cups::TiePlayer> = if f.cup_id.is_some() {
        sql::query_as(super::cups::TIE_PLAYERS)
            .bind(league)
            .bind(f.id)
            .fetch_all(&mut *tx)
            .await?
    } else {
        Vec::new()
    };
    if !entrants.is_empty() {
        return entrants
            .into_iter()
            .map(|e| Ok((e.player.id, (e.player.name.clone(), e.side()?))))
            .collect();
    }
    Ok(super::transfers::roster_on_date(
        &mut (&mut *tx).on(),
        league,
        f.season_id,
        f.home_team_id,
        f.away_team_id,
        f.starts_at,
    )
    .await?
    .into_iter()
    .map(|(p, team)| {
        let side = if team == f.home_team_id {
            Side::Home
        } else {
            Side::Away
        };
        (p.id, (p.name, side))
    })
    .collect())
}

/// The sides of `f` whose captain `user` is this season.
pub(crate) async fn captain_sides(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    user: UserId,
) -> Result<Vec<Side>> {
    let teams: Vec<Option<TeamId>> = sql::query_scalar(
        "SELECT team_id FROM roles WHERE user_id = $1 AND kind = 'captain' \
         AND league_id = $2 AND season_id = $3",
    )
    .bind(user)
    .bind(league)
    .bind(f.season_id)
    .fetch_all(&mut *tx)
    .await?;
    Ok(teams
        .into_iter()
        .flatten()
        .filter_map(|team| {
            if team == f.home_team_id {
                Some(Side::Home)
            } else if team == f.away_team_id {
                Some(Side::Away)
            } else {
                None
            }
        })
        .collect())
}

/// Keeps on each board of the version `version` its games won and pegs
/// scored by each side ([`super::counted::BOARD_SUMS`]):
/// a version never changes once written, so they are summed once here, not
/// from every game and seat on each page. Migration 0041 summed the boards
/// written before it the same way.
async fn keep_board_sums(tx: &mut Tx, version: ResultVersionId) -> Result<()> {
    sql::query(&format!(
        "UPDATE boards SET counted_games = s.counted_games, home_games = s.home_games, \
         away_games = s.away_games, home_pegs = s.home_pegs, away_pegs = s.away_pegs \
         FROM (SELECT bp.board_id, CAST(COUNT(*) AS BIGINT) AS counted_games, {BOARD_SUMS} \
           FROM boards b \
           JOIN board_players bp ON bp.board_id = b.id AND bp.side = 'home' \
             AND bp.position = 1 \
           JOIN games g ON g.board_id = b.id \
           JOIN game_players gp ON gp.game_id = g.id AND gp.player_id = bp.player_id \
           WHERE b.version_id = $1 GROUP BY bp.board_id) AS s \
         WHERE boards.id = s.board_id",
    ))
    .bind(version)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// A seat's 8-point plays and chip-outs in `game`, kept on the seat
/// (migration 0042) for the player table's sums.
fn scoring_plays(game: &GamePlan, player: PlayerId) -> (i64, i64) {
    let plays = game
        .hands
        .iter()
        .flat_map(|h| &h.plays)
        .filter(|p| p.0 == player);
    plays.fold((0, 0), |(eights, outs), &(_, points, out, _)| {
        (eights + i64::from(points == 8), outs + i64::from(out))
    })
}

/// Writes `result`, checked against `roster` (who may be named, for which
/// side) by the use case, as the version `new` of its fixture, every row of
/// it; the earlier versions' rows stay. Not audited here: the use case writes
/// the entry with the version before and after.
pub(crate) async fn insert_version(
    tx: &mut Tx,
    league: LeagueId,
    new: NewVersion<'_>,
    result: &MatchResult,
    roster: &Roster,
) -> Result<ResultVersion> {
    let boards = plan(result, roster)?;
    let version: ResultVersion = sql::query_as::<VersionRow>(&format!(
        "INSERT INTO result_versions (league_id, fixture_id, version, status, status_note, \
         format, options, restored_from, created_by, created_at) \
         SELECT $1, $2, $3, $4, $5, s.format, s.options, $6, $7, $8 FROM seasons s \
         WHERE s.league_id = $1 AND s.id = $9 RETURNING {VERSION_COLUMNS}"
    ))
    .bind(league)
    .bind(new.fixture.id)
    .bind(new.number)
    .bind(new.status.as_str())
    .bind(new.note)
    .bind(new.restored_from)
    .bind(new.by)
    .bind(now())
    .bind(new.fixture.season_id)
    .fetch_one(&mut *tx)
    .await?
    .try_into()?;

    // Each kind of row of the whole result in one statement (or a
    // few, past ROWS_A_STATEMENT rows): a match is thousands of rows,
    // and a statement a row, or a game, made the demo's bulk load
    // wait on round trips. Ids come back with each row's own key.
    let board_rows: Vec<(i64, &BoardPlan)> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (i as i64 + 1, b))
        .collect();
    let board_ids: HashMap<i64, i64> = insert_rows_returning::<(i64, i64)>(
        tx,
        "INSERT INTO boards (version_id, number, kind, conceded_by) ",
        board_rows
            .iter()
            .map(|(number, board)| {
                vec![
                    version.id.arg(),
                    (*number).arg(),
                    board.kind.as_str().arg(),
                    board.conceded_by.map(Side::as_str).arg(),
                ]
            })
            .collect(),
        " RETURNING number, id",
    )
    .await?
    .into_iter()
    .collect();
    let board_id = |number: i64| stored(&board_ids, number, "board");

    let mut board_players = Vec::new();
    let mut game_rows = Vec::new();
    for (number, board) in &board_rows {
        let id = board_id(*number)?;
        let mut places = HashMap::new();
        for &(side, player) in &board.players {
            let place = places.entry(side).or_insert(0_i64);
            *place += 1;
            board_players.push((id, side, *place, player));
        }
        for (gi, game) in board.games.iter().enumerate() {
            game_rows.push((id, gi as i64 + 1, game));
        }
    }
    insert_rows(
        tx,
        "INSERT INTO board_players (board_id, side, position, player_id) ",
        board_players
            .iter()
            .map(|&(board, side, position, player)| {
                vec![
                    board.arg(),
                    side.as_str().arg(),
                    position.arg(),
                    player.arg(),
                ]
            })
            .collect(),
    )
    .await?;

    let game_ids: HashMap<(i64, i64), i64> = insert_rows_returning::<(i64, i64, i64)>(
        tx,
        "INSERT INTO games (board_id, number, format, options, draw_given, \
         first_pose_player_id, total_0, total_1, winner_side, finished, \
         next_pose_player_id, score_only) ",
        game_rows
            .iter()
            .map(|&(board, number, game)| {
                vec![
                    board.arg(),
                    number.arg(),
                    game.format.clone().arg(),
                    game.options.clone().arg(),
                    game.draw_given.arg(),
                    game.first_pose.arg(),
                    game.totals[0].arg(),
                    game.totals[1].arg(),
                    game.winner.arg(),
                    game.finished.arg(),
                    game.next_pose.arg(),
                    game.score_only.arg(),
                ]
            })
            .collect(),
        " RETURNING board_id, number, id",
    )
    .await?
    .into_iter()
    .map(|(board, number, id)| ((board, number), id))
    .collect();

    let mut seats = Vec::new();
    let mut hand_rows = Vec::new();
    let mut penalties = Vec::new();
    for &(board, number, game) in &game_rows {
        let id = stored(&game_ids, (board, number), "game")?;
        for (pos, seat) in game.players.iter().enumerate() {
            let (eights, chip_outs) = scoring_plays(game, seat.player);
            seats.push((id, pos as i64 + 1, seat, eights, chip_outs));
        }
        for (hi, hand) in game.hands.iter().enumerate() {
            hand_rows.push((id, hi as i64 + 1, hand));
        }
        for (ni, (player, kind, before_hand, minutes)) in game.penalties.iter().enumerate() {
            penalties.push((
                id,
                ni as i64 + 1,
                *player,
                kind.clone(),
                *before_hand,
                *minutes,
            ));
        }
    }
    insert_rows(
        tx,
        "INSERT INTO game_players (game_id, position, player_id, side, side_position, \
         drawn_tile, eights, chip_outs) ",
        seats
            .iter()
            .map(|&(game, position, seat, eights, chip_outs)| {
                vec![
                    game.arg(),
                    position.arg(),
                    seat.player.arg(),
                    seat.side.arg(),
                    seat.side_position.arg(),
                    seat.drawn_tile.clone().arg(),
                    eights.arg(),
                    chip_outs.arg(),
                ]
            })
            .collect(),
    )
    .await?;
    keep_board_sums(tx, version.id).await?;
    insert_rows(
        tx,
        "INSERT INTO game_penalties (game_id, number, player_id, kind, before_hand, \
         minutes) ",
        penalties
            .iter()
            .map(|(game, number, player, kind, before_hand, minutes)| {
                vec![
                    (*game).arg(),
                    (*number).arg(),
                    (*player).arg(),
                    kind.clone().arg(),
                    (*before_hand).arg(),
                    (*minutes).arg(),
                ]
            })
            .collect(),
    )
    .await?;

    let hand_ids: HashMap<(i64, i64), i64> = insert_rows_returning::<(i64, i64, i64)>(
        tx,
        "INSERT INTO hands (game_id, number, end_kind, out_player_id, left_given) ",
        hand_rows
            .iter()
            .map(|&(game, number, hand)| {
                vec![
                    game.arg(),
                    number.arg(),
                    hand.end_kind.arg(),
                    hand.out.arg(),
                    hand.left_given.arg(),
                ]
            })
            .collect(),
        " RETURNING game_id, number, id",
    )
    .await?
    .into_iter()
    .map(|(game, number, id)| ((game, number), id))
    .collect();
    let mut pips = Vec::new();
    let mut plays = Vec::new();
    for &(game, number, hand) in &hand_rows {
        let id = stored(&hand_ids, (game, number), "hand")?;
        pips.extend(hand.pips.iter().map(|&(player, n)| (id, player, n)));
        plays.extend(
            hand.plays
                .iter()
                .enumerate()
                .map(|(pi, &(player, points, out, muggins))| {
                    (id, pi as i64 + 1, player, points, out, muggins)
                }),
        );
    }
    insert_rows(
        tx,
        "INSERT INTO hand_pips (hand_id, player_id, pips) ",
        pips.iter()
            .map(|&(hand, player, n)| vec![hand.arg(), player.arg(), n.arg()])
            .collect(),
    )
    .await?;
    insert_rows(
        tx,
        "INSERT INTO plays (hand_id, number, player_id, points, out, muggins) ",
        plays
            .iter()
            .map(|&(hand, number, player, points, out, muggins)| {
                vec![
                    hand.arg(),
                    number.arg(),
                    player.arg(),
                    points.arg(),
                    out.arg(),
                    muggins.arg(),
                ]
            })
            .collect(),
    )
    .await?;

    Ok(version)
}

/// Sets `version`'s status and note, as `by` at this moment.
pub(crate) async fn set_version_status(
    tx: &mut Tx,
    league: LeagueId,
    version: &ResultVersion,
    status: ResultStatus,
    note: &str,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    sql::query_as::<VersionRow>(&format!(
        "UPDATE result_versions SET status = $3, status_note = $4, status_by = $5, \
         status_at = $6 WHERE league_id = $1 AND id = $2 RETURNING {VERSION_COLUMNS}"
    ))
    .bind(league)
    .bind(version.id)
    .bind(status.as_str())
    .bind(note)
    .bind(by)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

impl Db {
    /// The current version of a fixture's result, or `None` before any.
    pub async fn result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Option<StoredResult>> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
             ORDER BY version DESC LIMIT 1"
        );
        self.load_result(league, &sql, fixture, None).await
    }

    /// One version of a fixture's result, current or not.
    pub async fn result_version(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        version: i64,
    ) -> Result<StoredResult> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
             AND version = $3"
        );
        self.load_result(league, &sql, fixture, Some(version))
            .await?
            .ok_or_else(|| {
                DbError::not_found(format!("version {version} of fixture {fixture}'s result"))
            })
    }

    async fn load_result(
        &self,
        league: LeagueId,
        version_sql: &str,
        fixture: FixtureId,
        version: Option<i64>,
    ) -> Result<Option<StoredResult>> {
        // One read transaction, so the rows come from one snapshot.
        {
            let mut tx = self.read_tx().await?;
            let mut query = sql::query_as::<VersionRow>(version_sql)
                .bind(league)
                .bind(fixture);
            if let Some(n) = version {
                query = query.bind(n);
            }
            let Some(row) = query.fetch_optional(&mut tx).await? else {
                return Ok(None);
            };
            let version = ResultVersion::try_from(row)?;
            let result = assemble_one(
                fetch_version_rows(&mut (&mut tx).on(), league, &[version.id]).await?,
                version.id,
            )?;
            tx.commit().await?;
            Ok(Some(StoredResult { version, result }))
        }
    }

    /// Every version of a fixture's result, oldest first.
    pub async fn result_versions(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Vec<ResultVersion>> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
             ORDER BY version"
        );
        sql::query_as::<VersionRow>(&sql)
            .bind(league)
            .bind(fixture)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(ResultVersion::try_from)
            .collect()
    }
}

/// A player's games in a season's current, approved results: played (games
/// with a finished outcome) and won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct PlayerGames {
    pub player_id: PlayerId,
    pub played: i64,
    pub won: i64,
}

pub(crate) use super::counted::CURRENT_VERSION as CURRENT;
use super::counted::{BOARD_SUMS, COUNTED_GAMES};

impl Db {
    /// The current result of every fixture of a season that has one, by
    /// round: what the tables are computed from. With `approved_only`,
    /// provisional results are left out.
    pub async fn season_results(
        &self,
        league: LeagueId,
        season: SeasonId,
        approved_only: bool,
    ) -> Result<Vec<StoredResult>> {
        let columns = VERSION_COLUMNS
            .split(", ")
            .map(|c| format!("v.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let approved = if approved_only {
            "AND v.status = 'approved'"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {columns} FROM result_versions v \
             JOIN fixtures f ON f.id = v.fixture_id AND f.league_id = v.league_id \
             WHERE v.league_id = $1 AND f.season_id = $2 AND {CURRENT} {approved} \
             ORDER BY f.round, f.starts_at, f.id"
        );
        {
            let mut tx = self.read_tx().await?;
            let versions = sql::query_as::<VersionRow>(&sql)
                .bind(league)
                .bind(season)
                .fetch_all(&mut tx)
                .await?;
            let mut out = Vec::with_capacity(versions.len());
            for row in versions {
                let version = ResultVersion::try_from(row)?;
                let result = assemble_one(
                    fetch_version_rows(&mut (&mut tx).on(), league, &[version.id]).await?,
                    version.id,
                )?;
                out.push(StoredResult { version, result });
            }
            tx.commit().await?;
            Ok(out)
        }
    }

    /// The current results of `fixtures` that have one, with the names of
    /// every player in them: ten queries however many fixtures (the
    /// versions, then their rows all at once), in one read transaction.
    pub async fn current_results(
        &self,
        league: LeagueId,
        fixtures: &[FixtureId],
    ) -> Result<(Vec<StoredResult>, HashMap<PlayerId, String>)> {
        if fixtures.is_empty() {
            return Ok((Vec::new(), HashMap::new()));
        }
        {
            let mut tx = self.read_tx().await?;
            let versions = current_versions(&mut tx, league, fixtures).await?;
            let ids: Vec<ResultVersionId> = versions.iter().map(|v| v.id).collect();
            let rows = fetch_version_rows(&mut (&mut tx).on(), league, &ids).await?;
            let names: HashMap<PlayerId, String> =
                rows.names.iter().map(|n| (n.id, n.name.clone())).collect();
            let mut results = assemble(rows)?;
            tx.commit().await?;
            let out = versions
                .into_iter()
                .map(|version| StoredResult {
                    result: results.remove(&version.id).unwrap_or_default(),
                    version,
                })
                .collect();
            Ok((out, names))
        }
    }

    /// [`Db::current_results`], with each result's hands read from the
    /// database only when `kept` does not hold it already. A version's rows
    /// never change once written; only its players' names may (a rename),
    /// so a kept result is used only while every one of its players still
    /// has the name it was made with. A season's honours and a week's
    /// round-up read every hand of their matches: after a change, only the
    /// results new since are read whole again.
    pub async fn current_results_kept(
        &self,
        kept: &KeptResults,
        league: LeagueId,
        fixtures: &[FixtureId],
    ) -> Result<(Vec<SharedResult>, HashMap<PlayerId, String>)> {
        if fixtures.is_empty() {
            return Ok((Vec::new(), HashMap::new()));
        }
        let mut tx = self.read_tx().await?;
        let versions = current_versions(&mut tx, league, fixtures).await?;
        let ids: Vec<ResultVersionId> = versions.iter().map(|v| v.id).collect();
        let names: HashMap<PlayerId, String> = fetch_names(&mut (&mut tx).on(), league, &ids)
            .await?
            .into_iter()
            .map(|n| (n.id, n.name))
            .collect();
        let mut found = kept.current(&ids, &names);
        let missing: Vec<ResultVersionId> = ids
            .iter()
            .filter(|id| !found.contains_key(id))
            .copied()
            .collect();
        if !missing.is_empty() {
            let rows = fetch_version_rows(&mut (&mut tx).on(), league, &missing).await?;
            for (id, result) in assemble(rows)? {
                let result = Arc::new(result);
                kept.keep(id, &result, &names);
                found.insert(id, result);
            }
        }
        tx.commit().await?;
        let out = versions
            .into_iter()
            .map(|version| SharedResult {
                result: found.remove(&version.id).unwrap_or_default(),
                version,
            })
            .collect();
        Ok((out, names))
    }

    /// Games played and won by each player in a season's current, approved
    /// league results (cup games are counted apart), from the stored
    /// outcomes: one query over the rows.
    pub async fn player_games(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<PlayerGames>> {
        let sql = format!(
            "SELECT gp.player_id, CAST(COUNT(*) AS BIGINT) AS played, \
             CAST(SUM(CASE WHEN g.winner_side = gp.side THEN 1 ELSE 0 END) AS BIGINT) AS won \
             FROM game_players gp JOIN games g ON g.id = gp.game_id \
             JOIN boards b ON b.id = g.board_id JOIN result_versions v ON v.id = b.version_id \
             JOIN fixtures f ON f.id = v.fixture_id AND f.league_id = v.league_id \
             WHERE v.league_id = $1 AND f.season_id = $2 AND f.cup_id IS NULL \
             AND {COUNTED_GAMES} \
             GROUP BY gp.player_id ORDER BY gp.player_id"
        );
        sql::query_as::<PlayerGames>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }
}
