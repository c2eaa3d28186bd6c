//! A league's home, a season's page, and the matches in progress.

use crate::web::auth::InLeague;
use crate::web::links;

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;

use crate::app::read::{self, Key};
use crate::db::{CupId, League, Season, TeamId};
use crate::league::match_format::{MatchFormat, Pairings};
use crate::rules::ruleset::{BlockedScores, Derby, PenaltyTo, PoseRule};
use crate::rules::{Format, Ruleset};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::Result;
use super::super::links::honours_href;
use super::super::page::{Ctx, html};
use super::{FixtureView, Link, league_href, season_href, today};

#[derive(Deserialize)]
pub struct SeasonPath {
    season: String,
}

#[derive(Template)]
#[template(path = "public/league.html")]
struct LeaguePage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    /// The current (latest) season, if any.
    current: Option<Link>,
    /// The current season's honours (so far).
    honours: Option<Link>,
    divisions: Vec<DivisionLinks>,
    /// The archive: every season before the current one, newest first,
    /// each with its honours' address.
    seasons: Vec<(Link, String)>,
    recent: Vec<FixtureView>,
    next: Vec<FixtureView>,
    live: usize,
    live_href: String,
}

struct DivisionLinks {
    table: Link,
    fixtures: String,
}

pub async fn home(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
) -> Result<Response> {
    let (start, _) = today(league.time_zone);
    let view = read::league::home(state.db(), &league, start).await?;
    let mut page = LeaguePage {
        ctx: user.ctx(),
        crumbs: Vec::new(),
        current: None,
        honours: None,
        divisions: Vec::new(),
        seasons: view
            .seasons
            .iter()
            .skip(1)
            .map(|s| {
                (
                    Link::new(s.name.clone(), season_href(&league, &s.name)),
                    honours_href(&league, &s.name),
                )
            })
            .collect(),
        recent: Vec::new(),
        next: Vec::new(),
        live: 0,
        live_href: links::at(&league).live(),
        league,
    };
    let Some(current) = view.current else {
        return Ok(html(&page));
    };
    let league = &page.league;
    let season = &current.season;
    page.current = Some(Link::new(
        season.name.clone(),
        season_href(league, &season.name),
    ));
    page.honours = Some(honours_link(league, &season.name, season.closed));
    page.divisions = current
        .divisions
        .iter()
        .map(|d| {
            let at = links::division_at(league, &season.name, &d.name);
            DivisionLinks {
                fixtures: at.fixtures(),
                table: Link::new(d.name.clone(), at.to_string()),
            }
        })
        .collect();
    // Kept with the league's records, not its taps: the count may lag a
    // tap by up to a minute (the page cache's `FRESH_SECONDS`).
    page.live = crate::web::pad::live::league_live(&state, league)
        .await?
        .matches;
    let shown = |list: &[read::fixtures::FixtureSummary]| -> Vec<FixtureView> {
        list.iter()
            .map(|f| super::fixture_view(league, &season.name, f))
            .collect()
    };
    page.recent = shown(&current.recent);
    page.next = shown(&current.next);
    Ok(html(&page))
}

#[derive(Template)]
#[template(path = "public/season.html")]
struct SeasonPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    season: Season,
    format: &'static str,
    rules: Vec<String>,
    match_format: Vec<String>,
    divisions: Vec<DivisionTeams>,
    /// The season's cups, each with what it is.
    cups: Vec<(Link, String)>,
    /// Its champions, cup winners, top players and feats (so far).
    honours: Link,
    others: Vec<Link>,
}

struct DivisionTeams {
    table: Link,
    fixtures: String,
    teams: Vec<Link>,
}

pub async fn season(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<SeasonPath>,
) -> Result<Response> {
    let (season, seasons, view) =
        read::league::season_page(state.db(), &league, Key::Slug(&p.season))
            .await
            .map_err(super::found)?;
    let divisions = view
        .divisions
        .iter()
        .map(|d| {
            let at = links::division_at(&league, &season.name, &d.division.name);
            DivisionTeams {
                fixtures: at.fixtures(),
                table: Link::new(d.division.name.clone(), at.to_string()),
                teams: d
                    .teams
                    .iter()
                    .map(|t| {
                        Link::new(
                            t.name.clone(),
                            super::team_href(&league, TeamId(t.id), &t.name),
                        )
                    })
                    .collect(),
            }
        })
        .collect();
    let cups = view
        .cups
        .into_iter()
        .map(|c| {
            let href = super::cup_href(&league, CupId(c.id), &c.name);
            (Link::new(c.name, href), c.kind.title().to_owned())
        })
        .collect();
    let page = SeasonPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        cups,
        honours: honours_link(&league, &season.name, season.is_closed()),
        format: season.format.title(),
        rules: describe_rules(&season.rules()?.ruleset),
        match_format: describe_match_format(&season.rules()?.format),
        divisions,
        others: seasons
            .iter()
            .filter(|s| s.id != season.id)
            .map(|s| Link::new(s.name.clone(), season_href(&league, &s.name)))
            .collect(),
        league,
        season,
    };
    Ok(html(&page))
}

