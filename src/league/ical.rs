//! iCalendar (RFC 5545) feeds of fixtures, written by hand: a calendar of
//! events, its text escaped (`\\`, `\;`, `\,`, `\n`) and its lines folded
//! at 75 octets with CRLF line ends. Pure: the caller gives the time stamp.
//!
//! A subscribed calendar follows a fixture through its changes: each event
//! carries a `SEQUENCE` that rises with every recorded change of its
//! fixture ([`EventState`], from the fixture's audit entries), a fixture
//! postponed and not yet given a new date is `STATUS:CANCELLED` on the date
//! it was to be played, and one given a new date moves there.

use chrono::{DateTime, Utc};

use crate::domain::FixtureStatus;

/// The product that wrote the feed, as `PRODID` names it.
const PRODID: &str = "-//Boneyard//Dominoes league manager//EN";
/// The most octets a content line may have before it is folded.
const LINE_OCTETS: usize = 75;

/// One event of a calendar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Globally unique and stable: the same fixture always has the same one.
    pub uid: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub summary: String,
    pub location: Option<String>,
    pub description: String,
    /// `STATUS:CANCELLED` (a void fixture, or one postponed to no new
    /// date yet) rather than `CONFIRMED`.
    pub cancelled: bool,
    /// Raised whenever the fixture changes, so calendars take the change.
    pub sequence: u32,
    /// When the fixture last changed, if it ever did.
    pub last_modified: Option<DateTime<Utc>>,
}

/// What the calendar needs of a fixture, now or as an audit entry saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixtureFacts {
    pub start: Option<DateTime<Utc>>,
    pub status: FixtureStatus,
}

/// One recorded change of a fixture: as it was before and after (`before`
/// is `None` for its creation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub at: DateTime<Utc>,
    pub before: Option<FixtureFacts>,
    pub after: Option<FixtureFacts>,
}

/// Where and how a fixture's event stands in a feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventState {
    /// The event's start: the fixture's date, or for one postponed to no
    /// date, the date it was to be played.
    pub start: DateTime<Utc>,
    pub cancelled: bool,
    /// The date it was postponed from, when it has moved since.
    pub moved_from: Option<DateTime<Utc>>,
    pub sequence: u32,
    pub last_modified: Option<DateTime<Utc>>,
}

impl EventState {
    /// The event of a fixture as it is `now`, from its recorded `changes`
    /// (oldest first) and the times its division's fixtures were thrown
    /// away (`discards`: a fixture made afterwards may have the id, so the
    /// uid, of one thrown away, and must still count as a change). `None`
    /// when the fixture has never had a date.
    ///
    /// - `SEQUENCE` is the number of changes and discards: it rises with
    ///   every change (date, venue, status, result marked played...).
    /// - Void: cancelled.
    /// - Postponed: cancelled on the date it was to be played, unless it
    ///   has been given another date since it was postponed: then it moves
    ///   there.
    /// - Otherwise: confirmed on its date; `moved_from` says the date it
    ///   was postponed from when it was rearranged.
    pub fn new(now: FixtureFacts, changes: &[Change], discards: usize) -> Option<EventState> {
        let sequence = u32::try_from(changes.len() + discards).unwrap_or(u32::MAX);
        let last_modified = changes.iter().map(|c| c.at).max();
        // The date before the latest postponement.
        let postponed_from = changes
            .iter()
            .rev()
            .find_map(|c| match (c.before, c.after) {
                (Some(b), Some(a))
                    if b.status != FixtureStatus::Postponed
                        && a.status == FixtureStatus::Postponed =>
                {
                    Some(b.start)
                }
                _ => None,
            })
            .flatten();
        let last_known = || {
            changes
                .iter()
                .rev()
                .flat_map(|c| [c.after, c.before])
                .flatten()
                .find_map(|f| f.start)
        };
        let moved = |start: DateTime<Utc>| postponed_from.filter(|from| *from != start);
        let (start, cancelled, moved_from) = match (now.status, now.start) {
            (FixtureStatus::Void, start) => (start.or_else(last_known)?, true, None),
            (FixtureStatus::Postponed, Some(start)) if moved(start).is_some() => {
                (start, false, moved(start))
            }
            (FixtureStatus::Postponed, start) => {
                (start.or(postponed_from).or_else(last_known)?, true, None)
            }
            (_, Some(start)) => (start, false, moved(start)),
            (_, None) => return None,
        };
        Some(EventState {
            start,
            cancelled,
            moved_from,
            sequence,
            last_modified,
        })
    }
}

