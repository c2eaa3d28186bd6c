//! One board's pad: the page (which works as plain forms, one tap a
//! post), the sync the pad's script uses (the whole log, so a phone that
//! was offline sends what it kept), and the service worker that lets the
//! page load with no connection.

use crate::app::pad::Players;
use crate::web::links;
use std::collections::HashMap;

use askama::Template;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::{Deserialize, Serialize};

use crate::league::match_format::BoardSpec;
use crate::league::pad::{Board, PadRuleset, Phase, Refusal, Tap, describe};
use crate::rules::ruleset::PoseRule;
use crate::rules::tile::Tile;
use crate::rules::{Format, points};

use super::super::AppState;
use super::super::csrf::CsrfForm;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{Keeper, MatchRules, PadAccess};
use crate::db::pad::PadSaved;
use crate::league::lineup::{self, BoardPlayers, LineUp};

/// Why a tap is refused once the match's result is in.
const CLOSED: &str =
    "This match's result is in: the pad is closed. Corrections go through the match card.";

/// Pip counts offered for a blocked hand or the opponents' pips.
const MOST_PIPS: u32 = 90;

#[derive(Template)]
#[template(path = "pad/board.html")]
struct PadPage {
    ctx: Ctx,
    title: String,
    home_team: String,
    away_team: String,
    action: String,
    back: Option<String>,
    notice: Option<String>,
    error: Option<String>,
    closed: bool,
    phase: &'static str,
    score: ScoreView,
    slots: Vec<usize>,
    home_roster: Vec<(i64, String)>,
    away_roster: Vec<(i64, String)>,
    seats: Vec<SeatView>,
    who: Option<SeatView>,
    points: Vec<u32>,
    out_points: Vec<u32>,
    format: &'static str,
    blocked_counts: bool,
    penalties: Vec<&'static str>,
    late_minutes: Vec<u32>,
    pips: Vec<u32>,
    tiles: Vec<String>,
    hands: Vec<HandLine>,
    games: Vec<String>,
    revision: i64,
    can_undo: bool,
    data: String,
    /// This board's number.
    board: i64,
    /// Boards won so far, home first, this one included once it is over.
    match_so_far: [u32; 2],
    /// The other boards not yet decided.
    to_play: usize,
    /// The next board to keep once this one is over, and its pad.
    next_board: Option<(i64, String)>,
}

/// What the pad's script is given of the board.
#[derive(Serialize)]
struct PadData<'a> {
    format: &'static str,
    /// Every option, resolved: the script has no defaults of its own.
    rules: PadRuleset,
    kind: &'static str,
    best_of: u32,
    home: &'a [(i64, String)],
    away: &'a [(i64, String)],
    home_team: &'a str,
    away_team: &'a str,
    taps: &'a [Tap],
    revision: i64,
    sync: String,
    csrf: &'a str,
    store: String,
    open: bool,
    /// The line-up rule, and who plays the match's other boards as the
    /// page was made (the server checks again on every sync).
    line_up: LineUp,
    others: &'a [BoardPlayers],
    /// The other boards won so far, home first: the match's score once
    /// this board's winner is added.
    won: [u32; 2],
    /// This board's number, and the stream of its match's taps: a pad
    /// open on a second phone follows the taps of the first.
    board: i64,
    events: String,
}

struct ScoreView {
    sides: [String; 2],
    totals: [u32; 2],
    games_won: [u32; 2],
    game: usize,
    best_of: u32,
    hand: usize,
    poser: String,
    next_poser: String,
    verdict: String,
}

#[derive(Clone)]
struct SeatView {
    seat: usize,
    name: String,
    side: usize,
}

struct HandLine {
    number: usize,
    posed_by: String,
    plays: String,
    end: String,
    totals: String,
}

#[derive(Deserialize)]
pub struct ShowQuery {
    who: Option<usize>,
    saved: Option<usize>,
}

pub async fn show(
    State(state): State<AppState>,
    access: PadAccess,
    Query(q): Query<ShowQuery>,
) -> Result<Response> {
    let (rules, spec, taps, revision) = load(&state, &access).await?;
    let (board, refused) = rules.replay(spec, &taps);
    let notice = q.saved.and_then(|_| {
        let tap = board.effective.last()?;
        let mut text = format!("Saved on the server: {}.", describe(&board, tap));
        if last_play_disregarded(&board) && matches!(tap, Tap::Play { .. } | Tap::Out { .. }) {
            text.push_str(&format!(
                " Disregarded: it would take the side past {}, so the total stays.",
                rules.ruleset.target
            ));
        }
        Some(text)
    });
    let error = refused.map(|r| format!("Tap {} could not be read: {}", r.index + 1, r.reason));
    let others = other_boards(&state, &access, &rules).await?;
    let page = page(
        &access, &rules, spec, &board, &taps, revision, q.who, notice, error, &others,
    );
    Ok(html(&page))
}

