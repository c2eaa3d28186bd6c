//! The first administrator, signing in and out.

use crate::web::routes::Routes;
use askama::Template;
use axum::Extension;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tower_sessions::Session;

use super::auth::{self, ClientAddr, MaybeUser, PASSWORD_KEY, USER_KEY, password_mark};
use super::csrf::{self, CsrfForm, session_error};
use super::error::Result;
use super::page::{Ctx, html, invalid};
use super::redirect::SitePath;
use super::{AppState, Settings, throttle};

pub fn router() -> Routes {
    Routes::new()
        .route("/setup", get(setup_form).post(setup))
        .route("/sign-in", get(sign_in_form).post(sign_in))
        .route("/sign-out", post(sign_out))
}

/// Usernames: letters, digits and `. _ -`, so they read plainly in logs
/// and pages.
pub fn check_username(name: &str) -> Option<&'static str> {
    let n = name.chars().count();
    if !(3..=40).contains(&n) {
        return Some("A username has 3 to 40 characters.");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        return Some("Use letters, digits, dots, dashes and underscores only.");
    }
    None
}

/// Long passwords beat clever rules (NIST 800-63B): a minimum length, a cap
/// that keeps hashing bounded, nothing else.
pub fn check_password(password: &str) -> Option<&'static str> {
    if password.chars().count() < 10 {
        return Some("Use at least 10 characters.");
    }
    if password.len() > 256 {
        return Some("Use at most 256 characters.");
    }
    None
}

#[derive(Template, Default)]
#[template(path = "account/setup.html")]
struct SetupPage {
    ctx: Ctx,
    username: String,
    username_error: Option<&'static str>,
    password_error: Option<&'static str>,
    confirm_error: Option<&'static str>,
}

#[derive(Deserialize)]
struct SetupForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

async fn setup_form(State(state): State<AppState>, session: Session) -> Result<Response> {
    if state.db().user_count().await? > 0 {
        return Ok(Redirect::to("/").into_response());
    }
    let ctx = csrf::guest_ctx(&session).await?;
    Ok(html(&SetupPage {
        ctx,
        ..SetupPage::default()
    }))
}

async fn setup(
    State(state): State<AppState>,
    session: Session,
    CsrfForm(form): CsrfForm<SetupForm>,
) -> Result<Response> {
    if state.db().user_count().await? > 0 {
        return Ok(Redirect::to("/").into_response());
    }
    let username = form.username.trim().to_owned();
    let page = SetupPage {
        ctx: csrf::guest_ctx(&session).await?,
        username_error: check_username(&username),
        password_error: check_password(&form.password),
        confirm_error: (form.password != form.confirm).then_some("The two passwords differ."),
        username,
    };
    if page.username_error.is_some()
        || page.password_error.is_some()
        || page.confirm_error.is_some()
    {
        return Ok(invalid(&page));
    }
    let hash = auth::hash_password(form.password).await?;
    // Someone else's set-up may have come first since the check above.
    let Some(user) = state
        .db()
        .create_first_administrator(&page.username, &hash)
        .await?
    else {
        return Ok(Redirect::to("/").into_response());
    };
    start_session(&session, &user).await?;
    tracing::info!(username = %user.username, "administrator account created");
    Ok(Redirect::to("/").into_response())
}

/// A signed-in session under a new id, so an id seen before sign-in is
/// worth nothing after it; tied to the account's password as it is now,
/// so a reset or change of it ends this session (see `auth::PASSWORD_KEY`).
pub async fn start_session(session: &Session, user: &crate::db::User) -> Result<()> {
    session.cycle_id().await.map_err(session_error)?;
    session
        .insert(USER_KEY, user.id)
        .await
        .map_err(session_error)?;
    session
        .insert(PASSWORD_KEY, password_mark(&user.password_hash))
        .await
        .map_err(session_error)?;
    csrf::renew(session).await?;
    Ok(())
}

