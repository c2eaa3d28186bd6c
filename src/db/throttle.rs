//! Failed sign-ins by key (an account or an address), counted in the
//! database so that app servers sharing it throttle the same counts. A
//! count runs from its first failure; one older than the window is stale
//! and starts again.

use chrono::{DateTime, Utc};

use super::{Db, Result, read_pool, write_tx};

/// A key's failures since its first one.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FailureCount {
    pub key: String,
    pub failures: i64,
    pub first_at: DateTime<Utc>,
}

impl Db {
    /// The counts of an account's key and an address's key that started at
    /// `since` or later.
    pub async fn sign_in_failures(
        &self,
        account: &str,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<FailureCount>> {
        let counts: Vec<FailureCount> = read_pool!(self, pool => sqlx::query_as(
            "SELECT key, failures, first_at FROM sign_in_failures WHERE key IN ($1, $2)",
        )
        .bind(account)
        .bind(address)
        .fetch_all(pool)
        .await?);
        Ok(counts.into_iter().filter(|c| c.first_at >= since).collect())
    }

    /// Counts a failure against each key at `now`; a count that started
    /// before `since` starts again at 1. Stale counts of other keys are
    /// dropped on the way, so the table stays small.
    pub async fn record_sign_in_failure(
        &self,
        keys: &[&str],
        now: DateTime<Utc>,
        since: DateTime<Utc>,
    ) -> Result<()> {
        write_tx!(self, tx => {
            // One statement a key, so that two servers counting at once
            // both count.
            for key in keys {
                sqlx::query(
                    "INSERT INTO sign_in_failures (key, failures, first_at) VALUES ($1, 1, $2) \
                     ON CONFLICT (key) DO UPDATE SET \
                     failures = CASE WHEN sign_in_failures.first_at < $3 THEN 1 \
                       ELSE sign_in_failures.failures + 1 END, \
                     first_at = CASE WHEN sign_in_failures.first_at < $3 THEN excluded.first_at \
                       ELSE sign_in_failures.first_at END",
                )
                .bind(*key)
                .bind(now)
                .bind(since)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("DELETE FROM sign_in_failures WHERE first_at < $1")
                .bind(since)
                .execute(&mut *tx)
                .await?;
        });
        Ok(())
    }

    /// Forgets a key's failures (a successful sign-in of the account).
    pub async fn clear_sign_in_failures(&self, key: &str) -> Result<()> {
        write_tx!(self, tx => {
            sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                .bind(key)
                .execute(&mut *tx)
                .await?;
        });
        Ok(())
    }
}
