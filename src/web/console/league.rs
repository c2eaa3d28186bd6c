//! The league's own details: name, rules summary, contact. The short name
//! (in every address) is the administrator's to set.

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::{League, NewLeague};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::form::{self, Errors};
use super::{PREFIX, at};

pub fn router() -> Router<AppState> {
    Router::new().route(&format!("{PREFIX}/league"), get(show).post(save))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LeagueForm {
    pub name: String,
    pub rules_summary: String,
    pub contact: String,
}

impl LeagueForm {
    /// The league's details as typed, each checked; `short_name` is kept.
    pub fn check(&self, short_name: &str, errors: &mut Errors) -> NewLeague {
        NewLeague {
            name: form::text(errors, "name", &self.name, true, 100),
            short_name: short_name.to_owned(),
            rules_summary: form::text(errors, "rules_summary", &self.rules_summary, false, 2000),
            contact: form::text(errors, "contact", &self.contact, false, 200),
        }
    }
}

#[derive(Template)]
#[template(path = "console/league.html")]
struct LeaguePage {
    ctx: Ctx,
    league: League,
    form: LeagueForm,
    errors: Errors,
}

async fn show(sec: Secretary) -> Result<Response> {
    let form = LeagueForm {
        name: sec.league.name.clone(),
        rules_summary: sec.league.rules_summary.clone(),
        contact: sec.league.contact.clone(),
    };
    let page = LeaguePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        form,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn save(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<LeagueForm>,
) -> Result<Response> {
    let mut errors = Errors::default();
    let new = input.check(&sec.league.short_name, &mut errors);
    if errors.is_empty() {
        match state.db().update_league(sec.league.id, &new).await {
            Ok(league) => return Ok(form::done(&at(&league, ""))),
            Err(e) => form::refused(
                e,
                &mut errors,
                "name",
                "A league with this name already exists.",
            )?,
        }
    }
    let page = LeaguePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        form: input,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
