//! A team's players pasted into its roster, a name a line: checked first
//! (what each line will do), then saved in one go: new players made,
//! existing ones matched by name, all registered, in one transaction.

use crate::web::links;
use crate::web::routes::Routes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::post;
use serde::Deserialize;

use crate::app::registrations::register_roster;
use crate::db::players::RosterChange;
use crate::db::{DbError, PlayerId, SeasonId, TeamId};
use crate::league::roster::{self, Known, Outcome, Plan};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;

use super::PREFIX;
use super::form::{self, Errors};
use super::registrations::{Typed, roster, roster_page};
use super::roster_invites::{invited_words, player_invites};

pub fn router() -> Routes {
    Routes::new().league(
        &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}/roster"),
        post(paste),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PasteForm {
    names: String,
    /// `check` or `save`: which button was pressed.
    action: String,
}

/// One pasted line as the page shows it.
pub struct PlanView {
    pub line: usize,
    pub name: String,
    /// What saving does, in words.
    pub what: String,
    pub refused: bool,
}

fn view(line: &roster::PlanLine) -> PlanView {
    let what = match &line.outcome {
        Outcome::Create => "new player: added and registered".to_owned(),
        Outcome::Register { .. } => "existing player: registered".to_owned(),
        Outcome::AlreadyHere { .. } => "registered already: nothing to do".to_owned(),
        Outcome::Elsewhere { team, .. } => {
            format!("refused: registered to {team} this season (move them with a transfer)")
        }
        Outcome::Repeated { line } => format!("the same name as line {line}: skipped"),
        Outcome::Unreadable => "refused: holds characters that are not part of a name".to_owned(),
        Outcome::TooLong => format!("refused: longer than {} characters", roster::MAX_NAME),
        Outcome::BadEmail(why) => format!("refused: {why}"),
        Outcome::NoName => "refused: no name on this line".to_owned(),
    };
    let what = match (&line.email, line.outcome.refuses()) {
        (Some(email), false) => format!("{what}; invitation emailed to {email}"),
        _ => what,
    };
    PlanView {
        line: line.line,
        name: line.name.clone(),
        refused: line.outcome.refuses(),
        what,
    }
}

async fn paste(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((_, team, season)): Path<(String, TeamId, SeasonId)>,
    CsrfForm(input): CsrfForm<PasteForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let roster = roster(&state, &sec.league, team, season).await?;
    let teams = db.teams(league).await?;
    let registrations = db.registrations(league, season).await?;
    let known: Vec<Known> = db
        .players(league)
        .await?
        .into_iter()
        .map(|p| {
            let team = registrations
                .iter()
                .find(|r| r.player_id == p.id)
                .and_then(|r| teams.iter().find(|t| t.id == r.team_id))
                .map(|t| (t.id.0, t.name.clone()));
            Known {
                id: p.id.0,
                name: p.name,
                team,
            }
        })
        .collect();
    let mut errors = Errors::default();
    let (lines, columns) = match roster::plan(&input.names, &known, team.0) {
        Plan::TooMany(n) => {
            errors.add(
                "names",
                format!(
                    "{n} names: paste at most {} at a time, a name a line.",
                    roster::MAX_LINES
                ),
            );
            (Vec::new(), Vec::new())
        }
        Plan::Lines(lines, columns) => (lines, columns),
    };
    if lines.is_empty() && errors.is_empty() {
        errors.add("names", "Paste the team's players here, a name a line.");
    }
    let refused = lines.iter().filter(|l| l.outcome.refuses()).count();
    if refused > 0 {
        errors.add(
            "names",
            format!(
                "{refused} line{} refused (see the list below): correct {} and check again. Nothing was saved.",
                if refused == 1 { " is" } else { "s are" },
                if refused == 1 { "it" } else { "them" },
            ),
        );
    }
    if input.action == "save" && errors.is_empty() {
        let new: Vec<String> = lines
            .iter()
            .filter(|l| l.outcome == Outcome::Create)
            .map(|l| l.name.clone())
            .collect();
        let existing: Vec<PlayerId> = lines
            .iter()
            .filter_map(|l| match l.outcome {
                Outcome::Register { id } => Some(PlayerId(id)),
                _ => None,
            })
            .collect();
        let unchanged = lines.len() - new.len() - existing.len();
        let wanted: Vec<(Option<PlayerId>, String, String)> = lines
            .iter()
            .filter_map(|l| {
                let player = match l.outcome {
                    Outcome::Create => None,
                    Outcome::Register { id } | Outcome::AlreadyHere { id } => Some(PlayerId(id)),
                    _ => return None,
                };
                Some((player, l.name.clone(), l.email.clone()?))
            })
            .collect();
        let invites = player_invites(&state, &sec.league, wanted).await?;
        match register_roster(
            db,
            league,
            season,
            team,
            &RosterChange {
                new_players: &new,
                existing: &existing,
                invites: &invites,
            },
            Some(sec.user.id),
        )
        .await
        {
            Ok(n) => {
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .team(team)
                        .season(season)
                        .to_string(),
                    format!(
                        "Roster of {} saved: {n} registered ({} new player{}, {} existing){}.",
                        roster.team.name,
                        new.len(),
                        if new.len() == 1 { "" } else { "s" },
                        existing.len(),
                        if unchanged > 0 {
                            format!(
                                ", {unchanged} line{} left as {}",
                                if unchanged == 1 { "" } else { "s" },
                                if unchanged == 1 {
                                    "it was"
                                } else {
                                    "they were"
                                }
                            )
                        } else {
                            String::new()
                        }
                    ) + &invited_words(&invites),
                ));
            }
            Err(DbError::Unique(_)) => errors.add(
                "names",
                "Someone changed the players or registrations meanwhile: check the list \
                 again. Nothing was saved.",
            ),
            // The season's squad limit.
            Err(DbError::Refused(why)) => errors.add("names", why.to_string()),
            Err(e) => return Err(e.into()),
        }
    }
    let typed = Typed {
        paste: input.names,
        plan: Some(lines.iter().map(view).collect()),
        columns,
        ..Typed::default()
    };
    roster_page(&state, sec, &headers, roster, typed, errors).await
}