#[derive(Template, Default)]
#[template(path = "account/sign_in.html")]
struct SignInPage {
    ctx: Ctx,
    username: String,
    next: String,
    error: Option<String>,
}

#[derive(Deserialize)]
struct NextQuery {
    next: Option<String>,
}

#[derive(Deserialize)]
struct SignInForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

/// Only a checked path on this site: never `//elsewhere`, `https://...`
/// or anything a browser reads as either.
fn safe_next(next: &str) -> String {
    SitePath::or_home(next).as_str().to_owned()
}

async fn sign_in_form(
    user: MaybeUser,
    session: Session,
    Query(q): Query<NextQuery>,
) -> Result<Response> {
    let next = safe_next(q.next.as_deref().unwrap_or("/"));
    if user.0.is_some() {
        return Ok(SitePath::or_home(&next).redirect());
    }
    let ctx = csrf::guest_ctx(&session).await?;
    Ok(html(&SignInPage {
        ctx,
        next,
        ..SignInPage::default()
    }))
}

async fn sign_in(
    State(state): State<AppState>,
    Extension(settings): Extension<Settings>,
    session: Session,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    CsrfForm(form): CsrfForm<SignInForm>,
) -> Result<Response> {
    let db = state.db();
    let username = form.username.trim().to_owned();
    let mut page = SignInPage {
        ctx: csrf::guest_ctx(&session).await?,
        username: username.clone(),
        next: safe_next(&form.next),
        error: None,
    };
    let user = match db.user_by_username(&username).await {
        Ok(user) => Some(user),
        Err(crate::db::DbError::NotFound(_)) => None,
        Err(e) => return Err(e.into()),
    };
    // A browser that signed in as this account before is counted apart
    // from everyone else trying it.
    let device = throttle::device_token(&headers);
    let trusted = match &user {
        Some(u) => throttle::trusted(db, device.as_deref(), u.id).await?,
        None => None,
    };
    let attempt = throttle::Attempt::new(
        &username,
        &addr,
        trusted.as_deref().zip(user.as_ref().map(|u| u.id)),
    );
    // The attempt is counted before the password is checked, so a burst
    // of guesses in parallel gets no more checks than one after another.
    match attempt.reserve(db).await? {
        Ok(wait) => tokio::time::sleep(wait).await,
        Err(retry) => {
            page.error = Some(too_many(retry));
            return Ok((StatusCode::TOO_MANY_REQUESTS, html(&page)).into_response());
        }
    }
    // An unknown name costs a full hash check too: timing tells nothing.
    let hash = user.as_ref().map_or_else(
        || state.inner.decoy_hash.clone(),
        |u| u.password_hash.clone(),
    );
    let ok = auth::verify_password(form.password, hash).await? && user.is_some();
    let Some(user) = user.filter(|_| ok) else {
        page.error = Some("That username and password do not match an account.".into());
        return Ok(invalid(&page));
    };
    attempt.succeeded(db).await?;
    let cookie = throttle::trust(db, device.as_deref(), user.id, settings.secure_cookies).await?;
    start_session(&session, &user).await?;
    let mut response = SitePath::or_home(&page.next).redirect();
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// Why a sign-in was not tried, and when to try again.
fn too_many(retry: std::time::Duration) -> String {
    let seconds = retry.as_secs().max(1);
    if seconds < 90 {
        format!("Too many sign-in attempts from here just now. Try again in {seconds} seconds.")
    } else {
        format!(
            "Too many failed attempts. Try again in {} minutes.",
            seconds.div_ceil(60)
        )
    }
}

async fn sign_out(
    session: Session,
    CsrfForm(_): CsrfForm<serde::de::IgnoredAny>,
) -> Result<Response> {
    // Deletes the session on the server, not just the cookie.
    session.flush().await.map_err(session_error)?;
    Ok(Redirect::to("/").into_response())
}
