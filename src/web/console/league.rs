//! The league's own details: name, rules summary, contact, time zone. The
//! short name (in every address) is the administrator's to set.

use crate::league::time::Zone;
use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::{League, NewLeague};
use crate::league::time::COMMON_ZONES;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Errors};

pub fn router() -> Routes {
    Routes::new().league(&format!("{PREFIX}/league"), get(show).post(save))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LeagueForm {
    pub name: String,
    pub rules_summary: String,
    pub contact: String,
    /// An IANA name; a form without the field keeps the league's zone.
    pub time_zone: Option<String>,
    /// Rated games before a rating is no longer provisional; a form
    /// without the field keeps the league's.
    pub provisional_games: Option<String>,
}

impl LeagueForm {
    /// The games a rating is provisional for, as typed (`None`: kept).
    pub fn provisional(&self, errors: &mut Errors) -> Option<u32> {
        let typed = self.provisional_games.as_deref()?;
        let n = form::whole(errors, "provisional_games", typed, 0, 1000);
        u32::try_from(n).ok()
    }

    /// The league's details as typed, each checked, and its time zone
    /// (`None` when refused); `short_name` is kept.
    pub fn check(&self, league: &League, errors: &mut Errors) -> (NewLeague, Option<Zone>) {
        let new = NewLeague {
            name: form::text(errors, "name", &self.name, true, 100),
            short_name: league.short_name.clone(),
            rules_summary: form::text(errors, "rules_summary", &self.rules_summary, false, 2000),
            contact: form::text(errors, "contact", &self.contact, false, 200),
        };
        let typed = self.time_zone.as_deref().unwrap_or(league.time_zone.name());
        (new, form::time_zone(errors, "time_zone", typed))
    }
}

#[derive(Template)]
#[template(path = "console/league.html")]
struct LeaguePage {
    ctx: Ctx,
    league: League,
    form: LeagueForm,
    /// Time zones offered as one is typed.
    zones: &'static [&'static str],
    errors: Errors,
}

impl LeaguePage {
    /// The provisional games field's text: as typed, or the league's.
    fn provisional_text(&self) -> String {
        self.form
            .provisional_games
            .clone()
            .unwrap_or_else(|| self.league.provisional_games.to_string())
    }

    /// The time zone field's text: as typed, or the league's.
    fn zone_text(&self) -> &str {
        self.form
            .time_zone
            .as_deref()
            .unwrap_or(self.league.time_zone.name())
    }
}

async fn show(sec: Secretary) -> Result<Response> {
    let form = LeagueForm {
        name: sec.league.name.clone(),
        rules_summary: sec.league.rules_summary.clone(),
        contact: sec.league.contact.clone(),
        time_zone: Some(sec.league.time_zone.name().to_owned()),
        provisional_games: Some(sec.league.provisional_games.to_string()),
    };
    let page = LeaguePage {
        ctx: sec.user.ctx(),
        league: sec.league,
        form,
        zones: COMMON_ZONES,
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
    let (new, zone) = input.check(&sec.league, &mut errors);
    let provisional = input.provisional(&mut errors);
    if let (true, Some(zone)) = (errors.is_empty(), zone) {
        match state
            .db()
            .update_league(sec.league.id, &new, zone, provisional)
            .await
        {
            Ok(league) => {
                return Ok(form::done(
                    &links::at(&league).console().to_string(),
                    format!("League details of {} saved.", league.name),
                ));
            }
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
        zones: COMMON_ZONES,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
