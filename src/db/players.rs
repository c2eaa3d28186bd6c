//! Players and their registration to one team a season.

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::invitations::PlayerInvite;
use super::{Db, DbError, LeagueId, PlayerId, Result, SeasonId, TeamId, now};

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
}

/// Stores a new player of `league`, made at `at`. A name the league uses
/// already is [`DbError::Unique`].
pub(crate) async fn insert_player(
    tx: &mut Tx,
    league: LeagueId,
    name: &str,
    at: DateTime<Utc>,
) -> Result<PlayerId> {
    sql::query_scalar(
        "INSERT INTO players (league_id, name, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(league)
    .bind(name)
    .bind(at)
    .fetch_one(&mut *tx)
    .await
}

/// Registers `player` to `team` for the season from `at`. A second team
/// in the same season is [`DbError::Unique`].
pub(crate) async fn insert_registration(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
    at: DateTime<Utc>,
) -> Result<Registration> {
    sql::query_as::<Registration>(&format!(
        "INSERT INTO registrations (league_id, season_id, team_id, player_id, registered_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING {REGISTRATION_COLUMNS}"
    ))
    .bind(league)
    .bind(season)
    .bind(team)
    .bind(player)
    .bind(at)
    .fetch_one(&mut *tx)
    .await
}
