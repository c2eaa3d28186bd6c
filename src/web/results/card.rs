//! The match card: boards, players, and each game typed hand by hand in the
//! card notation (see `league::card`), or by its final score alone (two
//! numbers, home first), chosen on the card itself: a secretary may always
//! enter final scores, a captain when the season allows it (issue 39).
//! "Check" shows what the engine makes of it; "Submit" stores it as a new
//! version. Nothing typed is lost: a refused card comes back as it was
//! sent, with each error beside its game.

use crate::web::links::{Address, MatchAt};
use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};

use crate::db::{BoardResult, GameOutcome, GameResult, MatchResult, Player, PlayerId, Side};
use crate::league::board::{BoardEntry, GameEntry, read_board};
use crate::league::card::{game_text, seat_letter};
use crate::league::match_format::{self, MatchFormat};
use crate::rules::{End, Format, Game, Outcome, Ruleset};

use super::super::AppState;
use super::super::csrf::CsrfForm;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html, invalid};
use super::FixtureAccess;

#[derive(Template)]
#[template(path = "results/card.html")]
struct CardPage {
    ctx: Ctx,
    title: String,
    /// The match's page, and the addresses under it.
    at: Address<MatchAt>,
    action: String,
    status: Option<String>,
    notice: Option<String>,
    boards: Vec<BoardView>,
    errors: usize,
    help: Vec<(&'static str, String)>,
    /// The other captain's dispute of the stored version, when it is
    /// disputed: what to correct.
    dispute: Option<String>,
    /// When the result locked for this captain (the season's result lock):
    /// the card is not offered.
    locked: Option<String>,
    /// This user may enter games by their final score: the card offers the
    /// choice.
    may_final: bool,
    /// The games not yet typed are offered by their final scores (`scores`)
    /// or their hands (`hands`).
    by: &'static str,
    /// The sides, as a final score's two fields are labelled.
    home_name: String,
    away_name: String,
}

struct BoardView {
    number: usize,
    kind: &'static str,
    /// The "played or conceded" select: its field and options.
    status_field: String,
    status_options: Vec<(&'static str, String, bool)>,
    slots: Vec<SlotView>,
    seats: String,
    games: Vec<GameView>,
    error: Option<String>,
    standing: String,
}

struct SlotView {
    field: String,
    label: String,
    options: Vec<(i64, String, bool)>,
}

struct GameView {
    field: String,
    number: usize,
    text: String,
    rows: usize,
    errors: Vec<String>,
    preview: Option<Preview>,
    /// Offered by its final score: two number fields, not the hands.
    by_score: bool,
    home_field: String,
    away_field: String,
    home: String,
    away: String,
}

struct Preview {
    summary: String,
    hands: Vec<HandView>,
}

/// One hand in the compact list: what happened in card terms (seat
/// letters), and the running totals, which always stay in view.
struct HandView {
    number: usize,
    posed_by: char,
    plays: String,
    disregarded: String,
    end: String,
    totals: String,
}

/// What the secretary or captain typed, keyed by field name.
pub type Fields = HashMap<String, String>;

pub fn slot_field(board: usize, side: &str, j: usize) -> String {
    format!("b{board}.{side}{j}")
}

pub fn game_field(board: usize, game: usize) -> String {
    format!("b{board}.g{game}")
}

/// A game's final score field for `side` (`home` or `away`).
pub fn score_field(board: usize, game: usize, side: &str) -> String {
    format!("b{board}.g{game}.{side}")
}

/// The field saying how the games not yet typed are entered: `hands` or
/// `scores`.
const BY: &str = "by";

/// The board's "played, or not played and conceded by which side" field.
pub fn status_field(board: usize) -> String {
    format!("b{board}.status")
}

/// The card as last stored, as form fields.
fn stored_fields(result: &MatchResult) -> Fields {
    let mut f = Fields::new();
    for (i, board) in result.boards.iter().enumerate() {
        if let Some(side) = board.conceded_by {
            f.insert(status_field(i), side.as_str().to_owned());
        }
        for (side, ids) in [("home", &board.home), ("away", &board.away)] {
            for (j, id) in ids.iter().enumerate() {
                f.insert(slot_field(i, side, j), id.0.to_string());
            }
        }
        for (g, game) in board.games.iter().enumerate() {
            match (&game.outcome, game.score_only) {
                (Some(o), true) => {
                    f.insert(score_field(i, g, "home"), o.totals[0].to_string());
                    f.insert(score_field(i, g, "away"), o.totals[1].to_string());
                }
                // A later game after a score-only one opens as a first game.
                _ => {
                    let text = game_text(&game.record, g == 0 || board.games[g - 1].score_only);
                    f.insert(game_field(i, g), text);
                }
            }
        }
    }
    f
}

/// The card filled from `fields` (an import), checked but not saved.
pub async fn render_fields(
    state: &AppState,
    access: &FixtureAccess,
    fields: &Fields,
    notice: String,
) -> Result<Response> {
    let card = Card::read(state, access, fields).await?;
    let page = card.page(access, None, Some(notice));
    Ok(if card.errors() > 0 {
        invalid(&page)
    } else {
        html(&page)
    })
}

/// A card with nothing entered and nothing on the pads starts from the
/// captains' line-ups (the team sheets), as the pads do: the players set,
/// to be changed where someone else played.
async fn line_up_fields(
    state: &AppState,
    access: &FixtureAccess,
) -> Result<(Fields, Option<String>)> {
    let boards = crate::app::team_sheet::boards_from_line_ups(
        state.db(),
        access.league.id,
        &access.fixture,
        &access.rules.format,
    )
    .await?;
    let mut f = Fields::new();
    for (i, (home, away)) in boards
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b.as_ref()?)))
    {
        for (side, ids) in [("home", home), ("away", away)] {
            for (j, id) in ids.iter().enumerate() {
                f.insert(slot_field(i, side, j), id.to_string());
            }
        }
    }
    let notice = (!f.is_empty()).then(|| {
        "The players are filled in from the captains' line-ups: change any board where someone else played."
            .to_owned()
    });
    Ok((f, notice))
}

