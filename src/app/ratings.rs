//! A league's ratings (issue 27), worked out once per change of its
//! records: every page that shows a rating (the player's page, the player
//! table, the rating lists, the match page's chances) reads them from here.
//! They are a pure function of the league's counted games, so they are
//! kept in memory under the league's page generation (which every write
//! to its records raises, on every app server) and replayed from the
//! first game when it moves: a correction or a restore changes them from
//! the game it changed, and an approval in any order gives the same.
//!
//! A person linked across leagues is rated over the games of every league
//! their records join (its pool), so a write in one league of a pool
//! raises the others' generations too (`generation::RAISE_LINKED`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::app::by_generation::ByGeneration;
use crate::db::generation::Follows;
use crate::db::ratings::{KeptGames, RatedPlayer};
use crate::db::{Db, DbError, League, LeagueId, PlayerId};
use crate::league::ratings::{RatedGame, Rating, Ratings, pool, rate_people};
use crate::rules::Format;

/// A league's ratings, with its setting for provisional ones.
#[derive(Debug, Clone, Default)]
pub struct LeagueRatings {
    pub ratings: Arc<Ratings>,
    /// Games before a rating is established.
    pub provisional_games: u32,
    /// The league's players as the lists name them (with their latest
    /// team), read with the games they are rated from.
    pub players: HashMap<PlayerId, RatedPlayer>,
    /// The games rated, when the league's pool is the league alone: a
    /// change that leaves them as they were is not replayed.
    games: Option<Vec<RatedGame>>,
}

impl LeagueRatings {
    /// The league's players rated in `format`, best first.
    pub fn ranked(&self, format: Format) -> Vec<(&RatedPlayer, Rating)> {
        self.ratings
            .list(format)
            .into_iter()
            .filter_map(|(p, r)| Some((self.players.get(&p)?, r)))
            .collect()
    }
}

/// A line of the installation's list.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub rating: Rating,
    pub player: RatedPlayer,
    pub league: League,
    /// The league's games before a rating is established.
    pub provisional_games: u32,
}

/// The installation's list of one rule family: its top lines, and how many
/// are rated in all.
#[derive(Debug, Clone, Default)]
pub struct InstallationRatings {
    pub lines: Vec<Ranked>,
    pub rated: usize,
}

/// The ratings of each league, and the installation's lists, kept under
/// the generation they were worked out at. After a change the requests
/// that find them stale wait for one replay, not one each.
#[derive(Default)]
pub struct RatingCache {
    kept: ByGeneration<LeagueId, LeagueRatings>,
    installation: ByGeneration<Format, InstallationRatings>,
    /// The games of each counted result, read once.
    games: KeptGames,
}

impl RatingCache {
    /// The ratings of `league` now: kept ones while its records have not
    /// changed, else replayed from its games.
    pub async fn of(&self, db: &Db, league: &League) -> Result<Arc<LeagueRatings>, DbError> {
        // Read before the games: a write in between leaves the kept copy
        // under the older number, so it is replayed again next time.
        let generation = db
            .page_generation(Some(&league.short_name), Follows::Records)
            .await?;
        self.of_at(db, league, generation).await
    }

    /// [`RatingCache::of`], the league's records generation read already
    /// (before anything else the caller reads).
    pub async fn of_at(
        &self,
        db: &Db,
        league: &League,
        generation: i64,
    ) -> Result<Arc<LeagueRatings>, DbError> {
        let provisional_games = u32::try_from(league.provisional_games).unwrap_or(10);
        self.kept
            .get_or_work_if(
                league.id,
                generation,
                |kept| kept.provisional_games == provisional_games,
                || self.replay(db, league, provisional_games),
            )
            .await
    }

