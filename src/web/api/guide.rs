//! `/api`: the API explained to a league's web volunteer, with addresses
//! of this site's own leagues to try.

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use crate::addresses::api as at;
use crate::app::read;
use crate::web::AppState;
use crate::web::auth::MaybeUser;
use crate::web::error::Result;
use crate::web::links::Link;
use crate::web::page::{Ctx, html};

#[derive(Template)]
#[template(path = "api/guide.html")]
struct GuidePage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    openapi: String,
    root: String,
    /// A league of this site to try the addresses on, if there is one.
    example: Option<Example>,
}

struct Example {
    name: String,
    league: String,
    teams: String,
    live: String,
}

pub async fn page(State(state): State<AppState>, user: MaybeUser) -> Result<Response> {
    let leagues = read::league::leagues(state.db()).await?;
    let example = leagues.first().map(|l| Example {
        name: l.name.clone(),
        league: at::league(&l.short_name),
        teams: at::teams(&l.short_name),
        live: at::live(&l.short_name),
    });
    Ok(html(&GuidePage {
        ctx: user.ctx(),
        crumbs: Vec::new(),
        openapi: at::openapi(),
        root: at::ROOT.to_owned(),
        example,
    }))
}
