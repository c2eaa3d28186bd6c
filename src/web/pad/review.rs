//! The match as the pads hold it: its score and the points each side
//! gets, each board's result in words, a link to each board's pad, the
//! links (and QR codes) for whoever keeps a board without an account, and
//! the one-tap submission.

use crate::web::links;
use crate::web::links::{Address, MatchAt};
use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::{BoardResult, GameOutcome, GameResult, MatchResult, PlayerId};
use crate::league::pad::{Board, link_expiry};
use crate::rules::ruleset::PoseRule;

use super::super::AppState;
use super::super::csrf::{CsrfForm, random_token};
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html, invalid};
use super::super::results::FixtureAccess;
use super::MatchRules;

#[derive(Template)]
#[template(path = "pad/review.html")]
struct ReviewPage {
    ctx: Ctx,
    title: String,
    /// The match's page.
    at: Address<MatchAt>,
    action: String,
    links_action: String,
    sheet: String,
    notice: Option<String>,
    boards: Vec<BoardLine>,
    ready: bool,
    missing: String,
    closed: bool,
    /// The sides' names, home first.
    names: [String; 2],
    /// Boards won so far, home first.
    score: [u32; 2],
    /// Boards not decided yet.
    to_play: usize,
    /// The league points each side gets, home first, once every board is
    /// decided (none for a cup tie).
    points: Option<(u32, u32)>,
    /// (board, revision) of every board as shown, sent back on submit.
    revisions: Vec<(i64, i64)>,
}

struct BoardLine {
    number: i64,
    kind: &'static str,
    pad: String,
    /// The side that won it, by name.
    winner: Option<String>,
    /// Where it stands, in plain words.
    state: String,
    link: Option<LinkView>,
}

struct LinkView {
    url: String,
    expires: String,
    qr: String,
}

#[derive(Deserialize)]
pub struct ReviewQuery {
    made: Option<i64>,
    made_all: Option<usize>,
    revoked: Option<i64>,
    n: Option<u64>,
}

struct Loaded {
    rules: MatchRules,
    boards: Vec<(i64, Board)>,
    /// Each board's pad revision (board, revision; 0: nothing tapped), as
    /// the page shows them: its submission carries them back.
    revisions: Vec<(i64, i64)>,
}

async fn load(state: &AppState, access: &FixtureAccess) -> Result<Loaded> {
    let rules = MatchRules::load(state, &access.league, &access.season, &access.fixture).await?;
    let pads = state
        .db()
        .pad_boards(access.league.id, access.fixture.id)
        .await?;
    let mut boards = Vec::new();
    let mut revisions = Vec::new();
    for number in 1..=rules.format.boards.len() as i64 {
        let spec = rules.spec(number)?;
        let pad = pads.iter().find(|p| p.board == number);
        let taps = pad.map(|p| p.taps.clone()).unwrap_or_default();
        revisions.push((number, pad.map_or(0, |p| p.revision)));
        boards.push((number, rules.replay(spec, &taps).0));
    }
    Ok(Loaded {
        rules,
        boards,
        revisions,
    })
}

pub async fn show(
    State(state): State<AppState>,
    access: FixtureAccess,
    headers: axum::http::HeaderMap,
    axum::extract::Query(q): axum::extract::Query<ReviewQuery>,
) -> Result<Response> {
    let loaded = load(&state, &access).await?;
    let notice = match (q.made, q.revoked) {
        _ if q.made_all.is_some() => Some(format!(
            "Saved: {} new board link{}. Print the score sheet to put their QR codes on the tables.",
            q.made_all.unwrap_or(0),
            if q.made_all == Some(1) { "" } else { "s" }
        )),
        (Some(board), _) => Some(format!(
            "Saved: a new link for board {board}. Whoever holds it can keep that board tonight, and nothing else."
        )),
        (None, Some(board)) => {
            let n = q.n.unwrap_or(0);
            Some(format!(
                "Saved: {n} link{} to board {board} revoked; {} no longer work{}.",
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "they" },
                if n == 1 { "s" } else { "" }
            ))
        }
        _ => None,
    };
    Ok(html(
        &page(&state, &access, &headers, &loaded, notice).await?,
    ))
}