/// A whole `VCALENDAR` named `name`, every event stamped `stamp`.
pub fn calendar(name: &str, stamp: DateTime<Utc>, events: &[Event]) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&fold(&l));
        out.push_str("\r\n");
    };
    line("BEGIN:VCALENDAR".into());
    line("VERSION:2.0".into());
    line(format!("PRODID:{PRODID}"));
    line("CALSCALE:GREGORIAN".into());
    line("METHOD:PUBLISH".into());
    line(format!("X-WR-CALNAME:{}", escape(name)));
    for e in events {
        line("BEGIN:VEVENT".into());
        line(format!("UID:{}", escape(&e.uid)));
        line(format!("DTSTAMP:{}", utc(stamp)));
        line(format!("SEQUENCE:{}", e.sequence));
        if let Some(t) = e.last_modified {
            line(format!("LAST-MODIFIED:{}", utc(t)));
        }
        line(format!("DTSTART:{}", utc(e.start)));
        line(format!("DTEND:{}", utc(e.end)));
        line(format!("SUMMARY:{}", escape(&e.summary)));
        if let Some(l) = &e.location {
            line(format!("LOCATION:{}", escape(l)));
        }
        line(format!("DESCRIPTION:{}", escape(&e.description)));
        line(format!(
            "STATUS:{}",
            if e.cancelled {
                "CANCELLED"
            } else {
                "CONFIRMED"
            }
        ));
        line("END:VEVENT".into());
    }
    line("END:VCALENDAR".into());
    out
}

/// A time in UTC as the form RFC 5545 calls "form #2": `20260910T193000Z`.
pub fn utc(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// Text as a property value holds it: backslash, semicolon and comma
/// escaped, each line break (CRLF, CR or LF) as `\n`, other control
/// characters left out.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A content line folded so that no line is longer than 75 octets: each
/// continuation is joined with CRLF and one space, which counts in its
/// line's length. A character is never split.
pub fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3);
    let mut used = 0;
    for c in line.chars() {
        let len = c.len_utf8();
        if used + len > LINE_OCTETS {
            out.push_str("\r\n ");
            used = 1;
        }
        out.push(c);
        used += len;
    }
    out
}

/// The content lines of a calendar with their folds undone (the reverse of
/// [`fold`], for reading a feed back).
pub fn unfold(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for raw in text.split("\r\n") {
        if let Some(rest) = raw.strip_prefix([' ', '\t']) {
            if let Some(last) = lines.last_mut() {
                last.push_str(rest);
                continue;
            }
        }
        if !raw.is_empty() {
            lines.push(raw.to_owned());
        }
    }
    lines
}

