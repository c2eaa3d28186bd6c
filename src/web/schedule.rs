//! A division's season of fixtures and what is made from it: generating it
//! (a draft shown before it is saved), postponing one fixture, the
//! iCalendar feeds of a team and a division, and the printouts (a team's
//! fixture card, a fixture's score sheet).
//!
//! Times are stored in UTC. The kick-off typed is the league's own clock
//! time (its time zone, summer time and all), and every page shows times in
//! that zone; the calendar feeds give the UTC instants.

use crate::app;
use crate::web::links;
use crate::web::routes::Routes;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc, Weekday};
use serde::Deserialize;

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{
    Division, DivisionId, FixtureHistory, FixtureId, FixtureMoment, FixtureStatus, League,
    NewFixture, PlayerId, Season, TeamId, VenueId,
};
use crate::league::fixtures::{
    Booking, Draft, FixtureRequest, Hosted, TeamSlot, VenueClash, generate, over_tables,
    venue_nights,
};
use crate::league::ical::{self, Change, Event, EventState, FixtureFacts};
use crate::league::match_format::BoardKind;
use crate::league::sheet::{self, Example, HandBoxes, Seat};
use crate::league::time::{NoSuchTime, Zone};

use super::AppState;
use super::auth::{InLeague, MaybeUser, Secretary};
use super::console::form::{self, Choice, Errors, FORM};
use super::csrf::CsrfForm;
use super::dates;
use super::error::{AppError, Result};
use super::links::Link;
use super::page::{Ctx, html};

pub fn router() -> Routes {
    Routes::new()
        .league("/schedule/{division}", get(schedule).post(generate_season))
        .league(
            "/schedule/{division}/discard",
            axum::routing::post(discard_season),
        )
        .league(
            "/fixtures/{fixture}/postpone",
            get(postpone_form).post(postpone),
        )
        .league("/print/team/{team}", get(team_card))
        .league("/print/fixture/{fixture}", get(score_sheet))
        // The calendar feeds are the same for everyone, signed in or not.
        .merge(
            Routes::new()
                .league("/calendar/team/{file}", get(team_calendar))
                .league("/calendar/player/{file}", get(player_calendar))
                .league("/calendar/division/{file}", get(division_calendar))
                .shared(),
        )
}

/// How long a match evening is taken to last, for a calendar's end time.
const EVENING_HOURS: i64 = 3;
/// The most dates to skip one form may list.
const MAX_SKIP: usize = 60;
const WEEKDAYS: [Weekday; 7] = [
    Weekday::Mon,
    Weekday::Tue,
    Weekday::Wed,
    Weekday::Thu,
    Weekday::Fri,
    Weekday::Sat,
    Weekday::Sun,
];

/// A kick-off in the league's zone (`Thu 10 Sep 2026, 19:30`), or that
/// there is none yet.
fn when(zone: Zone, t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(
        || "date to be arranged".to_owned(),
        |t| dates::when(zone, t),
    )
}

fn weekday_name(w: Weekday) -> &'static str {
    match w {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

// ---------------------------------------------------------------------------
// Generating a division's season

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
struct ScheduleForm {
    meetings: String,
    start: String,
    weekday: String,
    kick_off: String,
    skip: String,
    /// `preview` or `save`: which button was pressed.
    action: String,
    /// The [`fingerprint`] of the draft last shown: a save of anything
    /// else (the form or the teams changed since) shows the new draft
    /// instead of saving it.
    previewed: String,
}

/// What a good form asks for, the teams aside.
struct Plan {
    meetings: u32,
    start: NaiveDate,
    weekday: Weekday,
    kick_off: NaiveTime,
    skip: Vec<NaiveDate>,
}

fn parse_date(value: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(value.trim(), "%Y-%m-%d").ok()
}

fn parse_time(value: &str) -> Option<NaiveTime> {
    let value = value.trim();
    NaiveTime::parse_from_str(value, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(value, "%H:%M:%S"))
        .ok()
}

impl ScheduleForm {
    fn defaults(zone: Zone) -> ScheduleForm {
        ScheduleForm {
            meetings: "2".into(),
            start: dates::iso_day(zone, Utc::now()),
            weekday: weekday_name(Weekday::Thu).into(),
            kick_off: "19:30".into(),
            skip: String::new(),
            action: String::new(),
            previewed: String::new(),
        }
    }

    fn check(&self, errors: &mut Errors) -> Option<Plan> {
        let meetings = form::whole(errors, "meetings", &self.meetings, 1, 3) as u32;
        let start = parse_date(&self.start);
        if start.is_none() {
            errors.add("start", "Give a date as YYYY-MM-DD.");
        }
        let weekday = WEEKDAYS
            .into_iter()
            .find(|w| weekday_name(*w) == self.weekday.trim());
        if weekday.is_none() {
            errors.add("weekday", "Pick a day of the week.");
        }
        let kick_off = parse_time(&self.kick_off);
        if kick_off.is_none() {
            errors.add("kick_off", "Give a time as HH:MM, for example 19:30.");
        }
        let mut skip = Vec::new();
        for (n, line) in self.skip.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match parse_date(line) {
                Some(d) => skip.push(d),
                None => {
                    errors.add(
                        "skip",
                        format!(
                            "Line {}: `{}` is not a date; give one date a line as YYYY-MM-DD.",
                            n + 1,
                            line.trim()
                        ),
                    );
                    break;
                }
            }
        }
        if skip.len() > MAX_SKIP {
            errors.add("skip", format!("List at most {MAX_SKIP} dates."));
        }
        Some(Plan {
            meetings,
            start: start?,
            weekday: weekday?,
            kick_off: kick_off?,
            skip,
        })
        .filter(|_| errors.is_empty())
    }
}