async fn page(
    state: &AppState,
    access: &FixtureAccess,
    headers: &axum::http::HeaderMap,
    loaded: &Loaded,
    notice: Option<String>,
) -> Result<ReviewPage> {
    let links = state
        .db()
        .pad_links(access.league.id, access.fixture.id)
        .await?;
    let tz = access.league.time_zone;
    let rotates = loaded.rules.ruleset.pose == PoseRule::Rotate;
    let mut missing = Vec::new();
    let mut score = [0, 0];
    let match_at = access.at();
    let boards = loaded
        .boards
        .iter()
        .map(|(number, board)| {
            let spec = loaded.rules.format.boards[(*number - 1) as usize];
            match board.winner {
                Some(w) => score[w] += 1,
                None => missing.push(number.to_string()),
            }
            let state = in_words(board, rotates);
            let link = links.iter().rev().find(|l| l.board == *number).map(|l| {
                let url = super::absolute(
                    headers,
                    &format!("{}?key={}", match_at.pad_board(*number), l.token),
                );
                LinkView {
                    qr: super::qr::svg(&url),
                    expires: tz.local(l.expires_at).format("%a %-d %b %H:%M").to_string(),
                    url,
                }
            });
            BoardLine {
                number: *number,
                kind: spec.kind.as_str(),
                pad: match_at.pad_board(*number),
                winner: board.winner.map(|w| access.names[w].clone()),
                state,
                link,
            }
        })
        .collect();
    let ready = missing.is_empty();
    Ok(ReviewPage {
        names: access.names.clone(),
        score,
        to_play: missing.len(),
        points: (ready && access.fixture.cup_id.is_none())
            .then(|| loaded.rules.format.match_points(score[0], score[1])),
        ctx: access.user.ctx(),
        title: access.title(),
        at: access.at(),
        action: access.at().pad(),
        links_action: access.at().pad_links(),
        sheet: links::at(&access.league).print_fixture(access.fixture.id),
        notice,
        boards,
        ready,
        missing: missing.join(", "),
        closed: !access.fixture.status.is_open(),
        revisions: loaded.revisions.clone(),
    })
}

