//! Reads shaped for the public pages: a few queries a page, each returning
//! every row the page lists (with the names it shows) at once, never one
//! query per row. Every query is scoped by the league.
//!
//! The division table is computed from [`BoardLine`]s: one aggregate query
//! giving, per board of each fixture's current result, the games each team
//! won and the points ("pegs") each scored, from the outcomes stored with
//! the games; the hands themselves are not read. [`match_lines`] turns
//! those, and the walkovers, into the league core's
//! [`MatchLine`](crate::league::standings::MatchLine)s.

use super::counted::AWAITING_RESULT;
use super::sql::{self, Arg, Bind};
use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::{
    CupId, Db, DbError, DivisionId, FixtureId, FixtureStatus, LeagueId, PenaltyEffect, PenaltyId,
    PlayerId, Result, ResultStatus, SeasonId, Side, TeamId, VenueId,
};
use crate::league::fixture_state::{FixtureState, conceding_side};
use crate::league::match_format::MatchFormat;
pub use crate::league::match_score::{BoardLine, Score};
use crate::league::match_score::{Fixture, FixtureFacts};
use crate::league::standings::Deduction;

/// Which fixtures a listing covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureScope {
    /// One fixture.
    One(FixtureId),
    /// Every fixture of a division.
    Division(DivisionId),
    /// Every tie of a cup.
    Cup(CupId),
    /// Every fixture of a season.
    Season(SeasonId),
    /// A team's fixtures in a season, home and away.
    Team { season: SeasonId, team: TeamId },
    /// These fixtures (an empty list matches none).
    Ids(Vec<FixtureId>),
    /// Matches in progress: starting in `[from, to)`, or with a current
    /// result not yet approved.
    Live {
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    /// Fixtures awaiting a result (`counted::AWAITING_RESULT`) that started
    /// before `before`; which of them are overdue is `league::overdue`'s.
    Missing { before: DateTime<Utc> },
    /// Fixtures not void starting in `[from, to)`.
    Between {
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
}

/// The current result version's status of fixture `f`, as a column.
const RESULT_STATUS: &str = "(SELECT v.status FROM result_versions v \
     WHERE v.fixture_id = f.id AND v.league_id = f.league_id \
     ORDER BY v.version DESC LIMIT 1)";

impl FixtureScope {
    /// The values of [`FixtureScope::condition`]'s placeholders, in order.
    fn args(&self) -> Vec<Arg> {
        match self {
            FixtureScope::One(id) => vec![id.arg()],
            FixtureScope::Division(id) => vec![id.arg()],
            FixtureScope::Cup(id) => vec![id.arg()],
            FixtureScope::Season(id) => vec![id.arg()],
            FixtureScope::Missing { before } => vec![before.arg()],
            FixtureScope::Between { from, to } | FixtureScope::Live { from, to } => {
                vec![from.arg(), to.arg()]
            }
            FixtureScope::Team { season, team } => vec![season.arg(), team.arg()],
            FixtureScope::Ids(ids) => ids.iter().map(|id| id.arg()).collect(),
        }
    }

    /// No fixture: named by no id (a player in no cup). Answered without a
    /// query: on Postgres even a query that finds nothing is planned, a
    /// few milliseconds for the fixture lines' joins.
    fn is_empty(&self) -> bool {
        matches!(self, FixtureScope::Ids(ids) if ids.is_empty())
    }

    /// The condition on `f` (a fixture of league `$1`), with placeholders
    /// from `$2`.
    fn condition(&self) -> String {
        match self {
            FixtureScope::One(_) => "f.id = $2".into(),
            FixtureScope::Division(_) => "f.division_id = $2".into(),
            FixtureScope::Cup(_) => "f.cup_id = $2".into(),
            FixtureScope::Season(_) => "f.season_id = $2".into(),
            FixtureScope::Team { .. } => {
                "f.season_id = $2 AND (f.home_team_id = $3 OR f.away_team_id = $3)".into()
            }
            FixtureScope::Ids(ids) if ids.is_empty() => "1 = 0".into(),
            FixtureScope::Ids(ids) => {
                let places: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
                format!("f.id IN ({})", places.join(", "))
            }
            FixtureScope::Live { .. } => format!(
                "((f.starts_at >= $2 AND f.starts_at < $3) \
                 OR {RESULT_STATUS} IN ('entered', 'confirmed', 'disputed'))"
            ),
            FixtureScope::Missing { .. } => format!("{AWAITING_RESULT} AND f.starts_at < $2"),
            FixtureScope::Between { .. } => {
                "f.starts_at >= $2 AND f.starts_at < $3 AND f.status <> 'void'".into()
            }
        }
    }
}

/// A fixture as the pages list it: with its competition's (division's or
/// cup's), teams' and venue's names, and where its current result stands.
#[derive(Debug, Clone, PartialEq)]
pub struct FixtureLine {
    pub id: FixtureId,
    pub season_id: SeasonId,
    /// The division of a league fixture.
    pub division_id: Option<DivisionId>,
    /// The cup of a cup tie.
    pub cup_id: Option<CupId>,
    /// The division's or the cup's name.
    pub competition: String,
    /// A cup tie played in its cup's own match format; `None` plays in the
    /// season's.
    pub cup_format: Option<MatchFormat>,
    /// A cup tie: the rounds its cup has, the final included.
    pub cup_rounds: Option<u32>,
    pub round: i64,
    pub starts_at: Option<DateTime<Utc>>,
    pub status: FixtureStatus,
    pub conceded_by: Option<Side>,
    pub home_team_id: TeamId,
    pub home_name: String,
    pub away_team_id: TeamId,
    pub away_name: String,
    /// A singles or pairs cup tie: the entrants' players (`Ann & Bob`),
    /// whose teams are `home_name` and `away_name`.
    pub home_entrant: Option<String>,
    pub away_entrant: Option<String>,
    pub venue_id: Option<VenueId>,
    pub venue_name: Option<String>,
    /// The current result version's status; `None` before any result.
    pub result_status: Option<ResultStatus>,
    /// A play-off: settles teams level on every rule, never counted in the
    /// table.
    pub playoff: bool,
}

#[derive(sqlx::FromRow)]
struct FixtureLineRow {
    id: FixtureId,
    season_id: SeasonId,
    division_id: Option<DivisionId>,
    cup_id: Option<CupId>,
    competition: String,
    cup_format: Option<String>,
    cup_first_ties: Option<i64>,
    round: i64,
    starts_at: Option<DateTime<Utc>>,
    status: String,
    conceded_by: Option<String>,
    home_team_id: TeamId,
    home_name: String,
    away_team_id: TeamId,
    away_name: String,
    home_entrant: Option<String>,
    away_entrant: Option<String>,
    venue_id: Option<VenueId>,
    venue_name: Option<String>,
    result_status: Option<String>,
    playoff: bool,
}

impl FixtureLine {
    /// The round as people call it: a league round's number, a cup's
    /// "Final", "Semi-finals", ... or "Round N".
    pub fn round_name(&self) -> String {
        match self.cup_rounds {
            Some(rounds) => crate::league::cup::round_name(
                u32::try_from(self.round).unwrap_or(u32::MAX),
                rounds,
            ),
            None => self.round.to_string(),
        }
    }

    /// The round as a heading says it: "Round 3", or a cup's "Final".
    pub fn round_title(&self) -> String {
        match self.cup_rounds {
            Some(_) => self.round_name(),
            None => format!("Round {}", self.round),
        }
    }

    /// The round in a sentence: "round 3", or a cup's "Final".
    pub fn round_words(&self) -> String {
        match self.cup_rounds {
            Some(_) => self.round_name(),
            None => format!("round {}", self.round),
        }
    }

    /// The home side as a listing names it: the team, or for a singles or
    /// pairs cup tie the entrant with their team (`Ann Smith (Crown)`).
    pub fn home_label(&self) -> String {
        side_label(self.home_entrant.as_deref(), &self.home_name)
    }

    pub fn away_label(&self) -> String {
        side_label(self.away_entrant.as_deref(), &self.away_name)
    }

    /// Where it stands, given whether a result (or a walkover score) is in.
    pub fn state(&self, has_result: bool) -> FixtureState {
        FixtureState::of(self.status, has_result)
    }

    /// [`FixtureLine::state`] in words, naming the side that conceded.
    pub fn state_words(&self, has_result: bool) -> String {
        let state = self.state(has_result);
        let conceded = match conceding_side(self.conceded_by) {
            Side::Home => self.home_label(),
            Side::Away => self.away_label(),
        };
        state.words((state == FixtureState::Walkover).then_some(conceded.as_str()))
    }
}

fn side_label(entrant: Option<&str>, team: &str) -> String {
    match entrant {
        Some(players) => format!("{players} ({team})"),
        None => team.to_owned(),
    }
}

impl TryFrom<FixtureLineRow> for FixtureLine {
    type Error = DbError;

    fn try_from(r: FixtureLineRow) -> Result<FixtureLine> {
        Ok(FixtureLine {
            id: r.id,
            season_id: r.season_id,
            division_id: r.division_id,
            cup_id: r.cup_id,
            competition: r.competition,
            cup_format: r
                .cup_format
                .as_deref()
                .map(super::cups::parse_format)
                .transpose()?,
            cup_rounds: r
                .cup_first_ties
                .map(|n| crate::league::cup::rounds(usize::try_from(n).unwrap_or(0) * 2)),
            round: r.round,
            starts_at: r.starts_at,
            status: r.status.parse()?,
            conceded_by: r.conceded_by.map(|s| s.parse()).transpose()?,
            home_team_id: r.home_team_id,
            home_name: r.home_name,
            away_team_id: r.away_team_id,
            away_name: r.away_name,
            home_entrant: r.home_entrant,
            away_entrant: r.away_entrant,
            venue_id: r.venue_id,
            venue_name: r.venue_name,
            result_status: r.result_status.map(|s| s.parse()).transpose()?,
            playoff: r.playoff,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct BoardLineRow {
    fixture_id: FixtureId,
    status: String,
    board: i64,
    home_games: i64,
    away_games: i64,
    home_pegs: i64,
    away_pegs: i64,
    conceded_by: Option<String>,
}

impl TryFrom<BoardLineRow> for BoardLine {
    type Error = DbError;

    fn try_from(r: BoardLineRow) -> Result<BoardLine> {
        Ok(BoardLine {
            fixture_id: r.fixture_id,
            status: r.status.parse()?,
            board: r.board,
            home_games: r.home_games,
            away_games: r.away_games,
            home_pegs: r.home_pegs,
            away_pegs: r.away_pegs,
            conceded_by: r.conceded_by.as_deref().map(str::parse).transpose()?,
        })
    }
}

/// The query of [`Db::board_lines`] for `scope` (league `$1`, then the
/// scope's placeholders); also run inside write transactions (a cup's
/// advance).
pub(super) fn board_lines_sql(scope: &FixtureScope, approved_only: bool) -> String {
    // Each board's sums were kept on it when its version was written
    // (`results::keep_board_sums`): no game is read.
    board_lines_with(
        scope,
        approved_only,
        "SELECT v.fixture_id, v.status, b.number AS board, b.home_games, b.away_games, \
         b.home_pegs, b.away_pegs, CAST(NULL AS TEXT) AS conceded_by \
         FROM fixtures f \
         JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
         JOIN boards b ON b.version_id = v.id AND b.counted_games > 0",
        "",
    )
}

/// [`board_lines_sql`] summed from every game and seat: the definition
/// the sums kept on each board are tested against.
fn board_lines_from_games_sql(scope: &FixtureScope, approved_only: bool) -> String {
    board_lines_with(
        scope,
        approved_only,
        &format!(
            "SELECT v.fixture_id, v.status, b.number AS board, {BOARD_SUMS}, \
             CAST(NULL AS TEXT) AS conceded_by \
             FROM fixtures f \
             JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
             JOIN boards b ON b.version_id = v.id \
             JOIN board_players bp ON bp.board_id = b.id AND bp.side = 'home' \
               AND bp.position = 1 \
             JOIN games g ON g.board_id = b.id \
             JOIN game_players gp ON gp.game_id = g.id AND gp.player_id = bp.player_id"
        ),
        "GROUP BY v.fixture_id, v.status, b.number",
    )
}

/// The board lines of `scope`: `played` (with its `group`) for boards
/// played, and a line for each board conceded.
fn board_lines_with(
    scope: &FixtureScope,
    approved_only: bool,
    played: &str,
    group: &str,
) -> String {
    let approved = if approved_only {
        "AND v.status = 'approved'"
    } else {
        ""
    };
    format!(
        "{played} \
         WHERE f.league_id = $1 AND {cond} AND {CURRENT} {approved} \
         {group} \
         UNION ALL \
         SELECT v.fixture_id, v.status, b.number AS board, CAST(0 AS BIGINT), \
         CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), b.conceded_by \
         FROM fixtures f \
         JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
         JOIN boards b ON b.version_id = v.id AND b.conceded_by IS NOT NULL \
         WHERE f.league_id = $1 AND {cond} AND {CURRENT} {approved} \
         ORDER BY fixture_id, board",
        cond = scope.condition()
    )
}

/// A team entered in a season, with its name and division.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EntryLine {
    pub season_id: SeasonId,
    pub season_name: String,
    pub division_id: DivisionId,
    pub division_name: String,
    pub team_id: TeamId,
    pub team_name: String,
}

/// A team with its home venue.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TeamInfo {
    pub id: TeamId,
    pub name: String,
    pub venue_id: Option<VenueId>,
    pub venue_name: Option<String>,
    pub venue_address: Option<String>,
}

/// A penalty with the names the pages show beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct PenaltyLine {
    pub id: PenaltyId,
    pub season_id: SeasonId,
    pub season_name: String,
    pub fixture_id: Option<FixtureId>,
    pub fixture_round: Option<i64>,
    pub fixture_starts_at: Option<DateTime<Utc>>,
    pub team_id: Option<TeamId>,
    pub team_name: Option<String>,
    pub player_id: Option<PlayerId>,
    pub player_name: Option<String>,
    pub kind_name: String,
    pub effect: PenaltyEffect,
    pub amount: i64,
    pub note: String,
    pub recorded_at: DateTime<Utc>,
    pub voided_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct PenaltyLineRow {
    id: PenaltyId,
    season_id: SeasonId,
    season_name: String,
    fixture_id: Option<FixtureId>,
    fixture_round: Option<i64>,
    fixture_starts_at: Option<DateTime<Utc>>,
    team_id: Option<TeamId>,
    team_name: Option<String>,
    player_id: Option<PlayerId>,
    player_name: Option<String>,
    kind_name: String,
    effect: String,
    amount: i64,
    note: String,
    recorded_at: DateTime<Utc>,
    voided_at: Option<DateTime<Utc>>,
}

impl TryFrom<PenaltyLineRow> for PenaltyLine {
    type Error = DbError;

    fn try_from(r: PenaltyLineRow) -> Result<PenaltyLine> {
        Ok(PenaltyLine {
            id: r.id,
            season_id: r.season_id,
            season_name: r.season_name,
            fixture_id: r.fixture_id,
            fixture_round: r.fixture_round,
            fixture_starts_at: r.fixture_starts_at,
            team_id: r.team_id,
            team_name: r.team_name,
            player_id: r.player_id,
            player_name: r.player_name,
            kind_name: r.kind_name,
            effect: r.effect.parse()?,
            amount: r.amount,
            note: r.note,
            recorded_at: r.recorded_at,
            voided_at: r.voided_at,
        })
    }
}

/// Whose penalties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PenaltyScope {
    /// Against a team in a season.
    Team { season: SeasonId, team: TeamId },
    /// Against a player, every season.
    Player(PlayerId),
    /// Given in a fixture, against either team or any player.
    Fixture(FixtureId),
    /// Every penalty of a season.
    Season(SeasonId),
}

/// League points taken from a team (penalties of a `league_points` kind,
/// not voided), with the round of the fixture they were given in.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeductionLine {
    pub team_id: TeamId,
    pub amount: i64,
    pub round: Option<i64>,
    pub fixture_id: Option<FixtureId>,
    pub kind_name: String,
    pub note: String,
}

/// A player's registration in a season, with the names the pages show.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerSeason {
    pub season_id: SeasonId,
    pub season_name: String,
    pub team_id: TeamId,
    pub team_name: String,
    pub division_id: DivisionId,
    pub division_name: String,
}

