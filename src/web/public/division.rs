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

use crate::app::read::{self, Key};
use crate::db::{Division, League, Season, TeamId};
use crate::league::standings::{MatchOutcome, Row, Separation, TieBreaker};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::super::views::words::and_list;
use super::{
    FixtureView, Link, day, division_href, fixture_view, league_href, season_href, team_href,
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
    /// From the view's words (`won`, `drawn`, `lost`), oldest first.
    pub(crate) fn new(words: &[String]) -> FormView {
        let form: Vec<MatchOutcome> = words
            .iter()
            .filter_map(|w| MatchOutcome::from_word(w))
            .collect();
        FormView::of(&form)
    }

    /// From the outcomes themselves, oldest first.
    pub(crate) fn of(form: &[MatchOutcome]) -> FormView {
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
    let (season, division, divisions) = read::league::find_season_division(
        state.db(),
        &league,
        Key::Slug(&p.season),
        Key::Slug(&p.division),
    )
    .await
    .map_err(super::found)?;
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
    let view = read::division::table(
        state.db(),
        state.kept_divisions(),
        &league,
        &season,
        &division,
        &divisions,
        after,
    )
    .await?;
    let names: HashMap<i64, &str> = view
        .rows
        .iter()
        .map(|r| (r.team.id, r.team.name.as_str()))
        .collect();
    let rules: Vec<TieBreaker> = view
        .tie_breakers
        .iter()
        .filter_map(|k| TieBreaker::from_key(k))
        .collect();
    let rows: Vec<Row> = view.rows.iter().map(|r| r.standing.clone()).collect();
    let ties: Vec<String> = view
        .ties
        .iter()
        .map(|t| {
            let teams: Vec<&str> = t.teams.iter().map(|r| r.name.as_str()).collect();
            if season.is_closed() {
                format!(
                    "{} are level on every rule for {}: listed by name.",
                    and_list(&teams),
                    t.place
                )
            } else {
                format!(
                    "{} are level on every rule for {}: a play-off added by a secretary settles it; until then they are listed by name.",
                    and_list(&teams),
                    t.place
                )
            }
        })
        .collect();
    let playoff_href = (!season.is_closed() && !ties.is_empty())
        .then(|| links::at(&league).console().season(season.id).end());

    let separations = separations(&rows, &names, &rules);
    let order = order_note(&rules);
    let deductions: Vec<String> = view
        .deductions
        .iter()
        .map(|d| {
            let s = if d.points == 1 { "" } else { "s" };
            let mut text = format!(
                "{}: {} point{s} deducted, {}",
                d.team.name, d.points, d.kind
            );
            if let Some(round) = d.round {
                text.push_str(&format!(" (round {round})"));
            }
            if !d.note.is_empty() {
                text.push_str(&format!(": {}", d.note));
            }
            text
        })
        .collect();
    let pending = view.pending;
    let rounds = view
        .rounds
        .iter()
        .map(|r| RoundChoice {
            round: r.round,
            label: match r.first_date {
                Some(t) => format!("After round {} ({})", r.round, day(league.time_zone, t)),
                None => format!("After round {}", r.round),
            },
            selected: after == Some(r.round),
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
        rows: view
            .rows
            .iter()
            .map(|r| TableRow {
                position: r.position,
                team: Link::new(
                    r.team.name.clone(),
                    team_href(&league, TeamId(r.team.id), &r.team.name),
                ),
                row: r.standing.clone(),
                form: FormView::new(&r.form),
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
    let data = read::fixtures::division(state.db(), &season, &division).await?;
    let lines = &data.lines;
    let views: Vec<FixtureView> = data
        .fixtures
        .iter()
        .map(|f| fixture_view(&league, &season.name, f))
        .collect();
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
    for f in lines {
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
