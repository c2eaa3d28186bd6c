//! The secretary's penalties page and the league's fines ledger: penalties
//! off the table (league points, fines, warnings) against a team or a
//! player, in a fixture or not. In-game penalties go on the match card.

use crate::web::links;
use crate::web::routes::Routes;
use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;

use crate::db::{
    FineId, FixtureId, NewPenalty, PenaltyEffect, PenaltyId, PenaltyKindId, PlayerId, SeasonId,
    TeamId, now,
};
use crate::league::penalties::repeat_warnings;

use super::AppState;
use super::auth::Secretary;
use super::csrf::CsrfForm;
use super::dates::iso_day;
use super::error::{AppError, Result};
use super::page::{Ctx, html, invalid};

pub fn router() -> Routes {
    Routes::new()
        .league("/penalties", get(show).post(record))
        .league("/penalties/{id}/void", post(void))
        .league("/fines", get(fines))
        .league("/fines/{id}/paid", post(paid))
}

#[derive(Deserialize, Default)]
pub struct SeasonQuery {
    season: Option<i64>,
}

#[derive(Deserialize, Default, Clone)]
pub struct PenaltyForm {
    #[serde(default)]
    season: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    against: String,
    #[serde(default)]
    fixture: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    note: String,
}

#[derive(Template)]
#[template(path = "penalties/list.html")]
struct PenaltiesPage {
    ctx: Ctx,
    league: String,
    short: String,
    season_id: i64,
    seasons: Vec<(i64, String, bool)>,
    kinds: Vec<(i64, String, bool)>,
    against: Vec<(String, String, bool)>,
    fixtures: Vec<(i64, String, bool)>,
    form: PenaltyForm,
    errors: HashMap<&'static str, String>,
    rows: Vec<PenaltyRow>,
}

struct PenaltyRow {
    id: PenaltyId,
    when: String,
    against: String,
    kind: String,
    amount: String,
    note: String,
    fixture: String,
    voided: bool,
    repeat_warning: bool,
}

pub use crate::league::penalties::money;

/// Pounds as typed (`5`, `5.5`, `5.50`, `£5`) to pence.
pub(crate) fn parse_pence(s: &str) -> Option<i64> {
    let s = s.trim().trim_start_matches('£');
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty()
        || frac.len() > 2
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let pounds: i64 = whole.parse().ok()?;
    let pence: i64 = format!("{frac:0<2}").parse().ok()?;
    pounds.checked_mul(100)?.checked_add(pence)
}

async fn page(
    state: &AppState,
    sec: &Secretary,
    season: Option<i64>,
    form: PenaltyForm,
    errors: HashMap<&'static str, String>,
) -> Result<PenaltiesPage> {
    let db = state.db();
    let league = sec.league.id;
    let seasons = db.seasons(league).await?;
    let Some(current) = season
        .and_then(|id| seasons.iter().find(|s| s.id.0 == id))
        .or_else(|| seasons.last())
    else {
        return Err(AppError::BadRequest(
            "This league has no season yet: create one in the console first.".into(),
        ));
    };
    let kinds = db.penalty_kinds(league).await?;
    let teams = db.teams(league).await?;
    let players = db.players(league).await?;
    let fixtures = db.fixtures(league, current.id).await?;
    let penalties = db.penalties(league, current.id).await?;
    let team_name: HashMap<TeamId, &str> = teams.iter().map(|t| (t.id, t.name.as_str())).collect();
    let player_name: HashMap<PlayerId, &str> =
        players.iter().map(|p| (p.id, p.name.as_str())).collect();
    let kind_of: HashMap<PenaltyKindId, &crate::db::PenaltyKind> =
        kinds.iter().map(|k| (k.id, k)).collect();
    let fixture_label = |id: FixtureId| {
        fixtures
            .iter()
            .find(|f| f.id == id)
            .map(|f| {
                format!(
                    "Round {}: {} v {}",
                    f.round,
                    team_name.get(&f.home_team_id).unwrap_or(&"?"),
                    team_name.get(&f.away_team_id).unwrap_or(&"?")
                )
            })
            .unwrap_or_default()
    };
    let repeats = repeat_warnings(penalties.iter().map(|p| {
        let warning = kind_of
            .get(&p.kind_id)
            .is_some_and(|k| k.effect == PenaltyEffect::Warning);
        (p.player_id, p.kind_id, warning, p.voided_at.is_none())
    }));
    let mut rows = Vec::new();
    for (p, repeat_warning) in penalties.iter().zip(repeats) {
        let kind = kind_of.get(&p.kind_id);
        let effect = kind.map(|k| k.effect);
        rows.push(PenaltyRow {
            id: p.id,
            when: iso_day(sec.league.time_zone, p.recorded_at),
            against: match (p.team_id, p.player_id) {
                (Some(t), _) => team_name.get(&t).map_or("?".into(), |n| n.to_string()),
                (_, Some(pl)) => player_name.get(&pl).map_or("?".into(), |n| n.to_string()),
                _ => String::new(),
            },
            kind: kind.map_or("?".into(), |k| k.name.clone()),
            amount: effect.map_or_else(String::new, |e| e.amount_words(p.amount)),
            note: p.note.clone(),
            fixture: p.fixture_id.map(fixture_label).unwrap_or_default(),
            voided: p.voided_at.is_some(),
            repeat_warning,
        });
    }
    rows.reverse();
    let mut against: Vec<(String, String, bool)> = teams
        .iter()
        .map(|t| {
            let v = format!("team:{}", t.id);
            let sel = v == form.against;
            (v, format!("Team: {}", t.name), sel)
        })
        .collect();
    against.extend(players.iter().map(|p| {
        let v = format!("player:{}", p.id);
        let sel = v == form.against;
        (v, format!("Player: {}", p.name), sel)
    }));
    Ok(PenaltiesPage {
        ctx: sec.user.ctx(),
        league: sec.league.name.clone(),
        short: sec.league.short_name.clone(),
        season_id: current.id.0,
        seasons: seasons
            .iter()
            .map(|s| (s.id.0, s.name.clone(), s.id == current.id))
            .collect(),
        kinds: kinds
            .iter()
            .map(|k| (k.id.0, k.name.clone(), k.id.0.to_string() == form.kind))
            .collect(),
        against,
        fixtures: fixtures
            .iter()
            .map(|f| {
                (
                    f.id.0,
                    fixture_label(f.id),
                    f.id.0.to_string() == form.fixture,
                )
            })
            .collect(),
        form,
        errors,
        rows,
    })
}

