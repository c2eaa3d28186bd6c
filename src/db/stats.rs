//! Per-player sums of a season for the player table: two queries, each
//! grouped in the database, never one query per player or per match.
//!
//! Counted: finished games of the current version of each fixture's
//! result, when that version is approved, in fixtures that are neither
//! void nor walkovers; league games, cup games or both ([`Counted`]). Late-arrival penalties come back raw (minutes), since
//! what they are worth is the ruleset's business
//! ([`Ruleset::late_penalty`](crate::rules::Ruleset::late_penalty)).
//!
//! Both queries start from the season's fixtures (`fixtures_division`) and
//! go down through each one's current version to its games and seats, so
//! their work grows with the season, not with the league's history; the
//! 8-point plays and chip-outs are counted once per seat when its version
//! is written (migration 0042), not from every play on each request.

use super::counted::COUNTED_GAMES;
use super::sql;
use super::{LeagueId, PlayerId, Result, SeasonId, TeamId};
use crate::db::Db;

/// The games a sum counts: joins over `f`, `v` (a version of its result),
/// `b`, `g` and `gp` (a player's seat), then a `WHERE` with
/// [`COUNTED_GAMES`] for league `$1` and season `$2`.
pub(crate) const COUNTED_JOINS: &str = "FROM fixtures f \
     JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
     JOIN boards b ON b.version_id = v.id \
     JOIN games g ON g.board_id = b.id \
     JOIN game_players gp ON gp.game_id = g.id";

/// Which games a player table counts: the league's (divisions), the
/// cups', or both. Cup games never count as league games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Counted {
    #[default]
    League,
    Cups,
    All,
}

impl Counted {
    /// The condition on `f` that keeps these games.
    fn condition(self) -> &'static str {
        match self {
            Counted::League => "AND f.cup_id IS NULL",
            Counted::Cups => "AND f.cup_id IS NOT NULL",
            Counted::All => "",
        }
    }
}

/// The plays the player table counts: 8-point plays and chip-outs. Written
/// exactly as the condition of the partial index `plays_scoring`
/// (migration 0003), which SQLite uses only when the query's `WHERE` holds
/// that condition word for word.
const SCORING_PLAY: &str = "(pl.points = 8 OR pl.out = TRUE)";

/// Whether the seat's side won (`1`/`0`), its total, and whether the set
/// was won or lost 6-0 (hands-won: the loser's total is 0).
const SEAT_FACTS: &str = "CAST(CASE WHEN g.winner_side = gp.side THEN 1 ELSE 0 END AS BIGINT) AS won, \
     CAST(COALESCE(CASE WHEN gp.side = 0 THEN g.total_0 ELSE g.total_1 END, 0) AS BIGINT) AS pegs, \
     CAST(CASE WHEN g.format = 'hands-won' AND g.winner_side = gp.side \
       AND COALESCE(CASE WHEN gp.side = 0 THEN g.total_1 ELSE g.total_0 END, -1) = 0 \
       THEN 1 ELSE 0 END AS BIGINT) AS set_won_6_0, \
     CAST(CASE WHEN g.format = 'hands-won' AND g.winner_side = 1 - gp.side \
       AND COALESCE(CASE WHEN gp.side = 0 THEN g.total_0 ELSE g.total_1 END, -1) = 0 \
       THEN 1 ELSE 0 END AS BIGINT) AS set_lost_6_0";

