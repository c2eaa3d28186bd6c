//! Rating lists (issue 27): a league's players by rating in one rule
//! family, across its divisions and seasons, and the same across every
//! league of the installation for an association that hosts several.
//! With the method written out, so anyone can check a figure.

use crate::web::auth::InLeague;
use crate::web::links;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use crate::app::ratings::LeagueRatings;
use crate::db::League;
use crate::db::ratings::RatedPlayer;
use crate::league::ratings::{
    BETA, INITIAL_RATING, INITIAL_UNCERTAINTY, Rating, UNCERTAINTY_TOLERANCE,
};
use crate::rules::Format;

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{Link, league_href, player_href};

/// The installation's list shows its top players only: an association's
/// leagues may hold thousands.
const INSTALLATION_LINES: usize = 200;

/// One line of a list.
struct Line {
    position: usize,
    player: Link,
    /// The league, on the installation's list.
    league: Option<Link>,
    team: String,
    rating: String,
    uncertainty: String,
    games: u32,
    won: u32,
    provisional: bool,
}

/// The method's constants, as the page states them.
struct Method {
    initial: String,
    uncertainty: String,
    beta: String,
    tolerance: String,
}

fn method() -> Method {
    Method {
        initial: format!("{INITIAL_RATING}"),
        uncertainty: format!("{INITIAL_UNCERTAINTY:.4}"),
        beta: format!("{BETA:.4}"),
        tolerance: format!("{UNCERTAINTY_TOLERANCE}"),
    }
}

#[derive(Template)]
#[template(path = "public/ratings.html")]
struct RatingsPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    /// The league, or none for the installation's list.
    league: Option<League>,
    format: Format,
    /// The other rule families' lists.
    formats: Vec<(Link, bool)>,
    lines: Vec<Line>,
    /// Everyone rated: more than the lines on the installation's list.
    rated: usize,
    provisional_games: String,
    method: Method,
}

/// `all-fives` and the like; anything else is a 404 that says so.
fn parse_format(text: &str) -> Result<Format> {
    text.parse::<Format>()
        .map_err(|_| AppError::NotFound(format!("The rule family `{text}`")))
}

fn line(
    position: usize,
    player: &RatedPlayer,
    rating: &Rating,
    league: &League,
    provisional_games: u32,
    named: bool,
) -> Line {
    Line {
        position,
        player: Link::new(
            player.name.clone(),
            player_href(league, player.id, &player.name),
        ),
        league: named.then(|| Link::new(league.name.clone(), league_href(league))),
        team: player.team.clone().unwrap_or_default(),
        rating: format!("{:.1}", rating.rating),
        uncertainty: format!("{:.1}", rating.uncertainty),
        games: rating.games,
        won: rating.won,
        provisional: rating.provisional(provisional_games),
    }
}

/// `/leagues/{league}/ratings`: the league's first rule family's list.
pub async fn league_index(
    state: State<AppState>,
    user: MaybeUser,
    InLeague(found): InLeague,
) -> Result<Response> {
    let (rated, format) =
        crate::app::read::ratings::index(state.db(), state.rating_cache(), &found).await?;
    league_page(user, found, rated, format)
}

/// `/leagues/{league}/ratings/{format}`.
pub async fn league_list(
    state: State<AppState>,
    user: MaybeUser,
    InLeague(found): InLeague,
    Path((_, format)): Path<(String, String)>,
) -> Result<Response> {
    let format = parse_format(&format)?;
    let rated = state.ratings(&found).await?;
    league_page(user, found, rated, format)
}

fn league_page(
    user: MaybeUser,
    league: League,
    rated: std::sync::Arc<LeagueRatings>,
    format: Format,
) -> Result<Response> {
    let listed = rated.ranked(format);
    let lines = listed
        .iter()
        .enumerate()
        .map(|(i, (p, r))| line(i + 1, p, r, &league, rated.provisional_games, false))
        .collect();
    Ok(html(&RatingsPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        formats: Format::ALL
            .into_iter()
            .map(|f| {
                (
                    Link::new(
                        f.title().to_owned(),
                        links::at(&league).ratings_of(f.as_str()),
                    ),
                    f == format,
                )
            })
            .collect(),
        provisional_games: rated.provisional_games.to_string(),
        rated: listed.len(),
        league: Some(league),
        format,
        lines,
        method: method(),
    }))
}

/// `/ratings/{format}`: every league's players in one list, on the one
/// scale the method gives them. A person linked across leagues has one
/// rating, shown once (as its record in the first league).
pub async fn installation_list(
    state: State<AppState>,
    user: MaybeUser,
    Path(format): Path<String>,
) -> Result<Response> {
    let format = parse_format(&format)?;
    let list = state
        .installation_ratings(format, INSTALLATION_LINES)
        .await?;
    let rated = list.rated;
    let lines = list
        .lines
        .iter()
        .enumerate()
        .map(|(i, r)| {
            line(
                i + 1,
                &r.player,
                &r.rating,
                &r.league,
                r.provisional_games,
                true,
            )
        })
        .collect();
    Ok(html(&RatingsPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new("Leagues".to_owned(), "/leagues".to_owned())],
        formats: Format::ALL
            .into_iter()
            .map(|f| {
                (
                    Link::new(f.title().to_owned(), format!("/ratings/{}", f.as_str())),
                    f == format,
                )
            })
            .collect(),
        provisional_games: "each league's number of".to_owned(),
        rated,
        league: None,
        format,
        lines,
        method: method(),
    }))
}

/// `/ratings`: the Fives and Threes list.
pub async fn installation_index(state: State<AppState>, user: MaybeUser) -> Result<Response> {
    installation_list(
        state,
        user,
        Path(Format::FivesAndThrees.as_str().to_owned()),
    )
    .await
}
