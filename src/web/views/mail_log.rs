//! Messages by email as the administrator's and the secretary's pages
//! list them.

use crate::db::mail::{Mail, MailStatus};
use crate::league::time::Zone;

use super::super::dates;

pub struct MailRow {
    pub when: String,
    pub to: String,
    pub subject: String,
    pub topic: String,
    /// In words: "sent Thu 26 Nov 2026, 09:00", "waiting (2 attempts)".
    pub state: String,
    pub failed: bool,
    pub error: String,
}

pub fn mail_rows(mail: &[Mail], zone: Zone) -> Vec<MailRow> {
    mail.iter()
        .map(|m| MailRow {
            when: dates::when(zone, m.created_at),
            to: format!("{} <{}>", m.to_name, m.to_address),
            subject: m.subject.clone(),
            topic: m.topic.clone(),
            state: match m.status {
                MailStatus::Sent => format!(
                    "sent {}",
                    m.sent_at.map(|t| dates::when(zone, t)).unwrap_or_default()
                ),
                MailStatus::Waiting if m.attempts == 0 => "waiting to be sent".into(),
                MailStatus::Waiting => format!(
                    "waiting: {} attempt{} so far, next {}",
                    m.attempts,
                    if m.attempts == 1 { "" } else { "s" },
                    dates::when(zone, m.next_attempt_at)
                ),
                MailStatus::Failed => format!("failed after {} attempts", m.attempts),
                MailStatus::Kept => "kept: no mail server is configured".into(),
            },
            failed: m.status == MailStatus::Failed,
            error: m.last_error.clone().unwrap_or_default(),
        })
        .collect()
}
