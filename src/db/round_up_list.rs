//! The weekly round-up's mailing list (issue 26): addresses, no accounts.
//! Double opt-in: a subscriber gets nothing but the confirmation until
//! they follow it; every round-up carries a one-click way out (RFC 8058).

use super::sql::{self};
use chrono::{DateTime, Duration, Utc};

use super::mail::{NewMail, queue};
use super::{Db, LeagueId, Result, now};

/// How long a confirmation link works.
pub const CONFIRM_DAYS: i64 = 7;
/// How soon a second confirmation may go to one address: a form submitted
/// over and over sends one message.
pub const RESEND_AFTER: Duration = Duration::minutes(10);

/// An address on a league's list.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Subscriber {
    pub id: i64,
    pub league_id: LeagueId,
    pub email: String,
    pub unsubscribe_token: String,
    pub confirm_sent_at: DateTime<Utc>,
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// What asking to subscribe did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subscribed {
    /// A confirmation was queued.
    ConfirmationSent,
    /// One went within [`RESEND_AFTER`]: none again.
    RecentlySent,
    /// On the list already: nothing sent.
    AlreadyOn,
}

const COLUMNS: &str = "id, league_id, email, unsubscribe_token, confirm_sent_at, confirmed_at";

impl Db {
    /// Puts `email` on the list of `league`, unconfirmed, and queues
    /// `confirmation` (its link carries the token hashed as `confirm_hash`)
    /// in the same transaction, unless one went lately or the address is
    /// on the list already.
    pub async fn subscribe(
        &self,
        league: LeagueId,
        email: &str,
        confirm_hash: &str,
        unsubscribe_token: &str,
        confirmation: &NewMail,
    ) -> Result<Subscribed> {
        let find = format!(
            "SELECT {COLUMNS} FROM round_up_subscribers WHERE league_id = $1 AND lower(email) = lower($2)"
        );
        let mut tx = self.write_unseen().await?;
        let out = {
            let at = now();
            let found: Option<Subscriber> = sql::query_as(&find)
                .bind(league)
                .bind(email)
                .fetch_optional(&mut tx)
                .await?;
            match found {
                Some(s) if s.confirmed_at.is_some() => Subscribed::AlreadyOn,
                Some(s) if at - s.confirm_sent_at < RESEND_AFTER => Subscribed::RecentlySent,
                Some(s) => {
                    sql::query(
                        "UPDATE round_up_subscribers SET confirm_hash = $2, confirm_sent_at = $3 \
                         WHERE id = $1",
                    )
                    .bind(s.id)
                    .bind(confirm_hash)
                    .bind(at)
                    .execute(&mut tx)
                    .await?;
                    queue(&mut tx, confirmation).await?;
                    Subscribed::ConfirmationSent
                }
                None => {
                    sql::query(
                        "INSERT INTO round_up_subscribers (league_id, email, confirm_hash, \
                         unsubscribe_token, created_at, confirm_sent_at) \
                         VALUES ($1, $2, $3, $4, $5, $5)",
                    )
                    .bind(league)
                    .bind(email)
                    .bind(confirm_hash)
                    .bind(unsubscribe_token)
                    .bind(at)
                    .execute(&mut tx)
                    .await?;
                    queue(&mut tx, confirmation).await?;
                    Subscribed::ConfirmationSent
                }
            }
        };
        tx.commit().await?;
        Ok(out)
    }

    /// The subscriber a confirmation link names, if it still works (or was
    /// followed already).
    pub async fn subscriber_to_confirm(
        &self,
        league: LeagueId,
        confirm_hash: &str,
    ) -> Result<Option<Subscriber>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM round_up_subscribers WHERE league_id = $1 AND confirm_hash = $2"
        );
        let found: Option<Subscriber> = sql::query_as(&sql)
            .bind(league)
            .bind(confirm_hash)
            .fetch_optional(self)
            .await?;
        Ok(found.filter(|s| {
            s.confirmed_at.is_some() || now() - s.confirm_sent_at < Duration::days(CONFIRM_DAYS)
        }))
    }

    /// Confirms the subscriber a link names, in one statement; their
    /// address, or `None` when the link names nobody or has expired.
    pub async fn confirm_subscription(
        &self,
        league: LeagueId,
        confirm_hash: &str,
    ) -> Result<Option<String>> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        let out = {
            sql::query_scalar(
                "UPDATE round_up_subscribers SET confirmed_at = COALESCE(confirmed_at, $3) \
                 WHERE league_id = $1 AND confirm_hash = $2 \
                 AND (confirmed_at IS NOT NULL OR confirm_sent_at > $4) RETURNING email",
            )
            .bind(league)
            .bind(confirm_hash)
            .bind(at)
            .bind(at - Duration::days(CONFIRM_DAYS))
            .fetch_optional(&mut tx)
            .await?
        };
        tx.commit().await?;
        Ok(out)
    }

    /// The subscriber an unsubscribe link names.
    pub async fn subscriber_by_token(
        &self,
        league: LeagueId,
        token: &str,
    ) -> Result<Option<Subscriber>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM round_up_subscribers WHERE league_id = $1 AND unsubscribe_token = $2"
        );
        sql::query_as(&sql)
            .bind(league)
            .bind(token)
            .fetch_optional(self)
            .await
    }

    /// Takes the address an unsubscribe link names off the list; the
    /// address, if it was on it.
    pub async fn unsubscribe(&self, league: LeagueId, token: &str) -> Result<Option<String>> {
        let mut tx = self.write_unseen().await?;
        let out = {
            sql::query_scalar(
                "DELETE FROM round_up_subscribers WHERE league_id = $1 AND unsubscribe_token = $2 \
                 RETURNING email",
            )
            .bind(league)
            .bind(token)
            .fetch_optional(&mut tx)
            .await?
        };
        tx.commit().await?;
        Ok(out)
    }

    /// Leagues with a confirmed subscriber.
    pub async fn leagues_with_subscribers(&self) -> Result<Vec<LeagueId>> {
        sql::query_scalar(
            "SELECT DISTINCT league_id FROM round_up_subscribers WHERE confirmed_at IS NOT NULL \
             ORDER BY league_id",
        )
        .fetch_all(self)
        .await
    }

    /// The confirmed subscribers of `league` not yet queued the round-up
    /// whose messages are keyed `{week_key}:{subscriber id}`.
    pub async fn round_up_unsent(
        &self,
        league: LeagueId,
        week_key: &str,
    ) -> Result<Vec<Subscriber>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM round_up_subscribers s WHERE league_id = $1 \
             AND confirmed_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM mail m \
             WHERE m.once_key = $2 || ':' || CAST(s.id AS TEXT)) ORDER BY id"
        );
        sql::query_as(&sql)
            .bind(league)
            .bind(week_key)
            .fetch_all(self)
            .await
    }
}