/// What a draft is made from, as text: the same plan, teams and time zone
/// give the same draft, so a save can check it is saving what was shown.
fn fingerprint(plan: &Plan, entrants: &Entrants, zone: Zone) -> String {
    let skip: Vec<String> = plan.skip.iter().map(|d| d.to_string()).collect();
    let teams: Vec<String> = entrants
        .teams
        .iter()
        .map(|t| format!("{}@{}", t.0, t.2.map_or(0, |v| v.0)))
        .collect();
    let booked: Vec<String> = entrants
        .booked
        .iter()
        .map(|b| format!("{}@{}x{}", b.venue, b.date, b.matches))
        .collect();
    format!(
        "{}/{}/{}/{}/{}/{}/{}/{}",
        plan.meetings,
        plan.start,
        weekday_name(plan.weekday),
        plan.kick_off.format("%H:%M"),
        zone,
        skip.join(","),
        teams.join(","),
        booked.join(",")
    )
}

/// A draft as the page shows it: names, not ids.
struct DraftView {
    rounds: Vec<RoundView>,
    warnings: Vec<String>,
    matches: usize,
}

struct RoundView {
    number: u32,
    date: String,
    matches: Vec<PairingView>,
    bye: Option<String>,
}

struct PairingView {
    home: String,
    away: String,
    venue: String,
}

/// A saved fixture in the division's list.
struct SavedLine {
    id: FixtureId,
    round: i64,
    /// In the league's zone.
    when: String,
    /// Whether it has a date and time at all.
    dated: bool,
    home: String,
    away: String,
    venue: String,
    status: &'static str,
    /// A result or walkover stands against it.
    recorded: bool,
    /// It may still be postponed or moved (not played, nor void).
    movable: bool,
}

impl SavedLine {
    fn new(zone: Zone, f: &FixtureLine) -> SavedLine {
        SavedLine {
            id: f.id,
            round: f.round,
            when: when(zone, f.starts_at),
            dated: f.starts_at.is_some(),
            home: f.home_label(),
            away: f.away_label(),
            venue: f.venue_name.clone().unwrap_or_default(),
            status: f.status.as_str(),
            recorded: f.result_status.is_some()
                || matches!(f.status, FixtureStatus::Played | FixtureStatus::Walkover),
            movable: not_movable(f).is_none(),
        }
    }
}

#[derive(Template)]
#[template(path = "schedule/generate.html")]
struct SchedulePage {
    ctx: Ctx,
    league: League,
    season: Season,
    division: Division,
    teams: Vec<String>,
    form: ScheduleForm,
    meetings: Vec<Choice>,
    weekdays: Vec<Choice>,
    /// The kick-off field's hint: which clock it is typed in.
    kick_off_hint: String,
    errors: Errors,
    draft: Option<DraftView>,
    /// The fingerprint of the draft shown, for the save to check.
    previewed: String,
    saved: Vec<SavedLine>,
    /// Some saved fixture has a result: the season stays.
    any_recorded: bool,
}

/// A division's teams and what the generator needs to know of them.
struct Entrants {
    /// Team id, name, home venue.
    teams: Vec<(TeamId, String, Option<VenueId>)>,
    venues: BTreeMap<VenueId, (String, i64)>,
    /// Other divisions' home matches at this division's venues, by night.
    booked: Vec<Booking>,
}

impl Entrants {
    fn name(&self, team: i64) -> String {
        self.teams
            .iter()
            .find(|t| t.0.0 == team)
            .map_or_else(|| format!("team {team}"), |t| t.1.clone())
    }

    fn venue_of(&self, team: i64) -> Option<VenueId> {
        self.teams.iter().find(|t| t.0.0 == team).and_then(|t| t.2)
    }

    fn request(&self, plan: &Plan) -> FixtureRequest {
        FixtureRequest {
            teams: self
                .teams
                .iter()
                .map(|t| TeamSlot {
                    team: t.0.0,
                    venue: t.2.map(|v| v.0),
                })
                .collect(),
            meetings: plan.meetings,
            start: plan.start,
            weekday: plan.weekday,
            kick_off: plan.kick_off,
            skip: plan.skip.clone(),
            venue_tables: self
                .venues
                .iter()
                .map(|(id, (_, tables))| (id.0, (*tables).clamp(0, u32::MAX as i64) as u32))
                .collect(),
            booked: self.booked.clone(),
        }
    }

