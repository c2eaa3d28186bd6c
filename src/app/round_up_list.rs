//! The weekly round-up by email (issue 26): putting an address on a
//! league's list, confirming it, taking it off, and finding whom last
//! week's round-up is due to. Each command is one transaction (the
//! records' own, `db::round_up_list`); the pages and the Monday job in
//! `web` parse, call these and render.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

use crate::db::mail::NewMail;
use crate::db::round_up_list::{Subscribed, Subscriber};
use crate::db::{Db, League, Result};

/// Puts `email` on `league`'s list, unconfirmed, and queues
/// `confirmation` with it (its link carries the token hashed as
/// `confirm_hash`), unless one went lately or the address is on the list
/// already.
pub async fn subscribe(
    db: &Db,
    league: &League,
    email: &str,
    confirm_hash: &str,
    unsubscribe_token: &str,
    confirmation: &NewMail,
) -> Result<Subscribed> {
    db.subscribe(
        league.id,
        email,
        confirm_hash,
        unsubscribe_token,
        confirmation,
    )
    .await
}

/// The subscriber a confirmation link (its token hashed) names, while it
/// has not expired.
pub async fn to_confirm(
    db: &Db,
    league: &League,
    confirm_hash: &str,
) -> Result<Option<Subscriber>> {
    db.subscriber_to_confirm(league.id, confirm_hash).await
}

/// Confirms the subscriber a link names: their address, or `None` when it
/// names nobody or has expired.
pub async fn confirm(db: &Db, league: &League, confirm_hash: &str) -> Result<Option<String>> {
    db.confirm_subscription(league.id, confirm_hash).await
}

/// The subscriber an unsubscribe link names.
pub async fn by_token(db: &Db, league: &League, token: &str) -> Result<Option<Subscriber>> {
    db.subscriber_by_token(league.id, token).await
}

/// Takes the address an unsubscribe link names off the list: the address,
/// or `None` when it was gone already.
pub async fn unsubscribe(db: &Db, league: &League, token: &str) -> Result<Option<String>> {
    db.unsubscribe(league.id, token).await
}

/// A league whose last week's round-up is due to some of its subscribers.
pub struct Due {
    pub league: League,
    /// The Monday of the week the round-up is of.
    pub monday: NaiveDate,
    /// What each message is keyed by (with the subscriber's id), so it goes
    /// once.
    pub key: String,
    pub unsent: Vec<Subscriber>,
}

/// Each league with subscribers whose Monday `send_at` has come (in its
/// zone) as at `now`, with those not sent last week's round-up yet.
pub async fn due(db: &Db, now: DateTime<Utc>, send_at: NaiveTime) -> Result<Vec<Due>> {
    let mut out = Vec::new();
    for id in db.leagues_with_subscribers().await? {
        let league = db.league(id).await?;
        let zone = league.time_zone;
        let local = zone.local(now);
        let this_monday = zone.week(local.date()).0;
        if local.date() == this_monday && local.time() < send_at {
            continue;
        }
        let monday = this_monday - Duration::days(7);
        let key = format!("round-up:{}:{}", league.id, monday.format("%Y-%m-%d"));
        let unsent = db.round_up_unsent(league.id, &key).await?;
        if unsent.is_empty() {
            continue;
        }
        out.push(Due {
            league,
            monday,
            key,
            unsent,
        });
    }
    Ok(out)
}

/// Queues `mail` (once each, by its key): how many were queued.
pub async fn queue(db: &Db, mail: &[NewMail]) -> Result<u64> {
    db.queue_mail(mail).await
}
