//! After a card is in: the other captain confirms or disputes, a secretary
//! approves, corrects, restores an earlier version, or records a walkover or
//! a void fixture. Every change is a new version or an audited change.

use crate::web::links::{self, Address, MatchAt};
use std::collections::HashMap;

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::{
    DbError, FixtureStatus, PlayerId, ResultStatus, ResultVersion, Side, StoredResult, UserId,
};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::board_tally;
use crate::league::workflow::Refusal;

use super::super::AppState;
use super::super::csrf::CsrfForm;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{FixtureAccess, Standing};

#[derive(Deserialize)]
pub struct NoteForm {
    #[serde(default)]
    note: String,
    /// The version the form showed: the step acts on it, or on nothing
    /// when a newer one has been entered since.
    #[serde(default)]
    version: String,
    /// `approvals`: go back to the list of results awaiting approval.
    #[serde(default)]
    back: String,
    /// The state the version was in as the form showed it (an approval
    /// acts on the number and the state seen).
    #[serde(default)]
    status: String,
}

#[derive(Deserialize)]
pub struct RestoreForm {
    /// The version to restore.
    #[serde(default)]
    version: String,
    /// The current version the history page showed.
    #[serde(default)]
    current: String,
}

#[derive(Deserialize)]
pub struct WalkoverForm {
    #[serde(default)]
    conceded_by: String,
}

/// The version a form says its user saw.
fn shown(field: &str) -> Result<i64> {
    field.trim().parse().map_err(|_| {
        AppError::BadRequest(
            "This form did not say which version of the result you saw: reload the page and try again. Nothing was saved."
                .into(),
        )
    })
}

/// Where a step's page goes next: the history, saying what was saved.
fn saved(access: &FixtureAccess, what: &str, version: i64) -> Response {
    Redirect::to(&format!(
        "{}?saved={what}&version={version}",
        access.at().history()
    ))
    .into_response()
}

/// A step refused: a stale version gets 409 and the history page with the
/// version now current, to act on; anything else its error page.
async fn refused(state: &AppState, access: &FixtureAccess, e: DbError) -> Result<Response> {
    match e {
        DbError::Refused(Refusal::Stale { shown, current }) => {
            let verb = if access.is_secretary() {
                "approve"
            } else {
                "confirm or dispute"
            };
            let notice = format!(
                "Not saved: version {current} of this result was entered after version {shown}, the one you saw. \
                 Here is version {current}: check it, then {verb} it."
            );
            let page = history_page(state, access, Some((notice, true))).await?;
            Ok((StatusCode::CONFLICT, html(&page)).into_response())
        }
        other => Err(access.refused(other)),
    }
}

pub async fn confirm(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<NoteForm>,
) -> Result<Response> {
    let shown = shown(&form.version)?;
    match crate::app::results::confirm(
        state.db(),
        access.league.id,
        access.fixture.id,
        shown,
        access.actor(),
    )
    .await
    {
        Ok(v) => Ok(saved(&access, "confirmed", v.version)),
        Err(e) => refused(&state, &access, e).await,
    }
}

pub async fn dispute(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<NoteForm>,
) -> Result<Response> {
    let shown = shown(&form.version)?;
    match crate::app::results::dispute(
        state.db(),
        access.league.id,
        access.fixture.id,
        shown,
        &form.note,
        access.actor(),
    )
    .await
    {
        Ok(v) => Ok(saved(&access, "disputed", v.version)),
        Err(e) => refused(&state, &access, e).await,
    }
}

pub async fn approve(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<NoteForm>,
) -> Result<Response> {
    let shown = shown(&form.version)?;
    let shown_status = form.status.trim().parse::<crate::db::ResultStatus>().ok();
    match crate::app::results::approve(
        state.db(),
        access.league.id,
        access.fixture.id,
        shown,
        shown_status,
        &form.note,
        access.actor(),
    )
    .await
    {
        Ok(v) if form.back == "approvals" => {
            let list = format!(
                "{}?approved={}&version={}",
                links::at(&access.league).console().approvals(),
                access.fixture.id,
                v.version
            );
            Ok(Redirect::to(&list).into_response())
        }
        Ok(v) => Ok(saved(&access, "approved", v.version)),
        Err(e) => refused(&state, &access, e).await,
    }
}

