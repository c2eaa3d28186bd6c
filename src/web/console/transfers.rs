//! Transfers (LEAGUE.md): a secretary moves a registered player to another
//! team of the season from a day, with an optional fee charged to the new
//! team. The season's transfers are listed beside the form.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::app::transfers;
use crate::db::transfers::{NewTransfer, TransferLine};
use crate::db::{DbError, League, PlayerId, Season, SeasonId, TeamId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;
use crate::web::penalties::{money, parse_pence};

use super::PREFIX;
use super::form::{self, Choice, Errors, FORM};

pub fn router() -> Routes {
    Routes::new().league(
        &format!("{PREFIX}/seasons/{{season}}/transfers"),
        get(show).post(save),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TransferForm {
    player: String,
    team: String,
    /// The day the player plays for the new team from (YYYY-MM-DD).
    on_day: String,
    /// In pounds; empty for none.
    fee: String,
}

#[derive(Template)]
#[template(path = "console/transfers.html")]
struct TransfersPage {
    ctx: Ctx,
    league: League,
    season: Season,
    players: Vec<Choice>,
    teams: Vec<Choice>,
    on_day: String,
    fee: String,
    transfers: Vec<TransferLine>,
    squad_limit: Option<u32>,
    errors: Errors,
}

impl TransfersPage {
    fn fee_of(&self, line: &TransferLine) -> String {
        line.fee_pence
            .filter(|f| *f > 0)
            .map(money)
            .unwrap_or_default()
    }
}

/// The first option of a select, chosen until the user picks.
fn blank(label: &str) -> Choice {
    Choice {
        value: String::new(),
        label: label.to_owned(),
        selected: false,
    }
}

async fn page(
    state: &AppState,
    sec: Secretary,
    season: Season,
    input: &TransferForm,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let teams = db.teams(league).await?;
    let entries = db.team_entries(league, season.id).await?;
    let registrations = db.registrations(league, season.id).await?;
    let players = db.players(league).await?;
    let team_name = |id: TeamId| {
        teams
            .iter()
            .find(|t| t.id == id)
            .map_or(String::new(), |t| t.name.clone())
    };
    let mut player_choices: Vec<Choice> = registrations
        .iter()
        .filter_map(|r| {
            let p = players.iter().find(|p| p.id == r.player_id)?;
            Some(Choice {
                value: p.id.0.to_string(),
                label: format!("{} ({})", p.name, team_name(r.team_id)),
                selected: input.player == p.id.0.to_string(),
            })
        })
        .collect();
    player_choices.sort_by(|a, b| a.label.cmp(&b.label));
    player_choices.insert(0, blank("Choose a player"));
    let mut team_choices: Vec<Choice> = entries
        .iter()
        .map(|e| Choice {
            value: e.team_id.0.to_string(),
            label: team_name(e.team_id),
            selected: input.team == e.team_id.0.to_string(),
        })
        .collect();
    team_choices.sort_by(|a, b| a.label.cmp(&b.label));
    team_choices.insert(0, blank("Choose the new team"));
    let settings = season.rules()?.settings;
    let on_day = if input.on_day.is_empty() {
        sec.league
            .time_zone
            .local(chrono::Utc::now())
            .date()
            .to_string()
    } else {
        input.on_day.clone()
    };
    let page = TransfersPage {
        ctx: sec.user.ctx(),
        transfers: db.season_transfers(league, season.id).await?,
        league: sec.league,
        season,
        players: player_choices,
        teams: team_choices,
        on_day,
        fee: input.fee.clone(),
        squad_limit: settings.squad_limit,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    page(
        &state,
        sec,
        season,
        &TransferForm::default(),
        Errors::default(),
    )
    .await
}

async fn save(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<TransferForm>,
) -> Result<Response> {
    let db = state.db();
    let season = db.season(sec.league.id, season).await?;
    let mut errors = Errors::default();
    let player = input.player.trim().parse::<i64>().ok().map(PlayerId);
    if player.is_none() {
        errors.add("player", "Choose the player who moves.");
    }
    let team = input.team.trim().parse::<i64>().ok().map(TeamId);
    if team.is_none() {
        errors.add("team", "Choose the team they move to.");
    }
    let on_day = NaiveDate::parse_from_str(input.on_day.trim(), "%Y-%m-%d").ok();
    if on_day.is_none() {
        errors.add(
            "on_day",
            "Give the day they play for the new team from, like 2026-11-24.",
        );
    }
    let fee = if input.fee.trim().is_empty() {
        None
    } else {
        match parse_pence(&input.fee) {
            Some(p) if p <= 10_000_000 => Some(p),
            _ => {
                errors.add(
                    "fee",
                    "Give the fee in pounds, like 10 or 2.50, or leave it empty.",
                );
                None
            }
        }
    };
    let (Some(player), Some(to_team), Some(on_day)) = (player, team, on_day) else {
        return page(&state, sec, season, &input, errors).await;
    };
    if !errors.is_empty() {
        return page(&state, sec, season, &input, errors).await;
    }
    let new = NewTransfer {
        player,
        to_team,
        on_day,
        from_at: sec.league.time_zone.day_start(on_day),
        fee_pence: fee,
    };
    match transfers::transfer_player(db, sec.league.id, season.id, &new, Some(sec.user.id)).await {
        Ok(done) => {
            let fee = fee
                .filter(|f| *f > 0)
                .map(|f| format!("; a fee of {} is charged to {}", money(f), done.to_team))
                .unwrap_or_default();
            Ok(form::done(
                &links::at(&sec.league)
                    .console()
                    .season(season.id)
                    .transfers(),
                format!(
                    "Transferred {} from {} to {} from {}{fee}. Their games for {} stay with {}.",
                    done.player,
                    done.from_team,
                    done.to_team,
                    on_day.format("%-d %B %Y"),
                    done.from_team,
                    done.from_team,
                ),
            ))
        }
        Err(DbError::Refused(why)) => {
            errors.add(FORM, format!("{why} Nothing was saved."));
            page(&state, sec, season, &input, errors).await
        }
        Err(e) => Err(e.into()),
    }
}
