//! Fixtures and results as lists show them: each fixture's state (worded
//! once, in `league::fixture_state`) and score, for a division's fixtures
//! page, a team's, the league's home and their API resources.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use crate::app::formats::line_format;
use crate::db::pages::{FixtureLine, FixtureScope, Score};
use crate::db::{Db, Division, FixtureId, FixtureStatus, Result, Season, SeasonId};
use crate::league::fixture_state::{FixtureState, pending_words};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::{fixture_score, scores_from_boards};

/// A score as lists show it: boards, games and pegs, home first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ScoreView {
    pub boards: [u32; 2],
    pub games: [u32; 2],
    pub pegs: [u32; 2],
    /// Not yet approved: shown, never counted in a table.
    pub provisional: bool,
    /// Where the result stands: `entered`, `confirmed`, `disputed`,
    /// `approved`; absent for a walkover's score.
    pub status: Option<String>,
}

/// One fixture of a list, with its state and score.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FixtureSummary {
    pub id: i64,
    pub season_id: i64,
    /// The division of a league fixture; absent for a cup tie.
    pub division: Option<Ref>,
    /// The cup of a cup tie.
    pub cup: Option<Ref>,
    pub round: i64,
    /// The round as a heading says it: `Round 3`, or a cup's `Final`.
    pub round_name: String,
    /// A play-off between teams level on every rule: never counted.
    pub playoff: bool,
    pub starts_at: Option<DateTime<Utc>>,
    pub home: Ref,
    pub away: Ref,
    /// The sides as shown: the team, or a singles or pairs cup entrant's
    /// players.
    pub home_label: String,
    pub away_label: String,
    pub venue: Option<Ref>,
    /// `to_play`, `postponed`, `played`, `walkover` or `void`.
    pub state: String,
    /// The state in words, the same on every page that shows it.
    pub state_words: String,
    /// Boards, games and pegs; absent when there is no result.
    pub score: Option<ScoreView>,
    /// What a provisional result's badge says; empty otherwise.
    pub badge: String,
}

/// What a fixture's line shows as its score: the walkover's, the current
/// result's, or (a result entered without boards yet) a zero score that
/// still carries its status.
fn shown_score(
    line: &FixtureLine,
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> Option<Score> {
    let score = fixture_score(line, scores, format);
    if score.is_none()
        && line.result_status.is_some()
        && !matches!(line.status, FixtureStatus::Void | FixtureStatus::Walkover)
    {
        return Some(Score {
            boards: [0, 0],
            games: [0, 0],
            pegs: [0, 0],
            status: line.result_status,
        });
    }
    score
}

/// One fixture line's summary under its match format.
pub fn summary(
    line: &FixtureLine,
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> FixtureSummary {
    let score = shown_score(line, scores, format);
    let state: FixtureState = line.state(score.is_some());
    let provisional = score.is_some_and(|s| s.provisional());
    let competition = Ref::new(
        line.cup_id
            .map_or_else(|| line.division_id.map_or(0, |d| d.0), |c| c.0),
        line.competition.clone(),
    );
    FixtureSummary {
        id: line.id.0,
        season_id: line.season_id.0,
        division: line.division_id.map(|_| competition.clone()),
        cup: line.cup_id.map(|_| competition.clone()),
        round: line.round,
        round_name: line.round_title(),
        playoff: line.playoff,
        starts_at: line.starts_at,
        home: Ref::new(line.home_team_id.0, line.home_name.clone()),
        away: Ref::new(line.away_team_id.0, line.away_name.clone()),
        home_label: line.home_label(),
        away_label: line.away_label(),
        venue: line
            .venue_id
            .zip(line.venue_name.clone())
            .map(|(id, name)| Ref::new(id.0, name)),
        state: state.key().to_owned(),
        state_words: line.state_words(score.is_some()),
        score: score.map(|s| ScoreView {
            boards: s.boards,
            games: s.games,
            pegs: s.pegs,
            provisional: s.provisional(),
            status: s.status.map(|st| st.as_str().to_owned()),
        }),
        badge: score
            .and_then(|s| s.status)
            .filter(|_| provisional)
            .map(|s| pending_words(s).to_owned())
            .unwrap_or_default(),
    }
}

/// Lines of possibly several seasons, each under its own format (a line
/// whose season's format is unknown is left out).
pub fn summaries(
    lines: &[FixtureLine],
    scores: &HashMap<FixtureId, Score>,
    formats: &HashMap<SeasonId, MatchFormat>,
) -> Vec<FixtureSummary> {
    lines
        .iter()
        .filter_map(|line| Some(summary(line, scores, line_format(line, formats)?)))
        .collect()
}

/// A division's fixtures and results, by round then date.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DivisionFixtures {
    pub season: Ref,
    pub division: Ref,
    pub fixtures: Vec<FixtureSummary>,
    /// The lines, for the page's grouping by round.
    #[serde(skip)]
    pub lines: Vec<FixtureLine>,
}

pub async fn division(db: &Db, season: &Season, division: &Division) -> Result<DivisionFixtures> {
    let format = season.rules()?.format;
    let scope = FixtureScope::Division(division.id);
    let lines = db.fixture_lines(season.league_id, &scope).await?;
    let boards = db.board_lines(season.league_id, &scope, false).await?;
    let scores = scores_from_boards(&boards, &format);
    let formats = HashMap::from([(season.id, format)]);
    Ok(DivisionFixtures {
        season: Ref::new(season.id.0, season.name.clone()),
        division: Ref::new(division.id.0, division.name.clone()),
        fixtures: summaries(&lines, &scores, &formats),
        lines,
    })
}
