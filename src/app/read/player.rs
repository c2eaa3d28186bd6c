//! A player's statistics season by season (games played and won, league
//! and cup) and their ratings in each format, as the player page and
//! `/api/v1/.../players/{id}` show them.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use super::fixtures::{FixtureSummary, summaries};
use crate::app::formats::{match_formats, scores_by_season};
use crate::app::ratings::LeagueRatings;
use crate::db::pages::{
    FixtureLine, FixtureScope, GameSeat, PenaltyLine, PenaltyScope, PlayerGame, PlayerSeason,
    seats_by_game,
};
use crate::db::people::LinkedPlayer;
use crate::db::{Db, League, Player, PlayerId, Result, SeasonId, TeamId};
use crate::rules::Format;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerSeasonView {
    pub season: Ref,
    pub team: Ref,
    pub division: Ref,
    /// League games played and won (finished games of approved results).
    pub played: i64,
    pub won: i64,
    pub cup_played: i64,
    pub cup_won: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingView {
    /// `fives_and_threes`, `all_fives`...
    pub format: String,
    pub rating: f64,
    /// One standard deviation of what the rating may be off by.
    pub uncertainty: f64,
    pub games: u32,
    /// Fewer rated games than the league asks before a rating stands.
    pub provisional: bool,
    /// 1 for the best rated player of the league in this format.
    pub rank: usize,
    pub of: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerView {
    pub player: Ref,
    /// Seasons registered, newest first.
    pub seasons: Vec<PlayerSeasonView>,
    pub ratings: Vec<RatingView>,
    #[serde(skip)]
    pub record: Option<Player>,
}

/// The player `id` of `league`, rated by `rated` (the league's ratings).
pub async fn player(
    db: &Db,
    league: &League,
    id: PlayerId,
    rated: &LeagueRatings,
) -> Result<PlayerView> {
    let player = db.player(league.id, id).await?;
    let registrations = db.player_seasons(league.id, id).await?;
    let counts: HashMap<_, _> = db
        .player_season_games(league.id, id)
        .await?
        .into_iter()
        .map(|g| ((g.season_id, g.cup), (g.played, g.won)))
        .collect();
    let seasons = registrations
        .iter()
        .map(|r| {
            let (played, won) = counts.get(&(r.season_id, false)).copied().unwrap_or((0, 0));
            let (cup_played, cup_won) = counts.get(&(r.season_id, true)).copied().unwrap_or((0, 0));
            PlayerSeasonView {
                season: Ref::new(r.season_id.0, r.season_name.clone()),
                team: Ref::new(r.team_id.0, r.team_name.clone()),
                division: Ref::new(r.division_id.0, r.division_name.clone()),
                played,
                won,
                cup_played,
                cup_won,
            }
        })
        .collect();
    let ratings = Format::ALL
        .into_iter()
        .filter_map(|format| {
            let now = rated.ratings.current(id, format)?;
            let list = rated.ratings.list(format);
            let rank = list.iter().position(|(p, _)| *p == id)? + 1;
            Some(RatingView {
                format: format.as_str().to_owned(),
                rating: (now.rating * 10.0).round() / 10.0,
                uncertainty: (now.uncertainty * 10.0).round() / 10.0,
                games: now.games,
                provisional: now.provisional(rated.provisional_games),
                rank,
                of: list.len(),
            })
        })
        .collect();
    Ok(PlayerView {
        player: Ref::new(player.id.0, player.name.clone()),
        seasons,
        ratings,
        record: Some(player),
    })
}

/// The league's players by name.
pub async fn players(db: &Db, league: &League) -> Result<Vec<Ref>> {
    let mut all: Vec<Ref> = db
        .players(league.id)
        .await?
        .into_iter()
        .map(|p| Ref::new(p.id.0, p.name))
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(all)
}

/// The player `id` of `league`, for the player page before anything else
/// is read (an address with the wrong name is sent to the right one).
pub async fn record(db: &Db, league: &League, id: PlayerId) -> Result<Player> {
    db.player(league.id, id).await
}

/// Games the player page lists.
pub const RECENT_GAMES: i64 = 20;

/// What the player page shows of `player`, read at once: their seasons and
/// games counted in each, their team's fixtures (for its next match), their
/// latest games with who sat at each board, their penalties, their cup ties
/// and the same person's records in other leagues.
pub struct PlayerPage {
    /// Newest first.
    pub registrations: Vec<PlayerSeason>,
    /// League (`false`) and cup (`true`) games played and won, by season.
    pub counts: HashMap<(SeasonId, bool), (i64, i64)>,
    /// The team of the latest registration and its fixtures that season.
    pub team_fixtures: Option<(TeamId, Vec<FixtureLine>)>,
    pub recent: Vec<PlayerGame>,
    /// Who sat at each of `recent`'s games, by game.
    pub seats: BTreeMap<i64, Vec<GameSeat>>,
    pub penalties: Vec<PenaltyLine>,
    /// The singles and pairs cup ties the player is drawn in, each with
    /// its season's name.
    pub cup_ties: Vec<(String, FixtureSummary)>,
    pub elsewhere: Vec<LinkedPlayer>,
}

pub async fn page(db: &Db, league: &League, player: &Player) -> Result<PlayerPage> {
    let registrations = db.player_seasons(league.id, player.id).await?;
    let team_fixtures = match registrations.first() {
        Some(r) => {
            let scope = FixtureScope::Team {
                season: r.season_id,
                team: r.team_id,
            };
            Some((r.team_id, db.fixture_lines(league.id, &scope).await?))
        }
        None => None,
    };
    let counts = db
        .player_season_games(league.id, player.id)
        .await?
        .into_iter()
        .map(|g| ((g.season_id, g.cup), (g.played, g.won)))
        .collect();
    let recent = db
        .player_recent_games(league.id, player.id, RECENT_GAMES)
        .await?;
    let ids: Vec<i64> = recent.iter().map(|g| g.game_id).collect();
    let seats = seats_by_game(db.game_seats(league.id, &ids).await?);
    let penalties = db
        .penalty_lines(league.id, PenaltyScope::Player(player.id))
        .await?;
    let scope = FixtureScope::Ids(db.player_cup_fixtures(league.id, player.id).await?);
    let ties = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let all_seasons = db.seasons(league.id).await?;
    let formats = match_formats(&all_seasons)?;
    let scores = scores_by_season(&ties, &boards, &formats);
    let names: HashMap<SeasonId, &str> = all_seasons
        .iter()
        .map(|s| (s.id, s.name.as_str()))
        .collect();
    let cup_ties = summaries(&ties, &scores, &formats)
        .into_iter()
        .filter_map(|f| Some(((*names.get(&SeasonId(f.season_id))?).to_owned(), f)))
        .collect();
    let elsewhere = db.linked_players(player.id).await?;
    Ok(PlayerPage {
        registrations,
        counts,
        team_fixtures,
        recent,
        seats,
        penalties,
        cup_ties,
        elsewhere,
    })
}
