//! The leagues, a league's seasons, and a season's divisions (with their
//! teams) and cups: what the league and season pages and their API
//! resources show.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use std::collections::HashMap;

use super::fixtures::{FixtureSummary, summaries as summaries_of};
use super::{Key, Ref, pick};
use crate::app::formats::scores_by_season;
use crate::db::pages::FixtureScope;
use crate::db::{Db, Division, DivisionId, FixtureStatus, League, Result, Season};
use crate::league::cup::EntrantKind;

/// A league as a list names it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeagueSummary {
    pub id: i64,
    /// Unique: the league's addresses are made of it.
    pub short_name: String,
    pub name: String,
    /// IANA time zone where it plays (`Europe/London`).
    pub time_zone: String,
}

impl LeagueSummary {
    pub fn of(league: &League) -> LeagueSummary {
        LeagueSummary {
            id: league.id.0,
            short_name: league.short_name.clone(),
            name: league.name.clone(),
            time_zone: league.time_zone.name().to_owned(),
        }
    }
}

/// A season as a list names it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonSummary {
    pub id: i64,
    pub name: String,
    /// The game played: `fives_and_threes`, `all_fives`, `hands_won`...
    pub format: String,
    /// Over and rolled over: its results are final.
    pub closed: bool,
}

impl SeasonSummary {
    pub fn of(season: &Season) -> SeasonSummary {
        SeasonSummary {
            id: season.id.0,
            name: season.name.clone(),
            format: season.format.as_str().to_owned(),
            closed: season.is_closed(),
        }
    }
}

/// Every league of the installation, by name.
pub async fn leagues(db: &Db) -> Result<Vec<LeagueSummary>> {
    let mut all: Vec<_> = db.leagues().await?.iter().map(LeagueSummary::of).collect();
    all.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(all)
}

/// A league and its seasons, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeagueView {
    pub league: LeagueSummary,
    pub contact: String,
    /// Newest first: the first is the current season.
    pub seasons: Vec<SeasonSummary>,
}

pub async fn league(db: &Db, league: &League) -> Result<LeagueView> {
    let seasons = db.seasons(league.id).await?;
    Ok(LeagueView {
        league: LeagueSummary::of(league),
        contact: league.contact.clone(),
        seasons: seasons.iter().map(SeasonSummary::of).collect(),
    })
}

/// The season `key` names in `league`, with all the league's seasons
/// (newest first).
pub async fn find_season(db: &Db, league: &League, key: Key<'_>) -> Result<(Season, Vec<Season>)> {
    let seasons = db.seasons(league.id).await?;
    let season = pick(&seasons, key, "season", |s: &Season| (s.id.0, &s.name))?;
    Ok((season, seasons))
}

/// The division `key` names in `season`, with the season's divisions in
/// order.
pub async fn find_division(
    db: &Db,
    season: &Season,
    key: Key<'_>,
) -> Result<(Division, Vec<Division>)> {
    let divisions = db.divisions(season.league_id, season.id).await?;
    let division = pick(&divisions, key, "division", |d: &Division| {
        (d.id.0, &d.name)
    })?;
    Ok((division, divisions))
}

/// The division with id `id` in `league`, whatever its season, with its
/// season.
pub async fn division_by_id(db: &Db, league: &League, id: i64) -> Result<(Season, Division)> {
    let division = db.division(league.id, DivisionId(id)).await?;
    let season = db.season(league.id, division.season_id).await?;
    Ok((season, division))
}

/// A division of a season, with its teams by name.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DivisionTeams {
    pub division: Ref,
    pub teams: Vec<Ref>,
}

/// A cup of a season.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CupSummary {
    pub id: i64,
    pub name: String,
    /// What enters it: `teams`, `singles` or `pairs`.
    pub entrants: String,
    #[serde(skip)]
    pub kind: EntrantKind,
}

/// A season: its divisions in order with their teams, and its cups.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonView {
    pub season: SeasonSummary,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub divisions: Vec<DivisionTeams>,
    pub cups: Vec<CupSummary>,
}

