//! Sign-in attempts by key (an account or an address), counted in the
//! database so that app servers sharing it throttle the same counts. A
//! count runs from its first attempt; one older than the window is stale
//! and starts again.
//!
//! An attempt is reserved before its password is checked, in one
//! transaction that reads the counts and adds to them, so parallel
//! requests cannot all pass a check made before any of them was counted.

use chrono::{DateTime, Utc};

use super::{Db, Result, dialect, write_tx_unseen};

/// A key's attempts since its first one.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FailureCount {
    pub key: String,
    pub failures: i64,
    pub first_at: DateTime<Utc>,
}

impl Db {
    /// Reserves one attempt against every key in `keys`, each `(key,
    /// limit)`, at `now`; counts that started before `since` are stale and
    /// dropped first. When a key already holds its limit nothing is
    /// counted and the counts that stand in the way are returned; an empty
    /// answer means the attempt was counted and may go ahead.
    ///
    /// SQLite's write transaction holds the only write lock; on Postgres
    /// the table is locked for the few statements here, so no two
    /// reservations read the same counts (a row lock would not do: the row
    /// of a key's first attempt does not exist yet).
    pub async fn reserve_sign_in_attempt(
        &self,
        keys: &[(&str, i64)],
        now: DateTime<Utc>,
        since: DateTime<Utc>,
    ) -> Result<Vec<FailureCount>> {
        let lock = dialect!(self,
            sqlite: None,
            postgres: Some("LOCK TABLE sign_in_failures IN SHARE ROW EXCLUSIVE MODE"),
        );
        let blocking = write_tx_unseen!(self, tx => {
            if let Some(lock) = lock {
                sqlx::query(lock).execute(&mut *tx).await?;
            }
            sqlx::query("DELETE FROM sign_in_failures WHERE first_at < $1")
                .bind(since)
                .execute(&mut *tx)
                .await?;
            let mut blocking = Vec::new();
            for (key, limit) in keys {
                let count: Option<FailureCount> = sqlx::query_as(
                    "SELECT key, failures, first_at FROM sign_in_failures WHERE key = $1",
                )
                .bind(*key)
                .fetch_optional(&mut *tx)
                .await?;
                blocking.extend(count.filter(|c| c.failures >= *limit));
            }
            if blocking.is_empty() {
                for (key, _) in keys {
                    sqlx::query(
                        "INSERT INTO sign_in_failures (key, failures, first_at) VALUES ($1, 1, $2) \
                         ON CONFLICT (key) DO UPDATE SET failures = sign_in_failures.failures + 1",
                    )
                    .bind(*key)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            blocking
        });
        Ok(blocking)
    }

    /// A reserved attempt that succeeded: forgets every count of `forget`
    /// (the account) and gives back the one attempt taken from each key of
    /// `refund` (the address), so that people signing in rightly from one
    /// address never use up its allowance.
    pub async fn refund_sign_in_attempt(&self, forget: &[&str], refund: &[&str]) -> Result<()> {
        write_tx_unseen!(self, tx => {
            for key in forget {
                sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                    .bind(*key)
                    .execute(&mut *tx)
                    .await?;
            }
            for key in refund {
                sqlx::query("DELETE FROM sign_in_failures WHERE key = $1 AND failures <= 1")
                    .bind(*key)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "UPDATE sign_in_failures SET failures = failures - 1 WHERE key = $1",
                )
                .bind(*key)
                .execute(&mut *tx)
                .await?;
            }
        });
        Ok(())
    }
}
