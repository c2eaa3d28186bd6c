//! A team's season page: its registered players and its captains. This
//! file registers players; `captains` names and removes captains.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;

use crate::app::registrations::register_player;
use crate::db::{DbError, League, Player, PlayerId, Season, SeasonId, Team, TeamId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::captains::CaptainForm;
use super::form::{self, Choice, Errors};
use super::{PREFIX, missing};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}"),
            get(show),
        )
        .league(
            &format!("{PREFIX}/teams/{{team}}/seasons/{{season}}/players"),
            post(register),
        )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RegisterForm {
    /// A player's id.
    pub player: String,
}

/// A team entered in a season, as the address names them.
pub struct Roster {
    pub team: Team,
    pub season: Season,
    pub division: String,
}

/// The team and season of the address; a team not entered in that season
/// has no season page.
pub async fn roster(
    state: &AppState,
    league: &League,
    team: TeamId,
    season: SeasonId,
) -> Result<Roster> {
    let db = state.db();
    let team = db.team(league.id, team).await?;
    let season = db.season(league.id, season).await?;
    let entry = db
        .team_entries(league.id, season.id)
        .await?
        .into_iter()
        .find(|e| e.team_id == team.id)
        .ok_or_else(|| missing(format!("{} in season {}", team.name, season.name)))?;
    let division = db.division(league.id, entry.division_id).await?.name;
    Ok(Roster {
        team,
        season,
        division,
    })
}

struct Line {
    player: Player,
    captain: bool,
}

/// What was typed in the roster page's forms, shown again with a refusal
/// or a preview.
#[derive(Default)]
pub struct Typed {
    pub register: RegisterForm,
    pub captain: CaptainForm,
    /// The pasted list of names.
    pub paste: String,
    /// What saving the paste would do, line by line, once checked.
    pub plan: Option<Vec<super::roster_paste::PlanView>>,
    /// What each column of the paste became, once checked.
    pub columns: Vec<crate::league::columns::ColumnUse>,
}

#[derive(Template)]
#[template(path = "console/roster.html")]
struct RosterPage {
    ctx: Ctx,
    league: League,
    roster: Roster,
    players: Vec<Line>,
    register: Vec<Choice>,
    captain: Vec<Choice>,
    username: String,
    /// The captain form's address, as typed.
    captain_email: String,
    paste: String,
    plan: Option<Vec<super::roster_paste::PlanView>>,
    /// Whether the plan shown may be saved as it is.
    plan_ok: bool,
    /// Invitations of its captains and players not yet taken up.
    invitations: Vec<super::invitations::InvitationView>,
    /// Where the invitations' buttons come back to.
    back: String,
    /// The pasted list's columns and what each became, once checked.
    columns: Vec<crate::league::columns::ColumnUse>,
    errors: Errors,
}

impl RosterPage {
    /// Whether the pasted list had a heading row.
    fn headed(&self) -> bool {
        self.columns.iter().any(|c| c.heading.is_some())
    }
}

