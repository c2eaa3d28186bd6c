//! iCalendar (RFC 5545) feeds of fixtures, written by hand: a calendar of
//! events, its text escaped (`\\`, `\;`, `\,`, `\n`) and its lines folded
//! at 75 octets with CRLF line ends. Pure: the caller gives the time stamp.

use chrono::{DateTime, Utc};

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
    /// `STATUS:CANCELLED` (a void fixture) rather than `CONFIRMED`.
    pub cancelled: bool,
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
        }
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
        assert!(lines.contains(&r"DESCRIPTION:Round 1\nscheduled".to_owned()));
        assert!(lines.contains(&r"X-WR-CALNAME:Premier\, 2026/27".to_owned()));
    }
}
