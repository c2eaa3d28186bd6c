//! A division's table (as it stands, or as it stood after a round) and its
//! fixtures and results by round.

use crate::web::auth::InLeague;
use crate::web::links;
use std::collections::{BTreeMap, HashMap};

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;

use crate::db::pages::FixtureScope;
use crate::db::{Division, League, Season, TeamId};
use crate::league::match_score::scores_from_boards;
use crate::league::rollover::{exchanges, ties_in};
use crate::league::standings::{MatchOutcome, Row, Separation, TieBreaker};

use crate::app::division_table::DivisionData;

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::super::views::words::and_list;
use super::{
    FixtureView, Link, day, division_href, find_division, find_season, fixture_views, league_href,
    season_href, team_href,
};

#[derive(Deserialize)]
pub struct DivisionPath {
    season: String,
    division: String,
}

#[derive(Deserialize)]
pub struct TableQuery {
    /// The table as it stood after this round; empty or absent: now.
    after: Option<String>,
    /// `all`: every column, on a phone too.
    cols: Option<String>,
}

#[derive(Template)]
#[template(path = "public/division.html")]
struct TablePage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    season: Season,
    division: Division,
    fixtures_href: String,
    /// The round the table is shown after, if not now.
    after: Option<u32>,
    rounds: Vec<RoundChoice>,
    rows: Vec<TableRow>,
    /// How the table is ordered, in a sentence.
    order: String,
    /// Which rule separated teams level on points, in sentences.
    separations: Vec<String>,
    /// The notes counted in one line (`notes_line`).
    notes_line: String,
    /// Points deducted, with their reasons.
    deductions: Vec<String>,
    /// Results awaiting approval, not counted.
    pending: usize,
    /// Teams level on every rule at the title, a promotion or a relegation
    /// place, in sentences.
    ties: Vec<String>,
    /// Where a secretary adds a play-off (the season's end page), while the
    /// season is open.
    playoff_href: Option<String>,
    /// Every column on a phone too, and the address of the other view.
    all_columns: bool,
    cols_href: String,
    calendar: super::CalendarLinks,
    data_href: String,
}

struct RoundChoice {
    round: u32,
    label: String,
    selected: bool,
}

struct TableRow {
    position: usize,
    team: Link,
    /// The counts as the standings give them.
    row: Row,
    form: FormView,
}

/// A team's last five results as a small picture, with its words.
pub(crate) struct FormView {
    pub(crate) marks: Vec<FormMark>,
    /// The text alternative: "Last 5 results, oldest first: won, lost, ...".
    pub(crate) words: String,
    pub(crate) width: usize,
}

pub(crate) struct FormMark {
    pub(crate) x: usize,
    pub(crate) letter: &'static str,
    pub(crate) class: &'static str,
}
/// The width a match takes in a form picture: a mark 12 pixels wide and a
/// gap.
const FORM_STEP: usize = 14;

impl FormView {
    pub(crate) fn new(form: &[MatchOutcome]) -> FormView {
        let words: Vec<&str> = form.iter().map(|o| o.word()).collect();
        FormView {
            marks: form
                .iter()
                .enumerate()
                .map(|(i, o)| FormMark {
                    x: i * FORM_STEP,
                    letter: o.letter(),
                    class: o.word(),
                })
                .collect(),
            words: if form.is_empty() {
                "No results yet".to_owned()
            } else {
                format!(
                    "Last {} result{}, oldest first: {}",
                    form.len(),
                    if form.len() == 1 { "" } else { "s" },
                    words.join(", ")
                )
            },
            width: (form.len() * FORM_STEP).saturating_sub(2),
        }
    }
}

/// The season and division an address names in `league`, with the
/// season's divisions in order.
async fn resolve_all(
    state: &AppState,
    league: League,
    p: &DivisionPath,
) -> Result<(League, Season, Division, Vec<Division>)> {
    let db = state.db();
    let seasons = db.seasons(league.id).await?;
    let season = find_season(&seasons, &p.season)?.clone();
    let divisions = db.divisions(league.id, season.id).await?;
    let division = find_division(&divisions, &p.division)?.clone();
    Ok((league, season, division, divisions))
}

