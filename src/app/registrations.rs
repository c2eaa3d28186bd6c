//! Registering players to teams for a season: one at a time or a pasted
//! roster (a season's file is `app::setup`). Each is one transaction that registers,
//! then holds every squad to the season's limit
//! ([`check_squads`]) before the commit, so a refused list saves nothing.

use crate::app::transfers::check_squads;
use crate::db::invitations::insert_player_invites;
use crate::db::players::{Registration, RosterChange, insert_player, insert_registration};
use crate::db::{Db, LeagueId, PlayerId, Result, SeasonId, TeamId, UserId, now};

/// Registers a player to a team entered in the season. A second team in
/// the same season is refused as [`DbError::Unique`](crate::db::DbError).
pub async fn register_player(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
) -> Result<Registration> {
    let mut tx = db.write(league).await?;
    let made = insert_registration(&mut tx, league, season, team, player, now()).await?;
    check_squads(&mut tx, league, season).await?;
    tx.commit().await?;
    Ok(made)
}

/// A team's roster pasted in one go: the new players made and, with
/// the existing ones, registered to the team, all in one transaction.
/// A name taken or a player registered elsewhere meanwhile refuses the
/// whole list ([`DbError::Unique`](crate::db::DbError)). Returns how many
/// were registered.
pub async fn register_roster(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    change: &RosterChange<'_>,
    by: Option<UserId>,
) -> Result<usize> {
    let RosterChange {
        new_players,
        existing,
        invites,
    } = *change;
    let mut tx = db.write(league).await?;
    let at = now();
    let mut ids = existing.to_vec();
    let mut made = Vec::with_capacity(new_players.len());
    for name in new_players {
        let id = insert_player(&mut tx, league, name, at).await?;
        ids.push(id);
        made.push((name.clone(), id));
    }
    insert_player_invites(&mut tx, league, invites, &made, by).await?;
    for id in &ids {
        insert_registration(&mut tx, league, season, team, *id, at).await?;
    }
    check_squads(&mut tx, league, season).await?;
    tx.commit().await?;
    Ok(ids.len())
}
