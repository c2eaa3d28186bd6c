//! After a card is in: the other captain confirms or disputes, a secretary
//! approves, corrects, restores an earlier version, or records a walkover or
//! a void fixture. Every change is a new version or an audited change.

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::{
    DbError, FixtureChange, FixtureStatus, ResultStatus, ResultVersion, RoleKind, Side, UserId,
};

use super::super::AppState;
use super::super::csrf::CsrfForm;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{FixtureAccess, Standing};

#[derive(Deserialize)]
pub struct NoteForm {
    #[serde(default)]
    note: String,
    /// The version the form showed: approving refuses when a newer one
    /// has been entered since.
    #[serde(default)]
    version: Option<String>,
    /// `approvals`: go back to the list of results awaiting approval.
    #[serde(default)]
    back: String,
}

#[derive(Deserialize)]
pub struct VersionForm {
    #[serde(default)]
    version: String,
}

#[derive(Deserialize)]
pub struct WalkoverForm {
    #[serde(default)]
    conceded_by: String,
}

/// The current version, or a clear refusal when there is none.
async fn current(state: &AppState, access: &FixtureAccess) -> Result<ResultVersion> {
    state
        .db()
        .result_versions(access.league.id, access.fixture.id)
        .await?
        .pop()
        .ok_or_else(|| AppError::BadRequest("This match has no result yet.".into()))
}

/// Only the captain of the team that did not enter the result may confirm
/// or dispute it.
async fn check_other_captain(
    state: &AppState,
    access: &FixtureAccess,
    version: &ResultVersion,
) -> Result<()> {
    let team = match access.standing {
        Standing::HomeCaptain => access.home.id,
        Standing::AwayCaptain => access.away.id,
        Standing::Secretary => {
            return Err(AppError::Forbidden(
                "A secretary approves results; confirming is for the other captain.".into(),
            ));
        }
    };
    if let Some(by) = version.created_by {
        let same_team = by == access.user.id
            || state.db().user_roles(by).await?.iter().any(|r| {
                r.kind == RoleKind::Captain
                    && r.season_id == Some(access.fixture.season_id)
                    && r.team_id == Some(team)
            });
        if same_team {
            return Err(AppError::Forbidden(
                "Your team entered this result: the other captain confirms or disputes it.".into(),
            ));
        }
    }
    Ok(())
}

pub async fn confirm(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(_): CsrfForm<NoteForm>,
) -> Result<Response> {
    let version = current(&state, &access).await?;
    check_other_captain(&state, &access, &version).await?;
    if version.status != ResultStatus::Entered {
        return Err(AppError::BadRequest(format!(
            "This result is {}; only an entered result can be confirmed.",
            version.status
        )));
    }
    let settings = access.season.settings().map_err(AppError::Internal)?;
    let (status, note) = if settings.approve_on_confirmation {
        (ResultStatus::Approved, "approved on confirmation")
    } else {
        (ResultStatus::Confirmed, "")
    };
    state
        .db()
        .set_result_status(
            access.league.id,
            access.fixture.id,
            status,
            note,
            Some(access.user.id),
        )
        .await?;
    Ok(Redirect::to(&access.path("")).into_response())
}

pub async fn dispute(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<NoteForm>,
) -> Result<Response> {
    let version = current(&state, &access).await?;
    check_other_captain(&state, &access, &version).await?;
    let note = form.note.trim();
    if note.is_empty() {
        return Err(AppError::BadRequest(
            "Say what is wrong with the result: a dispute needs a note.".into(),
        ));
    }
    if version.status == ResultStatus::Approved {
        return Err(AppError::BadRequest(
            "This result is approved already; ask a secretary to correct it.".into(),
        ));
    }
    state
        .db()
        .set_result_status(
            access.league.id,
            access.fixture.id,
            ResultStatus::Disputed,
            &note.chars().take(2000).collect::<String>(),
            Some(access.user.id),
        )
        .await?;
    Ok(Redirect::to(&access.path("")).into_response())
}

fn secretary_only(access: &FixtureAccess, what: &str) -> Result<()> {
    if access.is_secretary() {
        Ok(())
    } else {
        Err(AppError::Forbidden(format!("Only a secretary may {what}.")))
    }
}

pub async fn approve(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<NoteForm>,
) -> Result<Response> {
    secretary_only(&access, "approve a result")?;
    let version = current(&state, &access).await?;
    if let Some(shown) = form.version.as_deref().map(str::trim)
        && shown != version.version.to_string()
    {
        return Err(AppError::Db(DbError::Conflict(format!(
            "version {} of this result was entered after the version {shown} you saw: \
             check it on the match page, then approve",
            version.version
        ))));
    }
    state
        .db()
        .set_result_status(
            access.league.id,
            access.fixture.id,
            ResultStatus::Approved,
            form.note.trim(),
            Some(access.user.id),
        )
        .await?;
    if form.back == "approvals" {
        let list = format!("/leagues/{}/console/approvals", access.league.short_name);
        return Ok(Redirect::to(&list).into_response());
    }
    Ok(Redirect::to(&access.path("")).into_response())
}

