//! The end of a season: its final tables with the moves up and down the
//! roll-over will make, the ties on every rule that want a play-off, and
//! the roll-over itself: the next season started from this one in one
//! step, every move and every team's roster overridable before saving.

use crate::app::formats::match_formats;
use crate::app::rollover::{self, CarriedTeam, NewPlayoff, RollOver};
use crate::web::links;
use crate::web::routes::Routes;
use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use chrono::{NaiveDate, NaiveTime};
use serde::Deserialize;

use crate::db::pages::FixtureScope;
use crate::db::{DbError, Division, DivisionId, FixtureStatus, League, Season, SeasonId, TeamId};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::scores_from_boards;
use crate::league::rollover::{MAX_PLACES, Plan, next_name, plan};
use crate::league::settings::SeasonSettings;
use crate::league::standings::Row;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::dates;
use crate::web::error::Result;
use crate::web::page::Ctx;
use crate::web::views::words::and_list;

use super::PREFIX;
use super::form::{self, Choice, Errors, FORM};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/seasons/{{season}}/end"),
            get(show).post(save),
        )
        .league(
            &format!("{PREFIX}/seasons/{{season}}/playoffs"),
            post(add_playoff),
        )
}

/// The destination select's value for a team left out of next season.
const LEFT_OUT: &str = "out";

/// The roll-over form as typed. Each team's destination is `to_{team}`
/// (a division id of this season, or [`LEFT_OUT`]) and its roster's
/// carry-over `players_{team}` (a checkbox: absent when unticked).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EndForm {
    pub name: String,
    pub places: String,
    /// `preview`: show the moves for `places` again, saving nothing.
    pub action: String,
    #[serde(flatten)]
    pub teams: HashMap<String, String>,
}

/// A play-off as typed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlayoffForm {
    pub division: String,
    pub home: String,
    pub away: String,
    pub date: String,
    pub time: String,
}

struct TeamLine {
    id: i64,
    position: usize,
    name: String,
    played: u32,
    points: i64,
    /// What the final table says: promoted, stays, relegated.
    planned: &'static str,
    destinations: Vec<Choice>,
    /// The destination differs from the plan.
    overridden: bool,
    players: bool,
    /// Registrations and captains, in words.
    roster: String,
}

struct DivisionView {
    name: String,
    teams: Vec<TeamLine>,
}

struct TieView {
    id: String,
    text: String,
    division: DivisionId,
    home: Vec<Choice>,
    away: Vec<Choice>,
}

#[derive(Template)]
#[template(path = "console/season_end.html")]
struct EndPage {
    ctx: Ctx,
    league: League,
    season: Season,
    /// When it was rolled over, in words; then nothing here can change.
    closed: Option<String>,
    /// Fixtures without a counted result: the tables are not final.
    unfinished: usize,
    divisions: Vec<DivisionView>,
    ties: Vec<TieView>,
    /// Boundaries where fewer teams move than the setting, in sentences.
    reduced: Vec<String>,
    name: String,
    places: String,
    errors: Errors,
    playoff_errors: Errors,
}

/// Everything the page shows, read in a fixed number of queries.
struct SeasonEnd {
    season: Season,
    divisions: Vec<Division>,
    tables: Vec<Vec<Row>>,
    names: HashMap<i64, String>,
    unfinished: usize,
    players: HashMap<TeamId, usize>,
    captains: HashMap<TeamId, Vec<String>>,
}

