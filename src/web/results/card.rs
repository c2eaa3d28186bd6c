//! The match card: boards, players, and each game typed hand by hand in the
//! card notation (see `league::card`). "Check" shows what the engine makes
//! of it; "Submit" stores it as a new version. Nothing typed is lost: a
//! refused card comes back as it was sent, with each error beside its game.

use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};

use crate::db::{BoardResult, GameOutcome, GameResult, MatchResult, Player, PlayerId};
use crate::league::board::{BoardEntry, read_board};
use crate::league::card::{game_text, seat_letter};
use crate::league::match_format::{self, MatchFormat};
use crate::rules::{End, Game, Outcome, Ruleset};

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
    match_path: String,
    action: String,
    status: Option<String>,
    notice: Option<String>,
    boards: Vec<BoardView>,
    errors: usize,
    help: &'static str,
    /// The other captain's dispute of the stored version, when it is
    /// disputed: what to correct.
    dispute: Option<String>,
}

struct BoardView {
    number: usize,
    kind: &'static str,
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
    error: Option<String>,
    preview: Option<Preview>,
}

struct Preview {
    summary: String,
    hands: Vec<HandView>,
}

struct HandView {
    number: usize,
    posed_by: String,
    plays: String,
    disregarded: String,
    end: String,
    totals: String,
}

/// What the secretary or captain typed, keyed by field name.
pub type Fields = HashMap<String, String>;

/// The season's ruleset and match format, as the card needs them.
fn rules(access: &FixtureAccess) -> Result<(Ruleset, MatchFormat)> {
    let ruleset = Ruleset::parse(access.season.format, Some(&access.season.options))
        .map_err(|e| AppError::Internal(format!("season {}: {e}", access.season.id)))?;
    let mf = MatchFormat::parse(access.season.format, &access.season.match_format)
        .map_err(|e| AppError::Internal(format!("season {}: {e}", access.season.id)))?;
    Ok((ruleset, mf))
}

pub fn slot_field(board: usize, side: &str, j: usize) -> String {
    format!("b{board}.{side}{j}")
}

pub fn game_field(board: usize, game: usize) -> String {
    format!("b{board}.g{game}")
}

/// The card as last stored, as form fields.
fn stored_fields(result: &MatchResult) -> Fields {
    let mut f = Fields::new();
    for (i, board) in result.boards.iter().enumerate() {
        for (side, ids) in [("home", &board.home), ("away", &board.away)] {
            for (j, id) in ids.iter().enumerate() {
                f.insert(slot_field(i, side, j), id.0.to_string());
            }
        }
        for (g, game) in board.games.iter().enumerate() {
            f.insert(game_field(i, g), game_text(&game.record, g == 0));
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
            None => (fields, None),
        },
        Some(_) => (fields, None),
    };
    let dispute = match &stored {
        Some(s) => super::workflow::dispute_note(&state, &access, &s.version).await?,
        None => None,
    };
    let status = stored.map(|s| format!("version {}, {}", s.version.version, s.version.status));
    let card = Card::read(&state, &access, &fields).await?;
    let mut page = card.page(&access, status, notice);
    page.dispute = dispute;
    Ok(html(&page))
}

pub async fn save(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let fields: Fields = form.into_iter().collect();
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
    let result = card.result();
    if result.boards.is_empty() {
        let page = card.page(
            &access,
            None,
            Some("The card is empty: nothing to submit.".into()),
        );
        return Ok(invalid(&page));
    }
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
    Ok(Redirect::to(&access.path(&format!(
        "/history?saved=submitted&version={}",
        version.version
    )))
    .into_response())
}

/// A card read from its fields: each board's players and games.
struct Card {
    format: MatchFormat,
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
    empty: bool,
}

