//! Which match format each fixture is played in, and each fixture's score
//! under it: a listing may span seasons and cups, each with its own.

use std::collections::HashMap;

use crate::db::pages::{BoardLine, FixtureLine, Score};
use crate::db::{Db, DbError, Fixture, FixtureId, League, Season, SeasonId};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::scores_from_boards;
use crate::league::season::BadSeason;

/// Every season's match format, read as [`Season::rules`] reads it: a
/// season that cannot be read is refused, not guessed.
pub fn match_formats(seasons: &[Season]) -> Result<HashMap<SeasonId, MatchFormat>, BadSeason> {
    seasons
        .iter()
        .map(|s| Ok((s.id, s.rules()?.format)))
        .collect()
}

/// The ruleset and match format a fixture is played under: its season's
/// ruleset, and its cup's own match format or else its season's.
pub async fn fixture_rules(
    db: &Db,
    league: &League,
    season: &Season,
    fixture: &Fixture,
) -> Result<(crate::rules::Ruleset, MatchFormat), DbError> {
    let rules = fixture_season_rules(db, league, season, fixture).await?;
    Ok((rules.ruleset, rules.format))
}

/// A fixture's season rules with its cup's own match format (if any) as
/// the format: what its result, pads and team sheet are checked against.
pub async fn fixture_season_rules(
    db: &Db,
    league: &League,
    season: &Season,
    fixture: &Fixture,
) -> Result<crate::league::season::SeasonRules, DbError> {
    let rules = season.rules()?;
    let own = match fixture.cup_id {
        Some(cup) => db.cup(league.id, cup).await?.match_format,
        None => None,
    };
    Ok(rules.for_fixture(own))
}

/// The match format a fixture is played in: its cup's own, or its
/// season's (from `formats`, by season).
pub fn line_format<'a>(
    line: &'a FixtureLine,
    formats: &'a HashMap<SeasonId, MatchFormat>,
) -> Option<&'a MatchFormat> {
    line.cup_format
        .as_ref()
        .or_else(|| formats.get(&line.season_id))
}

/// Each fixture's score from its board lines, under its own match format
/// ([`line_format`]).
pub fn scores_by_season(
    lines: &[FixtureLine],
    boards: &[BoardLine],
    formats: &HashMap<SeasonId, MatchFormat>,
) -> HashMap<FixtureId, Score> {
    let line_of: HashMap<FixtureId, &FixtureLine> = lines.iter().map(|f| (f.id, f)).collect();
    let mut by_fixture: HashMap<FixtureId, Vec<BoardLine>> = HashMap::new();
    for b in boards {
        by_fixture.entry(b.fixture_id).or_default().push(b.clone());
    }
    by_fixture
        .into_iter()
        .filter_map(|(id, boards)| {
            let format = line_format(line_of.get(&id)?, formats)?;
            scores_from_boards(&boards, format)
                .remove(&id)
                .map(|s| (id, s))
        })
        .collect()
}
