//! Cups: a season's knockout competitions, their entrants, the draw of
//! each round and its ties. A tie's match is an ordinary fixture with the
//! cup's id (and no division), made once both its sides are known; the
//! rules of the draw and of who goes through are `league::cup`'s.
//!
//! Storage only: the commands that enter, draw and delete are use cases
//! (`app::cup_commands`) made of the functions over a transaction here.
//!
//! Every write that can change who won a cup tie (a result entered,
//! corrected, restored or approved, a walkover, a void) ends with the cup's
//! advance ([`advance_cup`]) in its own transaction, so the
//! rounds after it follow at once or the write is refused. On Postgres the
//! advance locks the cup's row first, so two results of one cup approved at
//! once take turns.

use super::sql::{self, Tx};
use std::collections::HashMap;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::audit::{NewAudit, insert_audit};
use super::pages::{BoardLine, BoardLineRow, FixtureScope, board_lines_sql};
use super::{
    CupEntrantId, CupId, CupTieId, Db, DbError, FixtureId, LeagueId, Player, PlayerId, Result,
    SeasonId, Side, TeamId, UserId, VenueId, json_text, now,
};
use crate::league::cup::{
    self, Change, Drawn, EntrantKind, Method, Slot, Tally, TieMatch, TieState,
};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::scores_from_boards;
use crate::rules::Format;

pub use crate::league::cup::How;

/// The cup's season and entrant kind, its row locked on Postgres so that
/// two draws (or entries) of one cup take turns (SQLite lets one writer in
/// at a time); a cup this league does not have is not found.
pub(crate) async fn lock_cup(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
) -> Result<(SeasonId, EntrantKind)> {
    let lock = tx.dialect("", " FOR UPDATE");
    let (season, kind): (SeasonId, String) = sql::query_as(&format!(
        "SELECT season_id, entrants FROM cups WHERE league_id = $1 AND id = $2{lock}"
    ))
    .bind(league)
    .bind(cup)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DbError::not_found(format!("cup {cup}")))?;
    Ok((season, kind.parse()?))
}

/// Entrant `id` of the cup, with its names.
pub(crate) async fn entrant_of(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    id: CupEntrantId,
) -> Result<CupEntrant> {
    sql::query_as::<CupEntrant>(&ENTRANT_SELECT)
        .bind(league)
        .bind(cup)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .find(|e| e.id == id)
        .ok_or_else(|| DbError::not_found(format!("entrant {id} of cup {cup}")))
}

/// A knockout competition of a season.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cup {
    pub id: CupId,
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    pub name: String,
    pub entrants: EntrantKind,
    /// The ties' own match format; `None` plays them in the season's.
    pub match_format: Option<MatchFormat>,
    pub created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct CupRow {
    id: CupId,
    league_id: LeagueId,
    season_id: SeasonId,
    name: String,
    entrants: String,
    match_format: Option<String>,
    created_at: DateTime<Utc>,
}

impl TryFrom<CupRow> for Cup {
    type Error = DbError;

    fn try_from(r: CupRow) -> Result<Cup> {
        Ok(Cup {
            id: r.id,
            league_id: r.league_id,
            season_id: r.season_id,
            name: r.name,
            entrants: r.entrants.parse()?,
            match_format: r.match_format.as_deref().map(parse_format).transpose()?,
            created_at: r.created_at,
        })
    }
}

const CUP_COLUMNS: &str = "id, league_id, season_id, name, entrants, match_format, created_at";

/// A cup's own match format as stored (the JSON of a [`MatchFormat`]).
pub(crate) fn parse_format(text: &str) -> Result<MatchFormat> {
    let format: MatchFormat = super::parse_json("cup match format", text)?;
    format
        .check()
        .map_err(|e| DbError::Corrupt(format!("cup match format: {e}")))?;
    Ok(format)
}

/// A cup asked for by a secretary.
#[derive(Debug, Clone)]
pub struct NewCup {
    pub season_id: SeasonId,
    pub name: String,
    pub entrants: EntrantKind,
    /// `None`: the season's match format (team cups only).
    pub match_format: Option<MatchFormat>,
}

/// An entrant with the names the pages show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct CupEntrant {
    pub id: CupEntrantId,
    pub team_id: TeamId,
    pub team_name: String,
    pub player_id: Option<PlayerId>,
    pub player_name: Option<String>,
    pub partner_id: Option<PlayerId>,
    pub partner_name: Option<String>,
    pub seed: Option<i64>,
}