/// A board as its pad holds it, in plain words for the captain checking it
/// before submitting: who beat whom and by what, each game's score given
/// with its winner's first, so that no score reads as a count of games.
fn in_words(board: &Board, rotates: bool) -> String {
    let side = |s: usize| {
        board
            .players
            .iter()
            .skip(s)
            .step_by(2)
            .cloned()
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let finished: Vec<_> = board.games.iter().filter(|g| g.outcome.finished).collect();
    match board.winner {
        Some(w) => {
            let (winner, loser) = (side(w), side(1 - w));
            match finished.as_slice() {
                [only] => format!(
                    "{winner} beat {loser} {}–{}.",
                    only.outcome.totals[w],
                    only.outcome.totals[1 - w]
                ),
                games => {
                    let each: Vec<String> = games
                        .iter()
                        .map(|g| {
                            let t = g.outcome.totals;
                            match g.outcome.winner {
                                Some(gw) => format!("{} {}–{}", side(gw), t[gw], t[1 - gw]),
                                None => format!("{}–{}, not won", t[0], t[1]),
                            }
                        })
                        .collect();
                    format!(
                        "{winner} beat {loser} {} games to {}: {}.",
                        board.games_won[w],
                        board.games_won[1 - w],
                        each.join(", ")
                    )
                }
            }
        }
        None if board.players.is_empty() => "Not started.".into(),
        None if board.games.is_empty() => format!("{} v {}: not begun.", side(0), side(1)),
        None => {
            let summary = board.summary(rotates);
            format!(
                "In play: game {}, hand {}; {} {}, {} {}.",
                summary.game.max(1),
                summary.hand.max(1),
                side(0),
                summary.totals[0],
                side(1),
                summary.totals[1]
            )
        }
    }
}

/// The match as the pads hold it, as a result to submit.
fn result_of(loaded: &Loaded) -> MatchResult {
    MatchResult {
        boards: loaded
            .boards
            .iter()
            .map(|(number, board)| BoardResult {
                kind: loaded.rules.format.boards[(*number - 1) as usize].kind,
                home: board.home.iter().map(|id| PlayerId(*id)).collect(),
                away: board.away.iter().map(|id| PlayerId(*id)).collect(),
                games: board
                    .games
                    .iter()
                    .map(|g| GameResult {
                        record: g.record.clone(),
                        outcome: Some(GameOutcome::of(&g.record, &g.outcome)),
                        score_only: false,
                    })
                    .collect(),
                conceded_by: None,
            })
            .collect(),
    }
}

/// Submits the whole match from its pads in one go, once every board is
/// decided.
pub async fn submit(
    State(state): State<AppState>,
    access: FixtureAccess,
    headers: axum::http::HeaderMap,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let loaded = load(&state, &access).await?;
    // The revisions of the boards the captain saw: a board changed since
    // (an undo on its way, another phone) is not stored unseen.
    let shown: Vec<(i64, i64)> = form
        .iter()
        .filter_map(|(k, v)| {
            let board = k.strip_prefix("revision")?.parse().ok()?;
            Some((board, v.trim().parse().ok()?))
        })
        .collect();
    let changed = crate::league::workflow::changed_pads(&shown, &loaded.revisions);
    if !changed.is_empty() {
        let notice = crate::league::workflow::Refusal::PadsChanged { boards: changed }.to_string();
        let page = page(&state, &access, &headers, &loaded, Some(notice)).await?;
        return Ok((axum::http::StatusCode::CONFLICT, html(&page)).into_response());
    }
    let name = |id: i64| {
        let rules = &loaded.rules;
        rules
            .home
            .iter()
            .chain(&rules.away)
            .find(|p| p.0 == id)
            .map_or_else(|| "A player".to_owned(), |p| p.1.clone())
    };
    if let Some(notice) = crate::league::pad::not_ready(&loaded.rules.format, &loaded.boards, name)
    {
        return Ok(invalid(
            &page(&state, &access, &headers, &loaded, Some(notice)).await?,
        ));
    }
    if !access.fixture.status.is_open() {
        return Err(AppError::Conflict(
            "This match's result is already in: corrections go through the match card.".into(),
        ));
    }
    let version = crate::app::results::submit_pads(
        state.db(),
        access.league.id,
        access.fixture.id,
        &result_of(&loaded),
        &loaded.revisions,
        access.actor(),
    )
    .await;
    let version = match version {
        Ok(v) => v,
        Err(crate::db::DbError::Refused(
            r @ crate::league::workflow::Refusal::PadsChanged { .. },
        )) => {
            // Changed between this request's read and its write: the
            // review again, as the pads stand now.
            let loaded = load(&state, &access).await?;
            let page = page(&state, &access, &headers, &loaded, Some(r.to_string())).await?;
            return Ok((axum::http::StatusCode::CONFLICT, html(&page)).into_response());
        }
        Err(e) => return Err(access.refused(e)),
    };
    crate::web::results::tell_followers(&state, &access).await;
    Ok(Redirect::to(&format!(
        "{}?submitted=pad&version={}",
        access.at().history(),
        version.version
    ))
    .into_response())
}

#[derive(Deserialize)]
pub struct LinkForm {
    board: i64,
    action: String,
}

/// Makes or revokes a board's link.
pub async fn links(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<LinkForm>,
) -> Result<Response> {
    let rules = MatchRules::load(&state, &access.league, &access.season, &access.fixture).await?;
    rules.spec(form.board)?;
    let db = state.db();
    let (league, fixture) = (access.league.id, access.fixture.id);
    let to = match form.action.as_str() {
        "revoke" => {
            let n = db.revoke_pad_links(league, fixture, form.board).await?;
            format!("{}?revoked={}&n={n}", access.at().pad(), form.board)
        }
        "create" | "create_all" => {
            let now = crate::db::now();
            let expires = link_expiry(access.league.time_zone, access.fixture.starts_at, now);
            if expires <= now {
                return Err(AppError::BadRequest(
                    "This match's day has passed: a pad link would not work any more.".into(),
                ));
            }
            let boards: Vec<i64> = if form.action == "create_all" {
                let linked = db.pad_links(league, fixture).await?;
                (1..=rules.format.boards.len() as i64)
                    .filter(|b| !linked.iter().any(|l| l.board == *b))
                    .collect()
            } else {
                vec![form.board]
            };
            for board in &boards {
                db.create_pad_link(
                    league,
                    fixture,
                    *board,
                    &random_token()[..32],
                    expires,
                    Some(access.user.id),
                )
                .await?;
            }
            if form.action == "create_all" {
                format!("{}?made_all={}", access.at().pad(), boards.len())
            } else {
                format!("{}?made={}", access.at().pad(), form.board)
            }
        }
        other => return Err(AppError::BadRequest(format!("unknown action `{other}`"))),
    };
    Ok(Redirect::to(&to).into_response())
}

/// The match as its pads hold it, for the card to start from, when any
/// board has been tapped.
pub async fn pads_result(state: &AppState, access: &FixtureAccess) -> Result<Option<MatchResult>> {
    let loaded = load(state, access).await?;
    if loaded.boards.iter().all(|(_, b)| b.players.is_empty()) {
        return Ok(None);
    }
    Ok(Some(result_of(&loaded)))
}
