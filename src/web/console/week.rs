//! The week's bulk actions (issue 39): the fixtures ticked on the
//! console's home and a button (remind the captains, record walkovers,
//! postpone) bring this page, which says what will be done to which and
//! which are left alone and why; one confirmation does it, in one
//! transaction (`app::week`), and the console says what was done.

use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chrono::Utc;

use crate::app::week::{Planned, plan};
use crate::db::{DbError, FixtureId, League, Side};
use crate::league::week::Bulk;
use crate::league::workflow::Actor;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::dates;
use crate::web::error::{AppError, Result};
use crate::web::links;
use crate::web::page::{Ctx, html};
use crate::web::routes::Routes;
use crate::web::views::words::and_list;

use super::PREFIX;
use super::form;

pub fn router() -> Routes {
    Routes::new().league(&format!("{PREFIX}/week"), post(bulk))
}

/// A fixture on the confirmation page.
struct Chosen {
    id: FixtureId,
    title: String,
    home: String,
    away: String,
    division: String,
    when: String,
    /// Who a reminder goes to, in words.
    told: String,
    /// The side chosen as conceding (a walkover), if any.
    side: &'static str,
    /// A walkover without its side, sent back.
    error: bool,
}

#[derive(Template)]
#[template(path = "console/week.html")]
struct ConfirmPage {
    ctx: Ctx,
    league: League,
    action: &'static str,
    heading: String,
    /// What the action does, in a sentence.
    explain: &'static str,
    confirm: String,
    walkover: bool,
    remind: bool,
    fit: Vec<Chosen>,
    /// Left alone: the match, and why.
    unfit: Vec<(String, String)>,
    /// Why the page came back: nothing ticked, a side missing, or the
    /// records changed since the page was read.
    problem: Option<String>,
}

/// The form as sent: the action, the fixtures ticked, the sides of
/// walkovers, and whether this is the confirmation.
struct Sent {
    action: Option<Bulk>,
    chosen: Vec<FixtureId>,
    sides: HashMap<FixtureId, Side>,
    confirmed: bool,
}

fn read(fields: &[(String, String)]) -> Result<Sent> {
    let mut sent = Sent {
        action: None,
        chosen: Vec::new(),
        sides: HashMap::new(),
        confirmed: false,
    };
    let not_a_fixture = || {
        AppError::BadRequest(
            "That form named a fixture that is not one: reload the console and try again. Nothing was done."
                .into(),
        )
    };
    for (key, value) in fields {
        match key.as_str() {
            "action" => sent.action = Bulk::parse(value),
            "confirm" => sent.confirmed = value == "yes",
            "fixture" => {
                let id: i64 = value.trim().parse().map_err(|_| not_a_fixture())?;
                if !sent.chosen.contains(&FixtureId(id)) {
                    sent.chosen.push(FixtureId(id));
                }
            }
            other => {
                if let Some(id) = other.strip_prefix("side-") {
                    let id: i64 = id.parse().map_err(|_| not_a_fixture())?;
                    match value.as_str() {
                        "home" => sent.sides.insert(FixtureId(id), Side::Home),
                        "away" => sent.sides.insert(FixtureId(id), Side::Away),
                        _ => None,
                    };
                }
            }
        }
    }
    Ok(sent)
}

fn words(action: Bulk, n: usize) -> (String, &'static str, String) {
    let matches = if n == 1 {
        "1 match".to_owned()
    } else {
        format!("{n} matches")
    };
    match action {
        Bulk::Remind => (
            format!("Remind the captains of {matches}?"),
            "Each match's captains are emailed: asked to enter a missing result, or to confirm the one entered. Captains without a confirmed address, and those who asked for no reminders, are not sent one. A match is reminded at most once in 12 hours.",
            format!("Remind the captains of {matches}"),
        ),
        Bulk::Walkover => (
            format!(
                "Record {}?",
                if n == 1 {
                    "a walkover".to_owned()
                } else {
                    format!("{n} walkovers")
                }
            ),
            "Say which team conceded each match. A walkover counts as the match format's walkover score, and both captains are told, as when one is recorded on its match's page.",
            if n == 1 {
                "Record the walkover".to_owned()
            } else {
                format!("Record {n} walkovers")
            },
        ),
        Bulk::Postpone => (
            format!("Postpone {matches}?"),
            "Each match is marked postponed and keeps its date until you give it a new one (its division's fixtures, \u{201c}Postpone or move\u{201d}). Both captains are told, as when one is postponed on its own.",
            format!("Postpone {matches}"),
        ),
    }
}

fn page(
    sec: Secretary,
    action: Bulk,
    planned: Vec<Planned>,
    sides: &HashMap<FixtureId, Side>,
    missing_side: bool,
    problem: Option<String>,
) -> ConfirmPage {
    let zone = sec.league.time_zone;
    let (fit, unfit): (Vec<Planned>, Vec<Planned>) =
        planned.into_iter().partition(|p| p.fit.is_ok());
    let (heading, explain, confirm) = words(action, fit.len());
    let fit = fit
        .into_iter()
        .map(|p| {
            let f = &p.fixture;
            let side = sides.get(&f.id).copied();
            Chosen {
                id: f.id,
                title: format!("{} v {}", f.home_label(), f.away_label()),
                home: f.home_label(),
                away: f.away_label(),
                division: f.competition.clone(),
                when: f.starts_at.map_or_else(
                    || "date to be arranged".to_owned(),
                    |t| dates::when(zone, t),
                ),
                told: and_list(&p.told.iter().map(String::as_str).collect::<Vec<_>>()),
                side: side.map_or("", Side::as_str),
                error: missing_side && side.is_none(),
            }
        })
        .collect();
    let unfit = unfit
        .into_iter()
        .filter_map(|p| {
            let why = p.fit.err()?;
            Some((
                format!("{} v {}", p.fixture.home_label(), p.fixture.away_label()),
                why.to_string(),
            ))
        })
        .collect();
    ConfirmPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        action: action.key(),
        heading,
        explain,
        confirm,
        walkover: action == Bulk::Walkover,
        remind: action == Bulk::Remind,
        fit,
        unfit,
        problem,
    }
}