impl Card {
    async fn read(state: &AppState, access: &FixtureAccess, fields: &Fields) -> Result<Card> {
        let (ruleset, format) = rules(access)?;
        let db = state.db();
        let (home, away) = (
            db.team_players(access.league.id, access.season.id, access.home.id)
                .await?,
            db.team_players(access.league.id, access.season.id, access.away.id)
                .await?,
        );
        let mut boards = Vec::with_capacity(format.boards.len());
        let mut seen_empty = None;
        for (i, spec) in format.boards.iter().enumerate() {
            let n = spec.kind.players_a_side();
            let mut error = None;
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
            let texts: Vec<String> = (0..spec.best_of as usize)
                .map(|g| fields.get(&game_field(i, g)).cloned().unwrap_or_default())
                .collect();
            let typed = texts.iter().any(|t| !t.trim().is_empty());
            let empty = home_ids.is_empty() && away_ids.is_empty() && !typed;
            if empty {
                seen_empty.get_or_insert(i);
            } else if let Some(e) = seen_empty {
                error.get_or_insert(format!(
                    "board {} is empty: enter the boards in order",
                    e + 1
                ));
            }
            let complete = home_ids.len() == n && away_ids.len() == n;
            if !empty && !complete && error.is_none() {
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
            let entry = if complete && error.is_none() {
                read_board(&texts, &names, &ruleset, spec.best_of)
            } else {
                BoardEntry {
                    games: texts
                        .into_iter()
                        .map(|text| crate::league::board::GameEntry {
                            text,
                            ..Default::default()
                        })
                        .collect(),
                    ..BoardEntry::default()
                }
            };
            if !empty
                && complete
                && error.is_none()
                && !entry.games.iter().any(|g| g.record.is_some())
                && !entry.has_errors()
            {
                error = Some("type the first game, starting with the draw".into());
            }
            boards.push(ReadBoard {
                home: home_ids,
                away: away_ids,
                names,
                entry,
                error,
                empty,
            });
        }
        Ok(Card {
            format,
            home,
            away,
            fields: fields.clone(),
            boards,
        })
    }

    fn errors(&self) -> usize {
        self.boards
            .iter()
            .map(|b| {
                usize::from(b.error.is_some())
                    + b.entry.games.iter().filter(|g| g.error.is_some()).count()
            })
            .sum()
    }

    /// The boards as a match result: the played boards, in order.
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
                        .played()
                        .map(|(record, outcome)| GameResult {
                            record: record.clone(),
                            outcome: Some(GameOutcome::of(record, outcome)),
                        })
                        .collect(),
                })
                .collect(),
        }
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
            .map(|(i, (b, spec))| self.board_view(i, b, spec))
            .collect();
        CardPage {
            ctx: access.user.ctx(),
            title: format!("{} v {}", access.home.name, access.away.name),
            match_path: access.path(""),
            action: access.path("/card"),
            status,
            notice,
            boards,
            errors: self.errors(),
            help: HELP,
            dispute: None,
        }
    }

    fn board_view(&self, i: usize, b: &ReadBoard, spec: &match_format::BoardSpec) -> BoardView {
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
        let games = b
            .entry
            .games
            .iter()
            .enumerate()
            .map(|(g, entry)| GameView {
                field: game_field(i, g),
                number: g + 1,
                rows: (entry.text.lines().count() + 2).clamp(4, 30),
                text: entry.text.clone(),
                error: entry.error.as_ref().map(ToString::to_string),
                preview: match (&entry.game, &entry.outcome) {
                    (Some(game), Some(outcome)) => Some(preview(game, outcome)),
                    _ => None,
                },
            })
            .collect();
        let standing = if b.entry.games.iter().any(|g| g.outcome.is_some()) {
            let [h, a] = b.entry.games_won;
            match b.entry.winner {
                Some(0) => format!("Home won the board {h}–{a}"),
                Some(_) => format!("Away won the board {a}–{h}"),
                None if spec.best_of > 1 => format!("Games {h}–{a}, board not decided"),
                None => "Game not finished".to_owned(),
            }
        } else {
            String::new()
        };
        BoardView {
            number: i + 1,
            kind: spec.kind.as_str(),
            slots,
            seats,
            games,
            error: b.error.clone(),
            standing,
        }
    }
}

/// The engine's reading of a game, hand by hand.
fn preview(game: &Game, o: &Outcome) -> Preview {
    let name = |s: usize| game.players[s].clone();
    let hands = game
        .hands
        .iter()
        .zip(&o.hands)
        .enumerate()
        .map(|(h, (hand, ho))| HandView {
            number: h + 1,
            posed_by: name(ho.posed_by),
            plays: hand
                .plays
                .iter()
                .map(|p| {
                    let mut s = format!("{} {}", name(p.by), p.points + u32::from(p.out));
                    if p.out {
                        s.push_str(" (chipped out)");
                    }
                    if p.muggins {
                        s.push_str(" (muggins)");
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join(", "),
            disregarded: ho
                .disregarded
                .iter()
                .map(|&p| {
                    let play = &hand.plays[p - 1];
                    format!(
                        "play {p} ({} {})",
                        name(play.by),
                        play.points + u32::from(play.out)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
            end: match &hand.end {
                Some(End::Out { player, .. }) => format!("{} played out", name(*player)),
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

const HELP: &str = "One line per hand: the scoring plays as seat letter and points (A6, C1x when chipping out, B5m for muggins), then / and how it ended: out C, blocked 9 4 11 7 (every seat's pips from A; in Fives and Threes just blocked will do, unless the winner poses), out A left 12 3 (All Fives: the opponents' pips), abandoned. The board's first game starts with the draw: draw 6-1 4-3. A penalty goes on its own line before the hand it precedes: penalty B talking, penalty D late 5, penalty B violation. A last hand won mid-way has no /.";