async fn load(state: &AppState, league: &League, id: SeasonId) -> Result<SeasonEnd> {
    let db = state.db();
    let season = db.season(league.id, id).await?;
    let divisions = db.divisions(league.id, id).await?;
    let scope = FixtureScope::Season(id);
    let fixtures = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let entries = db.entry_lines(league.id, id).await?;
    let deductions = db.deduction_lines(league.id, id).await?;
    let registrations = db.registrations(league.id, id).await?;
    let captains = db.season_captains(league.id, id).await?;
    let format = match_formats(std::slice::from_ref(&season))?
        .remove(&season.id)
        .unwrap_or_else(|| MatchFormat::default_for(season.format));
    let rules = season.rules()?.settings.tie_breakers;
    let scores = scores_from_boards(&boards, &format);
    let tables = divisions
        .iter()
        .map(|d| {
            crate::app::division_table::division_rows(
                d.id,
                &fixtures,
                &scores,
                &entries,
                &deductions,
                &format,
                &rules,
                None,
            )
        })
        .collect();
    let unfinished = fixtures
        .iter()
        .filter(|f| match f.status {
            FixtureStatus::Void | FixtureStatus::Walkover => false,
            _ => scores.get(&f.id).is_none_or(|s| s.provisional()),
        })
        .count();
    let mut players: HashMap<TeamId, usize> = HashMap::new();
    for r in &registrations {
        *players.entry(r.team_id).or_default() += 1;
    }
    let mut by_team: HashMap<TeamId, Vec<String>> = HashMap::new();
    for (team, name) in captains {
        by_team.entry(team).or_default().push(name);
    }
    Ok(SeasonEnd {
        season,
        divisions,
        tables,
        names: entries
            .iter()
            .map(|e| (e.team_id.0, e.team_name.clone()))
            .collect(),
        unfinished,
        players,
        captains: by_team,
    })
}

impl SeasonEnd {
    fn name(&self, team: i64) -> &str {
        self.names.get(&team).map_or("?", String::as_str)
    }

    /// The page for `places` up and down; `typed`: the form as sent (its
    /// destinations and rosters kept), `None` for the plan's defaults.
    fn page(
        &self,
        sec: &Secretary,
        name: String,
        places: u32,
        typed: Option<&EndForm>,
        errors: Errors,
        playoff_errors: Errors,
    ) -> EndPage {
        let p: Plan = plan(&self.tables, places);
        let zone = sec.league.time_zone;
        let mut divisions: Vec<DivisionView> = self
            .divisions
            .iter()
            .map(|d| DivisionView {
                name: d.name.clone(),
                teams: Vec::new(),
            })
            .collect();
        for placement in &p.placements {
            let row = &self.tables[placement.from][placement.position - 1];
            let team = TeamId(placement.team);
            let planned_value = self.divisions[placement.to].id.to_string();
            let chosen = typed
                .and_then(|f| f.teams.get(&format!("to_{}", placement.team)))
                .cloned()
                .unwrap_or_else(|| planned_value.clone());
            let players =
                typed.is_none_or(|f| f.teams.contains_key(&format!("players_{}", placement.team)));
            let count = self.players.get(&team).copied().unwrap_or(0);
            let captains = self.captains.get(&team).map(|c| c.join(", "));
            let roster = match (count, captains) {
                (0, _) => "no players registered".to_owned(),
                (n, None) => format!("{n} player{}, no captain", if n == 1 { "" } else { "s" }),
                (n, Some(c)) => {
                    format!("{n} player{}; captain {c}", if n == 1 { "" } else { "s" })
                }
            };
            divisions[placement.from].teams.push(TeamLine {
                id: placement.team,
                position: placement.position,
                name: self.name(placement.team).to_owned(),
                played: row.played,
                points: row.points,
                planned: placement.movement.label(),
                destinations: form::choices(
                    self.divisions
                        .iter()
                        .map(|d| (d.id.to_string(), d.name.clone()))
                        .chain(std::iter::once((
                            LEFT_OUT.to_owned(),
                            "Not entered next season".to_owned(),
                        ))),
                    &chosen,
                ),
                overridden: chosen != planned_value,
                players,
                roster,
            });
        }
        let ties = p
            .ties
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let names: Vec<&str> = t.teams.iter().map(|k| self.name(*k)).collect();
                let options = |pick: usize| {
                    form::choices(
                        t.teams.iter().map(|k| (k.to_string(), self.name(*k))),
                        &t.teams.get(pick).map(i64::to_string).unwrap_or_default(),
                    )
                };
                TieView {
                    id: format!("tie-{i}"),
                    text: format!(
                        "{}: {} are level on every rule for {}.",
                        self.divisions[t.division].name,
                        and_list(&names),
                        t.boundary.label()
                    ),
                    division: self.divisions[t.division].id,
                    home: options(0),
                    away: options(1),
                }
            })
            .collect();
        let reduced = p
            .reduced
            .iter()
            .filter(|_| places > 0)
            .map(|(d, n)| {
                format!(
                    "Between {} and {} only {n} team{} go{} up and down: a division is too small for {places}.",
                    self.divisions[*d].name,
                    self.divisions[*d + 1].name,
                    if *n == 1 { "" } else { "s" },
                    if *n == 1 { "es" } else { "" },
                )
            })
            .collect();
        EndPage {
            ctx: sec.user.ctx(),
            league: sec.league.clone(),
            season: self.season.clone(),
            closed: self.season.closed_at.map(|t| dates::when(zone, t)),
            unfinished: self.unfinished,
            divisions,
            ties,
            reduced,
            name,
            places: places.to_string(),
            errors,
            playoff_errors,
        }
    }
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let end = load(&state, &sec.league, season).await?;
    let places = end.season.rules()?.settings.promotion_places;
    let name = next_name(&end.season.name);
    let page = end.page(
        &sec,
        name,
        places,
        None,
        Errors::default(),
        Errors::default(),
    );
    Ok(form::page(&page, &page.errors))
}

