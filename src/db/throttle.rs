//! Sign-in attempts by key (an account, an account from one address, an
//! address, a trusted browser), counted in the database so that app
//! servers sharing it throttle the same counts. A count runs from its first
//! attempt; one older than the window is stale and starts again. What the
//! counts allow is the web layer's policy (`web::throttle`): this module
//! only reads and writes them.
//!
//! An attempt is reserved before its password is checked, in one
//! transaction that reads the counts, asks the policy and adds to them, so
//! parallel requests cannot all pass a check made before any of them was
//! counted.

use super::sql::{self};
use chrono::{DateTime, Utc};

use super::{Db, Result, UserId, now};

/// A key's attempts since its first one, and the next moment it may make
/// one when its attempts are being spaced.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FailureCount {
    pub key: String,
    pub failures: i64,
    pub first_at: DateTime<Utc>,
    pub next_at: Option<DateTime<Utc>>,
}

impl Db {
    /// Reserves one attempt against every key in `keys` at `now`; counts
    /// that started before `since` are stale and dropped first. `decide`
    /// is given each key's count (None: no attempt yet) and answers either
    /// with each key's next free moment (None: not spaced), after which
    /// every key's count goes up by one, or with a refusal, after which
    /// nothing is written.
    ///
    /// SQLite's write transaction holds the only write lock; on Postgres
    /// the table is locked for the few statements here, so no two
    /// reservations read the same counts (a row lock would not do: the row
    /// of a key's first attempt does not exist yet).
    pub async fn reserve_sign_in_attempt<T: Send>(
        &self,
        keys: &[&str],
        now: DateTime<Utc>,
        since: DateTime<Utc>,
        decide: impl FnOnce(
            &[Option<FailureCount>],
        ) -> std::result::Result<Vec<Option<DateTime<Utc>>>, T>
        + Send,
    ) -> Result<std::result::Result<(), T>> {
        let lock = self.dialect(
            None,
            Some("LOCK TABLE sign_in_failures IN SHARE ROW EXCLUSIVE MODE"),
        );
        let mut tx = self.write_unseen().await?;
        let decision = {
            if let Some(lock) = lock {
                sql::query(lock).execute(&mut tx).await?;
            }
            sql::query("DELETE FROM sign_in_failures WHERE first_at < $1")
                .bind(since)
                .execute(&mut tx)
                .await?;
            let mut counts = Vec::with_capacity(keys.len());
            for key in keys {
                counts.push(
                    sql::query_as::<FailureCount>(
                        "SELECT key, failures, first_at, next_at FROM sign_in_failures \
                         WHERE key = $1",
                    )
                    .bind(*key)
                    .fetch_optional(&mut tx)
                    .await?,
                );
            }
            match decide(&counts) {
                Err(refused) => Err(refused),
                Ok(next) => {
                    for (key, next_at) in keys.iter().zip(next) {
                        sql::query(
                            "INSERT INTO sign_in_failures (key, failures, first_at, next_at) \
                             VALUES ($1, 1, $2, $3) \
                             ON CONFLICT (key) DO UPDATE SET \
                             failures = sign_in_failures.failures + 1, next_at = $3",
                        )
                        .bind(*key)
                        .bind(now)
                        .bind(next_at)
                        .execute(&mut tx)
                        .await?;
                    }
                    Ok(())
                }
            }
        };
        tx.commit().await?;
        Ok(decision)
    }

    /// A reserved attempt that succeeded: forgets every count of `forget`
    /// (the account's) and gives back the one attempt taken from each key of
    /// `refund` (the address), so that people signing in rightly from one
    /// address never use up its allowance.
    pub async fn refund_sign_in_attempt(&self, forget: &[&str], refund: &[&str]) -> Result<()> {
        let mut tx = self.write_unseen().await?;
        for key in forget {
            sql::query("DELETE FROM sign_in_failures WHERE key = $1")
                .bind(*key)
                .execute(&mut tx)
                .await?;
        }
        for key in refund {
            sql::query("DELETE FROM sign_in_failures WHERE key = $1 AND failures <= 1")
                .bind(*key)
                .execute(&mut tx)
                .await?;
            sql::query("UPDATE sign_in_failures SET failures = failures - 1 WHERE key = $1")
                .bind(*key)
                .execute(&mut tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether the browser whose token hashes to `token_hash` has signed
    /// in as `user` since `since`.
    pub async fn is_trusted_device(
        &self,
        token_hash: &str,
        user: UserId,
        since: DateTime<Utc>,
    ) -> Result<bool> {
        {
            let found: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM trusted_devices \
                 WHERE token_hash = $1 AND user_id = $2 AND last_used_at >= $3",
            )
            .bind(token_hash)
            .bind(user)
            .bind(since)
            .fetch_one(self)
            .await?;
            Ok(found > 0)
        }
    }

    /// The browser whose token hashes to `token_hash` signed in as `user`:
    /// trusted for that account from now on (again, if it was).
    pub async fn trust_device(&self, token_hash: &str, user: UserId) -> Result<()> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        sql::query(
            "INSERT INTO trusted_devices (token_hash, user_id, created_at, last_used_at) \
                 VALUES ($1, $2, $3, $3) \
                 ON CONFLICT (token_hash, user_id) DO UPDATE SET last_used_at = $3",
        )
        .bind(token_hash)
        .bind(user)
        .bind(at)
        .execute(&mut tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
