//! The weekly round-up a league sends to the local paper and its social
//! page: a week's results by division (Monday to Sunday in the league's
//! zone), the table leaders after them, and the feats of the week's hands
//! (`league::feats`), as a page and as plain text to copy
//! (`/leagues/{league}/round-up/{monday}.txt`).
//!
//! Queries, whatever the size of the week: the league, its seasons, the
//! week's fixtures and their boards, their current results (ten, all at
//! once), the weeks either side with results, and per season in the week
//! (one, rarely two) its fixtures, boards, entries and deductions for the
//! tables.

use crate::app::division_table::division_rows;
use crate::app::feats::{counted_fixtures, feat_matches};
use crate::app::formats::scores_by_season;
use crate::web::auth::InLeague;
use crate::web::links;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::{NaiveDate, Utc};
use serde::Deserialize;

use crate::db::generation::Follows;
use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{FixtureId, FixtureStatus, League, Season, SeasonId};
use crate::league::feats::{Feats, GameFeat, feats};
use crate::league::match_score::scores_from_boards;

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::cache::FRESH_SECONDS;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{Link, day, division_href, league_href, match_href};

#[derive(Deserialize)]
pub struct WeekPath {
    /// The week's Monday, `2026-10-12`, with `.txt` for the plain text.
    week: String,
}

/// The round-up's address for the week starting `monday`.
pub(crate) fn week_href(league: &League, monday: NaiveDate) -> String {
    format!(
        "{}/round-up/{}",
        league_href(league),
        monday.format("%Y-%m-%d")
    )
}

/// `/round-up`: the latest week with a result, up to this week (this week
/// when there is none).
pub async fn latest(State(state): State<AppState>, InLeague(league): InLeague) -> Result<Response> {
    let db = state.db();
    let zone = league.time_zone;
    let today = zone.local(Utc::now()).date();
    let (this_week, _, end) = zone.week(today);
    // Asked on every visit and never a page to keep (a redirect): the week
    // is kept while the league's records stand, for this week.
    let generation = db
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    let monday = state
        .latest_week()
        .get_or_work((league.id, this_week), generation, || async {
            let (latest, _) = db.result_dates_around(league.id, end, end).await?;
            Ok::<_, AppError>(latest.map_or(this_week, |t| zone.week(zone.local(t).date()).0))
        })
        .await?;
    Ok(Redirect::to(&week_href(&league, *monday)).into_response())
}

/// One result line: `Plough A 6–3 Star`, with its match and a note.
struct ResultLine {
    text: String,
    href: String,
    /// `provisional: ...`, `walkover`, `postponed`: empty for an approved
    /// result.
    note: String,
}

/// A division's week.
struct DivisionWeek {
    division: Link,
    results: Vec<ResultLine>,
    /// `Plough A, 40 points from 7 matches`, as the table stood after the
    /// week's last round.
    leaders: Vec<String>,
}

/// A kind of feat and its lines.
struct FeatGroup {
    title: String,
    lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "public/round_up.html")]
struct RoundUpPage<'a> {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    /// `Mon 12 Oct 2026 to Sun 18 Oct 2026`.
    week: &'a str,
    earlier: Option<Link>,
    later: Option<Link>,
    text_href: String,
    /// Where to get it by email.
    subscribe_href: String,
    divisions: &'a [DivisionWeek],
    feats: &'a [FeatGroup],
    /// The same, as plain text to copy.
    text: &'a str,
}

#[derive(Template)]
#[template(path = "public/round_up.txt")]
struct RoundUpText<'a> {
    league: &'a League,
    week: &'a str,
    divisions: &'a [DivisionWeek],
    feats: &'a [FeatGroup],
}