/// The season and division an address names in `league`.
pub(super) async fn resolve(
    state: &AppState,
    league: League,
    p: &DivisionPath,
) -> Result<(League, Season, Division)> {
    let (league, season, division, _) = resolve_all(state, league, p).await?;
    Ok((league, season, division))
}

fn crumbs(league: &League, season: &Season) -> Vec<Link> {
    vec![
        Link::new(league.name.clone(), league_href(league)),
        Link::new(season.name.clone(), season_href(league, &season.name)),
    ]
}

fn parse_after(q: &TableQuery) -> Result<Option<u32>> {
    match q.after.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse()
            .map(Some)
            .map_err(|_| AppError::BadRequest(format!("`{text}` is not a round number"))),
    }
}

pub async fn table(
    State(state): State<AppState>,
    user: MaybeUser,
    headers: HeaderMap,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
    Query(q): Query<TableQuery>,
) -> Result<Response> {
    let after = parse_after(&q)?;
    let all_columns = q.cols.as_deref() == Some("all");
    let (league, season, division, divisions) = resolve_all(&state, league, &p).await?;
    let data = DivisionData::load(state.db(), &season, division.id).await?;
    let (fixtures, scores, entries) = (&data.fixtures, &data.scores, &data.entries);
    let names = data.names();
    let ours: Vec<_> = data
        .deductions
        .iter()
        .filter(|d| names.contains_key(&d.team_id.0))
        .cloned()
        .collect();
    let season_settings = season.rules()?.settings;
    let rules = data.rules.clone();
    let rows = data.rows(after);
    // The lines that decide something: the title, and the places up and
    // down that the roll-over will apply.
    let sizes: Vec<usize> = divisions
        .iter()
        .map(|d| entries.iter().filter(|e| e.division_id == d.id).count())
        .collect();
    let moves = exchanges(&sizes, season_settings.promotion_places);
    let index = divisions
        .iter()
        .position(|d| d.id == division.id)
        .unwrap_or_default();
    let up = index.checked_sub(1).map_or(0, |i| moves[i]);
    let down = moves.get(index).copied().unwrap_or(0);
    let ties: Vec<String> = ties_in(index, &rows, up, down)
        .iter()
        .map(|t| {
            let teams: Vec<&str> = t
                .teams
                .iter()
                .map(|k| names.get(k).copied().unwrap_or("?"))
                .collect();
            if season.is_closed() {
                format!(
                    "{} are level on every rule for {}: listed by name.",
                    and_list(&teams),
                    t.boundary.label()
                )
            } else {
                format!(
                    "{} are level on every rule for {}: a play-off added by a secretary settles it; until then they are listed by name.",
                    and_list(&teams),
                    t.boundary.label()
                )
            }
        })
        .collect();
    let playoff_href = (!season.is_closed() && !ties.is_empty())
        .then(|| links::at(&league).console().season(season.id).end());

    let counts = |round: i64| after.is_none_or(|a| round <= i64::from(a));
    let separations = separations(&rows, &names, &rules);
    let order = order_note(&rules);
    let deductions: Vec<String> = ours
        .iter()
        .filter(|d| d.round.is_none_or(counts))
        .map(|d| {
            let team = names.get(&d.team_id.0).copied().unwrap_or("?");
            let s = if d.amount == 1 { "" } else { "s" };
            let mut text = format!("{team}: {} point{s} deducted, {}", d.amount, d.kind_name);
            if let Some(round) = d.round {
                text.push_str(&format!(" (round {round})"));
            }
            if !d.note.is_empty() {
                text.push_str(&format!(": {}", d.note));
            }
            text
        })
        .collect();
    let pending = fixtures
        .iter()
        .filter(|f| counts(f.round))
        .filter(|f| scores.get(&f.id).is_some_and(|s| s.provisional()))
        .count();
    let mut first_date: BTreeMap<u32, Option<chrono::DateTime<chrono::Utc>>> = BTreeMap::new();
    for f in fixtures {
        let round = u32::try_from(f.round).unwrap_or(0);
        let entry = first_date.entry(round).or_insert(f.starts_at);
        if f.starts_at.is_some() && (entry.is_none() || f.starts_at < *entry) {
            *entry = f.starts_at;
        }
    }
    let rounds = first_date
        .into_iter()
        .map(|(round, date)| RoundChoice {
            round,
            label: match date {
                Some(t) => format!("After round {round} ({})", day(league.time_zone, t)),
                None => format!("After round {round}"),
            },
            selected: after == Some(round),
        })
        .collect();
    let division_at = links::division_at(&league, &season.name, &division.name);
    let href = division_at.to_string();
    let mut query: Vec<String> = after.map(|a| format!("after={a}")).into_iter().collect();
    if !all_columns {
        query.push("cols=all".into());
    }
    let cols_href = if query.is_empty() {
        href.clone()
    } else {
        format!("{href}?{}", query.join("&"))
    };
    let calendar =
        super::CalendarLinks::new(&headers, &links::at(&league).division_calendar(division.id));
    let notes_line = notes_line(&rows, &rules, ties.len(), deductions.len(), pending);
    let page = TablePage {
        notes_line,
        ctx: user.ctx(),
        crumbs: crumbs(&league, &season),
        all_columns,
        cols_href,
        calendar,
        data_href: division_at.data(),
        fixtures_href: division_at.fixtures(),
        after,
        rounds,
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, r)| TableRow {
                position: i + 1,
                // Every row is one of `teams`, so it has a name.
                team: {
                    let name = names.get(&r.team).copied().unwrap_or_default();
                    Link::new(name, team_href(&league, TeamId(r.team), name))
                },
                row: r.clone(),
                form: FormView::new(&data.form(TeamId(r.team), after)),
            })
            .collect(),
        order,
        separations,
        deductions,
        pending,
        ties,
        playoff_href,
        league,
        season,
        division,
    };
    Ok(html(&page))
}