/// The board's rules and its taps as the server holds them, with their
/// revision (0: nothing tapped yet).
async fn load(
    state: &AppState,
    access: &PadAccess,
) -> Result<(MatchRules, BoardSpec, Vec<Tap>, i64)> {
    let rules = MatchRules::load(state, &access.league, &access.season, &access.fixture).await?;
    let spec = rules.spec(access.board)?;
    let (mut taps, revision) = state
        .db()
        .pad_board(access.league.id, access.fixture.id, access.board)
        .await?
        .map(|p| (p.taps, p.revision))
        .unwrap_or_default();
    // Nothing tapped yet: the board starts from the captains' line-ups
    // (the team sheet), its players set; the first tap saves them with
    // it, and they can be changed like any tap (the pad keeps them all).
    if taps.is_empty()
        && revision == 0
        && let Some((home, away)) = crate::app::team_sheet::board_from_line_ups(
            state.db(),
            access.league.id,
            &access.fixture,
            &rules.format,
            access.board,
        )
        .await?
    {
        taps.push(Tap::Players { home, away });
    }
    Ok((rules, spec, taps, revision))
}

#[allow(clippy::too_many_arguments)]
fn page(
    access: &PadAccess,
    rules: &MatchRules,
    spec: BoardSpec,
    board: &Board,
    taps: &[Tap],
    revision: i64,
    who: Option<usize>,
    notice: Option<String>,
    error: Option<String>,
    others: &Others,
) -> PadPage {
    let n = spec.kind.players_a_side();
    let format = rules.ruleset.format;
    // Every seat is on the page, named once the players are chosen, so
    // the script can fill them in without the server.
    let seats: Vec<SeatView> = (0..2 * n)
        .map(|seat| SeatView {
            seat,
            name: board.players.get(seat).cloned().unwrap_or_default(),
            side: seat % 2,
        })
        .collect();
    let summary = board.summary(rules.ruleset.pose == PoseRule::Rotate);
    let side_names = |side: usize| {
        let names: Vec<&str> = board
            .players
            .iter()
            .skip(side)
            .step_by(2)
            .map(String::as_str)
            .collect();
        if names.is_empty() {
            [&access.names[0], &access.names[1]][side].clone()
        } else {
            names.join(" & ")
        }
    };
    let verdict = match (board.winner, board.current()) {
        (Some(w), _) => format!(
            "{} won the board {}–{}.",
            side_names(w),
            board.games_won[w],
            board.games_won[1 - w]
        ),
        (None, Some(g)) if g.outcome.finished => format!(
            "{} won game {}. Game {} opens with {} posing.",
            side_names(g.outcome.winner.unwrap_or(0)),
            board.games.len(),
            board.games.len() + 1,
            summary.next_poser.clone().unwrap_or_default()
        ),
        _ => String::new(),
    };
    let hands = board
        .current()
        .map(|g| {
            g.record
                .hands
                .iter()
                .zip(&g.outcome.hands)
                .enumerate()
                .map(|(h, (hand, out))| HandLine {
                    number: h + 1,
                    posed_by: board.players[out.posed_by].clone(),
                    plays: hand
                        .plays
                        .iter()
                        .enumerate()
                        .map(|(p, play)| {
                            let mut s =
                                format!("{} {}", play.by, play.points + i64::from(play.out));
                            if play.out {
                                s.push_str(" out");
                            }
                            if out.disregarded.contains(&(p + 1)) {
                                s.push_str(" (disregarded)");
                            }
                            s
                        })
                        .collect::<Vec<_>>()
                        .join(", "),
                    end: match &hand.end {
                        Some(e) if e.out.is_some() => {
                            format!("{} out", e.out.clone().unwrap_or_default())
                        }
                        Some(e) if e.blocked.is_some() => "blocked".into(),
                        Some(_) => "abandoned".into(),
                        None if g.outcome.finished => "game won".into(),
                        None => "in play".into(),
                    },
                    totals: format!("{}–{}", out.totals_after[0], out.totals_after[1]),
                })
                .collect()
        })
        .unwrap_or_default();
    let games = board
        .games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.outcome.finished)
        .map(|(i, g)| {
            format!(
                "Game {}: {}–{}",
                i + 1,
                g.outcome.totals[0],
                g.outcome.totals[1]
            )
        })
        .collect();
    let phase = match board.phase() {
        Phase::Players => "players",
        Phase::Opening => "opening",
        Phase::Play => "play",
        Phase::Over => "over",
    };
    // Typed, so the taps are written in the page exactly as in every sync
    // reply (a `serde_json::Value` would sort their keys).
    let data = PadData {
        format: format.as_str(),
        rules: PadRuleset::from(&rules.ruleset),
        kind: spec.kind.as_str(),
        best_of: spec.best_of,
        home: &rules.home,
        away: &rules.away,
        home_team: &access.names[0],
        away_team: &access.names[1],
        taps,
        revision,
        sync: access.sync_path(),
        csrf: &access.csrf,
        store: format!(
            "boneyard-pad:{}:{}:{}",
            access.league.short_name, access.fixture.id, access.board
        ),
        open: access.open(),
        line_up: rules.format.line_up,
        others: &others.players,
        won: others.won,
        board: access.board,
        events: links::at(&access.league)
            .match_page(access.fixture.id)
            .events(),
    };
    let mut match_so_far = others.won;
    if let Some(w) = board.winner {
        match_so_far[w] += 1;
    }
    PadPage {
        ctx: access.ctx(),
        title: format!(
            "Board {} · {} v {}",
            access.board, access.names[0], access.names[1]
        ),
        home_team: access.names[0].clone(),
        away_team: access.names[1].clone(),
        action: access.path(""),
        back: (access.keeper != Keeper::Link).then(|| {
            links::at(&access.league)
                .match_page(access.fixture.id)
                .pad()
        }),
        notice,
        error,
        closed: !access.open(),
        phase,
        score: ScoreView {
            sides: [side_names(0), side_names(1)],
            totals: summary.totals,
            games_won: summary.games_won,
            game: summary.game.max(1),
            best_of: spec.best_of,
            hand: summary.hand.max(1),
            poser: summary.poser.unwrap_or_else(|| "–".into()),
            next_poser: summary
                .next_poser
                .unwrap_or_else(|| "the hand's winner".into()),
            verdict,
        },
        slots: (0..n).collect(),
        home_roster: rules.home.clone(),
        away_roster: rules.away.clone(),
        who: who
            .and_then(|s| seats.get(s).cloned())
            .filter(|s| !s.name.is_empty()),
        seats,
        // A button for every score the rules allow a play.
        points: match format {
            Format::FivesAndThrees => (1..=8)
                .filter(|&p| points::fives_and_threes_possible(p))
                .collect(),
            Format::AllFives => (5..=60)
                .filter(|&p| points::all_fives_possible(p))
                .collect(),
            Format::HandsWon => Vec::new(),
        },
        // Chipping out: the last tile's own score, nothing included.
        out_points: match format {
            Format::FivesAndThrees => (0..=8)
                .filter(|&p| p == 0 || points::fives_and_threes_possible(p))
                .collect(),
            _ => Vec::new(),
        },
        format: format.as_str(),
        blocked_counts: format != Format::FivesAndThrees || rules.ruleset.pose == PoseRule::Winner,
        penalties: match format {
            Format::FivesAndThrees => vec![],
            Format::AllFives => vec!["talking", "exposed"],
            Format::HandsWon => vec!["violation", "late"],
        },
        late_minutes: (1..=15).collect(),
        pips: (0..=MOST_PIPS).collect(),
        tiles: Tile::set().map(|t| t.to_string()).collect(),
        hands,
        games,
        revision,
        can_undo: !board.effective.is_empty(),
        data: serde_json::to_string(&data).unwrap_or_default(),
        board: access.board,
        match_so_far,
        to_play: others.undecided.len(),
        // A link keeps its own board only.
        next_board: (access.keeper != Keeper::Link)
            .then(|| crate::league::pad::next_board(access.board, &others.undecided))
            .flatten()
            .map(|n| {
                let at = links::at(&access.league).match_page(access.fixture.id);
                (n, at.pad_board(n))
            }),
    }
}

