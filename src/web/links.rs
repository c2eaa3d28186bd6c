//! The addresses of a league's pages, made to be read and shared: a
//! season or division by its name made URL-safe
//! (`/leagues/paphos/2026-27/division-1`), a team or player by its id and
//! name (`/leagues/paphos/teams/12-the-crown-a`). Every route group builds
//! its links here.

use crate::db::pages::FixtureLine;
use crate::db::{CupId, FixtureId, League, PlayerId, TeamId};

use super::error::urlencode;

/// Why a page named `name` could not have an address of its own among
/// `siblings` (the others named in the same place, itself left out) and
/// the `taken` segments: none at all, another page's, or a sibling's.
pub(crate) fn address_clash(name: &str, siblings: &[&str], taken: &[&str]) -> Option<String> {
    let address = slug(name);
    if address == "-" {
        return Some(
            "Give a name with a letter or digit: the page's address is made of them.".into(),
        );
    }
    if taken.contains(&address.as_str()) {
        return Some(format!(
            "The address …/{address} belongs to another page of the league: add to the name, e.g. a year."
        ));
    }
    siblings.iter().find(|s| slug(s) == address).map(|other| {
        format!(
            "{other} already has the address …/{address}: choose a name that differs in more than capitals or punctuation."
        )
    })
}

/// A name made URL-safe: lowercase, each run of anything but letters and
/// digits one `-`, none at either end (`2026/27` -> `2026-27`).
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() { "-".to_owned() } else { out }
}

/// `12-the-crown-a` -> `(12, "the-crown-a")`; `12` -> `(12, "")`.
pub(crate) fn split_id_slug(text: &str) -> Option<(i64, &str)> {
    let (id, rest) = text.split_once('-').unwrap_or((text, ""));
    let id: i64 = id.parse().ok()?;
    (id > 0).then_some((id, rest))
}

pub(crate) fn league_href(league: &League) -> String {
    format!("/leagues/{}", urlencode(&league.short_name))
}

pub(crate) fn season_href(league: &League, season: &str) -> String {
    format!("{}/{}", league_href(league), slug(season))
}

/// A season's honours: its champions, cup winners, top players and feats.
pub(crate) fn honours_href(league: &League, season: &str) -> String {
    format!("{}/honours", season_href(league, season))
}

pub(crate) fn division_href(league: &League, season: &str, division: &str) -> String {
    format!("{}/{}", season_href(league, season), slug(division))
}

pub(crate) fn cup_href(league: &League, id: CupId, name: &str) -> String {
    format!("{}/cups/{}-{}", league_href(league), id, slug(name))
}

/// The page of a fixture's competition: its division's table, or its
/// cup's bracket.
pub(crate) fn competition_link(league: &League, season_name: &str, line: &FixtureLine) -> Link {
    let href = match line.cup_id {
        Some(cup) => cup_href(league, cup, &line.competition),
        None => division_href(league, season_name, &line.competition),
    };
    Link::new(line.competition.clone(), href)
}

pub(crate) fn team_href(league: &League, id: TeamId, name: &str) -> String {
    format!("{}/teams/{}-{}", league_href(league), id, slug(name))
}

pub(crate) fn player_href(league: &League, id: PlayerId, name: &str) -> String {
    player_href_in(&league.short_name, id, name)
}

/// [`player_href`] from the league's short name alone.
pub(crate) fn player_href_in(league_short_name: &str, id: PlayerId, name: &str) -> String {
    format!(
        "/leagues/{}/players/{}-{}",
        urlencode(league_short_name),
        id,
        slug(name)
    )
}

pub(crate) fn match_href(league: &League, id: FixtureId) -> String {
    format!("{}/matches/{}", league_href(league), id)
}

/// A link as a page shows it.
#[derive(Debug, Clone)]
pub struct Link {
    pub text: String,
    pub href: String,
}

impl Link {
    pub(crate) fn new(text: impl Into<String>, href: impl Into<String>) -> Link {
        Link {
            text: text.into(),
            href: href.into(),
        }
    }
}
