//! Sending email (issue 26): a background worker that turns the outbox's
//! pending events into messages, queues the reminders that are due, and
//! sends what waits over SMTP with retries and backoff. With no SMTP
//! server configured, messages are kept (and logged) for the
//! administrator's console instead, so a first run needs nothing else.

use std::time::Duration as StdDuration;

use chrono::{Duration, NaiveTime, Utc};
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::app::mail::{MailConfig, compose, late_result_proposal, one_line, reminders};
use crate::db::mail::{Mail, MailStatus};
use crate::db::{Db, DbError};
use crate::league::notices::{REMINDER_HORIZON, missing_result_due};
use crate::league::settings::SeasonSettings;
use crate::league::time::Zone;

/// How messages leave.
#[derive(Clone)]
pub enum Mailer {
    /// Over SMTP, from this sender.
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
    /// Nowhere: kept in the database and written to the log.
    Keep,
}

impl Mailer {
    /// From `--smtp-url` (`smtp://host:25`, `smtp://user:pass@host:587?tls=required`,
    /// `smtps://host:465`) and the sender's address.
    pub fn smtp(url: &str, from: &str) -> Result<Mailer, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("--smtp-url `{}`: {e}", redact(url)))?
            .timeout(Some(StdDuration::from_secs(20)))
            .build();
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--mail-from `{from}`: {e}"))?;
        Ok(Mailer::Smtp { transport, from })
    }
}

/// An SMTP address without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…{}", &url[..scheme], &url[at..]),
        _ => url.to_owned(),
    }
}

/// The worker's settings.
#[derive(Clone)]
pub struct Worker {
    pub db: Db,
    pub mailer: Mailer,
    pub config: MailConfig,
    /// Attempts before a message is given up as failed.
    pub max_attempts: i64,
    /// The wait after a first failed attempt; doubled after each one.
    pub retry_base: Duration,
    /// How long a claimed message is left to its worker.
    pub lease: Duration,
    /// How long a result waits for confirmation before a reminder.
    pub unconfirmed_after: Duration,
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub events: usize,
    /// Reminders and late-result proposals queued.
    pub reminders: u64,
    pub sent: usize,
    pub kept: usize,
    pub retried: usize,
    pub failed: usize,
}

impl Worker {
    pub fn new(db: Db, mailer: Mailer, config: MailConfig) -> Worker {
        Worker {
            db,
            mailer,
            config,
            max_attempts: 8,
            retry_base: Duration::seconds(30),
            lease: Duration::minutes(5),
            unconfirmed_after: Duration::hours(48),
        }
    }

