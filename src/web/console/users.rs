//! The league's users: who holds which role in it. The secretary gives
//! accounts the captain's role (for a team in a season) or the player's
//! (tied to one of the league's players), creating the account when it
//! does not exist yet, and takes those roles away. Secretaries are named by
//! the administrator.

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
use crate::db::{League, NewRole, PlayerId, RoleId, RoleKind, SeasonId, TeamId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::{CsrfForm, random_token};
use crate::web::error::{AppError, Result};
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Choice, Errors};

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/users"), get(list).post(grant))
        .league(
            &format!("{PREFIX}/users/roles/{{role}}/revoke"),
            post(revoke),
        )
}

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct RoleForm {
    pub username: String,
    /// Where to email the invitation's link (a new account only).
    pub email: String,
    /// `captain` or `player`.
    pub role: String,
    /// For a captain: `SEASON-TEAM`.
    pub team: String,
    /// For a player: the player's id.
    pub player: String,
}

impl Default for RoleForm {
    fn default() -> RoleForm {
        RoleForm {
            username: String::new(),
            email: String::new(),
            role: "captain".into(),
            team: String::new(),
            player: String::new(),
        }
    }
}

/// A line of the list: who, what role, of what.
struct Line {
    holder: RoleHolder,
    what: String,
    /// Secretaries are the administrator's to name and remove.
    revocable: bool,
}

#[derive(Template)]
#[template(path = "console/users.html")]
struct UsersPage {
    ctx: Ctx,
    league: League,
    lines: Vec<Line>,
    roles: Vec<Choice>,
    teams: Vec<Choice>,
    players: Vec<Choice>,
    form: RoleForm,
    /// Invitations not yet taken up, with their links to copy.
    invitations: Vec<super::invitations::InvitationView>,
    errors: Errors,
}

/// The league's teams entered in a season (`SEASON-TEAM`, "2026/27 · Name")
/// and its players (id, name).
struct Targets {
    teams: Vec<(String, String)>,
    players: Vec<(String, String)>,
}

async fn targets(state: &AppState, league: &League) -> Result<Targets> {
    let db = state.db();
    let all_teams = db.teams(league.id).await?;
    let mut teams = Vec::new();
    for season in db.seasons(league.id).await? {
        for entry in db.team_entries(league.id, season.id).await? {
            if let Some(t) = all_teams.iter().find(|t| t.id == entry.team_id) {
                teams.push((
                    format!("{}-{}", season.id, t.id),
                    format!("{} · {}", season.name, t.name),
                ));
            }
        }
    }
    let players = db
        .players(league.id)
        .await?
        .into_iter()
        .map(|p| (p.id.to_string(), p.name))
        .collect();
    Ok(Targets { teams, players })
}

