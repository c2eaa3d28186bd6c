//! The public pages: everything anyone may read without signing in. A
//! league's home, its seasons, each division's table and fixtures, team and
//! player pages, each match hand by hand, and the matches in progress.
//!
//! Addresses are made to be read and shared: a season or division is named
//! by its name made URL-safe (`/leagues/paphos/2026-27/division-1`), a team
//! or player by its id and name (`/leagues/paphos/teams/12-the-crown-a`).
//!
//! Each page makes a fixed number of queries, whatever the size of the
//! league (`db::pages` has the reads shaped for them); no page needs
//! JavaScript, and every state is said in words, not colour alone.

use crate::web::routes::Routes;
use std::collections::HashMap;

use axum::routing::get;
use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::app::read::fixtures::{FixtureSummary, summaries};
use crate::db::pages::{FixtureLine, PenaltyLine, Score};
use crate::db::{CupId, DbError, FixtureId, League, Season, SeasonId, TeamId};
use crate::league::match_format::MatchFormat;
use crate::league::time::Zone;

use super::dates;
use super::error::AppError;
use super::links::{
    Link, competition_link, cup_href, division_href, league_href, match_href, player_href,
    season_href, slug, split_id_slug, team_href,
};

mod charts;
mod cup;
mod division;
mod export;
mod honours;
mod league;
pub(crate) mod match_actions;
mod matches;
mod player;
mod ratings;
mod round_up;
pub(crate) mod round_up_list;
pub(crate) mod team;

// What the widgets for other websites (`web::embed`) show as these pages do.
pub(crate) use division::FormView;

pub fn router() -> Routes {
    Routes::new()
        .league("", get(league::home))
        .league("/live", get(league::live))
        .league("/round-up", get(round_up::latest))
        .league("/round-up/{week}", get(round_up::week))
        .league(
            "/round-up/subscribe",
            get(round_up_list::form).post(round_up_list::subscribe),
        )
        .league(
            "/round-up/confirm/{token}",
            get(round_up_list::confirm_form).post(round_up_list::confirm),
        )
        .league(
            "/round-up/unsubscribe/{token}",
            get(round_up_list::unsubscribe_form).post(round_up_list::unsubscribe),
        )
        .league("/teams/{team}", get(team::page))
        .league("/cups/{cup}", get(cup::page))
        .league("/players/{player}", get(player::page))
        .league("/ratings", get(ratings::league_index))
        .league("/ratings/{format}", get(ratings::league_list))
        .route("/ratings", get(ratings::installation_index))
        .route("/ratings/{format}", get(ratings::installation_list))
        .league("/matches/{fixture}", get(matches::page))
        .league("/{season}", get(league::season))
        // A season's own pages, beside its divisions: the router prefers
        // these fixed segments to `{division}`, and no division may be
        // named for one (`routes::taken_division_segments`).
        .league("/{season}/honours", get(honours::page))
        .league("/{season}/honours.txt", get(honours::text))
        .league("/{season}/{division}", get(division::table))
        .league("/{season}/{division}/fixtures", get(division::fixtures))
        .league("/{season}/{division}/data", get(export::data_page))
        .league("/{season}/{division}/data.json", get(export::data_json))
}

/// `?cols=all`: every column of a page's tables, on a phone too.
#[derive(Debug, Default, Deserialize)]
pub struct ColsQuery {
    cols: Option<String>,
}

impl ColsQuery {
    pub(crate) fn all(&self) -> bool {
        self.cols.as_deref() == Some("all")
    }

    /// The address of the page at `path` in the other view (`path` has no
    /// query of its own).
    pub(crate) fn toggle(&self, path: &str) -> String {
        if self.all() {
            path.to_owned()
        } else {
            format!("{path}?cols=all")
        }
    }
}

/// A calendar feed's two links: subscribe (`webcal://`, so a phone's
/// calendar follows later changes) and download (a one-off copy).
#[derive(Debug, Clone)]
pub struct CalendarLinks {
    pub subscribe: String,
    pub download: String,
}