    /// A venue clash in words, with names.
    fn clash(&self, c: &VenueClash) -> String {
        let venue = self
            .venues
            .get(&VenueId(c.venue))
            .map_or_else(|| format!("venue {}", c.venue), |v| v.0.clone());
        let teams: Vec<String> = c.home.iter().map(|t| self.name(*t)).collect();
        let others = match c.booked {
            0 => String::new(),
            1 => ", and a match of another division,".into(),
            n => format!(", and {n} matches of other divisions,"),
        };
        format!(
            "Round {} ({}): {venue} has {} at home{others} but {} table{}.",
            c.round,
            c.date.format("%a %-d %b %Y"),
            teams.join(" and "),
            c.tables,
            if c.tables == 1 { "" } else { "s" },
        )
    }

    fn view(&self, draft: &Draft) -> DraftView {
        let rounds: Vec<RoundView> = draft
            .rounds
            .iter()
            .map(|r| RoundView {
                number: r.number,
                date: format!(
                    "{}, {}",
                    r.date.format("%a %-d %b %Y"),
                    draft.kick_off.format("%H:%M")
                ),
                matches: r
                    .matches
                    .iter()
                    .map(|p| PairingView {
                        home: self.name(p.home),
                        away: self.name(p.away),
                        venue: self
                            .venue_of(p.home)
                            .and_then(|v| self.venues.get(&v))
                            .map(|v| v.0.clone())
                            .unwrap_or_default(),
                    })
                    .collect(),
                bye: r.bye.map(|t| self.name(t)),
            })
            .collect();
        DraftView {
            matches: rounds.iter().map(|r| r.matches.len()).sum(),
            rounds,
            warnings: draft.clashes.iter().map(|c| self.clash(c)).collect(),
        }
    }

    /// The draft's fixtures, each round at `starts` (one instant a round,
    /// from [`kick_offs`]).
    fn fixtures(
        &self,
        season: &Season,
        division: &Division,
        draft: &Draft,
        starts: &[DateTime<Utc>],
    ) -> Vec<NewFixture> {
        draft
            .rounds
            .iter()
            .zip(starts)
            .flat_map(|(r, &starts)| {
                r.matches.iter().map(move |p| NewFixture {
                    season_id: season.id,
                    division_id: division.id,
                    round: i64::from(r.number),
                    starts_at: Some(starts),
                    home_team_id: TeamId(p.home),
                    away_team_id: TeamId(p.away),
                    venue_id: self.venue_of(p.home),
                })
            })
            .collect()
    }
}

/// The instant of each round's kick-off: its date at the kick-off typed,
/// where the league plays. A kick-off the clocks skip on one of the dates
/// (they go forward over it) is refused.
fn kick_offs(zone: Zone, draft: &Draft) -> Result<Vec<DateTime<Utc>>, NoSuchTime> {
    draft
        .rounds
        .iter()
        .map(|r| zone.instant(r.date, draft.kick_off))
        .collect()
}

struct Scheduling {
    season: Season,
    division: Division,
    entrants: Entrants,
    saved: Vec<SavedLine>,
}

/// Home matches of other divisions at `venues`, counted by venue and local
/// date (a void fixture takes no table).
fn bookings(
    zone: Zone,
    lines: &[FixtureLine],
    division: DivisionId,
    venues: &BTreeSet<VenueId>,
) -> Vec<Booking> {
    let others = lines
        .iter()
        .filter(|f| f.division_id != Some(division))
        .filter(|f| f.venue_id.is_some_and(|v| venues.contains(&v)))
        .map(|f| hosted(zone, f));
    venue_nights(others)
        .into_iter()
        .map(|((venue, date), matches)| Booking {
            venue,
            date,
            matches,
        })
        .collect()
}

async fn scheduling(state: &AppState, league: &League, division: DivisionId) -> Result<Scheduling> {
    let db = state.db();
    let division = db.division(league.id, division).await?;
    let season = db.season(league.id, division.season_id).await?;
    let entered: BTreeSet<TeamId> = db
        .team_entries(league.id, season.id)
        .await?
        .into_iter()
        .filter(|e| e.division_id == division.id)
        .map(|e| e.team_id)
        .collect();
    let teams: Vec<(TeamId, String, Option<VenueId>)> = db
        .teams(league.id)
        .await?
        .into_iter()
        .filter(|t| entered.contains(&t.id))
        .map(|t| (t.id, t.name, t.venue_id))
        .collect();
    let venues = db
        .venues(league.id)
        .await?
        .into_iter()
        .map(|v| (v.id, (v.name, v.tables)))
        .collect();
    // One query for the season: this division's saved fixtures, and the
    // nights other divisions already use its teams' venues.
    let lines = db
        .fixture_lines(league.id, &FixtureScope::Season(season.id))
        .await?;
    let saved = lines
        .iter()
        .filter(|f| f.division_id == Some(division.id))
        .map(|f| SavedLine::new(league.time_zone, f))
        .collect();
    let ours: BTreeSet<VenueId> = teams.iter().filter_map(|t| t.2).collect();
    let booked = bookings(league.time_zone, &lines, division.id, &ours);
    Ok(Scheduling {
        season,
        division,
        entrants: Entrants {
            teams,
            venues,
            booked,
        },
        saved,
    })
}