pub async fn season(db: &Db, season: &Season) -> Result<SeasonView> {
    let league = season.league_id;
    let divisions = db.divisions(league, season.id).await?;
    let entries = db.entry_lines(league, season.id).await?;
    let cups = db.cups(league, season.id).await?;
    Ok(SeasonView {
        season: SeasonSummary::of(season),
        created_at: season.created_at,
        closed_at: season.closed_at,
        divisions: divisions
            .iter()
            .map(|d| DivisionTeams {
                division: Ref::new(d.id.0, d.name.clone()),
                teams: entries
                    .iter()
                    .filter(|e| e.division_id == d.id)
                    .map(|e| Ref::new(e.team_id.0, e.team_name.clone()))
                    .collect(),
            })
            .collect(),
        cups: cups
            .iter()
            .map(|c| CupSummary {
                id: c.id.0,
                name: c.name.clone(),
                entrants: c.entrants.as_str().to_owned(),
                kind: c.entrants,
            })
            .collect(),
    })
}

/// How many results and fixtures a league's home lists.
pub const HOME_LIST: usize = 8;

/// A league's home: its seasons, and the current season's divisions,
/// latest results and next fixtures.
#[derive(Debug, Clone, Serialize)]
pub struct LeagueHome {
    /// Newest first: the first is the current season.
    pub seasons: Vec<SeasonSummary>,
    pub current: Option<CurrentSeason>,
}

/// The current season as the league's home shows it.
#[derive(Debug, Clone, Serialize)]
pub struct CurrentSeason {
    pub season: SeasonSummary,
    /// In order.
    pub divisions: Vec<Ref>,
    /// The latest results (walkovers too), latest first.
    pub recent: Vec<FixtureSummary>,
    /// The fixtures still to play from `today` on (and those with no
    /// date), soonest first.
    pub next: Vec<FixtureSummary>,
}

/// The home of `league`; `today` is the start of today where it plays.
pub async fn home(db: &Db, league: &League, today: DateTime<Utc>) -> Result<LeagueHome> {
    let seasons = db.seasons(league.id).await?;
    let summaries: Vec<SeasonSummary> = seasons.iter().map(SeasonSummary::of).collect();
    let Some(season) = seasons.first() else {
        return Ok(LeagueHome {
            seasons: summaries,
            current: None,
        });
    };
    let divisions = db
        .divisions(league.id, season.id)
        .await?
        .iter()
        .map(|d| Ref::new(d.id.0, d.name.clone()))
        .collect();
    let lines = db
        .fixture_lines(league.id, &FixtureScope::Season(season.id))
        .await?;
    let mut recent: Vec<_> = lines
        .iter()
        .filter(|f| f.result_status.is_some() || f.status == FixtureStatus::Walkover)
        .filter(|f| f.status != FixtureStatus::Void)
        .collect();
    recent.sort_by_key(|f| std::cmp::Reverse((f.starts_at, f.id)));
    recent.truncate(HOME_LIST);
    let mut next: Vec<_> = lines
        .iter()
        .filter(|f| f.status.is_open())
        .filter(|f| f.result_status.is_none())
        .filter(|f| f.starts_at.is_none_or(|t| t >= today))
        .collect();
    next.sort_by_key(|f| (f.starts_at.is_none(), f.starts_at, f.id));
    next.truncate(HOME_LIST);
    let ids = recent.iter().map(|f| f.id).collect();
    let boards = db
        .board_lines(league.id, &FixtureScope::Ids(ids), false)
        .await?;
    let formats = HashMap::from([(season.id, season.rules()?.format)]);
    let recent: Vec<_> = recent.into_iter().cloned().collect();
    let next: Vec<_> = next.into_iter().cloned().collect();
    let scores = scores_by_season(&recent, &boards, &formats);
    Ok(LeagueHome {
        current: Some(CurrentSeason {
            season: SeasonSummary::of(season),
            divisions,
            recent: summaries_of(&recent, &scores, &formats),
            next: summaries_of(&next, &scores, &formats),
        }),
        seasons: summaries,
    })
}

/// A season's page: the season, all the league's seasons (newest first),
/// and its divisions with their teams and its cups.
pub async fn season_page(
    db: &Db,
    league: &League,
    key: Key<'_>,
) -> Result<(Season, Vec<Season>, SeasonView)> {
    let (found, seasons) = find_season(db, league, key).await?;
    let view = season(db, &found).await?;
    Ok((found, seasons, view))
}

/// The season `season` names in `league` and its division `division`, with
/// the season's divisions in order.
pub async fn find_season_division(
    db: &Db,
    league: &League,
    season: Key<'_>,
    division: Key<'_>,
) -> Result<(Season, Division, Vec<Division>)> {
    let (season, _) = find_season(db, league, season).await?;
    let (division, divisions) = find_division(db, &season, division).await?;
    Ok((season, division, divisions))
}
