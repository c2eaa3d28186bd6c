//! The console's home (issue 39): the secretary's week. The set-up steps
//! while the league is new; then the counts of what waits (to approve,
//! disputed, missing, late, pads never submitted, invitations not taken
//! up), each a link to its list; this week's fixtures with where each
//! stands; what waits for the secretary; older missing results by week,
//! folded. Fixtures are ticked for a bulk action (remind, walkover,
//! postpone), which `week.rs` confirms and does.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};

use crate::app::week::{Line, Pending, secretary_week};
use crate::db::pages::FixtureLine;
use crate::db::{FixtureId, League, ResultStatus, Season};
use crate::league::week::{Bulk, WeekState};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::dates;
use crate::web::error::Result;
use crate::web::links;
use crate::web::page::{Ctx, html};

use super::setup_steps::{self, Step};

/// One line of the console's home: a record kind, how many, where.
struct Section {
    title: &'static str,
    count: usize,
    href: String,
    what: &'static str,
}

/// A count at the top of the console, linking to its list.
struct Tile {
    id: &'static str,
    count: String,
    label: &'static str,
    href: String,
    /// Something waits on the secretary: the tile is marked.
    waits: bool,
}

/// A fixture of the week as the console lists it.
struct WeekLine {
    id: FixtureId,
    /// The time on its day ("20:00"), or the whole date in a list of
    /// several days.
    when: String,
    title: String,
    division: String,
    state: String,
    waits: bool,
    href: String,
    action: &'static str,
    /// A second way to act (the card beside the pads' review).
    also: Option<Also>,
    /// "reminded Tue 24 Nov, 09:12", when a secretary reminded its captains.
    reminded: Option<String>,
    /// A bulk action may apply: it has a box to tick.
    pick: bool,
}

/// This week's fixtures of one day.
struct Day {
    day: String,
    lines: Vec<WeekLine>,
}

/// An older week's missing results, folded.
struct MissingWeek {
    title: String,
    lines: Vec<WeekLine>,
}

/// A result or a pad waiting for the secretary.
struct Job {
    title: String,
    division: String,
    when: String,
    /// Where it stands, every name right ("version 1 entered by ann;
    /// confirmed by bob").
    state: String,
    href: String,
    action: &'static str,
    also: Option<Also>,
}

/// A second link beside a line's action.
struct Also {
    href: String,
    words: &'static str,
}

#[derive(Template)]
#[template(path = "console/home.html")]
struct HomePage {
    ctx: Ctx,
    league: League,
    seasons: Vec<Season>,
    sections: Vec<Section>,
    /// What is still to set up, in order; empty once the league is running.
    steps: Vec<Step>,
    tiles: Vec<Tile>,
    /// "Mon 23 Nov to Fri 4 Dec".
    week_span: String,
    days: Vec<Day>,
    disputes: Vec<Job>,
    approvals: Vec<Job>,
    pads: Vec<Job>,
    missing_total: usize,
    missing_this_week: usize,
    older: Vec<MissingWeek>,
    /// The bulk actions' buttons: value and words.
    actions: Vec<(&'static str, &'static str)>,
    unpaid_count: usize,
    unpaid_total: String,
}

/// A short date: "Tue 24 Nov".
fn short_day(zone: crate::league::time::Zone, t: DateTime<Utc>) -> String {
    zone.local(t).format("%a %-d %b").to_string()
}