impl CupEntrant {
    /// What the entrant is called: the team, the player, or the pair.
    pub fn name(&self) -> String {
        match (&self.player_name, &self.partner_name) {
            (Some(a), Some(b)) => format!("{a} & {b}"),
            (Some(a), None) => a.clone(),
            _ => self.team_name.clone(),
        }
    }

    /// The entrant's players (none for a team).
    pub fn players(&self) -> Vec<PlayerId> {
        [self.player_id, self.partner_id]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// An entrant's columns with its names, and the joins they come from, for
/// a `WHERE` on `e` (league `$1`) to follow.
const ENTRANT_FROM: &str = "e.id, e.team_id, t.name AS team_name, \
         e.player_id, p.name AS player_name, e.partner_id, q.name AS partner_name, e.seed \
         FROM cup_entrants e \
         JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
         LEFT JOIN players p ON p.id = e.player_id AND p.league_id = e.league_id \
         LEFT JOIN players q ON q.id = e.partner_id AND q.league_id = e.league_id \
         WHERE e.league_id = $1 ";

static ENTRANT_SELECT: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {ENTRANT_FROM}AND e.cup_id = $2 ORDER BY e.id"));

/// The entrants of every cup of season `$2`, with their cups.
static SEASON_ENTRANT_SELECT: LazyLock<String> = LazyLock::new(|| {
    format!("SELECT e.cup_id, {ENTRANT_FROM}AND e.season_id = $2 ORDER BY e.cup_id, e.id")
});

/// An entrant of one of a season's cups.
#[derive(sqlx::FromRow)]
struct SeasonEntrant {
    cup_id: CupId,
    #[sqlx(flatten)]
    entrant: CupEntrant,
}

/// An entrant asked for: the team named for it and its players (none for
/// a team cup), with a seed for a seeded draw.
#[derive(Debug, Clone)]
pub struct NewEntrant {
    pub team_id: TeamId,
    pub players: Vec<PlayerId>,
    pub seed: Option<i64>,
}

/// A drawn round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CupRound {
    pub round: u32,
    /// The night it is played, or with `play_by` the last night it may be.
    pub starts_at: DateTime<Utc>,
    pub play_by: bool,
    /// The neutral venue of every tie (finals night), if any.
    pub venue_id: Option<VenueId>,
    pub venue_name: Option<String>,
    pub method: Method,
    /// The seed of a random or seeded draw, as recorded (16 hex digits).
    pub seed: Option<String>,
    pub drawn_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct RoundRow {
    round: i64,
    starts_at: DateTime<Utc>,
    play_by: bool,
    venue_id: Option<VenueId>,
    venue_name: Option<String>,
    method: String,
    seed: Option<String>,
    drawn_at: DateTime<Utc>,
}

impl TryFrom<RoundRow> for CupRound {
    type Error = DbError;

    fn try_from(r: RoundRow) -> Result<CupRound> {
        Ok(CupRound {
            round: round_number(r.round)?,
            starts_at: r.starts_at,
            play_by: r.play_by,
            venue_id: r.venue_id,
            venue_name: r.venue_name,
            method: r.method.parse()?,
            seed: r.seed,
            drawn_at: r.drawn_at,
        })
    }
}

/// A round's columns with its venue's name, and the joins they come from,
/// for a `WHERE` on `r` (league `$1`) to follow.
const ROUND_FROM: &str = "r.round, r.starts_at, r.play_by, r.venue_id, \
         v.name AS venue_name, r.method, r.seed, r.drawn_at FROM cup_rounds r \
         LEFT JOIN venues v ON v.id = r.venue_id AND v.league_id = r.league_id \
         WHERE r.league_id = $1 ";

/// A cup's rounds with their venues' names, for league `$1` and cup `$2`.
static ROUND_SELECT: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {ROUND_FROM}AND r.cup_id = $2"));

/// The cups of season `$2` of league `$1`, for `cup_id IN ...`.
const SEASON_CUPS: &str = "(SELECT c.id FROM cups c WHERE c.league_id = $1 AND c.season_id = $2)";

/// The rounds of every cup of season `$2`, with their cups.
static SEASON_ROUND_SELECT: LazyLock<String> = LazyLock::new(|| {
    format!("SELECT r.cup_id, {ROUND_FROM}AND r.cup_id IN {SEASON_CUPS} ORDER BY r.cup_id, r.round")
});

/// A round of one of a season's cups.
#[derive(sqlx::FromRow)]
struct SeasonRound {
    cup_id: CupId,
    #[sqlx(flatten)]
    round: RoundRow,
}

fn round_number(n: i64) -> Result<u32> {
    u32::try_from(n).map_err(|_| DbError::Corrupt(format!("cup round {n}")))
}

/// A tie as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct CupTie {
    pub id: CupTieId,
    pub round: i64,
    pub number: i64,
    pub home_entrant_id: Option<CupEntrantId>,
    pub away_entrant_id: Option<CupEntrantId>,
    pub home_from: Option<CupTieId>,
    pub away_from: Option<CupTieId>,
    pub fixture_id: Option<FixtureId>,
}

const TIE_COLUMNS: &str = "id, round, number, home_entrant_id, away_entrant_id, home_from, \
     away_from, fixture_id";

/// A tie of one of a season's cups.
#[derive(sqlx::FromRow)]
struct SeasonTie {
    cup_id: CupId,
    #[sqlx(flatten)]
    tie: CupTie,
}

impl CupTie {
    /// The tie as the advance sees it, with its match's facts.
    fn state(&self, fixture: Option<TieMatch>) -> Result<TieState> {
        Ok(TieState {
            id: self.id,
            round: round_number(self.round)?,
            number: round_number(self.number)?,
            home: self.home_entrant_id,
            away: self.away_entrant_id,
            home_from: self.home_from,
            away_from: self.away_from,
            fixture,
        })
    }
}

/// A round asked to be drawn: `round` is the one the form offered, so a
/// form sent twice (or from a stale page) draws nothing more.
#[derive(Debug, Clone)]
pub struct DrawRequest {
    pub round: u32,
    pub starts_at: DateTime<Utc>,
    pub play_by: bool,
    pub venue_id: Option<VenueId>,
    pub how: How,
}

/// What a cup's page reads: the cup, its entrants, rounds and ties.
#[derive(Debug, Clone)]
pub struct CupData {
    pub cup: Cup,
    pub entrants: Vec<CupEntrant>,
    pub rounds: Vec<CupRound>,
    pub ties: Vec<CupTie>,
}

impl CupData {
    /// The ties as the league core sees them, with what their matches say
    /// (`facts`, by fixture).
    pub fn states(&self, facts: &HashMap<FixtureId, TieMatch>) -> Result<Vec<TieState>> {
        self.ties
            .iter()
            .map(|t| t.state(t.fixture_id.and_then(|f| facts.get(&f).copied())))
            .collect()
    }
}

/// A cup fixture's facts as stored: its status, and whether anything is
/// recorded against it.
#[derive(sqlx::FromRow)]
struct TieFixtureRow {
    id: FixtureId,
    status: String,
    conceded_by: Option<String>,
    recorded: bool,
}

/// Whether anything is recorded against fixture `f`: a result, a status
/// past scheduled or postponed, a penalty, a board on the score pad.
const RECORDED: &str = "(f.status NOT IN ('scheduled', 'postponed') \
     OR EXISTS (SELECT 1 FROM result_versions rv WHERE rv.league_id = f.league_id AND rv.fixture_id = f.id) \
     OR EXISTS (SELECT 1 FROM penalties pn WHERE pn.league_id = f.league_id AND pn.fixture_id = f.id) \
     OR EXISTS (SELECT 1 FROM pad_boards pb WHERE pb.league_id = f.league_id AND pb.fixture_id = f.id))";

/// The players of an individual cup tie's two entrants, with their side:
/// whom its card and pads may name (two entrants may be of one team).
pub(super) const TIE_PLAYERS: &str = "SELECT p.id, p.league_id, p.name, p.created_at, \
     CASE WHEN e.id = t.home_entrant_id THEN 'home' ELSE 'away' END AS side \
     FROM cup_ties t \
     JOIN cup_entrants e ON e.cup_id = t.cup_id \
       AND (e.id = t.home_entrant_id OR e.id = t.away_entrant_id) \
     JOIN players p ON p.league_id = e.league_id \
       AND (p.id = e.player_id OR p.id = e.partner_id) \
     WHERE t.league_id = $1 AND t.fixture_id = $2 ORDER BY p.name, p.id";

/// A player of an individual tie and the side they play on.
#[derive(sqlx::FromRow)]
pub(super) struct TiePlayer {
    #[sqlx(flatten)]
    pub player: Player,
    pub side: String,
}

impl TiePlayer {
    pub fn side(&self) -> Result<Side> {
        Ok(self.side.parse()?)
    }
}

/// The seasons' match format of a cup's season and the cup's own.
#[derive(sqlx::FromRow)]
struct FormatRow {
    season_id: SeasonId,
    format: String,
    season_format: String,
    cup_format: Option<String>,
}

/// An entrant's team and that team's home venue.
#[derive(sqlx::FromRow)]
struct EntrantTeam {
    id: CupEntrantId,
    team_id: TeamId,
    venue_id: Option<VenueId>,
}

/// A round's night and neutral venue.
#[derive(sqlx::FromRow)]
struct RoundPlace {
    round: i64,
    starts_at: DateTime<Utc>,
    venue_id: Option<VenueId>,
}

/// Brings the cup's later rounds in line with the winners known now
/// ([`cup::advance`]): sides filled in, matches made, retargeted or
/// dropped, with one audit entry; refused (nothing saved) when a side
/// would change in a tie that has something recorded.
pub(crate) async fn advance_cup(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    by: Option<UserId>,
) -> Result<()> {
    // Postgres locks the cup's row; SQLite lets one writer in at a time.
    let lock = tx.dialect("", " FOR UPDATE OF c");
    let row: FormatRow = sql::query_as(&format!(
        "SELECT c.season_id, s.format, s.match_format AS season_format, \
             c.match_format AS cup_format FROM cups c \
             JOIN seasons s ON s.id = c.season_id AND s.league_id = c.league_id \
             WHERE c.league_id = $1 AND c.id = $2{lock}"
    ))
    .bind(league)
    .bind(cup)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DbError::not_found(format!("cup {cup}")))?;
    let format = tie_format(&row)?;
    let ties: Vec<CupTie> = sql::query_as(&format!(
        "SELECT {TIE_COLUMNS} FROM cup_ties WHERE league_id = $1 AND cup_id = $2"
    ))
    .bind(league)
    .bind(cup)
    .fetch_all(&mut *tx)
    .await?;
    let fixtures: Vec<TieFixtureRow> = sql::query_as(&format!(
        "SELECT f.id, f.status, f.conceded_by, {RECORDED} AS recorded \
             FROM fixtures f WHERE f.league_id = $1 AND f.cup_id = $2"
    ))
    .bind(league)
    .bind(cup)
    .fetch_all(&mut *tx)
    .await?;
    let boards: Vec<BoardLine> =
        sql::query_as::<BoardLineRow>(&board_lines_sql(&FixtureScope::Cup(cup), true))
            .bind(league)
            .bind(cup)
            .fetch_all(&mut *tx)
            .await?
            .into_iter()
            .map(BoardLine::try_from)
            .collect::<Result<_>>()?;
    let facts = tie_facts(&fixtures, &boards, &format)?;
    let states = ties
        .iter()
        .map(|t| t.state(t.fixture_id.and_then(|f| facts.get(&f).copied())))
        .collect::<Result<Vec<_>>>()?;
    let changes = cup::advance_or_refuse(&states)?;
    if changes.is_empty() {
        return Ok(());
    }
    let teams: HashMap<CupEntrantId, EntrantTeam> = sql::query_as::<EntrantTeam>(
        "SELECT e.id, e.team_id, t.venue_id FROM cup_entrants e \
             JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
             WHERE e.league_id = $1 AND e.cup_id = $2",
    )
    .bind(league)
    .bind(cup)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|e| (e.id, e))
    .collect();
    let places: HashMap<i64, RoundPlace> = sql::query_as::<RoundPlace>(
        "SELECT round, starts_at, venue_id FROM cup_rounds \
             WHERE league_id = $1 AND cup_id = $2",
    )
    .bind(league)
    .bind(cup)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|r| (r.round, r))
    .collect();
    let mut sides: HashMap<CupTieId, (Option<CupEntrantId>, Option<CupEntrantId>)> = ties
        .iter()
        .map(|t| (t.id, (t.home_entrant_id, t.away_entrant_id)))
        .collect();
    let round_of: HashMap<CupTieId, i64> = ties.iter().map(|t| (t.id, t.round)).collect();
    // Where a tie's match is played and between which teams.
    let place = |tie: CupTieId,
                 sides: &HashMap<CupTieId, (Option<CupEntrantId>, Option<CupEntrantId>)>|
     -> Result<(TeamId, TeamId, Option<VenueId>, &RoundPlace)> {
        let missing = || DbError::Corrupt(format!("cup tie {tie} has no sides"));
        let (home, away) = sides.get(&tie).copied().ok_or_else(missing)?;
        let home = teams.get(&home.ok_or_else(missing)?).ok_or_else(missing)?;
        let away = teams.get(&away.ok_or_else(missing)?).ok_or_else(missing)?;
        let round = places
            .get(round_of.get(&tie).ok_or_else(missing)?)
            .ok_or_else(missing)?;
        Ok((
            home.team_id,
            away.team_id,
            round.venue_id.or(home.venue_id),
            round,
        ))
    };
    for change in &changes {
        match *change {
            Change::Sides { tie, home, away } => {
                sql::query(
                    "UPDATE cup_ties SET home_entrant_id = $3, away_entrant_id = $4 \
                         WHERE league_id = $1 AND id = $2",
                )
                .bind(league)
                .bind(tie)
                .bind(home)
                .bind(away)
                .execute(&mut *tx)
                .await?;
                sides.insert(tie, (home, away));
            }
            Change::Make { tie } => {
                let (home, away, venue, round) = place(tie, &sides)?;
                let id: FixtureId = sql::query_scalar(
                    "INSERT INTO fixtures (league_id, season_id, cup_id, round, \
                         starts_at, home_team_id, away_team_id, venue_id, status) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled') RETURNING id",
                )
                .bind(league)
                .bind(row.season_id)
                .bind(cup)
                .bind(round.round)
                .bind(round.starts_at)
                .bind(home)
                .bind(away)
                .bind(venue)
                .fetch_one(&mut *tx)
                .await?;
                sql::query("UPDATE cup_ties SET fixture_id = $3 WHERE league_id = $1 AND id = $2")
                    .bind(league)
                    .bind(tie)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            Change::Retarget { tie, fixture } => {
                let (home, away, venue, _) = place(tie, &sides)?;
                let columns = super::fixtures::COLUMNS;
                let before: super::Fixture = sql::query_as::<super::fixtures::FixtureRow>(
                    &format!("SELECT {columns} FROM fixtures WHERE league_id = $1 AND id = $2"),
                )
                .bind(league)
                .bind(fixture)
                .fetch_one(&mut *tx)
                .await?
                .try_into()?;
                let after: super::Fixture = sql::query_as::<super::fixtures::FixtureRow>(&format!(
                    "UPDATE fixtures SET home_team_id = $3, away_team_id = $4, \
                             venue_id = $5 WHERE league_id = $1 AND id = $2 \
                             RETURNING {columns}"
                ))
                .bind(league)
                .bind(fixture)
                .bind(home)
                .bind(away)
                .bind(venue)
                .fetch_one(&mut *tx)
                .await?
                .try_into()?;
                // A fixture's every change is in its own audit
                // trail: calendars count them (SEQUENCE).
                insert_audit(
                    tx,
                    NewAudit::new(Some(league), by, "fixture", fixture.0, "change")
                        .before(Some(&before))
                        .after(Some(&after)),
                )
                .await?;
            }
            Change::Drop { tie, fixture } => {
                sql::query(
                    "UPDATE cup_ties SET fixture_id = NULL WHERE league_id = $1 AND id = $2",
                )
                .bind(league)
                .bind(tie)
                .execute(&mut *tx)
                .await?;
                for sql in [
                    "DELETE FROM pad_links WHERE league_id = $1 AND fixture_id = $2",
                    "DELETE FROM fixtures WHERE league_id = $1 AND id = $2",
                ] {
                    sql::query(sql)
                        .bind(league)
                        .bind(fixture)
                        .execute(&mut *tx)
                        .await?;
                }
            }
        }
    }
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "cup", cup.0, "advance").after(Some(&changes)),
    )
    .await?;
    Ok(())
}

