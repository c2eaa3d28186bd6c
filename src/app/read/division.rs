//! A division's table, as it stands or as it stood after a round: the
//! division page and `/api/v1/.../divisions/{id}` both show this view.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use crate::app::division_table::{DivisionData, KeptDivisions};
use crate::db::{Db, Division, League, Result, Season, TeamId};
use crate::league::rollover::{exchanges, ties_in};
use crate::league::standings::{Row, Separation};

/// A division's table.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableView {
    pub season: Ref,
    pub division: Ref,
    /// The table as it stood after this round; absent: as it stands.
    pub after_round: Option<u32>,
    /// How teams level on what comes before are ordered, first rule first
    /// (`points`, `board_difference`, `boards_won`, `head_to_head`,
    /// `pegs_difference`, `games_difference`).
    pub tie_breakers: Vec<String>,
    /// In table order: approved results and walkovers counted.
    pub rows: Vec<TableRow>,
    /// Points deducted in the rounds shown.
    pub deductions: Vec<DeductionView>,
    /// Results in the rounds shown awaiting approval: not counted yet.
    pub pending: usize,
    /// Teams level on every rule at the title, a promotion or a relegation
    /// place, which a play-off would settle.
    pub ties: Vec<TieView>,
    /// Each round with its first date, for "the table after round N".
    pub rounds: Vec<RoundStart>,
}

/// A team's line of the table.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableRow {
    pub position: usize,
    pub team: Ref,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub boards_for: u32,
    pub boards_against: u32,
    pub board_difference: i64,
    pub games_for: u32,
    pub games_against: u32,
    pub games_difference: i64,
    pub pegs_for: u32,
    pub pegs_against: u32,
    pub pegs_difference: i64,
    /// League points deducted.
    pub deducted: u32,
    /// Points earned less deductions (may be below zero).
    pub points: i64,
    /// The last five results, oldest first: `won`, `drawn`, `lost`.
    pub form: Vec<String>,
    /// What placed this team above the next one though level on the first
    /// rule: a rule's key, `play_off`, or `level` (level on every rule,
    /// listed by name); absent otherwise.
    pub separated_by: Option<String>,
    /// The standings' own row, for the page's notes.
    #[serde(skip)]
    pub standing: Row,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeductionView {
    pub team: Ref,
    pub points: i64,
    /// The kind of penalty (`Late result`...).
    pub kind: String,
    /// The round it counts from; absent: whatever round is shown.
    pub round: Option<i64>,
    pub note: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TieView {
    /// `the title`, `a promotion place` or `a relegation place`.
    pub place: String,
    pub teams: Vec<Ref>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundStart {
    pub round: u32,
    pub first_date: Option<DateTime<Utc>>,
}

/// The table of `division` (one of `divisions`, the season's, in order)
/// after round `after` (`None`: now).
pub async fn table(
    db: &Db,
    kept: &KeptDivisions,
    league: &League,
    season: &Season,
    division: &Division,
    divisions: &[Division],
    after: Option<u32>,
) -> Result<TableView> {
    let data = DivisionData::load_kept(db, kept, league, season, division.id).await?;
    let settings = season.rules()?.settings;
    let names = data.names();
    let name = |team: i64| names.get(&team).copied().unwrap_or_default().to_owned();
    let rows = data.rows(after);
    // The lines that decide something: the title, and the places up and
    // down that the roll-over will apply.
    let sizes: Vec<usize> = divisions
        .iter()
        .map(|d| {
            data.entries
                .iter()
                .filter(|e| e.division_id == d.id)
                .count()
        })
        .collect();
    let moves = exchanges(&sizes, settings.promotion_places);
    let index = divisions
        .iter()
        .position(|d| d.id == division.id)
        .unwrap_or_default();
    let up = index.checked_sub(1).map_or(0, |i| moves[i]);
    let down = moves.get(index).copied().unwrap_or(0);
    let ties = ties_in(index, &rows, up, down)
        .iter()
        .map(|t| TieView {
            place: t.boundary.label().to_owned(),
            teams: t.teams.iter().map(|&k| Ref::new(k, name(k))).collect(),
        })
        .collect();
    let counts = |round: i64| after.is_none_or(|a| round <= i64::from(a));
    let deductions = data
        .deductions
        .iter()
        .filter(|d| names.contains_key(&d.team_id.0))
        .filter(|d| d.round.is_none_or(counts))
        .map(|d| DeductionView {
            team: Ref::new(d.team_id.0, name(d.team_id.0)),
            points: d.amount,
            kind: d.kind_name.clone(),
            round: d.round,
            note: d.note.clone(),
        })
        .collect();
    let pending = data
        .fixtures
        .iter()
        .filter(|f| counts(f.round))
        .filter(|f| data.scores.get(&f.id).is_some_and(|s| s.provisional()))
        .count();
    let mut first: BTreeMap<u32, Option<DateTime<Utc>>> = BTreeMap::new();
    for f in &data.fixtures {
        let round = u32::try_from(f.round).unwrap_or(0);
        let entry = first.entry(round).or_insert(f.starts_at);
        if f.starts_at.is_some() && (entry.is_none() || f.starts_at < *entry) {
            *entry = f.starts_at;
        }
    }
    Ok(TableView {
        season: Ref::new(season.id.0, season.name.clone()),
        division: Ref::new(division.id.0, division.name.clone()),
        after_round: after,
        tie_breakers: data.rules.iter().map(|r| r.key().to_owned()).collect(),
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, r)| TableRow {
                position: i + 1,
                team: Ref::new(r.team, name(r.team)),
                played: r.played,
                won: r.won,
                drawn: r.drawn,
                lost: r.lost,
                boards_for: r.boards_for,
                boards_against: r.boards_against,
                board_difference: r.board_difference(),
                games_for: r.games_for,
                games_against: r.games_against,
                games_difference: r.games_difference(),
                pegs_for: r.pegs_for,
                pegs_against: r.pegs_against,
                pegs_difference: r.pegs_difference(),
                deducted: r.deducted,
                points: r.points,
                form: data
                    .form(TeamId(r.team), after)
                    .iter()
                    .map(|o| o.word().to_owned())
                    .collect(),
                separated_by: r.separated_by.map(|s| match s {
                    Separation::Rule(rule) => rule.key().to_owned(),
                    Separation::Level => "level".to_owned(),
                    Separation::PlayOff => "play_off".to_owned(),
                }),
                standing: r.clone(),
            })
            .collect(),
        deductions,
        pending,
        ties,
        rounds: first
            .into_iter()
            .map(|(round, first_date)| RoundStart { round, first_date })
            .collect(),
    })
}