impl CalendarLinks {
    /// The links of the feed at `path`, on this site as the request
    /// reached it (pages are kept per host, so the address is right).
    pub(crate) fn new(headers: &axum::http::HeaderMap, path: &str) -> CalendarLinks {
        let absolute = super::pad::absolute(headers, path);
        let rest = absolute
            .split_once("://")
            .map_or(absolute.as_str(), |(_, rest)| rest);
        CalendarLinks {
            subscribe: format!("webcal://{rest}"),
            download: path.to_owned(),
        }
    }
}

// ---------------------------------------------------------------------------
// Finding what an address names

/// A record that is not there is a 404 that names it in the reader's words.
fn not_found(e: DbError, what: String) -> AppError {
    match e {
        DbError::NotFound(_) => AppError::NotFound(what),
        other => other.into(),
    }
}

/// A season or division the address does not name is a 404 in its words
/// (the use case's: "The season `2030-31`").
fn found(e: DbError) -> AppError {
    match e {
        DbError::NotFound(what) => AppError::NotFound(what),
        other => other.into(),
    }
}

// ---------------------------------------------------------------------------
// Dates

/// A date as a person reads it, in the league's zone: `Thu 10 Sep 2026`.
fn day(zone: Zone, t: DateTime<Utc>) -> String {
    dates::day(zone, t)
}

/// A date and time in the league's zone: `Thu 10 Sep 2026, 19:30`.
fn when(zone: Zone, t: DateTime<Utc>) -> String {
    dates::when(zone, t)
}

/// The same as an ISO time with the zone's offset, for `<time datetime>`.
fn datetime(zone: Zone, t: DateTime<Utc>) -> String {
    dates::datetime(zone, t)
}

/// The start of today where the league plays, and of tomorrow.
fn today(zone: Zone) -> (DateTime<Utc>, DateTime<Utc>) {
    zone.today(Utc::now())
}

// ---------------------------------------------------------------------------
// Fixture lines as pages list them

/// One fixture of a listing, ready to show.
#[derive(Debug, Clone)]
pub struct FixtureView {
    pub href: String,
    /// The round as a heading says it: "Round 3", or a cup's "Final".
    pub round: String,
    /// Shown date; empty when none is set.
    pub when: String,
    /// The same as an ISO time, for `<time datetime>`.
    pub datetime: String,
    /// The division or the cup.
    pub competition: Link,
    pub home: Link,
    pub away: Link,
    pub venue: String,
    /// Boards, home first (`6–3`); empty when there is no score.
    pub score: String,
    /// The state in words: `postponed`, `void`, `walkover: ... conceded`,
    /// `to play`, `played`.
    pub state: String,
    /// A result not yet approved: marked, never counted.
    pub provisional: bool,
    /// What the provisional badge says (`provisional: not yet confirmed`).
    pub badge: String,
}

pub(crate) use crate::league::fixture_state::pending_words;

/// A fixture of a list as pages show it: the use case's summary with
/// links and dates in the league's zone.
pub(crate) fn fixture_view(league: &League, season_name: &str, f: &FixtureSummary) -> FixtureView {
    let competition = match (&f.cup, &f.division) {
        (Some(cup), _) => Link::new(cup.name.clone(), cup_href(league, CupId(cup.id), &cup.name)),
        (None, Some(d)) => Link::new(d.name.clone(), division_href(league, season_name, &d.name)),
        (None, None) => Link::new(String::new(), league_href(league)),
    };
    FixtureView {
        href: match_href(league, FixtureId(f.id)),
        round: f.round_name.clone(),
        when: f
            .starts_at
            .map(|t| when(league.time_zone, t))
            .unwrap_or_default(),
        datetime: f
            .starts_at
            .map(|t| datetime(league.time_zone, t))
            .unwrap_or_default(),
        competition,
        home: Link::new(
            f.home_label.clone(),
            team_href(league, TeamId(f.home.id), &f.home.name),
        ),
        away: Link::new(
            f.away_label.clone(),
            team_href(league, TeamId(f.away.id), &f.away.name),
        ),
        venue: f.venue.as_ref().map(|v| v.name.clone()).unwrap_or_default(),
        score: f
            .score
            .as_ref()
            .map(|s| format!("{}–{}", s.boards[0], s.boards[1]))
            .unwrap_or_default(),
        state: f.state_words.clone(),
        provisional: f.score.as_ref().is_some_and(|s| s.provisional),
        badge: f.badge.clone(),
    }
}

