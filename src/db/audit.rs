//! The audit trail: every change to a result, penalty, fixture or role, with
//! who made it, when, and the record before and after (JSON text).

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Db, LeagueId, Result, UserId, json_text};
use crate::db::AuditId;

/// One change, as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AuditEntry {
    pub id: AuditId,
    pub league_id: Option<LeagueId>,
    pub user_id: Option<UserId>,
    pub at: DateTime<Utc>,
    /// `result`, `fixture`, `penalty`, `fine`, `role`, `season`.
    pub entity: String,
    pub entity_id: i64,
    /// `enter`, `correct`, `restore`, `status`, `change`, `void`, `grant`, ...
    pub action: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// An entry about to be written, inside the transaction of its change.
pub struct NewAudit {
    pub league_id: Option<LeagueId>,
    pub user_id: Option<UserId>,
    pub entity: &'static str,
    pub entity_id: i64,
    pub action: &'static str,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl NewAudit {
    pub fn new(
        league_id: Option<LeagueId>,
        user_id: Option<UserId>,
        entity: &'static str,
        entity_id: i64,
        action: &'static str,
    ) -> NewAudit {
        NewAudit {
            league_id,
            user_id,
            entity,
            entity_id,
            action,
            before: None,
            after: None,
        }
    }

    pub fn before<T: Serialize>(mut self, value: Option<&T>) -> NewAudit {
        self.before = value.map(json_text);
        self
    }

    pub fn after<T: Serialize>(mut self, value: Option<&T>) -> NewAudit {
        self.after = value.map(json_text);
        self
    }
}

/// The audited records whose changes may notify someone (issue 26).
pub(crate) const NOTIFYING: [&str; 2] = ["result", "fixture"];

/// Writes `entry` in the transaction of its change; for a change that
/// may notify someone, its event in the outbox too, so the change and the
/// notice of it commit together.
pub(crate) async fn insert_audit(tx: &mut Tx, entry: NewAudit) -> Result<()> {
    let notifies = NOTIFYING.contains(&entry.entity);
    let id: i64 = sql::query_scalar(
        "INSERT INTO audit (league_id, user_id, at, entity, entity_id, action, before, after) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(entry.league_id)
    .bind(entry.user_id)
    .bind(super::now())
    .bind(entry.entity)
    .bind(entry.entity_id)
    .bind(entry.action)
    .bind(entry.before)
    .bind(entry.after)
    .fetch_one(&mut *tx)
    .await?;
    if notifies {
        sql::query("INSERT INTO pending_events (audit_id) VALUES ($1)")
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

const COLUMNS: &str = "id, league_id, user_id, at, entity, entity_id, action, before, after";

impl Db {
    /// The changes to one record of a league, oldest first.
    pub async fn audit_entries(
        &self,
        league: LeagueId,
        entity: &str,
        entity_id: i64,
    ) -> Result<Vec<AuditEntry>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM audit WHERE league_id = $1 AND entity = $2 AND entity_id = $3 \
             ORDER BY id"
        );
        sql::query_as::<AuditEntry>(&sql)
            .bind(league)
            .bind(entity)
            .bind(entity_id)
            .fetch_all(self)
            .await
    }

    /// A league's latest changes, newest first.
    pub async fn audit_log(&self, league: LeagueId, limit: i64) -> Result<Vec<AuditEntry>> {
        let sql =
            format!("SELECT {COLUMNS} FROM audit WHERE league_id = $1 ORDER BY id DESC LIMIT $2");
        sql::query_as::<AuditEntry>(&sql)
            .bind(league)
            .bind(limit)
            .fetch_all(self)
            .await
    }
}