/// What was done, for the console to say.
fn done_words(action: Bulk, names: &[String], extra: &str) -> String {
    let list = and_list(&names.iter().map(String::as_str).collect::<Vec<_>>());
    match action {
        Bulk::Remind => format!("Reminders sent for {list}{extra}."),
        Bulk::Walkover => {
            format!("Walkovers recorded: {list}. Both captains of each are told.")
        }
        Bulk::Postpone => format!(
            "Postponed: {list}. Both captains of each are told; give each a new date from its division's fixtures."
        ),
    }
}

async fn bulk(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let sent = read(&fields)?;
    let Some(action) = sent.action else {
        return Err(AppError::BadRequest(
            "Choose what to do with the fixtures ticked: remind the captains, record walkovers or postpone. Nothing was done."
                .into(),
        ));
    };
    let db = state.db();
    let now = Utc::now();
    let back = links::at(&sec.league).console().to_string();
    if sent.chosen.is_empty() {
        let problem = Some(
            "No fixture was ticked: tick the fixtures on the console first, then press the button again. Nothing was done."
                .to_owned(),
        );
        return Ok(form::page(
            &page(sec, action, Vec::new(), &sent.sides, false, problem),
            &error(),
        ));
    }
    let planned = plan(db, &sec.league, action, &sent.chosen, now).await?;
    if !sent.confirmed {
        return Ok(html(&page(sec, action, planned, &sent.sides, false, None)));
    }
    // Only the fixtures the page offered come back ticked; any other the
    // use case refuses in its own words.
    let outcome = match action {
        Bulk::Remind => crate::app::week::remind(
            db,
            &sec.league,
            &sent.chosen,
            sec.user.id,
            now,
            state.mail(),
        )
        .await
        .map(|done| {
            let messages: usize = done.iter().map(|r| r.told.len()).sum();
            let names: Vec<String> = done.iter().map(|r| r.name.clone()).collect();
            done_words(
                action,
                &names,
                &format!(
                    ": {messages} message{} to their captains",
                    if messages == 1 { "" } else { "s" }
                ),
            )
        }),
        Bulk::Walkover => {
            let mut chosen = Vec::with_capacity(sent.chosen.len());
            for id in &sent.chosen {
                match sent.sides.get(id) {
                    Some(side) => chosen.push((*id, *side)),
                    None => {
                        let problem = Some(
                            "Say which team conceded each match. Nothing was recorded.".to_owned(),
                        );
                        return Ok(form::page(
                            &page(sec, action, planned, &sent.sides, true, problem),
                            &error(),
                        ));
                    }
                }
            }
            crate::app::week::walkovers(db, sec.league.id, &chosen, Actor::secretary(sec.user.id))
                .await
                .map(|done| {
                    let names: Vec<String> = planned
                        .iter()
                        .filter(|p| done.iter().any(|f| f.id == p.fixture.id))
                        .map(|p| {
                            let f = &p.fixture;
                            let conceded = match sent.sides.get(&f.id) {
                                Some(Side::Home) => f.home_label(),
                                _ => f.away_label(),
                            };
                            format!(
                                "{} v {} ({conceded} conceded)",
                                f.home_label(),
                                f.away_label()
                            )
                        })
                        .collect();
                    done_words(action, &names, "")
                })
        }
        Bulk::Postpone => crate::app::week::postpone(db, sec.league.id, &sent.chosen, sec.user.id)
            .await
            .map(|done| {
                let names: Vec<String> = planned
                    .iter()
                    .filter(|p| done.iter().any(|f| f.id == p.fixture.id))
                    .map(|p| format!("{} v {}", p.fixture.home_label(), p.fixture.away_label()))
                    .collect();
                done_words(action, &names, "")
            }),
    };
    match outcome {
        Ok(said) => Ok(form::done(&format!("{back}#saved"), said)),
        // The records changed since the page was read: the page again,
        // as the fixtures are now, saying why nothing was done.
        Err(DbError::Refused(why)) => {
            let planned = plan(db, &sec.league, action, &sent.chosen, now).await?;
            let page = page(
                sec,
                action,
                planned,
                &sent.sides,
                false,
                Some(why.to_string()),
            );
            Ok((StatusCode::CONFLICT, html(&page)).into_response())
        }
        Err(DbError::NotFound(_)) => Err(AppError::NotFound(
            "One of the fixtures ticked (it is not this league's)".into(),
        )),
        Err(e) => Err(e.into()),
    }
}

/// A form error, so the page is answered 422.
fn error() -> form::Errors {
    let mut e = form::Errors::default();
    e.add(form::FORM, "nothing done");
    e
}
