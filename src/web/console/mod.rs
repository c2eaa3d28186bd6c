//! The secretary's console: everything inside one league, under
//! `/leagues/{league}/console`. Every handler takes [`Secretary`], so a
//! page cannot forget to check who is asking, and every query is scoped to
//! that extractor's league; every POST takes a [`CsrfForm`]; a refused form
//! comes back with each reason beside its field (422), a saved one
//! redirects (POST-redirect-GET).
//!
//! [`CsrfForm`]: super::csrf::CsrfForm

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;

use crate::db::{League, Season};

use super::AppState;
use super::auth::Secretary;
use super::error::{AppError, Result};
use super::page::{Ctx, html};

pub mod form;

mod approvals;
mod divisions;
mod league;
mod penalty_kinds;
mod players;
mod seasons;
mod teams;
mod users;
mod venues;
// The roster of a team in a season: registrations and captains.
mod captains;
mod registrations;

/// Where every console route lives.
const PREFIX: &str = "/leagues/{league}/console";

pub fn router() -> Router<AppState> {
    Router::new()
        .route(PREFIX, get(home))
        .merge(approvals::router())
        .merge(league::router())
        .merge(seasons::router())
        .merge(divisions::router())
        .merge(venues::router())
        .merge(teams::router())
        .merge(registrations::router())
        .merge(captains::router())
        .merge(players::router())
        .merge(penalty_kinds::router())
        .merge(users::router())
}

/// A console address: `path` under the league's console.
fn at(league: &League, path: &str) -> String {
    format!("/leagues/{}/console{path}", league.short_name)
}

/// A record the address names that this league does not have: 404.
fn missing(what: impl std::fmt::Display) -> AppError {
    AppError::NotFound(what.to_string())
}

/// One line of the console's home: a record kind, how many, where.
struct Section {
    title: &'static str,
    count: usize,
    href: String,
    what: &'static str,
}

#[derive(Template)]
#[template(path = "console/home.html")]
struct HomePage {
    ctx: Ctx,
    league: League,
    seasons: Vec<Season>,
    sections: Vec<Section>,
    /// Results awaiting approval.
    pending: usize,
}

async fn home(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    let db = state.db();
    let id = sec.league.id;
    let seasons = db.seasons(id).await?;
    let sections = vec![
        Section {
            title: "Seasons",
            count: seasons.len(),
            href: at(&sec.league, "/seasons"),
            what: "rulesets, match formats and divisions",
        },
        Section {
            title: "Venues",
            count: db.venues(id).await?.len(),
            href: at(&sec.league, "/venues"),
            what: "the pubs and how many matches each hosts a night",
        },
        Section {
            title: "Teams",
            count: db.teams(id).await?.len(),
            href: at(&sec.league, "/teams"),
            what: "home venues, divisions, registered players and captains",
        },
        Section {
            title: "Players",
            count: db.players(id).await?.len(),
            href: at(&sec.league, "/players"),
            what: "names and registrations",
        },
        Section {
            title: "Penalty kinds",
            count: db.penalty_kinds(id).await?.len(),
            href: at(&sec.league, "/penalty-kinds"),
            what: "the league's list of penalties and their effects",
        },
        Section {
            title: "Users and roles",
            count: db.league_roles(id).await?.len(),
            href: at(&sec.league, "/users"),
            what: "accounts of captains and players",
        },
    ];
    Ok(html(&HomePage {
        ctx: sec.user.ctx(),
        pending: db.pending_versions(id).await?.len(),
        league: sec.league,
        seasons,
        sections,
    }))
}
