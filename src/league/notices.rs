//! Who is told what when a result or a fixture changes (issue 26): the
//! notice an audited change makes, if any, and the topics a person may
//! choose not to be sent. Pure: the change is read from the audit entry's
//! record before and after.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use serde::Deserialize;

use super::overdue::overdue_from;
use super::time::Zone;
use crate::domain::{FixtureStatus, ResultStatus, Side, UserId, VenueId};

/// A kind of message a person may choose not to be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// A result waits for their confirmation.
    Submitted,
    /// Their team's result was disputed or approved.
    Decided,
    /// Their team's fixture was postponed, moved or conceded.
    FixtureChanged,
    /// A result of their team's is late or unconfirmed.
    Reminder,
    /// A late result's penalty is proposed to them (secretaries).
    LateResult,
    /// Whether they can play in a fixture, its one reminder, and (for a
    /// captain) their team being short.
    Availability,
}

impl Topic {
    pub const ALL: [Topic; 6] = [
        Topic::Submitted,
        Topic::Decided,
        Topic::FixtureChanged,
        Topic::Reminder,
        Topic::LateResult,
        Topic::Availability,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Topic::Submitted => "result-submitted",
            Topic::Decided => "result-decided",
            Topic::FixtureChanged => "fixture-changed",
            Topic::Reminder => "reminder",
            Topic::LateResult => "late-result",
            Topic::Availability => "availability",
        }
    }

    /// What the account page's checkbox says.
    pub fn label(self) -> &'static str {
        match self {
            Topic::Submitted => "A result of my team's waits for my confirmation",
            Topic::Decided => "A result of my team's is disputed or approved",
            Topic::FixtureChanged => {
                "My team's fixture is postponed, given a new date or venue, or conceded"
            }
            Topic::Reminder => "Reminders of results not entered or not confirmed",
            Topic::LateResult => "A late result's penalty is proposed to me (secretaries)",
            Topic::Availability => {
                "Whether I can play in my team's next match, and (captains) my team being short"
            }
        }
    }

    pub fn from_key(key: &str) -> Option<Topic> {
        Topic::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// Who a notice goes to (never the person who made the change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Captains of the team(s) the person who made the change does not
    /// captain: "the other captain".
    OtherCaptains,
    /// The captain(s) who entered the version, and the league's secretaries.
    EnteringCaptainAndSecretaries(Option<UserId>),
    /// Both teams' captains.
    BothCaptains,
    /// The league's secretaries.
    Secretaries,
}

/// What happened, as a notice says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Submitted {
        version: i64,
    },
    Disputed {
        version: i64,
        note: String,
    },
    Approved {
        version: i64,
    },
    Postponed,
    NewDate {
        from: Option<DateTime<Utc>>,
        to: Option<DateTime<Utc>>,
    },
    NewVenue,
    Walkover {
        conceded_by: Side,
    },
}

impl Notice {
    pub fn topic(&self) -> Topic {
        match self {
            Notice::Submitted { .. } => Topic::Submitted,
            Notice::Disputed { .. } | Notice::Approved { .. } => Topic::Decided,
            Notice::Postponed
            | Notice::NewDate { .. }
            | Notice::NewVenue
            | Notice::Walkover { .. } => Topic::FixtureChanged,
        }
    }
}

/// The fields of a result version a notice reads.
#[derive(Deserialize)]
struct VersionFacts {
    version: i64,
    status: ResultStatus,
    #[serde(default)]
    status_note: String,
    created_by: Option<UserId>,
}

/// The fields of a fixture a notice reads.
#[derive(Deserialize)]
struct FixtureFacts {
    starts_at: Option<DateTime<Utc>>,
    venue_id: Option<VenueId>,
    status: FixtureStatus,
    conceded_by: Option<Side>,
}

/// A version as audited: alone (a status change) or with its games (an
/// entry, correction or restore).
#[derive(Deserialize)]
#[serde(untagged)]
enum Audited {
    Stored { version: VersionFacts },
    Alone(VersionFacts),
}

fn read<T: for<'a> Deserialize<'a>>(json: Option<&str>) -> Option<T> {
    serde_json::from_str(json?).ok()
}

fn read_version(json: Option<&str>) -> Option<VersionFacts> {
    read::<Audited>(json).map(|a| match a {
        Audited::Stored { version } | Audited::Alone(version) => version,
    })
}

/// The notices an audited change of `entity` makes, with their audience.
/// A record that cannot be read makes none (and is no error: the change
/// itself stands).
pub fn notices(
    entity: &str,
    action: &str,
    before: Option<&str>,
    after: Option<&str>,
) -> Vec<(Notice, Audience)> {
    match entity {
        "result" => result_notices(action, read_version(before), read_version(after)),
        "fixture" => fixture_notices(read(before), read(after)),
        _ => Vec::new(),
    }
}