pub async fn week(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<WeekPath>,
) -> Result<Response> {
    let (date, plain) = match p.week.strip_suffix(".txt") {
        Some(date) => (date, true),
        None => (p.week.as_str(), false),
    };
    let date: NaiveDate = date
        .parse()
        .map_err(|_| AppError::NotFound(format!("The week `{}`", p.week)))?;
    let zone = league.time_zone;
    let monday = zone.week(date).0;
    if monday != date {
        let mut href = week_href(&league, monday);
        if plain {
            href.push_str(".txt");
        }
        return Ok(Redirect::to(&href).into_response());
    }
    let built = build_week(&state, &league, monday).await?;
    if plain {
        return Ok((
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            built.text.clone(),
        )
            .into_response());
    }
    let step = |t: chrono::DateTime<Utc>, words: &str| {
        let m = zone.week(zone.local(t).date()).0;
        Link::new(
            format!("{words} {}", m.format("%-d %b %Y")),
            week_href(&league, m),
        )
    };
    let href = week_href(&league, monday);
    let page = RoundUpPage {
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        week: &built.week,
        earlier: built.earlier.map(|t| step(t, "Earlier: week of")),
        later: built.later.map(|t| step(t, "Later: week of")),
        text_href: format!("{href}.txt"),
        subscribe_href: links::at(&league).round_up_subscribe(),
        divisions: &built.divisions,
        feats: &built.feats,
        text: &built.text,
        league,
    };
    Ok(html(&page))
}

/// A week's round-up, built once for the page, its text and the email.
pub(crate) struct Week {
    /// `Mon 12 Oct 2026 to Sun 18 Oct 2026`.
    pub week: String,
    divisions: Vec<DivisionWeek>,
    feats: Vec<FeatGroup>,
    /// The plain text to copy (and to email).
    pub text: String,
    earlier: Option<chrono::DateTime<Utc>>,
    later: Option<chrono::DateTime<Utc>>,
    /// The minute it was worked out in while its week is not over (0
    /// after): kept for that minute only.
    minute: i64,
}

impl Week {
    /// Whether any match was played or due that week.
    pub fn has_matches(&self) -> bool {
        !self.divisions.is_empty()
    }
}

/// The round-up of the week starting `monday` in `league`'s zone: kept
/// while the league's records stand (it reads every hand of the week's
/// matches, tens of milliseconds on a big league), and for a week not
/// over, at most a minute (a match still to play is said to be so until
/// its kick-off).
pub(crate) async fn build_week(
    state: &AppState,
    league: &League,
    monday: NaiveDate,
) -> Result<Arc<Week>> {
    let generation = state
        .db()
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    let (_, _, to) = league.time_zone.week(monday);
    let now = Utc::now();
    let minute = if to > now {
        now.timestamp() / i64::try_from(FRESH_SECONDS).unwrap_or(60)
    } else {
        0
    };
    state
        .round_ups()
        .get_or_work_if(
            (league.id, monday),
            generation,
            |kept| kept.minute == minute,
            || async move {
                let mut week = work_out_week(state, league, monday).await?;
                week.minute = minute;
                Ok(week)
            },
        )
        .await
}

async fn work_out_week(state: &AppState, league: &League, monday: NaiveDate) -> Result<Week> {
    let db = state.db();
    let zone = league.time_zone;
    let (_, from, to) = zone.week(monday);
    let seasons = db.seasons(league.id).await?;
    let formats = crate::app::formats::match_formats(&seasons)?;
    let mut lines = db
        .fixture_lines(league.id, &FixtureScope::Between { from, to })
        .await?;
    lines.sort_by_key(|f| (f.starts_at, f.id));
    let ids: Vec<FixtureId> = lines.iter().map(|f| f.id).collect();
    let boards = db
        .board_lines(league.id, &FixtureScope::Ids(ids), false)
        .await?;
    let scores = scores_by_season(&lines, &boards, &formats);
    // Feats come from approved results only, like the tables.
    let approved = counted_fixtures(&lines);
    let (results, names) = db.current_results(league.id, &approved).await?;
    let found = feats(&feat_matches(&lines, &results, &names, &scores, &formats));
    let (earlier, later) = db.result_dates_around(league.id, from, to).await?;

    let mut divisions = division_weeks(state, league, &seasons, &lines, &scores).await?;
    divisions.extend(cup_weeks(league, &seasons, &formats, &lines, &scores));
    let feat_groups = feat_groups(&found, &lines);
    let sunday = monday + chrono::Days::new(6);
    let week = format!(
        "{} to {}",
        monday.format("%a %-d %b %Y"),
        sunday.format("%a %-d %b %Y")
    );
    let text = RoundUpText {
        league,
        week: &week,
        divisions: &divisions,
        feats: &feat_groups,
    }
    .render()
    .map_err(|e| AppError::Internal(format!("the round-up's text: {e}")))?;
    Ok(Week {
        week,
        divisions,
        feats: feat_groups,
        text,
        earlier,
        later,
        minute: 0,
    })
}