pub async fn restore(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<RestoreForm>,
) -> Result<Response> {
    if !access.is_secretary() {
        return Err(AppError::Forbidden(
            "Only a secretary may restore an earlier version.".into(),
        ));
    }
    let n: i64 = form
        .version
        .trim()
        .parse()
        .map_err(|_| AppError::BadRequest("Choose the version to restore.".into()))?;
    let current = shown(&form.current)?;
    match crate::app::results::restore(
        state.db(),
        access.league.id,
        access.fixture.id,
        n,
        current,
        access.actor(),
    )
    .await
    {
        Ok(v) => Ok(saved(&access, "restored", v.version)),
        Err(e) => refused(&state, &access, e).await,
    }
}

pub async fn walkover(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<WalkoverForm>,
) -> Result<Response> {
    let side = match form.conceded_by.as_str() {
        "home" => Side::Home,
        "away" => Side::Away,
        _ => {
            return Err(AppError::BadRequest(
                "Say which team conceded: home or away.".into(),
            ));
        }
    };
    crate::app::results::walkover(
        state.db(),
        access.league.id,
        access.fixture.id,
        side,
        access.actor(),
    )
    .await
    .map_err(|e| access.refused(e))?;
    super::tell_followers(&state, &access).await;
    Ok(Redirect::to(&format!("{}?saved=walkover_{side}", access.at().history())).into_response())
}

pub async fn void(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(_): CsrfForm<NoteForm>,
) -> Result<Response> {
    crate::app::results::void(
        state.db(),
        access.league.id,
        access.fixture.id,
        access.actor(),
    )
    .await
    .map_err(|e| access.refused(e))?;
    super::tell_followers(&state, &access).await;
    Ok(Redirect::to(&format!("{}?saved=void", access.at().history())).into_response())
}

pub async fn reinstate(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(_): CsrfForm<NoteForm>,
) -> Result<Response> {
    crate::app::results::reinstate(
        state.db(),
        access.league.id,
        access.fixture.id,
        access.actor(),
    )
    .await
    .map_err(|e| access.refused(e))?;
    super::tell_followers(&state, &access).await;
    Ok(Redirect::to(&format!("{}?saved=reinstated", access.at().history())).into_response())
}

#[derive(Template)]
#[template(path = "results/history.html")]
struct HistoryPage {
    ctx: Ctx,
    title: String,
    /// The match's page, and its result's actions under it.
    at: Address<MatchAt>,
    versions: Vec<VersionView>,
    secretary: bool,
    captain: bool,
    notice: Option<String>,
    /// The notice is a refusal.
    notice_error: bool,
    current: Option<Summary>,
    current_status: String,
    fixture_status: String,
    /// A walkover or a void, which a secretary may take back.
    reinstatable: bool,
    /// For the secretary: the current version's breaches of the line-up
    /// rule (stored before the rule, or by a looser format), in words.
    /// Shown, not changed.
    lineup: Vec<String>,
    /// The captain's steps on the current version: only those the
    /// workflow would take from them.
    offered: crate::app::results::Offered,
    /// For a captain with no step to take: what the result waits on.
    waiting: Option<String>,
    /// The captain's team entered the version the other team disputed:
    /// they correct it on the card.
    correct: bool,
}

struct VersionView {
    version: i64,
    status: String,
    /// Who set the status, when and with what note ("disputed by ... :
    /// note"), or the note alone.
    status_line: String,
    by: String,
    at: String,
    restored_from: Option<i64>,
    current: bool,
}

/// What the current version says, board by board: what a captain
/// confirms or disputes and a secretary approves.
pub(crate) struct Summary {
    pub version: i64,
    pub status: String,
    pub entered_by: String,
    pub entered_at: String,
    /// Boards won, home first: `2-1`.
    pub boards_won: String,
    pub boards: Vec<BoardSummary>,
}

pub(crate) struct BoardSummary {
    pub number: usize,
    pub kind: String,
    pub home: String,
    pub away: String,
    /// Games won, home first.
    pub games_won: String,
    /// Each game's score, home first: `61-47, 40-61`.
    pub scores: String,
    pub winner: String,
}