async fn save(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<EndForm>,
) -> Result<Response> {
    let end = load(&state, &sec.league, season).await?;
    let mut errors = Errors::default();
    let name = form::text(&mut errors, "name", &input.name, true, 60);
    let places = form::whole(
        &mut errors,
        "places",
        &input.places,
        0,
        i64::from(MAX_PLACES),
    ) as u32;
    if end.season.is_closed() {
        errors.add(
            FORM,
            "This season was rolled over already: it is kept as it is.",
        );
    }
    if input.action == "preview" {
        // The moves for the number typed: destinations back to the plan.
        let shown = places.min(MAX_PLACES);
        let typed = EndForm {
            teams: input
                .teams
                .iter()
                .filter(|(k, _)| k.starts_with("players_"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            ..EndForm::default()
        };
        let mut page = end.page(&sec, name, shown, Some(&typed), errors, Errors::default());
        // What was typed comes back as it was, beside its error.
        page.places = input.places.trim().to_owned();
        return Ok(form::page(&page, &page.errors));
    }
    let p = plan(&end.tables, places);
    let mut teams = Vec::new();
    let (mut up, mut down, mut changed, mut out) = (0, 0, 0, 0);
    for placement in &p.placements {
        let key = format!("to_{}", placement.team);
        let typed = input.teams.get(&key).map(|v| v.trim()).unwrap_or_default();
        let to = if typed == LEFT_OUT {
            None
        } else {
            match end.divisions.iter().position(|d| d.id.to_string() == typed) {
                Some(i) => Some(i),
                None => {
                    errors.add(
                        FORM,
                        format!(
                            "Choose where {} plays next season: one of the divisions, or not entered.",
                            end.name(placement.team)
                        ),
                    );
                    continue;
                }
            }
        };
        if to != Some(placement.to) {
            changed += 1;
        }
        let Some(to) = to else {
            out += 1;
            continue;
        };
        match to.cmp(&placement.from) {
            std::cmp::Ordering::Less => up += 1,
            std::cmp::Ordering::Greater => down += 1,
            std::cmp::Ordering::Equal => {}
        }
        teams.push(CarriedTeam {
            team: TeamId(placement.team),
            division: end.divisions[to].id,
            players: input
                .teams
                .contains_key(&format!("players_{}", placement.team)),
        });
    }
    if errors.is_empty() {
        let next = RollOver {
            name: name.clone(),
            settings: SeasonSettings {
                promotion_places: places,
                ..end.season.rules()?.settings
            },
            teams,
        };
        match rollover::roll_over(
            state.db(),
            sec.league.id,
            end.season.id,
            &next,
            Some(sec.user.id),
        )
        .await
        {
            Ok(done) => {
                let s = |n: u64, one: &str, many: &str| {
                    format!("{n} {}", if n == 1 { one } else { many })
                };
                let mut msg = format!(
                    "Season {} started from {}: {}, {} ({} up, {} down{}), {} and {} carried over; {} is now kept as it is. Generate each division's fixtures next.",
                    done.season.name,
                    end.season.name,
                    s(done.divisions as u64, "division", "divisions"),
                    s(done.teams as u64, "team", "teams"),
                    up,
                    down,
                    if out > 0 {
                        format!(", {out} left out")
                    } else {
                        String::new()
                    },
                    s(done.registrations, "registration", "registrations"),
                    s(done.captains, "captain", "captains"),
                    end.season.name,
                );
                if changed > 0 {
                    msg.push_str(&format!(
                        " {} changed by hand from the final tables.",
                        s(changed, "move was", "moves were")
                    ));
                }
                return Ok(form::done(
                    &links::at(&sec.league)
                        .console()
                        .season(done.season.id)
                        .divisions(),
                    msg,
                ));
            }
            Err(DbError::Unique(_)) => errors.add(
                "name",
                "The league has a season with this name already: choose another.",
            ),
            Err(e) => form::refused(e, &mut errors, FORM, "")?,
        }
    }
    let mut page = end.page(&sec, name, places, Some(&input), errors, Errors::default());
    page.places = input.places.trim().to_owned();
    Ok(form::page(&page, &page.errors))
}

async fn add_playoff(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<PlayoffForm>,
) -> Result<Response> {
    let end = load(&state, &sec.league, season).await?;
    let mut errors = Errors::default();
    let division = end
        .divisions
        .iter()
        .find(|d| d.id.to_string() == input.division.trim());
    if division.is_none() {
        errors.add("playoff", "Choose one of this season's divisions.");
    }
    let team = |typed: &str| typed.trim().parse::<i64>().ok().map(TeamId);
    let (home, away) = (team(&input.home), team(&input.away));
    if home.is_none() || away.is_none() {
        errors.add("playoff", "Choose the two teams of the play-off.");
    } else if home == away {
        errors.add("playoff", "A play-off is between two different teams.");
    }
    let zone = sec.league.time_zone;
    let starts_at = match input.date.trim() {
        "" => None,
        typed => {
            let date = NaiveDate::parse_from_str(typed, "%Y-%m-%d");
            let time = match input.time.trim() {
                "" => Ok(NaiveTime::from_hms_opt(20, 0, 0).expect("a time of day")),
                t => NaiveTime::parse_from_str(t, "%H:%M"),
            };
            match (date, time) {
                (Ok(d), Ok(t)) => match zone.instant(d, t) {
                    Ok(at) => Some(at),
                    Err(why) => {
                        errors.add("playoff", why.to_string());
                        None
                    }
                },
                (Err(_), _) => {
                    errors.add(
                        "playoff",
                        format!("`{typed}` is not a date: give it as 2027-05-20."),
                    );
                    None
                }
                (_, Err(_)) => {
                    errors.add(
                        "playoff",
                        format!("`{}` is not a time: give it as 19:30.", input.time.trim()),
                    );
                    None
                }
            }
        }
    };
    if let (Some(division), Some(home), Some(away), true) =
        (division, home, away, errors.is_empty())
    {
        let new = NewPlayoff {
            division: division.id,
            home,
            away,
            starts_at,
            venue: None,
        };
        match rollover::add_playoff(state.db(), sec.league.id, &new, Some(sec.user.id)).await {
            Ok(fixture) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().season(end.season.id).end(),
                    format!(
                        "Play-off added in {}: {} v {} (round {}{}). Its result settles only their order; it does not count in the table.",
                        division.name,
                        end.name(home.0),
                        end.name(away.0),
                        fixture.round,
                        fixture
                            .starts_at
                            .map(|t| format!(", {}", dates::when(zone, t)))
                            .unwrap_or_default(),
                    ),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "playoff", "")?,
        }
    }
    let places = end.season.rules()?.settings.promotion_places;
    let name = next_name(&end.season.name);
    let page = end.page(&sec, name, places, None, Errors::default(), errors);
    Ok(form::page(&page, &page.playoff_errors))
}
