//! Email's records (issue 26): accounts' addresses, single-use links sent
//! by email, what each person chose not to be sent, the outbox of audited
//! changes still to notify, and the messages waiting to go out.
//!
//! Every message is written in the transaction of what caused it: a link
//! with its token, a notice with the deletion of its pending event, so a
//! message is never sent for what did not happen, nor lost for what did.
//! Workers claim rows with `FOR UPDATE SKIP LOCKED` on Postgres (SQLite's
//! writes take turns already), so several app servers send each message
//! once.

use super::counted::AWAITING_RESULT;
use super::sql::{self, Tx};
use chrono::{DateTime, Duration, Utc};

use super::now;
use super::{Db, DbError, FixtureId, LeagueId, Result, SeasonId, TeamId, UserId};

/// What a single-use link sent by email is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPurpose {
    Verify,
    Reset,
    SignIn,
}

impl TokenPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenPurpose::Verify => "verify",
            TokenPurpose::Reset => "reset",
            TokenPurpose::SignIn => "sign-in",
        }
    }
}

/// A message about to be queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    pub league_id: Option<LeagueId>,
    /// A message with a key is queued once only (a reminder, say).
    pub once_key: Option<String>,
    /// The kind of message, as a person opts out of it.
    pub topic: String,
    pub to_address: String,
    pub to_name: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub unsubscribe_url: Option<String>,
}

/// Where a message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailStatus {
    /// To send (again) from `next_attempt_at`.
    Waiting,
    Sent,
    /// Given up after its retries.
    Failed,
    /// No mail server is configured: kept for the administrator to read.
    Kept,
}

impl MailStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MailStatus::Waiting => "waiting",
            MailStatus::Sent => "sent",
            MailStatus::Failed => "failed",
            MailStatus::Kept => "kept",
        }
    }
}

impl std::str::FromStr for MailStatus {
    type Err = DbError;
    fn from_str(s: &str) -> Result<MailStatus> {
        Ok(match s {
            "waiting" => MailStatus::Waiting,
            "sent" => MailStatus::Sent,
            "failed" => MailStatus::Failed,
            "kept" => MailStatus::Kept,
            other => return Err(DbError::Corrupt(format!("mail status `{other}`"))),
        })
    }
}

/// A queued message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub id: i64,
    pub league_id: Option<LeagueId>,
    pub topic: String,
    pub to_address: String,
    pub to_name: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub unsubscribe_url: Option<String>,
    pub status: MailStatus,
    pub attempts: i64,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct MailRow {
    id: i64,
    league_id: Option<LeagueId>,
    topic: String,
    to_address: String,
    to_name: String,
    subject: String,
    text_body: String,
    html_body: String,
    unsubscribe_url: Option<String>,
    status: String,
    attempts: i64,
    next_attempt_at: DateTime<Utc>,
    last_error: Option<String>,
    created_at: DateTime<Utc>,
    sent_at: Option<DateTime<Utc>>,
}

impl TryFrom<MailRow> for Mail {
    type Error = DbError;
    fn try_from(r: MailRow) -> Result<Mail> {
        Ok(Mail {
            id: r.id,
            league_id: r.league_id,
            topic: r.topic,
            to_address: r.to_address,
            to_name: r.to_name,
            subject: r.subject,
            text_body: r.text_body,
            html_body: r.html_body,
            unsubscribe_url: r.unsubscribe_url,
            status: r.status.parse()?,
            attempts: r.attempts,
            next_attempt_at: r.next_attempt_at,
            last_error: r.last_error,
            created_at: r.created_at,
            sent_at: r.sent_at,
        })
    }
}

const MAIL_COLUMNS: &str = "id, league_id, topic, to_address, to_name, subject, text_body, \
     html_body, unsubscribe_url, status, attempts, next_attempt_at, last_error, created_at, sent_at";

pub(crate) const INSERT_MAIL: &str = "INSERT INTO mail (league_id, once_key, topic, to_address, to_name, \
     subject, text_body, html_body, unsubscribe_url, status, attempts, next_attempt_at, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'waiting', 0, $10, $10) \
     ON CONFLICT (once_key) DO NOTHING";

