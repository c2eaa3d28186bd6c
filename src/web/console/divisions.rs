//! A season's divisions: their names and their order on the season's page.
//! Teams are entered in them from each team's page.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::{Division, DivisionId, League, Season, SeasonId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::links::address_clash;
use crate::web::page::Ctx;

use super::form::{self, Errors};
use super::{PREFIX, missing};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/seasons/{{season}}/divisions"),
            get(list).post(create),
        )
        .league(
            &format!("{PREFIX}/seasons/{{season}}/divisions/{{division}}"),
            get(edit).post(update),
        )
}

const DUPLICATE: &str = "A division with this name already exists in this season.";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DivisionForm {
    pub name: String,
    pub position: String,
}

impl DivisionForm {
    fn check(&self, errors: &mut Errors) -> (String, i64) {
        (
            form::text(errors, "name", &self.name, true, 60),
            form::whole(errors, "position", &self.position, 0, 99),
        )
    }
}

/// A division and the names of the teams entered in it.
struct Line {
    division: Division,
    teams: Vec<String>,
}

#[derive(Template)]
#[template(path = "console/divisions.html")]
struct DivisionsPage {
    ctx: Ctx,
    league: League,
    season: Season,
    divisions: Vec<Line>,
    form: DivisionForm,
    errors: Errors,
}

#[derive(Template)]
#[template(path = "console/division.html")]
struct DivisionPage {
    ctx: Ctx,
    league: League,
    season: Season,
    division: Division,
    form: DivisionForm,
    errors: Errors,
}

async fn list_page(
    state: &AppState,
    sec: Secretary,
    season: Season,
    form: Option<DivisionForm>,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let teams = db.teams(league).await?;
    let entries = db.team_entries(league, season.id).await?;
    let divisions: Vec<Line> = db
        .divisions(league, season.id)
        .await?
        .into_iter()
        .map(|division| Line {
            teams: entries
                .iter()
                .filter(|e| e.division_id == division.id)
                .filter_map(|e| teams.iter().find(|t| t.id == e.team_id))
                .map(|t| t.name.clone())
                .collect(),
            division,
        })
        .collect();
    let form = form.unwrap_or_else(|| DivisionForm {
        name: String::new(),
        position: divisions.len().to_string(),
    });
    let page = DivisionsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        divisions,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    list_page(&state, sec, season, None, Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<DivisionForm>,
) -> Result<Response> {
    let db = state.db();
    let season = db.season(sec.league.id, season).await?;
    let mut errors = Errors::default();
    let (name, position) = input.check(&mut errors);
    if errors.is_empty() {
        let divisions = db.divisions(sec.league.id, season.id).await?;
        refuse_address(&mut errors, &name, &divisions, None);
    }
    if errors.is_empty() {
        match db
            .create_division(sec.league.id, season.id, &name, position)
            .await
        {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .season(season.id)
                        .divisions(),
                    format!("Division {name} added."),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    list_page(&state, sec, season, Some(input), errors).await
}

/// Refuses a name whose page address another division of the season has
/// (`editing` is left out; the same name is [`DUPLICATE`], said by the
/// database), or a page of the season's own (its honours).
fn refuse_address(
    errors: &mut Errors,
    name: &str,
    divisions: &[Division],
    editing: Option<DivisionId>,
) {
    let others: Vec<&str> = divisions
        .iter()
        .filter(|d| Some(d.id) != editing && d.name != name)
        .map(|d| d.name.as_str())
        .collect();
    let taken: Vec<&str> = crate::web::routes::taken_division_segments()
        .iter()
        .map(String::as_str)
        .collect();
    if let Some(why) = address_clash(name, &others, &taken) {
        errors.add("name", why);
    }
}

/// The season and its division named by the address; a division of
/// another season is not found.
async fn season_division(
    state: &AppState,
    league: &League,
    season: SeasonId,
    division: DivisionId,
) -> Result<(Season, Division)> {
    let db = state.db();
    let season = db.season(league.id, season).await?;
    let division = db.division(league.id, division).await?;
    if division.season_id != season.id {
        return Err(missing(format!(
            "Division {} of {}",
            division.id, season.name
        )));
    }
    Ok((season, division))
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season, division)): Path<(String, SeasonId, DivisionId)>,
) -> Result<Response> {
    let (season, division) = season_division(&state, &sec.league, season, division).await?;
    let page = DivisionPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        form: DivisionForm {
            name: division.name.clone(),
            position: division.position.to_string(),
        },
        division,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn update(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season, division)): Path<(String, SeasonId, DivisionId)>,
    CsrfForm(input): CsrfForm<DivisionForm>,
) -> Result<Response> {
    let (season, division) = season_division(&state, &sec.league, season, division).await?;
    let mut errors = Errors::default();
    let (name, position) = input.check(&mut errors);
    if errors.is_empty() {
        let divisions = state.db().divisions(sec.league.id, season.id).await?;
        refuse_address(&mut errors, &name, &divisions, Some(division.id));
    }
    if errors.is_empty() {
        match state
            .db()
            .update_division(sec.league.id, division.id, &name, position)
            .await
        {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .season(season.id)
                        .divisions(),
                    format!("Division {name} saved."),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    let page = DivisionPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        division,
        form: input,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
