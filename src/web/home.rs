//! The installation's home page: its leagues. A new installation sends its
//! first visitor to create the administrator's account.

use crate::web::routes::Routes;
use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::db::League;

use super::AppState;
use super::auth::MaybeUser;
use super::error::Result;
use super::my_matches::{self, OwnRecord, TeamMatches};
use super::page::{Ctx, html};

pub fn router() -> Routes {
    Routes::new()
        .route("/", get(home))
        .route("/leagues", get(leagues))
        .route("/healthz", get(healthz))
}

/// `/healthz`: 200 when the database answers and its schema is this
/// binary's, else 503; in words, for a person or a load balancer. Never
/// kept: it must ask the database each time.
async fn healthz(State(state): State<AppState>) -> Response {
    use axum::http::{StatusCode, header};
    let (status, text) = match state.db().health().await {
        Ok(h) if h.is_current() => (
            StatusCode::OK,
            format!(
                "ok: the database answers; schema at migration {}\n",
                h.applied
            ),
        ),
        Ok(h) if h.applied != h.known => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "not ready: schema at migration {}, this binary expects {}\n",
                h.applied, h.known
            ),
        ),
        Ok(h) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "not ready: the schema is not this binary's: {}\n",
                h.wrong.join("; ")
            ),
        ),
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the database does not answer: {e}\n"),
        ),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    ctx: Ctx,
    leagues: Vec<League>,
    /// A captain's teams and their matches.
    teams: Vec<TeamMatches>,
    /// The player pages of the players the user is.
    records: Vec<OwnRecord>,
    /// One of them has a next match: shown first, under "Your matches".
    has_next: bool,
}

#[derive(Template)]
#[template(path = "leagues.html")]
struct LeaguesPage {
    ctx: Ctx,
    leagues: Vec<League>,
}

/// Every league of the installation.
async fn leagues(State(state): State<AppState>, user: MaybeUser) -> Result<Response> {
    Ok(html(&LeaguesPage {
        ctx: user.ctx(),
        leagues: state.db().leagues().await?,
    }))
}

async fn home(State(state): State<AppState>, user: MaybeUser) -> Result<Response> {
    if state.db().user_count().await? == 0 {
        return Ok(Redirect::to("/setup").into_response());
    }
    let leagues = state.db().leagues().await?;
    let (teams, records) = match &user.0 {
        Some(u) => (
            my_matches::for_user(state.db(), u).await?,
            my_matches::own_records(state.db(), u).await?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    Ok(html(&HomePage {
        ctx: user.ctx(),
        leagues,
        teams,
        has_next: records.iter().any(|r| r.next.is_some()),
        records,
    }))
}