fn schedule_page(
    sec: Secretary,
    s: Scheduling,
    form: ScheduleForm,
    errors: Errors,
    draft: Option<(DraftView, String)>,
) -> SchedulePage {
    let (draft, previewed) = draft.map_or((None, String::new()), |(d, p)| (Some(d), p));
    SchedulePage {
        ctx: sec.user.ctx(),
        meetings: form::choices(
            [
                ("1", "Once each"),
                ("2", "Twice: home and away"),
                ("3", "Three times"),
            ],
            form.meetings.trim(),
        ),
        weekdays: form::choices(
            WEEKDAYS.map(|w| (weekday_name(w), weekday_name(w))),
            form.weekday.trim(),
        ),
        kick_off_hint: format!(
            "{} time: the same clock time on every date, summer or winter.",
            sec.league.time_zone
        ),
        league: sec.league,
        season: s.season,
        division: s.division,
        teams: s.entrants.teams.iter().map(|t| t.1.clone()).collect(),
        form,
        errors,
        draft,
        previewed,
        any_recorded: s.saved.iter().any(|l| l.recorded),
        saved: s.saved,
    }
}

async fn schedule(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, division)): Path<(String, DivisionId)>,
) -> Result<Response> {
    let s = scheduling(&state, &sec.league, division).await?;
    let defaults = ScheduleForm::defaults(sec.league.time_zone);
    let page = schedule_page(sec, s, defaults, Errors::default(), None);
    Ok(html(&page))
}

async fn generate_season(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, division)): Path<(String, DivisionId)>,
    CsrfForm(input): CsrfForm<ScheduleForm>,
) -> Result<Response> {
    let s = scheduling(&state, &sec.league, division).await?;
    let mut errors = Errors::default();
    if !s.saved.is_empty() {
        let n = s.saved.len();
        errors.add(
            FORM,
            format!(
                "This division already has {n} fixture{}: throw them away first to \
                 generate the season again, or postpone or change them one at a time.",
                if n == 1 { "" } else { "s" }
            ),
        );
        let page = schedule_page(sec, s, input, errors, None);
        return Ok(form::conflict(&page));
    }
    let Some(plan) = input.check(&mut errors) else {
        let page = schedule_page(sec, s, input, errors, None);
        return Ok(form::page(&page, &page.errors));
    };
    let draft = match generate(&s.entrants.request(&plan)) {
        Ok(draft) => draft,
        Err(e) => {
            errors.add(FORM, format!("No season can be made: {e}."));
            let page = schedule_page(sec, s, input, errors, None);
            return Ok(form::page(&page, &page.errors));
        }
    };
    let zone = sec.league.time_zone;
    let starts = match kick_offs(zone, &draft) {
        Ok(starts) => starts,
        Err(e) => {
            errors.add("kick_off", e.to_string());
            let page = schedule_page(sec, s, input, errors, None);
            return Ok(form::page(&page, &page.errors));
        }
    };
    let view = s.entrants.view(&draft);
    let shown = fingerprint(&plan, &s.entrants, zone);
    if input.action == "save" && input.previewed != shown {
        errors.add(
            FORM,
            "The form or the division's teams changed since the preview: \
             this is the new draft; check it, then save it.",
        );
        let page = schedule_page(sec, s, input, errors, Some((view, shown)));
        return Ok(form::conflict(&page));
    }
    if input.action == "save" {
        let new = s.entrants.fixtures(&s.season, &s.division, &draft, &starts);
        match app::schedule::create_fixtures(state.db(), sec.league.id, &new, Some(sec.user.id))
            .await
        {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).schedule(s.division.id).to_string(),
                    format!(
                        "Fixtures saved: {} matches for {}.",
                        new.len(),
                        s.division.name
                    ),
                ));
            }
            Err(e) => {
                // Saved by someone else since this page was shown, most likely.
                form::refused(e, &mut errors, FORM, "These fixtures exist already.")?;
                let page = schedule_page(sec, s, input, errors, Some((view, shown)));
                return Ok(form::conflict(&page));
            }
        }
    }
    let page = schedule_page(sec, s, input, errors, Some((view, shown)));
    Ok(form::page(&page, &page.errors))
}

