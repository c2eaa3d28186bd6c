//! A league's teams and players, a team's page and a player's statistics
//! and ratings.

use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;

use super::{ApiPath, ApiQuery, ApiResult, answer, at, id, links, paged};
use crate::app::read;
use crate::db::{PlayerId, TeamId};
use crate::web::AppState;
use crate::web::links;

#[derive(Deserialize)]
pub struct LeaguePath {
    league: String,
}

/// The league's teams, by name.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/teams", tag = "teams",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("page" = Option<u32>, Query, description = "Which page, from 1", minimum = 1),
        ("per_page" = Option<u32>, Query, description = "Items a page (at most 200; 50 if not given)", minimum = 1, maximum = 200),
    ),
    responses((status = 200, description = "A page of the league's teams", body = super::docs::RefsDoc)))]
pub async fn teams(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<LeaguePath>,
    q: ApiQuery,
) -> ApiResult<Response> {
    let page = q.page()?;
    let league = super::find_league(&state, &p.league).await?;
    let all = read::team::teams(state.db(), &league).await?;
    let short = &league.short_name;
    paged(
        &all,
        &page,
        &at::teams(short),
        links([
            ("league", at::league(short)),
            ("team", format!("{}/{{id}}", at::teams(short))),
        ]),
    )
}

#[derive(Deserialize)]
pub struct TeamPath {
    league: String,
    team: String,
}

/// A team: venue, division, captains, players, fixtures and results this
/// season, record and positions round by round.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/teams/{team}", tag = "teams",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("team" = i64, Path, description = "The team's id", minimum = 1),
    ),
    responses((status = 200, description = "The team", body = super::docs::TeamDoc)))]
pub async fn team(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<TeamPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let team = TeamId(id(&p.team, "team")?);
    let view = read::team::team(state.db(), state.kept_divisions(), &league, team).await?;
    let short = &league.short_name;
    let mut l = links([
        ("self", at::team(short, team.0)),
        ("html", links::team_href(&league, team, &view.team.name)),
        ("league", at::league(short)),
        ("match", format!("{}/matches/{{id}}", at::league(short))),
        ("player", format!("{}/{{id}}", at::players(short))),
    ]);
    if let Some(c) = &view.current {
        l.insert("division".into(), at::division(short, c.division.id));
        l.insert("season".into(), at::season(short, c.season.id));
    }
    Ok(answer(view, l))
}

/// The league's players, by name.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/players", tag = "players",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("page" = Option<u32>, Query, description = "Which page, from 1", minimum = 1),
        ("per_page" = Option<u32>, Query, description = "Items a page (at most 200; 50 if not given)", minimum = 1, maximum = 200),
    ),
    responses((status = 200, description = "A page of the league's players", body = super::docs::RefsDoc)))]
pub async fn players(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<LeaguePath>,
    q: ApiQuery,
) -> ApiResult<Response> {
    let page = q.page()?;
    let league = super::find_league(&state, &p.league).await?;
    let all = read::player::players(state.db(), &league).await?;
    let short = &league.short_name;
    paged(
        &all,
        &page,
        &at::players(short),
        links([
            ("league", at::league(short)),
            ("player", format!("{}/{{id}}", at::players(short))),
        ]),
    )
}

#[derive(Deserialize)]
pub struct PlayerPath {
    league: String,
    player: String,
}

/// A player: games played and won season by season, and ratings.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/players/{player}", tag = "players",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("player" = i64, Path, description = "The player's id", minimum = 1),
    ),
    responses((status = 200, description = "The player", body = super::docs::PlayerDoc)))]
pub async fn player(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<PlayerPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let player = PlayerId(id(&p.player, "player")?);
    let rated = state.ratings(&league).await?;
    let view = read::player::player(state.db(), &league, player, &rated).await?;
    let short = &league.short_name;
    let mut l = links([
        ("self", at::player(short, player.0)),
        (
            "html",
            links::player_href(&league, player, &view.player.name),
        ),
        ("league", at::league(short)),
    ]);
    if let Some(s) = view.seasons.first() {
        l.insert("team".into(), at::team(short, s.team.id));
    }
    Ok(answer(view, l))
}