/// The match format a cup's ties are played in: its own, or its season's.
fn tie_format(row: &FormatRow) -> Result<MatchFormat> {
    if let Some(text) = &row.cup_format {
        return parse_format(text);
    }
    let format: Format = row
        .format
        .parse()
        .map_err(|e| DbError::Corrupt(format!("season format: {e}")))?;
    let value: serde_json::Value = super::parse_json("season match format", &row.season_format)?;
    MatchFormat::parse(format, &value).map_err(DbError::Corrupt)
}

/// Each cup fixture's facts for the advance: recorded or not, and who it
/// sends through by its status and approved current result.
fn tie_facts(
    fixtures: &[TieFixtureRow],
    approved: &[BoardLine],
    format: &MatchFormat,
) -> Result<HashMap<FixtureId, TieMatch>> {
    let scores = scores_from_boards(approved, format);
    fixtures
        .iter()
        .map(|f| {
            let tally = scores.get(&f.id).map(|s| Tally {
                boards: s.boards,
                games: s.games,
                pegs: s.pegs,
            });
            let status = f.status.parse()?;
            let conceded_by = f.conceded_by.as_deref().map(str::parse).transpose()?;
            Ok((
                f.id,
                TieMatch {
                    fixture: f.id,
                    recorded: f.recorded,
                    verdict: cup::verdict(status, conceded_by, tally),
                },
            ))
        })
        .collect()
}

