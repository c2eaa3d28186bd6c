//! A cup's page: its bracket, round by round, each tie linked to its match.
//! On a phone the rounds follow one another down the page; on a wide
//! screen (and on paper, one A4 sheet) they stand side by side as a
//! bracket, each tie beside the two it is drawn from. No JavaScript.

use crate::web::auth::InLeague;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::{CupId, League};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::super::views::bracket::{Bracket, bracket_of, describe};
use super::{Link, cup_href, league_href, not_found, season_href, slug, split_id_slug};
use crate::app::read;

#[derive(Deserialize)]
pub struct CupPath {
    cup: String,
}

#[derive(Template)]
#[template(path = "public/cup.html")]
struct CupPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    name: String,
    season: Link,
    about: String,
    bracket: Bracket,
    /// Entrants while the first round is still to be drawn.
    entrants: Vec<String>,
}

pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<CupPath>,
) -> Result<Response> {
    let unknown = || AppError::NotFound(format!("The cup `{}`", p.cup));
    let (id, given) = split_id_slug(&p.cup).ok_or_else(unknown)?;
    let view = read::cup::cup(state.db(), &league, CupId(id))
        .await
        .map_err(|e| not_found(e, format!("The cup `{}`", p.cup)))?;
    let (Some(data), Some(season)) = (&view.data, &view.season_record) else {
        return Err(unknown());
    };
    if given != slug(&data.cup.name) {
        let href = cup_href(&league, data.cup.id, &data.cup.name);
        return Ok(Redirect::permanent(&href).into_response());
    }
    let bracket = bracket_of(&league, &view);
    let entrants = view.entered.iter().map(|e| e.name.clone()).collect();
    let page = CupPage {
        ctx: user.ctx(),
        crumbs: vec![
            Link::new(league.name.clone(), league_href(&league)),
            Link::new(season.name.clone(), season_href(&league, &season.name)),
        ],
        name: data.cup.name.clone(),
        season: Link::new(season.name.clone(), season_href(&league, &season.name)),
        about: describe(&data.cup, season, data.entrants.len()),
        bracket,
        entrants,
        league,
    };
    Ok(html(&page))
}
