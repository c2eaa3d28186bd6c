//! Results awaiting approval: every fixture of the league whose current
//! result is entered, confirmed or disputed, oldest first, each approved
//! from here with one button (the version shown, so a correction entered
//! since is not approved unseen).

use crate::app::formats::{match_formats, scores_by_season};
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;

use crate::db::pages::FixtureScope;
use crate::db::{FixtureId, League, PenaltyKindId, ResultStatus};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::dates;
use crate::web::error::Result;
use crate::web::page::{Ctx, html};
use chrono::Utc;

use super::PREFIX;

pub fn router() -> Routes {
    Routes::new().league(&format!("{PREFIX}/approvals"), get(approvals))
}

struct Row {
    fixture: FixtureId,
    version: i64,
    entered: String,
    by: String,
    division: String,
    home: String,
    away: String,
    /// "6-3" in boards, or empty when no board is decided.
    boards: String,
    /// Where it stands, naming who confirmed or disputed it.
    status: String,
    /// The status as the approval form sends it back.
    state: &'static str,
    note: String,
}

/// A late result's proposed penalty.
struct LateRow {
    fixture: FixtureId,
    played: String,
    days: u32,
    home: String,
    away: String,
    kind: PenaltyKindId,
    kind_name: String,
}

#[derive(Template)]
#[template(path = "console/approvals.html")]
struct ApprovalsPage {
    ctx: Ctx,
    league: League,
    rows: Vec<Row>,
    /// Fixtures late by the league's rule, not yet penalised.
    late: Vec<LateRow>,
    /// Whether the league has a late-result rule at all.
    late_rule: bool,
    /// What was just approved from here.
    notice: Option<String>,
}

/// `?approved=FIXTURE&version=N`: what was just approved from this list.
#[derive(serde::Deserialize)]
struct Approved {
    approved: Option<i64>,
    version: Option<i64>,
}

/// Where a pending result stands, naming who took its last step (the
/// captain who confirmed or disputed it, not the one who entered it).
fn status_words(p: &crate::db::approvals::PendingVersion) -> String {
    let by = match (&p.status_by_name, p.status_by) {
        (Some(name), _) => format!(" by {name}"),
        (None, Some(_)) => " by a removed account".to_owned(),
        (None, None) => String::new(),
    };
    match p.status {
        ResultStatus::Entered => "entered, not yet confirmed".to_owned(),
        ResultStatus::Confirmed => format!("confirmed{by}"),
        ResultStatus::Disputed => format!("disputed{by}"),
        ResultStatus::Approved => "approved".to_owned(),
    }
}

/// Five queries whatever the number of results: the pending versions,
/// their fixtures, their boards, the late results and the rule.
async fn approvals(
    sec: Secretary,
    State(state): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<Approved>,
) -> Result<Response> {
    let db = state.db();
    let league = &sec.league;
    let pending = db.pending_versions(league.id).await?;
    let scope = FixtureScope::Ids(pending.iter().map(|p| p.fixture_id).collect());
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let seasons = db.seasons(league.id).await?;
    let scores = scores_by_season(&lines, &boards, &match_formats(&seasons)?);
    let zone = league.time_zone;
    let rows = pending
        .iter()
        .filter_map(|p| {
            let line = lines.iter().find(|l| l.id == p.fixture_id)?;
            Some(Row {
                fixture: p.fixture_id,
                version: p.version,
                entered: dates::stamp(zone, p.created_at),
                by: p.entered_by.clone().unwrap_or_default(),
                division: line.competition.clone(),
                home: line.home_label(),
                away: line.away_label(),
                boards: scores
                    .get(&p.fixture_id)
                    .map(|s| format!("{}-{}", s.boards[0], s.boards[1]))
                    .unwrap_or_default(),
                status: status_words(p),
                state: p.status.as_str(),
                note: p.status_note.clone(),
            })
        })
        .collect();
    let late = db
        .late_results(Some(league.id), Utc::now())
        .await?
        .into_iter()
        .map(|l| LateRow {
            fixture: l.fixture.id,
            played: l
                .fixture
                .starts_at
                .map(|t| dates::day(zone, t))
                .unwrap_or_default(),
            days: l.days_late,
            home: l.fixture.home,
            away: l.fixture.away,
            kind: l.kind_id,
            kind_name: l.kind_name,
        })
        .collect();
    let late_rule = db.late_result_rule(league.id).await?.is_some();
    let notice = match (q.approved, q.version) {
        (Some(fixture), Some(version)) => {
            let line = db
                .fixture_lines(league.id, &FixtureScope::One(FixtureId(fixture)))
                .await?;
            line.first().map(|l| {
                format!(
                    "Approved version {version} of {} v {}: it counts in the tables.",
                    l.home_label(),
                    l.away_label()
                )
            })
        }
        _ => None,
    };
    Ok(html(&ApprovalsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        rows,
        late,
        late_rule,
        notice,
    }))
}
