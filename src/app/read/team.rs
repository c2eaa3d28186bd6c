//! A team's page: its venue, its current season's division, captains and
//! players, its fixtures and results this season, its record (its row of
//! the division's table: the one win/draw/loss tally), its position round
//! by round, and the penalties against it.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use super::fixtures::{FixtureSummary, summaries};
use crate::app::division_table::{DivisionData, KeptDivisions};
use crate::app::formats::{match_formats, scores_by_season};
use crate::db::pages::{EntryLine, FixtureLine, FixtureScope, PenaltyLine, PenaltyScope, TeamInfo};
use crate::db::{Db, League, Result, TeamId};

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamSummary {
    pub id: i64,
    pub name: String,
    /// Its home venue.
    pub venue: Option<Ref>,
    pub venue_address: Option<String>,
}

/// A season the team was entered in, and its division there.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamSeason {
    pub season: Ref,
    pub division: Ref,
}

/// Approved results and walkovers in its division this season.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Record {
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct Place {
    pub round: u32,
    pub position: usize,
}

#[derive(Serialize, ToSchema)]
pub struct TeamView {
    pub team: TeamSummary,
    /// The latest season it was entered in; absent if never.
    pub current: Option<TeamSeason>,
    /// Every season it was entered in, newest first.
    pub history: Vec<TeamSeason>,
    pub captains: Vec<Ref>,
    pub players: Vec<Ref>,
    /// This season's fixtures and results, league and cup, by date.
    pub fixtures: Vec<FixtureSummary>,
    pub record: Record,
    /// Its position after each round with a counted result.
    pub positions: Vec<Place>,
    /// Teams in its division.
    pub division_size: usize,
    #[serde(skip)]
    pub info: Option<TeamInfo>,
    #[serde(skip)]
    pub lines: Vec<FixtureLine>,
    #[serde(skip)]
    pub penalties: Vec<PenaltyLine>,
}

fn season_of(e: &EntryLine) -> TeamSeason {
    TeamSeason {
        season: Ref::new(e.season_id.0, e.season_name.clone()),
        division: Ref::new(e.division_id.0, e.division_name.clone()),
    }
}

/// The team `id` of `league`.
pub async fn team(db: &Db, kept: &KeptDivisions, league: &League, id: TeamId) -> Result<TeamView> {
    let info = db.team_info(league.id, id).await?;
    let entries = db.team_entry_lines(league.id, id).await?;
    let mut view = TeamView {
        team: TeamSummary {
            id: info.id.0,
            name: info.name.clone(),
            venue: info
                .venue_id
                .zip(info.venue_name.clone())
                .map(|(v, name)| Ref::new(v.0, name)),
            venue_address: info.venue_address.clone(),
        },
        current: entries.first().map(season_of),
        history: entries.iter().map(season_of).collect(),
        captains: Vec::new(),
        players: Vec::new(),
        fixtures: Vec::new(),
        record: Record::default(),
        positions: Vec::new(),
        division_size: 0,
        info: Some(info),
        lines: Vec::new(),
        penalties: Vec::new(),
    };
    let Some(current) = entries.first() else {
        return Ok(view);
    };
    let season_id = current.season_id;
    let to_ref = |p: crate::db::Player| Ref::new(p.id.0, p.name);
    view.captains = db
        .captains(league.id, season_id, id)
        .await?
        .into_iter()
        .map(to_ref)
        .collect();
    view.players = db
        .team_players(league.id, season_id, id)
        .await?
        .into_iter()
        .map(to_ref)
        .collect();
    let seasons = db.seasons(league.id).await?;
    let formats = match_formats(&seasons)?;
    let scope = FixtureScope::Team {
        season: season_id,
        team: id,
    };
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = scores_by_season(&lines, &boards, &formats);
    view.fixtures = summaries(&lines, &scores, &formats);
    view.lines = lines;
    view.penalties = db
        .penalty_lines(
            league.id,
            PenaltyScope::Team {
                season: season_id,
                team: id,
            },
        )
        .await?;
    if let Some(season) = seasons.iter().find(|s| s.id == season_id) {
        let data = DivisionData::load_kept(db, kept, league, season, current.division_id).await?;
        // The record is its row of the division's table: the one tally.
        if let Some(row) = data.rows(None).into_iter().find(|r| r.team == id.0) {
            view.record = Record {
                played: row.played,
                won: row.won,
                drawn: row.drawn,
                lost: row.lost,
            };
        }
        let rounds = data.positions_by_round();
        view.division_size = data.names().len();
        let at: HashMap<u32, usize> = rounds
            .iter()
            .filter_map(|(round, order)| Some((*round, order.iter().position(|t| *t == id.0)? + 1)))
            .collect();
        let mut positions: Vec<Place> = at
            .into_iter()
            .map(|(round, position)| Place { round, position })
            .collect();
        positions.sort_by_key(|p| p.round);
        view.positions = positions;
    }
    Ok(view)
}

/// The league's teams by name.
pub async fn teams(db: &Db, league: &League) -> Result<Vec<Ref>> {
    let mut all: Vec<Ref> = db
        .teams(league.id)
        .await?
        .into_iter()
        .map(|t| Ref::new(t.id.0, t.name))
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(all)
}

/// `player`'s answer to "can you play?" for `fixture`, if they gave one:
/// what their answer box on the team's page marks.
pub async fn answer(
    db: &Db,
    league: &League,
    fixture: crate::db::FixtureId,
    player: crate::db::PlayerId,
) -> Result<Option<crate::league::team_sheet::Answer>> {
    db.answer(league.id, fixture, player).await
}
