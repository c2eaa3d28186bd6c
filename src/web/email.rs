//! Email on accounts (issue 26): the account page (an address, verified by
//! a link, and which messages to get), a forgotten password and sign-in
//! links by email. Links are single-use, expire within an hour and work
//! only while the address they went to is still the account's; asking
//! for one answers alike whether or not the address is known, and so does
//! setting an address whether or not another account has it (issue 44).
//! Every message a stranger can cause is limited per mailbox and per
//! client (`throttle::Attempt::mail`).

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{Duration, Utc};
use serde::Deserialize;
use tower_sessions::Session;

use super::account::{check_password, start_session};
use super::auth::{self, ClientAddr, CurrentUser, MaybeUser};
use super::csrf::{self, CsrfForm, random_token};
use super::error::Result;
use super::page::{Ctx, html, invalid};
use super::redirect::SitePath;
use super::routes::Routes;
use super::{AppState, flash, throttle};
use crate::app::mail::{LinkKind, link_message};
use crate::db::DbError;
use crate::db::mail::TokenPurpose;
use crate::league::notices::Topic;

/// How long a link by email works.
const LINK_TTL: Duration = Duration::hours(1);
/// How long an address's verification link works.
const VERIFY_TTL: Duration = Duration::days(2);
/// Links of one kind an account is sent in an hour, at most.
const LINKS_PER_HOUR: i64 = 3;

pub fn router() -> Routes {
    Routes::new()
        .route("/account", get(account_page))
        .route("/account/email", axum::routing::post(set_email))
        .route("/account/notices", axum::routing::post(set_notices))
        .route("/account/verify/{token}", get(verify))
        .route("/password/forgot", get(forgot_form).post(forgot))
        .route("/password/reset/{token}", get(reset_form).post(reset))
        .route("/sign-in/email", get(link_form).post(send_sign_in_link))
        .route(
            "/sign-in/email/{token}",
            get(sign_in_link_page).post(use_sign_in_link),
        )
}

pub use crate::domain::email::check_email;

// ---------------------------------------------------------------------------
// The account page

struct TopicView {
    key: &'static str,
    label: &'static str,
    on: bool,
}

#[derive(Template)]
#[template(path = "account/account.html")]
struct AccountPage {
    ctx: Ctx,
    username: String,
    /// The address as typed into the form.
    email: String,
    /// The address on the account, and whether it is confirmed.
    current: String,
    verified: bool,
    email_error: Option<String>,
    topics: Vec<TopicView>,
}

async fn account_view(state: &AppState, user: &CurrentUser) -> Result<AccountPage> {
    let db = state.db();
    let contact = db.contact(user.id).await?;
    let outs = db.opt_outs(user.id).await?;
    Ok(AccountPage {
        ctx: user.ctx(),
        username: user.username.clone(),
        verified: contact.verified().is_some(),
        email: contact.email.clone().unwrap_or_default(),
        current: contact.email.unwrap_or_default(),
        email_error: None,
        topics: Topic::ALL
            .into_iter()
            .map(|t| TopicView {
                key: t.key(),
                label: t.label(),
                on: !outs.iter().any(|o| o == t.key()),
            })
            .collect(),
    })
}

async fn account_page(State(state): State<AppState>, user: CurrentUser) -> Result<Response> {
    Ok(html(&account_view(&state, &user).await?))
}

#[derive(Deserialize)]
struct EmailForm {
    #[serde(default)]
    email: String,
}

/// Why a message was not sent: too many asked from this client or to
/// that address.
fn too_many_messages(retry: std::time::Duration) -> String {
    format!(
        "Too many messages asked for from here, or to that address, just now. Try again in {} minutes.",
        retry.as_secs().div_ceil(60).max(1)
    )
}

