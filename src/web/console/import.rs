//! A season's teams and players imported from a CSV file (or its text
//! pasted): checked first, every mistake named with its row, then saved in
//! one transaction.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::app::registrations::import_rosters;
use crate::db::{DbError, League, Season, SeasonId};
use crate::league::import::{self, ImportPlan, Known, KnownTeam};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Errors, FORM};

pub fn router() -> Routes {
    Routes::new().league(
        &format!("{PREFIX}/seasons/{{season}}/import"),
        get(show).post(check_or_save),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ImportForm {
    /// The file chosen, read as text.
    file: String,
    /// Or its text pasted.
    csv: String,
    /// `check` or `save`.
    action: String,
}

#[derive(Template)]
#[template(path = "console/import.html")]
struct ImportPage {
    ctx: Ctx,
    league: League,
    season: Season,
    csv: String,
    plan: Option<ImportPlan>,
    /// Division names by id, for the plan's table.
    divisions: Vec<(i64, String)>,
    errors: Errors,
}

impl ImportPage {
    fn division(&self, id: &i64) -> &str {
        self.divisions
            .iter()
            .find(|(d, _)| d == id)
            .map_or("", |(_, n)| n.as_str())
    }
}

async fn known(state: &AppState, league: &League, season: &Season) -> Result<Known> {
    let db = state.db();
    let entries = db.team_entries(league.id, season.id).await?;
    let registrations = db.registrations(league.id, season.id).await?;
    Ok(Known {
        divisions: db
            .divisions(league.id, season.id)
            .await?
            .into_iter()
            .map(|d| (d.id.0, d.name))
            .collect(),
        venues: db
            .venues(league.id)
            .await?
            .into_iter()
            .map(|v| (v.id.0, v.name))
            .collect(),
        teams: db
            .teams(league.id)
            .await?
            .into_iter()
            .map(|t| KnownTeam {
                division: entries
                    .iter()
                    .find(|e| e.team_id == t.id)
                    .map(|e| e.division_id.0),
                id: t.id.0,
                name: t.name,
            })
            .collect(),
        players: db
            .players(league.id)
            .await?
            .into_iter()
            .map(|p| {
                let team = registrations
                    .iter()
                    .find(|r| r.player_id == p.id)
                    .map(|r| r.team_id.0);
                (p.id.0, p.name, team)
            })
            .collect(),
    })
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    let divisions = known(&state, &sec.league, &season).await?.divisions;
    let page = ImportPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        csv: String::new(),
        plan: None,
        divisions,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn check_or_save(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<ImportForm>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    let known = known(&state, &sec.league, &season).await?;
    let csv = if input.file.trim().is_empty() {
        input.csv
    } else {
        input.file
    };
    let mut errors = Errors::default();
    let plan = import::plan(&csv, &known);
    if !plan.errors.is_empty() {
        errors.add(
            FORM,
            format!(
                "{} problem{} in the file (listed below): correct {} and check again. Nothing was saved.",
                plan.errors.len(),
                if plan.errors.len() == 1 { "" } else { "s" },
                if plan.errors.len() == 1 { "it" } else { "them" }
            ),
        );
    } else if input.action == "save" {
        let wanted = plan
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .filter_map(|p| {
                Some((
                    p.id.map(crate::db::PlayerId),
                    p.name.clone(),
                    p.email.clone()?,
                ))
            })
            .collect();
        let invites = super::roster_invites::player_invites(&state, &sec.league, wanted).await?;
        match import_rosters(
                state.db(),
                sec.league.id,
                season.id,
                &plan,
                &invites,
                Some(sec.user.id),
            )
            .await
        {
            Ok(()) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().season(season.id).import(),
                    format!(
                        "Imported into {}: {} new teams, {} teams entered, {} new players, {} registrations.",
                        season.name,
                        plan.new_teams(),
                        plan.entries(),
                        plan.new_players(),
                        plan.registrations()
                    ) + &super::roster_invites::invited_words(&invites),
                ));
            }
            Err(DbError::Unique(_)) => errors.add(
                FORM,
                "A team or player of the file was added meanwhile: check the file again. Nothing was saved.",
            ),
            // The season's squad limit.
            Err(DbError::Refused(why)) => errors.add(FORM, why.to_string()),
            Err(e) => return Err(e.into()),
        }
    }
    let page = ImportPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        csv,
        plan: Some(plan),
        divisions: known.divisions,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
