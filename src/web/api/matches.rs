//! A match board by board and hand by hand, a cup's bracket, and the
//! league's boards in play tonight.

use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;

use super::{ApiPath, ApiResult, answer, at, id, links};
use crate::app::read;
use crate::db::{CupId, FixtureId};
use crate::web::AppState;
use crate::web::links;

#[derive(Deserialize)]
pub struct MatchPath {
    league: String,
    fixture: String,
}

/// A match: its state and score, and its current result's boards, games
/// and (where recorded) hands.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/matches/{fixture}", tag = "matches",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("fixture" = i64, Path, description = "The match's (fixture's) id", minimum = 1),
    ),
    responses((status = 200, description = "The match", body = super::docs::MatchDoc)))]
pub async fn fixture(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<MatchPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let fixture = FixtureId(id(&p.fixture, "match")?);
    let (data, _) =
        read::match_view::load_kept(state.db(), state.kept_matches(), &league, fixture).await?;
    let view = data.view();
    let short = &league.short_name;
    let mut l = links([
        ("self", at::fixture(short, fixture.0)),
        ("html", links::match_href(&league, fixture)),
        ("home", at::team(short, view.fixture.home.id)),
        ("away", at::team(short, view.fixture.away.id)),
    ]);
    if let Some(d) = &view.fixture.division {
        l.insert("division".into(), at::division(short, d.id));
    }
    if let Some(c) = &view.fixture.cup {
        l.insert("cup".into(), at::cup(short, c.id));
    }
    Ok(answer(view, l))
}

#[derive(Deserialize)]
pub struct CupPath {
    league: String,
    cup: String,
}

/// A cup's bracket, round by round.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/cups/{cup}", tag = "cups",
    params(
        ("league" = String, Path, description = "The league's short name"),
        ("cup" = i64, Path, description = "The cup's id", minimum = 1),
    ),
    responses((status = 200, description = "The cup's bracket", body = super::docs::CupDoc)))]
pub async fn cup(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<CupPath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let cup = CupId(id(&p.cup, "cup")?);
    let view = read::cup::cup(state.db(), &league, cup).await?;
    let short = &league.short_name;
    let l = links([
        ("self", at::cup(short, cup.0)),
        ("html", links::cup_href(&league, cup, &view.cup.name)),
        ("season", at::season(short, view.season.id)),
        ("match", format!("{}/matches/{{id}}", at::league(short))),
    ]);
    Ok(answer(view, l))
}

#[derive(Deserialize)]
pub struct LeaguePath {
    league: String,
}

/// Tonight: the boards being played on the score pads, tonight's fixtures
/// and results awaiting approval.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/live", tag = "matches",
    params(("league" = String, Path, description = "The league's short name")),
    responses((status = 200, description = "The league's matches tonight", body = super::docs::LiveDoc)))]
pub async fn live(
    State(state): State<AppState>,
    ApiPath(p): ApiPath<LeaguePath>,
) -> ApiResult<Response> {
    let league = super::find_league(&state, &p.league).await?;
    let view = read::live::live(state.db(), state.kept_live_records(), &league).await?;
    let short = &league.short_name;
    Ok(answer(
        view,
        links([
            ("self", at::live(short)),
            ("html", links::at(&league).live()),
            ("league", at::league(short)),
            ("match", format!("{}/matches/{{id}}", at::league(short))),
        ]),
    ))
}