/// Throws the division's fixtures away, to generate them again: only
/// while nothing has been recorded against any of them.
async fn discard_season(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, division)): Path<(String, DivisionId)>,
    CsrfForm(input): CsrfForm<ScheduleForm>,
) -> Result<Response> {
    let s = scheduling(&state, &sec.league, division).await?;
    match app::schedule::discard_fixtures(
        state.db(),
        sec.league.id,
        s.division.id,
        Some(sec.user.id),
    )
    .await
    {
        Ok(n) => Ok(form::done(
            &links::at(&sec.league).schedule(s.division.id).to_string(),
            format!(
                "{n} fixtures of {} thrown away: make the season again below.",
                s.division.name
            ),
        )),
        Err(crate::db::DbError::Refused(why)) => {
            let mut errors = Errors::default();
            errors.add(FORM, format!("Nothing was thrown away. {why}"));
            let page = schedule_page(sec, s, input, errors, None);
            Ok(form::conflict(&page))
        }
        Err(e) => Err(e.into()),
    }
}

// ---------------------------------------------------------------------------
// Postponing one fixture

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
struct PostponeForm {
    date: String,
    time: String,
    status: String,
    /// `yes`: keep the date although the venue is full that night.
    clash_ok: String,
}

#[derive(Template)]
#[template(path = "schedule/postpone.html")]
struct PostponePage {
    ctx: Ctx,
    league: League,
    /// The kick-off field's hint: which clock it is typed in.
    time_hint: String,
    fixture: SavedLine,
    /// The fixtures it is listed with: its division's, or its cup's page.
    back: Link,
    form: PostponeForm,
    statuses: Vec<Choice>,
    errors: Errors,
    /// The venue is full on the date asked: the form offers to move it
    /// anyway.
    clash: bool,
}

fn postpone_page(
    sec: Secretary,
    line: &FixtureLine,
    form: PostponeForm,
    errors: Errors,
) -> PostponePage {
    let zone = sec.league.time_zone;
    let back = fixtures_of(&sec.league, line);
    PostponePage {
        ctx: sec.user.ctx(),
        time_hint: format!("{zone} time, as HH:MM."),
        league: sec.league,
        fixture: SavedLine::new(zone, line),
        back,
        statuses: form::choices(
            [
                ("scheduled", "Scheduled: played on the date given"),
                ("postponed", "Postponed: not played on its date"),
            ],
            form.status.trim(),
        ),
        form,
        clash: errors.get("clash_ok").is_some(),
        errors,
    }
}

/// A saved fixture as its venue's nights count it.
fn hosted(zone: Zone, f: &FixtureLine) -> Hosted {
    Hosted {
        venue: f.venue_id.map(|v| v.0),
        night: f.starts_at.map(|at| zone.local(at).date()),
        void: f.status == FixtureStatus::Void,
    }
}

/// What else the fixture's venue hosts on the local date of `at`, when
/// that leaves no table for it: the other fixtures' names, and the tables.
async fn venue_full(
    state: &AppState,
    league: &League,
    line: &FixtureLine,
    at: DateTime<Utc>,
) -> Result<Option<(Vec<String>, i64)>> {
    let Some(venue) = line.venue_id else {
        return Ok(None);
    };
    let db = state.db();
    let tables = db.venue(league.id, venue).await?.tables;
    let zone = league.time_zone;
    let night = (venue.0, zone.local(at).date());
    let others: Vec<String> = db
        .fixture_lines(league.id, &FixtureScope::Season(line.season_id))
        .await?
        .iter()
        .filter(|f| f.id != line.id && venue_nights([hosted(zone, f)]).contains_key(&night))
        .map(|f| format!("{} v {}", f.home_label(), f.away_label()))
        .collect();
    let full = over_tables(
        others.len() as u64 + 1,
        u32::try_from(tables).unwrap_or(u32::MAX),
    );
    Ok(full.then_some((others, tables)))
}

/// Where a fixture is listed for the secretary: its division's fixtures,
/// or its cup's page in the console.
fn fixtures_of(league: &League, line: &FixtureLine) -> Link {
    match (line.division_id, line.cup_id) {
        (_, Some(cup)) => Link {
            text: format!("The ties of {}", line.competition),
            href: links::at(league).console().cup(cup).to_string(),
        },
        (division, None) => Link {
            text: "The division's fixtures".into(),
            href: links::at(league)
                .schedule(division.unwrap_or(DivisionId(0)))
                .to_string(),
        },
    }
}

async fn fixture_line(state: &AppState, league: &League, id: FixtureId) -> Result<FixtureLine> {
    state
        .db()
        .fixture_lines(league.id, &FixtureScope::One(id))
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| AppError::NotFound(format!("Fixture {id}")))
}

/// Why the fixture cannot be given a new date, if it cannot: the
/// workflow's own rule ([`crate::league::workflow::reschedule`]), which
/// the postponement's transaction decides by again.
fn not_movable(line: &FixtureLine) -> Option<String> {
    crate::league::workflow::reschedule(line.status, FixtureStatus::Postponed)
        .err()
        .map(|why| why.to_string())
}