    /// Runs passes until `stop` says `true` (or its sender is gone): the
    /// message being sent then is sent and recorded, and the others this
    /// worker claimed are handed back at once, for the next server to send
    /// (once), not held until their claim runs out.
    pub async fn run(self, every: StdDuration, mut stop: tokio::sync::watch::Receiver<bool>) {
        loop {
            if *stop.borrow() {
                break;
            }
            if let Err(e) = self.pass_until(&stop).await {
                tracing::warn!("mail worker: {e}");
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                changed = stop.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
        }
        tracing::info!("mail worker stopped");
    }

    /// One pass: events to messages, reminders due, then sending.
    pub async fn pass(&self) -> Result<Pass, DbError> {
        let (_keep, never) = tokio::sync::watch::channel(false);
        self.pass_until(&never).await
    }

    /// A pass that stops sending as soon as `stop` says `true`, handing
    /// back what it claimed and did not send.
    pub async fn pass_until(
        &self,
        stop: &tokio::sync::watch::Receiver<bool>,
    ) -> Result<Pass, DbError> {
        let mut pass = Pass::default();
        loop {
            let config = self.config.clone();
            let n = self
                .db
                .notify_pending(50, &move |h| compose(h, &config))
                .await?;
            pass.events += n;
            if n < 50 {
                break;
            }
        }
        pass.reminders = self.queue_reminders().await?;
        pass.reminders += self.queue_late_results().await?;
        // Each captain's reminder to players who have not said whether
        // they can play, at the time the captain set; once.
        pass.reminders +=
            crate::app::team_sheet::send_due_reminders(&self.db, &self.config).await? as u64;
        // What is due now; a message put off in this pass waits for the next.
        let due = Utc::now();
        loop {
            if *stop.borrow() {
                break;
            }
            let claimed = self.db.claim_mail(20, self.lease, due).await?;
            if claimed.is_empty() {
                break;
            }
            let mut claimed = claimed.into_iter();
            while let Some(mail) = claimed.next() {
                if *stop.borrow() {
                    let rest: Vec<i64> = std::iter::once(mail.id)
                        .chain(claimed.map(|m| m.id))
                        .collect();
                    self.db.release_mail(&rest).await?;
                    return Ok(pass);
                }
                self.deliver(mail, &mut pass).await?;
            }
        }
        Ok(pass)
    }

    /// Queues the reminders now due; each only once, however many passes.
    async fn queue_reminders(&self) -> Result<u64, DbError> {
        let now = Utc::now();
        let unconfirmed_before = now - self.unconfirmed_after;
        // A cheap bound first; the league's own morning decides below.
        let overdue = self
            .db
            .overdue_fixtures(
                now - Duration::hours(6),
                unconfirmed_before,
                unconfirmed_before - REMINDER_HORIZON,
            )
            .await?;
        let mut mail = Vec::new();
        for o in overdue {
            let zone = Zone::parse(&o.time_zone).unwrap_or_default();
            // The season's hour; its default if the stored settings cannot
            // be read (a reminder late beats none).
            let hour = serde_json::from_str(&o.season_settings)
                .ok()
                .and_then(|v| SeasonSettings::parse(&v).ok())
                .unwrap_or_default()
                .reminder_hour;
            let remind_at = NaiveTime::from_hms_opt(hour, 0, 0).unwrap_or(NaiveTime::MIN);
            let due = o.version.is_some()
                || o.fixture
                    .starts_at
                    .is_some_and(|starts| missing_result_due(zone, starts, remind_at, now));
            if due {
                mail.extend(reminders(&o, &self.config));
            }
        }
        if mail.is_empty() {
            return Ok(0);
        }
        self.db.queue_mail(&mail).await
    }

    /// Queues the proposal of each late result's penalty to its league's
    /// secretaries; each only once.
    async fn queue_late_results(&self) -> Result<u64, DbError> {
        let late = self.db.late_results(None, Utc::now()).await?;
        if late.is_empty() {
            return Ok(0);
        }
        let secretaries = self.db.secretaries_to_tell().await?;
        let mut mail = Vec::new();
        for l in &late {
            let people: Vec<_> = secretaries
                .iter()
                .filter(|(league, _)| *league == l.league_id)
                .map(|(_, p)| p.clone())
                .collect();
            mail.extend(late_result_proposal(l, &people, &self.config));
        }
        if mail.is_empty() {
            return Ok(0);
        }
        self.db.queue_mail(&mail).await
    }

    async fn deliver(&self, mail: Mail, pass: &mut Pass) -> Result<(), DbError> {
        let (transport, from) = match &self.mailer {
            Mailer::Keep => {
                tracing::info!(
                    to = %mail.to_address,
                    subject = %mail.subject,
                    "no SMTP server configured: message kept\n{}",
                    mail.text_body
                );
                pass.kept += 1;
                return self
                    .db
                    .mail_done(mail.id, MailStatus::Kept, None, None)
                    .await;
            }
            Mailer::Smtp { transport, from } => (transport, from),
        };
        let outcome = match build(&mail, from) {
            Ok(message) => transport
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| (e.to_string(), e.is_permanent())),
            // A message that cannot be built never will be.
            Err(e) => Err((e, true)),
        };
        match outcome {
            Ok(()) => {
                pass.sent += 1;
                self.db
                    .mail_done(mail.id, MailStatus::Sent, None, None)
                    .await
            }
            Err((error, permanent)) if permanent || mail.attempts >= self.max_attempts => {
                tracing::warn!(to = %mail.to_address, "message failed for good: {error}");
                pass.failed += 1;
                self.db
                    .mail_done(mail.id, MailStatus::Failed, Some(&error), None)
                    .await
            }
            Err((error, _)) => {
                let wait = self.retry_base
                    * 2_i32.pow(u32::try_from(mail.attempts - 1).unwrap_or(0).min(10));
                let wait = wait.min(Duration::hours(6));
                tracing::info!(to = %mail.to_address, "message not sent, trying again in {wait}: {error}");
                pass.retried += 1;
                self.db
                    .mail_done(
                        mail.id,
                        MailStatus::Waiting,
                        Some(&error),
                        Some(Utc::now() + wait),
                    )
                    .await
            }
        }
    }
}

/// The message as sent: plain text and HTML alternatives, the recipient's
/// name encoded by lettre (a name with a line break adds no header).
fn build(mail: &Mail, from: &Mailbox) -> Result<lettre::Message, String> {
    let address: lettre::Address = mail
        .to_address
        .parse()
        .map_err(|e| format!("the address `{}`: {e}", mail.to_address))?;
    // The envelope goes to exactly the address stored, or nowhere: one
    // the library reads as another (an encoded word decoded, say) from
    // before addresses were checked as they are now is never sent.
    if crate::domain::email::check_email(&mail.to_address).is_some()
        || address.to_string() != mail.to_address
    {
        return Err(format!(
            "the address `{}` is not a plain mailbox: not sent",
            mail.to_address
        ));
    }
    let to = Mailbox::new(Some(one_line(&mail.to_name)), address);
    let mut builder = lettre::Message::builder()
        .from(from.clone())
        .to(to)
        .subject(one_line(&mail.subject));
    if let Some(url) = &mail.unsubscribe_url {
        // RFC 2369 and RFC 8058: a mail client's own unsubscribe button
        // posts to this address, no page or sign-in needed.
        builder = builder
            .header(ListUnsubscribe(one_line(url)))
            .header(ListUnsubscribePost);
    }
    builder
        .multipart(MultiPart::alternative_plain_html(
            mail.text_body.clone(),
            mail.html_body.clone(),
        ))
        .map_err(|e| e.to_string())
}

/// `List-Unsubscribe: <https://...>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(
            s.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned(),
        ))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the
/// unsubscribe address takes a POST with no further step.
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}