pub(super) async fn home(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    let db = state.db();
    let id = sec.league.id;
    let zone = sec.league.time_zone;
    let now = Utc::now();
    let week = secretary_week(db, &sec.league, now).await?;
    let seasons = db.seasons(id).await?;
    let venues = db.venues(id).await?.len();
    let teams = db.teams(id).await?.len();
    let players = db.players(id).await?.len();
    let kinds = db.penalty_kinds(id).await?.len();
    let roles = db.league_roles(id).await?.len();
    let fines = db.fines(id).await?;
    let unpaid: Vec<_> = fines.iter().filter(|f| f.paid_at.is_none()).collect();
    let league_at = links::at(&sec.league);
    let console = league_at.console();

    let steps = setup_steps::steps(&state, &sec.league, &seasons).await?;

    let c = &week.counts;
    let tiles = vec![
        Tile {
            id: "count-approve",
            count: c.to_approve.to_string(),
            label: "to approve",
            href: "#approvals".into(),
            waits: c.to_approve > 0,
        },
        Tile {
            id: "count-disputed",
            count: c.disputed.to_string(),
            label: "disputed",
            href: "#disputes".into(),
            waits: c.disputed > 0,
        },
        Tile {
            id: "count-missing",
            count: c.missing.to_string(),
            label: "missing",
            href: "#missing".into(),
            waits: c.missing > 0,
        },
        Tile {
            id: "count-late",
            count: c.late.map_or_else(|| "–".to_owned(), |n| n.to_string()),
            label: if c.late.is_some() {
                "late, penalty to decide"
            } else {
                "late: no rule set"
            },
            href: match c.late {
                Some(_) => format!("{}#late", console.approvals()),
                None => format!("{}#late-rule", console.penalty_kinds()),
            },
            waits: c.late.is_some_and(|n| n > 0),
        },
        Tile {
            id: "count-pads",
            count: c.pads_left.to_string(),
            label: "pads not submitted",
            href: "#pads".into(),
            waits: c.pads_left > 0,
        },
        Tile {
            id: "count-invitations",
            count: c.invitations.to_string(),
            label: "invitations waiting",
            href: console.users(),
            waits: false,
        },
    ];

    let week_line = |l: &Line, with_date: bool| {
        let f = &l.fixture;
        let at = league_at.match_page(f.id);
        let (href, action, also) = match l.state {
            WeekState::Missing => (at.card(), "Enter the result", None),
            WeekState::PadsLeft => (
                at.pad(),
                "Review the pads",
                Some(Also {
                    href: at.card(),
                    words: "enter it on the card",
                }),
            ),
            WeekState::Result(ResultStatus::Disputed) => (at.history(), "Settle the dispute", None),
            WeekState::Result(ResultStatus::Entered | ResultStatus::Confirmed) => {
                (at.history(), "Check and approve", None)
            }
            _ => (at.to_string(), "Open the match", None),
        };
        let state = match l.state {
            WeekState::Walkover(Some(_)) => f.state_words(true),
            other => other.words().to_owned(),
        };
        WeekLine {
            id: f.id,
            when: f.starts_at.map_or_else(
                || "date to be arranged".to_owned(),
                |t| {
                    if with_date {
                        format!("{}, {}", short_day(zone, t), dates::clock(zone, t))
                    } else {
                        dates::clock(zone, t)
                    }
                },
            ),
            title: format!("{} v {}", f.home_label(), f.away_label()),
            division: f.competition.clone(),
            state,
            waits: l.state.needs_action(),
            href,
            action,
            also,
            reminded: l
                .reminded_at
                .map(|t| format!("reminded {}", dates::when(zone, t))),
            pick: matches!(
                l.state,
                WeekState::ToPlay
                    | WeekState::Missing
                    | WeekState::PadsLeft
                    | WeekState::Postponed
                    | WeekState::Result(ResultStatus::Entered)
            ),
        }
    };
    let mut days: Vec<Day> = Vec::new();
    for l in &week.this_week {
        let day = l
            .fixture
            .starts_at
            .map_or_else(|| "No date".to_owned(), |t| dates::day(zone, t));
        let line = week_line(l, false);
        match days.last_mut() {
            Some(d) if d.day == day => d.lines.push(line),
            _ => days.push(Day {
                day,
                lines: vec![line],
            }),
        }
    }
    let missing_this_week = week
        .this_week
        .iter()
        .filter(|l| matches!(l.state, WeekState::Missing | WeekState::PadsLeft))
        .count();
    let older = week
        .older_missing
        .iter()
        .map(|w| MissingWeek {
            title: format!(
                "Week of {}: {} missing",
                w.monday.format("%a %-d %b %Y"),
                w.lines.len()
            ),
            lines: w.lines.iter().map(|l| week_line(l, true)).collect(),
        })
        .collect();

    let job = |line: &FixtureLine, state: String, href: String, action, also| Job {
        when: line
            .starts_at
            .map_or_else(|| "date to be arranged".into(), |t| dates::when(zone, t)),
        division: line.competition.clone(),
        title: format!("{} v {}", line.home_label(), line.away_label()),
        state,
        href,
        action,
        also,
    };
    let pending_job = |p: &Pending, action| {
        job(
            &p.fixture,
            steps_taken(&p.version),
            league_at.match_page(p.fixture.id).history(),
            action,
            None,
        )
    };
    let disputes = week
        .disputes
        .iter()
        .map(|p| pending_job(p, "Settle the dispute"))
        .collect();
    let approvals = week
        .approvals
        .iter()
        .map(|p| pending_job(p, "Check and approve"))
        .collect();
    let pads = week
        .pads
        .iter()
        .map(|p| {
            let at = league_at.match_page(p.fixture.id);
            job(
                &p.fixture,
                format!(
                    "{} board{} kept on the score pads, last tapped {}; never submitted",
                    p.pads.boards,
                    if p.pads.boards == 1 { "" } else { "s" },
                    dates::when(zone, p.pads.last_tap)
                ),
                at.pad(),
                "Review the pads",
                Some(Also {
                    href: at.card(),
                    words: "enter it on the card",
                }),
            )
        })
        .collect();

    let sections = vec![
        Section {
            title: "Seasons",
            count: seasons.len(),
            href: console.seasons(),
            what: "rulesets, match formats, divisions and fixtures",
        },
        Section {
            title: "Venues",
            count: venues,
            href: console.venues(),
            what: "the pubs and how many matches each hosts a night",
        },
        Section {
            title: "Teams",
            count: teams,
            href: console.teams(),
            what: "home venues, divisions, rosters and captains",
        },
        Section {
            title: "Players",
            count: players,
            href: console.players(),
            what: "names and registrations",
        },
        Section {
            title: "Penalty kinds",
            count: kinds,
            href: console.penalty_kinds(),
            what: "the league's list of penalties and their effects",
        },
        Section {
            title: "Users and roles",
            count: roles,
            href: console.users(),
            what: "accounts of captains and players",
        },
    ];
    Ok(html(&HomePage {
        ctx: sec.user.ctx(),
        week_span: format!(
            "{} to {}",
            short_day(zone, week.from),
            short_day(zone, week.to - chrono::TimeDelta::days(1))
        ),
        league: sec.league,
        seasons,
        sections,
        steps,
        tiles,
        days,
        disputes,
        approvals,
        pads,
        missing_total: week.counts.missing,
        missing_this_week,
        older,
        actions: Bulk::ALL.iter().map(|b| (b.key(), b.label())).collect(),
        unpaid_count: unpaid.len(),
        unpaid_total: crate::web::penalties::money(unpaid.iter().map(|f| f.amount_pence).sum()),
    }))
}

