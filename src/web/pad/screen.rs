//! The pub screen: a match's boards (or all of a league's boards in play)
//! for a television or a tablet on the bar. Totals large enough to read
//! across a room, no controls, no sign-in; it refreshes itself (a small
//! script swaps the boards in place, and without it the page reloads).
//! Kept by the page cache like the live page, and rendered again only
//! when a pad taps.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;

use crate::db::{DbError, FixtureId, League};

use super::super::AppState;
use super::super::error::{AppError, Result};
use super::super::page::html;
use super::live::{LiveLine, events_from_now, fixture_boards, league_live};

#[derive(Template)]
#[template(path = "pad/screen.html")]
struct ScreenPage {
    title: String,
    subtitle: String,
    lines: Vec<LiveLine>,
    /// The stream of the taps it shows.
    events: String,
}

#[derive(Deserialize)]
pub struct LeaguePath {
    league: String,
}

#[derive(Deserialize)]
pub struct MatchPath {
    league: String,
    fixture: i64,
}

async fn league(state: &AppState, short: &str) -> Result<League> {
    crate::web::auth::league_named(state.db(), short).await
}

/// The boards of every match of the league in progress.
pub async fn league_screen(
    State(state): State<AppState>,
    Path(p): Path<LeaguePath>,
) -> Result<Response> {
    let league = league(&state, &p.league).await?;
    let live = league_live(&state, &league).await?;
    Ok(html(&ScreenPage {
        title: league.name.clone(),
        subtitle: match live.matches {
            0 => "No match in progress".into(),
            1 => "1 match in progress".into(),
            n => format!("{n} matches in progress"),
        },
        lines: live.lines,
        events: live.events,
    }))
}

/// One match's boards.
pub async fn match_screen(
    State(state): State<AppState>,
    Path(p): Path<MatchPath>,
) -> Result<Response> {
    let league = league(&state, &p.league).await?;
    let fixture = state
        .db()
        .fixture(league.id, FixtureId(p.fixture))
        .await
        .map_err(|e| match e {
            DbError::NotFound(_) => AppError::NotFound("That match".into()),
            other => other.into(),
        })?;
    let names = crate::web::results::side_names(&state, &league, &fixture).await?;
    let events = events_from_now(
        &state,
        &league,
        crate::web::links::at(&league)
            .match_page(fixture.id)
            .events(),
    )
    .await?;
    let lines = fixture_boards(&state, &league, fixture.id).await?;
    Ok(html(&ScreenPage {
        title: format!("{} v {}", names[0], names[1]),
        subtitle: if fixture.status.is_open() {
            league.name.clone()
        } else {
            format!("{}: this match's result is in", league.name)
        },
        lines,
        events,
    }))
}
