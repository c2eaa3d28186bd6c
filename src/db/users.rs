//! Users of the installation and their roles. A user is not a league
//! record (one account may act in several leagues); roles tie it to them.

use super::sql;
use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::audit::{NewAudit, insert_audit};
use super::{
    Db, DbError, LeagueId, PlayerId, Result, RoleId, SeasonId, TeamId, UserId, now, text_enum,
};

/// A signed-up user. `password_hash` is the PHC string (argon2); it is
/// left out of `Debug`.
#[derive(Clone, PartialEq, sqlx::FromRow)]
pub struct User {
    pub id: UserId,
    pub username: String,
    pub password_hash: String,
    pub created_at: DateTime<Utc>,
}

impl fmt::Debug for User {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("User")
            .field("id", &self.id)
            .field("username", &self.username)
            .field("password_hash", &"[redacted]")
            .field("created_at", &self.created_at)
            .finish()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoleKind {
    /// Of the installation: creates leagues and names their secretaries.
    Administrator,
    /// Of a league: everything inside it.
    Secretary,
    /// Of a team in a season.
    Captain,
    /// A league's player (their own profile).
    Player,
}

text_enum!(RoleKind {
    Administrator = "administrator",
    Secretary = "secretary",
    Captain = "captain",
    Player = "player",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Role {
    pub id: RoleId,
    pub user_id: UserId,
    #[sqlx(try_from = "String")]
    pub kind: RoleKind,
    pub league_id: Option<LeagueId>,
    pub season_id: Option<SeasonId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub granted_at: DateTime<Utc>,
}

/// A role to grant; build it with the constructor for its kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewRole {
    pub user_id: UserId,
    pub kind: RoleKind,
    pub league_id: Option<LeagueId>,
    pub season_id: Option<SeasonId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
}

impl NewRole {
    fn new(user_id: UserId, kind: RoleKind) -> NewRole {
        NewRole {
            user_id,
            kind,
            league_id: None,
            season_id: None,
            team_id: None,
            player_id: None,
        }
    }

    pub fn administrator(user: UserId) -> NewRole {
        NewRole::new(user, RoleKind::Administrator)
    }

    pub fn secretary(user: UserId, league: LeagueId) -> NewRole {
        NewRole {
            league_id: Some(league),
            ..NewRole::new(user, RoleKind::Secretary)
        }
    }

    /// Captain of a team entered in the season.
    pub fn captain(user: UserId, league: LeagueId, season: SeasonId, team: TeamId) -> NewRole {
        NewRole {
            league_id: Some(league),
            season_id: Some(season),
            team_id: Some(team),
            ..NewRole::new(user, RoleKind::Captain)
        }
    }

    /// The user is this player of the league.
    pub fn player(user: UserId, league: LeagueId, player: PlayerId) -> NewRole {
        NewRole {
            league_id: Some(league),
            player_id: Some(player),
            ..NewRole::new(user, RoleKind::Player)
        }
    }
}

const COLUMNS: &str = "id, username, password_hash, created_at";
pub(super) const ROLE_COLUMNS: &str =
    "id, user_id, kind, league_id, season_id, team_id, player_id, granted_at";

impl Db {
    /// A new user; the username is unique whatever its case.
    pub async fn create_user(&self, username: &str, password_hash: &str) -> Result<User> {
        let sql = format!(
            "INSERT INTO users (username, password_hash, created_at) VALUES ($1, $2, $3) \
             RETURNING {COLUMNS}"
        );
        let mut tx = self.write_everywhere().await?;
        let out = sql::query_as::<User>(&sql)
            .bind(username)
            .bind(password_hash)
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    /// The installation's first user, made its administrator, in one
    /// transaction that first makes sure there is no user yet: two set-ups
    /// posted at once make one administrator (the other gets `None`), and a
    /// set-up cut short leaves nothing behind.
    pub async fn create_first_administrator(
        &self,
        username: &str,
        password_hash: &str,
    ) -> Result<Option<User>> {
        let insert = format!(
            "INSERT INTO users (username, password_hash, created_at) VALUES ($1, $2, $3) \
             RETURNING {COLUMNS}"
        );
        // SQLite's writes take turns already (BEGIN IMMEDIATE); on Postgres
        // a lock on the table that set-ups take in turn.
        let lock = self.dialect(None, Some("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE"));
        let mut tx = self.write_everywhere().await?;
        let out = {
            if let Some(lock) = lock {
                sql::query(lock).execute(&mut tx).await?;
            }
            let users: i64 = sql::query_scalar("SELECT COUNT(*) FROM users")
                .fetch_one(&mut tx)
                .await?;
            if users > 0 {
                None
            } else {
                let user = sql::query_as::<User>(&insert)
                    .bind(username)
                    .bind(password_hash)
                    .bind(now())
                    .fetch_one(&mut tx)
                    .await?;
                sql::query("INSERT INTO roles (user_id, kind, granted_at) VALUES ($1, $2, $3)")
                    .bind(user.id)
                    .bind(RoleKind::Administrator.as_str())
                    .bind(now())
                    .execute(&mut tx)
                    .await?;
                Some(user)
            }
        };
        tx.commit().await?;
        Ok(out)
    }

    pub async fn user(&self, id: UserId) -> Result<User> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
        sql::query_as::<User>(&sql)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("user {id}")))
    }

