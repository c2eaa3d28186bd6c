//! A player's statistics season by season (games played and won, league
//! and cup) and their ratings in each format, as the player page and
//! `/api/v1/.../players/{id}` show them.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use crate::app::ratings::LeagueRatings;
use crate::db::{Db, League, Player, PlayerId, Result};
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