/// Fixture lines of possibly several seasons as views.
pub(crate) fn fixture_views(
    league: &League,
    seasons: &[Season],
    formats: &HashMap<SeasonId, MatchFormat>,
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, Score>,
) -> Vec<FixtureView> {
    let names: HashMap<SeasonId, &str> = seasons.iter().map(|s| (s.id, s.name.as_str())).collect();
    summaries(lines, scores, formats)
        .iter()
        .filter_map(|f| {
            let season = names.get(&SeasonId(f.season_id))?;
            Some(fixture_view(league, season, f))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Penalties as pages list them

/// A penalty, said in words: what, how much, against whom, where, why.
#[derive(Debug, Clone)]
pub struct PenaltyView {
    pub kind: String,
    pub amount: String,
    /// The team or player it is against.
    pub against: Option<Link>,
    /// The match it was given in.
    pub fixture: Option<Link>,
    pub season: String,
    pub note: String,
    pub recorded: String,
    /// Withdrawn: shown struck through and said in words.
    pub withdrawn: bool,
}

fn penalty_view(league: &League, p: &PenaltyLine) -> PenaltyView {
    let against = match (&p.team_id, &p.team_name, &p.player_id, &p.player_name) {
        (Some(id), Some(name), _, _) => Some(Link::new(name.clone(), team_href(league, *id, name))),
        (_, _, Some(id), Some(name)) => {
            Some(Link::new(name.clone(), player_href(league, *id, name)))
        }
        _ => None,
    };
    let fixture = p.fixture_id.map(|id| {
        let text = match (p.fixture_round, p.fixture_starts_at) {
            (Some(round), Some(t)) => format!("round {round} match, {}", day(league.time_zone, t)),
            (Some(round), None) => format!("round {round} match"),
            _ => "the match".to_owned(),
        };
        Link::new(text, match_href(league, id))
    });
    PenaltyView {
        kind: p.kind_name.clone(),
        amount: p.effect.amount_words(p.amount),
        against,
        fixture,
        season: p.season_name.clone(),
        note: p.note.clone(),
        recorded: day(league.time_zone, p.recorded_at),
        withdrawn: p.voided_at.is_some(),
    }
}

fn penalty_views(league: &League, lines: &[PenaltyLine]) -> Vec<PenaltyView> {
    lines.iter().map(|p| penalty_view(league, p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::links::address_clash;

    fn taken() -> Vec<&'static str> {
        crate::web::routes::taken_segments()
            .iter()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn slugs_are_readable_and_safe() {
        assert_eq!(slug("2026/27"), "2026-27");
        assert_eq!(slug("Division 1"), "division-1");
        assert_eq!(slug("The Crown 'A'"), "the-crown-a");
        assert_eq!(slug("  --Premier--  "), "premier");
        assert_eq!(slug("Café Ωmega"), "café-ωmega");
        assert_eq!(slug("<script>"), "script");
        assert_eq!(slug("!!"), "-");
    }

    #[test]
    fn addresses_that_cannot_be_had() {
        assert!(address_clash("2026/27", &["2025/26"], &taken()).is_none());
        assert!(
            address_clash("Live", &[], &taken())
                .unwrap()
                .contains("…/live")
        );
        assert!(address_clash("Players Table", &[], &taken()).is_some());
        assert!(address_clash("Players Table 2026", &[], &taken()).is_none());
        assert!(
            address_clash("!!!", &[], &[])
                .unwrap()
                .contains("letter or digit")
        );
        let same = address_clash("2026-27", &["2026/27"], &[]).unwrap();
        assert!(same.starts_with("2026/27 already has"), "{same}");
    }

    #[test]
    fn ids_with_slugs() {
        assert_eq!(split_id_slug("12-the-crown-a"), Some((12, "the-crown-a")));
        assert_eq!(split_id_slug("12"), Some((12, "")));
        assert_eq!(split_id_slug("x-12"), None);
        assert_eq!(split_id_slug("-3"), None);
        assert_eq!(split_id_slug("0-zero"), None);
    }
}