    /// The installation's list of `format`: every league's players on the
    /// one scale, best first, a person linked across leagues once (as
    /// their record in the first league), its top `most` lines. Kept while
    /// no league's records change; worked out from each league's kept
    /// ratings when one does.
    pub async fn installation(
        &self,
        db: &Db,
        format: Format,
        most: usize,
    ) -> Result<Arc<InstallationRatings>, DbError> {
        let generations = db.record_generations().await?;
        self.installation
            .get_or_work(format, generations.all, || async {
                let mut all = Vec::new();
                for league in db.leagues().await? {
                    let rated = self.of_at(db, &league, generations.of(league.id)).await?;
                    all.extend(rated.ranked(format).into_iter().map(|(p, r)| Ranked {
                        rating: r,
                        player: p.clone(),
                        league: league.clone(),
                        provisional_games: rated.provisional_games,
                    }));
                }
                all.sort_by(|a, b| {
                    b.rating
                        .rating
                        .total_cmp(&a.rating.rating)
                        .then(a.rating.uncertainty.total_cmp(&b.rating.uncertainty))
                        .then(a.league.id.cmp(&b.league.id))
                        .then(a.player.id.cmp(&b.player.id))
                });
                let mut seen = HashSet::new();
                all.retain(|r| r.player.person_id.is_none_or(|person| seen.insert(person)));
                let rated = all.len();
                all.truncate(most);
                Ok(InstallationRatings { lines: all, rated })
            })
            .await
    }

    /// A league's ratings from the games of its pool: replayed, unless its
    /// games are those the kept ratings were replayed from (a change that
    /// touched no counted game: a fixture moved, a penalty, a name).
    async fn replay(
        &self,
        db: &Db,
        league: &League,
        provisional_games: u32,
    ) -> Result<LeagueRatings, DbError> {
        let linked: Vec<_> = db
            .person_records()
            .await?
            .into_iter()
            .map(|r| (r.person_id, r.player_id, r.league_id))
            .collect();
        let (leagues, same) = pool(league.id, &linked);
        let games = db.rated_games_kept(&self.games, &leagues).await?;
        let players: HashMap<PlayerId, RatedPlayer> = db
            .rated_players(Some(league.id))
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        if leagues.len() > 1 {
            let mut ratings = rate_people(&games, &same);
            // The league's own players: its lists rank them alone.
            ratings.retain_players(|p| players.contains_key(&p));
            return Ok(LeagueRatings {
                ratings: Arc::new(ratings),
                provisional_games,
                players,
                games: None,
            });
        }
        let ratings = match self.kept.latest(&league.id) {
            Some(kept) if kept.games.as_ref() == Some(&games) => kept.ratings.clone(),
            _ => Arc::new(rate_people(&games, &same)),
        };
        Ok(LeagueRatings {
            ratings,
            provisional_games,
            players,
            games: Some(games),
        })
    }
}

/// A board's chance of each side winning a game, from the ratings.
pub struct BoardChance {
    pub board: i64,
    pub home: String,
    pub away: String,
    /// Whole percent, home first; they add up to 100.
    pub percent: [u32; 2],
}

/// The chances of the boards whose pads name their players: each side's
/// ratings now in the season's rule family (a player not rated yet counts
/// as a new one), by the rating's own model.
pub fn board_chances(
    pads: &[crate::db::pad::PadBoard],
    ratings: &crate::league::ratings::Ratings,
    format: crate::rules::Format,
    roster: &HashMap<crate::db::PlayerId, String>,
) -> Vec<BoardChance> {
    use crate::league::pad::Tap;
    use crate::league::ratings::{Rating, win_chance};
    pads.iter()
        .filter_map(|pad| {
            let (home, away) = pad.taps.iter().rev().find_map(|t| match t {
                Tap::Players { home, away } => Some((home.clone(), away.clone())),
                _ => None,
            })?;
            if home.is_empty() || away.is_empty() {
                return None;
            }
            let side = |ids: &[i64]| -> (Vec<Rating>, String) {
                let ratings = ids
                    .iter()
                    .map(|id| {
                        ratings
                            .current(crate::db::PlayerId(*id), format)
                            .unwrap_or_default()
                    })
                    .collect();
                let names = ids
                    .iter()
                    .map(|id| {
                        roster
                            .get(&crate::db::PlayerId(*id))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .collect::<Vec<_>>()
                    .join(" & ");
                (ratings, names)
            };
            let ((h, home), (a, away)) = (side(&home), side(&away));
            let p = (win_chance(&h, &a) * 100.0).round().clamp(0.0, 100.0) as u32;
            Some(BoardChance {
                board: pad.board,
                home,
                away,
                percent: [p, 100 - p],
            })
        })
        .collect()
}