/// Each division with a fixture this week: its results and its leaders
/// after the week's last round, from one load a season.
async fn division_weeks(
    state: &AppState,
    league: &League,
    seasons: &[Season],
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, crate::db::pages::Score>,
) -> Result<Vec<DivisionWeek>> {
    let db = state.db();
    let mut out = Vec::new();
    let in_week: BTreeSet<SeasonId> = lines.iter().map(|f| f.season_id).collect();
    for season in seasons.iter().filter(|s| in_week.contains(&s.id)) {
        let format = season.rules()?.format;
        let rules = season.rules()?.settings.tie_breakers;
        let scope = FixtureScope::Season(season.id);
        let all = db.fixture_lines(league.id, &scope).await?;
        let all_scores =
            scores_from_boards(&db.board_lines(league.id, &scope, false).await?, &format);
        let entries = db.entry_lines(league.id, season.id).await?;
        let deductions = db.deduction_lines(league.id, season.id).await?;
        let divisions = db.divisions(league.id, season.id).await?;
        for d in &divisions {
            let ours: Vec<&FixtureLine> = lines
                .iter()
                .filter(|f| f.season_id == season.id && f.division_id == Some(d.id))
                .collect();
            if ours.is_empty() {
                continue;
            }
            let results = ours
                .iter()
                .map(|f| result_line(league, f, scores, &format))
                .collect();
            let last = ours
                .iter()
                .filter_map(|f| u32::try_from(f.round).ok())
                .max();
            let rows = division_rows(
                d.id,
                &all,
                &all_scores,
                &entries,
                &deductions,
                &format,
                &rules,
                last,
            );
            let name = |team: i64| {
                entries
                    .iter()
                    .find(|e| e.team_id.0 == team)
                    .map_or("?", |e| e.team_name.as_str())
            };
            let leaders = crate::league::standings::leaders(&rows)
                .iter()
                .map(|r| {
                    format!(
                        "{}, {} point{} from {} match{}",
                        name(r.team),
                        r.points,
                        if r.points == 1 { "" } else { "s" },
                        r.played,
                        if r.played == 1 { "" } else { "es" }
                    )
                })
                .collect();
            out.push(DivisionWeek {
                division: Link::new(d.name.clone(), division_href(league, &season.name, &d.name)),
                results,
                leaders,
            });
        }
    }
    Ok(out)
}

/// Each cup with a tie this week: its results (a cup has no leaders).
fn cup_weeks(
    league: &League,
    seasons: &[Season],
    formats: &HashMap<SeasonId, crate::league::match_format::MatchFormat>,
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, crate::db::pages::Score>,
) -> Vec<DivisionWeek> {
    let mut cups: Vec<(crate::db::CupId, Vec<&FixtureLine>)> = Vec::new();
    for f in lines {
        let Some(cup) = f.cup_id else { continue };
        match cups.iter_mut().find(|(c, _)| *c == cup) {
            Some((_, ties)) => ties.push(f),
            None => cups.push((cup, vec![f])),
        }
    }
    cups.into_iter()
        .filter_map(|(_, ties)| {
            let first = ties.first()?;
            let season = seasons.iter().find(|s| s.id == first.season_id)?;
            let results = ties
                .iter()
                .filter_map(|f| {
                    let format = crate::app::formats::line_format(f, formats)?;
                    Some(result_line(league, f, scores, format))
                })
                .collect();
            Some(DivisionWeek {
                division: super::competition_link(league, &season.name, first),
                results,
                leaders: Vec::new(),
            })
        })
        .collect()
}

