//! The weekly round-up by email (issue 26), for anyone, no account needed:
//! an address is added by a form, confirmed by the link sent to it (double
//! opt-in), and taken off by the link in every round-up, which a mail
//! client's own unsubscribe button posts to with no further step (RFC
//! 8058). Each Monday morning, in the league's zone, the last week's
//! round-up is queued once for each confirmed address.

use crate::web::auth::InLeague;
use crate::web::links;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveTime, Utc};
use serde::Deserialize;
use tower_sessions::Session;

use crate::app;
use crate::app::mail::Message;
use crate::db::League;
use crate::db::round_up_list::CONFIRM_DAYS;
use crate::domain::email::check_email;

use super::super::AppState;
use super::super::auth::ClientAddr;
use super::super::csrf::{self, CsrfForm, random_token};
use super::super::error::Result;
use super::super::page::{Ctx, html, invalid};
use super::super::throttle;
use super::league_href;
use super::round_up::{build_week, week_href};

/// What an unsubscribe link says when its address is gone already.
const NOT_ON_THE_LIST: &str =
    "This address is not on the list (any more): nothing more is sent to it.";

/// The local time on Monday at which the last week's round-up goes.
pub const SEND_AT: NaiveTime = NaiveTime::from_hms_opt(9, 0, 0).expect("a time");

