//! Teams, their entry in a season's division, and their captains.

use super::sql::{self, Tx};
use serde::{Deserialize, Serialize};

use super::audit::{NewAudit, insert_audit};
use super::invitations::NewInvitation;
use super::users::{ROLE_COLUMNS, Role};
use super::{
    Db, DbError, DivisionId, LeagueId, Player, PlayerId, Result, SeasonId, TeamId, UserId, VenueId,
    now,
};

/// The account named with a captain.
#[derive(Debug, Clone, Copy)]
pub enum CaptainAccount<'a> {
    None,
    /// This account gets the captain's role.
    Existing(UserId),
    /// No account yet: this invitation's link makes one, with the role.
    Invite(&'a NewInvitation),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Team {
    pub id: TeamId,
    pub league_id: LeagueId,
    pub name: String,
    /// Home venue.
    pub venue_id: Option<VenueId>,
}

/// A team entered in one division of a season.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct TeamEntry {
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    pub division_id: DivisionId,
    pub team_id: TeamId,
}

const COLUMNS: &str = "id, league_id, name, venue_id";
const ENTRY_COLUMNS: &str = "league_id, season_id, division_id, team_id";

impl Db {
    pub async fn create_team(
        &self,
        league: LeagueId,
        name: &str,
        venue: Option<VenueId>,
    ) -> Result<Team> {
        let sql = format!(
            "INSERT INTO teams (league_id, name, venue_id) VALUES ($1, $2, $3) RETURNING {COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<Team>(&sql)
            .bind(league)
            .bind(name)
            .bind(venue)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    pub async fn team(&self, league: LeagueId, id: TeamId) -> Result<Team> {
        let sql = format!("SELECT {COLUMNS} FROM teams WHERE league_id = $1 AND id = $2");
        sql::query_as::<Team>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("team {id}")))
    }

    /// The names of a match's two teams, home first, in one query (every
    /// pad tap and result page names its sides).
    pub async fn team_names(
        &self,
        league: LeagueId,
        home: TeamId,
        away: TeamId,
    ) -> Result<[String; 2]> {
        let rows: Vec<(TeamId, String)> =
            sql::query_as("SELECT id, name FROM teams WHERE league_id = $1 AND id IN ($2, $3)")
                .bind(league)
                .bind(home)
                .bind(away)
                .fetch_all(self)
                .await?;
        let name = |id: TeamId| {
            rows.iter()
                .find(|(t, _)| *t == id)
                .map(|(_, n)| n.clone())
                .ok_or_else(|| DbError::not_found(format!("team {id}")))
        };
        Ok([name(home)?, name(away)?])
    }

    pub async fn teams(&self, league: LeagueId) -> Result<Vec<Team>> {
        let sql = format!("SELECT {COLUMNS} FROM teams WHERE league_id = $1 ORDER BY name, id");
        sql::query_as::<Team>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }

