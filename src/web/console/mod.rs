//! The secretary's console: everything inside one league, under
//! `/leagues/{league}/console`. Every handler takes [`Secretary`], so a
//! page cannot forget to check who is asking, and every query is scoped to
//! that extractor's league; every POST takes a [`CsrfForm`]; a refused form
//! comes back with each reason beside its field (422), a saved one
//! redirects (POST-redirect-GET).
//!
//! [`CsrfForm`]: super::csrf::CsrfForm

use crate::web::routes::Routes;
use axum::routing::get;

use super::error::AppError;

pub mod form;

mod approvals;
mod cups;
mod divisions;
mod home;
mod import;
mod invitations;
mod late_results;
mod league;
mod mail;
mod penalty_kinds;
mod people;
mod players;
mod rollover;
mod seasons;
mod teams;
mod users;
mod venues;
mod website;
mod week;
// The roster of a team in a season: registrations and captains.
mod captains;
pub use captains::invitation_link;
mod registrations;
mod roster_invites;
mod roster_paste;
mod setup_steps;
mod transfers;

/// LEAGUE.md's list of penalty kinds, which a new league starts with.
pub fn default_penalty_kinds() -> Vec<crate::db::NewPenaltyKind> {
    crate::league::penalties::DEFAULT_KINDS
        .iter()
        .map(|d| crate::db::NewPenaltyKind {
            code: d.code.into(),
            name: d.name.into(),
            effect: d.effect,
            amount: d.amount,
        })
        .collect()
}

/// Where every console route lives.
const PREFIX: &str = "/console";

pub fn router() -> Routes {
    Routes::new()
        .league(PREFIX, get(home::home))
        .merge(week::router())
        .merge(website::router())
        .merge(approvals::router())
        .merge(league::router())
        .merge(seasons::router())
        .merge(rollover::router())
        .merge(divisions::router())
        .merge(cups::router())
        .merge(import::router())
        .merge(venues::router())
        .merge(teams::router())
        .merge(registrations::router())
        .merge(captains::router())
        .merge(roster_paste::router())
        .merge(transfers::router())
        .merge(players::router())
        .merge(people::router())
        .merge(penalty_kinds::router())
        .merge(late_results::router())
        .merge(users::router())
        .merge(mail::router())
        .merge(invitations::router())
}

/// A record the address names that this league does not have: 404.
fn missing(what: impl std::fmt::Display) -> AppError {
    AppError::NotFound(what.to_string())
}