#[derive(Deserialize)]
pub struct TokenPath {
    token: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EmailForm {
    email: String,
}

/// Every state of the list's pages: the form, a link's button, what was
/// done.
#[derive(Template, Default)]
#[template(path = "public/round_up_list.html")]
struct ListPage {
    ctx: Ctx,
    league_name: String,
    league_href: String,
    round_up_href: String,
    /// `subscribe`, `confirm`, `unsubscribe` or `done`.
    step: &'static str,
    action: String,
    email: String,
    error: Option<String>,
    /// What was done, in words.
    said: String,
}

async fn page(session: &Session, league: &League, step: &'static str) -> Result<ListPage> {
    Ok(ListPage {
        ctx: csrf::guest_ctx(session).await?,
        league_name: league.name.clone(),
        league_href: league_href(league),
        round_up_href: links::at(league).round_up(),
        step,
        ..ListPage::default()
    })
}

fn done(mut page: ListPage, said: String) -> Response {
    page.step = "done";
    page.said = said;
    html(&page)
}

/// `GET /round-up/subscribe`: the form.
pub async fn form(session: Session, InLeague(league): InLeague) -> Result<Response> {
    let mut page = page(&session, &league, "subscribe").await?;
    page.action = links::at(&league).round_up_subscribe();
    Ok(html(&page))
}

/// `POST /round-up/subscribe`: the confirmation goes out; the answer is the
/// same whether the address was on the list or not.
pub async fn subscribe(
    State(state): State<AppState>,
    session: Session,
    ClientAddr(addr): ClientAddr,
    InLeague(league): InLeague,
    CsrfForm(input): CsrfForm<EmailForm>,
) -> Result<Response> {
    let email = input.email.trim().to_owned();
    let mut page = page(&session, &league, "subscribe").await?;
    page.action = links::at(&league).round_up_subscribe();
    page.email = email.clone();
    if let Some(e) = check_email(&email) {
        page.error = Some(e.into());
        return Ok(invalid(&page));
    }
    // Limited per mailbox and per client, like every message a stranger
    // can cause: the form mails nobody over and over, nor many people.
    let attempt = throttle::Attempt::mail(&email, &[addr.as_str()]);
    if let Err(retry) = throttle::Attempt::reserve(&attempt, state.db()).await? {
        page.error = Some(format!(
            "Too many requests from here, or for that address, just now. Try again in {} minutes.",
            retry.as_secs().div_ceil(60).max(1)
        ));
        return Ok((StatusCode::TOO_MANY_REQUESTS, html(&page)).into_response());
    }
    let token = random_token();
    let url = state.mail().url(&format!(
        "{}/round-up/confirm/{token}",
        league_href(&league)
    ));
    let message = Message {
        subject: format!("Confirm: the {} round-up by email", league.name),
        paragraphs: vec![format!(
            "Follow this link to get the weekly round-up of {} (results, table leaders and the week's feats) by email each Monday. Until you do, nothing else is sent to this address.",
            league.name
        )],
        preformatted: None,
        action: Some(("Yes, send me the round-up".to_owned(), url)),
        why: "You get this because this address was typed into the round-up's form on Boneyard."
            .to_owned(),
        stop: format!(
            "If it was not you, ignore this message: the link expires in {CONFIRM_DAYS} days and nothing more is sent."
        ),
        stop_url: None,
    };
    let mail = message.to(Some(league.id), "round-up", &email, &email, None);
    let outcome = app::round_up_list::subscribe(
        state.db(),
        &league,
        &email,
        &throttle::token_hash(&token),
        &random_token(),
        &mail,
    )
    .await?;
    // The page says the same whatever happened: it must not tell who is
    // on the list.
    tracing::debug!(?outcome, "round-up subscription asked");
    Ok(done(
        page,
        format!(
            "Thank you. If {email} is not on the list yet, a link to confirm it is on its way: \
             the round-up starts once you follow it."
        ),
    ))
}

/// `GET /round-up/confirm/{token}`: a button, so that a mail scanner
/// opening the link confirms nothing.
pub async fn confirm_form(
    State(state): State<AppState>,
    session: Session,
    InLeague(league): InLeague,
    Path(p): Path<TokenPath>,
) -> Result<Response> {
    let mut page = page(&session, &league, "confirm").await?;
    match app::round_up_list::to_confirm(state.db(), &league, &throttle::token_hash(&p.token))
        .await?
    {
        Some(s) => {
            page.email = s.email;
            page.action = links::at(&league).round_up_confirm(&p.token);
            Ok(html(&page))
        }
        None => Ok((StatusCode::NOT_FOUND, expired(page)).into_response()),
    }
}

fn expired(page: ListPage) -> Response {
    done(
        page,
        "This link has expired or names no address on the list: ask for the round-up again."
            .to_owned(),
    )
}

/// `POST /round-up/confirm/{token}`.
pub async fn confirm(
    State(state): State<AppState>,
    session: Session,
    InLeague(league): InLeague,
    Path(p): Path<TokenPath>,
    CsrfForm(_): CsrfForm<serde::de::IgnoredAny>,
) -> Result<Response> {
    let page = page(&session, &league, "confirm").await?;
    match app::round_up_list::confirm(state.db(), &league, &throttle::token_hash(&p.token)).await? {
        Some(email) => Ok(done(
            page,
            format!(
                "Confirmed: {email} will get the {} round-up each Monday morning. Every one has a link to stop it.",
                league.name
            ),
        )),
        None => Ok((StatusCode::NOT_FOUND, expired(page)).into_response()),
    }
}

/// `GET /round-up/unsubscribe/{token}`: the button.
pub async fn unsubscribe_form(
    State(state): State<AppState>,
    session: Session,
    InLeague(league): InLeague,
    Path(p): Path<TokenPath>,
) -> Result<Response> {
    let mut page = page(&session, &league, "unsubscribe").await?;
    match app::round_up_list::by_token(state.db(), &league, &p.token).await? {
        Some(s) => {
            page.email = s.email;
            page.action = links::at(&league).round_up_unsubscribe(&p.token);
            Ok(html(&page))
        }
        None => Ok(done(page, NOT_ON_THE_LIST.to_owned())),
    }
}

/// `POST /round-up/unsubscribe/{token}`: the page's button, or a mail
/// client's one-click unsubscribe (`List-Unsubscribe=One-Click`, with no
/// session and so no CSRF token; the unguessable token is the proof).
pub async fn unsubscribe(
    State(state): State<AppState>,
    session: Session,
    InLeague(league): InLeague,
    Path(p): Path<TokenPath>,
) -> Result<Response> {
    let email = app::round_up_list::unsubscribe(state.db(), &league, &p.token).await?;
    let page = page(&session, &league, "unsubscribe").await?;
    Ok(done(
        page,
        match email {
            Some(email) => format!(
                "Done: {email} is off the {} round-up list. Nothing more is sent to it.",
                league.name
            ),
            None => NOT_ON_THE_LIST.to_owned(),
        },
    ))
}

/// Queues last week's round-up for each confirmed subscriber of each
/// league whose Monday morning has come; once each (keyed by week and
/// subscriber), however many passes or app servers. A week without
/// matches sends nothing. The number queued.
pub async fn queue_due(state: &AppState, now: DateTime<Utc>) -> Result<u64> {
    let mut queued = 0;
    for due in app::round_up_list::due(state.db(), now, SEND_AT).await? {
        let app::round_up_list::Due {
            league,
            monday,
            key,
            unsent,
        } = due;
        let week = build_week(state, &league, monday).await?;
        if !week.has_matches() {
            continue;
        }
        let page = state.mail().url(&week_href(&league, monday));
        let text = super::round_up::text(&league, &week)?;
        let mail: Vec<_> = unsent
            .iter()
            .map(|s| {
                let stop = state.mail().url(&format!(
                    "{}/round-up/unsubscribe/{}",
                    league_href(&league),
                    s.unsubscribe_token
                ));
                let message = Message {
                    subject: format!("{} round-up: {}", league.name, week.week),
                    paragraphs: vec![format!(
                        "The week's results in {}, the table leaders after them and the feats of the week's hands.",
                        league.name
                    )],
                    preformatted: Some(text.clone()),
                    action: Some(("Read it on the site".to_owned(), page.clone())),
                    why: format!(
                        "You get this because you asked for the {} round-up by email and confirmed it.",
                        league.name
                    ),
                    stop: "To stop it, follow this link (or use your mail program's unsubscribe button):".to_owned(),
                    stop_url: Some(stop.clone()),
                };
                let mut m = message.to(
                    Some(league.id),
                    "round-up",
                    &s.email,
                    &s.email,
                    Some(format!("{key}:{}", s.id)),
                );
                m.unsubscribe_url = Some(stop);
                m
            })
            .collect();
        queued += app::round_up_list::queue(state.db(), &mail).await?;
    }
    Ok(queued)
}