/// The result's versions, newest first, with the workflow's buttons for
/// whoever may press them.
#[derive(Deserialize)]
pub struct HistoryQuery {
    /// `pad`: the result was just submitted from the score pads.
    submitted: Option<String>,
    /// What was just saved: `submitted`, `confirmed`, `disputed`,
    /// `approved`, `restored`, `walkover_home`, `walkover_away`, `void`,
    /// `reinstated`.
    saved: Option<String>,
    /// The version it was saved as.
    version: Option<i64>,
}

/// `version`, board by board, for the people who confirm and approve it.
pub(crate) fn summary(
    stored: &StoredResult,
    format: &MatchFormat,
    players: &HashMap<PlayerId, String>,
    names: &HashMap<UserId, String>,
    zone: crate::league::time::Zone,
) -> Summary {
    let name = |id: &PlayerId| {
        players
            .get(id)
            .cloned()
            .unwrap_or_else(|| format!("player {id}"))
    };
    let mut boards_won = [0, 0];
    let boards = stored
        .result
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let home_names: Vec<String> = b.home.iter().map(name).collect();
            let mut won = [0, 0];
            let mut scores = Vec::new();
            if let Some(side) = b.conceded_by {
                scores.push(
                    match side {
                        Side::Home => "not played, home conceded",
                        Side::Away => "not played, away conceded",
                    }
                    .to_owned(),
                );
            }
            for g in &b.games {
                // The record's side 0 is home when it holds a home player.
                let home_first = g
                    .record
                    .sides
                    .first()
                    .is_some_and(|s| s.iter().any(|p| home_names.contains(p)));
                let (h, a) = if home_first { (0, 1) } else { (1, 0) };
                match &g.outcome {
                    Some(o) => {
                        let only = if g.score_only {
                            " (final score only)"
                        } else {
                            ""
                        };
                        scores.push(format!("{}-{}{only}", o.totals[h], o.totals[a]));
                        if o.finished {
                            match o.winner {
                                Some(w) if w == h => won[0] += 1,
                                Some(_) => won[1] += 1,
                                None => {}
                            }
                        }
                    }
                    None => scores.push("not scored".into()),
                }
            }
            // As the tables count it: the games the board needs.
            let tally = board_tally(format, i + 1, b.conceded_by, won);
            let won = tally.games;
            if let Some(side) = tally.winner {
                boards_won[side] += 1;
            }
            let winner = match tally.winner {
                Some(0) => "home",
                Some(_) => "away",
                None => "",
            };
            BoardSummary {
                number: i + 1,
                kind: b.kind.to_string(),
                home: home_names.join(" & "),
                away: b.away.iter().map(name).collect::<Vec<_>>().join(" & "),
                games_won: format!("{}-{}", won[0], won[1]),
                scores: scores.join(", "),
                winner: winner.to_owned(),
            }
        })
        .collect();
    let v = &stored.version;
    Summary {
        version: v.version,
        status: v.status.to_string(),
        entered_by: v
            .created_by
            .and_then(|u| names.get(&u).cloned())
            .unwrap_or_else(|| "—".into()),
        entered_at: crate::web::dates::stamp(zone, v.created_at),
        boards_won: format!("{}-{}", boards_won[0], boards_won[1]),
        boards,
    }
}

/// Who set a version's status, when, with its note.
fn status_line(
    v: &ResultVersion,
    names: &HashMap<UserId, String>,
    zone: crate::league::time::Zone,
) -> String {
    let who = v.status_by.and_then(|u| names.get(&u).cloned());
    let mut line = match (v.status, &who, v.status_at) {
        (ResultStatus::Entered, _, _) | (_, None, _) | (_, _, None) => String::new(),
        (status, Some(who), Some(at)) => {
            format!("{status} by {who}, {}", crate::web::dates::stamp(zone, at))
        }
    };
    if !v.status_note.is_empty() {
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&format!("“{}”", v.status_note));
    }
    line
}