impl Db {
    /// A cup in a season, with an audit entry. A name the season's cups
    /// have already is [`DbError::Unique`].
    pub async fn create_cup(
        &self,
        league: LeagueId,
        new: &NewCup,
        by: Option<UserId>,
    ) -> Result<Cup> {
        let sql = format!(
            "INSERT INTO cups (league_id, season_id, name, entrants, match_format, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {CUP_COLUMNS}"
        );
        let format = new.match_format.as_ref().map(json_text);
        let mut tx = self.write(league).await?;
        let out = {
            let cup: Cup = sql::query_as::<CupRow>(&sql)
                .bind(league)
                .bind(new.season_id)
                .bind(&new.name)
                .bind(new.entrants.as_str())
                .bind(&format)
                .bind(now())
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "cup", cup.id.0, "create").after(Some(&cup)),
            )
            .await?;
            Ok(cup)
        };
        tx.commit().await?;
        out
    }

    /// Gives a cup a new name, with an audit entry: the cup before and
    /// after. A name the season's cups have already is [`DbError::Unique`].
    pub async fn rename_cup(
        &self,
        league: LeagueId,
        cup: CupId,
        name: &str,
        by: Option<UserId>,
    ) -> Result<(Cup, Cup)> {
        let select = format!("SELECT {CUP_COLUMNS} FROM cups WHERE league_id = $1 AND id = $2");
        let update = format!(
            "UPDATE cups SET name = $3 WHERE league_id = $1 AND id = $2 RETURNING {CUP_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = {
            lock_cup(&mut tx, league, cup).await?;
            let before: Cup = sql::query_as::<CupRow>(&select)
                .bind(league)
                .bind(cup)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            let after: Cup = sql::query_as::<CupRow>(&update)
                .bind(league)
                .bind(cup)
                .bind(name)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "cup", cup.0, "rename")
                    .before(Some(&before))
                    .after(Some(&after)),
            )
            .await?;
            Ok((before, after))
        };
        tx.commit().await?;
        out
    }

    pub async fn cup(&self, league: LeagueId, id: CupId) -> Result<Cup> {
        let sql = format!("SELECT {CUP_COLUMNS} FROM cups WHERE league_id = $1 AND id = $2");
        sql::query_as::<CupRow>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("cup {id}")))?
            .try_into()
    }

    /// A season's cups, by name.
    pub async fn cups(&self, league: LeagueId, season: SeasonId) -> Result<Vec<Cup>> {
        let sql = format!(
            "SELECT {CUP_COLUMNS} FROM cups WHERE league_id = $1 AND season_id = $2 \
             ORDER BY name, id"
        );
        sql::query_as::<CupRow>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(Cup::try_from)
            .collect()
    }

    /// How many entrants each cup of a season has: one grouped query.
    pub async fn cup_entrant_counts(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<HashMap<CupId, usize>> {
        let rows: Vec<(CupId, i64)> = sql::query_as(
            "SELECT cup_id, COUNT(*) FROM cup_entrants WHERE league_id = $1 AND season_id = $2 \
             GROUP BY cup_id",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(cup, n)| (cup, usize::try_from(n).unwrap_or(0)))
            .collect())
    }

    /// A cup with its entrants, rounds and ties: four queries.
    pub async fn cup_data(&self, league: LeagueId, id: CupId) -> Result<CupData> {
        let cup = self.cup(league, id).await?;
        let rounds_sql = format!("{} ORDER BY r.round", *ROUND_SELECT);
        let ties_sql = format!(
            "SELECT {TIE_COLUMNS} FROM cup_ties WHERE league_id = $1 AND cup_id = $2 \
             ORDER BY round, number"
        );
        let (entrants, rounds, ties) = {
            let entrants: Vec<CupEntrant> = sql::query_as(&ENTRANT_SELECT)
                .bind(league)
                .bind(id)
                .fetch_all(self)
                .await?;
            let rounds: Vec<RoundRow> = sql::query_as(&rounds_sql)
                .bind(league)
                .bind(id)
                .fetch_all(self)
                .await?;
            let ties: Vec<CupTie> = sql::query_as(&ties_sql)
                .bind(league)
                .bind(id)
                .fetch_all(self)
                .await?;
            (entrants, rounds, ties)
        };
        Ok(CupData {
            cup,
            entrants,
            rounds: rounds
                .into_iter()
                .map(CupRound::try_from)
                .collect::<Result<_>>()?,
            ties,
        })
    }

    /// Every cup of a season (by name) with its entrants, rounds and ties:
    /// four queries, however many cups.
    pub async fn season_cups(&self, league: LeagueId, season: SeasonId) -> Result<Vec<CupData>> {
        let cups = self.cups(league, season).await?;
        let ties_sql = format!(
            "SELECT cup_id, {TIE_COLUMNS} FROM cup_ties WHERE league_id = $1 \
             AND cup_id IN {SEASON_CUPS} ORDER BY cup_id, round, number"
        );
        let (entrants, rounds, ties) = {
            let entrants: Vec<SeasonEntrant> = sql::query_as(&SEASON_ENTRANT_SELECT)
                .bind(league)
                .bind(season)
                .fetch_all(self)
                .await?;
            let rounds: Vec<SeasonRound> = sql::query_as(&SEASON_ROUND_SELECT)
                .bind(league)
                .bind(season)
                .fetch_all(self)
                .await?;
            let ties: Vec<SeasonTie> = sql::query_as(&ties_sql)
                .bind(league)
                .bind(season)
                .fetch_all(self)
                .await?;
            (entrants, rounds, ties)
        };
        let mut by_cup: HashMap<CupId, CupData> = cups
            .iter()
            .map(|c| {
                let data = CupData {
                    cup: c.clone(),
                    entrants: Vec::new(),
                    rounds: Vec::new(),
                    ties: Vec::new(),
                };
                (c.id, data)
            })
            .collect();
        fn of(by_cup: &mut HashMap<CupId, CupData>, cup: CupId) -> Result<&mut CupData> {
            by_cup
                .get_mut(&cup)
                .ok_or_else(|| DbError::Corrupt(format!("a row of cup {cup}, not of the season")))
        }
        for e in entrants {
            of(&mut by_cup, e.cup_id)?.entrants.push(e.entrant);
        }
        for r in rounds {
            of(&mut by_cup, r.cup_id)?.rounds.push(r.round.try_into()?);
        }
        for t in ties {
            of(&mut by_cup, t.cup_id)?.ties.push(t.tie);
        }
        Ok(cups.iter().filter_map(|c| by_cup.remove(&c.id)).collect())
    }

    /// The matches of the singles and pairs cup ties a player is drawn in,
    /// every season: one query.
    pub async fn player_cup_fixtures(
        &self,
        league: LeagueId,
        player: PlayerId,
    ) -> Result<Vec<FixtureId>> {
        sql::query_scalar(
            "SELECT t.fixture_id FROM cup_ties t \
             JOIN cup_entrants e ON e.cup_id = t.cup_id \
               AND (e.id = t.home_entrant_id OR e.id = t.away_entrant_id) \
             WHERE t.league_id = $1 AND t.fixture_id IS NOT NULL \
               AND (e.player_id = $2 OR e.partner_id = $2) \
             ORDER BY t.fixture_id",
        )
        .bind(league)
        .bind(player)
        .fetch_all(self)
        .await
    }

    /// The players of an individual cup tie's two entrants, home first:
    /// `None` for a league fixture or a team cup's tie.
    pub async fn cup_tie_players(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Option<(Vec<Player>, Vec<Player>)>> {
        let rows: Vec<TiePlayer> = sql::query_as(TIE_PLAYERS)
            .bind(league)
            .bind(fixture)
            .fetch_all(self)
            .await?;
        if rows.is_empty() {
            return Ok(None);
        }
        let (mut home, mut away) = (Vec::new(), Vec::new());
        for r in rows {
            match r.side()? {
                Side::Home => home.push(r.player),
                Side::Away => away.push(r.player),
            }
        }
        Ok(Some((home, away)))
    }
}