/// The player table's query (see [`Db::player_stat_lines`]): each
/// seat's kept counts of 8-point plays and chip-outs summed, or, `from_plays`,
/// the plays themselves counted (`k`).
fn stat_lines_sql(counted: Counted, from_plays: bool) -> String {
    let which = counted.condition();
    // What each seat gives (`seat`), each player's sums add (`s`), the
    // line reads, and the join of the counted plays (`k`).
    let (seat_kept, kept, scoring, from_hands) = if from_plays {
        (
            "",
            "",
            "CAST(COALESCE(k.eights, 0) AS BIGINT) AS eights, \
             CAST(COALESCE(k.chip_outs, 0) AS BIGINT) AS chip_outs",
            format!(
                "LEFT JOIN (SELECT gp.player_id, \
                 SUM(CASE WHEN pl.points = 8 THEN 1 ELSE 0 END) AS eights, \
                 SUM(CASE WHEN pl.out = TRUE THEN 1 ELSE 0 END) AS chip_outs \
                 {COUNTED_JOINS} \
                 JOIN hands h ON h.game_id = g.id \
                 JOIN plays pl ON pl.hand_id = h.id AND pl.player_id = gp.player_id \
                 WHERE f.league_id = $1 AND f.season_id = $2 AND {COUNTED_GAMES} {which} \
                 AND {SCORING_PLAY} GROUP BY gp.player_id) k ON k.player_id = s.player_id"
            ),
        )
    } else {
        (
            ", gp.eights, gp.chip_outs",
            ", CAST(SUM(seat.eights) AS BIGINT) AS eights, \
             CAST(SUM(seat.chip_outs) AS BIGINT) AS chip_outs",
            "s.eights, s.chip_outs",
            String::new(),
        )
    };
    format!(
        "SELECT s.player_id, p.name, r.team_id, t.name AS team_name, \
         s.played, s.won, s.pegs, {scoring}, \
         s.sets_won_6_0, s.sets_lost_6_0, s.score_only \
         FROM (SELECT seat.player_id, CAST(COUNT(*) AS BIGINT) AS played, \
           CAST(SUM(seat.won) AS BIGINT) AS won, CAST(SUM(seat.pegs) AS BIGINT) AS pegs, \
           CAST(SUM(seat.set_won_6_0) AS BIGINT) AS sets_won_6_0, \
           CAST(SUM(seat.set_lost_6_0) AS BIGINT) AS sets_lost_6_0, \
           CAST(SUM(seat.score_only) AS BIGINT) AS score_only{kept} \
           FROM (SELECT gp.player_id, {SEAT_FACTS}, \
             CAST(CASE WHEN g.score_only = TRUE THEN 1 ELSE 0 END AS BIGINT) AS score_only{seat_kept} \
             {COUNTED_JOINS} WHERE f.league_id = $1 AND f.season_id = $2 AND {COUNTED_GAMES} {which}) seat \
           GROUP BY seat.player_id) s \
         {from_hands} \
         JOIN players p ON p.id = s.player_id AND p.league_id = $1 \
         LEFT JOIN registrations r ON r.league_id = $1 AND r.season_id = $2 \
           AND r.player_id = s.player_id \
         LEFT JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
         ORDER BY s.player_id"
    )
}

/// A player's sums over a season's counted games.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerStatLine {
    pub player_id: PlayerId,
    pub name: String,
    /// The team they were registered for that season, if any.
    pub team_id: Option<TeamId>,
    pub team_name: Option<String>,
    pub played: i64,
    pub won: i64,
    /// Their sides' totals added up (pegs, points, or games in the set).
    pub pegs: i64,
    /// Their plays scoring 8.
    pub eights: i64,
    /// Their plays that chipped out.
    pub chip_outs: i64,
    pub sets_won_6_0: i64,
    pub sets_lost_6_0: i64,
    /// Their games entered by the final score only: counted in played, won
    /// and pegs, but with no hands for the 8-point plays and chip-outs.
    pub score_only: i64,
}

/// An individual in-game penalty (`late` or `violation`) in a counted
/// game, with what that game was for the player, so that a forfeit can
/// take it back.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GamePenaltyLine {
    pub player_id: PlayerId,
    pub game_id: i64,
    /// `late` or `violation`.
    pub kind: String,
    /// Minutes late (`late` only).
    pub minutes: Option<i64>,
    pub won: i64,
    pub pegs: i64,
    pub set_won_6_0: i64,
    pub set_lost_6_0: i64,
}

impl Db {
    /// Each player's sums over a season's counted games: one query, the
    /// seats summed per player, with the 8-point plays and chip-outs each
    /// seat keeps (counted from its hands when its version was written).
    pub async fn player_stat_lines(
        &self,
        league: LeagueId,
        season: SeasonId,
        counted: Counted,
    ) -> Result<Vec<PlayerStatLine>> {
        self.stat_lines(&stat_lines_sql(counted, false), league, season)
            .await
    }

    /// [`Db::player_stat_lines`] with the 8-point plays and chip-outs
    /// counted from every play of the season's hands, through the small
    /// index `plays_scoring`, instead of read from the seats: the
    /// definition the kept counts are tested against.
    pub async fn player_stat_lines_from_plays(
        &self,
        league: LeagueId,
        season: SeasonId,
        counted: Counted,
    ) -> Result<Vec<PlayerStatLine>> {
        self.stat_lines(&stat_lines_sql(counted, true), league, season)
            .await
    }

    async fn stat_lines(
        &self,
        sql: &str,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<PlayerStatLine>> {
        sql::query_as::<PlayerStatLine>(sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }

    /// The `late` and `violation` penalties of a season's counted games,
    /// in game and record order: one query.
    pub async fn game_penalty_lines(
        &self,
        league: LeagueId,
        season: SeasonId,
        counted: Counted,
    ) -> Result<Vec<GamePenaltyLine>> {
        let which = counted.condition();
        let sql = format!(
            "SELECT gp.player_id, g.id AS game_id, pen.kind, \
             CAST(pen.minutes AS BIGINT) AS minutes, {SEAT_FACTS} \
             {COUNTED_JOINS} \
             JOIN game_penalties pen ON pen.game_id = g.id AND pen.player_id = gp.player_id \
             WHERE f.league_id = $1 AND f.season_id = $2 AND {COUNTED_GAMES} {which} AND pen.kind IN ('late', 'violation') \
             ORDER BY g.id, pen.number"
        );
        sql::query_as::<GamePenaltyLine>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }
}