pub async fn show(
    State(state): State<AppState>,
    sec: Secretary,
    Query(q): Query<SeasonQuery>,
) -> Result<Response> {
    Ok(html(
        &page(
            &state,
            &sec,
            q.season,
            PenaltyForm::default(),
            HashMap::new(),
        )
        .await?,
    ))
}

pub async fn record(
    State(state): State<AppState>,
    sec: Secretary,
    CsrfForm(form): CsrfForm<PenaltyForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let mut errors: HashMap<&'static str, String> = HashMap::new();
    let season = form.season.parse::<i64>().ok();
    let kinds = db.penalty_kinds(league).await?;
    let kind = form
        .kind
        .parse::<i64>()
        .ok()
        .and_then(|id| kinds.iter().find(|k| k.id.0 == id));
    if kind.is_none() {
        errors.insert("kind", "Choose the kind of penalty.".into());
    }
    let (team_id, player_id) = match form.against.split_once(':') {
        Some(("team", id)) => (id.parse().ok().map(TeamId), None),
        Some(("player", id)) => (None, id.parse().ok().map(PlayerId)),
        _ => (None, None),
    };
    if team_id.is_none() && player_id.is_none() {
        errors.insert("against", "Choose the team or player it is against.".into());
    }
    let fixture_id = match form.fixture.trim() {
        "" => None,
        f => match f.parse::<i64>() {
            Ok(id) => Some(FixtureId(id)),
            Err(_) => {
                errors.insert("fixture", "Choose a fixture from the list, or none.".into());
                None
            }
        },
    };
    let amount = match kind.map(|k| k.effect) {
        Some(PenaltyEffect::Fine) if form.amount.trim().is_empty() => kind.map(|k| k.amount),
        Some(PenaltyEffect::Fine) => parse_pence(&form.amount)
            .filter(|a| *a <= PenaltyEffect::Fine.most())
            .or_else(|| {
                errors.insert(
                    "amount",
                    format!(
                        "Give the fine in pounds, like 5 or 2.50, up to {}.",
                        money(PenaltyEffect::Fine.most())
                    ),
                );
                None
            }),
        Some(_) if form.amount.trim().is_empty() => kind.map(|k| k.amount),
        Some(effect) => form
            .amount
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|a| (0..=effect.most()).contains(a))
            .or_else(|| {
                errors.insert(
                    "amount",
                    format!("Give a whole number from 0 to {}.", effect.most()),
                );
                None
            }),
        None => None,
    };
    if form.note.chars().count() > 500 {
        errors.insert("note", "Keep the note under 500 characters.".into());
    }
    if !errors.is_empty() {
        return Ok(invalid(&page(&state, &sec, season, form, errors).await?));
    }
    let (Some(kind), Some(amount), Some(season)) = (kind, amount, season) else {
        return Err(AppError::BadRequest("Choose a season.".into()));
    };
    let new = NewPenalty {
        season_id: SeasonId(season),
        fixture_id,
        team_id,
        player_id,
        kind_id: kind.id,
        amount,
        note: form.note.trim().to_owned(),
    };
    // The penalty and, for a fine, its line in the ledger: one transaction.
    match crate::app::penalties::record(db, league, &new, Some(sec.user.id)).await {
        Ok(_) => {}
        // A team, player or fixture of another league or season: a form
        // error, never a 500.
        Err(
            crate::db::DbError::ForeignKey(_)
            | crate::db::DbError::Refused(_)
            | crate::db::DbError::NotFound(_),
        ) => {
            errors.insert(
                "against",
                "That team, player or fixture is not in this league's season.".into(),
            );
            return Ok(invalid(
                &page(&state, &sec, Some(season), form, errors).await?,
            ));
        }
        Err(e) => return Err(e.into()),
    }
    Ok(super::flash::saved(
        &format!("{}?season={season}", links::at(&sec.league).penalties()),
        "Penalty recorded: it is listed below, and any fine is in the fines ledger.",
    ))
}