pub async fn restore(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<VersionForm>,
) -> Result<Response> {
    secretary_only(&access, "restore an earlier version")?;
    let n: i64 = form
        .version
        .trim()
        .parse()
        .map_err(|_| AppError::BadRequest("Choose the version to restore.".into()))?;
    state
        .db()
        .restore_result(access.league.id, access.fixture.id, n, Some(access.user.id))
        .await?;
    Ok(Redirect::to(&access.path("/history")).into_response())
}

/// A fixture's new status, everything else as it was; audited by the db.
async fn set_status(
    state: &AppState,
    access: &FixtureAccess,
    status: FixtureStatus,
    conceded_by: Option<Side>,
) -> Result<()> {
    let change = FixtureChange {
        status,
        conceded_by,
        ..FixtureChange::from(&access.fixture)
    };
    state
        .db()
        .update_fixture(
            access.league.id,
            access.fixture.id,
            &change,
            Some(access.user.id),
        )
        .await?;
    Ok(())
}

pub async fn walkover(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<WalkoverForm>,
) -> Result<Response> {
    secretary_only(&access, "record a walkover")?;
    let side = match form.conceded_by.as_str() {
        "home" => Side::Home,
        "away" => Side::Away,
        _ => {
            return Err(AppError::BadRequest(
                "Say which team conceded: home or away.".into(),
            ));
        }
    };
    set_status(&state, &access, FixtureStatus::Walkover, Some(side)).await?;
    Ok(Redirect::to(&access.path("")).into_response())
}

pub async fn void(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(_): CsrfForm<NoteForm>,
) -> Result<Response> {
    secretary_only(&access, "void a fixture")?;
    set_status(&state, &access, FixtureStatus::Void, None).await?;
    Ok(Redirect::to(&access.path("")).into_response())
}

#[derive(Template)]
#[template(path = "results/history.html")]
struct HistoryPage {
    ctx: Ctx,
    title: String,
    match_path: String,
    card_path: String,
    base: String,
    versions: Vec<VersionView>,
    secretary: bool,
    captain: bool,
    notice: Option<String>,
    current_status: String,
    fixture_status: String,
}

struct VersionView {
    version: i64,
    status: String,
    note: String,
    by: String,
    at: String,
    restored_from: Option<i64>,
    current: bool,
}

/// The result's versions, newest first, with the workflow's buttons for
/// whoever may press them.
#[derive(Deserialize)]
pub struct HistoryQuery {
    /// `pad`: the result was just submitted from the score pads.
    submitted: Option<String>,
}

pub async fn history(
    State(state): State<AppState>,
    access: FixtureAccess,
    axum::extract::Query(q): axum::extract::Query<HistoryQuery>,
) -> Result<Response> {
    let db = state.db();
    let versions = db
        .result_versions(access.league.id, access.fixture.id)
        .await?;
    let ids: Vec<UserId> = versions.iter().filter_map(|v| v.created_by).collect();
    let names = db.usernames(&ids).await?;
    let last = versions.last().map(|v| v.version);
    let current_status = versions
        .last()
        .map_or_else(|| "no result yet".to_owned(), |v| v.status.to_string());
    let views = versions
        .iter()
        .rev()
        .map(|v| VersionView {
            version: v.version,
            status: v.status.to_string(),
            note: v.status_note.clone(),
            by: v
                .created_by
                .and_then(|u| names.get(&u).cloned())
                .unwrap_or_else(|| "—".into()),
            at: crate::web::dates::stamp(access.league.time_zone, v.created_at),
            restored_from: v.restored_from,
            current: Some(v.version) == last,
        })
        .collect();
    Ok(html(&HistoryPage {
        ctx: access.user.ctx(),
        title: format!("{} v {}", access.home.name, access.away.name),
        match_path: access.path(""),
        card_path: access.path("/card"),
        base: access.path(""),
        versions: views,
        secretary: access.is_secretary(),
        captain: !access.is_secretary(),
        notice: match (q.submitted.as_deref(), versions.last()) {
            (Some("pad"), Some(v)) => Some(format!(
                "Saved: the result from the score pads, as version {}, {}.{}",
                v.version,
                v.status,
                if access.is_secretary() {
                    ""
                } else {
                    " The other captain can confirm or dispute it here, on this phone or their own."
                }
            )),
            _ => None,
        },
        current_status,
        fixture_status: access.fixture.status.to_string(),
    }))
}
