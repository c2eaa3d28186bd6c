//! Venues: the pubs, their addresses, and how many matches each can host
//! on one night.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::{League, NewVenue, Venue, VenueId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Errors};

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/venues"), get(list).post(create))
        .league(
            &format!("{PREFIX}/venues/{{venue}}"),
            get(edit).post(update),
        )
}

const DUPLICATE: &str = "A venue with this name already exists.";

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct VenueForm {
    pub name: String,
    pub address: String,
    pub tables: String,
}

impl Default for VenueForm {
    fn default() -> VenueForm {
        VenueForm {
            name: String::new(),
            address: String::new(),
            tables: "1".into(),
        }
    }
}

impl VenueForm {
    fn of(venue: &Venue) -> VenueForm {
        VenueForm {
            name: venue.name.clone(),
            address: venue.address.clone(),
            tables: venue.tables.to_string(),
        }
    }

    fn check(&self, errors: &mut Errors) -> NewVenue {
        NewVenue {
            name: form::text(errors, "name", &self.name, true, 100),
            address: form::text(errors, "address", &self.address, false, 300),
            tables: form::whole(errors, "tables", &self.tables, 1, 50),
        }
    }
}

#[derive(Template)]
#[template(path = "console/venues.html")]
struct VenuesPage {
    ctx: Ctx,
    league: League,
    venues: Vec<Venue>,
    form: VenueForm,
    errors: Errors,
}

#[derive(Template)]
#[template(path = "console/venue.html")]
struct VenuePage {
    ctx: Ctx,
    league: League,
    venue: Venue,
    form: VenueForm,
    errors: Errors,
}

async fn list_page(
    state: &AppState,
    sec: Secretary,
    form: VenueForm,
    errors: Errors,
) -> Result<Response> {
    let page = VenuesPage {
        venues: state.db().venues(sec.league.id).await?,
        ctx: sec.user.ctx(),
        league: sec.league,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    list_page(&state, sec, VenueForm::default(), Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<VenueForm>,
) -> Result<Response> {
    let mut errors = Errors::default();
    let new = input.check(&mut errors);
    if errors.is_empty() {
        match state.db().create_venue(sec.league.id, &new).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().venues(),
                    format!("Venue {} added.", new.name),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    list_page(&state, sec, input, errors).await
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, VenueId)>,
) -> Result<Response> {
    let venue = state.db().venue(sec.league.id, id).await?;
    let page = VenuePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        form: VenueForm::of(&venue),
        venue,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn update(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, VenueId)>,
    CsrfForm(input): CsrfForm<VenueForm>,
) -> Result<Response> {
    let venue = state.db().venue(sec.league.id, id).await?;
    let mut errors = Errors::default();
    let new = input.check(&mut errors);
    if errors.is_empty() {
        match state.db().update_venue(sec.league.id, id, &new).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().venues(),
                    format!("Venue {} saved.", new.name),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    let page = VenuePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        venue,
        form: input,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