/// A drawn side as stored: an entrant, or the tie whose winner it is.
fn slot_columns(slot: Option<Slot>) -> (Option<CupEntrantId>, Option<CupTieId>) {
    match slot {
        Some(Slot::Entrant(e)) => (Some(e), None),
        Some(Slot::WinnerOf(t)) => (None, Some(t)),
        None => (None, None),
    }
}

/// The match format cup `cup`'s ties are played in when it sets its own.
pub(crate) async fn cup_format_in(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
) -> Result<Option<MatchFormat>> {
    let text: Option<Option<String>> =
        sql::query_scalar("SELECT match_format FROM cups WHERE league_id = $1 AND id = $2")
            .bind(league)
            .bind(cup)
            .fetch_optional(&mut *tx)
            .await?;
    text.flatten().map(|t| parse_format(&t)).transpose()
}

/// The last round of the cup drawn: 0 for none.
pub(crate) async fn last_round(tx: &mut Tx, league: LeagueId, cup: CupId) -> Result<u32> {
    let drawn: Option<i64> =
        sql::query_scalar("SELECT MAX(round) FROM cup_rounds WHERE league_id = $1 AND cup_id = $2")
            .bind(league)
            .bind(cup)
            .fetch_one(&mut *tx)
            .await?;
    round_number(drawn.unwrap_or(0))
}