async fn postpone_form(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, fixture)): Path<(String, FixtureId)>,
) -> Result<Response> {
    let line = fixture_line(&state, &sec.league, fixture).await?;
    let zone = sec.league.time_zone;
    let form = PostponeForm {
        date: line
            .starts_at
            .map(|t| dates::iso_day(zone, t))
            .unwrap_or_default(),
        time: line
            .starts_at
            .map_or_else(|| "19:30".into(), |t| dates::clock(zone, t)),
        status: line.status.as_str().into(),
        clash_ok: String::new(),
    };
    let mut errors = Errors::default();
    if let Some(why) = not_movable(&line) {
        errors.add(FORM, why);
        return Ok(form::conflict(&postpone_page(sec, &line, form, errors)));
    }
    Ok(html(&postpone_page(sec, &line, form, errors)))
}

async fn postpone(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, fixture)): Path<(String, FixtureId)>,
    CsrfForm(input): CsrfForm<PostponeForm>,
) -> Result<Response> {
    let db = state.db();
    let line = fixture_line(&state, &sec.league, fixture).await?;
    let mut errors = Errors::default();
    if let Some(why) = not_movable(&line) {
        errors.add(FORM, why);
        return Ok(form::conflict(&postpone_page(sec, &line, input, errors)));
    }
    let status = match input.status.trim() {
        "scheduled" => Some(FixtureStatus::Scheduled),
        "postponed" => Some(FixtureStatus::Postponed),
        _ => {
            errors.add("status", "Pick scheduled or postponed.");
            None
        }
    };
    let starts_at = if input.date.trim().is_empty() {
        if status == Some(FixtureStatus::Scheduled) {
            errors.add(
                "date",
                "A scheduled fixture needs a date; leave it empty only when postponed.",
            );
        }
        None
    } else {
        let date = parse_date(&input.date);
        if date.is_none() {
            errors.add("date", "Give a date as YYYY-MM-DD, or leave it empty.");
        }
        let time = parse_time(&input.time);
        if time.is_none() {
            errors.add("time", "Give a time as HH:MM, for example 19:30.");
        }
        // The time typed is the league's; one the clocks skip that night
        // is no time at all.
        date.zip(time)
            .and_then(|(d, t)| match sec.league.time_zone.instant(d, t) {
                Ok(at) => Some(at),
                Err(e) => {
                    errors.add("time", e.to_string());
                    None
                }
            })
    };
    // A venue full that night is said, and kept only when asked again.
    let day = |t: DateTime<Utc>| sec.league.time_zone.local(t).date();
    if let (true, Some(at)) = (errors.is_empty(), starts_at)
        && input.clash_ok != "yes"
        && line.starts_at.map(day) != Some(day(at))
        && let Some((others, tables)) = venue_full(&state, &sec.league, &line, at).await?
    {
        errors.add(
            "clash_ok",
            format!(
                "{} already has {} that night and {tables} table{}. Tick this and save again \
                 to keep the date anyway.",
                line.venue_name.as_deref().unwrap_or("The venue"),
                others.join(" and "),
                if tables == 1 { "" } else { "s" },
            ),
        );
    }
    if let (true, Some(status)) = (errors.is_empty(), status) {
        match crate::app::fixtures::reschedule(
            db,
            sec.league.id,
            fixture,
            starts_at,
            status,
            Some(sec.user.id),
        )
        .await
        {
            Ok(_) => {
                return Ok(form::done(
                    &fixtures_of(&sec.league, &line).href,
                    "Fixture saved: its new date and status are shown below.",
                ));
            }
            // A result came in since the page was read: the fixture keeps
            // its date, and the page says why.
            Err(crate::db::DbError::Refused(why)) => {
                errors.add(FORM, why.to_string());
                return Ok(form::conflict(&postpone_page(sec, &line, input, errors)));
            }
            Err(e) => form::refused(e, &mut errors, FORM, "That change was refused.")?,
        }
    }
    let page = postpone_page(sec, &line, input, errors);
    Ok(form::page(&page, &page.errors))
}

// ---------------------------------------------------------------------------
// Calendars

/// The id in a calendar's file name: `12.ics` -> 12.
fn ics_id(file: &str) -> Result<i64> {
    file.strip_suffix(".ics")
        .and_then(|id| id.parse::<i64>().ok())
        .filter(|id| *id > 0)
        .ok_or_else(|| AppError::NotFound(format!("The calendar `{file}`")))
}