pub async fn show(State(state): State<AppState>, access: FixtureAccess) -> Result<Response> {
    let db = state.db();
    let stored = db.result(access.league.id, access.fixture.id).await?;
    let fields = stored
        .as_ref()
        .map(|s| stored_fields(&s.result))
        .unwrap_or_default();
    // Nothing submitted yet but boards kept on the pads: the card starts
    // from them, to be checked, corrected and submitted.
    let (fields, notice) = match &stored {
        None => match crate::web::pad::review::pads_result(&state, &access).await? {
            Some(pads) => (
                stored_fields(&pads),
                Some(
                    "Filled in from the score pads: check it, correct it if need be, and submit."
                        .to_owned(),
                ),
            ),
            None => line_up_fields(&state, &access).await?,
        },
        Some(_) => (fields, None),
    };
    let dispute = match &stored {
        Some(s) => super::workflow::dispute_note(&state, &access, &s.version).await?,
        None => None,
    };
    let status = stored.map(|s| format!("version {}, {}", s.version.version, s.version.status));
    let card = Card::read(&state, &access, &fields).await?.opened();
    let mut page = card.page(&access, status, notice);
    page.dispute = dispute;
    Ok(html(&page))
}

pub async fn save(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let mut fields: Fields = form.into_iter().collect();
    // The card's choice of how the games not yet typed are given: the
    // card again as it was sent, offering them the other way.
    let switch = match fields.get("action").map(String::as_str) {
        Some("by-scores") => Some((
            "scores",
            "Give each game not yet typed by its final score: home's, then away's.",
        )),
        Some("by-hands") => Some(("hands", "Type each game not yet typed hand by hand.")),
        _ => None,
    };
    if let Some((by, said)) = switch {
        fields.insert(BY.to_owned(), by.to_owned());
        let card = Card::read(&state, &access, &fields).await?;
        return Ok(html(&card.page(&access, None, Some(said.to_owned()))));
    }
    let submit = fields.get("action").is_some_and(|a| a == "submit");
    let card = Card::read(&state, &access, &fields).await?;
    let errors = card.errors();
    if errors > 0 || !submit {
        let notice = if errors > 0 {
            Some(format!(
                "{errors} problem{} on this card: see the boards below. Nothing was saved.",
                if errors == 1 { "" } else { "s" }
            ))
        } else {
            Some("The card reads correctly. Nothing is saved until you submit it.".into())
        };
        let page = card.page(&access, None, notice);
        return Ok(if errors > 0 {
            invalid(&page)
        } else {
            html(&page)
        });
    }
    let missing = card.missing_boards();
    if !missing.is_empty() {
        let page = card.page(&access, None, Some(missing_notice(&missing)));
        return Ok(invalid(&page));
    }
    let result = card.result();
    // A refusal of the workflow (a match days ahead, a void fixture) comes
    // back on the card as it was sent, like any other problem.
    let version = match super::store_result(&state, &access, &result).await {
        Ok(v) => v,
        Err(AppError::BadRequest(why)) => {
            return Ok(invalid(&card.page(&access, None, Some(why))));
        }
        Err(AppError::Db(crate::db::DbError::Refused(why))) => {
            let why = format!("{why} Nothing was saved.");
            return Ok(invalid(&card.page(&access, None, Some(why))));
        }
        Err(e) => return Err(e),
    };
    Ok(Redirect::to(&format!(
        "{}?saved=submitted&version={}",
        access.at().history(),
        version.version
    ))
    .into_response())
}