/// A season's honours as a link says it: final once the season is over.
fn honours_link(league: &League, season: &str, closed: bool) -> Link {
    let text = if closed {
        format!("The {season} season's honours")
    } else {
        format!("The {season} season's honours so far")
    };
    Link::new(text, honours_href(league, season))
}

/// The season's ruleset in sentences.
fn describe_rules(r: &Ruleset) -> Vec<String> {
    let mut out = Vec::new();
    match r.format {
        Format::FivesAndThrees => {
            out.push(if r.exact_finish {
                format!(
                    "Games to {} exactly: a score that would pass it is disregarded.",
                    r.target
                )
            } else {
                format!("Games to {}: reaching or passing it wins.", r.target)
            });
            if let Some(n) = r.tiles_per_hand {
                out.push(format!("{n} tiles a hand."));
            }
        }
        Format::AllFives => {
            out.push(format!("Games to {} or more.", r.target));
            out.push(match r.blocked_scores {
                BlockedScores::Total => "A blocked hand scores the other side's count.".into(),
                BlockedScores::Difference => {
                    "A blocked hand scores the difference of the counts.".into()
                }
            });
            out.push(match r.penalty_to {
                PenaltyTo::Opponents => {
                    format!("Penalties: {} points to the opponents.", r.penalty_points)
                }
                PenaltyTo::Offender => {
                    format!(
                        "Penalties: {} points off the offender's side.",
                        r.penalty_points
                    )
                }
            });
        }
        Format::HandsWon => {
            out.push(format!("Sets to {} hands.", r.set_to));
            out.push(match r.derby {
                Derby::Capped => {
                    "After a tied hand the next is worth 2 (1 near the end of the set).".into()
                }
                Derby::Growing => "Each tied hand in a row adds 1 to the worth of the next.".into(),
            });
            out.push(late_rule(r));
        }
    }
    out.push(match r.pose {
        PoseRule::Rotate => "The pose passes to the next player after every hand.".into(),
        PoseRule::Winner => "The winner of a hand poses the next.".into(),
    });
    out
}

fn late_rule(r: &Ruleset) -> String {
    let steps: Vec<String> = r
        .late_games
        .iter()
        .map(|&(minutes, games)| {
            let s = if games == 1 { "" } else { "s" };
            format!("{games} penalty game{s} from {minutes} minutes")
        })
        .collect();
    let forfeit = match r.late_forfeit_minutes {
        Some(m) => format!("; the set is forfeited from {m} minutes"),
        None => String::new(),
    };
    format!("Late arrival: {}{forfeit}.", steps.join(", "))
}

/// The match format in sentences.
fn describe_match_format(f: &MatchFormat) -> Vec<String> {
    let p = &f.points;
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    let mut out = vec![
        format!("A match is {}.", f.describe()),
        format!(
            "{} point{} a board won; a match won {}, drawn {}, lost {}.",
            p.board,
            plural(p.board),
            p.win,
            p.draw,
            p.loss
        ),
    ];
    if p.losing_bonus > 0 {
        out.push(format!(
            "Losing by one board earns {} bonus point{}.",
            p.losing_bonus,
            plural(p.losing_bonus)
        ));
    }
    out.push(f.walkover.words());
    out.push(match f.pairings {
        Pairings::Captains => "The captains draw the pairings.".into(),
        Pairings::Secretary => "The secretary sets the order of play.".into(),
        Pairings::Drawn => "The app draws who meets whom from the two line-ups, with a seed both captains see and can check.".into(),
    });
    out
}

#[derive(Template)]
#[template(path = "public/live.html")]
struct LivePage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    /// The match night's date.
    today: String,
    tonight_caption: String,
    /// How many matches are in progress (`league::live`).
    matches: usize,
    /// Their boards, as the score pads left them.
    lines: Vec<crate::web::pad::live::LiveLine>,
    /// The stream of the league's taps.
    events: String,
    /// Tonight's fixtures, whatever their state.
    tonight: Vec<FixtureView>,
    /// Results entered, not yet approved, of other nights.
    pending: Vec<FixtureView>,
}

pub async fn live(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
) -> Result<Response> {
    let view = read::live::live(state.db(), state.kept_live_records(), &league).await?;
    let (from, _) = crate::league::live::night(league.time_zone, crate::db::now());
    let views = |list: &[read::fixtures::FixtureSummary]| -> Vec<FixtureView> {
        list.iter()
            .map(|f| {
                let season = view
                    .season_names
                    .get(&f.season_id)
                    .map_or("", String::as_str);
                super::fixture_view(&league, season, f)
            })
            .collect()
    };
    let tonight = views(&view.tonight);
    let pending = views(&view.pending);
    // The boards as the stream's events render them (with their keys and
    // revisions), and the stream's address from before they were read.
    let live = crate::web::pad::live::LeagueLive::of(&league, &view);
    let page = LivePage {
        events: live.events,
        matches: live.matches,
        lines: live.lines,
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        today: super::day(league.time_zone, from),
        tonight_caption: format!("Tonight's matches, {}", super::day(league.time_zone, from)),
        tonight,
        pending,
        league,
    };
    Ok(html(&page))
}