/// Saves the address and sends the link that confirms it. The answer is
/// the same whether or not another account has the address: who owns an
/// address is settled when it is confirmed (see `Db::change_email`).
async fn set_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddr(addr): ClientAddr,
    CsrfForm(form): CsrfForm<EmailForm>,
) -> Result<Response> {
    let db = state.db();
    let email = form.email.trim().to_owned();
    if email.is_empty() {
        db.remove_email(user.id).await?;
        return Ok(flash::saved(
            "/account",
            "Your email address is removed: nothing will be sent to you.",
        ));
    }
    let mut page = account_view(&state, &user).await?;
    page.email.clone_from(&email);
    if let Some(e) = check_email(&email) {
        page.email_error = Some(e.into());
        return Ok(invalid(&page));
    }
    let account = format!("user:{}", user.id);
    let attempt = throttle::Attempt::mail(&email, &[addr.as_str(), account.as_str()]);
    if let Err(retry) = attempt.reserve(db).await? {
        page.email_error = Some(too_many_messages(retry));
        return Ok((StatusCode::TOO_MANY_REQUESTS, html(&page)).into_response());
    }
    let token = random_token();
    let url = state.mail().url(&format!("/account/verify/{token}"));
    let mail = link_message(LinkKind::Verify, url, state.mail()).to(
        None,
        "verify",
        &user.username,
        &email,
        None,
    );
    let sent = db
        .change_email(
            user.id,
            &email,
            &throttle::token_hash(&token),
            VERIFY_TTL,
            &mail,
        )
        .await?;
    tracing::debug!(sent, "address saved");
    Ok(flash::saved(
        "/account",
        format!(
            "Saved {email}. A link to confirm it is on its way there: nothing else is sent to it until you follow the link."
        ),
    ))
}

async fn set_notices(
    State(state): State<AppState>,
    user: CurrentUser,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let wanted: Vec<&str> = form
        .iter()
        .filter(|(k, _)| k == "topic")
        .map(|(_, v)| v.as_str())
        .collect();
    let outs: Vec<&str> = Topic::ALL
        .into_iter()
        .map(Topic::key)
        .filter(|k| !wanted.contains(k))
        .collect();
    state.db().set_opt_outs(user.id, &outs).await?;
    let words = if outs.is_empty() {
        "You will be sent every kind of message.".to_owned()
    } else {
        format!(
            "Saved: you will not be sent {} kind{} of message.",
            outs.len(),
            if outs.len() == 1 { "" } else { "s" }
        )
    };
    Ok(flash::saved("/account", words))
}

#[derive(Template)]
#[template(path = "account/message.html")]
struct MessagePage {
    ctx: Ctx,
    title: String,
    message: String,
    link: Option<(String, String)>,
}

async fn verify(
    State(state): State<AppState>,
    user: MaybeUser,
    Path(token): Path<String>,
) -> Result<Response> {
    let used = match state
        .db()
        .use_token(TokenPurpose::Verify, &throttle::token_hash(&token), None)
        .await
    {
        Ok(used) => Ok(used),
        Err(DbError::Unique(_)) => Err(()),
        Err(e) => return Err(e.into()),
    };
    let (status, title, message) = match used {
        // Who follows the link reads the mailbox: telling them is no leak.
        Err(()) => (
            StatusCode::CONFLICT,
            "Confirmed for another account",
            "Another account confirmed this address first, and keeps it. Nothing changed on yours.".to_owned(),
        ),
        Ok(Some(u)) => (
            StatusCode::OK,
            "Address confirmed",
            format!(
                "{} is confirmed for the account {}. Choose what you are sent on your account page.",
                u.email, u.username
            ),
        ),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            "This link does not work",
            "The link was used already, has expired, was sent to an address the account no longer has, or was never sent. Enter the address again on your account page for a new one.".to_owned(),
        ),
    };
    // One person's page, whatever asks for it: never kept anywhere.
    Ok((
        status,
        [(axum::http::header::CACHE_CONTROL, "no-store")],
        html(&MessagePage {
            ctx: user.ctx(),
            title: title.into(),
            message,
            link: Some(("Your account".into(), "/account".into())),
        }),
    )
        .into_response())
}

