//! Teams: names, home venues, and their entry in a division each season.
//! A team's players and captains for a season are on its season page
//! (`registrations`, `captains`).

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;

use crate::db::{League, Team, TeamId, Venue, VenueId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Choice, Errors};

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/teams"), get(list).post(create))
        .league(&format!("{PREFIX}/teams/{{team}}"), get(edit).post(update))
        .league(&format!("{PREFIX}/teams/{{team}}/entries"), post(enter))
}

const DUPLICATE: &str = "A team with this name already exists.";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TeamForm {
    pub name: String,
    /// A venue's id, or empty for none.
    pub venue: String,
}

impl TeamForm {
    fn check(&self, venues: &[Venue], errors: &mut Errors) -> (String, Option<VenueId>) {
        let name = form::text(errors, "name", &self.name, true, 100);
        let venue = if self.venue.trim().is_empty() {
            None
        } else {
            form::pick(
                errors,
                "venue",
                &self.venue,
                venues.iter().map(|v| v.id.0),
                "Choose one of the league's venues.",
            )
            .map(VenueId)
        };
        (name, venue)
    }
}

/// The select of home venues.
fn venue_choices(venues: &[Venue], selected: &str) -> Vec<Choice> {
    form::choices(
        std::iter::once((String::new(), "No home venue yet".to_owned()))
            .chain(venues.iter().map(|v| (v.id.to_string(), v.name.clone()))),
        selected,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EntryForm {
    pub division: String,
}

/// A season the team is entered in: where, and its season page.
struct Entry {
    season: String,
    division: String,
    href: String,
}

struct Line {
    team: Team,
    venue: String,
}

#[derive(Template)]
#[template(path = "console/teams.html")]
struct TeamsPage {
    ctx: Ctx,
    league: League,
    /// The newest season's set-up page, where many teams are pasted at
    /// once: its name and address.
    setup: Option<(String, String)>,
    teams: Vec<Line>,
    venues: Vec<Choice>,
    form: TeamForm,
    errors: Errors,
}

#[derive(Template)]
#[template(path = "console/team.html")]
struct TeamPage {
    ctx: Ctx,
    league: League,
    team: Team,
    venues: Vec<Choice>,
    entries: Vec<Entry>,
    divisions: Vec<Choice>,
    form: TeamForm,
    errors: Errors,
}

async fn list_page(
    state: &AppState,
    sec: Secretary,
    form: TeamForm,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let venues = db.venues(sec.league.id).await?;
    let teams = db
        .teams(sec.league.id)
        .await?
        .into_iter()
        .map(|team| Line {
            venue: venues
                .iter()
                .find(|v| Some(v.id) == team.venue_id)
                .map_or_else(String::new, |v| v.name.clone()),
            team,
        })
        .collect();
    let setup = db
        .seasons(sec.league.id)
        .await?
        .into_iter()
        .next()
        .map(|s| {
            (
                s.name,
                links::at(&sec.league).console().season(s.id).import(),
            )
        });
    let page = TeamsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        setup,
        teams,
        venues: venue_choices(&venues, &form.venue),
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    list_page(&state, sec, TeamForm::default(), Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<TeamForm>,
) -> Result<Response> {
    let db = state.db();
    let venues = db.venues(sec.league.id).await?;
    let mut errors = Errors::default();
    let (name, venue) = input.check(&venues, &mut errors);
    if errors.is_empty() {
        match db.create_team(sec.league.id, &name, venue).await {
            Ok(team) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().team(team.id).to_string(),
                    format!(
                        "Team {} created: enter it in a division of a season below.",
                        team.name
                    ),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    list_page(&state, sec, input, errors).await
}

async fn team_page(
    state: &AppState,
    sec: Secretary,
    team: Team,
    form: Option<TeamForm>,
    entry: EntryForm,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let venues = db.venues(league).await?;
    let mut entries = Vec::new();
    let mut divisions = Vec::new();
    for season in db.seasons(league).await? {
        let season_divisions = db.divisions(league, season.id).await?;
        let entered = db
            .team_entries(league, season.id)
            .await?
            .into_iter()
            .find(|e| e.team_id == team.id);
        if let Some(e) = entered {
            entries.push(Entry {
                division: season_divisions
                    .iter()
                    .find(|d| d.id == e.division_id)
                    .map_or_else(String::new, |d| d.name.clone()),
                href: links::at(&sec.league)
                    .console()
                    .team(team.id)
                    .season(season.id)
                    .to_string(),
                season: season.name.clone(),
            });
        }
        for d in season_divisions {
            divisions.push((d.id.to_string(), format!("{} · {}", season.name, d.name)));
        }
    }
    let form = form.unwrap_or_else(|| TeamForm {
        name: team.name.clone(),
        venue: team.venue_id.map(|v| v.to_string()).unwrap_or_default(),
    });
    let page = TeamPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        venues: venue_choices(&venues, &form.venue),
        divisions: form::choices(divisions, &entry.division),
        team,
        entries,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, TeamId)>,
) -> Result<Response> {
    let team = state.db().team(sec.league.id, id).await?;
    team_page(
        &state,
        sec,
        team,
        None,
        EntryForm::default(),
        Errors::default(),
    )
    .await
}

async fn update(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, TeamId)>,
    CsrfForm(input): CsrfForm<TeamForm>,
) -> Result<Response> {
    let db = state.db();
    let team = db.team(sec.league.id, id).await?;
    let venues = db.venues(sec.league.id).await?;
    let mut errors = Errors::default();
    let (name, venue) = input.check(&venues, &mut errors);
    if errors.is_empty() {
        match db.update_team(sec.league.id, id, &name, venue).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().teams(),
                    format!("Team {name} saved."),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    team_page(&state, sec, team, Some(input), EntryForm::default(), errors).await
}

/// Enters the team in a division of a season: one division a season.
async fn enter(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, TeamId)>,
    CsrfForm(input): CsrfForm<EntryForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let team = db.team(league, id).await?;
    let mut errors = Errors::default();
    let division = match input.division.trim().parse::<i64>() {
        Ok(d) => match db.division(league, crate::db::DivisionId(d)).await {
            Ok(d) => Some(d),
            Err(crate::db::DbError::NotFound(_)) => None,
            Err(e) => return Err(e.into()),
        },
        Err(_) => None,
    };
    match division {
        None => errors.add("division", "Choose one of the league's divisions."),
        Some(division) => {
            match db
                .enter_team(league, division.season_id, division.id, id)
                .await
            {
                Ok(_) => {
                    return Ok(form::done(
                        &links::at(&sec.league)
                            .console()
                            .team(id)
                            .season(division.season_id)
                            .to_string(),
                        format!("{} entered in {}.", team.name, division.name),
                    ));
                }
                Err(e) => form::refused(
                    e,
                    &mut errors,
                    "division",
                    "An entry for this team in that season already exists: a team plays in one division a season.",
                )?,
            }
        }
    }
    team_page(&state, sec, team, None, input, errors).await
}