/// "Boards 3, 7 and 9 are missing: ..." for a submit refused as incomplete.
fn missing_notice(missing: &[usize]) -> String {
    let list = crate::league::refusal::missing_words(missing);
    format!(
        "{list} missing: enter each board's players and games, or mark it not played with the side that conceded it. Nothing was saved."
    )
}

/// The line-up rule: each player on more boards of a kind than the match
/// allows is named on every board of that kind they are on.
fn lineup_errors(format: &MatchFormat, home: &[Player], away: &[Player], boards: &mut [ReadBoard]) {
    use crate::league::lineup::{BoardPlayers, clashes};
    let played: Vec<BoardPlayers> = boards
        .iter()
        .enumerate()
        .filter(|(_, b)| b.conceded.is_none())
        .filter_map(|(i, b)| {
            Some(BoardPlayers {
                board: i + 1,
                kind: format.boards.get(i)?.kind,
                players: b.home.iter().chain(&b.away).map(|p| p.0).collect(),
            })
        })
        .collect();
    for clash in clashes(format, &played) {
        let name = home
            .iter()
            .chain(away)
            .find(|p| p.id.0 == clash.player)
            .map_or("A player", |p| p.name.as_str());
        let words = clash.words(name);
        for &n in &clash.boards {
            if let Some(b) = boards.get_mut(n - 1) {
                b.error = Some(match b.error.take() {
                    Some(e) => format!("{e} {words}"),
                    None => words.clone(),
                });
            }
        }
    }
}

/// A card read from its fields: each board's players and games.
struct Card {
    format: MatchFormat,
    ruleset: Ruleset,
    final_scores: bool,
    home: Vec<Player>,
    away: Vec<Player>,
    fields: Fields,
    boards: Vec<ReadBoard>,
}

struct ReadBoard {
    home: Vec<PlayerId>,
    away: Vec<PlayerId>,
    names: Vec<String>,
    entry: BoardEntry,
    error: Option<String>,
    /// Not played: conceded by this side.
    conceded: Option<Side>,
    /// Nothing typed and not marked conceded.
    empty: bool,
    /// Its players chosen and no game typed yet: an error on a submitted
    /// card, not on one just opened from the line-ups.
    awaiting_games: bool,
}

impl Card {
    /// How the games not yet typed are offered: by their final scores when
    /// the card says so (or, unsaid, when a game is given by its score
    /// already) and this user may enter them so.
    fn by_scores(&self) -> bool {
        if !self.final_scores {
            return false;
        }
        match self.fields.get(BY).map(String::as_str) {
            Some("scores") => true,
            Some(_) => false,
            None => self
                .fields
                .iter()
                .any(|(k, v)| (k.ends_with(".home") || k.ends_with(".away")) && !v.is_empty()),
        }
    }

