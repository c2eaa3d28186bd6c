//! A league's rating lists, as its ratings pages show them: one list a
//! rule family (`app::ratings` works them out and keeps them).

use std::sync::Arc;

use crate::app::ratings::{LeagueRatings, RatingCache};
use crate::db::{Db, League, Result};
use crate::rules::Format;

/// The league's ratings and the rule family its ratings page opens on: the
/// first it has ratings in, else its first season's, else Fives and
/// Threes.
pub async fn index(
    db: &Db,
    ratings: &RatingCache,
    league: &League,
) -> Result<(Arc<LeagueRatings>, Format)> {
    let rated = ratings.of(db, league).await?;
    let seasons = db.seasons(league.id).await?;
    let format = rated
        .ratings
        .formats()
        .first()
        .copied()
        .or_else(|| seasons.last().map(|s| s.format))
        .unwrap_or(Format::FivesAndThrees);
    Ok((rated, format))
}
