//! A page's data as one use case each: what the public pages and the API
//! at `/api/v1` both show, read once and returned as a typed view that
//! both serialise (the HTML page renders it, the API sends it as JSON).
//! Handlers parse the address, call one of these, and render; so a page
//! and its API resource cannot disagree, and a new page is a view here, a
//! template and a route.
//!
//! Views name records by their stable ids (`Ref`); the API adds the links
//! between them. Times are UTC (RFC 3339); pages show them in the league's
//! zone.

use serde::Serialize;
use utoipa::ToSchema;

use crate::addresses::slug;
use crate::db::{DbError, Result};

pub mod cup;
pub mod division;
pub mod fixtures;
pub mod honours;
pub mod league;
pub mod live;
pub mod match_view;
pub mod player;
pub mod ratings;
pub mod round_up;
pub mod team;

/// A record named by its stable id, with its name as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Ref {
    pub id: i64,
    pub name: String,
}

impl Ref {
    pub fn new(id: i64, name: impl Into<String>) -> Ref {
        Ref {
            id,
            name: name.into(),
        }
    }
}

/// How an address names a season or a division: the API by its id, a page
/// by its name made URL-safe (`2026-27`).
#[derive(Debug, Clone, Copy)]
pub enum Key<'a> {
    Id(i64),
    Slug(&'a str),
}

impl Key<'_> {
    fn names(self, id: i64, name: &str) -> bool {
        match self {
            Key::Id(want) => want == id,
            Key::Slug(want) => slug(name) == want,
        }
    }

    fn shown(self) -> String {
        match self {
            Key::Id(id) => id.to_string(),
            Key::Slug(s) => s.to_owned(),
        }
    }
}

/// The record `key` names among `all`, or the "not found" that says what
/// was asked for.
fn pick<T: Clone>(
    all: &[T],
    key: Key<'_>,
    what: &str,
    id_name: impl Fn(&T) -> (i64, &str),
) -> Result<T> {
    all.iter()
        .find(|t| {
            let (id, name) = id_name(t);
            key.names(id, name)
        })
        .cloned()
        .ok_or_else(|| DbError::NotFound(format!("The {what} `{}`", key.shown())))
}

/// A page of a list that grows (a division's fixtures, a league's
/// results): which page, of how many, of how many items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct PageInfo {
    /// 1 for the first page.
    pub page: u32,
    pub per_page: u32,
    pub total_items: u64,
    pub total_pages: u32,
}

/// Items per page when the reader does not say, and the most allowed.
pub const PER_PAGE: u32 = 50;
pub const MOST_PER_PAGE: u32 = 200;

impl PageInfo {
    /// Page `page` of `per_page` over `total` items; `None` when there is
    /// no such page (past the last; the first page of nothing is there).
    pub fn new(page: u32, per_page: u32, total: usize) -> Option<PageInfo> {
        let per_page = per_page.clamp(1, MOST_PER_PAGE);
        let total_pages = u32::try_from(total.div_ceil(per_page as usize)).unwrap_or(u32::MAX);
        (page >= 1 && page <= total_pages.max(1)).then_some(PageInfo {
            page,
            per_page,
            total_items: total as u64,
            total_pages,
        })
    }

    /// The items of this page.
    pub fn slice<T: Clone>(&self, all: &[T]) -> Vec<T> {
        let start = (self.page as usize - 1).saturating_mul(self.per_page as usize);
        all.iter()
            .skip(start)
            .take(self.per_page as usize)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_the_list_and_stop_at_its_end() {
        let all: Vec<u32> = (1..=7).collect();
        let first = PageInfo::new(1, 3, all.len()).unwrap();
        assert_eq!(first.total_pages, 3);
        assert_eq!(first.slice(&all), [1, 2, 3]);
        assert_eq!(PageInfo::new(3, 3, 7).unwrap().slice(&all), [7]);
        assert_eq!(PageInfo::new(4, 3, 7), None);
        assert_eq!(PageInfo::new(0, 3, 7), None);
        assert!(
            PageInfo::new(1, 50, 0).is_some(),
            "an empty list has a page"
        );
    }
}