    async fn read(state: &AppState, access: &FixtureAccess, fields: &Fields) -> Result<Card> {
        let (ruleset, format) = crate::app::formats::fixture_rules(
            state.db(),
            &access.league,
            &access.season,
            &access.fixture,
        )
        .await?;
        // A secretary typing a paper card may always give a game's final
        // score; the season's setting is what captains may do.
        let final_scores = access.is_secretary() || access.settings().final_scores;
        let db = state.db();
        // Who played for each team on the fixture's date (transfers).
        let (home, away) = db.fixture_sides(access.league.id, &access.fixture).await?;
        let mut boards = Vec::with_capacity(format.boards.len());
        for (i, spec) in format.boards.iter().enumerate() {
            let n = spec.kind.players_a_side();
            let mut error = None;
            let conceded = match fields.get(&status_field(i)).map(String::as_str) {
                Some("home") => Some(Side::Home),
                Some("away") => Some(Side::Away),
                Some("" | "played") | None => None,
                Some(_) => {
                    error = Some("choose played, or which side conceded the board".to_owned());
                    None
                }
            };
            let mut pick = |side: &str, roster: &[Player]| -> Vec<PlayerId> {
                let mut ids = Vec::new();
                for j in 0..n {
                    let raw = fields
                        .get(&slot_field(i, side, j))
                        .map(String::as_str)
                        .unwrap_or("");
                    if raw.is_empty() {
                        continue;
                    }
                    match raw
                        .parse::<i64>()
                        .ok()
                        .filter(|id| roster.iter().any(|p| p.id.0 == *id))
                    {
                        Some(id) if ids.contains(&PlayerId(id)) => {
                            error =
                                Some("the same player is chosen twice on this board".to_owned());
                        }
                        Some(id) => ids.push(PlayerId(id)),
                        None => {
                            error = Some(format!(
                                "choose {side} players from the team's registered players"
                            ));
                        }
                    }
                }
                ids
            };
            let home_ids = pick("home", &home);
            let away_ids = pick("away", &away);
            // A game given by its final score is read as `final H-A`.
            let mut score_errors: Vec<Option<&'static str>> = vec![None; spec.best_of as usize];
            let texts: Vec<String> = (0..spec.best_of as usize)
                .map(|g| {
                    let text = fields.get(&game_field(i, g)).cloned().unwrap_or_default();
                    let score = |side| {
                        fields
                            .get(&score_field(i, g, side))
                            .map_or("", |v| v.trim())
                            .to_owned()
                    };
                    let (h, a) = (score("home"), score("away"));
                    if h.is_empty() && a.is_empty() {
                        return text;
                    }
                    if !text.trim().is_empty() {
                        score_errors[g] = Some(
                            "give this game's hands or its final score, not both: clear one of them",
                        );
                        return text;
                    }
                    match (h.parse::<u32>(), a.parse::<u32>()) {
                        (Ok(h), Ok(a)) => format!("final {h}-{a}"),
                        _ => {
                            score_errors[g] = Some(
                                "give the final score as two whole numbers: home's, then away's",
                            );
                            String::new()
                        }
                    }
                })
                .collect();
            let typed = texts.iter().any(|t| !t.trim().is_empty())
                || score_errors.iter().any(Option::is_some);
            let chosen = !home_ids.is_empty() || !away_ids.is_empty();
            if let Some(side) = conceded {
                if typed || chosen {
                    error.get_or_insert(format!(
                        "marked not played (conceded by {side}), but players or games are entered: clear them, or mark the board played"
                    ));
                }
            }
            let empty = conceded.is_none() && !chosen && !typed;
            let mut awaiting_games = false;
            let complete = home_ids.len() == n && away_ids.len() == n;
            if conceded.is_none() && !empty && !complete && error.is_none() {
                error = Some(format!(
                    "choose {n} home and {n} away player{}",
                    if n == 1 { "" } else { "s" }
                ));
            }
            let name = |id: &PlayerId, roster: &[Player]| {
                roster
                    .iter()
                    .find(|p| p.id == *id)
                    .map_or_else(String::new, |p| p.name.clone())
            };
            // Order of play: home and away alternate, partners opposite.
            let names: Vec<String> = if complete {
                (0..n)
                    .flat_map(|j| [name(&home_ids[j], &home), name(&away_ids[j], &away)])
                    .collect()
            } else {
                Vec::new()
            };
            let mut entry = if conceded.is_none() && complete && error.is_none() {
                read_board(&texts, &names, &ruleset, spec.best_of, final_scores)
            } else {
                BoardEntry {
                    games: texts
                        .into_iter()
                        .map(|text| GameEntry {
                            text,
                            ..Default::default()
                        })
                        .collect(),
                    ..BoardEntry::default()
                }
            };
            for (game, why) in entry.games.iter_mut().zip(&score_errors) {
                if let Some(why) = why {
                    game.errors.push(crate::league::card::CardError {
                        line: 1,
                        message: (*why).to_owned(),
                    });
                }
            }
            if !empty
                && conceded.is_none()
                && complete
                && error.is_none()
                && !entry.games.iter().any(GameEntry::is_read)
                && !entry.has_errors()
            {
                error = Some("type the first game, starting with the draw".into());
                awaiting_games = true;
            }
            boards.push(ReadBoard {
                home: home_ids,
                away: away_ids,
                names,
                entry,
                error,
                conceded,
                empty,
                awaiting_games,
            });
        }
        lineup_errors(&format, &home, &away, &mut boards);
        Ok(Card {
            format,
            ruleset,
            final_scores,
            home,
            away,
            fields: fields.clone(),
            boards,
        })
    }

