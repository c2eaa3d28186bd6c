//! A division's table as it stands (or stood after a round): the league
//! core's standings over the division's counted matches and deductions,
//! settled by play-offs. The division page, the season's end and the
//! round-up all take it from here.

use std::collections::HashMap;

use crate::db::pages::{DeductionLine, EntryLine, FixtureLine, Score, deductions};
use crate::db::{DivisionId, FixtureId};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::{match_lines, playoff_lines};
use crate::league::standings::{Row, TieBreaker, settle_by_playoffs, table as standings_table};

/// A division's table after `after` (all rounds: `None`) from the season's
/// (or the division's) fixtures, scores, entries and deductions: the
/// matches counted, then the play-offs settling teams level on every rule.
#[allow(clippy::too_many_arguments)]
pub fn division_rows(
    division: DivisionId,
    fixtures: &[FixtureLine],
    scores: &HashMap<FixtureId, Score>,
    entries: &[EntryLine],
    deduction_lines: &[DeductionLine],
    format: &MatchFormat,
    rules: &[TieBreaker],
    after: Option<u32>,
) -> Vec<Row> {
    let ours: Vec<FixtureLine> = fixtures
        .iter()
        .filter(|f| f.division_id == Some(division))
        .cloned()
        .collect();
    let teams: Vec<(i64, &str)> = entries
        .iter()
        .filter(|e| e.division_id == division)
        .map(|e| (e.team_id.0, e.team_name.as_str()))
        .collect();
    let cut: Vec<DeductionLine> = deduction_lines
        .iter()
        .filter(|d| teams.iter().any(|(t, _)| *t == d.team_id.0))
        .cloned()
        .collect();
    let lines = match_lines(&ours, scores, format);
    let playoffs: Vec<_> = playoff_lines(&ours, scores, format)
        .into_iter()
        .filter(|m| after.is_none_or(|a| m.round <= a))
        .collect();
    let rows = standings_table(&teams, &lines, &deductions(&cut), format, rules, after);
    settle_by_playoffs(rows, &playoffs)
}
