//! Players and their registration to one team a season.

use super::sql;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::invitations::{PlayerInvite, insert_player_invites};
use super::transfers::check_squads;
use super::{Db, DbError, LeagueId, PlayerId, Result, SeasonId, TeamId, UserId, now};

/// A person who plays. Names are unique in a league, since game records
/// name players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Player {
    pub id: PlayerId,
    pub league_id: LeagueId,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// A player registered to a team for a season.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Registration {
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    pub team_id: TeamId,
    pub player_id: PlayerId,
    pub registered_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, league_id, name, created_at";
const REGISTRATION_COLUMNS: &str = "league_id, season_id, team_id, player_id, registered_at";

/// What a pasted roster saves: players made, players registered, and the
/// invitations emailed to those who gave an address.
#[derive(Debug, Clone, Copy)]
pub struct RosterChange<'a> {
    pub new_players: &'a [String],
    pub existing: &'a [PlayerId],
    pub invites: &'a [PlayerInvite],
}

impl Db {
    pub async fn create_player(&self, league: LeagueId, name: &str) -> Result<Player> {
        let sql = format!(
            "INSERT INTO players (league_id, name, created_at) VALUES ($1, $2, $3) \
             RETURNING {COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<Player>(&sql)
            .bind(league)
            .bind(name)
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    pub async fn player(&self, league: LeagueId, id: PlayerId) -> Result<Player> {
        let sql = format!("SELECT {COLUMNS} FROM players WHERE league_id = $1 AND id = $2");
        sql::query_as::<Player>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("player {id}")))
    }

    pub async fn players(&self, league: LeagueId) -> Result<Vec<Player>> {
        let sql = format!("SELECT {COLUMNS} FROM players WHERE league_id = $1 ORDER BY name, id");
        sql::query_as::<Player>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }

    pub async fn rename_player(
        &self,
        league: LeagueId,
        id: PlayerId,
        name: &str,
    ) -> Result<Player> {
        let sql = format!(
            "UPDATE players SET name = $3 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<Player>(&sql)
                .bind(league)
                .bind(id)
                .bind(name)
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("player {id}")))
    }

    /// Registers a player to a team entered in the season. A second team in
    /// the same season is refused as [`DbError::Unique`].
    pub async fn register_player(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
        player: PlayerId,
    ) -> Result<Registration> {
        let sql = format!(
            "INSERT INTO registrations (league_id, season_id, team_id, player_id, registered_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING {REGISTRATION_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let made = sql::query_as::<Registration>(&sql)
            .bind(league)
            .bind(season)
            .bind(team)
            .bind(player)
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        check_squads(&mut tx, league, season).await?;
        tx.commit().await?;
        Ok(made)
    }

    /// Every registration of a season.
    pub async fn registrations(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<Registration>> {
        let sql = format!(
            "SELECT {REGISTRATION_COLUMNS} FROM registrations \
             WHERE league_id = $1 AND season_id = $2 ORDER BY team_id, player_id"
        );
        sql::query_as::<Registration>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }

    /// The players registered to a team for a season, by name.
    pub async fn team_players(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
    ) -> Result<Vec<Player>> {
        sql::query_as::<Player>(
            "SELECT p.id, p.league_id, p.name, p.created_at FROM registrations r \
             JOIN players p ON p.id = r.player_id AND p.league_id = r.league_id \
             WHERE r.league_id = $1 AND r.season_id = $2 AND r.team_id = $3 ORDER BY p.name, p.id",
        )
        .bind(league)
        .bind(season)
        .bind(team)
        .fetch_all(self)
        .await
    }

    /// A team's roster pasted in one go: the new players made and, with
    /// the existing ones, registered to the team, all in one transaction.
    /// A name taken or a player registered elsewhere meanwhile refuses the
    /// whole list ([`DbError::Unique`]). Returns how many were registered.
    pub async fn register_roster(
        &self,
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
        let create = "INSERT INTO players (league_id, name, created_at) VALUES ($1, $2, $3) \
                      RETURNING id";
        let register = "INSERT INTO registrations \
                        (league_id, season_id, team_id, player_id, registered_at) \
                        VALUES ($1, $2, $3, $4, $5)";
        let mut tx = self.write(league).await?;
        let out = {
            let at = now();
            let mut ids = existing.to_vec();
            let mut made = Vec::with_capacity(new_players.len());
            for name in new_players {
                let id: PlayerId = sql::query_scalar(create)
                    .bind(league)
                    .bind(name)
                    .bind(at)
                    .fetch_one(&mut tx)
                    .await?;
                ids.push(id);
                made.push((name.clone(), id));
            }
            insert_player_invites(&mut tx, league, invites, &made, by).await?;
            for id in &ids {
                sql::query(register)
                    .bind(league)
                    .bind(season)
                    .bind(team)
                    .bind(*id)
                    .bind(at)
                    .execute(&mut tx)
                    .await?;
            }
            check_squads(&mut tx, league, season).await?;
            ids.len()
        };
        tx.commit().await?;
        Ok(out)
    }

    /// A season's teams and players from a checked file
    /// ([`ImportPlan`](crate::league::import::ImportPlan)): new teams made
    /// and entered, new players made, everyone registered, in one
    /// transaction. A name taken meanwhile refuses the whole file
    /// ([`DbError::Unique`]).
    pub async fn import_rosters(
        &self,
        league: LeagueId,
        season: SeasonId,
        plan: &crate::league::import::ImportPlan,
        invites: &[PlayerInvite],
        by: Option<UserId>,
    ) -> Result<()> {
        let team = "INSERT INTO teams (league_id, name, venue_id) VALUES ($1, $2, $3) RETURNING id";
        let enter = "INSERT INTO team_entries (league_id, season_id, division_id, team_id) \
                     VALUES ($1, $2, $3, $4)";
        let player = "INSERT INTO players (league_id, name, created_at) VALUES ($1, $2, $3) \
                      RETURNING id";
        let register = "INSERT INTO registrations \
                        (league_id, season_id, team_id, player_id, registered_at) \
                        VALUES ($1, $2, $3, $4, $5)";
        let mut tx = self.write(league).await?;
        let at = now();
        let mut made = Vec::new();
        for t in &plan.teams {
            let id: TeamId = match t.id {
                Some(id) => TeamId(id),
                None => {
                    sql::query_scalar(team)
                        .bind(league)
                        .bind(&t.name)
                        .bind(t.venue)
                        .fetch_one(&mut tx)
                        .await?
                }
            };
            if !t.entered {
                sql::query(enter)
                    .bind(league)
                    .bind(season)
                    .bind(t.division)
                    .bind(id)
                    .execute(&mut tx)
                    .await?;
            }
            for p in t.players.iter().filter(|p| !p.registered) {
                let pid: PlayerId = match p.id {
                    Some(id) => PlayerId(id),
                    None => {
                        let id = sql::query_scalar(player)
                            .bind(league)
                            .bind(&p.name)
                            .bind(at)
                            .fetch_one(&mut tx)
                            .await?;
                        made.push((p.name.clone(), id));
                        id
                    }
                };
                sql::query(register)
                    .bind(league)
                    .bind(season)
                    .bind(id)
                    .bind(pid)
                    .bind(at)
                    .execute(&mut tx)
                    .await?;
            }
        }
        insert_player_invites(&mut tx, league, invites, &made, by).await?;
        check_squads(&mut tx, league, season).await?;
        tx.commit().await?;
        Ok(())
    }
}