// ---------------------------------------------------------------------------
// Asking for a link: a forgotten password, or a sign-in link

#[derive(Template)]
#[template(path = "account/ask_link.html")]
struct AskLinkPage {
    ctx: Ctx,
    /// `reset` or `sign-in`.
    kind: &'static str,
    action: &'static str,
    email: String,
    error: Option<String>,
}

async fn ask_form(session: &Session, kind: TokenPurpose) -> Result<Response> {
    Ok(html(&AskLinkPage {
        ctx: csrf::guest_ctx(session).await?,
        kind: kind.as_str(),
        action: action_of(kind),
        email: String::new(),
        error: None,
    }))
}

fn action_of(kind: TokenPurpose) -> &'static str {
    match kind {
        TokenPurpose::SignIn => "/sign-in/email",
        _ => "/password/forgot",
    }
}

async fn forgot_form(session: Session) -> Result<Response> {
    ask_form(&session, TokenPurpose::Reset).await
}

async fn link_form(session: Session) -> Result<Response> {
    ask_form(&session, TokenPurpose::SignIn).await
}

async fn forgot(
    State(state): State<AppState>,
    session: Session,
    addr: ClientAddr,
    CsrfForm(form): CsrfForm<EmailForm>,
) -> Result<Response> {
    ask(&state, &session, addr, form, TokenPurpose::Reset).await
}

async fn send_sign_in_link(
    State(state): State<AppState>,
    session: Session,
    addr: ClientAddr,
    CsrfForm(form): CsrfForm<EmailForm>,
) -> Result<Response> {
    ask(&state, &session, addr, form, TokenPurpose::SignIn).await
}

/// Sends a link to the account with that verified address, if there is
/// one; the answer is the same either way.
async fn ask(
    state: &AppState,
    session: &Session,
    ClientAddr(addr): ClientAddr,
    form: EmailForm,
    purpose: TokenPurpose,
) -> Result<Response> {
    let db = state.db();
    let email = form.email.trim().to_owned();
    let mut page = AskLinkPage {
        ctx: csrf::guest_ctx(session).await?,
        kind: purpose.as_str(),
        action: action_of(purpose),
        email: email.clone(),
        error: None,
    };
    if let Some(e) = check_email(&email) {
        page.error = Some(e.into());
        return Ok(invalid(&page));
    }
    // Counted per mailbox and per client whether or not an account has
    // the address, so the answer tells nothing either way.
    let attempt = throttle::Attempt::mail(&email, &[addr.as_str()]);
    if let Err(retry) = attempt.reserve(db).await? {
        page.error = Some(too_many_messages(retry));
        return Ok((StatusCode::TOO_MANY_REQUESTS, html(&page)).into_response());
    }
    if let Some(contact) = db.contact_by_email(&email).await?
        && db
            .links_sent_since(contact.id, purpose, Utc::now() - Duration::hours(1))
            .await?
            < LINKS_PER_HOUR
    {
        let token = random_token();
        let (path, kind) = match purpose {
            TokenPurpose::SignIn => (format!("/sign-in/email/{token}"), LinkKind::SignIn),
            _ => (format!("/password/reset/{token}"), LinkKind::Reset),
        };
        let mail = link_message(kind, state.mail().url(&path), state.mail()).to(
            None,
            purpose.as_str(),
            &contact.username,
            &email,
            None,
        );
        db.send_link(
            contact.id,
            purpose,
            &email,
            &throttle::token_hash(&token),
            LINK_TTL,
            &mail,
        )
        .await?;
    }
    Ok(html(&MessagePage {
        ctx: Ctx::default(),
        title: "Check your email".into(),
        message: format!(
            "If an account has the confirmed address {email}, a link is on its way to it. It works once, within an hour."
        ),
        link: Some(("Back to sign in".into(), "/sign-in".into())),
    }))
}

// ---------------------------------------------------------------------------
// Following a link