/// A feed's events: instants in UTC (`...Z`), which calendars show in
/// their reader's own zone; the description gives the league's clock time.
/// Each event's state (date, cancelled, `SEQUENCE`) follows the fixture's
/// recorded changes ([`EventState`]).
fn events(league: &League, lines: &[FixtureLine], history: &FixtureHistory) -> Vec<Event> {
    let facts = |m: &FixtureMoment| FixtureFacts {
        start: m.starts_at,
        status: m.status,
    };
    let mut changes: HashMap<FixtureId, Vec<Change>> = HashMap::new();
    for c in &history.changes {
        changes.entry(c.fixture_id).or_default().push(Change {
            at: c.at,
            before: c.before.as_ref().map(facts),
            after: c.after.as_ref().map(facts),
        });
    }
    let zone = league.time_zone;
    lines
        .iter()
        .filter_map(|f| {
            let discards = history
                .discards
                .iter()
                .filter(|(d, _)| Some(*d) == f.division_id)
                .count();
            let now = FixtureFacts {
                start: f.starts_at,
                status: f.status,
            };
            let mine = changes.get(&f.id).map(Vec::as_slice).unwrap_or_default();
            let state = EventState::new(now, mine, discards)?;
            let start = state.start;
            let mut summary = format!("{} v {}", f.home_label(), f.away_label());
            let mut status = f.status.as_str().to_owned();
            if f.status == FixtureStatus::Postponed && state.cancelled {
                summary = format!("Postponed: {summary}");
                status = "postponed, to be played on a date not yet set".into();
            }
            if let Some(from) = state.moved_from {
                status = format!(
                    "{status}; rearranged, postponed from {}",
                    dates::when(zone, from)
                );
            }
            Some(Event {
                uid: format!("fixture-{}@{}.boneyard", f.id, league.short_name),
                start,
                end: start + TimeDelta::hours(EVENING_HOURS),
                summary,
                location: f.venue_name.clone(),
                description: format!(
                    "{}, {}.\nKick-off: {} ({} time).\nStatus: {}.",
                    f.competition,
                    f.round_words(),
                    dates::when(zone, start),
                    zone,
                    status
                ),
                cancelled: state.cancelled,
                sequence: state.sequence,
                last_modified: state.last_modified,
            })
        })
        .collect()
}

/// The feed of `lines`, with their history read in one query.
async fn feed(
    state: &AppState,
    league: &League,
    name: &str,
    lines: &[FixtureLine],
) -> Result<Response> {
    let ids: Vec<FixtureId> = lines.iter().map(|f| f.id).collect();
    let divisions: Vec<DivisionId> = lines
        .iter()
        .filter_map(|f| f.division_id)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let history = state
        .db()
        .fixture_history(league.id, &ids, &divisions)
        .await?;
    Ok(calendar_response(name, &events(league, lines, &history)))
}

fn calendar_response(name: &str, events: &[Event]) -> Response {
    (
        [(header::CONTENT_TYPE, "text/calendar; charset=utf-8")],
        ical::calendar(name, crate::db::now(), events),
    )
        .into_response()
}

async fn team_calendar(
    InLeague(league): InLeague,
    State(state): State<AppState>,
    Path((_, file)): Path<(String, String)>,
) -> Result<Response> {
    let db = state.db();
    let team = db.team(league.id, TeamId(ics_id(&file)?)).await?;
    let seasons: BTreeSet<_> = db
        .team_entry_lines(league.id, team.id)
        .await?
        .into_iter()
        .map(|e| e.season_id)
        .collect();
    let mut lines = Vec::new();
    for season in seasons {
        lines.extend(
            db.fixture_lines(
                league.id,
                &FixtureScope::Team {
                    season,
                    team: team.id,
                },
            )
            .await?,
        );
    }
    feed(
        &state,
        &league,
        &format!("{} ({})", team.name, league.name),
        &lines,
    )
    .await
}

/// A player's calendar: the fixtures of their team in the latest season
/// they were registered in (league and team cup), and the singles and
/// pairs cup ties they are drawn in.
async fn player_calendar(
    InLeague(league): InLeague,
    State(state): State<AppState>,
    Path((_, file)): Path<(String, String)>,
) -> Result<Response> {
    let db = state.db();
    let player = db.player(league.id, PlayerId(ics_id(&file)?)).await?;
    let mut lines = Vec::new();
    if let Some(r) = db.player_seasons(league.id, player.id).await?.first() {
        let scope = FixtureScope::Team {
            season: r.season_id,
            team: r.team_id,
        };
        // Team-mates' singles and pairs ties are theirs, not this player's.
        lines.extend(
            db.fixture_lines(league.id, &scope)
                .await?
                .into_iter()
                .filter(|f| f.home_entrant.is_none()),
        );
    }
    let ties = FixtureScope::Ids(db.player_cup_fixtures(league.id, player.id).await?);
    lines.extend(db.fixture_lines(league.id, &ties).await?);
    lines.sort_by_key(|f| (f.starts_at, f.id));
    feed(
        &state,
        &league,
        &format!("{} ({})", player.name, league.name),
        &lines,
    )
    .await
}