/// The other captain's dispute of `version`, to show on the card opened
/// to correct it: who disputed it, when, and their note.
pub(crate) async fn dispute_note(
    state: &AppState,
    access: &FixtureAccess,
    version: &ResultVersion,
) -> Result<Option<String>> {
    if version.status != ResultStatus::Disputed {
        return Ok(None);
    }
    let who = match version.status_by {
        Some(u) => state.db().usernames(&[u]).await?.remove(&u),
        None => None,
    };
    let when = version
        .status_at
        .map(|t| format!(", {}", crate::web::dates::stamp(access.league.time_zone, t)))
        .unwrap_or_default();
    Ok(Some(format!(
        "Version {} is disputed{}{when}: “{}”. Correct the card and submit it: it is stored as a new version for the other captain to confirm.",
        version.version,
        who.map(|w| format!(" by {w}")).unwrap_or_default(),
        version.status_note
    )))
}

/// The team on the other side from the captain acting.
fn other_side(access: &FixtureAccess) -> &str {
    match access.standing {
        Standing::HomeCaptain => &access.names[1],
        _ => &access.names[0],
    }
}

/// What version `n`, in `status`, waits on, for a captain not asked to
/// confirm it: `ours` when their team entered it.
fn waiting_words(n: i64, status: ResultStatus, other: &str, ours: bool) -> String {
    match status {
        ResultStatus::Entered if ours => format!(
            "Waiting for the other captain ({other}) to confirm or dispute version {n}: it is the first thing on their home page."
        ),
        ResultStatus::Entered => format!("Version {n} is entered."),
        ResultStatus::Confirmed => {
            format!("Version {n} is confirmed: a secretary approves it next.")
        }
        ResultStatus::Disputed if ours => format!(
            "{other} disputed version {n}: correct it on the match card, and it goes back to them to confirm."
        ),
        ResultStatus::Disputed => format!(
            "Version {n} is disputed: {other}'s captain corrects it on the match card, or a secretary settles it."
        ),
        ResultStatus::Approved => format!("Version {n} is approved: it counts in the tables."),
    }
}

/// What was just saved, in words.
fn saved_notice(
    access: &FixtureAccess,
    q: &HistoryQuery,
    current: Option<&ResultVersion>,
) -> Option<String> {
    let saved = q.saved.as_deref()?;
    // Walkovers, voids and reinstatements are of the fixture: said even
    // when it has no result.
    match saved {
        "walkover_home" => {
            return Some(format!("Walkover recorded: {} conceded.", access.names[0]));
        }
        "walkover_away" => {
            return Some(format!("Walkover recorded: {} conceded.", access.names[1]));
        }
        "void" => return Some("The fixture is void: it and its result count nowhere.".into()),
        "reinstated" => {
            return Some(match access.fixture.status {
                FixtureStatus::Played => {
                    "Reinstated: the fixture is played and its result counts again.".into()
                }
                _ => "Reinstated: the fixture is to be played, and a result can be entered.".into(),
            });
        }
        _ => {}
    }
    let n = q.version.or(current.map(|v| v.version))?;
    let other = other_side(access);
    Some(match saved {
        "submitted" if access.is_secretary() => {
            format!("Result submitted: version {n}, approved (entered by a secretary).")
        }
        "submitted" => format!("Result submitted: version {n}, waiting for {other} to confirm."),
        "confirmed"
            if current.is_some_and(|v| v.version == n && v.status == ResultStatus::Approved) =>
        {
            format!(
                "Confirmed version {n}: it is approved, as this season approves on confirmation."
            )
        }
        "confirmed" => format!("Confirmed version {n}: a secretary approves it next."),
        "disputed" => format!(
            "Disputed version {n}: {other} can correct the card, and a secretary sees your note."
        ),
        "approved" => format!("Approved version {n}: it counts in the tables."),
        "restored" => format!("Restored: version {n} is now the current version."),
        _ => return None,
    })
}

