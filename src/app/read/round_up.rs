//! The weekly round-up a league sends to the local paper and its social
//! page: a week's results by division and cup (Monday to Sunday in the
//! league's zone), the table leaders after them, and the feats of the
//! week's hands (`league::feats`); what the round-up page, its plain text
//! and its email show.
//!
//! Queries, whatever the size of the week: the league's seasons, the
//! week's fixtures and their boards, their current results (ten, all at
//! once), the weeks either side with results, and per season in the week
//! (one, rarely two) its fixtures, boards, entries and deductions for the
//! tables.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use crate::app::by_generation::ByGeneration;
use crate::app::division_table::division_rows;
use crate::app::feats::{counted_fixtures, feat_matches};
use crate::app::formats::scores_by_season;
use crate::db::generation::Follows;
use crate::db::pages::{FixtureLine, FixtureScope, Score};
use crate::db::results::KeptResults;
use crate::db::{CupId, Db, FixtureId, FixtureStatus, League, LeagueId, Result, Season, SeasonId};
use crate::league::feats::{Feats, GameFeat, feats};
use crate::league::fixture_state::pending_words;
use crate::league::match_format::MatchFormat;
use crate::league::match_score::scores_from_boards;

/// Each league's latest week with a result, by the Monday of the week it
/// was asked in.
pub type KeptLatestWeek = ByGeneration<(LeagueId, NaiveDate), NaiveDate>;

/// Each week's round-up, by its Monday.
pub type KeptRoundUps = ByGeneration<(LeagueId, NaiveDate), RoundUpView>;

/// A week's round-up.
#[derive(Debug, Clone, Serialize)]
pub struct RoundUpView {
    /// `Mon 12 Oct 2026 to Sun 18 Oct 2026`.
    pub week: String,
    /// Each division, then each cup, with a fixture that week.
    pub divisions: Vec<CompetitionWeek>,
    pub feats: Vec<FeatGroup>,
    /// A result of the latest week before, and of the first week after.
    pub earlier: Option<DateTime<Utc>>,
    pub later: Option<DateTime<Utc>>,
    /// The minute it was worked out in while its week is not over (0
    /// after): kept for that minute only.
    #[serde(skip)]
    pub minute: i64,
}

impl RoundUpView {
    /// Whether any match was played or due that week.
    pub fn has_matches(&self) -> bool {
        !self.divisions.is_empty()
    }
}

/// A division's (or a cup's) week.
#[derive(Debug, Clone, Serialize)]
pub struct CompetitionWeek {
    pub name: String,
    /// Its season's name.
    pub season: String,
    /// The cup's id, for a cup.
    pub cup_id: Option<i64>,
    pub results: Vec<ResultLine>,
    /// `Plough A, 40 points from 7 matches`, as the table stood after the
    /// week's last round (none for a cup).
    pub leaders: Vec<String>,
}

/// One result line: `Plough A 6–3 Star`, with its match and a note.
#[derive(Debug, Clone, Serialize)]
pub struct ResultLine {
    pub text: String,
    pub fixture_id: i64,
    /// `provisional: ...`, `walkover`, `postponed`: empty for an approved
    /// result.
    pub note: String,
}

/// A kind of feat and its lines.
#[derive(Debug, Clone, Serialize)]
pub struct FeatGroup {
    pub title: String,
    pub lines: Vec<String>,
}

/// The Monday of the latest week with a result up to the week of `today`
/// (that week when there is none): kept while the league's records stand.
pub async fn latest_week(
    db: &Db,
    kept: &KeptLatestWeek,
    league: &League,
    today: NaiveDate,
) -> Result<NaiveDate> {
    let zone = league.time_zone;
    let (this_week, _, end) = zone.week(today);
    let generation = db
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    let monday = kept
        .get_or_work((league.id, this_week), generation, || async {
            let (latest, _) = db.result_dates_around(league.id, end, end).await?;
            Ok::<_, crate::db::DbError>(
                latest.map_or(this_week, |t| zone.week(zone.local(t).date()).0),
            )
        })
        .await?;
    Ok(*monday)
}

/// The round-up of the week starting `monday` in `league`'s zone: kept
/// while the league's records stand (it reads every hand of the week's
/// matches, tens of milliseconds on a big league), and, for a week not
/// over, within `minute` only (a match still to play is said to be so
/// until its kick-off); `minute` is 0 for a week that is over.
pub async fn round_up(
    db: &Db,
    kept: &KeptRoundUps,
    results: &KeptResults,
    league: &League,
    monday: NaiveDate,
    minute: i64,
) -> Result<Arc<RoundUpView>> {
    let generation = db
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    kept.get_or_work_if(
        (league.id, monday),
        generation,
        |k| k.minute == minute,
        || async move {
            let mut week = work_out(db, results, league, monday).await?;
            week.minute = minute;
            Ok(week)
        },
    )
    .await
}

async fn work_out(
    db: &Db,
    kept: &KeptResults,
    league: &League,
    monday: NaiveDate,
) -> Result<RoundUpView> {
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
    let (results, names) = db.current_results_kept(kept, league.id, &approved).await?;
    let found = feats(&feat_matches(&lines, &results, &names, &scores, &formats));
    let (earlier, later) = db.result_dates_around(league.id, from, to).await?;

    let mut divisions = division_weeks(db, league, &seasons, &lines, &scores).await?;
    divisions.extend(cup_weeks(league, &seasons, &formats, &lines, &scores));
    let feat_groups = feat_groups(&found, &lines);
    let sunday = monday + chrono::Days::new(6);
    let week = format!(
        "{} to {}",
        monday.format("%a %-d %b %Y"),
        sunday.format("%a %-d %b %Y")
    );
    Ok(RoundUpView {
        week,
        divisions,
        feats: feat_groups,
        earlier,
        later,
        minute: 0,
    })
}

/// Each division with a fixture this week: its results and its leaders
/// after the week's last round, from one load a season.
async fn division_weeks(
    db: &Db,
    league: &League,
    seasons: &[Season],
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, Score>,
) -> Result<Vec<CompetitionWeek>> {
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
            out.push(CompetitionWeek {
                name: d.name.clone(),
                season: season.name.clone(),
                cup_id: None,
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
    formats: &HashMap<SeasonId, MatchFormat>,
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, Score>,
) -> Vec<CompetitionWeek> {
    let mut cups: Vec<(CupId, Vec<&FixtureLine>)> = Vec::new();
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
            Some(CompetitionWeek {
                name: first.competition.clone(),
                season: season.name.clone(),
                cup_id: first.cup_id.map(|c| c.0),
                results,
                leaders: Vec::new(),
            })
        })
        .collect()
}

fn result_line(
    league: &League,
    f: &FixtureLine,
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> ResultLine {
    let score = crate::league::match_score::fixture_score(f, scores, format);
    let scored = |s: &Score| {
        format!(
            "{} {}–{} {}",
            f.home_label(),
            s.boards[0],
            s.boards[1],
            f.away_label()
        )
    };
    let (text, note) = match (f.status, score) {
        (FixtureStatus::Walkover, Some(s)) => (scored(&s), f.state_words(true)),
        (_, Some(s)) => (
            scored(&s),
            if s.provisional() {
                s.status
                    .map(|st| pending_words(st).to_owned())
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
                // The day as pages say it (`web::dates::day`).
                Some(t) if t > Utc::now() => format!(
                    "to play, {}",
                    league.time_zone.local(t).format("%a %-d %b %Y")
                ),
                _ => "no result yet".to_owned(),
            },
        ),
    };
    ResultLine {
        text,
        fixture_id: f.id.0,
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
