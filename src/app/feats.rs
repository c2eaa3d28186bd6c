//! The matches whose hands the feats (`league::feats`) are read from, as
//! the feats read them: approved current results of fixtures neither void
//! nor walkovers, each game with the side the home team sat on. The weekly
//! round-up and the season's honours both take them from here.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::db::pages::{FixtureLine, Score};
use crate::db::results::SharedResult;
use crate::db::{FixtureId, FixtureStatus, MatchResult, PlayerId, ResultStatus, SeasonId};
use crate::league::feats::{WeekGame, WeekMatch};
use crate::league::match_format::MatchFormat;

use super::formats::line_format;

/// The fixtures of `lines` whose games the feats count: an approved
/// result, in a match neither void nor a walkover (whose results are not
/// played games).
pub fn counted_fixtures(lines: &[FixtureLine]) -> Vec<FixtureId> {
    lines
        .iter()
        .filter(|f| !matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover))
        .filter(|f| f.result_status == Some(ResultStatus::Approved))
        .map(|f| f.id)
        .collect()
}

/// The current `results` of fixtures of `lines` that are approved, as the
/// feats read them, each under its fixture's match format and with its
/// score; `names` names the players of the results.
pub fn feat_matches<'a>(
    lines: &[FixtureLine],
    results: &'a [SharedResult],
    names: &HashMap<PlayerId, String>,
    scores: &HashMap<FixtureId, Score>,
    formats: &HashMap<SeasonId, MatchFormat>,
) -> Vec<WeekMatch<'a>> {
    let by_id: HashMap<FixtureId, &FixtureLine> = lines.iter().map(|f| (f.id, f)).collect();
    results
        .iter()
        .filter(|r| r.version.status == ResultStatus::Approved)
        .filter_map(|r| {
            let line = by_id.get(&r.version.fixture_id)?;
            let format = line_format(line, formats)?;
            let score = scores.get(&line.id)?;
            Some(week_match(line, &r.result, names, score.boards, format))
        })
        .collect()
}

/// A match's games as the feats read them: each game's record, and which
/// of its sides the home team's players sat on.
fn week_match<'a>(
    line: &FixtureLine,
    result: &'a MatchResult,
    names: &HashMap<PlayerId, String>,
    score: [u32; 2],
    format: &MatchFormat,
) -> WeekMatch<'a> {
    let mut games = Vec::new();
    for (b, board) in result.boards.iter().enumerate() {
        let home: Vec<&str> = board
            .home
            .iter()
            .filter_map(|id| names.get(id).map(String::as_str))
            .collect();
        for (g, game) in board.games.iter().enumerate() {
            let home_side = game
                .record
                .sides
                .iter()
                .position(|side| side.iter().any(|n| home.contains(&n.as_str())))
                .unwrap_or(0);
            games.push(WeekGame {
                board: b + 1,
                number: g + 1,
                record: Cow::Borrowed(&game.record),
                home_side,
                score_only: game.score_only,
            });
        }
    }
    WeekMatch {
        fixture: line.id.0,
        score,
        boards: u32::try_from(format.boards.len()).unwrap_or(u32::MAX),
        games,
    }
}