/// The form's `season` (sent for the page to return to) is not read: the
/// way back is built from the penalty's own season.
#[derive(Deserialize)]
pub struct FlagForm {
    #[serde(default)]
    set: String,
}

pub async fn void(
    State(state): State<AppState>,
    sec: Secretary,
    Path((_, id)): Path<(String, i64)>,
    CsrfForm(form): CsrfForm<FlagForm>,
) -> Result<Response> {
    let penalty = state
        .db()
        .void_penalty(
            sec.league.id,
            PenaltyId(id),
            form.set != "0",
            Some(sec.user.id),
        )
        .await?;
    Ok(super::flash::saved(
        &format!(
            "{}?season={}",
            links::at(&sec.league).penalties(),
            penalty.season_id
        ),
        if form.set != "0" {
            "Penalty voided: it no longer counts."
        } else {
            "Penalty restored: it counts again."
        },
    ))
}

#[derive(Template)]
#[template(path = "penalties/fines.html")]
struct FinesPage {
    ctx: Ctx,
    league: String,
    short: String,
    rows: Vec<FineRow>,
    owed: Vec<(String, String)>,
    total_owed: String,
}

struct FineRow {
    id: FineId,
    when: String,
    who: String,
    amount: String,
    reason: String,
    paid: Option<String>,
}

pub async fn fines(State(state): State<AppState>, sec: Secretary) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let fines = db.fines(league).await?;
    let teams = db.teams(league).await?;
    let players = db.players(league).await?;
    let who = |t: Option<TeamId>, p: Option<PlayerId>| match (t, p) {
        (Some(t), _) => teams
            .iter()
            .find(|x| x.id == t)
            .map_or("?".into(), |x| x.name.clone()),
        (_, Some(p)) => players
            .iter()
            .find(|x| x.id == p)
            .map_or("?".into(), |x| x.name.clone()),
        _ => String::new(),
    };
    let mut owed: std::collections::BTreeMap<String, i64> = Default::default();
    let rows = fines
        .iter()
        .map(|f| {
            let name = who(f.team_id, f.player_id);
            if f.paid_at.is_none() {
                *owed.entry(name.clone()).or_default() += f.amount_pence;
            }
            FineRow {
                id: f.id,
                when: iso_day(sec.league.time_zone, f.created_at),
                who: name,
                amount: money(f.amount_pence),
                reason: f.reason.clone(),
                paid: f.paid_at.map(|d| iso_day(sec.league.time_zone, d)),
            }
        })
        .collect();
    let total: i64 = owed.values().sum();
    Ok(html(&FinesPage {
        ctx: sec.user.ctx(),
        league: sec.league.name.clone(),
        short: sec.league.short_name.clone(),
        rows,
        owed: owed.into_iter().map(|(k, v)| (k, money(v))).collect(),
        total_owed: money(total),
    }))
}

pub async fn paid(
    State(state): State<AppState>,
    sec: Secretary,
    Path((_, id)): Path<(String, i64)>,
    CsrfForm(form): CsrfForm<FlagForm>,
) -> Result<Response> {
    let when = (form.set != "0").then(now);
    state
        .db()
        .set_fine_paid(sec.league.id, FineId(id), when, Some(sec.user.id))
        .await?;
    Ok(super::flash::saved(
        &links::at(&sec.league).fines(),
        if when.is_some() {
            "Fine marked paid."
        } else {
            "Fine marked unpaid again."
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pounds_to_pence() {
        assert_eq!(parse_pence("5"), Some(500));
        assert_eq!(parse_pence("£2.5"), Some(250));
        assert_eq!(parse_pence("2.05"), Some(205));
        assert_eq!(parse_pence("2.555"), None);
        assert_eq!(parse_pence("-1"), None);
        assert_eq!(parse_pence("abc"), None);
        assert_eq!(money(1205), "£12.05");
    }
}
