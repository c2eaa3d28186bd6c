//! A team's widget: its next match, its place in the table and its form,
//! and its latest results.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use chrono::Utc;
use serde::Deserialize;

use crate::app::embeds;
use crate::db::{DbError, FixtureStatus, League, TeamId};
use crate::web::AppState;
use crate::web::auth::InLeague;
use crate::web::error::{AppError, Result};
use crate::web::links::{Link, division_href, split_id_slug, team_href};
use crate::web::page::html;
use crate::web::public::{FixtureView, FormView, fixture_views};
use crate::web::views::next_match::{NextMatch, next_match};

use super::Look;

/// The latest results the widget lists.
const RESULTS: usize = 3;

#[derive(Deserialize)]
pub struct TeamPath {
    team: String,
}

#[derive(Template)]
#[template(path = "embed/team.html")]
struct TeamPage {
    /// The next-match box's answer form names a CSRF field; a widget never
    /// shows that form (nobody is signed in inside a frame), so it is empty.
    ctx: NoForms,
    look: Look,
    league: League,
    name: String,
    /// The team's own page.
    href: String,
    next: Option<NextMatch>,
    /// "3rd of 8 in Premier, 24 points", to the division's table.
    standing: Option<Link>,
    form: Option<FormView>,
    results: Vec<FixtureView>,
}

pub async fn page(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<TeamPath>,
    uri: Uri,
) -> Result<Response> {
    let unknown = || AppError::NotFound(format!("The team `{}`", p.team));
    // `12` or, as the team's page has it, `12-the-crown-a`.
    let (id, _) = split_id_slug(&p.team).ok_or_else(unknown)?;
    let w = embeds::team(state.db(), state.kept_divisions(), &league, TeamId(id))
        .await
        .map_err(|e| match e {
            DbError::NotFound(_) => unknown(),
            other => other.into(),
        })?;
    let mut page = TeamPage {
        ctx: NoForms { csrf: "" },
        look: Look::from_query(uri.query()),
        href: team_href(&league, w.team.id, &w.team.name),
        name: w.team.name.clone(),
        next: None,
        standing: None,
        form: None,
        results: Vec::new(),
        league,
    };
    let Some(s) = w.season else {
        return Ok(html(&page));
    };
    let league = &page.league;
    let team = w.team.id;
    // The widget is the team's: its next match needs no team's name.
    page.next =
        next_match(league, &s.lines, team, league.time_zone.today(Utc::now()).0).map(|next| {
            NextMatch {
                team: String::new(),
                ..next
            }
        });
    let data = &s.division.data;
    let rows = data.rows(None);
    if let Some(at) = rows.iter().position(|r| r.team == team.0) {
        let points = rows[at].points;
        page.standing = Some(Link::new(
            format!(
                "{} of {} in {}, {points} point{}",
                ordinal(at + 1),
                rows.len(),
                s.division.division.name,
                if points == 1 { "" } else { "s" }
            ),
            division_href(league, &s.season.name, &s.division.division.name),
        ));
        page.form = Some(FormView::of(&data.form(team, None)));
    }
    let mut played: Vec<_> = s
        .lines
        .iter()
        .filter(|f| f.result_status.is_some() || f.status == FixtureStatus::Walkover)
        .filter(|f| f.status != FixtureStatus::Void)
        .cloned()
        .collect();
    played.sort_by_key(|f| std::cmp::Reverse((f.starts_at, f.id)));
    played.truncate(RESULTS);
    page.results = fixture_views(
        league,
        std::slice::from_ref(&s.season),
        &s.formats,
        &played,
        &s.scores,
    );
    Ok(html(&page))
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `12th`, `13th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What the shared next-match template reads of a page's context.
struct NoForms {
    csrf: &'static str,
}

#[cfg(test)]
mod tests {
    #[test]
    fn places_read_as_people_say_them() {
        let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(super::ordinal)
            .collect();
        assert_eq!(
            said,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }
}