fn result_line(
    league: &League,
    f: &FixtureLine,
    scores: &HashMap<FixtureId, crate::db::pages::Score>,
    format: &crate::league::match_format::MatchFormat,
) -> ResultLine {
    let score = crate::league::match_score::fixture_score(f, scores, format);
    let (text, note) = match (f.status, score) {
        (FixtureStatus::Walkover, Some(s)) => (
            format!(
                "{} {}–{} {}",
                f.home_label(),
                s.boards[0],
                s.boards[1],
                f.away_label()
            ),
            f.state_words(true),
        ),
        (_, Some(s)) => (
            format!(
                "{} {}–{} {}",
                f.home_label(),
                s.boards[0],
                s.boards[1],
                f.away_label()
            ),
            if s.provisional() {
                s.status
                    .map(|st| super::pending_words(st).to_owned())
                    .unwrap_or_default()
            } else {
                String::new()
            },
        ),
        (FixtureStatus::Postponed, None) => (
            format!("{} v {}", f.home_label(), f.away_label()),
            f.state_words(false),
        ),
        _ => (
            format!("{} v {}", f.home_label(), f.away_label()),
            match f.starts_at {
                Some(t) if t > Utc::now() => format!("to play, {}", day(league.time_zone, t)),
                _ => "no result yet".to_owned(),
            },
        ),
    };
    ResultLine {
        text,
        href: match_href(league, f.id),
        note,
    }
}

/// The feats in words, a group a kind, leaving out the kinds not seen.
fn feat_groups(found: &Feats, lines: &[FixtureLine]) -> Vec<FeatGroup> {
    let fixture = |id: i64| lines.iter().find(|f| f.id.0 == id);
    let team = |id: i64, side: usize| {
        fixture(id).map_or(String::new(), |f| {
            if side == 0 {
                f.home_name.clone()
            } else {
                f.away_name.clone()
            }
        })
    };
    let people = |names: &[String], id: i64, side: usize| {
        format!("{} ({})", names.join(" & "), team(id, side))
    };
    let game = |g: &GameFeat, what: String| {
        format!(
            "{} {what} {} (board {}{})",
            people(&g.winners, g.fixture, g.team),
            people(&g.losers, g.fixture, 1 - g.team),
            g.board,
            if g.game > 1 {
                format!(", game {}", g.game)
            } else {
                String::new()
            }
        )
    };
    let mut out = Vec::new();
    let mut group = |title: String, lines: Vec<String>| {
        if !lines.is_empty() {
            out.push(FeatGroup { title, lines });
        }
    };
    group(
        "Whitewashes: every board won".into(),
        found
            .whitewashes
            .iter()
            .map(|w| {
                let f = fixture(w.fixture);
                let division = f.map_or(String::new(), |f| format!(" ({})", f.competition));
                format!(
                    "{} beat {} {}–0{division}",
                    team(w.fixture, w.winner),
                    team(w.fixture, 1 - w.winner),
                    w.boards
                )
            })
            .collect(),
    );
    group(
        "Games won without reply".into(),
        found
            .without_reply
            .iter()
            .map(|g| game(g, format!("won {}–{} against", g.score[0], g.score[1])))
            .collect(),
    );
    group(
        "Sets won to nil".into(),
        found
            .nil_sets
            .iter()
            .map(|g| {
                game(
                    g,
                    format!("won a set {}–{} against", g.score[0], g.score[1]),
                )
            })
            .collect(),
    );
    if let Some(first) = found.quickest.first() {
        group(
            format!("Quickest to {}: {} hands", first.target, first.hands),
            found
                .quickest
                .iter()
                .map(|g| {
                    game(
                        g,
                        format!(
                            "won {}–{} in {} hands against",
                            g.score[0], g.score[1], g.hands
                        ),
                    )
                })
                .collect(),
        );
    }
    if found.eights_total > 0 {
        let mut lines = vec![format!("{} in all", found.eights_total)];
        lines.extend(found.most_eights.iter().map(|e| {
            format!(
                "Most in a match: {} ({}), {} against {}",
                e.player,
                team(e.fixture, e.team),
                e.count,
                team(e.fixture, 1 - e.team)
            )
        }));
        group("8-point plays (the ends totalling 15)".into(), lines);
    }
    out
}
