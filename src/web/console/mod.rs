//! The secretary's console: everything inside one league, under
//! `/leagues/{league}/console`. Every handler takes [`Secretary`], so a
//! page cannot forget to check who is asking, and every query is scoped to
//! that extractor's league; every POST takes a [`CsrfForm`]; a refused form
//! comes back with each reason beside its field (422), a saved one
//! redirects (POST-redirect-GET).
//!
//! [`CsrfForm`]: super::csrf::CsrfForm

use crate::web::routes::Routes;
use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;

use std::collections::HashMap;

use chrono::{TimeDelta, Utc};

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{FixtureId, League, ResultStatus, Season};
use crate::league::overdue::days_overdue;

use super::AppState;
use super::auth::Secretary;
use super::dates;
use super::error::{AppError, Result};
use super::links;
use super::page::{Ctx, html};

pub mod form;

mod approvals;
mod cups;
mod divisions;
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
        .league(PREFIX, get(home))
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
        .merge(invitations::router())
        .merge(mail::router())
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

/// A fixture on the secretary's list, with where to act on it.
struct Job {
    when: String,
    division: String,
    title: String,
    /// What stands, in words ("no result", "disputed: ...").
    state: String,
    href: String,
    action: &'static str,
}

use setup_steps::Step;

#[derive(Template)]
#[template(path = "console/home.html")]
struct HomePage {
    ctx: Ctx,
    league: League,
    seasons: Vec<Season>,
    sections: Vec<Section>,
    /// What is still to set up, in order; empty once the league is running.
    steps: Vec<Step>,
    missing: Vec<Job>,
    approvals: Vec<Job>,
    disputes: Vec<Job>,
    week: Vec<Job>,
    unpaid_count: usize,
    unpaid_total: String,
}

/// How far ahead "this week's fixtures" looks, from the start of today.
const WEEK_DAYS: i64 = 7;

async fn home(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    let db = state.db();
    let id = sec.league.id;
    let zone = sec.league.time_zone;
    let seasons = db.seasons(id).await?;
    let venues = db.venues(id).await?.len();
    let teams = db.teams(id).await?.len();
    let players = db.players(id).await?.len();
    let kinds = db.penalty_kinds(id).await?.len();
    let roles = db.league_roles(id).await?.len();
    let now = Utc::now();
    let (today, _) = zone.today(now);
    let mut missing = db
        .fixture_lines(id, &FixtureScope::Missing { before: now })
        .await?;
    missing.retain(|l| {
        l.starts_at
            .and_then(|s| days_overdue(zone, s, now))
            .is_some()
    });
    let week = db
        .fixture_lines(
            id,
            &FixtureScope::Between {
                from: today,
                to: today + TimeDelta::days(WEEK_DAYS),
            },
        )
        .await?;
    let pending = db.pending_versions(id).await?;
    let pending_lines = db
        .fixture_lines(
            id,
            &FixtureScope::Ids(pending.iter().map(|p| p.fixture_id).collect()),
        )
        .await?;
    let fines = db.fines(id).await?;
    let unpaid: Vec<_> = fines.iter().filter(|f| f.paid_at.is_none()).collect();
    let league_at = links::at(&sec.league);
    let job = |line: &FixtureLine, state: String, href: String, action| Job {
        when: line
            .starts_at
            .map_or_else(|| "date to be arranged".into(), |t| dates::when(zone, t)),
        division: line.competition.clone(),
        title: format!("{} v {}", line.home_label(), line.away_label()),
        state,
        href,
        action,
    };
    let mut missing_jobs: Vec<(Option<_>, Job)> = missing
        .iter()
        .map(|l| {
            let j = job(
                l,
                "no result entered".into(),
                league_at.match_page(l.id).card(),
                "Enter the result",
            );
            (l.starts_at, j)
        })
        .collect();
    missing_jobs.sort_by_key(|(t, _)| *t);
    let mut week_jobs: Vec<(Option<_>, Job)> = week
        .iter()
        .map(|l| {
            let state = match (l.status, l.result_status) {
                (_, Some(r)) => format!("result {}", r.as_str()),
                (status, None) => status.as_str().to_owned(),
            };
            (
                l.starts_at,
                job(
                    l,
                    state,
                    league_at.match_page(l.id).to_string(),
                    "Open the match",
                ),
            )
        })
        .collect();
    week_jobs.sort_by_key(|(t, _)| *t);
    let by_id: HashMap<FixtureId, &FixtureLine> = pending_lines.iter().map(|l| (l.id, l)).collect();
    let (mut approvals, mut disputes) = (Vec::new(), Vec::new());
    for p in &pending {
        let Some(line) = by_id.get(&p.fixture_id) else {
            continue;
        };
        let who = p.entered_by.as_deref().unwrap_or("a removed account");
        if p.status == ResultStatus::Disputed {
            let note = if p.status_note.is_empty() {
                "no reason given".to_owned()
            } else {
                p.status_note.clone()
            };
            disputes.push(job(
                line,
                format!("version {} disputed: {note}", p.version),
                league_at.match_page(p.fixture_id).history(),
                "Settle the dispute",
            ));
        } else {
            approvals.push(job(
                line,
                format!("version {} {} by {who}", p.version, p.status.as_str()),
                league_at.match_page(p.fixture_id).history(),
                "Check and approve",
            ));
        }
    }
    let console = league_at.console();
    let steps = setup_steps::steps(&state, &sec.league, &seasons).await?;
    let sections = vec![
        Section {
            title: "Seasons",
            count: seasons.len(),
            href: console.seasons(),
            what: "rulesets, match formats, divisions and fixtures",
        },
        Section {
            title: "Venues",
            count: venues,
            href: console.venues(),
            what: "the pubs and how many matches each hosts a night",
        },
        Section {
            title: "Teams",
            count: teams,
            href: console.teams(),
            what: "home venues, divisions, rosters and captains",
        },
        Section {
            title: "Players",
            count: players,
            href: console.players(),
            what: "names and registrations",
        },
        Section {
            title: "Penalty kinds",
            count: kinds,
            href: console.penalty_kinds(),
            what: "the league's list of penalties and their effects",
        },
        Section {
            title: "Users and roles",
            count: roles,
            href: console.users(),
            what: "accounts of captains and players",
        },
    ];
    Ok(html(&HomePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        seasons,
        sections,
        steps,
        missing: missing_jobs.into_iter().map(|(_, j)| j).collect(),
        approvals,
        disputes,
        week: week_jobs.into_iter().map(|(_, j)| j).collect(),
        unpaid_count: unpaid.len(),
        unpaid_total: crate::web::penalties::money(unpaid.iter().map(|f| f.amount_pence).sum()),
    }))
}
