//! The boards in play as a widget: what the league's live page shows,
//! kept up to date by the same script (`static/live.js`, which fetches the
//! widget's own address again, its look included).

use askama::Template;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use crate::app::embeds;
use crate::db::League;
use crate::web::AppState;
use crate::web::auth::InLeague;
use crate::web::error::Result;
use crate::web::links;
use crate::web::pad::live::{LiveLine, league_live};
use crate::web::page::html;
use crate::web::public::{FixtureView, fixture_views};

use super::Look;

#[derive(Template)]
#[template(path = "embed/live.html")]
struct LivePage {
    look: Look,
    league: League,
    /// The league's own live page.
    href: String,
    /// How many matches are in progress, and their boards.
    matches: usize,
    lines: Vec<LiveLine>,
    /// Tonight's fixtures, whatever their state.
    tonight: Vec<FixtureView>,
}

pub async fn page(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    uri: Uri,
) -> Result<Response> {
    let night = embeds::tonight(state.db(), &league).await?;
    let live = league_live(&state, &league).await?;
    Ok(html(&LivePage {
        look: Look::from_query(uri.query()),
        href: links::at(&league).live(),
        matches: live.matches,
        lines: live.lines,
        tonight: fixture_views(
            &league,
            &night.seasons,
            &night.formats,
            &night.lines,
            &night.scores,
        ),
        league,
    }))
}