/// Games a player played and won in one season's current, approved
/// results (finished games only): the league's, or the cups'.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SeasonGames {
    pub season_id: SeasonId,
    /// Cup games (else league games).
    pub cup: bool,
    pub played: i64,
    pub won: i64,
}

/// One game a player played, from the current result of its fixture.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerGame {
    pub game_id: i64,
    pub fixture_id: FixtureId,
    pub starts_at: Option<DateTime<Utc>>,
    /// A cup game: the cup's name.
    pub cup_name: Option<String>,
    pub home_name: String,
    pub away_name: String,
    /// Which team the player played for.
    pub team_side: Side,
    pub board: i64,
    pub game: i64,
    /// The player's side in the game record (0 or 1).
    pub side: i64,
    pub totals: Option<[i64; 2]>,
    pub winner_side: Option<i64>,
    pub finished: Option<bool>,
    pub result_status: ResultStatus,
    /// Entered by its final score only.
    pub score_only: bool,
}

#[derive(sqlx::FromRow)]
struct PlayerGameRow {
    game_id: i64,
    fixture_id: FixtureId,
    starts_at: Option<DateTime<Utc>>,
    cup_name: Option<String>,
    home_name: String,
    away_name: String,
    team_side: String,
    board: i64,
    game: i64,
    side: i64,
    total_0: Option<i64>,
    total_1: Option<i64>,
    winner_side: Option<i64>,
    finished: Option<bool>,
    result_status: String,
    score_only: bool,
}

