//! Whether the database answers and its schema is this binary's (for
//! `/healthz`, issue 28).

use super::sql::{self};
use super::{Db, POSTGRES_MIGRATIONS, Result, SQLITE_MIGRATIONS};

/// The schema's state: the newest migration applied and the newest this
/// binary knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health {
    pub applied: i64,
    pub known: i64,
}

impl Health {
    pub fn is_current(&self) -> bool {
        self.applied == self.known
    }
}

impl Db {
    /// One query: an error if the database does not answer.
    pub async fn health(&self) -> Result<Health> {
        let applied: i64 = sql::query_scalar(
            "SELECT CAST(COALESCE(MAX(version), 0) AS BIGINT) FROM _sqlx_migrations WHERE success",
        )
        .fetch_one(self)
        .await?;
        let migrator = match self {
            Db::Sqlite(_) => &SQLITE_MIGRATIONS,
            Db::Postgres(_) => &POSTGRES_MIGRATIONS,
        };
        let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
        Ok(Health { applied, known })
    }
}
