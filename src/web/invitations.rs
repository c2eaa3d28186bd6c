//! Taking up an invitation: the person named to a role opens the one-time
//! link, chooses a username and their own password, and is signed in with
//! the role. Whoever named them never sees the password.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use tower_sessions::Session;

use crate::db::DbError;
use crate::db::invitations::Invitation;

use super::AppState;
use super::account::{check_password, check_username, start_session};
use super::auth::{MaybeUser, hash_password};
use super::csrf::{self, CsrfForm};
use super::error::{AppError, Result};
use super::page::{Ctx, html, invalid};

pub fn router() -> Routes {
    Routes::new().route("/invitations/{token}", get(show).post(accept))
}

#[derive(Template, Default)]
#[template(path = "account/invitation.html")]
struct InvitationPage {
    ctx: Ctx,
    token: String,
    /// What the link makes the person, in words.
    role: String,
    username: String,
    username_error: Option<String>,
    password_error: Option<&'static str>,
    confirm_error: Option<&'static str>,
    /// Why the link no longer works, instead of the form.
    closed: Option<&'static str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct AcceptForm {
    username: String,
    password: String,
    confirm: String,
}

/// Tokens are 64 hex digits: anything else names no invitation.
fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

async fn find(state: &AppState, token: &str) -> Result<Invitation> {
    let unknown = || AppError::NotFound("This invitation link".into());
    if !well_formed(token) {
        return Err(unknown());
    }
    match state.db().invitation(token).await {
        Ok(i) => Ok(i),
        Err(DbError::NotFound(_)) => Err(unknown()),
        Err(e) => Err(e.into()),
    }
}

async fn role_words(state: &AppState, inv: &Invitation) -> Result<String> {
    let db = state.db();
    let league = db.league(inv.league_id).await?;
    Ok(match (inv.team_id, inv.player_id) {
        (Some(team), _) => format!(
            "captain of {} in {}",
            db.team(inv.league_id, team).await?.name,
            league.name
        ),
        (None, Some(player)) => format!(
            "{} in {}, with your own record",
            db.player(inv.league_id, player).await?.name,
            league.name
        ),
        (None, None) => format!("secretary of {}", league.name),
    })
}

const CLOSED: &str = "This link has been used or has expired. Ask whoever sent it for a new one.";

async fn show(
    State(state): State<AppState>,
    Path(token): Path<String>,
    session: Session,
    user: MaybeUser,
) -> Result<Response> {
    let inv = find(&state, &token).await?;
    let open = inv.open(crate::db::now());
    let page = InvitationPage {
        ctx: Ctx {
            csrf: csrf::token(&session).await?,
            ..user.ctx()
        },
        role: role_words(&state, &inv).await?,
        username: inv.username.clone(),
        closed: (!open).then_some(CLOSED),
        token,
        ..InvitationPage::default()
    };
    if open {
        Ok(html(&page))
    } else {
        Ok((StatusCode::GONE, html(&page)).into_response())
    }
}

async fn accept(
    State(state): State<AppState>,
    Path(token): Path<String>,
    session: Session,
    CsrfForm(form): CsrfForm<AcceptForm>,
) -> Result<Response> {
    let inv = find(&state, &token).await?;
    let username = form.username.trim().to_owned();
    let mut page = InvitationPage {
        ctx: csrf::guest_ctx(&session).await?,
        role: role_words(&state, &inv).await?,
        username_error: check_username(&username).map(str::to_owned),
        password_error: check_password(&form.password),
        confirm_error: (form.password != form.confirm).then_some("The two passwords differ."),
        username,
        token: token.clone(),
        ..InvitationPage::default()
    };
    if !inv.open(crate::db::now()) {
        page.closed = Some(CLOSED);
        return Ok((StatusCode::GONE, html(&page)).into_response());
    }
    if page.username_error.is_some()
        || page.password_error.is_some()
        || page.confirm_error.is_some()
    {
        return Ok(invalid(&page));
    }
    let hash = hash_password(form.password).await?;
    match crate::app::invitations::accept(state.db(), &token, &page.username, &hash).await {
        Ok((user, role)) => {
            start_session(&session, &user).await?;
            let league = state.db().league(inv.league_id).await?;
            let to = if role.kind == crate::db::RoleKind::Secretary {
                links::at(&league).console().to_string()
            } else {
                "/".to_owned()
            };
            Ok(super::flash::saved(
                &to,
                format!(
                    "Welcome, {}: your account is made and you are {}.",
                    user.username, page.role
                ),
            ))
        }
        Err(DbError::Unique(_)) => {
            page.username_error = Some("That username is taken: choose another.".into());
            Ok(invalid(&page))
        }
        Err(DbError::Refused(why)) => {
            page.closed = Some(CLOSED);
            tracing::info!("invitation refused: {why}");
            Ok((StatusCode::CONFLICT, html(&page)).into_response())
        }
        Err(e) => Err(e.into()),
    }
}