/// Who took each step of a pending result so far, by name: the captain
/// who entered it, and the one who confirmed or disputed it (not the one
/// who entered it, as the console once said).
fn steps_taken(p: &crate::db::approvals::PendingVersion) -> String {
    // No account at all (a result loaded by `boneyard fill` or an import)
    // is not a removed one.
    let entered = match (&p.entered_by, p.created_by) {
        (Some(n), _) => format!("version {} entered by {n}", p.version),
        (None, Some(_)) => format!("version {} entered by a removed account", p.version),
        (None, None) => format!("version {} entered without an account", p.version),
    };
    match p.status {
        ResultStatus::Entered | ResultStatus::Approved => {
            format!("{entered}; not yet confirmed")
        }
        ResultStatus::Confirmed | ResultStatus::Disputed => {
            let step = if p.status == ResultStatus::Confirmed {
                "confirmed"
            } else {
                "disputed"
            };
            // A status restored with its version has nobody's step.
            let by = match (&p.status_by_name, p.status_by) {
                (Some(n), _) => format!(" by {n}"),
                (None, Some(_)) => " by a removed account".to_owned(),
                (None, None) => String::new(),
            };
            let note = if p.status == ResultStatus::Disputed {
                if p.status_note.is_empty() {
                    ": no reason given".to_owned()
                } else {
                    format!(": \u{201c}{}\u{201d}", p.status_note)
                }
            } else {
                String::new()
            };
            format!("{entered}; {step}{by}{note}")
        }
    }
}