/// How the season orders its table: "Teams are ordered by points; teams
/// level on points are separated by board difference, then ...".
fn order_note(rules: &[TieBreaker]) -> String {
    let labels: Vec<&str> = rules.iter().map(|r| r.label()).collect();
    match labels.split_first() {
        None => "Teams are listed by name.".into(),
        Some((first, [])) => {
            format!("Teams are ordered by {first}; teams level on it are listed by name.")
        }
        Some((first, rest)) => format!(
            "Teams are ordered by {first}; teams level on {first} are separated by {}.",
            rest.join(", then ")
        ),
    }
}

/// For each team placed above the next one while level on the season's
/// first rule (points, as a rule), the rule that separated them.
fn separations(
    rows: &[crate::league::standings::Row],
    names: &HashMap<i64, &str>,
    rules: &[TieBreaker],
) -> Vec<String> {
    let name = |team: i64| names.get(&team).copied().unwrap_or("?");
    let level_on = |rule: TieBreaker| {
        let before = rules.iter().take_while(|r| **r != rule);
        before.map(|r| r.label()).collect::<Vec<_>>().join(", ")
    };
    let mut out = Vec::new();
    // Teams in a row level on every rule make one note, not one a pair (at
    // the start of a season every team is level with the next).
    let mut level: Vec<&str> = Vec::new();
    for pair in rows.windows(2) {
        let (above, below) = (name(pair[0].team), name(pair[1].team));
        if pair[0].separated_by == Some(Separation::Level) {
            if level.is_empty() {
                level.push(above);
            }
            level.push(below);
            continue;
        }
        if !level.is_empty() {
            out.push(level_note(&std::mem::take(&mut level)));
        }
        match pair[0].separated_by {
            Some(Separation::Rule(rule)) if rules.first() != Some(&rule) => out.push(format!(
                "{above} and {below} are level on {}; {above} is placed higher on {}.",
                level_on(rule),
                rule.label()
            )),
            Some(Separation::PlayOff) => out.push(format!(
                "{above} and {below} are level on every rule; {above} is placed higher by winning their play-off."
            )),
            _ => {}
        }
    }
    if !level.is_empty() {
        out.push(level_note(&level));
    }
    out
}