async fn division_calendar(
    InLeague(league): InLeague,
    State(state): State<AppState>,
    Path((_, file)): Path<(String, String)>,
) -> Result<Response> {
    let db = state.db();
    let division = db.division(league.id, DivisionId(ics_id(&file)?)).await?;
    let season = db.season(league.id, division.season_id).await?;
    let lines = db
        .fixture_lines(league.id, &FixtureScope::Division(division.id))
        .await?;
    feed(
        &state,
        &league,
        &format!("{}, {} ({})", division.name, season.name, league.name),
        &lines,
    )
    .await
}

// ---------------------------------------------------------------------------
// Printouts

struct CardLine {
    round: i64,
    when: String,
    home_or_away: &'static str,
    opponent: String,
    venue: String,
    status: &'static str,
}

#[derive(Template)]
#[template(path = "schedule/card.html")]
struct CardPage {
    ctx: Ctx,
    league: League,
    team: String,
    season: Option<String>,
    division: Option<String>,
    lines: Vec<CardLine>,
}

async fn team_card(
    InLeague(league): InLeague,
    user: MaybeUser,
    State(state): State<AppState>,
    Path((_, team)): Path<(String, TeamId)>,
) -> Result<Response> {
    let db = state.db();
    let team = db.team_info(league.id, team).await?;
    let latest = db
        .team_entry_lines(league.id, team.id)
        .await?
        .into_iter()
        .next();
    let mut lines = Vec::new();
    if let Some(entry) = &latest {
        let scope = FixtureScope::Team {
            season: entry.season_id,
            team: team.id,
        };
        for f in db.fixture_lines(league.id, &scope).await? {
            let home = f.home_team_id == team.id;
            lines.push(CardLine {
                round: f.round,
                when: when(league.time_zone, f.starts_at),
                home_or_away: if home { "Home" } else { "Away" },
                opponent: if home { f.away_name } else { f.home_name },
                venue: f.venue_name.unwrap_or_default(),
                status: f.status.as_str(),
            });
        }
    }
    Ok(html(&CardPage {
        ctx: user.ctx(),
        league,
        team: team.name,
        season: latest.as_ref().map(|e| e.season_name.clone()),
        division: latest.map(|e| e.division_name),
        lines,
    }))
}

struct SheetGame {
    number: usize,
    /// Hand numbers of the printed rows.
    hands: Vec<usize>,
}

struct SheetBoard {
    number: usize,
    kind: &'static str,
    best_of: u32,
    /// In order of play, lettered as the match card letters them.
    seats: Vec<Seat>,
    games: Vec<SheetGame>,
}

#[derive(Template)]
#[template(path = "schedule/sheet.html")]
struct SheetPage {
    ctx: Ctx,
    league: League,
    fixture: SavedLine,
    division: String,
    season: String,
    /// The season's rule family, as a person reads it.
    format: &'static str,
    boards: Vec<SheetBoard>,
    legend: Vec<Example>,
    boxes: HandBoxes,
    notes: Vec<String>,
    pose_note: &'static str,
    /// Each board's pad link as a QR code (board, SVG, address): only for
    /// the fixture's captains and secretaries.
    codes: Vec<(i64, String, String)>,
}

async fn score_sheet(
    InLeague(league): InLeague,
    user: MaybeUser,
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path((_, fixture)): Path<(String, FixtureId)>,
) -> Result<Response> {
    let line = fixture_line(&state, &league, fixture).await?;
    let codes = super::pad::link_codes(
        &state,
        &headers,
        user.0.as_ref(),
        &league,
        &state.db().fixture(league.id, fixture).await?,
    )
    .await?;
    let season = state.db().season(league.id, line.season_id).await?;
    let rules = season.rules()?;
    let format = rules.fixture_format(line.cup_format.as_ref()).clone();
    let ruleset = rules.ruleset;
    let boxes = sheet::hand_boxes(season.format);
    let kinds: Vec<BoardKind> = format.boards.iter().map(|b| b.kind).collect();
    let boards = format
        .boards
        .iter()
        .enumerate()
        .map(|(i, spec)| SheetBoard {
            number: i + 1,
            kind: match spec.kind {
                BoardKind::Singles => "Singles",
                BoardKind::Pairs => "Pairs",
            },
            best_of: spec.best_of,
            seats: sheet::seats(spec.kind),
            games: (1..=spec.best_of.max(1) as usize)
                .map(|number| SheetGame {
                    number,
                    hands: (1..=boxes.rows).collect(),
                })
                .collect(),
        })
        .collect();
    Ok(html(&SheetPage {
        ctx: user.ctx(),
        fixture: SavedLine::new(league.time_zone, &line),
        league,
        division: line.competition.clone(),
        season: season.name,
        format: season.format.title(),
        boards,
        legend: sheet::legend(&ruleset, &kinds),
        notes: sheet::notes(&ruleset, &kinds),
        pose_note: sheet::pose_note(&ruleset),
        boxes,
        codes,
    }))
}
