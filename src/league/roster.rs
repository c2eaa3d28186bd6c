//! A team's players pasted in one go, a name a line: what saving the list
//! would do to each name, worked out before anything is written, so the
//! secretary sees it first and a save does exactly what was shown.
//!
//! A name matches a player of the league whatever its case and spacing
//! ("ann  SMITH" is Ann Smith); list markers a copied list brings along
//! ("1.", "-", "•") are dropped. A line may give the player's email address
//! after the name ("Ann Smith, ann@example.org" or "Ann Smith
//! <ann@example.org>"): their invitation is then emailed to it.
//!
//! Rows copied from a spreadsheet keep their other cells apart (issue 39):
//! cells are split at tabs, or else at commas, and a phone number is told
//! from a name and left out, never made part of it. A first row of
//! headings (`Name`, `Email`, `Mobile`, `First name`, `Surname`...) says
//! what each column is; without one, each cell is read for what it holds.

use std::collections::BTreeMap;

use super::columns::{self, Column, ColumnUse, Holds};
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
    /// Nothing on the line reads as a name (a phone number alone): refused.
    NoName,
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
                | Outcome::NoName
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

/// What a paste is: its lines and what each column of them became, or
/// why it cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Lines(Vec<PlanLine>, Vec<ColumnUse>),
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

/// What one column of a line held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Name,
    FirstName,
    LastName,
    Email,
    Phone,
    Unused,
}

impl Part {
    fn words(self) -> &'static str {
        match self {
            Part::Name => Column::Player.words(),
            Part::FirstName => Column::FirstName.words(),
            Part::LastName => Column::LastName.words(),
            Part::Email => Column::Email.words(),
            Part::Phone => Column::Phone.words(),
            Part::Unused => Column::Unused.words(),
        }
    }
}

/// One pasted line read: the name, the address, and what each column
/// (from 0) held.
struct Read {
    name: String,
    email: Option<String>,
    parts: Vec<(usize, Part)>,
}

/// The headings of a first line that names its columns: two cells or
/// more, one of them naming the player (`Name`, `First name`...), none
/// holding an address or a phone number.
fn heading_row(line: &str) -> Option<Vec<(String, Column)>> {
    let cells = columns::line_cells(line);
    if cells.len() < 2
        || cells
            .iter()
            .any(|c| matches!(columns::holds(c), Holds::Email | Holds::Phone))
    {
        return None;
    }
    let headings: Vec<(String, Column)> = cells
        .iter()
        .map(|c| (c.trim().to_owned(), Column::from_heading(c)))
        .collect();
    headings
        .iter()
        .any(|(_, c)| matches!(c, Column::Player | Column::FirstName | Column::LastName))
        .then_some(headings)
}

/// A line read by its cells' looks: the first text is the name (an
/// address or a number inside it kept apart), the first address and the
/// first phone number are theirs, anything else is not used.
fn read_by_looks(line: &str) -> Read {
    let mut read = Read {
        name: String::new(),
        email: None,
        parts: Vec::new(),
    };
    let mut phone = false;
    for (i, cell) in columns::line_cells(line).into_iter().enumerate() {
        let part = match columns::holds(cell) {
            Holds::Empty => continue,
            Holds::Email if read.email.is_none() => {
                read.email = Some(cell.trim().to_owned());
                Part::Email
            }
            Holds::Phone if !phone => {
                phone = true;
                Part::Phone
            }
            Holds::Text if read.name.is_empty() => {
                let cell = columns::name_cell(&clean(cell));
                if cell.email.is_some() && read.email.is_none() {
                    read.email = cell.email;
                    read.parts.push((i, Part::Email));
                }
                if cell.phone.is_some() && !phone {
                    phone = true;
                    read.parts.push((i, Part::Phone));
                }
                read.name = clean(&cell.name);
                Part::Name
            }
            _ => Part::Unused,
        };
        read.parts.push((i, part));
    }
    read
}

/// A line read under a heading row.
fn read_by_headings(line: &str, headings: &[(String, Column)]) -> Read {
    let mut read = Read {
        name: String::new(),
        email: None,
        parts: Vec::new(),
    };
    let (mut first, mut last) = (String::new(), String::new());
    for (i, cell) in columns::line_cells(line).into_iter().enumerate() {
        if cell.trim().is_empty() {
            continue;
        }
        let column = headings.get(i).map_or(Column::Unused, |(_, c)| *c);
        let part = match column {
            Column::Player => {
                let cell = columns::name_cell(&clean(cell));
                read.name = clean(&cell.name);
                if read.email.is_none() {
                    read.email = cell.email;
                }
                Part::Name
            }
            Column::FirstName => {
                first = clean(cell);
                Part::FirstName
            }
            Column::LastName => {
                last = clean(cell);
                Part::LastName
            }
            Column::Email => {
                read.email = Some(cell.trim().to_owned());
                Part::Email
            }
            Column::Phone => Part::Phone,
            _ => Part::Unused,
        };
        read.parts.push((i, part));
    }
    if read.name.is_empty() {
        read.name = clean(&format!("{first} {last}"));
    }
    read
}

