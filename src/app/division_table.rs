//! A division's table as it stands (or stood after a round): the league
//! core's standings over the division's counted matches and deductions,
//! settled by play-offs. The division page, the season's end and the
//! round-up all take it from here, and the team page, the charts and the
//! export read a division's records once through [`DivisionData`].

use std::collections::HashMap;
use std::sync::Arc;

use crate::app::by_generation::ByGeneration;
use crate::db::generation::Follows;
use crate::db::pages::{DeductionLine, EntryLine, FixtureLine, FixtureScope, Score, deductions};
use crate::db::{Db, DivisionId, FixtureId, League, LeagueId, Result, Season, TeamId};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::{match_lines, playoff_lines, scores_from_boards};
use crate::league::standings::{
    MatchLine, MatchOutcome, Row, TieBreaker, form, settle_by_playoffs, table as standings_table,
};

/// The matches a team's form shows.
pub const FORM_MATCHES: usize = 5;

/// Everything a division's table is computed from, in four queries: its
/// fixtures and their scores, the season's entries and deductions, and the
/// season's match format and tie-breakers. Tables after any round, form and
/// positions round by round are all computed from this one load.
pub struct DivisionData {
    pub division: DivisionId,
    /// The season as read for this load: a kept load fits a request only
    /// if its season still reads the same (see [`DivisionData::load_kept`]).
    season: Season,
    pub fixtures: Vec<FixtureLine>,
    pub scores: HashMap<FixtureId, Score>,
    pub entries: Vec<EntryLine>,
    pub deductions: Vec<DeductionLine>,
    pub format: MatchFormat,
    pub rules: Vec<TieBreaker>,
    /// The counted matches in the order they were played (by date), for
    /// form.
    played: Vec<MatchLine>,
}

/// Each division's load, kept while its league's records stand (every
/// write to them raises the generation; a tap does not): a table, a team's
/// record of it, read again and again between two results.
pub type KeptDivisions = ByGeneration<(LeagueId, DivisionId), DivisionData>;

impl DivisionData {
    /// [`DivisionData::load`], kept in `kept` under `league`'s records
    /// generation, read first: a write in between leaves what is read
    /// here under the older number. `season` was read before it: a load
    /// from an older record of it is made again.
    pub async fn load_kept(
        db: &Db,
        kept: &KeptDivisions,
        league: &League,
        season: &Season,
        division: DivisionId,
    ) -> Result<Arc<DivisionData>> {
        let generation = db
            .page_generation(Some(&league.short_name), Follows::Records)
            .await?;
        kept.get_or_work_if(
            (league.id, division),
            generation,
            |d| d.season == *season,
            || DivisionData::load(db, season, division),
        )
        .await
    }

    pub async fn load(db: &Db, season: &Season, division: DivisionId) -> Result<DivisionData> {
        let league = season.league_id;
        let format = season.rules()?.format;
        let scope = FixtureScope::Division(division);
        let fixtures = db.fixture_lines(league, &scope).await?;
        let boards = db.board_lines(league, &scope, false).await?;
        let entries = db.entry_lines(league, season.id).await?;
        let deductions = db.deduction_lines(league, season.id).await?;
        let scores = scores_from_boards(&boards, &format);
        let mut by_date = fixtures.clone();
        by_date.sort_by_key(|f| (f.starts_at.is_none(), f.starts_at, f.round, f.id));
        let played = match_lines(&by_date, &scores, &format);
        Ok(DivisionData {
            division,
            season: season.clone(),
            fixtures,
            scores,
            entries,
            deductions,
            rules: season.rules()?.settings.tie_breakers,
            format,
            played,
        })
    }

    /// The table after round `after` (all rounds: `None`).
    pub fn rows(&self, after: Option<u32>) -> Vec<Row> {
        division_rows(
            self.division,
            &self.fixtures,
            &self.scores,
            &self.entries,
            &self.deductions,
            &self.format,
            &self.rules,
            after,
        )
    }

    /// A team's last results up to round `after`, oldest first.
    pub fn form(&self, team: TeamId, after: Option<u32>) -> Vec<MatchOutcome> {
        form(team.0, &self.played, after, FORM_MATCHES)
    }

    /// The division's teams in table order after each round that has a
    /// counted result, from the first to the last such round.
    pub fn positions_by_round(&self) -> Vec<(u32, Vec<i64>)> {
        let Some(last) = self.played.iter().map(|m| m.round).max() else {
            return Vec::new();
        };
        (1..=last)
            .map(|round| {
                let order = self.rows(Some(round)).iter().map(|r| r.team).collect();
                (round, order)
            })
            .collect()
    }

    /// Each team's name, by id.
    pub fn names(&self) -> HashMap<i64, &str> {
        self.entries
            .iter()
            .filter(|e| e.division_id == self.division)
            .map(|e| (e.team_id.0, e.team_name.as_str()))
            .collect()
    }
}

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
