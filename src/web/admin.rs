//! The administrator's pages: the installation's leagues, and each
//! league's secretaries. Every handler takes [`Admin`].

use crate::league::time::Zone;
use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::db::invitations::{Invited, NewInvitation};
use crate::db::users::RoleHolder;
use crate::db::{League, NewLeague, NewRole, RoleId, RoleKind};
use crate::league::time::{COMMON_ZONES, DEFAULT_ZONE};

use super::AppState;
use super::auth::Admin;
use super::console::form::{self, Errors};
use super::csrf::{CsrfForm, random_token};
use super::error::{AppError, Result};
use super::page::Ctx;

pub fn router() -> Routes {
    Routes::new()
        .route("/admin", get(leagues).post(create_league))
        .route("/admin/mail", get(mail))
        .route(
            "/admin/leagues/{league}/secretaries",
            get(secretaries).post(name_secretary),
        )
        .route(
            "/admin/leagues/{league}/secretaries/{role}/remove",
            post(remove_secretary),
        )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LeagueForm {
    pub name: String,
    pub short_name: String,
    pub rules_summary: String,
    pub contact: String,
    /// An IANA name; a form without the field is for the default zone.
    pub time_zone: Option<String>,
}

impl LeagueForm {
    /// The league and its time zone (`None` when refused), each field
    /// checked.
    fn check(&self, errors: &mut Errors) -> (NewLeague, Option<Zone>) {
        let new = NewLeague {
            name: form::text(errors, "name", &self.name, true, 100),
            short_name: form::slug(errors, "short_name", &self.short_name, 40),
            rules_summary: form::text(errors, "rules_summary", &self.rules_summary, false, 2000),
            contact: form::text(errors, "contact", &self.contact, false, 200),
        };
        let zone = form::time_zone(errors, "time_zone", self.zone_text());
        (new, zone)
    }

    /// The time zone as typed, or the default when the form had none.
    fn zone_text(&self) -> &str {
        self.time_zone.as_deref().unwrap_or(DEFAULT_ZONE)
    }
}

#[derive(Template)]
#[template(path = "admin/leagues.html")]
struct LeaguesPage {
    ctx: Ctx,
    leagues: Vec<League>,
    form: LeagueForm,
    /// Time zones offered as one is typed.
    zones: &'static [&'static str],
    errors: Errors,
}