    /// The user signing in, whatever the case of the name typed.
    pub async fn user_by_username(&self, username: &str) -> Result<User> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE lower(username) = lower($1)");
        sql::query_as::<User>(&sql)
            .bind(username)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("user `{username}`")))
    }

    pub async fn set_password_hash(&self, id: UserId, password_hash: &str) -> Result<()> {
        let mut tx = self.write_everywhere().await?;
        let changed = sql::query("UPDATE users SET password_hash = $2 WHERE id = $1")
            .bind(id)
            .bind(password_hash)
            .execute(&mut tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        if changed == 0 {
            return Err(DbError::not_found(format!("user {id}")));
        }
        Ok(())
    }

    /// Grants a role, with an audit entry in its league (none for an
    /// administrator). A role held already is [`DbError::Unique`].
    pub async fn grant_role(&self, new: &NewRole, by: Option<UserId>) -> Result<Role> {
        let sql = format!(
            "INSERT INTO roles (user_id, kind, league_id, season_id, team_id, player_id, granted_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {ROLE_COLUMNS}"
        );
        let mut tx = self.write_everywhere().await?;
        let role = sql::query_as::<Role>(&sql)
            .bind(new.user_id)
            .bind(new.kind.as_str())
            .bind(new.league_id)
            .bind(new.season_id)
            .bind(new.team_id)
            .bind(new.player_id)
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        insert_audit(
            &mut tx,
            NewAudit::new(role.league_id, by, "role", role.id.0, "grant").after(Some(&role)),
        )
        .await?;
        tx.commit().await?;
        Ok(role)
    }

    /// Takes a role away, with an audit entry holding it. `league` is the
    /// role's league (`None` for an administrator): a role of another
    /// league is not found.
    pub async fn revoke_role(
        &self,
        league: Option<LeagueId>,
        id: RoleId,
        by: Option<UserId>,
    ) -> Result<()> {
        let select = match league {
            Some(_) => format!("SELECT {ROLE_COLUMNS} FROM roles WHERE id = $1 AND league_id = $2"),
            None => format!("SELECT {ROLE_COLUMNS} FROM roles WHERE id = $1 AND league_id IS NULL"),
        };
        let mut tx = self.write_everywhere().await?;
        let mut query = sql::query_as::<Role>(&select).bind(id);
        if let Some(league) = league {
            query = query.bind(league);
        }
        let role = query
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| DbError::not_found(format!("role {id}")))?;
        sql::query("DELETE FROM roles WHERE id = $1")
            .bind(id)
            .execute(&mut tx)
            .await?;
        insert_audit(
            &mut tx,
            NewAudit::new(role.league_id, by, "role", id.0, "revoke").before(Some(&role)),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every role of a user, in every league: what signing in loads.
    pub async fn user_roles(&self, user: UserId) -> Result<Vec<Role>> {
        let sql = format!("SELECT {ROLE_COLUMNS} FROM roles WHERE user_id = $1 ORDER BY id");
        sql::query_as::<Role>(&sql).bind(user).fetch_all(self).await
    }

    /// The roles held in one league: its secretaries, captains and players.
    pub async fn league_roles(&self, league: LeagueId) -> Result<Vec<Role>> {
        let sql = format!("SELECT {ROLE_COLUMNS} FROM roles WHERE league_id = $1 ORDER BY id");
        sql::query_as::<Role>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }
}

impl Db {
    /// How many accounts exist: none means the installation is new and its
    /// first page asks for the administrator.
    pub async fn user_count(&self) -> Result<i64> {
        sql::query_scalar::<i64>("SELECT COUNT(*) FROM users")
            .fetch_one(self)
            .await
    }
}

/// A role held in a league, with the holder's username: what the league's
/// users page and the administrator's list of secretaries show.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct RoleHolder {
    #[sqlx(flatten)]
    pub role: Role,
    pub username: String,
}

impl Db {
    /// The roles held in one league with their holders' usernames, by
    /// kind then username.
    pub async fn league_role_holders(&self, league: LeagueId) -> Result<Vec<RoleHolder>> {
        let columns = ROLE_COLUMNS
            .split(", ")
            .map(|c| format!("r.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {columns}, u.username FROM roles r JOIN users u ON u.id = r.user_id \
             WHERE r.league_id = $1 ORDER BY r.kind, lower(u.username), r.id"
        );
        sql::query_as::<RoleHolder>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }
}

impl Db {
    /// Usernames for a set of accounts, in one query: for pages that say
    /// who did what.
    pub async fn usernames(
        &self,
        ids: &[UserId],
    ) -> Result<std::collections::HashMap<UserId, String>> {
        if ids.is_empty() {
            return Ok(Default::default());
        }
        let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, username FROM users WHERE id IN ({})",
            placeholders.join(", ")
        );
        let rows: Vec<(UserId, String)> = {
            let mut q = sql::query_as::<(UserId, String)>(&sql);
            for id in ids {
                q = q.bind(*id);
            }
            q.fetch_all(self).await?
        };
        Ok(rows.into_iter().collect())
    }
}