    /// A card just opened from the line-ups: its boards waiting for their
    /// games are not yet in error.
    fn opened(mut self) -> Card {
        for b in self.boards.iter_mut().filter(|b| b.awaiting_games) {
            b.error = None;
        }
        self
    }

    fn errors(&self) -> usize {
        self.boards
            .iter()
            .map(|b| {
                usize::from(b.error.is_some())
                    + b.entry.games.iter().map(|g| g.errors.len()).sum::<usize>()
            })
            .sum()
    }

    /// The boards (1-based) neither entered nor marked not played.
    fn missing_boards(&self) -> Vec<usize> {
        self.boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.empty)
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// The boards as a match result, in order; call only when no board is
    /// missing, since a result's boards are numbered by their place.
    fn result(&self) -> MatchResult {
        MatchResult {
            boards: self
                .boards
                .iter()
                .zip(&self.format.boards)
                .filter(|(b, _)| !b.empty)
                .map(|(b, spec)| BoardResult {
                    kind: spec.kind,
                    home: b.home.clone(),
                    away: b.away.clone(),
                    games: b
                        .entry
                        .games
                        .iter()
                        .filter_map(|g| self.game_result(b, g))
                        .collect(),
                    conceded_by: b.conceded,
                })
                .collect(),
        }
    }

    /// A read game as stored: its record and outcome, or for a game known
    /// by its final score, a record with no hands and that score.
    fn game_result(&self, b: &ReadBoard, g: &GameEntry) -> Option<GameResult> {
        if let Some([h, a]) = g.final_score {
            let mut record = crate::rules::GameRecord {
                format: self.ruleset.format.as_str().to_owned(),
                players: b.names.clone(),
                sides: (0..2)
                    .map(|s| b.names.iter().skip(s).step_by(2).cloned().collect())
                    .collect(),
                draw: None,
                first_pose: None,
                hands: Vec::new(),
                options: None,
                penalties: Vec::new(),
            };
            let options = self.ruleset.options();
            record.options = (!options.is_empty()).then_some(options);
            return Some(GameResult {
                record,
                outcome: Some(GameOutcome {
                    totals: [i64::from(h), i64::from(a)],
                    winner: Some(usize::from(a > h)),
                    finished: true,
                    next_pose: None,
                }),
                score_only: true,
            });
        }
        let (record, outcome) = (g.record.as_ref()?, g.outcome.as_ref()?);
        Some(GameResult {
            record: record.clone(),
            outcome: Some(GameOutcome::of(record, outcome)),
            score_only: false,
        })
    }

    fn page(
        &self,
        access: &FixtureAccess,
        status: Option<String>,
        notice: Option<String>,
    ) -> CardPage {
        let boards = self
            .boards
            .iter()
            .zip(&self.format.boards)
            .enumerate()
            .map(|(i, (b, spec))| self.board_view(i, b, spec, access))
            .collect();
        CardPage {
            ctx: access.user.ctx(),
            title: access.title(),
            at: access.at(),
            action: access.at().card(),
            status,
            notice,
            boards,
            errors: self.errors(),
            help: help(&self.ruleset, self.final_scores),
            dispute: None,
            locked: access
                .locked_since()
                .map(|t| crate::web::dates::when(access.league.time_zone, t)),
            may_final: self.final_scores,
            by: if self.by_scores() { "scores" } else { "hands" },
            home_name: access.names[0].clone(),
            away_name: access.names[1].clone(),
        }
    }