/// A player of a game, for naming partners and opponents.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameSeat {
    pub game_id: i64,
    pub player_id: PlayerId,
    pub name: String,
    pub side: i64,
}

/// A registered player of one of a fixture's teams.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RosterLine {
    pub player_id: PlayerId,
    pub name: String,
    pub team_id: TeamId,
}

use super::counted::{BOARD_SUMS, COUNTED_GAMES, CURRENT_VERSION as CURRENT};

impl Db {
    /// The fixtures of `scope` with the names a listing shows, by round,
    /// date and id.
    pub async fn fixture_lines(
        &self,
        league: LeagueId,
        scope: &FixtureScope,
    ) -> Result<Vec<FixtureLine>> {
        if scope.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT f.id, f.season_id, f.division_id, f.cup_id, \
             COALESCE(d.name, c.name) AS competition, c.match_format AS cup_format, \
             CASE WHEN f.cup_id IS NULL THEN NULL ELSE (SELECT COUNT(*) FROM cup_ties t1 \
               WHERE t1.cup_id = f.cup_id AND t1.round = 1) END AS cup_first_ties, f.round, \
             f.starts_at, f.status, f.conceded_by, f.home_team_id, ht.name AS home_name, \
             f.away_team_id, aw.name AS away_name, \
             COALESCE(hp.name || ' & ' || hq.name, hp.name) AS home_entrant, \
             COALESCE(ap.name || ' & ' || aq.name, ap.name) AS away_entrant, \
             f.venue_id, vn.name AS venue_name, \
             {RESULT_STATUS} AS result_status, f.playoff \
             FROM fixtures f \
             LEFT JOIN divisions d ON d.id = f.division_id AND d.league_id = f.league_id \
             LEFT JOIN cups c ON c.id = f.cup_id AND c.league_id = f.league_id \
             LEFT JOIN cup_ties ct ON ct.fixture_id = f.id AND ct.league_id = f.league_id \
             LEFT JOIN cup_entrants he ON he.id = ct.home_entrant_id AND he.cup_id = ct.cup_id \
             LEFT JOIN players hp ON hp.id = he.player_id AND hp.league_id = f.league_id \
             LEFT JOIN players hq ON hq.id = he.partner_id AND hq.league_id = f.league_id \
             LEFT JOIN cup_entrants ae ON ae.id = ct.away_entrant_id AND ae.cup_id = ct.cup_id \
             LEFT JOIN players ap ON ap.id = ae.player_id AND ap.league_id = f.league_id \
             LEFT JOIN players aq ON aq.id = ae.partner_id AND aq.league_id = f.league_id \
             JOIN teams ht ON ht.id = f.home_team_id AND ht.league_id = f.league_id \
             JOIN teams aw ON aw.id = f.away_team_id AND aw.league_id = f.league_id \
             LEFT JOIN venues vn ON vn.id = f.venue_id AND vn.league_id = f.league_id \
             WHERE f.league_id = $1 AND {} \
             ORDER BY f.round, f.starts_at IS NULL, f.starts_at, f.id",
            scope.condition()
        );
        sql::query_as::<FixtureLineRow>(&sql)
            .bind(league)
            .bind_all(scope.args())
            .fetch_all(self)
            .await?
            .into_iter()
            .map(FixtureLine::try_from)
            .collect()
    }

    /// Per board of the current result of each fixture of `scope`: games
    /// won and pegs scored by the home and the away team, from the stored
    /// outcomes. With `approved_only`, provisional results are left out.
    ///
    /// A game's home side is the record side of the board's first home
    /// player. One query, grouped in the database: the hands are not read.
    pub async fn board_lines(
        &self,
        league: LeagueId,
        scope: &FixtureScope,
        approved_only: bool,
    ) -> Result<Vec<BoardLine>> {
        self.board_lines_read(&board_lines_sql(scope, approved_only), league, scope)
            .await
    }

    /// [`Db::board_lines`] summed from every game and seat of the boards,
    /// not from the sums kept on each: the definition those are tested
    /// against.
    pub async fn board_lines_from_games(
        &self,
        league: LeagueId,
        scope: &FixtureScope,
        approved_only: bool,
    ) -> Result<Vec<BoardLine>> {
        let sql = board_lines_from_games_sql(scope, approved_only);
        self.board_lines_read(&sql, league, scope).await
    }

    async fn board_lines_read(
        &self,
        sql: &str,
        league: LeagueId,
        scope: &FixtureScope,
    ) -> Result<Vec<BoardLine>> {
        if scope.is_empty() {
            return Ok(Vec::new());
        }
        sql::query_as::<BoardLineRow>(sql)
            .bind(league)
            .bind_all(scope.args())
            .fetch_all(self)
            .await?
            .into_iter()
            .map(BoardLine::try_from)
            .collect()
    }

    /// The teams entered in a season (every division), with their names,
    /// by division position and team name.
    pub async fn entry_lines(&self, league: LeagueId, season: SeasonId) -> Result<Vec<EntryLine>> {
        sql::query_as::<EntryLine>(
            "SELECT e.season_id, s.name AS season_name, e.division_id, d.name AS division_name, \
             e.team_id, t.name AS team_name FROM team_entries e \
             JOIN seasons s ON s.id = e.season_id AND s.league_id = e.league_id \
             JOIN divisions d ON d.id = e.division_id AND d.league_id = e.league_id \
             JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
             WHERE e.league_id = $1 AND e.season_id = $2 \
             ORDER BY d.position, d.name, t.name, t.id",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await
    }

    /// Every season a team was entered in, newest first.
    pub async fn team_entry_lines(&self, league: LeagueId, team: TeamId) -> Result<Vec<EntryLine>> {
        sql::query_as::<EntryLine>(
            "SELECT e.season_id, s.name AS season_name, e.division_id, d.name AS division_name, \
             e.team_id, t.name AS team_name FROM team_entries e \
             JOIN seasons s ON s.id = e.season_id AND s.league_id = e.league_id \
             JOIN divisions d ON d.id = e.division_id AND d.league_id = e.league_id \
             JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
             WHERE e.league_id = $1 AND e.team_id = $2 ORDER BY e.season_id DESC",
        )
        .bind(league)
        .bind(team)
        .fetch_all(self)
        .await
    }

    /// A team with its home venue's name and address.
    pub async fn team_info(&self, league: LeagueId, team: TeamId) -> Result<TeamInfo> {
        sql::query_as::<TeamInfo>(
            "SELECT t.id, t.name, t.venue_id, v.name AS venue_name, v.address AS venue_address \
             FROM teams t LEFT JOIN venues v ON v.id = t.venue_id AND v.league_id = t.league_id \
             WHERE t.league_id = $1 AND t.id = $2",
        )
        .bind(league)
        .bind(team)
        .fetch_optional(self)
        .await?
        .ok_or_else(|| DbError::not_found(format!("team {team}")))
    }

    /// Penalties of `scope`, voided ones included, oldest first.
    pub async fn penalty_lines(
        &self,
        league: LeagueId,
        scope: PenaltyScope,
    ) -> Result<Vec<PenaltyLine>> {
        let condition = match scope {
            PenaltyScope::Team { .. } => "p.season_id = $2 AND p.team_id = $3",
            PenaltyScope::Player(_) => "p.player_id = $2",
            PenaltyScope::Fixture(_) => "p.fixture_id = $2",
            PenaltyScope::Season(_) => "p.season_id = $2",
        };
        let sql = format!(
            "SELECT p.id, p.season_id, s.name AS season_name, p.fixture_id, \
             f.round AS fixture_round, f.starts_at AS fixture_starts_at, p.team_id, \
             t.name AS team_name, p.player_id, pl.name AS player_name, k.name AS kind_name, \
             k.effect, p.amount, p.note, p.recorded_at, p.voided_at \
             FROM penalties p \
             JOIN penalty_kinds k ON k.id = p.kind_id AND k.league_id = p.league_id \
             JOIN seasons s ON s.id = p.season_id AND s.league_id = p.league_id \
             LEFT JOIN fixtures f ON f.id = p.fixture_id AND f.league_id = p.league_id \
             LEFT JOIN teams t ON t.id = p.team_id AND t.league_id = p.league_id \
             LEFT JOIN players pl ON pl.id = p.player_id AND pl.league_id = p.league_id \
             WHERE p.league_id = $1 AND {condition} ORDER BY p.recorded_at, p.id"
        );
        {
            let query = sql::query_as::<PenaltyLineRow>(&sql).bind(league);
            let query = match scope {
                PenaltyScope::Team { season, team } => query.bind(season).bind(team),
                PenaltyScope::Player(player) => query.bind(player),
                PenaltyScope::Fixture(fixture) => query.bind(fixture),
                PenaltyScope::Season(season) => query.bind(season),
            };
            query.fetch_all(self).await?
        }
        .into_iter()
        .map(PenaltyLine::try_from)
        .collect()
    }

    /// League points deducted from teams in a season: penalties of a kind
    /// whose effect is `league_points`, not voided.
    pub async fn deduction_lines(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<DeductionLine>> {
        sql::query_as::<DeductionLine>(
            "SELECT p.team_id, p.amount, f.round, p.fixture_id, k.name AS kind_name, p.note \
             FROM penalties p \
             JOIN penalty_kinds k ON k.id = p.kind_id AND k.league_id = p.league_id \
             LEFT JOIN fixtures f ON f.id = p.fixture_id AND f.league_id = p.league_id \
             WHERE p.league_id = $1 AND p.season_id = $2 AND k.effect = 'league_points' \
             AND p.voided_at IS NULL AND p.team_id IS NOT NULL ORDER BY p.id",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await
    }

    /// The seasons a player was registered in, newest first, with team and
    /// division.
    pub async fn player_seasons(
        &self,
        league: LeagueId,
        player: PlayerId,
    ) -> Result<Vec<PlayerSeason>> {
        sql::query_as::<PlayerSeason>(
            "SELECT r.season_id, s.name AS season_name, r.team_id, t.name AS team_name, \
             e.division_id, d.name AS division_name FROM registrations r \
             JOIN seasons s ON s.id = r.season_id AND s.league_id = r.league_id \
             JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
             JOIN team_entries e ON e.league_id = r.league_id AND e.season_id = r.season_id \
               AND e.team_id = r.team_id \
             JOIN divisions d ON d.id = e.division_id AND d.league_id = e.league_id \
             WHERE r.league_id = $1 AND r.player_id = $2 ORDER BY r.season_id DESC",
        )
        .bind(league)
        .bind(player)
        .fetch_all(self)
        .await
    }

    /// Games a player played and won per season, in current approved
    /// results: one grouped query.
    pub async fn player_season_games(
        &self,
        league: LeagueId,
        player: PlayerId,
    ) -> Result<Vec<SeasonGames>> {
        let sql = format!(
            "SELECT f.season_id, (f.cup_id IS NOT NULL) AS cup, CAST(COUNT(*) AS BIGINT) AS played, \
             CAST(SUM(CASE WHEN g.winner_side = gp.side THEN 1 ELSE 0 END) AS BIGINT) AS won \
             FROM game_players gp JOIN games g ON g.id = gp.game_id \
             JOIN boards b ON b.id = g.board_id JOIN result_versions v ON v.id = b.version_id \
             JOIN fixtures f ON f.id = v.fixture_id AND f.league_id = v.league_id \
             WHERE v.league_id = $1 AND gp.player_id = $2 AND {COUNTED_GAMES} \
             GROUP BY f.season_id, (f.cup_id IS NOT NULL) ORDER BY f.season_id DESC"
        );
        sql::query_as::<SeasonGames>(&sql)
            .bind(league)
            .bind(player)
            .fetch_all(self)
            .await
    }

    /// A player's latest `limit` games in current results (provisional ones
    /// included), newest first.
    pub async fn player_recent_games(
        &self,
        league: LeagueId,
        player: PlayerId,
        limit: i64,
    ) -> Result<Vec<PlayerGame>> {
        // The player's seats first, planned apart (`fence`): Postgres,
        // misjudging how many rows the current-version condition keeps,
        // otherwise walks every game of the league to find the player's
        // (7-9 ms against about 1 ms on the 50-league demo).
        let fence = self.dialect("LIMIT -1 OFFSET 0", "OFFSET 0");
        let sql = format!(
            "SELECT s.game_id, f.id AS fixture_id, f.starts_at, c.name AS cup_name, \
             ht.name AS home_name, aw.name AS away_name, s.team_side, s.board, s.game, \
             s.side, s.total_0, s.total_1, s.winner_side, s.finished, s.result_status, \
             s.score_only \
             FROM (SELECT g.id AS game_id, v.fixture_id, bp.side AS team_side, \
               b.number AS board, g.number AS game, gp.side, g.total_0, g.total_1, \
               g.winner_side, g.finished, v.status AS result_status, g.score_only \
               FROM game_players gp JOIN games g ON g.id = gp.game_id \
               JOIN boards b ON b.id = g.board_id \
               JOIN board_players bp ON bp.board_id = b.id AND bp.player_id = gp.player_id \
               JOIN result_versions v ON v.id = b.version_id \
               WHERE v.league_id = $1 AND gp.player_id = $2 AND {CURRENT} {fence}) s \
             JOIN fixtures f ON f.id = s.fixture_id AND f.league_id = $1 \
             JOIN teams ht ON ht.id = f.home_team_id AND ht.league_id = f.league_id \
             JOIN teams aw ON aw.id = f.away_team_id AND aw.league_id = f.league_id \
             LEFT JOIN cups c ON c.id = f.cup_id AND c.league_id = f.league_id \
             WHERE f.status <> 'void' \
             ORDER BY f.starts_at IS NULL, f.starts_at DESC, f.id DESC, s.board, s.game LIMIT $3"
        );
        sql::query_as::<PlayerGameRow>(&sql)
            .bind(league)
            .bind(player)
            .bind(limit)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(|r| {
                Ok(PlayerGame {
                    game_id: r.game_id,
                    fixture_id: r.fixture_id,
                    starts_at: r.starts_at,
                    cup_name: r.cup_name,
                    home_name: r.home_name,
                    away_name: r.away_name,
                    team_side: r.team_side.parse()?,
                    board: r.board,
                    game: r.game,
                    side: r.side,
                    totals: r.total_0.zip(r.total_1).map(|(a, b)| [a, b]),
                    winner_side: r.winner_side,
                    finished: r.finished,
                    result_status: r.result_status.parse()?,
                    score_only: r.score_only,
                })
            })
            .collect()
    }

    /// The kick-off of the league's latest fixture with a result (or a
    /// walkover) starting before `before`, and of its earliest starting at
    /// or after `after`: where the weekly round-up steps to. One query.
    pub async fn result_dates_around(
        &self,
        league: LeagueId,
        before: DateTime<Utc>,
        after: DateTime<Utc>,
    ) -> Result<(Option<DateTime<Utc>>, Option<DateTime<Utc>>)> {
        // By the fixture alone (a version's league is its fixture's): with
        // the league too, SQLite searched the league's versions for each
        // fixture, a millisecond and more on a big league.
        const HAS_RESULT: &str = "f.status <> 'void' AND (f.status = 'walkover' OR EXISTS \
             (SELECT 1 FROM result_versions rv WHERE rv.fixture_id = f.id))";
        let sql = format!(
            "SELECT (SELECT MAX(f.starts_at) FROM fixtures f WHERE f.league_id = $1 \
             AND f.starts_at < $2 AND {HAS_RESULT}) AS earlier, \
             (SELECT MIN(f.starts_at) FROM fixtures f WHERE f.league_id = $1 \
             AND f.starts_at >= $3 AND {HAS_RESULT}) AS later"
        );
        sql::query_as::<(Option<DateTime<Utc>>, Option<DateTime<Utc>>)>(&sql)
            .bind(league)
            .bind(before)
            .bind(after)
            .fetch_one(self)
            .await
    }

    /// The players of these games (of this league), in order of play.
    pub async fn game_seats(&self, league: LeagueId, games: &[i64]) -> Result<Vec<GameSeat>> {
        if games.is_empty() {
            return Ok(Vec::new());
        }
        let places: Vec<String> = (0..games.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT gp.game_id, gp.player_id, p.name, gp.side FROM game_players gp \
             JOIN players p ON p.id = gp.player_id \
             WHERE p.league_id = $1 AND gp.game_id IN ({}) ORDER BY gp.game_id, gp.position",
            places.join(", ")
        );
        Ok({
            let mut query = sql::query_as::<GameSeat>(&sql).bind(league);
            for id in games {
                query = query.bind(*id);
            }
            query.fetch_all(self).await?
        })
    }

    /// The players of both teams of a fixture's season, including those
    /// who moved to or from one of them: enough to name everyone in any of
    /// its stored results.
    pub async fn fixture_roster(
        &self,
        league: LeagueId,
        season: SeasonId,
        home: TeamId,
        away: TeamId,
    ) -> Result<Vec<RosterLine>> {
        sql::query_as::<RosterLine>(&format!(
            "SELECT c.id AS player_id, c.name, c.team_id FROM ({}) c",
            super::transfers::ROSTER_CANDIDATES
        ))
        .bind(league)
        .bind(season)
        .bind(home)
        .bind(away)
        .fetch_all(self)
        .await
    }
}

// ---------------------------------------------------------------------------
// From rows to the league core's match lines

/// Deduction lines as the league core takes them.
pub fn deductions(lines: &[DeductionLine]) -> Vec<Deduction> {
    lines
        .iter()
        .map(|d| Deduction {
            team: d.team_id.0,
            points: count(d.amount),
            round: d.round.map(count),
        })
        .collect()
}

/// Groups game seats by game.
pub fn seats_by_game(seats: Vec<GameSeat>) -> BTreeMap<i64, Vec<GameSeat>> {
    let mut out: BTreeMap<i64, Vec<GameSeat>> = BTreeMap::new();
    for s in seats {
        out.entry(s.game_id).or_default().push(s);
    }
    out
}

impl Fixture for FixtureLine {
    fn facts(&self) -> FixtureFacts {
        FixtureFacts {
            id: self.id,
            round: self.round,
            home: self.home_team_id,
            away: self.away_team_id,
            status: self.status,
            conceded_by: self.conceded_by,
            playoff: self.playoff,
        }
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}
