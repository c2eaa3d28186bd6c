//! The weekly round-up a league sends to the local paper and its social
//! page, as a page and as plain text to copy
//! (`/leagues/{league}/round-up/{monday}.txt`): the use case's view
//! (`app::read::round_up`) with its links.

use crate::web::auth::InLeague;
use crate::web::links;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::{NaiveDate, Utc};
use serde::Deserialize;

use crate::app::read::round_up::{FeatGroup, RoundUpView};
use crate::db::{CupId, FixtureId, League};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::cache::FRESH_SECONDS;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{Link, cup_href, division_href, league_href, match_href};

#[derive(Deserialize)]
pub struct WeekPath {
    /// The week's Monday, `2026-10-12`, with `.txt` for the plain text.
    week: String,
}

/// The round-up's address for the week starting `monday`.
pub(crate) fn week_href(league: &League, monday: NaiveDate) -> String {
    format!(
        "{}/round-up/{}",
        league_href(league),
        monday.format("%Y-%m-%d")
    )
}

/// `/round-up`: the latest week with a result, up to this week (this week
/// when there is none).
pub async fn latest(State(state): State<AppState>, InLeague(league): InLeague) -> Result<Response> {
    let today = league.time_zone.local(Utc::now()).date();
    let monday =
        crate::app::read::round_up::latest_week(state.db(), state.latest_week(), &league, today)
            .await?;
    Ok(Redirect::to(&week_href(&league, monday)).into_response())
}

/// One result line: `Plough A 6–3 Star`, with its match and a note.
struct ResultLine {
    text: String,
    href: String,
    /// `provisional: ...`, `walkover`, `postponed`: empty for an approved
    /// result.
    note: String,
}

/// A division's week.
struct DivisionWeek {
    division: Link,
    results: Vec<ResultLine>,
    /// `Plough A, 40 points from 7 matches`, as the table stood after the
    /// week's last round.
    leaders: Vec<String>,
}

#[derive(Template)]
#[template(path = "public/round_up.html")]
struct RoundUpPage<'a> {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    /// `Mon 12 Oct 2026 to Sun 18 Oct 2026`.
    week: &'a str,
    earlier: Option<Link>,
    later: Option<Link>,
    text_href: String,
    /// Where to get it by email.
    subscribe_href: String,
    divisions: &'a [DivisionWeek],
    feats: &'a [FeatGroup],
    /// The same, as plain text to copy.
    text: &'a str,
}

#[derive(Template)]
#[template(path = "public/round_up.txt")]
struct RoundUpText<'a> {
    league: &'a League,
    week: &'a str,
    divisions: &'a [DivisionWeek],
    feats: &'a [FeatGroup],
}

pub async fn week(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<WeekPath>,
) -> Result<Response> {
    let (date, plain) = match p.week.strip_suffix(".txt") {
        Some(date) => (date, true),
        None => (p.week.as_str(), false),
    };
    let date: NaiveDate = date
        .parse()
        .map_err(|_| AppError::NotFound(format!("The week `{}`", p.week)))?;
    let zone = league.time_zone;
    let monday = zone.week(date).0;
    if monday != date {
        let mut href = week_href(&league, monday);
        if plain {
            href.push_str(".txt");
        }
        return Ok(Redirect::to(&href).into_response());
    }
    let built = build_week(&state, &league, monday).await?;
    let divisions = shown(&league, &built);
    let text = text_of(&league, &built.week, &divisions, &built.feats)?;
    if plain {
        return Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response());
    }
    let step = |t: chrono::DateTime<Utc>, words: &str| {
        let m = zone.week(zone.local(t).date()).0;
        Link::new(
            format!("{words} {}", m.format("%-d %b %Y")),
            week_href(&league, m),
        )
    };
    let href = week_href(&league, monday);
    let page = RoundUpPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        week: &built.week,
        earlier: built.earlier.map(|t| step(t, "Earlier: week of")),
        later: built.later.map(|t| step(t, "Later: week of")),
        text_href: format!("{href}.txt"),
        subscribe_href: links::at(&league).round_up_subscribe(),
        divisions: &divisions,
        feats: &built.feats,
        text: &text,
        league,
    };
    Ok(html(&page))
}

/// The round-up of the week starting `monday` in `league`'s zone, kept
/// while the league's records stand, and for a week not over, at most a
/// minute (the page cache's `FRESH_SECONDS`).
pub(crate) async fn build_week(
    state: &AppState,
    league: &League,
    monday: NaiveDate,
) -> Result<Arc<RoundUpView>> {
    let (_, _, to) = league.time_zone.week(monday);
    let now = Utc::now();
    let minute = if to > now {
        now.timestamp() / i64::try_from(FRESH_SECONDS).unwrap_or(60)
    } else {
        0
    };
    Ok(crate::app::read::round_up::round_up(
        state.db(),
        state.round_ups(),
        state.kept_results(),
        league,
        monday,
        minute,
    )
    .await?)
}

/// The round-up as plain text to copy (and to email).
pub(crate) fn text(league: &League, week: &RoundUpView) -> Result<String> {
    text_of(league, &week.week, &shown(league, week), &week.feats)
}

fn text_of(
    league: &League,
    week: &str,
    divisions: &[DivisionWeek],
    feats: &[FeatGroup],
) -> Result<String> {
    RoundUpText {
        league,
        week,
        divisions,
        feats,
    }
    .render()
    .map_err(|e| AppError::Internal(format!("the round-up's text: {e}")))
}

/// The week's divisions and cups with their links.
fn shown(league: &League, week: &RoundUpView) -> Vec<DivisionWeek> {
    week.divisions
        .iter()
        .map(|d| DivisionWeek {
            division: Link::new(
                d.name.clone(),
                match d.cup_id {
                    Some(cup) => cup_href(league, CupId(cup), &d.name),
                    None => division_href(league, &d.season, &d.name),
                },
            ),
            results: d
                .results
                .iter()
                .map(|r| ResultLine {
                    text: r.text.clone(),
                    href: match_href(league, FixtureId(r.fixture_id)),
                    note: r.note.clone(),
                })
                .collect(),
            leaders: d.leaders.clone(),
        })
        .collect()
}