    fn board_view(
        &self,
        i: usize,
        b: &ReadBoard,
        spec: &match_format::BoardSpec,
        access: &FixtureAccess,
    ) -> BoardView {
        let n = spec.kind.players_a_side();
        let mut slots = Vec::new();
        for j in 0..n {
            for (side, roster, label) in
                [("home", &self.home, "Home"), ("away", &self.away, "Away")]
            {
                let field = slot_field(i, side, j);
                let chosen = self.fields.get(&field).cloned().unwrap_or_default();
                slots.push(SlotView {
                    label: if n == 1 {
                        format!("{label} player")
                    } else {
                        format!("{label} player {}", j + 1)
                    },
                    options: roster
                        .iter()
                        .map(|p| (p.id.0, p.name.clone(), p.id.0.to_string() == chosen))
                        .collect(),
                    field,
                });
            }
        }
        let seats = if b.names.is_empty() {
            match n {
                1 => "Seats: A = home player, B = away player.".to_owned(),
                _ => "Seats: A = home 1, B = away 1, C = home 2, D = away 2.".to_owned(),
            }
        } else {
            let list: Vec<String> = b
                .names
                .iter()
                .enumerate()
                .map(|(s, name)| format!("{} = {name}", seat_letter(s)))
                .collect();
            format!("Seats: {}.", list.join(", "))
        };
        let by_scores = self.by_scores();
        let games = b
            .entry
            .games
            .iter()
            .enumerate()
            .map(|(g, entry)| {
                let typed = |side| {
                    self.fields
                        .get(&score_field(i, g, side))
                        .cloned()
                        .unwrap_or_default()
                };
                let (home, away) = (typed("home"), typed("away"));
                let hands = self
                    .fields
                    .get(&game_field(i, g))
                    .is_some_and(|t| !t.trim().is_empty());
                // Each game keeps the way it was given; one not given yet
                // is offered the card's way.
                let by_score = !home.is_empty() || !away.is_empty() || (!hands && by_scores);
                GameView {
                    field: game_field(i, g),
                    number: g + 1,
                    rows: (entry.text.lines().count() + 2).clamp(4, 30),
                    text: if by_score {
                        String::new()
                    } else {
                        entry.text.clone()
                    },
                    errors: entry
                        .errors
                        .iter()
                        .map(|e| {
                            if by_score {
                                e.message.clone()
                            } else {
                                e.to_string()
                            }
                        })
                        .collect(),
                    home_field: score_field(i, g, "home"),
                    away_field: score_field(i, g, "away"),
                    home,
                    away,
                    by_score,
                    preview: match (&entry.game, &entry.outcome, entry.final_score) {
                        (Some(game), Some(outcome), _) => Some(preview(game, outcome)),
                        (_, _, Some([h, a])) => Some(Preview {
                            summary: format!(
                                "{} won {}–{}, entered by its final score only (no hand detail).",
                                if a > h { "Away" } else { "Home" },
                                h.max(a),
                                h.min(a)
                            ),
                            hands: Vec::new(),
                        }),
                        _ => None,
                    },
                }
            })
            .collect();
        let standing = if b.entry.games.iter().any(GameEntry::is_read) {
            let [h, a] = b.entry.games_won;
            match b.entry.winner {
                Some(0) => format!("Home won the board {h}–{a}"),
                Some(_) => format!("Away won the board {a}–{h}"),
                None if spec.best_of > 1 => format!("Games {h}–{a}, board not decided"),
                None => "Game not finished".to_owned(),
            }
        } else if let Some(side) = b.conceded {
            let winner = match side {
                Side::Home => &access.names[1],
                Side::Away => &access.names[0],
            };
            format!("Not played: {winner} take the board")
        } else {
            String::new()
        };
        let chosen = b.conceded.map_or("", Side::as_str);
        BoardView {
            number: i + 1,
            kind: spec.kind.as_str(),
            status_field: status_field(i),
            status_options: [
                ("", "Played".to_owned()),
                ("home", format!("Not played: {} conceded", access.names[0])),
                ("away", format!("Not played: {} conceded", access.names[1])),
            ]
            .into_iter()
            .map(|(value, label)| (value, label, value == chosen))
            .collect(),
            slots,
            seats,
            games,
            error: b.error.clone(),
            standing,
        }
    }
}

