//! Players: adding and renaming them, and where each is registered.
//! Registering a player to a team is on the team's season page.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::{League, Player, PlayerId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Errors};
use super::people::Links;

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/players"), get(list).post(create))
        .league(
            &format!("{PREFIX}/players/{{player}}"),
            get(edit).post(rename),
        )
}

const DUPLICATE: &str =
    "A player with this name already exists: names tell players apart in match records.";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlayerForm {
    pub name: String,
}

/// A player's name: what match records call them.
pub fn check_name(errors: &mut Errors, field: &'static str, name: &str) -> String {
    form::text(errors, field, name, true, 80)
}

/// Where a player is registered: a season's name and a team's.
pub struct Registered {
    pub season: String,
    pub team: String,
    pub href: String,
}

#[derive(Template)]
#[template(path = "console/players.html")]
struct PlayersPage {
    ctx: Ctx,
    league: League,
    players: Vec<Player>,
    links: Links,
    form: PlayerForm,
    errors: Errors,
}

#[derive(Template)]
#[template(path = "console/player.html")]
struct PlayerPage {
    ctx: Ctx,
    league: League,
    player: Player,
    registered: Vec<Registered>,
    links: Links,
    form: PlayerForm,
    errors: Errors,
}

async fn list_page(
    state: &AppState,
    sec: Secretary,
    form: PlayerForm,
    errors: Errors,
) -> Result<Response> {
    let page = PlayersPage {
        players: state.db().players(sec.league.id).await?,
        links: Links::of(state, &sec.league, None).await?,
        ctx: sec.user.ctx(),
        league: sec.league,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    list_page(&state, sec, PlayerForm::default(), Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<PlayerForm>,
) -> Result<Response> {
    let mut errors = Errors::default();
    let name = check_name(&mut errors, "name", &input.name);
    if errors.is_empty() {
        match state.db().create_player(sec.league.id, &name).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().players(),
                    format!("Player {name} added."),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    list_page(&state, sec, input, errors).await
}

async fn player_page(
    state: &AppState,
    sec: Secretary,
    player: Player,
    form: PlayerForm,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let teams = db.teams(league).await?;
    let mut registered = Vec::new();
    for season in db.seasons(league).await? {
        for r in db.registrations(league, season.id).await? {
            if r.player_id != player.id {
                continue;
            }
            let team = teams.iter().find(|t| t.id == r.team_id);
            registered.push(Registered {
                season: season.name.clone(),
                team: team.map_or_else(String::new, |t| t.name.clone()),
                href: links::at(&sec.league)
                    .console()
                    .team(r.team_id)
                    .season(season.id)
                    .to_string(),
            });
        }
    }
    let links = Links::of(state, &sec.league, Some(player.id)).await?;
    let page = PlayerPage {
        links,
        ctx: sec.user.ctx(),
        league: sec.league,
        player,
        registered,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PlayerId)>,
) -> Result<Response> {
    let player = state.db().player(sec.league.id, id).await?;
    let form = PlayerForm {
        name: player.name.clone(),
    };
    player_page(&state, sec, player, form, Errors::default()).await
}

async fn rename(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PlayerId)>,
    CsrfForm(input): CsrfForm<PlayerForm>,
) -> Result<Response> {
    let player = state.db().player(sec.league.id, id).await?;
    let mut errors = Errors::default();
    let name = check_name(&mut errors, "name", &input.name);
    if errors.is_empty() {
        match state.db().rename_player(sec.league.id, id, &name).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().players(),
                    format!("Player renamed {name} (was {}).", player.name),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    player_page(&state, sec, player, input, errors).await
}
