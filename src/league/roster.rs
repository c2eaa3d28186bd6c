//! A team's players pasted in one go, a name a line: what saving the list
//! would do to each name, worked out before anything is written, so the
//! secretary sees it first and a save does exactly what was shown.
//!
//! A name matches a player of the league whatever its case and spacing
//! ("ann  SMITH" is Ann Smith); list markers a copied list brings along
//! ("1.", "-", "•") are dropped. A line may give the player's email address
//! after the name ("Ann Smith, ann@example.org" or "Ann Smith
//! <ann@example.org>"): their invitation is then emailed to it.

use crate::domain::email::check_email;

/// The longest name a player may have.
pub const MAX_NAME: usize = 80;
/// The most names one paste may hold: more than any squad.
pub const MAX_LINES: usize = 60;

/// A player of the league, and the team they play for this season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub id: i64,
    pub name: String,
    /// Their team this season: its id and name.
    pub team: Option<(i64, String)>,
}

/// What saving does with one pasted name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A new player, made and registered to the team.
    Create,
    /// An existing player without a team this season, registered.
    Register { id: i64 },
    /// Registered to this team already: nothing to do.
    AlreadyHere { id: i64 },
    /// Registered to another team this season: refused (a transfer moves
    /// a player between teams).
    Elsewhere { id: i64, team: String },
    /// The same person as an earlier line: skipped.
    Repeated { line: usize },
    /// Too long to be a name: refused.
    TooLong,
    /// Holds control characters (a stray tab or NUL from a copy): refused.
    Unreadable,
    /// Its email address cannot be one: refused, with why.
    BadEmail(&'static str),
}

impl Outcome {
    /// Whether this line stops the list from being saved.
    pub fn refuses(&self) -> bool {
        matches!(
            self,
            Outcome::Elsewhere { .. }
                | Outcome::TooLong
                | Outcome::Unreadable
                | Outcome::BadEmail(_)
        )
    }
}

/// One non-blank pasted line and what saving does with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanLine {
    /// Its line number in the paste, from 1.
    pub line: usize,
    /// The name as it will be kept: an existing player's own spelling.
    pub name: String,
    /// The address given after the name, if any.
    pub email: Option<String>,
    pub outcome: Outcome,
}

/// What a paste is: its lines, or why it cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Lines(Vec<PlanLine>),
    TooMany(usize),
}

/// The name on a pasted line: list markers dropped, spaces tidied.
pub fn clean(line: &str) -> String {
    let mut s = line.trim();
    // "1." / "12)" numbering, then a bullet.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(s.as_bytes().get(digits), Some(b'.' | b')')) {
        s = s[digits + 1..].trim_start();
    }
    for bullet in ["-", "*", "•", "·"] {
        if let Some(rest) = s.strip_prefix(bullet) {
            s = rest.trim_start();
            break;
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A pasted line split into its name and the email address after it:
/// the word with an `@`, whatever separates it (a comma, a tab, angle
/// brackets).
pub fn split_email(line: &str) -> (String, Option<String>) {
    let separators = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '<' | '>');
    let Some(word) = line.split(separators).rev().find(|w| w.contains('@')) else {
        return (line.to_owned(), None);
    };
    let at = line.rfind(word).unwrap_or(0);
    let name = line[..at].trim_end_matches(separators);
    let rest = line[at + word.len()..].trim_matches(separators);
    let name = if rest.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {rest}")
    };
    (name, Some(word.to_owned()))
}

/// The username an invitation suggests for a player (they may choose
/// another when they make the account): `Ann O'Neil` is `ann.oneil`.
pub fn username_for(name: &str) -> String {
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: String = words.join(".").chars().take(40).collect();
    while out.ends_with('.') {
        out.pop();
    }
    if out.chars().count() < 3 {
        out = format!("player.{out}").trim_end_matches('.').to_owned();
    }
    out
}

/// The key two spellings of one name share.
fn key(name: &str) -> String {
    clean(name).to_lowercase()
}