/// Whether the last play of the game in hand was disregarded by the exact
/// finish.
fn last_play_disregarded(board: &Board) -> bool {
    board.current().is_some_and(|g| {
        let (Some(hand), Some(out)) = (g.record.hands.last(), g.outcome.hands.last()) else {
            return false;
        };
        !hand.plays.is_empty() && out.disregarded.contains(&hand.plays.len())
    })
}

/// The tap a plain form sends, read from its fields.
fn tap_from_form(f: &HashMap<String, String>) -> std::result::Result<Tap, String> {
    let num = |name: &str| -> std::result::Result<u32, String> {
        f.get(name)
            .ok_or_else(|| format!("the form has no `{name}`"))?
            .trim()
            .parse()
            .map_err(|_| format!("`{name}` must be a whole number"))
    };
    let list = |prefix: &str| -> Vec<String> {
        (0..4)
            .map_while(|i| f.get(&format!("{prefix}{i}")).cloned())
            .collect()
    };
    let seat = || num("seat").map(|s| s as usize);
    match f.get("t").map(String::as_str).unwrap_or("") {
        "players" => {
            let ids = |prefix: &str| -> std::result::Result<Vec<i64>, String> {
                list(prefix)
                    .iter()
                    .map(|v| {
                        v.parse()
                            .map_err(|_| "choose a player for every place".to_owned())
                    })
                    .collect()
            };
            Ok(Tap::Players {
                home: ids("home")?,
                away: ids("away")?,
            })
        }
        "draw" => Ok(Tap::Draw {
            tiles: list("tile"),
        }),
        "pose" => Ok(Tap::Pose { seat: seat()? }),
        "play" => Ok(Tap::Play {
            seat: seat()?,
            points: num("points")?,
        }),
        "out" => Ok(Tap::Out {
            seat: seat()?,
            points: if f.contains_key("points") {
                num("points")?
            } else {
                0
            },
            left: if f.contains_key("left") {
                Some(num("left")?)
            } else {
                None
            },
        }),
        "blocked" => Ok(Tap::Blocked {
            pips: list("pips")
                .iter()
                .map(|p| {
                    p.parse()
                        .map_err(|_| "a pip count is a whole number".to_owned())
                })
                .collect::<std::result::Result<_, _>>()?,
        }),
        "abandoned" => Ok(Tap::Abandoned),
        "penalty" => Ok(Tap::Penalty {
            seat: seat()?,
            kind: f.get("kind").cloned().unwrap_or_default(),
            minutes: if f.contains_key("minutes") {
                Some(num("minutes")?)
            } else {
                None
            },
        }),
        "undo" => Ok(Tap::Undo),
        other => Err(format!("unknown tap `{other}`")),
    }
}

