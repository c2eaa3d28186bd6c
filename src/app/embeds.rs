//! What the widgets for other websites show (`web::embed`), each read in
//! one call: a division's records, a team's season, tonight's matches.
//! The tables, form and scores are the same computations the league's own
//! pages make ([`DivisionData`], `league::match_score`), never copies.

use std::collections::HashMap;
use std::sync::Arc;

use crate::db::pages::{FixtureLine, FixtureScope, Score, TeamInfo};
use crate::db::{Db, Division, DivisionId, FixtureId, League, Result, Season, SeasonId, TeamId};
use crate::league::match_format::MatchFormat;

use super::division_table::{DivisionData, KeptDivisions};
use super::formats::{match_formats, scores_by_season};

/// A division, its season, and everything its table is computed from.
pub struct DivisionWidget {
    pub season: Season,
    pub division: Division,
    /// Kept under the league's generation, as the division's own page's.
    pub data: Arc<DivisionData>,
}

impl DivisionWidget {
    /// The season's match format by season, as fixture listings take it.
    pub fn formats(&self) -> HashMap<SeasonId, MatchFormat> {
        HashMap::from([(self.season.id, self.data.format.clone())])
    }
}

/// The division `id` of `league` (another league's is not found).
pub async fn division(
    db: &Db,
    kept: &KeptDivisions,
    league: &League,
    id: DivisionId,
) -> Result<DivisionWidget> {
    let division = db.division(league.id, id).await?;
    let season = db.season(league.id, division.season_id).await?;
    let data = DivisionData::load_kept(db, kept, league, &season, division.id).await?;
    Ok(DivisionWidget {
        season,
        division,
        data,
    })
}

/// A team and, when it is entered in a season, that season's matches.
pub struct TeamWidget {
    pub team: TeamInfo,
    pub season: Option<TeamSeason>,
}

/// The team's latest season: its division's records (table and form),
/// and its own fixtures there, cup ties too, with their scores.
pub struct TeamSeason {
    pub season: Season,
    pub division: DivisionWidget,
    pub lines: Vec<FixtureLine>,
    pub scores: HashMap<FixtureId, Score>,
    pub formats: HashMap<SeasonId, MatchFormat>,
}

/// The team `id` of `league`, with its latest season's matches.
pub async fn team(
    db: &Db,
    kept: &KeptDivisions,
    league: &League,
    id: TeamId,
) -> Result<TeamWidget> {
    let team = db.team_info(league.id, id).await?;
    let Some(current) = db.team_entry_lines(league.id, id).await?.into_iter().next() else {
        return Ok(TeamWidget { team, season: None });
    };
    let division = division(db, kept, league, current.division_id).await?;
    let season = division.season.clone();
    let formats = match_formats(std::slice::from_ref(&season))?;
    let scope = FixtureScope::Team {
        season: season.id,
        team: id,
    };
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = scores_by_season(&lines, &boards, &formats);
    Ok(TeamWidget {
        team,
        season: Some(TeamSeason {
            season,
            division,
            lines,
            scores,
            formats,
        }),
    })
}

/// Tonight's fixtures in the league, whatever their state, with their
/// scores and the seasons they belong to.
pub struct Tonight {
    pub seasons: Vec<Season>,
    pub formats: HashMap<SeasonId, MatchFormat>,
    pub lines: Vec<FixtureLine>,
    pub scores: HashMap<FixtureId, Score>,
}

/// The fixtures of the league's match night now (`league::live::night`).
pub async fn tonight(db: &Db, league: &League) -> Result<Tonight> {
    let seasons = db.seasons(league.id).await?;
    let (from, to) = crate::league::live::night(league.time_zone, crate::db::now());
    let mut lines = db
        .fixture_lines(league.id, &FixtureScope::Live { from, to })
        .await?;
    // The live scope also takes results of other nights awaiting
    // approval: the widget shows tonight's only.
    lines.retain(|f| f.starts_at.is_some_and(|t| from <= t && t < to));
    lines.sort_by_key(|f| (f.starts_at, f.id));
    let ids = lines.iter().map(|f| f.id).collect();
    let boards = db
        .board_lines(league.id, &FixtureScope::Ids(ids), false)
        .await?;
    let formats = match_formats(&seasons)?;
    let scores = scores_by_season(&lines, &boards, &formats);
    Ok(Tonight {
        seasons,
        formats,
        lines,
        scores,
    })
}

/// What a league can put on its website: its current season's divisions
/// and teams (none before its first season).
pub struct Catalogue {
    pub season: Option<Season>,
    pub divisions: Vec<Division>,
    /// The season's teams, by division then name.
    pub teams: Vec<crate::db::pages::EntryLine>,
}

/// The widgets of `league`'s current season, in three queries.
pub async fn catalogue(db: &Db, league: &League) -> Result<Catalogue> {
    let Some(season) = db.seasons(league.id).await?.into_iter().next() else {
        return Ok(Catalogue {
            season: None,
            divisions: Vec::new(),
            teams: Vec::new(),
        });
    };
    let divisions = db.divisions(league.id, season.id).await?;
    let mut teams = db.entry_lines(league.id, season.id).await?;
    let order: HashMap<DivisionId, usize> = divisions
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id, i))
        .collect();
    teams.sort_by(|a, b| {
        (order.get(&a.division_id), &a.team_name).cmp(&(order.get(&b.division_id), &b.team_name))
    });
    Ok(Catalogue {
        season: Some(season),
        divisions,
        teams,
    })
}