async fn users_page(
    state: &AppState,
    sec: Secretary,
    headers: &HeaderMap,
    form: RoleForm,
    errors: Errors,
) -> Result<Response> {
    let t = targets(state, &sec.league).await?;
    let invitations = super::invitations::views(
        state.db().waiting_invitations(sec.league.id).await?,
        headers,
        sec.league.time_zone,
        chrono::Utc::now(),
    );
    let lines = state
        .db()
        .league_role_holders(sec.league.id)
        .await?
        .into_iter()
        .map(|holder| {
            let r = &holder.role;
            let what = match r.kind {
                RoleKind::Captain => {
                    let key = format!(
                        "{}-{}",
                        r.season_id.map_or(0, |s| s.0),
                        r.team_id.map_or(0, |t| t.0)
                    );
                    t.teams
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or_else(String::new, |(_, label)| label.clone())
                }
                RoleKind::Player => r
                    .player_id
                    .and_then(|p| t.players.iter().find(|(k, _)| *k == p.to_string()))
                    .map_or_else(String::new, |(_, name)| name.clone()),
                _ => "the whole league".into(),
            };
            Line {
                revocable: matches!(r.kind, RoleKind::Captain | RoleKind::Player),
                what,
                holder,
            }
        })
        .collect();
    let page = UsersPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        lines,
        roles: form::choices(
            [
                ("captain", "Captain of a team for a season"),
                ("player", "Player: one of the league's players"),
            ],
            &form.role,
        ),
        teams: form::choices(
            std::iter::once((String::new(), "Choose for a captain".to_owned())).chain(t.teams),
            &form.team,
        ),
        players: form::choices(
            std::iter::once((String::new(), "Choose for a player".to_owned())).chain(t.players),
            &form.player,
        ),
        form,
        invitations,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response> {
    users_page(
        &state,
        sec,
        &headers,
        RoleForm::default(),
        Errors::default(),
    )
    .await
}

/// What the role part of the form names, checked against the league.
enum Target {
    Captain(SeasonId, TeamId),
    Player(PlayerId),
}

fn target(form: &RoleForm, t: &Targets, errors: &mut Errors) -> Option<Target> {
    match form.role.as_str() {
        "captain" => {
            let known = t.teams.iter().any(|(k, _)| *k == form.team);
            let parsed = form
                .team
                .split_once('-')
                .and_then(|(s, t)| Some((s.parse().ok()?, t.parse().ok()?)));
            match parsed {
                Some((s, t)) if known => Some(Target::Captain(SeasonId(s), TeamId(t))),
                _ => {
                    errors.add("team", "Choose the team and season they captain.");
                    None
                }
            }
        }
        "player" => {
            if t.players.iter().any(|(k, _)| *k == form.player) {
                form.player
                    .parse()
                    .ok()
                    .map(|p| Target::Player(PlayerId(p)))
            } else {
                errors.add("player", "Choose which of the league's players they are.");
                None
            }
        }
        _ => {
            errors.add("role", "Choose captain or player.");
            None
        }
    }
}

/// The role a target gives, in words for an invitation.
fn role_words(t: &Targets, target: &Target, league: &League) -> String {
    match target {
        Target::Captain(season, team) => {
            let key = format!("{}-{}", season.0, team.0);
            let team = t
                .teams
                .iter()
                .find(|(k, _)| *k == key)
                .map_or("a team", |(_, label)| label.as_str());
            format!("captain of {team} in {}", league.name)
        }
        Target::Player(player) => {
            let key = player.0.to_string();
            let name = t
                .players
                .iter()
                .find(|(k, _)| *k == key)
                .map_or("a player", |(_, label)| label.as_str());
            format!("{name}, a player in {}", league.name)
        }
    }
}

/// Gives an account a captain's or a player's role; a username nobody has
/// gets an invitation instead, whose one-time link makes the account with
/// the person's own password and the role.
async fn grant(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    CsrfForm(input): CsrfForm<RoleForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let mut errors = Errors::default();
    let username = input.username.trim().to_owned();
    let existing = if username.is_empty() {
        errors.add("username", "Fill this in.");
        None
    } else {
        let found = form::account(db, &username).await?;
        if found.is_none() {
            if let Some(why) = crate::web::account::check_username(&username) {
                errors.add("username", why);
            }
        }
        found
    };
    let email = input.email.trim().to_owned();
    if !email.is_empty() {
        if let Some(why) = crate::domain::email::check_email(&email) {
            errors.add("email", why);
        }
    }
    let t = targets(&state, &sec.league).await?;
    let target = target(&input, &t, &mut errors);
    let Some(target) = target.filter(|_| errors.is_empty()) else {
        return users_page(&state, sec, &headers, input, errors).await;
    };
    let Some(user) = existing else {
        let invite = NewInvitation {
            token: random_token(),
            username: username.clone(),
            league,
            role: match target {
                Target::Captain(season, team) => Invited::Captain {
                    season,
                    team,
                    player: None,
                },
                Target::Player(player) => Invited::Player { player },
            },
            email: Some(email.clone()).filter(|e| !e.is_empty()),
        };
        let link = super::invitation_link(&headers, &invite.token);
        let mail = match &invite.email {
            Some(address) => {
                let role = role_words(&t, &target, &sec.league);
                let message = crate::app::mail::invitation_message(
                    &role,
                    state.mail().url(&format!("/invitations/{}", invite.token)),
                    crate::db::invitations::VALID_DAYS,
                );
                Some(message.to(Some(league), "invitation", &username, address, None))
            }
            None => None,
        };
        db.invite(&invite, Some(sec.user.id), mail.as_ref()).await?;
        let sent = match &invite.email {
            Some(address) => format!("emailed to {address} and listed under Invitations below"),
            None => "listed under Invitations below until it is used".to_owned(),
        };
        return Ok(form::done(
            &links::at(&sec.league).console().users(),
            format!(
                "No account is called {username}: a one-time link, {sent}, makes it with their own password and the {} role (it works for {} days): {link}",
                input.role,
                crate::db::invitations::VALID_DAYS,
            ),
        ));
    };
    let role = match target {
        Target::Captain(season, team) => NewRole::captain(user.id, league, season, team),
        Target::Player(player) => NewRole::player(user.id, league, player),
    };
    match db.grant_role(&role, Some(sec.user.id)).await {
        Ok(_) => Ok(form::done(
            &links::at(&sec.league).console().users(),
            format!("{} now has the {} role.", user.username, role.kind.as_str()),
        )),
        Err(e) => {
            let duplicate = match role.kind {
                RoleKind::Player => {
                    "This account is already one of the league's players: that role already exists."
                }
                _ => {
                    "This account already captains that team that season: that role already exists."
                }
            };
            form::refused(e, &mut errors, "username", duplicate)?;
            users_page(&state, sec, &headers, input, errors).await
        }
    }
}

async fn revoke(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, RoleId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let db = state.db();
    let role = db
        .league_roles(sec.league.id)
        .await?
        .into_iter()
        .find(|r| r.id == id)
        .ok_or_else(|| AppError::NotFound("That role".into()))?;
    if !matches!(role.kind, RoleKind::Captain | RoleKind::Player) {
        return Err(AppError::Forbidden(
            "Secretaries are named and removed by the administrator.".into(),
        ));
    }
    db.revoke_role(Some(sec.league.id), id, Some(sec.user.id))
        .await?;
    Ok(form::done(
        &links::at(&sec.league).console().users(),
        "Role removed.",
    ))
}
