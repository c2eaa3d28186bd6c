//! A team's captains for a season: one or two of its registered players,
//! each optionally tied to a user account, which gets the captain's role
//! for the team that season.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::post;
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::db::{PlayerId, SeasonId, TeamId, User};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;

use super::form::{self, Errors};
use super::registrations::{RegisterForm, roster, roster_page};
use super::{PREFIX, at};

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}/captains"),
            post(name),
        )
        .route(
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
}

/// The account a username names, if one was typed.
async fn account(state: &AppState, username: &str, errors: &mut Errors) -> Result<Option<User>> {
    let username = username.trim();
    if username.is_empty() {
        return Ok(None);
    }
    let user = form::account(state.db(), username).await?;
    if user.is_none() {
        errors.add(
            "username",
            "No account has this username: create it on the users page first, or leave this empty.",
        );
    }
    Ok(user)
}

async fn name(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, team, season)): Path<(String, TeamId, SeasonId)>,
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
    let user = account(&state, &input.username, &mut errors).await?;
    if let (Some(player), true) = (player, errors.is_empty()) {
        let account = user.map(|u| u.id);
        match db
            .name_captain(league, season, team, player, account, Some(sec.user.id))
            .await
        {
            Ok(()) => {
                return Ok(form::done(
                    &at(&sec.league, &format!("/teams/{team}/seasons/{season}")),
                    "Captain named.",
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
    roster_page(&state, sec, roster, RegisterForm::default(), input, errors).await
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
        &at(&sec.league, &format!("/teams/{team}/seasons/{season}")),
        "Captain role ended.",
    ))
}