/// What saving `text` as the roster of team `team` would do.
pub fn plan(text: &str, known: &[Known], team: i64) -> Plan {
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, clean(l)))
        .filter(|(_, name)| !name.is_empty())
        .collect();
    let lines: Vec<(usize, String, Option<String>)> = lines
        .into_iter()
        .map(|(line, text)| {
            let (name, email) = split_email(&text);
            (line, clean(&name), email)
        })
        .collect();
    if lines.len() > MAX_LINES {
        return Plan::TooMany(lines.len());
    }
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for (line, name, email) in lines {
        let k = key(&name);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == k) {
            out.push(PlanLine {
                line,
                name,
                email,
                outcome: Outcome::Repeated { line: *first },
            });
            continue;
        }
        if let Some(why) = email.as_deref().and_then(check_email) {
            out.push(PlanLine {
                line,
                name,
                email,
                outcome: Outcome::BadEmail(why),
            });
            continue;
        }
        seen.push((k.clone(), line));
        if name.chars().count() > MAX_NAME {
            out.push(PlanLine {
                line,
                name,
                email,
                outcome: Outcome::TooLong,
            });
            continue;
        }
        if name.chars().any(char::is_control) {
            out.push(PlanLine {
                line,
                name: name.chars().filter(|c| !c.is_control()).collect(),
                email,
                outcome: Outcome::Unreadable,
            });
            continue;
        }
        let (name, outcome) = match known.iter().find(|p| key(&p.name) == k) {
            None => (name, Outcome::Create),
            Some(p) => (
                p.name.clone(),
                match &p.team {
                    None => Outcome::Register { id: p.id },
                    Some((t, _)) if *t == team => Outcome::AlreadyHere { id: p.id },
                    Some((_, team)) => Outcome::Elsewhere {
                        id: p.id,
                        team: team.clone(),
                    },
                },
            ),
        };
        out.push(PlanLine {
            line,
            name,
            email,
            outcome,
        });
    }
    Plan::Lines(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<Known> {
        vec![
            Known {
                id: 1,
                name: "Ann Smith".into(),
                team: None,
            },
            Known {
                id: 2,
                name: "Bob Jones".into(),
                team: Some((10, "Crown A".into())),
            },
            Known {
                id: 3,
                name: "Cy Young".into(),
                team: Some((11, "Plough".into())),
            },
        ]
    }

    fn outcomes(text: &str) -> Vec<(String, Outcome)> {
        match plan(text, &known(), 10) {
            Plan::Lines(lines) => lines.into_iter().map(|l| (l.name, l.outcome)).collect(),
            Plan::TooMany(n) => panic!("too many: {n}"),
        }
    }

    #[test]
    fn each_name_is_made_matched_or_refused() {
        let got = outcomes("ann  SMITH\n\nBob Jones\nDee New\ncy young\n");
        assert_eq!(
            got,
            vec![
                ("Ann Smith".into(), Outcome::Register { id: 1 }),
                ("Bob Jones".into(), Outcome::AlreadyHere { id: 2 }),
                ("Dee New".into(), Outcome::Create),
                (
                    "Cy Young".into(),
                    Outcome::Elsewhere {
                        id: 3,
                        team: "Plough".into()
                    }
                ),
            ]
        );
        assert!(got[3].1.refuses());
        assert!(!got[2].1.refuses());
    }

    #[test]
    fn list_markers_and_repeats_are_dropped() {
        assert_eq!(clean("  1. Dee   New "), "Dee New");
        assert_eq!(clean("12) Dee New"), "Dee New");
        assert_eq!(clean("- Dee New"), "Dee New");
        assert_eq!(clean("• Dee New"), "Dee New");
        // A name that starts with digits and no marker keeps them.
        assert_eq!(clean("2Pac"), "2Pac");
        let got = outcomes("Dee New\n2. dee new");
        assert_eq!(got[1].1, Outcome::Repeated { line: 1 });
    }

    #[test]
    fn an_address_after_a_name_is_kept_apart() {
        assert_eq!(
            split_email("Ann Smith, ann@example.org"),
            ("Ann Smith".into(), Some("ann@example.org".into()))
        );
        assert_eq!(
            split_email("Dee New <dee@pub.example>"),
            ("Dee New".into(), Some("dee@pub.example".into()))
        );
        assert_eq!(split_email("Ann Smith"), ("Ann Smith".into(), None));
        let lines = match plan("ann smith\tann@example.org\nDee New, dee@", &known(), 10) {
            Plan::Lines(lines) => lines,
            Plan::TooMany(n) => panic!("too many: {n}"),
        };
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(lines[0].email.as_deref(), Some("ann@example.org"));
        assert_eq!(lines[0].outcome, Outcome::Register { id: 1 });
        assert!(matches!(lines[1].outcome, Outcome::BadEmail(_)));
        assert!(lines[1].outcome.refuses());
    }

    #[test]
    fn usernames_are_suggested_from_names() {
        assert_eq!(username_for("Ann O'Neil"), "ann.oneil");
        assert_eq!(username_for("  Zoë  Bo "), "zo.bo");
        assert_eq!(username_for("Al"), "player.al");
        assert_eq!(username_for("Ωμέγα"), "player");
    }

    #[test]
    fn long_names_and_long_lists_are_refused() {
        let long = "x".repeat(MAX_NAME + 1);
        assert_eq!(outcomes(&long)[0].1, Outcome::TooLong);
        assert_eq!(outcomes("Ann\u{0}Smith")[0].1, Outcome::Unreadable);
        let many: String = (0..=MAX_LINES).map(|i| format!("Player {i}\n")).collect();
        assert_eq!(plan(&many, &[], 10), Plan::TooMany(MAX_LINES + 1));
    }
}