/// A plain form's tap: appended if the board is still as the page showed
/// it, then back to the pad saying what was saved.
pub async fn tap(
    State(state): State<AppState>,
    access: PadAccess,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let fields: HashMap<String, String> = form.into_iter().collect();
    let (rules, spec, mut taps, revision) = load(&state, &access).await?;
    let others = other_boards(&state, &access, &rules).await?;
    let again = |board: &Board, taps: &[Tap], revision, error: String, status| {
        let page = page(
            &access,
            &rules,
            spec,
            board,
            taps,
            revision,
            None,
            None,
            Some(error),
            &others,
        );
        (status, html(&page)).into_response()
    };
    let (board, _) = rules.replay(spec, &taps);
    if !access.open() {
        return Ok(again(
            &board,
            &taps,
            revision,
            CLOSED.into(),
            StatusCode::CONFLICT,
        ));
    }
    let seen: i64 = fields
        .get("base")
        .and_then(|b| b.parse().ok())
        .unwrap_or(-1);
    if seen != revision {
        return Ok(again(
            &board,
            &taps,
            revision,
            "This board changed on another phone since this page was shown: here it is now. Your tap was not saved; tap again if it is still needed.".into(),
            StatusCode::CONFLICT,
        ));
    }
    let tap = match tap_from_form(&fields) {
        Ok(tap) => tap,
        Err(why) => {
            return Ok(again(
                &board,
                &taps,
                revision,
                why,
                StatusCode::UNPROCESSABLE_ENTITY,
            ));
        }
    };
    let before = (board.home.clone(), board.away.clone());
    taps.push(tap);
    let (board, mut refused) = rules.replay(spec, &taps);
    if refused.is_none() {
        refused = lineup_refusal(&state, &access, &rules, spec, &taps, taps.len() - 1).await?;
    }
    if let Some(r) = refused {
        taps.pop();
        return Ok(again(
            &board,
            &taps,
            revision,
            format!("Not saved: {}", r.reason),
            StatusCode::UNPROCESSABLE_ENTITY,
        ));
    }
    let summary = board.summary(rules.ruleset.pose == PoseRule::Rotate);
    let players = Players {
        before: (&before.0, &before.1),
        after: (&board.home, &board.away),
    };
    let saved = save(&state, &access, revision, &taps, &summary, players).await?;
    match saved {
        PadSaved::Saved(_) => {}
        PadSaved::Stale => {
            taps.pop();
            return Ok(again(
                &board,
                &taps,
                revision,
                "This board changed on another phone at the same moment: your tap was not saved; tap again if it is still needed.".into(),
                StatusCode::CONFLICT,
            ));
        }
        PadSaved::Closed => {
            taps.pop();
            return Ok(again(
                &board,
                &taps,
                revision,
                CLOSED.into(),
                StatusCode::CONFLICT,
            ));
        }
    }
    let to = access.path(&format!("saved={}", taps.len()));
    Ok(Redirect::to(&to).into_response())
}