/// The team's season page, with what was typed in either form and why it
/// was refused.
pub async fn roster_page(
    state: &AppState,
    sec: Secretary,
    headers: &HeaderMap,
    roster: Roster,
    typed: Typed,
    errors: Errors,
) -> Result<Response> {
    let Typed {
        register,
        captain,
        paste,
        plan,
        columns,
    } = typed;
    let db = state.db();
    let league = sec.league.id;
    let (team, season) = (roster.team.id, roster.season.id);
    let registered = db.team_players(league, season, team).await?;
    let captains = db.captains(league, season, team).await?;
    let registrations = db.registrations(league, season).await?;
    let teams = db.teams(league).await?;
    // Free players first, then those another team has (the database will
    // refuse them, and the form says which team).
    let mut others: Vec<(bool, String, String)> = db
        .players(league)
        .await?
        .into_iter()
        .filter(|p| !registered.iter().any(|r| r.id == p.id))
        .map(|p| {
            let elsewhere = registrations
                .iter()
                .find(|r| r.player_id == p.id)
                .and_then(|r| teams.iter().find(|t| t.id == r.team_id));
            let label = match elsewhere {
                Some(t) => format!("{} (registered to {})", p.name, t.name),
                None => p.name,
            };
            (elsewhere.is_some(), p.id.to_string(), label)
        })
        .collect();
    others.sort_by_key(|(taken, _, _)| *taken);
    let others = others.into_iter().map(|(_, id, label)| (id, label));
    let register_choices = form::choices(
        std::iter::once((String::new(), "Choose a player".to_owned())).chain(others),
        &register.player,
    );
    let captain_choices = form::choices(
        std::iter::once((String::new(), "Choose a registered player".to_owned())).chain(
            registered
                .iter()
                .filter(|p| !captains.iter().any(|c| c.id == p.id))
                .map(|p| (p.id.to_string(), p.name.clone())),
        ),
        &captain.captain,
    );
    let players = registered
        .into_iter()
        .map(|player| Line {
            captain: captains.iter().any(|c| c.id == player.id),
            player,
        })
        .collect();
    let invitations = super::invitations::views(
        db.team_invitations(league, season, team).await?,
        headers,
        sec.league.time_zone,
        chrono::Utc::now(),
    );
    let page = RosterPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        roster,
        players,
        register: register_choices,
        captain: captain_choices,
        username: captain.username,
        captain_email: captain.email,
        plan_ok: plan
            .as_ref()
            .is_some_and(|p| !p.is_empty() && p.iter().all(|l| !l.refused)),
        plan,
        paste,
        invitations,
        back: format!("team-{}-{}", team.0, season.0),
        columns,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((_, team, season)): Path<(String, TeamId, SeasonId)>,
) -> Result<Response> {
    let roster = roster(&state, &sec.league, team, season).await?;
    roster_page(
        &state,
        sec,
        &headers,
        roster,
        Typed::default(),
        Errors::default(),
    )
    .await
}

/// Registers a player to the team for the season; the database refuses a
/// second team in a season, and the form says which team has them.
async fn register(
    sec: Secretary,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((_, team, season)): Path<(String, TeamId, SeasonId)>,
    CsrfForm(input): CsrfForm<RegisterForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let roster = roster(&state, &sec.league, team, season).await?;
    let mut errors = Errors::default();
    let players = db.players(league).await?;
    let player = form::pick(
        &mut errors,
        "player",
        &input.player,
        players.iter().map(|p| p.id.0),
        "Choose one of the league's players.",
    )
    .map(PlayerId);
    if let Some(player) = player {
        match register_player(db, league, season, team, player).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .team(team)
                        .season(season)
                        .to_string(),
                    format!(
                        "{} registered for this team.",
                        players
                            .iter()
                            .find(|p| p.id == player)
                            .map_or("The player", |p| p.name.as_str())
                    ),
                ));
            }
            // The season's squad limit.
            Err(DbError::Refused(why)) => errors.add("player", why.to_string()),
            Err(DbError::Unique(_)) => {
                let name = players
                    .iter()
                    .find(|p| p.id == player)
                    .map_or("This player", |p| p.name.as_str());
                let teams = db.teams(league).await?;
                let with = db
                    .registrations(league, season)
                    .await?
                    .into_iter()
                    .find(|r| r.player_id == player)
                    .and_then(|r| teams.into_iter().find(|t| t.id == r.team_id))
                    .map_or_else(|| "a team".to_owned(), |t| t.name);
                errors.add(
                    "player",
                    format!(
                        "A registration of {name} for {} already exists, with {with}: a player plays for one team a season.",
                        roster.season.name
                    ),
                );
            }
            Err(e) => form::refused(e, &mut errors, "player", "")?,
        }
    }
    let typed = Typed {
        register: input,
        ..Typed::default()
    };
    roster_page(&state, sec, &headers, roster, typed, errors).await
}
