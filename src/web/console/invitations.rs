//! Invitations waiting to be taken up (issue 39): each one stays listed on
//! its team's page and on the users page, with its link to copy, until the
//! person makes their account; from there the secretary emails it again
//! (to the address it has, or another) or revokes it, and this page shows
//! one invitation, where an address is typed.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::app::invitation_links;
use crate::db::invitations::Waiting;
use crate::db::{League, SeasonId, TeamId};
use crate::league::time::Zone;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::{CsrfForm, random_token};
use crate::web::dates;
use crate::web::error::{AppError, Result};
use crate::web::links;
use crate::web::page::Ctx;
use crate::web::routes::Routes;

use super::PREFIX;
use super::captains::invitation_link;
use super::form::{self, Errors};

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/invitations/{{invitation}}"), get(show))
        .league(
            &format!("{PREFIX}/invitations/{{invitation}}/resend"),
            post(resend),
        )
        .league(
            &format!("{PREFIX}/invitations/{{invitation}}/revoke"),
            post(revoke),
        )
}

/// One waiting invitation as the lists and its page show it.
pub struct InvitationView {
    pub id: i64,
    /// The player's name, or the username suggested.
    pub who: String,
    /// "captain of Crown A (2026/27)", "player".
    pub role: String,
    pub email: Option<String>,
    /// The whole link, to copy; `None` for one made before links were
    /// kept (resending makes a new one).
    pub link: Option<String>,
    /// Emailed or not, and until when it works, in words.
    pub state: String,
}

/// The views of `list`, links on the site the request came to.
pub fn views(
    list: Vec<Waiting>,
    headers: &HeaderMap,
    zone: Zone,
    at: DateTime<Utc>,
) -> Vec<InvitationView> {
    list.into_iter()
        .map(|w| {
            let until = dates::day(zone, w.expires_at);
            let state = if w.expires_at <= at {
                format!("expired {until}: resend it to renew it")
            } else {
                match w.sent_at {
                    Some(sent) => {
                        format!("emailed {}; works until {until}", dates::day(zone, sent))
                    }
                    None => format!("not emailed; works until {until}"),
                }
            };
            let role = match (&w.team_name, &w.season_name) {
                (Some(team), Some(season)) if w.kind == "captain" => {
                    format!("captain of {team} ({season})")
                }
                _ => "player: their own record".to_owned(),
            };
            InvitationView {
                id: w.id,
                who: w.who().to_owned(),
                role,
                email: w.email.clone(),
                link: w.token.as_deref().map(|t| invitation_link(headers, t)),
                state,
            }
        })
        .collect()
}

/// Where a list's buttons come back to: the users page, or a team's
/// season page (`team-TEAM-SEASON`).
fn back(league: &League, back: &str) -> String {
    let console = links::at(league).console();
    let team = back.strip_prefix("team-").and_then(|rest| {
        let (team, season) = rest.split_once('-')?;
        Some((TeamId(team.parse().ok()?), SeasonId(season.parse().ok()?)))
    });
    match team {
        Some((team, season)) => console.team(team).season(season).to_string(),
        None => format!("{}#invitations", console.users()),
    }
}

/// A button pressed twice, or a list older than the records.
const GONE: &str = "That invitation was taken up or revoked already: nothing was done.";

#[derive(Template)]
#[template(path = "console/invitation.html")]
struct InvitationPage {
    ctx: Ctx,
    league: League,
    invitation: InvitationView,
    /// The address typed, shown again with its error.
    email: String,
    back: String,
    errors: Errors,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ResendForm {
    /// Another address, or empty for the one it has.
    email: String,
    back: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RevokeForm {
    back: String,
}

async fn waiting(state: &AppState, league: &League, id: i64) -> Result<Waiting> {
    state
        .db()
        .waiting_invitation(league.id, id)
        .await?
        .ok_or_else(|| {
            AppError::NotFound("An invitation waiting to be taken up with this number".into())
        })
}

async fn invitation_page(
    state: &AppState,
    sec: Secretary,
    headers: &HeaderMap,
    id: i64,
    email: String,
    back: String,
    errors: Errors,
) -> Result<Response> {
    let w = waiting(state, &sec.league, id).await?;
    let invitation = views(vec![w], headers, sec.league.time_zone, Utc::now())
        .pop()
        .ok_or_else(|| AppError::NotFound("This invitation".into()))?;
    let page = InvitationPage {
        ctx: sec.user.ctx(),
        email: if email.is_empty() {
            invitation.email.clone().unwrap_or_default()
        } else {
            email
        },
        league: sec.league,
        invitation,
        back,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((_, id)): Path<(String, i64)>,
) -> Result<Response> {
    invitation_page(
        &state,
        sec,
        &headers,
        id,
        String::new(),
        "users".into(),
        Errors::default(),
    )
    .await
}

/// Emails the invitation again: the same link (a new one for an old
/// invitation that kept none), good for a fortnight from now.
async fn resend(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((_, id)): Path<(String, i64)>,
    CsrfForm(input): CsrfForm<ResendForm>,
) -> Result<Response> {
    let to = back(&sec.league, &input.back);
    let Some(w) = state.db().waiting_invitation(sec.league.id, id).await? else {
        return Ok(form::done(&to, GONE));
    };
    let typed = input.email.trim().to_owned();
    let mut errors = Errors::default();
    if !typed.is_empty() {
        if let Some(why) = crate::domain::email::check_email(&typed) {
            errors.add("email", why);
        }
    } else if w.email.is_none() && w.token.is_some() {
        errors.add(
            "email",
            "Give the address to email the link to (or copy the link and send it yourself).",
        );
    }
    if !errors.is_empty() {
        return invitation_page(&state, sec, &headers, id, typed, input.back, errors).await;
    }
    let resent = invitation_links::resend(
        state.db(),
        state.mail(),
        &sec.league,
        id,
        Some(typed.as_str()).filter(|t| !t.is_empty()),
        random_token(),
        Some(sec.user.id),
    )
    .await?;
    let said = match resent {
        None => format!(
            "The invitation of {} was taken up or revoked meanwhile: nothing was sent.",
            w.who()
        ),
        Some(r) => {
            let sent = match &r.email {
                Some(address) => format!("emailed again to {address}"),
                None => "renewed (not emailed: copy the link below)".to_owned(),
            };
            format!(
                "The invitation of {} was {sent}; it works for {} days from now{}.",
                w.who(),
                crate::db::invitations::VALID_DAYS,
                if r.new_link {
                    ", with a new link: the old one no longer works"
                } else {
                    ", with the same link"
                }
            )
        }
    };
    Ok(form::done(&to, said))
}

/// Revokes the invitation: its link stops working at once.
async fn revoke(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, i64)>,
    CsrfForm(input): CsrfForm<RevokeForm>,
) -> Result<Response> {
    let to = back(&sec.league, &input.back);
    let Some(w) = state.db().waiting_invitation(sec.league.id, id).await? else {
        return Ok(form::done(&to, GONE));
    };
    let said = if invitation_links::revoke(state.db(), &sec.league, id, Some(sec.user.id)).await? {
        format!(
            "The invitation of {} is revoked: its link no longer works.",
            w.who()
        )
    } else {
        format!(
            "The invitation of {} was taken up or revoked meanwhile.",
            w.who()
        )
    };
    Ok(form::done(&to, said))
}