#[derive(Template)]
#[template(path = "account/reset.html")]
struct ResetPage {
    ctx: Ctx,
    token: String,
    username: String,
    password_error: Option<String>,
    confirm_error: Option<String>,
}

fn dead_link() -> Response {
    (
        StatusCode::NOT_FOUND,
        html(&MessagePage {
            ctx: Ctx::default(),
            title: "This link does not work".into(),
            message: "The link was used already, has expired (links work for an hour), went to an address the account no longer has, or was never sent. Ask for a new one.".into(),
            link: Some(("Sign in".into(), "/sign-in".into())),
        }),
    )
        .into_response()
}

async fn reset_form(
    State(state): State<AppState>,
    session: Session,
    Path(token): Path<String>,
) -> Result<Response> {
    let Some(t) = state
        .db()
        .peek_token(TokenPurpose::Reset, &throttle::token_hash(&token))
        .await?
    else {
        return Ok(dead_link());
    };
    Ok(html(&ResetPage {
        ctx: csrf::guest_ctx(&session).await?,
        token,
        username: t.username,
        password_error: None,
        confirm_error: None,
    }))
}

#[derive(Deserialize)]
struct ResetForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

async fn reset(
    State(state): State<AppState>,
    session: Session,
    Path(token): Path<String>,
    CsrfForm(form): CsrfForm<ResetForm>,
) -> Result<Response> {
    let db = state.db();
    let hash = throttle::token_hash(&token);
    let Some(t) = db.peek_token(TokenPurpose::Reset, &hash).await? else {
        return Ok(dead_link());
    };
    let mut page = ResetPage {
        ctx: csrf::guest_ctx(&session).await?,
        token,
        username: t.username,
        password_error: check_password(&form.password).map(str::to_owned),
        confirm_error: None,
    };
    if page.password_error.is_none() && form.password != form.confirm {
        page.confirm_error = Some("The two passwords differ.".into());
    }
    if page.password_error.is_some() || page.confirm_error.is_some() {
        return Ok(invalid(&page));
    }
    let password_hash = auth::hash_password(form.password).await?;
    let Some(used) = db
        .use_token(TokenPurpose::Reset, &hash, Some(&password_hash))
        .await?
    else {
        return Ok(dead_link());
    };
    // The new password ends every other session of the account; this one
    // starts under it.
    start_session(&session, &db.user(used.user).await?).await?;
    Ok(flash::saved(
        "/account",
        format!(
            "Your new password is saved and you are signed in as {}.",
            used.username
        ),
    ))
}

#[derive(Template)]
#[template(path = "account/email_sign_in.html")]
struct SignInLinkPage {
    ctx: Ctx,
    token: String,
    username: String,
}

/// The link's page asks for a click first: a mail scanner that follows
/// the link spends nothing.
async fn sign_in_link_page(
    State(state): State<AppState>,
    session: Session,
    Path(token): Path<String>,
) -> Result<Response> {
    let Some(t) = state
        .db()
        .peek_token(TokenPurpose::SignIn, &throttle::token_hash(&token))
        .await?
    else {
        return Ok(dead_link());
    };
    Ok(html(&SignInLinkPage {
        ctx: csrf::guest_ctx(&session).await?,
        token,
        username: t.username,
    }))
}

#[derive(Deserialize)]
struct NextForm {
    #[serde(default)]
    next: String,
}

async fn use_sign_in_link(
    State(state): State<AppState>,
    session: Session,
    Path(token): Path<String>,
    CsrfForm(form): CsrfForm<NextForm>,
) -> Result<Response> {
    let db = state.db();
    let Some(used) = db
        .use_token(TokenPurpose::SignIn, &throttle::token_hash(&token), None)
        .await?
    else {
        return Ok(dead_link());
    };
    start_session(&session, &db.user(used.user).await?).await?;
    Ok(flash::saved(
        SitePath::or_home(&form.next).as_str(),
        format!("You are signed in as {}.", used.username),
    ))
}