/// Saves the board's taps on `revision` and tells its followers: the
/// event is rendered here, once, before the transaction (it is sent only if
/// the taps are saved).
async fn save(
    state: &AppState,
    access: &PadAccess,
    revision: i64,
    taps: &[Tap],
    summary: &crate::league::pad::Summary,
    players: Players<'_>,
) -> Result<PadSaved> {
    let event = super::events::board_event(
        access.fixture.id,
        access.board,
        revision + 1,
        &access.names,
        summary,
    );
    let write = crate::app::pad::PadWrite {
        league: access.league.id,
        fixture: access.fixture.id,
        board: access.board,
        seen: revision,
        taps,
        summary,
        by: access.user.as_ref().map(|u| u.id),
        players,
    };
    Ok(crate::app::pad::save_tap(state.db(), state.hub(), write, &event).await?)
}

/// What the pad's script sends: every tap it holds for the board, and the
/// revision its taps were last in step with.
#[derive(Deserialize)]
pub struct SyncRequest {
    taps: Vec<Tap>,
}

#[derive(Serialize)]
pub struct SyncReply {
    /// The board's taps as the server now holds them.
    taps: Vec<Tap>,
    revision: i64,
    /// The first tap the server would not take, and why.
    refused: Option<crate::league::pad::Refusal>,
    /// Another phone's taps came first: the sent ones past the common
    /// start were not taken.
    conflict: Option<String>,
}

/// The script's sync: the server takes the sent log when it carries on
/// from what the server holds (the same taps, then more), checking each new
/// tap; a log that went another way is refused whole, with the server's.
pub async fn sync(
    State(state): State<AppState>,
    access: PadAccess,
    headers: HeaderMap,
    Json(req): Json<SyncRequest>,
) -> Result<Response> {
    // A JSON post cannot come from a plain cross-site form, and the header
    // must carry the session's form token.
    let sent_token = headers
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if sent_token.is_empty() || sent_token != access.csrf {
        return Err(AppError::Csrf);
    }
    let (rules, spec, held, revision) = load(&state, &access).await?;
    let db = state.db();
    let reply = |taps: Vec<Tap>, revision, refused, conflict: Option<String>, status| {
        let body = SyncReply {
            taps,
            revision,
            refused,
            conflict,
        };
        (status, Json(body)).into_response()
    };
    if !req.taps.starts_with(&held) {
        let msg = if held.starts_with(&req.taps) {
            None
        } else {
            Some(format!(
                "Another phone has been keeping this board: it holds {} taps that this phone did not have, and the board is shown as the server holds it. This phone's own taps since then were not saved there.",
                held.len().saturating_sub(common_prefix(&held, &req.taps))
            ))
        };
        let status = if msg.is_some() {
            StatusCode::CONFLICT
        } else {
            StatusCode::OK
        };
        return Ok(reply(held, revision, None, msg, status));
    }
    if req.taps.len() == held.len() {
        return Ok(reply(held, revision, None, None, StatusCode::OK));
    }
    if !access.open() {
        return Ok(reply(
            held,
            revision,
            None,
            Some(CLOSED.into()),
            StatusCode::CONFLICT,
        ));
    }
    let (mut board, mut refused) = rules.replay(spec, &req.taps);
    let mut taken = refused.as_ref().map_or(req.taps.len(), |r| r.index);
    if let Some(r) = lineup_refusal(
        &state,
        &access,
        &rules,
        spec,
        &req.taps[..taken],
        held.len(),
    )
    .await?
    {
        taken = r.index;
        board = rules.replay(spec, &req.taps[..taken]).0;
        refused = Some(r);
    }
    if taken <= held.len() {
        // Nothing new could be taken.
        if refused.is_some() {
            crate::metrics::tap_refused();
        }
        return Ok(reply(
            held,
            revision,
            refused,
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ));
    }
    let taps = &req.taps[..taken];
    let summary = board.summary(rules.ruleset.pose == PoseRule::Rotate);
    let before = rules.replay(spec, &held).0;
    let players = Players {
        before: (&before.home, &before.away),
        after: (&board.home, &board.away),
    };
    let saved = save(&state, &access, revision, taps, &summary, players).await?;
    if refused.is_some() {
        crate::metrics::tap_refused();
    }
    match saved {
        PadSaved::Saved(new) => {
            crate::metrics::taps_taken(taken - held.len());
            Ok(reply(taps.to_vec(), new, refused, None, StatusCode::OK))
        }
        PadSaved::Closed => Ok(reply(
            held,
            revision,
            None,
            Some(CLOSED.into()),
            StatusCode::CONFLICT,
        )),
        PadSaved::Stale => {
            // Another write came between our read and our write: the phone
            // sends again and is answered against the newer log.
            let now = db
                .pad_board(access.league.id, access.fixture.id, access.board)
                .await?
                .map(|p| (p.taps, p.revision))
                .unwrap_or_default();
            Ok(reply(
                now.0,
                now.1,
                None,
                Some("Another phone saved this board at the same moment: send again.".into()),
                StatusCode::CONFLICT,
            ))
        }
    }
}