fn result_notices(
    action: &str,
    before: Option<VersionFacts>,
    after: Option<VersionFacts>,
) -> Vec<(Notice, Audience)> {
    let Some(after) = after else {
        return Vec::new();
    };
    let changed = before
        .as_ref()
        .is_none_or(|b| b.status != after.status || b.version != after.version);
    if !changed {
        return Vec::new();
    }
    let version = after.version;
    match (action, after.status) {
        (_, ResultStatus::Approved) => vec![(Notice::Approved { version }, Audience::BothCaptains)],
        (_, ResultStatus::Disputed) => vec![(
            Notice::Disputed {
                version,
                note: after.status_note,
            },
            Audience::EnteringCaptainAndSecretaries(after.created_by),
        )],
        ("enter" | "correct" | "restore", ResultStatus::Entered) => {
            vec![(Notice::Submitted { version }, Audience::OtherCaptains)]
        }
        _ => Vec::new(),
    }
}

fn fixture_notices(
    before: Option<FixtureFacts>,
    after: Option<FixtureFacts>,
) -> Vec<(Notice, Audience)> {
    let (Some(before), Some(after)) = (before, after) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if before.status != after.status {
        match after.status {
            FixtureStatus::Postponed => out.push(Notice::Postponed),
            FixtureStatus::Walkover => {
                if let Some(side) = after.conceded_by {
                    out.push(Notice::Walkover { conceded_by: side });
                }
            }
            _ => {}
        }
    }
    if before.starts_at != after.starts_at && after.status != FixtureStatus::Postponed {
        out.push(Notice::NewDate {
            from: before.starts_at,
            to: after.starts_at,
        });
    }
    if before.venue_id != after.venue_id {
        out.push(Notice::NewVenue);
    }
    out.into_iter()
        .map(|n| (n, Audience::BothCaptains))
        .collect()
}

/// Reminders are about the last fortnight, not a season's backlog.
pub const REMINDER_HORIZON: Duration = Duration::days(14);

/// Whether a fixture that started at `starts` and has no result is due a
/// reminder at `now`: from `remind_at` (local) the morning after, the
/// first day it is overdue.
pub fn missing_result_due(
    zone: Zone,
    starts: DateTime<Utc>,
    remind_at: NaiveTime,
    now: DateTime<Utc>,
) -> bool {
    let morning_after = zone
        .instant(overdue_from(zone, starts), remind_at)
        .unwrap_or(starts + Duration::days(1));
    now >= morning_after
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn version(n: i64, status: &str, by: i64) -> String {
        json!({"version": n, "status": status, "status_note": "wrong board 3", "created_by": by})
            .to_string()
    }

    fn fixture(status: &str, at: Option<&str>, venue: Option<i64>) -> String {
        json!({"starts_at": at, "venue_id": venue, "status": status, "conceded_by": null})
            .to_string()
    }

    #[test]
    fn a_submission_tells_the_other_captain_and_a_decision_both() {
        let entered = version(1, "entered", 7);
        let stored = json!({"version": serde_json::from_str::<serde_json::Value>(&entered).unwrap(), "result": {}}).to_string();
        let n = notices("result", "enter", None, Some(&stored));
        assert_eq!(
            n,
            vec![(Notice::Submitted { version: 1 }, Audience::OtherCaptains)]
        );
        let disputed = version(1, "disputed", 7);
        let n = notices("result", "status", Some(&entered), Some(&disputed));
        assert_eq!(
            n[0].1,
            Audience::EnteringCaptainAndSecretaries(Some(UserId(7)))
        );
        let approved = version(1, "approved", 7);
        let n = notices("result", "status", Some(&disputed), Some(&approved));
        assert_eq!(
            n,
            vec![(Notice::Approved { version: 1 }, Audience::BothCaptains)]
        );
        // A confirmation waits for the secretary: nobody is emailed.
        let confirmed = version(1, "confirmed", 7);
        assert!(notices("result", "status", Some(&entered), Some(&confirmed)).is_empty());
    }

    #[test]
    fn a_missing_result_is_reminded_from_the_local_morning_after() {
        let zone = Zone::parse("Europe/London").unwrap();
        let nine = NaiveTime::from_hms_opt(9, 0, 0).unwrap();
        // 19:30 BST on a Thursday; 09:00 BST on Friday is 08:00 UTC.
        let starts = "2026-09-10T18:30:00Z".parse().unwrap();
        let at = |t: &str| t.parse::<DateTime<Utc>>().unwrap();
        assert!(!missing_result_due(
            zone,
            starts,
            nine,
            at("2026-09-11T07:59:00Z")
        ));
        assert!(missing_result_due(
            zone,
            starts,
            nine,
            at("2026-09-11T08:00:00Z")
        ));
    }

    #[test]
    fn fixture_changes_are_told_once_each() {
        let at = Some("2026-11-26T19:30:00Z");
        let later = Some("2026-12-03T19:30:00Z");
        let before = fixture("scheduled", at, Some(1));
        let postponed = fixture("postponed", None, Some(1));
        assert_eq!(
            notices("fixture", "change", Some(&before), Some(&postponed)),
            vec![(Notice::Postponed, Audience::BothCaptains)]
        );
        let moved = fixture("scheduled", later, Some(2));
        let n: Vec<Notice> = notices("fixture", "change", Some(&before), Some(&moved))
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert!(matches!(n[0], Notice::NewDate { .. }));
        assert_eq!(n[1], Notice::NewVenue);
        assert!(notices("fixture", "change", Some(&before), Some(&before)).is_empty());
        assert!(notices("fixture", "change", Some("not json"), Some(&before)).is_empty());
    }
}