async fn leagues_page(
    state: &AppState,
    admin: Admin,
    form: LeagueForm,
    errors: Errors,
) -> Result<Response> {
    let page = LeaguesPage {
        ctx: admin.0.ctx(),
        leagues: state.db().leagues().await?,
        form,
        zones: COMMON_ZONES,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn leagues(admin: Admin, State(state): State<AppState>) -> Result<Response> {
    leagues_page(&state, admin, LeagueForm::default(), Errors::default()).await
}

async fn create_league(
    admin: Admin,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<LeagueForm>,
) -> Result<Response> {
    let mut errors = Errors::default();
    let (new, zone) = input.check(&mut errors);
    if let (true, Some(zone)) = (errors.is_empty(), zone) {
        let kinds = super::console::default_penalty_kinds();
        match state
            .db()
            .create_league_with_kinds(&new, zone, &kinds)
            .await
        {
            Ok(league) => {
                return Ok(form::done(
                    &links::at(&league).secretaries(),
                    format!(
                        "League {} created, with the {} penalty kinds of the standard list: now name its secretary.",
                        league.name,
                        kinds.len()
                    ),
                ));
            }
            Err(e) => form::refused(
                e,
                &mut errors,
                "short_name",
                "A league with this short name already exists.",
            )?,
        }
    }
    leagues_page(&state, admin, input, errors).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SecretaryForm {
    pub username: String,
}

#[derive(Template)]
#[template(path = "admin/secretaries.html")]
struct SecretariesPage {
    ctx: Ctx,
    league: League,
    secretaries: Vec<RoleHolder>,
    form: SecretaryForm,
    errors: Errors,
}

async fn league_named(state: &AppState, short_name: &str) -> Result<League> {
    super::auth::league_named(state.db(), short_name).await
}

async fn secretaries_page(
    state: &AppState,
    admin: Admin,
    league: League,
    form: SecretaryForm,
    errors: Errors,
) -> Result<Response> {
    let secretaries = state
        .db()
        .league_role_holders(league.id)
        .await?
        .into_iter()
        .filter(|h| h.role.kind == RoleKind::Secretary)
        .collect();
    let page = SecretariesPage {
        ctx: admin.0.ctx(),
        league,
        secretaries,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn secretaries(
    admin: Admin,
    State(state): State<AppState>,
    Path(league): Path<String>,
) -> Result<Response> {
    let league = league_named(&state, &league).await?;
    secretaries_page(
        &state,
        admin,
        league,
        SecretaryForm::default(),
        Errors::default(),
    )
    .await
}

/// Names an account secretary of the league; a username nobody has gets
/// an invitation: a one-time link with which the person makes the account
/// with their own password.
async fn name_secretary(
    admin: Admin,
    State(state): State<AppState>,
    Path(league): Path<String>,
    headers: HeaderMap,
    CsrfForm(input): CsrfForm<SecretaryForm>,
) -> Result<Response> {
    let db = state.db();
    let league = league_named(&state, &league).await?;
    let mut errors = Errors::default();
    let username = input.username.trim().to_owned();
    let to = format!("/admin/leagues/{}/secretaries", league.short_name);
    if username.is_empty() {
        errors.add("username", "Fill this in.");
        return secretaries_page(&state, admin, league, input, errors).await;
    }
    let Some(user) = form::account(db, &username).await? else {
        if let Some(why) = crate::web::account::check_username(&username) {
            errors.add("username", why);
            return secretaries_page(&state, admin, league, input, errors).await;
        }
        let invite = NewInvitation {
            token: random_token(),
            username: username.clone(),
            league: league.id,
            role: Invited::Secretary,
            email: None,
        };
        db.invite(&invite, Some(admin.0.id), None).await?;
        return Ok(form::done(
            &to,
            format!(
                "No account is called {username}: send this one-time link, shown only now, to the new secretary of {} to make it with their own password (it works for {} days): {}",
                league.name,
                crate::db::invitations::VALID_DAYS,
                super::console::invitation_link(&headers, &invite.token)
            ),
        ));
    };
    match db
        .grant_role(&NewRole::secretary(user.id, league.id), Some(admin.0.id))
        .await
    {
        Ok(_) => Ok(form::done(
            &to,
            format!("{} is now a secretary of {}.", user.username, league.name),
        )),
        Err(e) => {
            form::refused(
                e,
                &mut errors,
                "username",
                "This account is a secretary of the league already: that role already exists.",
            )?;
            secretaries_page(&state, admin, league, input, errors).await
        }
    }
}

async fn remove_secretary(
    admin: Admin,
    State(state): State<AppState>,
    Path((league, role)): Path<(String, RoleId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let db = state.db();
    let league = league_named(&state, &league).await?;
    let is_secretary = db
        .league_roles(league.id)
        .await?
        .iter()
        .any(|r| r.id == role && r.kind == RoleKind::Secretary);
    if !is_secretary {
        return Err(AppError::NotFound("That secretary".into()));
    }
    db.revoke_role(Some(league.id), role, Some(admin.0.id))
        .await?;
    Ok(form::done(
        &format!("/admin/leagues/{}/secretaries", league.short_name),
        "Secretary removed.",
    ))
}

#[derive(Template)]
#[template(path = "admin/mail.html")]
struct MailPage {
    ctx: Ctx,
    waiting: i64,
    failed: i64,
    kept_only: bool,
    rows: Vec<super::views::mail_log::MailRow>,
}

/// Every league's messages: what waits, what failed, what was kept.
async fn mail(admin: Admin, State(state): State<AppState>) -> Result<Response> {
    let db = state.db();
    let (waiting, failed) = db.mail_counts().await?;
    let mail = db.recent_mail(None, 200).await?;
    let kept_only = mail
        .first()
        .is_some_and(|m| m.status == crate::db::mail::MailStatus::Kept);
    Ok(super::page::html(&MailPage {
        ctx: admin.0.ctx(),
        waiting,
        failed,
        kept_only,
        rows: super::views::mail_log::mail_rows(&mail, crate::league::time::Zone::default()),
    }))
}
