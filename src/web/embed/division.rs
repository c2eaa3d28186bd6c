//! A division's table, and its latest results and next fixtures, as
//! widgets.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use chrono::Utc;
use serde::Deserialize;

use crate::app::embeds::{self, DivisionWidget};
use crate::db::{DivisionId, FixtureStatus, League, TeamId};
use crate::web::AppState;
use crate::web::auth::InLeague;
use crate::web::error::{AppError, Result};
use crate::web::links::{Link, division_at, team_href};
use crate::web::page::html;
use crate::web::public::{FixtureView, FormView, fixture_views};

use super::Look;

/// Results and fixtures the fixtures widget lists, each.
const LISTED: usize = 6;

#[derive(Deserialize)]
pub struct DivisionPath {
    division: String,
}

/// A division's id in an address: a number, or else not found.
fn division_id(p: &DivisionPath) -> Result<DivisionId> {
    p.division
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(DivisionId)
        .ok_or_else(|| AppError::NotFound(format!("The division `{}`", p.division)))
}

async fn load(state: &AppState, league: &League, p: &DivisionPath) -> Result<DivisionWidget> {
    let id = division_id(p)?;
    embeds::division(state.db(), state.kept_divisions(), league, id)
        .await
        .map_err(|e| match e {
            crate::db::DbError::NotFound(_) => {
                AppError::NotFound(format!("The division `{}`", p.division))
            }
            other => other.into(),
        })
}

#[derive(Template)]
#[template(path = "embed/table.html")]
struct TablePage {
    look: Look,
    league: League,
    title: String,
    /// The division's own page.
    href: String,
    rows: Vec<TableRow>,
    /// Results entered, not yet approved: not counted.
    pending: usize,
}

struct TableRow {
    position: usize,
    team: Link,
    played: u32,
    won: u32,
    drawn: u32,
    lost: u32,
    points: i64,
    form: FormView,
}

pub async fn table(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
    uri: Uri,
) -> Result<Response> {
    let w = load(&state, &league, &p).await?;
    let names = w.data.names();
    let rows = w
        .data
        .rows(None)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let name = names.get(&r.team).copied().unwrap_or_default();
            TableRow {
                position: i + 1,
                team: Link::new(name, team_href(&league, TeamId(r.team), name)),
                played: r.played,
                won: r.won,
                drawn: r.drawn,
                lost: r.lost,
                points: r.points,
                form: FormView::of(&w.data.form(TeamId(r.team), None)),
            }
        })
        .collect();
    let pending = w
        .data
        .fixtures
        .iter()
        .filter(|f| w.data.scores.get(&f.id).is_some_and(|s| s.provisional()))
        .count();
    Ok(html(&TablePage {
        look: Look::from_query(uri.query()),
        title: format!("{} {}", w.division.name, w.season.name),
        href: division_at(&league, &w.season.name, &w.division.name).to_string(),
        rows,
        pending,
        league,
    }))
}

#[derive(Template)]
#[template(path = "embed/fixtures.html")]
struct FixturesPage {
    look: Look,
    league: League,
    title: String,
    /// Every fixture and result of the division, on its own page.
    href: String,
    /// The latest results, newest first.
    results: Vec<FixtureView>,
    /// The next fixtures, soonest first.
    next: Vec<FixtureView>,
}

pub async fn fixtures(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
    uri: Uri,
) -> Result<Response> {
    let w = load(&state, &league, &p).await?;
    let (today, _) = league.time_zone.today(Utc::now());
    let mut done: Vec<_> = w
        .data
        .fixtures
        .iter()
        .filter(|f| f.result_status.is_some() || f.status == FixtureStatus::Walkover)
        .filter(|f| f.status != FixtureStatus::Void)
        .cloned()
        .collect();
    done.sort_by_key(|f| std::cmp::Reverse((f.starts_at, f.id)));
    done.truncate(LISTED);
    let mut next: Vec<_> = w
        .data
        .fixtures
        .iter()
        .filter(|f| f.status.is_open() && f.result_status.is_none())
        .filter(|f| f.starts_at.is_none_or(|t| t >= today))
        .cloned()
        .collect();
    next.sort_by_key(|f| (f.starts_at.is_none(), f.starts_at, f.id));
    next.truncate(LISTED);
    let seasons = std::slice::from_ref(&w.season);
    let formats = w.formats();
    let at = division_at(&league, &w.season.name, &w.division.name);
    Ok(html(&FixturesPage {
        look: Look::from_query(uri.query()),
        title: format!("{} {}", w.division.name, w.season.name),
        href: at.fixtures(),
        results: fixture_views(&league, seasons, &formats, &done, &w.data.scores),
        next: fixture_views(&league, seasons, &formats, &next, &w.data.scores),
        league,
    }))
}
