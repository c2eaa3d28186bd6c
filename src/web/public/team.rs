//! A team's page: venue, captains, this season's players, fixtures and
//! results, and the penalties against it.

use crate::app::read::{self, Ref};
use crate::web::auth::InLeague;
use crate::web::links;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::pages::TeamInfo;
use crate::db::{League, PlayerId, SeasonId, TeamId};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::charts::PositionChart;
use super::{
    CalendarLinks, FixtureView, Link, PenaltyView, division_href, fixture_view, league_href,
    not_found, penalty_views, player_href, season_href, slug, split_id_slug, team_href,
};
use crate::web::views::next_match::{AnswerSlot, NextMatch, next_match};
use chrono::Utc;

#[derive(Deserialize)]
pub struct TeamPath {
    team: String,
}

#[derive(Template)]
#[template(path = "public/team.html")]
struct TeamPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    team: TeamInfo,
    /// The latest season the team was entered in, and its division there.
    season: Option<Link>,
    division: Option<Link>,
    captains: Vec<Link>,
    players: Vec<Link>,
    fixtures: Vec<FixtureView>,
    /// Approved results and walkovers: played, won, drawn, lost.
    record: [u32; 4],
    penalties: Vec<PenaltyView>,
    history: Vec<(Link, Link)>,
    calendar: CalendarLinks,
    /// The team's position after each round of its current division.
    chart: Option<PositionChart>,
    /// Its next match, shown first.
    next: Option<NextMatch>,
}

pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    headers: HeaderMap,
    InLeague(league): InLeague,
    Path(p): Path<TeamPath>,
) -> Result<Response> {
    let unknown = || AppError::NotFound(format!("The team `{}`", p.team));
    let (id, given) = split_id_slug(&p.team).ok_or_else(unknown)?;
    let view = read::team::team(state.db(), state.kept_divisions(), &league, TeamId(id))
        .await
        .map_err(|e| not_found(e, format!("The team `{}`", p.team)))?;
    let team = view.info.clone().ok_or_else(unknown)?;
    if given != slug(&team.name) {
        let href = team_href(&league, team.id, &team.name);
        return Ok(Redirect::permanent(&href).into_response());
    }
    let to_link = |r: &Ref| {
        Link::new(
            r.name.clone(),
            player_href(&league, PlayerId(r.id), &r.name),
        )
    };
    let seasons: Vec<(SeasonId, &str)> = view
        .history
        .iter()
        .map(|h| (SeasonId(h.season.id), h.season.name.as_str()))
        .collect();
    let season_name = |id: i64| {
        seasons
            .iter()
            .find(|(s, _)| s.0 == id)
            .map_or("", |(_, name)| name)
    };
    // The page is the team's: its next match needs no team's name. Its
    // answer box is a registered player's own (`web::personal`).
    let back = team_href(&league, team.id, &team.name);
    let squad: Vec<i64> = view.players.iter().map(|s| s.id).collect();
    let next = next_match(
        &league,
        &view.lines,
        team.id,
        league.time_zone.today(Utc::now()).0,
    )
    .map(|next| NextMatch {
        team: String::new(),
        slot: Some(AnswerSlot {
            fixture: next.fixture.0,
            back: back.clone(),
            players: squad
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","),
        }),
        ..next
    });
    let me = user
        .0
        .as_ref()
        .and_then(|u| answering_player(u, &league, &squad));
    let next = match (me, next) {
        (Some(player), Some(next)) => {
            let current = read::team::answer(state.db(), &league, next.fixture, player).await?;
            Some(next.with_answer_of(&league, current, &back))
        }
        (_, next) => next,
    };
    let places: Vec<(u32, usize)> = view
        .positions
        .iter()
        .map(|p| (p.round, p.position))
        .collect();
    let page = TeamPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        season: view
            .current
            .as_ref()
            .map(|c| Link::new(c.season.name.clone(), season_href(&league, &c.season.name))),
        division: view.current.as_ref().map(|c| {
            Link::new(
                c.division.name.clone(),
                division_href(&league, &c.season.name, &c.division.name),
            )
        }),
        captains: view.captains.iter().map(to_link).collect(),
        players: view.players.iter().map(to_link).collect(),
        fixtures: view
            .fixtures
            .iter()
            .map(|f| fixture_view(&league, season_name(f.season_id), f))
            .collect(),
        record: [
            view.record.played,
            view.record.won,
            view.record.drawn,
            view.record.lost,
        ],
        penalties: penalty_views(&league, &view.penalties),
        calendar: CalendarLinks::new(&headers, &links::at(&league).team_calendar(team.id)),
        chart: PositionChart::of_places(&places, view.division_size, &team.name),
        next,
        history: view
            .history
            .iter()
            .map(|e| {
                (
                    Link::new(e.season.name.clone(), season_href(&league, &e.season.name)),
                    Link::new(
                        e.division.name.clone(),
                        division_href(&league, &e.season.name, &e.division.name),
                    ),
                )
            })
            .collect(),
        league,
        team,
    };
    Ok(html(&page))
}

/// The player `user` answers for on a team's page: a registered player of
/// its squad (`squad`, player ids) in `league`, signed in.
pub(crate) fn answering_player(
    user: &crate::web::auth::CurrentUser,
    league: &crate::db::League,
    squad: &[i64],
) -> Option<PlayerId> {
    user.roles
        .iter()
        .filter(|r| r.kind == crate::db::RoleKind::Player && r.league_id == Some(league.id))
        .filter_map(|r| r.player_id)
        .find(|p| squad.contains(&p.0))
}