/// A property value's text with its escapes undone (the reverse of
/// [`escape`]).
pub fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n' | 'N') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    fn event(summary: &str) -> Event {
        Event {
            uid: "fixture-1@paphos.boneyard".into(),
            start: at("2026-09-10T19:30:00Z"),
            end: at("2026-09-10T22:30:00Z"),
            summary: summary.into(),
            location: Some("The Crown, Paphos".into()),
            description: "Round 1\nscheduled".into(),
            cancelled: false,
            sequence: 0,
            last_modified: None,
        }
    }

    fn facts(start: Option<&str>, status: FixtureStatus) -> FixtureFacts {
        FixtureFacts {
            start: start.map(at),
            status,
        }
    }

    fn change(before: FixtureFacts, after: FixtureFacts, when: &str) -> Change {
        Change {
            at: at(when),
            before: Some(before),
            after: Some(after),
        }
    }

    #[test]
    fn a_fixture_never_changed_is_confirmed_at_sequence_zero() {
        let now = facts(Some("2026-10-13T19:00:00Z"), FixtureStatus::Scheduled);
        let e = EventState::new(now, &[], 0).unwrap();
        assert_eq!(
            (e.start, e.cancelled, e.sequence),
            (now.start.unwrap(), false, 0)
        );
        assert_eq!((e.moved_from, e.last_modified), (None, None));
        let undated = facts(None, FixtureStatus::Scheduled);
        assert_eq!(EventState::new(undated, &[], 0), None);
    }

    #[test]
    fn postponed_on_its_date_is_cancelled_there_and_moved_when_given_a_new_one() {
        use FixtureStatus::*;
        let old = "2026-10-13T19:00:00Z";
        let new = "2026-10-29T19:00:00Z";
        // Postponed, the date kept: cancelled on it, one change later.
        let kept = [change(
            facts(Some(old), Scheduled),
            facts(Some(old), Postponed),
            "2026-10-10T09:00:00Z",
        )];
        let e = EventState::new(facts(Some(old), Postponed), &kept, 0).unwrap();
        assert_eq!((e.start, e.cancelled, e.sequence), (at(old), true, 1));
        assert_eq!(e.last_modified, Some(at("2026-10-10T09:00:00Z")));
        // Postponed with its date taken away: still cancelled on the old one.
        let cleared = [change(
            facts(Some(old), Scheduled),
            facts(None, Postponed),
            "2026-10-10T09:00:00Z",
        )];
        let e = EventState::new(facts(None, Postponed), &cleared, 0).unwrap();
        assert_eq!((e.start, e.cancelled), (at(old), true));
        // Then given a new date, still postponed (the demo's way) or
        // scheduled again (the postponement form's): moved, sequence up.
        for status in [Postponed, Scheduled] {
            let mut changes = cleared.to_vec();
            changes.push(change(
                facts(None, Postponed),
                facts(Some(new), status),
                "2026-10-12T09:00:00Z",
            ));
            let e = EventState::new(facts(Some(new), status), &changes, 0).unwrap();
            assert_eq!((e.start, e.cancelled, e.sequence), (at(new), false, 2));
            assert_eq!(e.moved_from, Some(at(old)));
        }
        // Postponed and moved in one change.
        let at_once = [change(
            facts(Some(old), Scheduled),
            facts(Some(new), Postponed),
            "2026-10-10T09:00:00Z",
        )];
        let e = EventState::new(facts(Some(new), Postponed), &at_once, 0).unwrap();
        assert_eq!(
            (e.start, e.cancelled, e.moved_from),
            (at(new), false, Some(at(old)))
        );
    }

    #[test]
    fn void_is_cancelled_and_a_discard_raises_the_sequence() {
        use FixtureStatus::*;
        let d = Some("2026-10-13T19:00:00Z");
        let voided = [change(
            facts(d, Scheduled),
            facts(d, Void),
            "2026-10-14T09:00:00Z",
        )];
        let e = EventState::new(facts(d, Void), &voided, 0).unwrap();
        assert!(e.cancelled);
        let e = EventState::new(facts(d, Scheduled), &[], 2).unwrap();
        assert_eq!(e.sequence, 2);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r"a\b;c,d"), r"a\\b\;c\,d");
        assert_eq!(escape("one\r\ntwo\nthree\rfour"), r"one\ntwo\nthree\nfour");
        assert_eq!(escape("bell\u{7}"), "bell");
        assert_eq!(unescape(&escape("x; y, z\\\nw")), "x; y, z\\\nw");
    }

    #[test]
    fn long_lines_fold_at_75_octets_without_splitting_a_character() {
        let line = format!("SUMMARY:{}", "é".repeat(100));
        let folded = fold(&line);
        for part in folded.split("\r\n") {
            assert!(part.len() <= 75, "{} octets: {part}", part.len());
        }
        assert!(folded.split("\r\n").skip(1).all(|p| p.starts_with(' ')));
        assert_eq!(unfold(&folded), vec![line]);
        assert_eq!(fold("SHORT:x"), "SHORT:x");
        let exact = "X".repeat(75);
        assert_eq!(fold(&exact), exact);
        assert_eq!(fold(&format!("{exact}Y")), format!("{exact}\r\n Y"));
    }

    #[test]
    fn a_calendar_has_crlf_lines_and_reads_back() {
        let long = format!("The Crown, Paphos; {} v Away", "Home ".repeat(20));
        let mut cancelled = event("A v B");
        cancelled.cancelled = true;
        let text = calendar(
            "Premier, 2026/27",
            at("2026-08-01T12:00:00Z"),
            &[event(&long), cancelled],
        );
        assert!(text.ends_with("END:VCALENDAR\r\n"));
        assert!(!text.replace("\r\n", "").contains('\n'));
        assert!(text.split("\r\n").all(|l| l.len() <= 75));
        let lines = unfold(&text);
        assert_eq!(lines.first().unwrap(), "BEGIN:VCALENDAR");
        assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VEVENT").count(), 2);
        let summary = lines
            .iter()
            .find_map(|l| l.strip_prefix("SUMMARY:"))
            .unwrap();
        assert_eq!(unescape(summary), long);
        assert!(lines.contains(&"DTSTART:20260910T193000Z".to_owned()));
        assert!(lines.contains(&"DTSTAMP:20260801T120000Z".to_owned()));
        assert!(lines.contains(&"STATUS:CANCELLED".to_owned()));
        assert!(lines.contains(&"SEQUENCE:0".to_owned()));
        assert!(lines.contains(&r"DESCRIPTION:Round 1\nscheduled".to_owned()));
        assert!(lines.contains(&r"X-WR-CALNAME:Premier\, 2026/27".to_owned()));
    }
}