/// The match's other boards as their pads hold them.
struct Others {
    /// Who plays them (for the line-up rule).
    players: Vec<BoardPlayers>,
    /// Boards won by each side, home first.
    won: [u32; 2],
    /// The boards (1-based) not yet decided, a board no pad has kept
    /// among them.
    undecided: Vec<i64>,
}

/// The match's other boards, each replayed once from its pad.
async fn other_boards(state: &AppState, access: &PadAccess, rules: &MatchRules) -> Result<Others> {
    let pads = state
        .db()
        .pad_boards(access.league.id, access.fixture.id)
        .await?;
    let mut others = Others {
        players: Vec::new(),
        won: [0, 0],
        undecided: Vec::new(),
    };
    for number in 1..=rules.format.boards.len() as i64 {
        if number == access.board {
            continue;
        }
        let pad = pads.iter().find(|p| p.board == number);
        let (Some(pad), Ok(spec)) = (pad, rules.spec(number)) else {
            others.undecided.push(number);
            continue;
        };
        let (board, _) = rules.replay(spec, &pad.taps);
        match board.winner {
            Some(w) => others.won[w] += 1,
            None => others.undecided.push(number),
        }
        if !board.players.is_empty() {
            others.players.push(BoardPlayers {
                board: usize::try_from(number).unwrap_or(0),
                kind: spec.kind,
                players: board.home.iter().chain(&board.away).copied().collect(),
            });
        }
    }
    Ok(others)
}

/// The line-up rule over the players taps among `taps[from..]`: a refusal
/// of the first that puts a player on more boards of its kind than the
/// match allows, naming the other boards.
async fn lineup_refusal(
    state: &AppState,
    access: &PadAccess,
    rules: &MatchRules,
    spec: BoardSpec,
    taps: &[Tap],
    from: usize,
) -> Result<Option<Refusal>> {
    let chosen: Vec<usize> = (from..taps.len())
        .filter(|&i| matches!(taps[i], Tap::Players { .. }))
        .collect();
    if chosen.is_empty() {
        return Ok(None);
    }
    let others = other_boards(state, access, rules).await?.players;
    let board = usize::try_from(access.board).unwrap_or(0);
    for index in chosen {
        let (b, _) = rules.replay(spec, &taps[..=index]);
        let players: Vec<i64> = b.home.iter().chain(&b.away).copied().collect();
        if let Some(clash) = lineup::refuse(&rules.format, board, spec.kind, &players, &others) {
            let name = rules
                .home
                .iter()
                .chain(&rules.away)
                .find(|p| p.0 == clash.player)
                .map_or("A player", |p| p.1.as_str());
            return Ok(Some(Refusal {
                index,
                reason: lineup::refusal_words(&clash, name),
            }));
        }
    }
    Ok(None)
}

fn common_prefix(a: &[Tap], b: &[Tap]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The pad's service worker, served from the site's root so that it may
/// answer for the pad's pages when there is no connection.
pub async fn service_worker() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        super::super::assets::body("pad-sw.js").unwrap_or_default(),
    )
        .into_response()
}
