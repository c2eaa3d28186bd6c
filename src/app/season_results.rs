//! A season's results as data: every fixture with its current result
//! (boards, players by name, games hand by hand), read in a fixed number
//! of queries however long the season. The season's `results.json`
//! serialises it, each result in the published match-result shape.

use std::collections::HashMap;

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::results::StoredResult;
use crate::db::{Db, FixtureId, League, PlayerId, Result, Season, SeasonId};

pub struct SeasonResults {
    pub season: Season,
    /// League fixtures and cup ties, by round and date.
    pub fixtures: Vec<FixtureLine>,
    /// Each fixture's current result, where it has one.
    pub results: HashMap<FixtureId, StoredResult>,
    /// The name of every player in those results.
    pub names: HashMap<PlayerId, String>,
}

/// The season `id` of `league` with its results.
pub async fn load(db: &Db, league: &League, id: SeasonId) -> Result<SeasonResults> {
    let season = db.season(league.id, id).await?;
    let fixtures = db
        .fixture_lines(league.id, &FixtureScope::Season(season.id))
        .await?;
    let ids: Vec<FixtureId> = fixtures.iter().map(|f| f.id).collect();
    let (results, names) = db.current_results(league.id, &ids).await?;
    Ok(SeasonResults {
        season,
        fixtures,
        results: results
            .into_iter()
            .map(|r| (r.version.fixture_id, r))
            .collect(),
        names,
    })
}