/// The engine's reading of a game, hand by hand, in the card's own terms.
fn preview(game: &Game, o: &Outcome) -> Preview {
    let name = |s: usize| game.players[s].clone();
    let play_text = |p: &crate::rules::Play| {
        format!(
            "{}{}{}{}",
            seat_letter(p.by),
            p.points,
            if p.out { "x" } else { "" },
            if p.muggins { "m" } else { "" }
        )
    };
    let hands = game
        .hands
        .iter()
        .zip(&o.hands)
        .enumerate()
        .map(|(h, (hand, ho))| HandView {
            number: h + 1,
            posed_by: seat_letter(ho.posed_by),
            plays: hand
                .plays
                .iter()
                .enumerate()
                .filter(|(p, _)| !ho.disregarded.contains(&(p + 1)))
                .map(|(_, p)| play_text(p))
                .collect::<Vec<_>>()
                .join(" "),
            disregarded: ho
                .disregarded
                .iter()
                .map(|&p| play_text(&hand.plays[p - 1]))
                .collect::<Vec<_>>()
                .join(" "),
            end: match &hand.end {
                Some(End::Out { player, .. }) => format!("out {}", seat_letter(*player)),
                Some(End::Blocked { .. }) => "blocked".to_owned(),
                Some(End::Abandoned) => "abandoned".to_owned(),
                None => "game won".to_owned(),
            },
            totals: format!("{}–{}", ho.totals_after[0], ho.totals_after[1]),
        })
        .collect();
    let summary = match o.winner {
        Some(w) => format!(
            "{} won {}–{}. The next game opens with {} posing.",
            if w == 0 { "Home" } else { "Away" },
            o.totals[w],
            o.totals[1 - w],
            name(o.next_pose)
        ),
        None => format!(
            "In progress, {}–{}. {} poses next.",
            o.totals[0],
            o.totals[1],
            name(o.next_pose)
        ),
    };
    Preview { summary, hands }
}

/// "How to type a game" for this season's rules: one short example per
/// kind of line, and what it means.
fn help(ruleset: &Ruleset, final_scores: bool) -> Vec<(&'static str, String)> {
    let mut lines = vec![(
        "draw 6-1 4-3",
        "The board's first game starts with the tiles drawn for pose, seat A first (or pose A to say who poses).".to_owned(),
    )];
    match ruleset.format {
        Format::FivesAndThrees => {
            lines.push((
                "A2 B8 C1x / out C",
                "One line per hand: each scoring play as seat and points, then / and how the hand ended. The x marks the play that chipped out and adds the chip-out point itself: write the tile's own points (C1x counts 2; C0x when the tile scored nothing).".to_owned(),
            ));
            lines.push(if ruleset.blocked_needs_counts() {
                (
                    "B3 A4 / blocked 9 4 11 7",
                    "A blocked hand, with every seat's pips from A (the winner poses next, so the pips decide who).".to_owned(),
                )
            } else {
                (
                    "B3 A4 / blocked",
                    "A blocked hand (the pips may be added, seat A first: / blocked 9 4 11 7).".to_owned(),
                )
            });
            lines.push((
                "A2 B8 C3",
                "The last hand, won mid-way at 61: no /.".to_owned(),
            ));
        }
        Format::AllFives => {
            lines.push((
                "A10 B5m / out A left 12 3",
                "One line per hand: each scoring play as seat and points (m: a muggins claim), then / out, who played out, and the pips each opponent still holds.".to_owned(),
            ));
            lines.push((
                "B15 / blocked 9 4",
                "A blocked hand, with every seat's pips from A.".to_owned(),
            ));
            lines.push((
                "penalty B talking",
                "A penalty, on its own line before the hand it came in (talking or exposed)."
                    .to_owned(),
            ));
            lines.push((
                "A20 B5",
                format!("The last hand, won mid-way at {}: no /.", ruleset.target),
            ));
        }
        Format::HandsWon => {
            lines.push((
                "/ out A",
                "One line per hand: who won it by playing out.".to_owned(),
            ));
            lines.push((
                "/ blocked 3 3 9 9",
                "A blocked hand, with every seat's pips from A.".to_owned(),
            ));
            lines.push((
                "penalty B violation",
                "A penalty, on its own line before the hand (violation, or late with the minutes: penalty D late 5).".to_owned(),
            ));
            lines.push((
                "/ abandoned",
                "A hand abandoned after a violation.".to_owned(),
            ));
        }
    }
    if final_scores {
        lines.push((
            "final 61-47",
            "A game kept without hand detail: its final score alone, home first (or choose \u{201c}final scores\u{201d} at the top of the card and give the two numbers). It counts in the tables but not in the per-hand statistics.".to_owned(),
        ));
    }
    lines
}
