//! A season set up in one sitting (issue 39): its venues, divisions,
//! teams, players and captains from rows pasted from a spreadsheet or a
//! CSV file. Checked first, the preview saying what each column became and
//! what saving makes, every mistake named with its row; then saved in one
//! transaction, the invitations emailed where there is an address.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::app::setup::{SetUp, set_up};
use crate::db::{DbError, League, PlayerId, Season, SeasonId};
use crate::league::import::{self, ImportPlan, Known, KnownTeam, Named};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Errors, FORM};
use super::roster_invites::{CaptainWanted, captain_invites, player_invites_past, reached};

pub fn router() -> Routes {
    Routes::new().league(
        &format!("{PREFIX}/seasons/{{season}}/import"),
        get(show).post(check_or_save),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ImportForm {
    /// The file chosen, read as text.
    file: String,
    /// Or its rows pasted.
    csv: String,
    /// `check` or `save`.
    action: String,
}

#[derive(Template)]
#[template(path = "console/import.html")]
struct ImportPage {
    ctx: Ctx,
    league: League,
    season: Season,
    csv: String,
    plan: Option<ImportPlan>,
    /// The season's divisions and the league's venues, by id, for the
    /// plan's table.
    divisions: Vec<(i64, String)>,
    venues: Vec<(i64, String)>,
    errors: Errors,
}

impl ImportPage {
    fn named(list: &[(i64, String)], n: &Named) -> String {
        match n {
            Named::Known(id) => list
                .iter()
                .find(|(d, _)| d == id)
                .map_or_else(String::new, |(_, n)| n.clone()),
            Named::New(name) => name.clone(),
        }
    }
    fn division(&self, n: &Named) -> String {
        Self::named(&self.divisions, n)
    }
    fn venue(&self, n: &Option<Named>) -> String {
        n.as_ref()
            .map_or_else(String::new, |n| Self::named(&self.venues, n))
    }
    /// Whether the file may be saved as it is.
    fn ready(&self) -> bool {
        self.plan.as_ref().is_some_and(|p| p.errors.is_empty())
    }
}

async fn known(state: &AppState, league: &League, season: &Season) -> Result<Known> {
    let db = state.db();
    let entries = db.team_entries(league.id, season.id).await?;
    let registrations = db.registrations(league.id, season.id).await?;
    Ok(Known {
        divisions: db
            .divisions(league.id, season.id)
            .await?
            .into_iter()
            .map(|d| (d.id.0, d.name))
            .collect(),
        venues: db
            .venues(league.id)
            .await?
            .into_iter()
            .map(|v| (v.id.0, v.name))
            .collect(),
        teams: db
            .teams(league.id)
            .await?
            .into_iter()
            .map(|t| KnownTeam {
                division: entries
                    .iter()
                    .find(|e| e.team_id == t.id)
                    .map(|e| e.division_id.0),
                id: t.id.0,
                name: t.name,
            })
            .collect(),
        players: db
            .players(league.id)
            .await?
            .into_iter()
            .map(|p| {
                let team = registrations
                    .iter()
                    .find(|r| r.player_id == p.id)
                    .map(|r| r.team_id.0);
                (p.id.0, p.name, team)
            })
            .collect(),
        captains: db
            .season_captain_ids(league.id, season.id)
            .await?
            .into_iter()
            .map(|(t, p)| (t.0, p.0))
            .collect(),
        taken: crate::web::routes::taken_division_segments().to_vec(),
    })
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    let known = known(&state, &sec.league, &season).await?;
    let page = ImportPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        csv: String::new(),
        plan: None,
        divisions: known.divisions,
        venues: known.venues,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `captain` or `captains`, for `n`.
fn plural_word(n: usize, one: &str) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        format!("{one}s")
    }
}

async fn check_or_save(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<ImportForm>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    let known = known(&state, &sec.league, &season).await?;
    let csv = if input.file.trim().is_empty() {
        input.csv
    } else {
        input.file
    };
    let mut errors = Errors::default();
    let plan = import::plan(&csv, &known);
    if !plan.errors.is_empty() {
        errors.add(
            FORM,
            format!(
                "{} in the rows (listed below): correct {} and check again. Nothing was saved.",
                plural(plan.errors.len(), "problem", "problems"),
                if plan.errors.len() == 1 { "it" } else { "them" }
            ),
        );
    } else if input.action == "save" {
        let reached = reached(&state, &sec.league).await?;
        let mut players = Vec::new();
        let mut captains = Vec::new();
        for t in &plan.teams {
            for p in &t.players {
                let id = p.id.map(PlayerId);
                if p.captain && !p.captain_already {
                    captains.push(CaptainWanted {
                        player: id,
                        name: p.name.clone(),
                        team: t.name.clone(),
                        email: p.email.clone(),
                    });
                } else if let Some(email) = &p.email {
                    players.push((id, p.name.clone(), email.clone()));
                }
            }
        }
        let players = player_invites_past(&state, &sec.league, players, &reached);
        let captains = captain_invites(&state, &sec.league, captains, &reached);
        let saved = set_up(
            state.db(),
            sec.league.id,
            season.id,
            &SetUp {
                plan: &plan,
                players: &players,
                captains: &captains,
                accounts: &reached.accounts,
            },
            Some(sec.user.id),
        )
        .await;
        match saved {
            Ok(()) => {
                let emailed = captains.iter().filter(|c| c.email.is_some()).count();
                let mut sent = Vec::new();
                if emailed > 0 {
                    sent.push(format!("{emailed} emailed to {}", plural_word(emailed, "captain")));
                }
                if !players.is_empty() {
                    sent.push(format!(
                        "{} emailed to {}",
                        players.len(),
                        plural_word(players.len(), "player")
                    ));
                }
                if captains.len() > emailed {
                    sent.push(format!(
                        "{} to copy and send yourself (no address)",
                        captains.len() - emailed
                    ));
                }
                let invited = if sent.is_empty() {
                    String::new()
                } else {
                    format!(
                        " Invitations: {}; each stays listed on its team's page and on the users page until it is taken up.",
                        sent.join(", ")
                    )
                };
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .season(season.id)
                        .divisions(),
                    format!(
                        "Set up in {}: {}, {}, {} ({} entered in a division), {} ({} registered), {} named.",
                        season.name,
                        plural(plan.new_venues.len(), "new venue", "new venues"),
                        plural(plan.new_divisions.len(), "new division", "new divisions"),
                        plural(plan.new_teams(), "new team", "new teams"),
                        plan.entries(),
                        plural(plan.new_players(), "new player", "new players"),
                        plan.registrations(),
                        plural(plan.new_captains(), "captain", "captains"),
                    ) + &invited,
                ));
            }
            Err(DbError::Unique(_)) => errors.add(
                FORM,
                "A venue, division, team or player of these rows was added meanwhile: check them again. Nothing was saved.",
            ),
            // The season's squad limit, or a team's captains.
            Err(DbError::Refused(why)) => errors.add(FORM, why.to_string()),
            Err(e) => return Err(e.into()),
        }
    }
    let page = ImportPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        csv,
        plan: Some(plan),
        divisions: known.divisions,
        venues: known.venues,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