/// The cup as stored.
pub(crate) async fn cup_in(tx: &mut Tx, league: LeagueId, cup: CupId) -> Result<Cup> {
    let sql = format!("SELECT {CUP_COLUMNS} FROM cups WHERE league_id = $1 AND id = $2");
    sql::query_as::<CupRow>(&sql)
        .bind(league)
        .bind(cup)
        .fetch_one(&mut *tx)
        .await?
        .try_into()
}

/// Deletes the cup and its entrants (it has no rounds).
pub(crate) async fn delete_cup_rows(tx: &mut Tx, league: LeagueId, cup: CupId) -> Result<()> {
    for sql in [
        "DELETE FROM cup_entrants WHERE league_id = $1 AND cup_id = $2",
        "DELETE FROM cups WHERE league_id = $1 AND id = $2",
    ] {
        sql::query(sql)
            .bind(league)
            .bind(cup)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// The cup's entrants with their names, by id.
pub(crate) async fn entrants_in(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
) -> Result<Vec<CupEntrant>> {
    sql::query_as(&ENTRANT_SELECT)
        .bind(league)
        .bind(cup)
        .fetch_all(&mut *tx)
        .await
}

/// Enters `new` in the cup of `season`; its id.
pub(crate) async fn insert_entrant(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    cup: CupId,
    new: &NewEntrant,
) -> Result<CupEntrantId> {
    sql::query_scalar(
        "INSERT INTO cup_entrants (league_id, season_id, cup_id, team_id, player_id, \
         partner_id, seed) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(league)
    .bind(season)
    .bind(cup)
    .bind(new.team_id)
    .bind(new.players.first().copied())
    .bind(new.players.get(1).copied())
    .bind(new.seed)
    .fetch_one(&mut *tx)
    .await
}

/// Takes entrant `id` out of the cup.
pub(crate) async fn delete_entrant(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    id: CupEntrantId,
) -> Result<()> {
    sql::query("DELETE FROM cup_entrants WHERE league_id = $1 AND cup_id = $2 AND id = $3")
        .bind(league)
        .bind(cup)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The ties of the cup's round `round`, by number (none for round 0).
pub(crate) async fn round_ties(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    round: u32,
) -> Result<Vec<CupTieId>> {
    sql::query_scalar(
        "SELECT id FROM cup_ties WHERE league_id = $1 AND cup_id = $2 AND round = $3 \
         ORDER BY number",
    )
    .bind(league)
    .bind(cup)
    .bind(i64::from(round))
    .fetch_all(&mut *tx)
    .await
}

/// Round `round` of the cup as `request` draws it, and its `ties` numbered
/// in order, drawn by `by` now.
pub(crate) async fn insert_round(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    round: u32,
    request: &DrawRequest,
    ties: &[Drawn],
    by: Option<UserId>,
) -> Result<()> {
    sql::query(
        "INSERT INTO cup_rounds (league_id, cup_id, round, starts_at, play_by, venue_id, \
         method, seed, drawn_at, drawn_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(league)
    .bind(cup)
    .bind(i64::from(round))
    .bind(request.starts_at)
    .bind(request.play_by)
    .bind(request.venue_id)
    .bind(request.how.method().as_str())
    .bind(request.how.seed().map(cup::seed_text))
    .bind(now())
    .bind(by)
    .execute(&mut *tx)
    .await?;
    for (i, t) in ties.iter().enumerate() {
        let (home, home_from) = slot_columns(Some(t.home));
        let (away, away_from) = slot_columns(t.away);
        sql::query(
            "INSERT INTO cup_ties (league_id, cup_id, round, number, home_entrant_id, \
             away_entrant_id, home_from, away_from) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(league)
        .bind(cup)
        .bind(i64::from(round))
        .bind(i as i64 + 1)
        .bind(home)
        .bind(away)
        .bind(home_from)
        .bind(away_from)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// Round `round` of the cup, with its venue's name.
pub(crate) async fn round_in(
    tx: &mut Tx,
    league: LeagueId,
    cup: CupId,
    round: u32,
) -> Result<CupRound> {
    let row: RoundRow = sql::query_as(&format!("{} AND r.round = $3", *ROUND_SELECT))
        .bind(league)
        .bind(cup)
        .bind(i64::from(round))
        .fetch_one(&mut *tx)
        .await?;
    row.try_into()
}