/// Queues `mail` in the transaction; 1 if queued, 0 if its key was
/// queued before.
pub(crate) async fn queue(tx: &mut Tx, m: &NewMail) -> Result<u64> {
    Ok(sql::query(INSERT_MAIL)
        .bind(m.league_id)
        .bind(m.once_key.as_deref())
        .bind(&m.topic)
        .bind(&m.to_address)
        .bind(&m.to_name)
        .bind(&m.subject)
        .bind(&m.text_body)
        .bind(&m.html_body)
        .bind(m.unsubscribe_url.as_deref())
        .bind(now())
        .execute(&mut *tx)
        .await?
        .rows_affected())
}

/// Writes a token for `user`'s `email`, valid for `ttl` from `at`.
#[allow(clippy::too_many_arguments)]
async fn insert_token(
    tx: &mut Tx,
    user: UserId,
    purpose: TokenPurpose,
    email: &str,
    token_hash: &str,
    at: DateTime<Utc>,
    ttl: Duration,
) -> Result<()> {
    sql::query(
        "INSERT INTO email_tokens (token_hash, user_id, purpose, email, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(token_hash)
    .bind(user)
    .bind(purpose.as_str())
    .bind(email)
    .bind(at)
    .bind(at + ttl)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The condition, on a token `t` joined to its account `u`, that the
/// address the link went to is still the account's: for a verification,
/// its address (confirmed or not); for a reset or sign-in link, its
/// confirmed address. Removing or changing the address ends every link
/// sent to the old one, checked where the link is used, not only by
/// whoever changed it remembering to.
const STILL_THEIRS: &str = "u.id = t.user_id AND lower(u.email) = lower(t.email) \
     AND (t.purpose = 'verify' OR u.email_verified_at IS NOT NULL)";

/// Ends every unused link sent to `user`'s account (its address changed).
async fn end_links(tx: &mut Tx, user: UserId, at: DateTime<Utc>) -> Result<()> {
    sql::query("UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL")
        .bind(user)
        .bind(at)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Confirms `email` for `user`, in a transaction using its verification
/// link. The first account to confirm an address keeps it: confirmed for
/// another account already, it is [`DbError::Unique`] and nothing changes;
/// otherwise every other account's unconfirmed claim to it is let go, with
/// the links sent for them.
pub(crate) async fn confirm_address(
    tx: &mut Tx,
    user: UserId,
    email: &str,
    at: DateTime<Utc>,
) -> Result<()> {
    let owner: Option<UserId> = sql::query_scalar(
        "SELECT id FROM users WHERE lower(email) = lower($1) \
         AND email_verified_at IS NOT NULL AND id <> $2",
    )
    .bind(email)
    .bind(user)
    .fetch_optional(&mut *tx)
    .await?;
    if owner.is_some() {
        return Err(DbError::Unique(super::error::Constraint {
            table: Some("users".into()),
            detail: "the address is confirmed for another account".into(),
        }));
    }
    sql::query(
        "UPDATE email_tokens SET used_at = $3 WHERE used_at IS NULL AND lower(email) = lower($2) \
         AND user_id <> $1",
    )
    .bind(user)
    .bind(email)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    sql::query(
        "UPDATE users SET email = NULL WHERE lower(email) = lower($2) AND id <> $1 \
         AND email_verified_at IS NULL",
    )
    .bind(user)
    .bind(email)
    .execute(&mut *tx)
    .await?;
    sql::query(
        "UPDATE users SET email_verified_at = $3 WHERE id = $1 AND lower(email) = lower($2)",
    )
    .bind(user)
    .bind(email)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// An account's address as its owner set it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Contact {
    pub id: UserId,
    pub username: String,
    pub email: Option<String>,
    pub email_verified_at: Option<DateTime<Utc>>,
}

impl Contact {
    /// The address, once verified: the only one anything but the
    /// verification link is sent to.
    pub fn verified(&self) -> Option<&str> {
        self.email
            .as_deref()
            .filter(|_| self.email_verified_at.is_some())
    }
}

/// What a token, used, was worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsedToken {
    pub user: UserId,
    pub username: String,
    pub email: String,
}

/// A change that may notify someone, with the facts its notices need,
/// read in the notifier's transaction.
#[derive(Debug, Clone)]
pub struct Happening {
    pub audit_id: i64,
    pub league_id: LeagueId,
    pub league_short: String,
    pub league_name: String,
    pub time_zone: String,
    pub entity: String,
    pub action: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub by: Option<UserId>,
    pub fixture: Option<FixtureFacts>,
    /// The captains of both teams and the league's secretaries with a
    /// verified address.
    pub people: Vec<Person>,
}

/// A fixture as a notice names it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FixtureFacts {
    pub id: FixtureId,
    pub season_id: SeasonId,
    pub home_team_id: TeamId,
    pub away_team_id: TeamId,
    pub home: String,
    pub away: String,
    pub starts_at: Option<DateTime<Utc>>,
    pub venue: Option<String>,
}

/// Someone a notice may go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub user: UserId,
    pub username: String,
    pub email: String,
    /// `Some(team)` for a captain, `None` for a secretary.
    pub captain_of: Option<TeamId>,
    /// Topics they chose not to be sent.
    pub opted_out: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct HappeningRow {
    audit_id: i64,
    league_id: LeagueId,
    league_short: String,
    league_name: String,
    time_zone: String,
    entity: String,
    entity_id: i64,
    action: String,
    before: Option<String>,
    after: Option<String>,
    user_id: Option<UserId>,
}

#[derive(sqlx::FromRow)]
struct CaptainRow {
    league_id: LeagueId,
    season_id: SeasonId,
    #[sqlx(flatten)]
    person: PersonRow,
}

#[derive(Clone, sqlx::FromRow)]
struct PersonRow {
    user_id: UserId,
    username: String,
    email: String,
    kind: String,
    team_id: Option<TeamId>,
}

/// A fixture whose captains a reminder goes to.
#[derive(Debug, Clone)]
pub struct Overdue {
    pub league_id: LeagueId,
    pub league_short: String,
    pub league_name: String,
    pub time_zone: String,
    /// The season's settings, as stored (its reminder hour).
    pub season_settings: String,
    pub fixture: FixtureFacts,
    /// The current version awaiting confirmation, for a result
    /// unconfirmed; `None` for a result not entered.
    pub version: Option<i64>,
    pub people: Vec<Person>,
}

#[derive(sqlx::FromRow)]
struct OverdueRow {
    league_id: LeagueId,
    league_short: String,
    league_name: String,
    time_zone: String,
    season_settings: String,
    #[sqlx(flatten)]
    fixture: FixtureFacts,
    version: Option<i64>,
}

const FIXTURE_FACTS: &str = "SELECT f.id, f.season_id, f.home_team_id, f.away_team_id, \
     h.name AS home, a.name AS away, f.starts_at, v.name AS venue \
     FROM fixtures f JOIN teams h ON h.id = f.home_team_id JOIN teams a ON a.id = f.away_team_id \
     LEFT JOIN venues v ON v.id = f.venue_id WHERE f.league_id = $1 AND f.id = $2";

/// Captains of the two teams in the season, and the league's secretaries,
/// with a verified address.
const PEOPLE: &str = "SELECT u.id AS user_id, u.username, u.email, r.kind, r.team_id \
     FROM roles r JOIN users u ON u.id = r.user_id \
     WHERE r.league_id = $1 AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL \
     AND ((r.kind = 'captain' AND r.season_id = $2 AND r.team_id IN ($3, $4)) \
          OR r.kind = 'secretary') ORDER BY u.id";

const OPT_OUTS: &str = "SELECT o.user_id, o.topic FROM email_opt_outs o \
     WHERE o.user_id IN (SELECT r.user_id FROM roles r WHERE r.league_id = $1)";

fn people(rows: Vec<PersonRow>, opt_outs: &[(UserId, String)]) -> Vec<Person> {
    let mut out: Vec<Person> = Vec::new();
    for r in rows {
        let captain_of = (r.kind == "captain").then_some(r.team_id).flatten();
        // One person may be secretary and captain: listed once per role.
        if out
            .iter()
            .any(|p| p.user == r.user_id && p.captain_of == captain_of)
        {
            continue;
        }
        out.push(Person {
            user: r.user_id,
            username: r.username,
            email: r.email,
            captain_of,
            opted_out: opt_outs
                .iter()
                .filter(|(u, _)| *u == r.user_id)
                .map(|(_, t)| t.clone())
                .collect(),
        });
    }
    out
}

/// The facts of fixture `fixture`, as a notice names it, in a write.
pub(crate) async fn fixture_facts(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Option<FixtureFacts>> {
    sql::query_as(FIXTURE_FACTS)
        .bind(league)
        .bind(fixture)
        .fetch_optional(&mut *tx)
        .await
}

/// Every captain of `league` with a verified address, with their season
/// and what they opted out of: two queries, whatever the number of teams.
pub(crate) async fn league_captains<'a>(
    on: impl sql::Exec<'a>,
    league: LeagueId,
) -> Result<Vec<(SeasonId, Person)>> {
    let mut on = on.on();
    let rows: Vec<CaptainRow> = sql::query_as(
        "SELECT r.league_id, r.season_id, u.id AS user_id, u.username, u.email, r.kind, r.team_id \
         FROM roles r JOIN users u ON u.id = r.user_id \
         WHERE r.league_id = $1 AND r.kind = 'captain' AND r.season_id IS NOT NULL \
         AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL ORDER BY u.id",
    )
    .bind(league)
    .fetch_all(&mut on)
    .await?;
    let opt_outs: Vec<(UserId, String)> = sql::query_as(OPT_OUTS)
        .bind(league)
        .fetch_all(&mut on)
        .await?;
    Ok(rows
        .into_iter()
        .flat_map(|r| {
            people(vec![r.person], &opt_outs)
                .into_iter()
                .map(move |p| (r.season_id, p))
        })
        .collect())
}

/// The facts of fixture `fixture` and its people.
pub(crate) async fn fixture_people(
    tx: &mut Tx,
    league: LeagueId,
    fixture: i64,
) -> Result<(Option<FixtureFacts>, Vec<Person>)> {
    let facts: Option<FixtureFacts> = sql::query_as(FIXTURE_FACTS)
        .bind(league)
        .bind(fixture)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(f) = facts else {
        return Ok((None, Vec::new()));
    };
    let rows: Vec<PersonRow> = sql::query_as(PEOPLE)
        .bind(league)
        .bind(f.season_id)
        .bind(f.home_team_id)
        .bind(f.away_team_id)
        .fetch_all(&mut *tx)
        .await?;
    let opt_outs: Vec<(UserId, String)> = sql::query_as(OPT_OUTS)
        .bind(league)
        .fetch_all(&mut *tx)
        .await?;
    Ok((Some(f), people(rows, &opt_outs)))
}

impl Db {
    /// An account's address.
    pub async fn contact(&self, user: UserId) -> Result<Contact> {
        sql::query_as::<Contact>(
            "SELECT id, username, email, email_verified_at FROM users WHERE id = $1",
        )
        .bind(user)
        .fetch_optional(self)
        .await?
        .ok_or_else(|| DbError::not_found(format!("user {user}")))
    }

    /// The account whose verified address is `email`, whatever its case.
    pub async fn contact_by_email(&self, email: &str) -> Result<Option<Contact>> {
        sql::query_as::<Contact>(
            "SELECT id, username, email, email_verified_at FROM users \
             WHERE lower(email) = lower($1) AND email_verified_at IS NOT NULL",
        )
        .bind(email)
        .fetch_optional(self)
        .await
    }

    /// Sets an account's address, unverified, and queues the link that
    /// verifies it (`mail`), with its token, in one transaction; every link
    /// sent to the account before (to this address or another) stops
    /// working. An address another account has confirmed is set all the
    /// same (the answer must not tell whether an address is taken) but no
    /// link goes to it: its owner is not mailed for someone else's claim,
    /// and a claim never takes a confirmed address from its owner. Whether
    /// the link was queued.
    pub async fn change_email(
        &self,
        user: UserId,
        email: &str,
        token_hash: &str,
        ttl: Duration,
        mail: &NewMail,
    ) -> Result<bool> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        sql::query("UPDATE users SET email = $2, email_verified_at = NULL WHERE id = $1")
            .bind(user)
            .bind(email)
            .execute(&mut tx)
            .await?;
        end_links(&mut tx, user, at).await?;
        let owned: i64 = sql::query_scalar(
            "SELECT COUNT(*) FROM users WHERE lower(email) = lower($1) \
             AND email_verified_at IS NOT NULL AND id <> $2",
        )
        .bind(email)
        .bind(user)
        .fetch_one(&mut tx)
        .await?;
        let send = owned == 0;
        if send {
            insert_token(
                &mut tx,
                user,
                TokenPurpose::Verify,
                email,
                token_hash,
                at,
                ttl,
            )
            .await?;
            queue(&mut tx, mail).await?;
        }
        tx.commit().await?;
        Ok(send)
    }

    /// Removes an account's address; the links sent to it stop working.
    pub async fn remove_email(&self, user: UserId) -> Result<()> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        sql::query("UPDATE users SET email = NULL, email_verified_at = NULL WHERE id = $1")
            .bind(user)
            .execute(&mut tx)
            .await?;
        end_links(&mut tx, user, at).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Queues a reset or sign-in link (`mail`) with its token, in one
    /// transaction.
    pub async fn send_link(
        &self,
        user: UserId,
        purpose: TokenPurpose,
        email: &str,
        token_hash: &str,
        ttl: Duration,
        mail: &NewMail,
    ) -> Result<()> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        insert_token(&mut tx, user, purpose, email, token_hash, at, ttl).await?;
        queue(&mut tx, mail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether a token is unused and unexpired, without using it (the
    /// page a link opens shows a button first, so a mail scanner's visit
    /// spends nothing).
    pub async fn peek_token(
        &self,
        purpose: TokenPurpose,
        token_hash: &str,
    ) -> Result<Option<UsedToken>> {
        let sql = format!(
            "SELECT t.user_id, u.username, t.email FROM email_tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND t.purpose = $2 AND t.used_at IS NULL AND t.expires_at > $3 \
             AND {STILL_THEIRS}"
        );
        let row: Option<(UserId, String, String)> = sql::query_as(&sql)
            .bind(token_hash)
            .bind(purpose.as_str())
            .bind(now())
            .fetch_optional(self)
            .await?;
        Ok(row.map(|(user, username, email)| UsedToken {
            user,
            username,
            email,
        }))
    }

    /// Spends a token, once: `None` if it is unknown, used or expired, or
    /// if its address is no longer the account's (a sign-in or reset link
    /// works only while the address it went to is the account's confirmed
    /// one). A verification marks its address verified, or is
    /// [`DbError::Unique`] when another account confirmed it first (the
    /// token is then left unspent); a reset sets `new_password_hash`; all
    /// in one transaction.
    pub async fn use_token(
        &self,
        purpose: TokenPurpose,
        token_hash: &str,
        new_password_hash: Option<&str>,
    ) -> Result<Option<UsedToken>> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        let out = {
            let sql = format!(
                "UPDATE email_tokens SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 \
                 AND used_at IS NULL AND expires_at > $3 AND EXISTS (SELECT 1 FROM users u \
                 JOIN email_tokens t ON t.user_id = u.id WHERE t.token_hash = $1 AND {STILL_THEIRS}) \
                 RETURNING user_id, email"
            );
            let used: Option<(UserId, String)> = sql::query_as(&sql)
                .bind(token_hash)
                .bind(purpose.as_str())
                .bind(at)
                .fetch_optional(&mut tx)
                .await?;
            match used {
                None => None,
                Some((user, email)) => {
                    match purpose {
                        TokenPurpose::Verify => confirm_address(&mut tx, user, &email, at).await?,
                        TokenPurpose::Reset => {
                            if let Some(hash) = new_password_hash {
                                sql::query("UPDATE users SET password_hash = $2 WHERE id = $1")
                                    .bind(user)
                                    .bind(hash)
                                    .execute(&mut tx)
                                    .await?;
                            }
                            // Every other reset link of the account dies.
                            sql::query(
                                "UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 \
                                 AND purpose = 'reset' AND used_at IS NULL",
                            )
                            .bind(user)
                            .bind(at)
                            .execute(&mut tx)
                            .await?;
                        }
                        TokenPurpose::SignIn => {}
                    }
                    let username: String =
                        sql::query_scalar("SELECT username FROM users WHERE id = $1")
                            .bind(user)
                            .fetch_one(&mut tx)
                            .await?;
                    Some(UsedToken {
                        user,
                        username,
                        email,
                    })
                }
            }
        };
        tx.commit().await?;
        Ok(out)
    }

    /// Links of `purpose` sent to `user` since `since` (the throttle).
    pub async fn links_sent_since(
        &self,
        user: UserId,
        purpose: TokenPurpose,
        since: DateTime<Utc>,
    ) -> Result<i64> {
        sql::query_scalar(
            "SELECT COUNT(*) FROM email_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > $3",
        )
        .bind(user)
        .bind(purpose.as_str())
        .bind(since)
        .fetch_one(self)
        .await
    }

    /// The topics an account chose not to be sent.
    pub async fn opt_outs(&self, user: UserId) -> Result<Vec<String>> {
        sql::query_scalar("SELECT topic FROM email_opt_outs WHERE user_id = $1 ORDER BY topic")
            .bind(user)
            .fetch_all(self)
            .await
    }

    /// Replaces the topics an account chose not to be sent.
    pub async fn set_opt_outs(&self, user: UserId, topics: &[&str]) -> Result<()> {
        let mut tx = self.write_unseen().await?;
        sql::query("DELETE FROM email_opt_outs WHERE user_id = $1")
            .bind(user)
            .execute(&mut tx)
            .await?;
        for topic in topics {
            sql::query("INSERT INTO email_opt_outs (user_id, topic) VALUES ($1, $2)")
                .bind(user)
                .bind(*topic)
                .execute(&mut tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Turns up to `limit` pending events into messages, as `compose`
    /// words them, and deletes them: one transaction, so each event is
    /// notified once, whichever worker takes it. The number handled.
    pub async fn notify_pending(
        &self,
        limit: i64,
        compose: &(dyn Fn(&Happening) -> Vec<NewMail> + Sync),
    ) -> Result<usize> {
        let claim = self.dialect(
            "SELECT audit_id FROM pending_events ORDER BY audit_id LIMIT $1",
            "SELECT audit_id FROM pending_events ORDER BY audit_id LIMIT $1 \
                       FOR UPDATE SKIP LOCKED",
        );
        let mut tx = self.write_unseen().await?;
        let out = {
            let ids: Vec<i64> = sql::query_scalar(claim)
                .bind(limit)
                .fetch_all(&mut tx)
                .await?;
            for id in &ids {
                let row: HappeningRow = sql::query_as(
                    "SELECT a.id AS audit_id, a.league_id, l.short_name AS league_short, \
                     l.name AS league_name, l.time_zone, a.entity, a.entity_id, a.action, \
                     a.before, a.after, a.user_id \
                     FROM audit a JOIN leagues l ON l.id = a.league_id WHERE a.id = $1",
                )
                .bind(*id)
                .fetch_one(&mut tx)
                .await?;
                let (fixture, people) =
                    fixture_people(&mut tx, row.league_id, row.entity_id).await?;
                let happening = Happening {
                    audit_id: row.audit_id,
                    league_id: row.league_id,
                    league_short: row.league_short,
                    league_name: row.league_name,
                    time_zone: row.time_zone,
                    entity: row.entity,
                    action: row.action,
                    before: row.before,
                    after: row.after,
                    by: row.user_id,
                    fixture,
                    people,
                };
                for mail in compose(&happening) {
                    queue(&mut tx, &mail).await?;
                }
                sql::query("DELETE FROM pending_events WHERE audit_id = $1")
                    .bind(*id)
                    .execute(&mut tx)
                    .await?;
            }
            ids.len()
        };
        tx.commit().await?;
        Ok(out)
    }

    /// Fixtures of every league due a reminder: awaiting a result and
    /// started before `no_result_before`; or with a current result entered
    /// (not confirmed) before `unconfirmed_before`; none from before
    /// `horizon`, none of a closed season (nothing of it can be entered or
    /// confirmed by a captain). With their captains.
    pub async fn overdue_fixtures(
        &self,
        no_result_before: DateTime<Utc>,
        unconfirmed_before: DateTime<Utc>,
        horizon: DateTime<Utc>,
    ) -> Result<Vec<Overdue>> {
        let sql = format!(
            "SELECT l.id AS league_id, l.short_name AS league_short, l.name AS league_name, \
             l.time_zone, s.settings AS season_settings, f.id, f.season_id, f.home_team_id, f.away_team_id, h.name AS home, a.name AS away, \
             f.starts_at, v.name AS venue, cur.version \
             FROM fixtures f JOIN leagues l ON l.id = f.league_id \
             JOIN seasons s ON s.id = f.season_id \
             JOIN teams h ON h.id = f.home_team_id JOIN teams a ON a.id = f.away_team_id \
             LEFT JOIN venues v ON v.id = f.venue_id \
             LEFT JOIN result_versions cur ON cur.fixture_id = f.id AND cur.league_id = f.league_id \
               AND cur.version = (SELECT MAX(x.version) FROM result_versions x \
                                  WHERE x.fixture_id = f.id AND x.league_id = f.league_id) \
             WHERE ({AWAITING_RESULT} AND f.starts_at < $1 AND f.starts_at > $3) \
                OR (cur.status = 'entered' AND cur.created_at < $2 AND cur.created_at > $3 \
                    AND s.closed_at IS NULL) \
             ORDER BY f.id"
        );
        let rows: Vec<OverdueRow> = sql::query_as(&sql)
            .bind(no_result_before)
            .bind(unconfirmed_before)
            .bind(horizon)
            .fetch_all(self)
            .await?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        // Every captain with a verified address, and every opt-out: two
        // queries, whatever the number of fixtures.
        let captains: Vec<CaptainRow> = sql::query_as(
            "SELECT r.league_id, r.season_id, u.id AS user_id, u.username, u.email, r.kind, r.team_id \
             FROM roles r JOIN users u ON u.id = r.user_id \
             WHERE r.kind = 'captain' AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL \
             ORDER BY u.id",
        )
        .fetch_all(self)
        .await?;
        let outs: Vec<(UserId, String)> =
            sql::query_as("SELECT user_id, topic FROM email_opt_outs")
                .fetch_all(self)
                .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let f = &r.fixture;
            let rows: Vec<PersonRow> = captains
                .iter()
                .filter(|c| {
                    c.league_id == r.league_id
                        && c.season_id == f.season_id
                        && [Some(f.home_team_id), Some(f.away_team_id)].contains(&c.person.team_id)
                })
                .map(|c| c.person.clone())
                .collect();
            out.push(Overdue {
                people: people(rows, &outs),
                league_id: r.league_id,
                league_short: r.league_short,
                league_name: r.league_name,
                time_zone: r.time_zone,
                season_settings: r.season_settings,
                fixture: r.fixture,
                version: r.version,
            });
        }
        Ok(out)
    }

    /// Every league's secretaries with a verified address, with what they
    /// opted out of: two queries, whatever the number of leagues.
    pub async fn secretaries_to_tell(&self) -> Result<Vec<(LeagueId, Person)>> {
        let rows: Vec<(LeagueId, UserId, String, String)> = sql::query_as(
            "SELECT r.league_id, u.id, u.username, u.email \
             FROM roles r JOIN users u ON u.id = r.user_id \
             WHERE r.kind = 'secretary' AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL \
             ORDER BY r.league_id, u.id",
        )
        .fetch_all(self)
        .await?;
        let outs: Vec<(UserId, String)> =
            sql::query_as("SELECT user_id, topic FROM email_opt_outs")
                .fetch_all(self)
                .await?;
        Ok(rows
            .into_iter()
            .map(|(league, user, username, email)| {
                let opted_out = outs
                    .iter()
                    .filter(|(u, _)| *u == user)
                    .map(|(_, t)| t.clone())
                    .collect();
                (
                    league,
                    Person {
                        user,
                        username,
                        email,
                        captain_of: None,
                        opted_out,
                    },
                )
            })
            .collect())
    }

    /// Queues messages; each with a key once only. The number queued.
    pub async fn queue_mail(&self, mail: &[NewMail]) -> Result<u64> {
        let mut tx = self.write_unseen().await?;
        let mut queued = 0;
        for m in mail {
            queued += queue(&mut tx, m).await?;
        }
        tx.commit().await?;
        Ok(queued)
    }

    /// Claims up to `limit` messages due at `at` for one worker: each is
    /// put off by `lease` from now (so no other worker takes it meanwhile) and its
    /// attempt counted. One transaction.
    pub async fn claim_mail(
        &self,
        limit: i64,
        lease: Duration,
        at: DateTime<Utc>,
    ) -> Result<Vec<Mail>> {
        let claim = self.dialect(
            "SELECT id FROM mail WHERE status = 'waiting' AND next_attempt_at <= $1 \
                     ORDER BY id LIMIT $2",
            "SELECT id FROM mail WHERE status = 'waiting' AND next_attempt_at <= $1 \
                       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED",
        );
        let update = format!(
            "UPDATE mail SET attempts = attempts + 1, next_attempt_at = $2 WHERE id = $1 \
             RETURNING {MAIL_COLUMNS}"
        );
        let mut tx = self.write_unseen().await?;
        let ids: Vec<i64> = sql::query_scalar(claim)
            .bind(at)
            .bind(limit)
            .fetch_all(&mut tx)
            .await?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let row: MailRow = sql::query_as(&update)
                .bind(id)
                .bind(now() + lease)
                .fetch_one(&mut tx)
                .await?;
            out.push(Mail::try_from(row)?);
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Hands back messages claimed and not sent (their worker is
    /// stopping): due at once again, the claim's attempt not counted.
    pub async fn release_mail(&self, ids: &[i64]) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let at = now();
        let mut tx = self.write_unseen().await?;
        for id in ids {
            sql::query(
                "UPDATE mail SET attempts = attempts - 1, next_attempt_at = $2 \
                 WHERE id = $1 AND status = 'waiting'",
            )
            .bind(*id)
            .bind(at)
            .execute(&mut tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records how a claimed message went: sent, kept, or failed with
    /// `error` (to be tried again from `retry_at`, or given up for good
    /// when `None`).
    pub async fn mail_done(
        &self,
        id: i64,
        status: MailStatus,
        error: Option<&str>,
        retry_at: Option<DateTime<Utc>>,
    ) -> Result<()> {
        let at = now();
        let mut tx = self.write_unseen().await?;
        sql::query(
            "UPDATE mail SET status = $2, last_error = COALESCE($3, last_error), \
                 next_attempt_at = COALESCE($4, next_attempt_at), \
                 sent_at = CASE WHEN $2 = 'sent' THEN $5 ELSE sent_at END WHERE id = $1",
        )
        .bind(id)
        .bind(status.as_str())
        .bind(error)
        .bind(retry_at)
        .bind(at)
        .execute(&mut tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The newest messages, of one league or of every league.
    pub async fn recent_mail(&self, league: Option<LeagueId>, limit: i64) -> Result<Vec<Mail>> {
        let sql = format!(
            "SELECT {MAIL_COLUMNS} FROM mail WHERE ($1 IS NULL OR league_id = $1) \
             ORDER BY id DESC LIMIT $2"
        );
        let rows: Vec<MailRow> = sql::query_as(&sql)
            .bind(league)
            .bind(limit)
            .fetch_all(self)
            .await?;
        rows.into_iter().map(Mail::try_from).collect()
    }

    /// How many messages wait, and how many failed for good.
    pub async fn mail_counts(&self) -> Result<(i64, i64)> {
        sql::query_as(
            "SELECT COALESCE(SUM(CASE WHEN status = 'waiting' THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0) FROM mail",
        )
        .fetch_one(self)
        .await
    }
}
