//! Links as pages show them. The addresses themselves are built in
//! [`crate::addresses`], re-exported here so templates can call
//! `crate::web::links::at(league)...`.

pub(crate) use crate::addresses::*;
use crate::db::League;
use crate::db::pages::FixtureLine;

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

/// The page of a fixture's competition: its division's table, or its
/// cup's bracket.
pub(crate) fn competition_link(league: &League, season_name: &str, line: &FixtureLine) -> Link {
    let href = match line.cup_id {
        Some(cup) => cup_href(league, cup, &line.competition),
        None => division_href(league, season_name, &line.competition),
    };
    Link::new(line.competition.clone(), href)
}
