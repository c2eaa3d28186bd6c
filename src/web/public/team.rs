//! A team's page: venue, captains, this season's players, fixtures and
//! results, and the penalties against it.

use crate::app::formats::{match_formats, scores_by_season};
use crate::web::auth::InLeague;
use crate::web::links;
use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::pages::{FixtureScope, PenaltyScope, TeamInfo};
use crate::db::{League, TeamId};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::charts::PositionChart;
use super::{
    CalendarLinks, FixtureView, Link, PenaltyView, division_href, fixture_views, league_href,
    not_found, penalty_views, player_href, season_href, slug, split_id_slug, team_href,
};
use crate::app::division_table::DivisionData;
use crate::web::views::next_match::{NextMatch, next_match};
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
    let db = state.db();
    let unknown = || AppError::NotFound(format!("The team `{}`", p.team));
    let (id, given) = split_id_slug(&p.team).ok_or_else(unknown)?;
    let team = db
        .team_info(league.id, TeamId(id))
        .await
        .map_err(|e| not_found(e, format!("The team `{}`", p.team)))?;
    if given != slug(&team.name) {
        let href = team_href(&league, team.id, &team.name);
        return Ok(Redirect::permanent(&href).into_response());
    }
    let entries = db.team_entry_lines(league.id, team.id).await?;
    let mut page = TeamPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        season: None,
        division: None,
        captains: Vec::new(),
        players: Vec::new(),
        fixtures: Vec::new(),
        record: [0; 4],
        penalties: Vec::new(),
        calendar: CalendarLinks::new(&headers, &links::at(&league).team_calendar(team.id)),
        chart: None,
        next: None,
        history: entries
            .iter()
            .map(|e| {
                (
                    Link::new(e.season_name.clone(), season_href(&league, &e.season_name)),
                    Link::new(
                        e.division_name.clone(),
                        division_href(&league, &e.season_name, &e.division_name),
                    ),
                )
            })
            .collect(),
        league,
        team,
    };
    let Some(current) = entries.first() else {
        return Ok(html(&page));
    };
    let (league, team) = (&page.league, &page.team);
    let season_id = current.season_id;
    page.season = Some(Link::new(
        current.season_name.clone(),
        season_href(league, &current.season_name),
    ));
    page.division = Some(Link::new(
        current.division_name.clone(),
        division_href(league, &current.season_name, &current.division_name),
    ));
    let to_link = |p: crate::db::Player| {
        let href = player_href(league, p.id, &p.name);
        Link::new(p.name, href)
    };
    page.captains = db
        .captains(league.id, season_id, team.id)
        .await?
        .into_iter()
        .map(to_link)
        .collect();
    let squad = db.team_players(league.id, season_id, team.id).await?;
    // A registered player of the team, signed in, answers for its next
    // match here.
    let me = user.0.as_ref().and_then(|u| {
        u.roles
            .iter()
            .filter(|r| r.kind == crate::db::RoleKind::Player && r.league_id == Some(league.id))
            .filter_map(|r| r.player_id)
            .find(|p| squad.iter().any(|s| s.id == *p))
    });
    page.players = squad.into_iter().map(to_link).collect();

    let seasons = db.seasons(league.id).await?;
    let formats = match_formats(&seasons)?;
    let scope = FixtureScope::Team {
        season: season_id,
        team: team.id,
    };
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = scores_by_season(&lines, &boards, &formats);
    page.fixtures = fixture_views(league, &seasons, &formats, &lines, &scores);
    // The page is the team's: its next match needs no team's name.
    page.next = next_match(
        league,
        &lines,
        team.id,
        league.time_zone.today(Utc::now()).0,
    )
    .map(|next| NextMatch {
        team: String::new(),
        ..next
    });
    if let (Some(player), Some(next)) = (me, page.next.take()) {
        let back = team_href(league, team.id, &team.name);
        page.next = Some(next.with_answer(db, league, player, &back).await?);
    }
    let home_of: HashMap<_, _> = lines
        .iter()
        .map(|f| (f.id, f.home_team_id == team.id))
        .collect();
    // The record is the league's: cup ties are listed, not counted.
    for f in lines.iter().filter(|f| f.division_id.is_some()) {
        let Some(format) = formats.get(&f.season_id) else {
            continue;
        };
        let Some(score) = crate::league::match_score::fixture_score(f, &scores, format) else {
            continue;
        };
        if score.provisional() {
            continue;
        }
        let (mine, theirs) = if home_of[&f.id] {
            (score.boards[0], score.boards[1])
        } else {
            (score.boards[1], score.boards[0])
        };
        page.record[0] += 1;
        page.record[match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 2,
            std::cmp::Ordering::Less => 3,
        }] += 1;
    }
    let penalties = db
        .penalty_lines(
            league.id,
            PenaltyScope::Team {
                season: season_id,
                team: team.id,
            },
        )
        .await?;
    page.penalties = penalty_views(league, &penalties);
    if let Some(season) = seasons.iter().find(|s| s.id == season_id) {
        let data = DivisionData::load(state.db(), season, current.division_id).await?;
        page.chart = PositionChart::new(&data, team.id, &team.name);
    }
    Ok(html(&page))
}
