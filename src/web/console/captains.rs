//! A team's captains for a season: one or two of its registered players,
//! each optionally tied to a user account, which gets the captain's role
//! for the team that season.

use crate::web::links;
use crate::web::routes::Routes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use axum::routing::post;
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::app::teams::name_captain;
use crate::db::invitations::{Invited, NewInvitation};
use crate::db::teams::CaptainAccount;
use crate::db::{PlayerId, SeasonId, TeamId, User};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::csrf::random_token;
use crate::web::error::Result;

use super::PREFIX;
use super::form::{self, Errors};
use super::registrations::{Typed, roster, roster_page};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}/captains"),
            post(name),
        )
        .league(
            &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}/captains/{{player}}/remove"),
            post(remove),
        )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CaptainForm {
    /// A registered player's id.
    pub captain: String,
    /// Optional: the account that gets the captain's role.
    pub username: String,
    /// Optional: where their invitation is emailed.
    pub email: String,
}

/// What the username typed with a captain names.
enum Account {
    None,
    Existing(User),
    /// No such account: invite them to make it.
    Invite(String),
}

async fn account(state: &AppState, username: &str, errors: &mut Errors) -> Result<Account> {
    let username = username.trim();
    if username.is_empty() {
        return Ok(Account::None);
    }
    if let Some(user) = form::account(state.db(), username).await? {
        return Ok(Account::Existing(user));
    }
    match crate::web::account::check_username(username) {
        Some(why) => {
            errors.add("username", why);
            Ok(Account::None)
        }
        None => Ok(Account::Invite(username.to_owned())),
    }
}

async fn name(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, team, season)): Path<(String, TeamId, SeasonId)>,
    headers: HeaderMap,
    CsrfForm(input): CsrfForm<CaptainForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let roster = roster(&state, &sec.league, team, season).await?;
    let mut errors = Errors::default();
    let registered = db.team_players(league, season, team).await?;
    let player = form::pick(
        &mut errors,
        "captain",
        &input.captain,
        registered.iter().map(|p| p.id.0),
        "Choose one of the team's registered players.",
    )
    .map(PlayerId);
    let mut account = account(&state, &input.username, &mut errors).await?;
    let email = input.email.trim().to_owned();
    if !email.is_empty() {
        if let Some(why) = crate::domain::email::check_email(&email) {
            errors.add("email", why);
        }
    }
    if let (Some(player), true) = (player, errors.is_empty()) {
        let name = registered
            .iter()
            .find(|p| p.id == player)
            .map_or_else(String::new, |p| p.name.clone());
        // An address and no username: invite them under the username
        // their name suggests (they may choose another).
        if matches!(account, Account::None) && !email.is_empty() {
            account = Account::Invite(crate::league::roster::username_for(&name));
        }
        let invite = match &account {
            Account::Invite(username) => Some(NewInvitation {
                token: random_token(),
                username: username.clone(),
                league,
                role: Invited::Captain {
                    season,
                    team,
                    player: Some(player),
                },
                email: Some(email.clone()).filter(|e| !e.is_empty()),
            }),
            _ => None,
        };
        let mail = invite.as_ref().and_then(|invite| {
            let address = invite.email.as_deref()?;
            let message = crate::app::mail::invitation_message(
                &format!("captain of {} in {}", roster.team.name, sec.league.name),
                state.mail().url(&format!("/invitations/{}", invite.token)),
                crate::db::invitations::VALID_DAYS,
            );
            Some(message.to(Some(league), "invitation", &name, address, None))
        });
        let named = match (&account, &invite) {
            (Account::Existing(u), _) => CaptainAccount::Existing(u.id),
            (_, Some(invite)) => CaptainAccount::Invite(invite),
            _ => CaptainAccount::None,
        };
        match name_captain(
            db,
            league,
            season,
            team,
            player,
            named,
            mail.as_ref(),
            Some(sec.user.id),
        )
        .await
        {
            Ok(()) => {
                let said = match (&account, &invite) {
                    (Account::Existing(u), _) => format!(
                        "{name} is now a captain of {}; the account {} may enter and confirm its results.",
                        roster.team.name, u.username
                    ),
                    (_, Some(invite)) => format!(
                        "{name} is now a captain of {}. Their one-time link to make the account {} with their own password ({}; it works for {} days, and stays listed under Invitations below until they use it): {}",
                        roster.team.name,
                        invite.username,
                        match &invite.email {
                            Some(address) => format!("emailed to {address}"),
                            None => "send it to them".to_owned(),
                        },
                        crate::db::invitations::VALID_DAYS,
                        invitation_link(&headers, &invite.token)
                    ),
                    _ => format!("{name} is now a captain of {}.", roster.team.name),
                };
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .team(team)
                        .season(season)
                        .to_string(),
                    said,
                ));
            }
            Err(e) => form::refused(
                e,
                &mut errors,
                "captain",
                "This player is a captain of the team already.",
            )?,
        }
    }
    let typed = Typed {
        captain: input,
        ..Typed::default()
    };
    roster_page(&state, sec, &headers, roster, typed, errors).await
}

/// The whole address of an invitation, on the site the request came to.
pub fn invitation_link(headers: &HeaderMap, token: &str) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .unwrap_or("127.0.0.1:3000");
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        == Some("https");
    format!(
        "{}://{host}/invitations/{token}",
        if https { "https" } else { "http" }
    )
}

async fn remove(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, team, season, player)): Path<(String, TeamId, SeasonId, PlayerId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    roster(&state, &sec.league, team, season).await?;
    state
        .db()
        .remove_captain(sec.league.id, season, team, player, Some(sec.user.id))
        .await?;
    Ok(form::done(
        &links::at(&sec.league)
            .console()
            .team(team)
            .season(season)
            .to_string(),
        "Captain role ended.",
    ))
}