    pub async fn update_team(
        &self,
        league: LeagueId,
        id: TeamId,
        name: &str,
        venue: Option<VenueId>,
    ) -> Result<Team> {
        let sql = format!(
            "UPDATE teams SET name = $3, venue_id = $4 WHERE league_id = $1 AND id = $2 \
             RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<Team>(&sql)
                .bind(league)
                .bind(id)
                .bind(name)
                .bind(venue)
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("team {id}")))
    }

    /// Enters a team in a division for the season (one division a season).
    pub async fn enter_team(
        &self,
        league: LeagueId,
        season: SeasonId,
        division: DivisionId,
        team: TeamId,
    ) -> Result<TeamEntry> {
        let sql = format!(
            "INSERT INTO team_entries (league_id, season_id, division_id, team_id) \
             VALUES ($1, $2, $3, $4) RETURNING {ENTRY_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<TeamEntry>(&sql)
            .bind(league)
            .bind(season)
            .bind(division)
            .bind(team)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    /// The teams entered in a season, by division.
    pub async fn team_entries(&self, league: LeagueId, season: SeasonId) -> Result<Vec<TeamEntry>> {
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM team_entries WHERE league_id = $1 AND season_id = $2 \
             ORDER BY division_id, team_id"
        );
        sql::query_as::<TeamEntry>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }

    /// Every captain of the season: team and player, by id.
    pub async fn season_captain_ids(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<(TeamId, PlayerId)>> {
        sql::query_as(
            "SELECT team_id, player_id FROM team_captains \
             WHERE league_id = $1 AND season_id = $2 ORDER BY team_id, player_id",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await
    }

    /// The team's captains this season.
    pub async fn captains(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
    ) -> Result<Vec<Player>> {
        sql::query_as::<Player>(
            "SELECT p.id, p.league_id, p.name, p.created_at FROM team_captains c \
             JOIN players p ON p.id = c.player_id AND p.league_id = c.league_id \
             WHERE c.league_id = $1 AND c.season_id = $2 AND c.team_id = $3 ORDER BY p.name",
        )
        .bind(league)
        .bind(season)
        .bind(team)
        .fetch_all(self)
        .await
    }
}

impl Db {
    /// Takes a player off the team's captains for the season (they stay
    /// registered), and with it every right naming them gave: the account
    /// named with them loses its captain's role for the team that season,
    /// unless it is named with the team's other captain too. One
    /// transaction, so no moment has the captain gone and the role kept.
    /// Not a captain: [`DbError::NotFound`].
    pub async fn remove_captain(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
        player: PlayerId,
        by: Option<UserId>,
    ) -> Result<()> {
        let roles = format!(
            "SELECT {ROLE_COLUMNS} FROM roles WHERE kind = 'captain' \
             AND user_id = $1 AND league_id = $2 AND season_id = $3 AND team_id = $4"
        );
        let mut tx = self.write(league).await?;
        let removed: Option<(Option<UserId>,)> = sql::query_as(
            "DELETE FROM team_captains \
             WHERE league_id = $1 AND season_id = $2 AND team_id = $3 AND player_id = $4 \
             RETURNING user_id",
        )
        .bind(league)
        .bind(season)
        .bind(team)
        .bind(player)
        .fetch_optional(&mut tx)
        .await?;
        let Some((account,)) = removed else {
            return Err(DbError::not_found(format!(
                "captain {player} of team {team} in season {season}"
            )));
        };
        if let Some(user) = account {
            let still_named: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM team_captains \
                 WHERE league_id = $1 AND season_id = $2 AND team_id = $3 AND user_id = $4",
            )
            .bind(league)
            .bind(season)
            .bind(team)
            .bind(user)
            .fetch_one(&mut tx)
            .await?;
            if still_named == 0 {
                let held: Vec<Role> = sql::query_as(&roles)
                    .bind(user)
                    .bind(league)
                    .bind(season)
                    .bind(team)
                    .fetch_all(&mut tx)
                    .await?;
                for role in held {
                    sql::query("DELETE FROM roles WHERE id = $1")
                        .bind(role.id)
                        .execute(&mut tx)
                        .await?;
                    insert_audit(
                        &mut tx,
                        NewAudit::new(Some(league), by, "role", role.id.0, "revoke")
                            .before(Some(&role)),
                    )
                    .await?;
                }
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

/// Whether `team` is entered in the season. On Postgres the entry is
/// locked until the commit, so two secretaries cannot both add a second
/// captain; SQLite writes are serialized already.
pub(crate) async fn lock_entry(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<bool> {
    let sql = format!(
        "SELECT team_id FROM team_entries WHERE league_id = $1 AND season_id = $2 \
         AND team_id = $3{}",
        tx.dialect("", " FOR UPDATE")
    );
    let found: Option<i64> = sql::query_scalar(&sql)
        .bind(league)
        .bind(season)
        .bind(team)
        .fetch_optional(&mut *tx)
        .await?;
    Ok(found.is_some())
}

/// How many captains `team` has this season.
pub(crate) async fn captain_count(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<i64> {
    sql::query_scalar(
        "SELECT COUNT(*) FROM team_captains \
         WHERE league_id = $1 AND season_id = $2 AND team_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .fetch_one(&mut *tx)
    .await
}

/// Whether `player` captains `team` this season.
pub(crate) async fn is_captain(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
) -> Result<bool> {
    let n: i64 = sql::query_scalar(
        "SELECT COUNT(*) FROM team_captains \
         WHERE league_id = $1 AND season_id = $2 AND team_id = $3 AND player_id = $4",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .bind(player)
    .fetch_one(&mut *tx)
    .await?;
    Ok(n > 0)
}

/// Records `player` as a captain of `team` this season, with the account
/// named with them (so that removing the captain takes its role away).
pub(crate) async fn insert_captain(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
    account: Option<UserId>,
) -> Result<()> {
    sql::query(
        "INSERT INTO team_captains (league_id, season_id, team_id, player_id, user_id) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .bind(player)
    .bind(account)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// `user`'s captain's role for `team` this season, if it holds one.
pub(crate) async fn captain_role(
    tx: &mut Tx,
    user: UserId,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<Option<Role>> {
    sql::query_as(&format!(
        "SELECT {ROLE_COLUMNS} FROM roles WHERE kind = 'captain' \
         AND user_id = $1 AND league_id = $2 AND season_id = $3 AND team_id = $4"
    ))
    .bind(user)
    .bind(league)
    .bind(season)
    .bind(team)
    .fetch_optional(&mut *tx)
    .await
}

/// Gives `user` the captain's role for `team` this season.
pub(crate) async fn insert_captain_role(
    tx: &mut Tx,
    user: UserId,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<Role> {
    sql::query_as(&format!(
        "INSERT INTO roles (user_id, kind, league_id, season_id, team_id, granted_at) \
         VALUES ($1, 'captain', $2, $3, $4, $5) RETURNING {ROLE_COLUMNS}"
    ))
    .bind(user)
    .bind(league)
    .bind(season)
    .bind(team)
    .bind(now())
    .fetch_one(&mut *tx)
    .await
}

/// Stores a new team of `league`; returns its id. A name the league uses
/// already is [`DbError::Unique`].
pub(crate) async fn insert_team(
    tx: &mut Tx,
    league: LeagueId,
    name: &str,
    venue: Option<VenueId>,
) -> Result<TeamId> {
    sql::query_scalar(
        "INSERT INTO teams (league_id, name, venue_id) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(league)
    .bind(name)
    .bind(venue)
    .fetch_one(&mut *tx)
    .await
}

/// Enters `team` in `division` for the season.
pub(crate) async fn insert_entry(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    division: DivisionId,
    team: TeamId,
) -> Result<()> {
    sql::query(
        "INSERT INTO team_entries (league_id, season_id, division_id, team_id) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(league)
    .bind(season)
    .bind(division)
    .bind(team)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
