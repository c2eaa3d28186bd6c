//! The leagues, a league, a season (with its honours) and a division's
//! table and fixtures.

use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;

use super::{ApiError, ApiPath, ApiQuery, ApiResult, IndexDoc, answer, at, id, links, paged};
use crate::app::read::{self, Key};
use crate::web::AppState;
use crate::web::links;

/// Where to start: the leagues, the OpenAPI document and the guide.
#[utoipa::path(get, path = "/api/v1", tag = "api",
    responses((status = 200, description = "Links to the API's lists and its description", body = IndexDoc)))]
pub async fn index() -> Response {
    super::json(&IndexDoc {
        links: links([
            ("self", at::ROOT.to_owned()),
            ("leagues", at::leagues()),
            ("openapi", at::openapi()),
            ("guide", at::guide()),
        ]),
    })
}

/// Every league of this site, by name.
#[utoipa::path(get, path = "/api/v1/leagues", tag = "leagues",
    params(
        ("page" = Option<u32>, Query, description = "Which page, from 1", minimum = 1),
        ("per_page" = Option<u32>, Query, description = "Items a page (at most 200; 50 if not given)", minimum = 1, maximum = 200),
    ),
    responses((status = 200, description = "A page of the leagues", body = super::docs::LeaguesDoc)))]
pub async fn leagues(State(state): State<AppState>, q: ApiQuery) -> ApiResult<Response> {
    let page = q.page()?;
    let all = read::league::leagues(state.db()).await?;
    paged(&all, &page, &at::leagues(), links([]))
}

#[derive(Deserialize)]
pub struct LeaguePath {
    league: String,
}

/// A league and its seasons, newest first.
#[utoipa::path(get, path = "/api/v1/leagues/{league}", tag = "leagues",
    params(("league" = String, Path, description = "The league's short name")),
    responses((status = 200, description = "The league", body = super::docs::LeagueDoc)))]
pub async fn league(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<LeaguePath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let view = read::league::league(state.db(), &league).await?;
    let short = &league.short_name;
    let mut l = links([
        ("self", at::league(short)),
        ("html", links::at(&league).to_string()),
        ("teams", at::teams(short)),
        ("players", at::players(short)),
        ("live", at::live(short)),
    ]);
    if let Some(current) = view.seasons.first() {
        l.insert("current_season".into(), at::season(short, current.id));
    }
    Ok(answer(view, l))
}

#[derive(Deserialize)]
pub struct SeasonPath {
    league: String,
    season: String,
}

/// A season: its divisions in order with their teams, and its cups.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/seasons/{season}", tag = "leagues",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("season" = i64, Path, description = "The season's id", minimum = 1),
    ),
    responses((status = 200, description = "The season", body = super::docs::SeasonDoc)))]
pub async fn season(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<SeasonPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let season_id = id(&p.season, "season")?;
    let (season, _) = read::league::find_season(state.db(), &league, Key::Id(season_id)).await?;
    let view = read::league::season(state.db(), &season).await?;
    let short = &league.short_name;
    let mut l = links([
        ("self", at::season(short, season.id.0)),
        ("html", links::season_href(&league, &season.name)),
        ("league", at::league(short)),
        ("honours", at::honours(short, season.id.0)),
    ]);
    for d in &view.divisions {
        l.insert(
            format!("division:{}", d.division.id),
            at::division(short, d.division.id),
        );
    }
    for c in &view.cups {
        l.insert(format!("cup:{}", c.id), at::cup(short, c.id));
    }
    Ok(answer(view, l))
}

/// A season's honours: champions, cup winners, top players and feats.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/seasons/{season}/honours", tag = "leagues",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("season" = i64, Path, description = "The season's id", minimum = 1),
    ),
    responses((status = 200, description = "The season's honours (so far, while it is played)", body = super::docs::HonoursDoc)))]
pub async fn honours(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<SeasonPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let season_id = id(&p.season, "season")?;
    let (season, _) = read::league::find_season(state.db(), &league, Key::Id(season_id)).await?;
    let honours = read::honours::honours(
        state.db(),
        state.rating_cache(),
        state.honours(),
        state.kept_results(),
        &league,
        &season,
    )
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let short = &league.short_name;
    Ok(answer(
        honours,
        links([
            ("self", at::honours(short, season.id.0)),
            ("html", links::honours_href(&league, &season.name)),
            ("season", at::season(short, season.id.0)),
        ]),
    ))
}

#[derive(Deserialize)]
pub struct DivisionPath {
    league: String,
    division: String,
}

/// A division's table, as it stands or as it stood after a round.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/divisions/{division}", tag = "divisions",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("division" = i64, Path, description = "The division's id", minimum = 1),
        ("after" = Option<u32>, Query, description = "The table as it stood after this round", minimum = 1, maximum = 1000),
    ),
    responses((status = 200, description = "The division's table", body = super::docs::TableDoc)))]
pub async fn division(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<DivisionPath>,
    q: ApiQuery,
) -> ApiResult<Response> {
    let after = q.number("after", 1000)?;
    let league = super::find_league(&state, &p.league).await?;
    let division_id = id(&p.division, "division")?;
    let (season, division) = read::league::division_by_id(state.db(), &league, division_id).await?;
    let divisions = state.db().divisions(league.id, season.id).await?;
    let view = read::division::table(
        state.db(),
        state.kept_divisions(),
        &league,
        &season,
        &division,
        &divisions,
        after,
    )
    .await?;
    let short = &league.short_name;
    let mut l = links([
        ("self", at::division(short, division.id.0)),
        (
            "html",
            links::division_href(&league, &season.name, &division.name),
        ),
        ("fixtures", at::division_fixtures(short, division.id.0)),
        ("season", at::season(short, season.id.0)),
    ]);
    for r in &view.rows {
        l.insert(format!("team:{}", r.team.id), at::team(short, r.team.id));
    }
    Ok(answer(view, l))
}

/// A division's fixtures and results, by round then date, a page at a
/// time.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/divisions/{division}/fixtures", tag = "divisions",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("division" = i64, Path, description = "The division's id", minimum = 1),
        ("page" = Option<u32>, Query, description = "Which page, from 1", minimum = 1),
        ("per_page" = Option<u32>, Query, description = "Items a page (at most 200; 50 if not given)", minimum = 1, maximum = 200),
    ),
    responses((status = 200, description = "A page of the division's fixtures", body = super::docs::FixturesDoc)))]
pub async fn fixtures(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<DivisionPath>,
    q: ApiQuery,
) -> ApiResult<Response> {
    let page = q.page()?;
    let league = super::find_league(&state, &p.league).await?;
    let division_id = id(&p.division, "division")?;
    let (season, division) = read::league::division_by_id(state.db(), &league, division_id).await?;
    let view = read::fixtures::division(state.db(), &season, &division).await?;
    let short = &league.short_name;
    paged(
        &view.fixtures,
        &page,
        &at::division_fixtures(short, division.id.0),
        links([
            ("division", at::division(short, division.id.0)),
            (
                "html",
                links::division_at(&league, &season.name, &division.name).fixtures(),
            ),
            ("match", format!("{}/matches/{{id}}", at::league(short))),
        ]),
    )
}