/// What the columns became, from what each line's held.
fn column_uses(reads: &[Read], headings: Option<&[(String, Column)]>) -> Vec<ColumnUse> {
    let mut seen: BTreeMap<usize, Vec<Part>> = BTreeMap::new();
    for read in reads {
        for (i, part) in &read.parts {
            let parts = seen.entry(*i).or_default();
            if !parts.contains(part) {
                parts.push(*part);
            }
        }
    }
    seen.into_iter()
        .map(|(i, mut parts)| {
            parts.sort();
            ColumnUse {
                number: i + 1,
                heading: headings.and_then(|h| h.get(i)).map(|(h, _)| h.clone()),
                what: parts
                    .iter()
                    .map(|p| p.words())
                    .collect::<Vec<_>>()
                    .join("; "),
            }
        })
        .collect()
}

/// What saving `text` as the roster of team `team` would do.
pub fn plan(text: &str, known: &[Known], team: i64) -> Plan {
    let mut lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !clean(l).is_empty())
        .collect();
    let headings = lines.first().and_then(|(_, l)| heading_row(l));
    if headings.is_some() {
        lines.remove(0);
    }
    if lines.len() > MAX_LINES {
        return Plan::TooMany(lines.len());
    }
    let reads: Vec<Read> = lines
        .iter()
        .map(|(_, l)| match &headings {
            Some(h) => read_by_headings(l, h),
            None => read_by_looks(l),
        })
        .collect();
    let uses = column_uses(&reads, headings.as_deref());
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for ((line, _), Read { name, email, .. }) in lines.iter().copied().zip(reads) {
        let k = key(&name);
        let outcome = if name.is_empty() {
            Some(Outcome::NoName)
        } else if let Some((_, first)) = seen.iter().find(|(s, _)| *s == k) {
            Some(Outcome::Repeated { line: *first })
        } else {
            email
                .as_deref()
                .and_then(check_email)
                .map(Outcome::BadEmail)
        };
        if let Some(outcome) = outcome {
            out.push(PlanLine {
                line,
                name,
                email,
                outcome,
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
    Plan::Lines(out, uses)
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
            Plan::Lines(lines, _) => lines.into_iter().map(|l| (l.name, l.outcome)).collect(),
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

    fn read(text: &str) -> (Vec<PlanLine>, Vec<ColumnUse>) {
        match plan(text, &known(), 10) {
            Plan::Lines(lines, uses) => (lines, uses),
            Plan::TooMany(n) => panic!("too many: {n}"),
        }
    }

    fn whats(uses: &[ColumnUse]) -> Vec<(usize, &str)> {
        uses.iter().map(|u| (u.number, u.what.as_str())).collect()
    }

    #[test]
    fn an_address_after_a_name_is_kept_apart() {
        let (lines, _) = read("Ann Smith, ann@example.org\nDee New <dee@pub.example>\nAl Bo");
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(lines[0].email.as_deref(), Some("ann@example.org"));
        assert_eq!(lines[1].name, "Dee New");
        assert_eq!(lines[1].email.as_deref(), Some("dee@pub.example"));
        assert_eq!((lines[2].name.as_str(), &lines[2].email), ("Al Bo", &None));
        let (lines, _) = read("ann smith\tann@example.org\nDee New, dee@");
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(lines[0].email.as_deref(), Some("ann@example.org"));
        assert_eq!(lines[0].outcome, Outcome::Register { id: 1 });
        assert!(matches!(lines[1].outcome, Outcome::BadEmail(_)));
        assert!(lines[1].outcome.refuses());
    }

    #[test]
    fn a_phone_number_is_never_part_of_a_name() {
        for text in [
            "Ann Smith\t07700 900001\nDee New\t+44 7700 900002",
            "Ann Smith, 07700 900001\nDee New, +44 7700 900002",
        ] {
            let (lines, uses) = read(text);
            let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
            assert_eq!(names, ["Ann Smith", "Dee New"], "{text}");
            assert_eq!(
                whats(&uses),
                [(1, "the player's name"), (2, "a phone number: not kept")],
                "{text}"
            );
        }
        // The tab turned into spaces: the number is still kept apart.
        let (lines, uses) = read("Ann Smith 07700 900001");
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(
            whats(&uses),
            [(1, "the player's name; a phone number: not kept")]
        );
        // A number alone names nobody.
        let (lines, _) = read("07700 900001");
        assert_eq!(lines[0].outcome, Outcome::NoName);
    }

    #[test]
    fn a_heading_row_names_the_columns() {
        let (lines, uses) = read(
            "First name\tSurname\tMobile\tEmail\tShirt\nAnn\tSmith\t07700 900001\tann@example.org\tL\n",
        );
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(lines[0].line, 2);
        assert_eq!(lines[0].email.as_deref(), Some("ann@example.org"));
        assert_eq!(
            whats(&uses),
            [
                (1, "the player's first name"),
                (2, "the player's surname"),
                (3, "a phone number: not kept"),
                (4, "an email address: the invitation is sent to it"),
                (5, "not used"),
            ]
        );
        assert_eq!(uses[2].heading.as_deref(), Some("Mobile"));
        // Without a heading row, extra text is said to be unused, not
        // added to the name.
        let (lines, uses) = read("Ann Smith\tThe Plough");
        assert_eq!(lines[0].name, "Ann Smith");
        assert_eq!(whats(&uses)[1], (2, "not used"));
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