async fn history_page(
    state: &AppState,
    access: &FixtureAccess,
    notice: Option<(String, bool)>,
) -> Result<HistoryPage> {
    let db = state.db();
    let zone = access.league.time_zone;
    // One snapshot of the current version with its rows, then the list.
    let stored = db.result(access.league.id, access.fixture.id).await?;
    let versions = db
        .result_versions(access.league.id, access.fixture.id)
        .await?;
    let ids: Vec<UserId> = versions
        .iter()
        .flat_map(|v| [v.created_by, v.status_by])
        .flatten()
        .collect();
    let names = db.usernames(&ids).await?;
    let players: HashMap<PlayerId, String> = db
        .players(access.league.id)
        .await?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let (_, format) = crate::app::formats::fixture_rules(
        state.db(),
        &access.league,
        &access.season,
        &access.fixture,
    )
    .await?;
    let current = stored
        .as_ref()
        .map(|s| summary(s, &format, &players, &names, zone));
    let last = stored.as_ref().map(|s| s.version.version);
    let current_status = stored.as_ref().map_or_else(
        || "no result yet".to_owned(),
        |s| s.version.status.to_string(),
    );
    let views = versions
        .iter()
        .rev()
        .map(|v| VersionView {
            version: v.version,
            status: v.status.to_string(),
            status_line: status_line(v, &names, zone),
            by: v
                .created_by
                .and_then(|u| names.get(&u).cloned())
                .unwrap_or_else(|| "—".into()),
            at: crate::web::dates::stamp(zone, v.created_at),
            restored_from: v.restored_from,
            current: Some(v.version) == last,
        })
        .collect();
    let (notice, notice_error) = match notice {
        Some((n, e)) => (Some(n), e),
        None => (None, false),
    };
    let lineup = match (&stored, access.is_secretary()) {
        (Some(s), true) => {
            let boards: Vec<crate::league::lineup::BoardPlayers> = s
                .result
                .boards
                .iter()
                .enumerate()
                .filter(|(_, b)| b.conceded_by.is_none())
                .map(|(i, b)| crate::league::lineup::BoardPlayers {
                    board: i + 1,
                    kind: b.kind,
                    players: b.home.iter().chain(&b.away).map(|p| p.0).collect(),
                })
                .collect();
            crate::league::lineup::clashes(&format, &boards)
                .iter()
                .map(|c| {
                    let name = players
                        .get(&PlayerId(c.player))
                        .map_or("A player", String::as_str);
                    c.words(name)
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let offered = if access.is_secretary() {
        crate::app::results::Offered::default()
    } else {
        crate::app::results::offered(db, access.league.id, &access.fixture, access.actor()).await?
    };
    let status = stored
        .as_ref()
        .map(|s| (s.version.version, s.version.status));
    // A captain not asked to confirm is told what the result waits on; the
    // other team's captain may still dispute it until it is approved.
    let waiting = match status {
        Some((n, status)) if !access.is_secretary() && !offered.confirm => Some(waiting_words(
            n,
            status,
            other_side(access),
            !offered.dispute,
        )),
        _ => None,
    };
    Ok(HistoryPage {
        offered,
        waiting,
        correct: !offered.dispute
            && !access.is_secretary()
            && status.is_some_and(|(_, s)| s == ResultStatus::Disputed),
        lineup,
        ctx: access.user.ctx(),
        title: access.title(),
        at: access.at(),
        versions: views,
        secretary: access.is_secretary(),
        captain: !access.is_secretary(),
        notice,
        notice_error,
        current,
        current_status,
        fixture_status: access.fixture.status.to_string(),
        reinstatable: crate::league::workflow::reinstatable(access.fixture.status),
    })
}

pub async fn history(
    State(state): State<AppState>,
    access: FixtureAccess,
    axum::extract::Query(q): axum::extract::Query<HistoryQuery>,
) -> Result<Response> {
    let latest = state
        .db()
        .result_versions(access.league.id, access.fixture.id)
        .await?
        .pop();
    let notice = match (q.submitted.as_deref(), latest.as_ref()) {
        // What it waits on is said beside the steps, below.
        (Some("pad"), Some(v)) => Some(format!(
            "Saved: the result from the score pads, as version {}, {}.",
            q.version.unwrap_or(v.version),
            v.status,
        )),
        _ => saved_notice(&access, &q, latest.as_ref()),
    };
    let page = history_page(&state, &access, notice.map(|n| (n, false))).await?;
    Ok(html(&page))
}
