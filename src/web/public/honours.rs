//! A season's honours, for its presentation night, as a page that prints
//! on one or two A4 sheets and as plain text for the local paper
//! (`/leagues/{league}/{season}/honours`, `.../honours.txt`): the use
//! case's view (`app::read::honours`, which the API sends too) with its
//! links.

use crate::web::auth::InLeague;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::app::read::{self, Key, honours::HonoursView};
use crate::db::{CupId, League, PlayerId, Season, TeamId};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::links::honours_href;
use super::super::page::{Ctx, html};
use super::{Link, cup_href, division_href, league_href, player_href, season_href, team_href};

#[derive(Deserialize)]
pub struct HonoursPath {
    season: String,
}

/// A division's top two.
struct DivisionHonours {
    division: Link,
    /// The champions and the runners-up (the leaders and the second so
    /// far); none before any result.
    places: Vec<Place>,
    /// Said beside them: no results yet, or teams level for the title.
    note: String,
}

struct Place {
    /// "Champions", "Runners-up"; "Leading", "Second" while the season is
    /// played.
    title: String,
    team: Link,
    /// "40 points from 14 matches".
    record: String,
}

/// A cup's final.
struct CupHonours {
    cup: Link,
    /// "team cup", "singles knockout".
    kind: String,
    /// Once the final is decided.
    winner: Option<String>,
    runner_up: Option<String>,
    /// Where it stands when not decided.
    note: String,
}

/// A player named in a list of the honours: the top players by win rate
/// (and by rating, see [`Honours::ratings`]).
pub(crate) struct PlayerLine {
    /// The place, shared by players level ("1", "2", "2").
    pub position: String,
    pub player: Link,
    pub team: String,
    /// What the figure is made of: "won 20 of 24 games".
    pub detail: String,
    /// The figure they are ranked by: "83%".
    pub figure: String,
}

/// A kind of feat and its lines.
struct FeatGroup {
    title: String,
    lines: Vec<String>,
}

/// A season's honours, built once for the page and its text.
pub(crate) struct Honours {
    /// "Honours, season 2025/26", or "Honours so far, season 2026/27".
    title: String,
    /// Whether they are final, in a sentence.
    status: String,
    /// The season is over: its honours are final.
    settled: bool,
    divisions: Vec<DivisionHonours>,
    cups: Vec<CupHonours>,
    /// The ranked players of the player table's top places.
    win_rate: Vec<PlayerLine>,
    /// Who is ranked, in a sentence.
    win_rate_note: String,
    /// The season's players with an established rating, highest first,
    /// as rated after their last game of the season (the figure the
    /// rating, its detail the games rated).
    ratings: Vec<PlayerLine>,
    feats: Vec<FeatGroup>,
}

#[derive(Template)]
#[template(path = "public/honours.html")]
struct HonoursPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    season_href: String,
    text_href: String,
    honours: Honours,
}

#[derive(Template)]
#[template(path = "public/honours.txt")]
struct HonoursText<'a> {
    league: &'a League,
    honours: &'a Honours,
}

/// `/{season}/honours`: the page.
pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<HonoursPath>,
) -> Result<Response> {
    let (league, season) = resolve(&state, league, &p).await?;
    let view = kept(&state, &league, &season).await?;
    let honours = shown(&league, &season, &view);
    let page = HonoursPage {
        ctx: user.ctx(),
        crumbs: vec![
            Link::new(league.name.clone(), league_href(&league)),
            Link::new(season.name.clone(), season_href(&league, &season.name)),
        ],
        season_href: season_href(&league, &season.name),
        text_href: format!("{}.txt", honours_href(&league, &season.name)),
        honours,
        league,
    };
    Ok(html(&page))
}

/// `/{season}/honours.txt`: the same as plain text, for the paper.
pub async fn text(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<HonoursPath>,
) -> Result<Response> {
    let (league, season) = resolve(&state, league, &p).await?;
    let view = kept(&state, &league, &season).await?;
    let honours = shown(&league, &season, &view);
    let text = HonoursText {
        league: &league,
        honours: &honours,
    }
    .render()
    .map_err(|e| AppError::Internal(format!("the honours' text: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn resolve(state: &AppState, league: League, p: &HonoursPath) -> Result<(League, Season)> {
    let (season, _) = read::league::find_season(state.db(), &league, Key::Slug(&p.season))
        .await
        .map_err(super::found)?;
    Ok((league, season))
}

/// The honours of `season`, kept while the league's records stand.
pub(crate) async fn kept(
    state: &AppState,
    league: &League,
    season: &Season,
) -> Result<Arc<HonoursView>> {
    Ok(read::honours::honours(
        state.db(),
        state.rating_cache(),
        state.honours(),
        state.kept_results(),
        league,
        season,
    )
    .await?)
}

/// The honours as the page and the text show them: the view with links.
fn shown(league: &League, season: &Season, h: &HonoursView) -> Honours {
    let player = |p: &read::honours::PlayerLineView| PlayerLine {
        position: p.position.clone(),
        player: Link::new(
            p.player.clone(),
            player_href(league, PlayerId(p.player_id), &p.player),
        ),
        team: p.team.clone(),
        detail: p.detail.clone(),
        figure: p.figure.clone(),
    };
    Honours {
        title: h.title.clone(),
        status: h.status.clone(),
        settled: h.settled,
        divisions: h
            .divisions
            .iter()
            .map(|d| DivisionHonours {
                division: Link::new(
                    d.division.clone(),
                    division_href(league, &season.name, &d.division),
                ),
                places: d
                    .places
                    .iter()
                    .map(|p| Place {
                        title: p.title.clone(),
                        team: Link::new(
                            p.team.clone(),
                            team_href(league, TeamId(p.team_id), &p.team),
                        ),
                        record: p.record.clone(),
                    })
                    .collect(),
                note: d.note.clone(),
            })
            .collect(),
        cups: h
            .cups
            .iter()
            .map(|c| CupHonours {
                cup: Link::new(c.cup.clone(), cup_href(league, CupId(c.cup_id), &c.cup)),
                kind: c.kind.clone(),
                winner: c.winner.clone(),
                runner_up: c.runner_up.clone(),
                note: c.note.clone(),
            })
            .collect(),
        win_rate: h.win_rate.iter().map(player).collect(),
        win_rate_note: h.win_rate_note.clone(),
        ratings: h.ratings.iter().map(player).collect(),
        feats: h
            .feats
            .iter()
            .map(|f| FeatGroup {
                title: f.title.clone(),
                lines: f.lines.clone(),
            })
            .collect(),
    }
}
