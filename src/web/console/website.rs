//! "Put this on your website": every widget of the league (`web::embed`)
//! with a preview and the snippet to copy, in the look the secretary
//! chooses (light or dark, an accent colour).

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use axum::routing::get;

use crate::app::embeds;
use crate::db::League;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::embed::Look;
use crate::web::error::Result;
use crate::web::links;
use crate::web::pad::absolute;
use crate::web::page::{Ctx, html};
use crate::web::routes::Routes;

use super::PREFIX;

pub fn router() -> Routes {
    Routes::new().league(&format!("{PREFIX}/website"), get(page))
}

/// The accent of static/style.css.
const SITE_ACCENT: [u8; 3] = [0x0b, 0x53, 0x94];

/// A frame's height before the host's script sizes it (and without it).
const FRAME_HEIGHT: u32 = 420;

#[derive(Template)]
#[template(path = "console/website.html")]
struct WebsitePage {
    ctx: Ctx,
    league: League,
    look: Look,
    /// The accent as the colour field shows it (the site's when none).
    accent: String,
    season: Option<String>,
    widgets: Vec<Widget>,
    teams: Vec<Widget>,
}

/// One widget: its heading, its address here (the preview), and the
/// snippet a website copies.
struct Widget {
    id: String,
    title: String,
    src: String,
    snippet: String,
}

async fn page(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
) -> Result<Response> {
    let league = sec.league;
    let mut look = Look::from_query(uri.query());
    // The colour field always sends a colour: the site's own is no choice.
    if look.accent == Some(SITE_ACCENT) {
        look.accent = None;
    }
    let catalogue = embeds::catalogue(state.db(), &league).await?;
    // The host's script by its plain (unhashed) address: a copied tag keeps
    // working after a release.
    let host_script = absolute(&headers, "/static/embed-host.js");
    let at = links::at(&league).embed();
    let widget = |id: String, title: String, path: String| {
        let query = look.query();
        let src = if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        };
        let snippet = format!(
            "<iframe src=\"{}\" title=\"{}\" data-boneyard-embed width=\"100%\" height=\"{FRAME_HEIGHT}\" style=\"border:0;width:100%\" loading=\"lazy\"></iframe>\n<script src=\"{host_script}\" async></script>",
            attribute(&absolute(&headers, &src)),
            attribute(&title),
        );
        Widget {
            id,
            title,
            src,
            snippet,
        }
    };
    let mut widgets = Vec::new();
    for d in &catalogue.divisions {
        widgets.push(widget(
            format!("table-{}", d.id),
            format!("{}: table", d.name),
            at.table(d.id),
        ));
        widgets.push(widget(
            format!("fixtures-{}", d.id),
            format!("{}: results and fixtures", d.name),
            at.fixtures(d.id),
        ));
    }
    widgets.push(widget(
        "live".into(),
        format!("{}: matches in progress", league.name),
        at.live(),
    ));
    let teams = catalogue
        .teams
        .iter()
        .map(|t| {
            widget(
                format!("team-{}", t.team_id),
                format!("{}: next match and form", t.team_name),
                at.team(t.team_id),
            )
        })
        .collect();
    Ok(html(&WebsitePage {
        ctx: sec.user.ctx(),
        accent: look.accent.map_or_else(
            || {
                let [r, g, b] = SITE_ACCENT;
                format!("#{r:02x}{g:02x}{b:02x}")
            },
            |[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}"),
        ),
        look,
        season: catalogue.season.map(|s| s.name),
        widgets,
        teams,
        league,
    }))
}

/// `text` safe inside a double-quoted HTML attribute of the snippet (the
/// page escapes the snippet again to show it).
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