fn level_note(teams: &[&str]) -> String {
    format!(
        "{} are level on every rule and are listed by name.",
        and_list(teams)
    )
}

/// The notes under a table in one line, for their folded heading: what
/// they hold that changes a reading of the table, counted.
fn notes_line(
    rows: &[Row],
    rules: &[TieBreaker],
    ties: usize,
    deductions: usize,
    pending: usize,
) -> String {
    let count = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    };
    let broken = rows
        .iter()
        .filter(|r| match r.separated_by {
            Some(Separation::Rule(rule)) => rules.first() != Some(&rule),
            Some(Separation::PlayOff) => true,
            _ => false,
        })
        .count();
    // Teams level on every rule with the team above or below them.
    let level = (0..rows.len())
        .filter(|&i| {
            let with_next = rows[i].separated_by == Some(Separation::Level);
            let with_above = i > 0 && rows[i - 1].separated_by == Some(Separation::Level);
            with_next || with_above
        })
        .count();
    let parts: Vec<String> = [
        count(ties, "tie to settle", "ties to settle"),
        count(
            level,
            "team level on every rule",
            "teams level on every rule",
        ),
        count(broken, "tie-break", "tie-breaks"),
        count(deductions, "deduction", "deductions"),
        count(pending, "result not counted yet", "results not counted yet"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "how the table is ordered".to_owned()
    } else {
        parts.join(", ")
    }
}

#[derive(Template)]
#[template(path = "public/fixtures.html")]
struct FixturesPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    season: Season,
    division: Division,
    table_href: String,
    rounds: Vec<RoundFixtures>,
    /// The first round with a match still to play, to jump to.
    next_round: Option<i64>,
    teams: Vec<Link>,
}

struct RoundFixtures {
    round: i64,
    caption: String,
    rows: Vec<FixtureView>,
}

pub async fn fixtures(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
) -> Result<Response> {
    let (league, season, division) = resolve(&state, league, &p).await?;
    let db = state.db();
    let format = season.rules()?.format;
    let scope = FixtureScope::Division(division.id);
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = scores_from_boards(&boards, &format);
    let formats = HashMap::from([(season.id, format)]);
    let views = fixture_views(
        &league,
        std::slice::from_ref(&season),
        &formats,
        &lines,
        &scores,
    );
    let mut rounds: Vec<RoundFixtures> = Vec::new();
    for (line, view) in lines.iter().zip(views) {
        match rounds.last_mut() {
            Some(r) if r.round == line.round => r.rows.push(view),
            _ => rounds.push(RoundFixtures {
                round: line.round,
                caption: match (line.playoff, line.starts_at) {
                    (true, Some(t)) => format!(
                        "Play-off (round {}), {}",
                        line.round,
                        day(league.time_zone, t)
                    ),
                    (true, None) => format!("Play-off (round {})", line.round),
                    (false, Some(t)) => {
                        format!("Round {}, {}", line.round, day(league.time_zone, t))
                    }
                    (false, None) => format!("Round {}", line.round),
                },
                rows: vec![view],
            }),
        }
    }
    let mut teams: BTreeMap<(String, i64), Link> = BTreeMap::new();
    for f in &lines {
        for (id, name) in [
            (f.home_team_id, &f.home_name),
            (f.away_team_id, &f.away_name),
        ] {
            teams
                .entry((name.clone(), id.0))
                .or_insert_with(|| Link::new(name.clone(), team_href(&league, id, name)));
        }
    }
    let next_round = lines
        .iter()
        .filter(|f| f.status.is_open() && f.result_status.is_none())
        .map(|f| f.round)
        .min()
        .filter(|round| rounds.first().is_some_and(|r| r.round != *round));
    let page = FixturesPage {
        ctx: user.ctx(),
        crumbs: crumbs(&league, &season),
        next_round,
        table_href: division_href(&league, &season.name, &division.name),
        rounds,
        teams: teams.into_values().collect(),
        league,
        season,
        division,
    };
    Ok(html(&page))
}
