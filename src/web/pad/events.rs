//! Live scores pushed (issue 40): the streams of server-sent events that
//! the live page, the match page, the pub screens and a board's pad on a
//! second phone follow (`static/live.js`, `static/pad.js`), and the event
//! a saved tap becomes, rendered once for all of them (`crate::push`).
//!
//! A stream starts from the event its follower last saw: the browser's
//! `Last-Event-ID` when it reconnects, else the `since` its page was read
//! at, so a tap between the page and the stream is not missed. It sends a
//! comment every [`HEARTBEAT`] so that proxies keep it open, and ends when
//! the server shuts down. Refused past the bounds (`crate::push`): the
//! script then reads the page every few seconds, as without a stream.

use std::convert::Infallible;
use std::time::Duration;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::db::{FixtureId, League};
use crate::league::pad::Summary;
use crate::push::{Pushed, Refused, Subscription};

use super::super::AppState;
use super::super::auth::ClientAddr;
use super::super::error::Result;
use super::live::LiveLine;

/// Between two comments on a quiet stream: proxies commonly drop a
/// connection silent for 60 s.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// How soon a browser tries again after its stream was cut.
const RETRY: Duration = Duration::from_secs(1);

#[derive(Template)]
#[template(path = "pad/live_board.html")]
struct LinePart<'a> {
    l: &'a LiveLine,
}

#[derive(Template)]
#[template(path = "pad/screen_board.html")]
struct ScreenPart<'a> {
    l: &'a LiveLine,
}

/// A board's event as the scripts read it.
#[derive(Serialize)]
struct EventData<'a> {
    /// `fixture-board`, as the pages mark their boards.
    key: &'a str,
    fixture: i64,
    board: i64,
    revision: i64,
    /// The board is won.
    over: bool,
    caption: &'a str,
    sides: &'a [String; 2],
    totals: [u32; 2],
    games: [u32; 2],
    /// The board's score as the live and match pages show it.
    line: String,
    /// As the pub screens show it.
    screen: String,
}

/// The event that board `board` of `fixture` (its sides as the pages call
/// them), saved at `revision` with `summary`, becomes: rendered here once,
/// sent as it is to every follower.
pub fn board_event(
    fixture: FixtureId,
    board: i64,
    revision: i64,
    names: &[String; 2],
    summary: &Summary,
) -> String {
    let line = LiveLine::new(
        (fixture, board, revision),
        format!("Board {board}"),
        String::new(),
        summary,
        [&names[0], &names[1]],
    );
    let data = EventData {
        key: &line.key,
        fixture: fixture.0,
        board,
        revision,
        over: line.winner.is_some(),
        caption: &line.caption,
        sides: &line.sides,
        totals: line.totals,
        games: line.games_won,
        line: LinePart { l: &line }.render().unwrap_or_default(),
        screen: ScreenPart { l: &line }.render().unwrap_or_default(),
    };
    serde_json::to_string(&data).unwrap_or_default()
}

#[derive(Deserialize)]
pub struct Since {
    since: Option<i64>,
}

#[derive(Deserialize)]
pub struct MatchPath {
    league: String,
    fixture: i64,
}

#[derive(Deserialize)]
pub struct LeaguePath {
    league: String,
}

/// Every tap of the league: its live page and its screen.
pub async fn league_events(
    State(state): State<AppState>,
    Path(p): Path<LeaguePath>,
    Query(q): Query<Since>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Response> {
    let league = crate::web::auth::league_named(state.db(), &p.league).await?;
    follow(&state, &league, None, &client, last_seen(&headers, q.since)).await
}

/// The taps of one match: its page, its screen, its pads.
pub async fn match_events(
    State(state): State<AppState>,
    Path(p): Path<MatchPath>,
    Query(q): Query<Since>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Response> {
    let league = crate::web::auth::league_named(state.db(), &p.league).await?;
    let fixture = FixtureId(p.fixture);
    // A match of another league (or none) is no match of this one.
    state
        .db()
        .fixture(league.id, fixture)
        .await
        .map_err(|e| match e {
            crate::db::DbError::NotFound(_) => {
                super::super::AppError::NotFound("That match".into())
            }
            other => other.into(),
        })?;
    let last = last_seen(&headers, q.since);
    follow(&state, &league, Some(fixture), &client, last).await
}

/// The event the follower saw last: the browser's own count when it
/// reconnects, else its page's.
fn last_seen(headers: &HeaderMap, since: Option<i64>) -> Option<i64> {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
        .or(since)
}

async fn follow(
    state: &AppState,
    league: &League,
    fixture: Option<FixtureId>,
    client: &str,
    last: Option<i64>,
) -> Result<Response> {
    let subscription = match state
        .hub()
        .subscribe(league.id, fixture, client, last)
        .await
    {
        Ok(s) => s,
        Err(refused) => return Ok(refusal(refused)),
    };
    let first = Event::default().retry(RETRY).comment("following");
    let events = stream::once(async move { Ok::<Event, Infallible>(first) });
    let rest = stream::unfold(
        Follower {
            sub: subscription,
            fixture,
        },
        |mut f| async move { f.next().await.map(|e| (Ok::<Event, Infallible>(e), f)) },
    );
    let mut response = Sse::new(futures_util::StreamExt::chain(events, rest))
        .keep_alive(KeepAlive::new().interval(HEARTBEAT).text("heartbeat"))
        .into_response();
    // nginx buffers a response unless told not to; a stream must not be.
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// A refused stream: the script falls back to reading the page.
fn refusal(refused: Refused) -> Response {
    let (status, words) = match refused {
        Refused::Client => (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many live streams from this address: the page refreshes itself instead.",
        ),
        Refused::Server => (
            StatusCode::SERVICE_UNAVAILABLE,
            "The server follows as many live streams as it may: the page refreshes itself instead.",
        ),
        Refused::ShuttingDown => (
            StatusCode::SERVICE_UNAVAILABLE,
            "The server is restarting: the page refreshes itself instead.",
        ),
    };
    (
        status,
        [
            (header::RETRY_AFTER, "30"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        words,
    )
        .into_response()
}

/// One follower's stream: what it missed, then each event of its league
/// (of its match, if it follows one) until the server shuts down.
struct Follower {
    sub: Subscription,
    fixture: Option<FixtureId>,
}

impl Follower {
    async fn next(&mut self) -> Option<Event> {
        loop {
            let pushed = if self.sub.missed.is_empty() {
                tokio::select! {
                    _ = self.sub.shutdown.wait_for(|down| *down) => return None,
                    got = self.sub.receiver.recv() => match got {
                        Ok(p) => p,
                        // Fallen behind the league's events: the page.
                        Err(RecvError::Lagged(_)) => Pushed::Reset,
                        Err(RecvError::Closed) => return None,
                    },
                }
            } else {
                self.sub.missed.remove(0)
            };
            match pushed {
                Pushed::Reset => return Some(Event::default().event("reset").data("{}")),
                Pushed::Board(e) if self.fixture.is_none_or(|f| f == e.fixture) => {
                    return Some(
                        Event::default()
                            .id(e.id.to_string())
                            .event("board")
                            .data(&*e.data),
                    );
                }
                Pushed::Board(_) => continue,
            }
        }
    }
}
