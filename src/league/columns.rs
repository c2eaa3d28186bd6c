//! A spreadsheet's rows as a secretary pastes or exports them (issue 39):
//! which character separates the cells, what each heading names, and what
//! a cell holds when nothing names it (an email address, a phone number, a
//! name). A phone number is understood and left out; it never becomes part
//! of a name.

use crate::domain::email::check_email;

/// What separates the cells of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delimiter {
    /// Cells copied from a spreadsheet.
    Tab,
    /// A CSV file.
    Comma,
    /// A CSV file saved where the comma is the decimal mark.
    Semicolon,
}

impl Delimiter {
    /// The delimiter of text whose first row is `first`: a tab if it has
    /// one, else whichever of comma and semicolon it has more of.
    pub fn sniff(first: &str) -> Delimiter {
        if first.contains('\t') {
            Delimiter::Tab
        } else if first.matches(';').count() > first.matches(',').count() {
            Delimiter::Semicolon
        } else {
            Delimiter::Comma
        }
    }

    pub fn byte(self) -> u8 {
        match self {
            Delimiter::Tab => b'\t',
            Delimiter::Comma => b',',
            Delimiter::Semicolon => b';',
        }
    }

    /// In words, for the preview.
    pub fn words(self) -> &'static str {
        match self {
            Delimiter::Tab => "tabs between the cells, as a spreadsheet copies them",
            Delimiter::Comma => "commas between the cells, as in a CSV file",
            Delimiter::Semicolon => "semicolons between the cells, as in some CSV files",
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Column {
    Team,
    /// The player's whole name.
    Player,
    FirstName,
    LastName,
    Email,
    /// Understood, and not kept: the league has no use for it.
    Phone,
    /// Whether the player captains the team.
    Captain,
    Venue,
    Division,
    /// Anything else: left out, and the preview says so.
    Unused,
}

impl Column {
    /// The column a heading names, whatever its case, spacing and
    /// punctuation (`E-mail address` is [`Column::Email`]).
    pub fn from_heading(heading: &str) -> Column {
        let h: String = heading
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        match h.as_str() {
            "team" | "teamname" | "club" | "side" | "squad" => Column::Team,
            "player" | "players" | "name" | "playername" | "playersname" | "fullname"
            | "member" => Column::Player,
            "firstname" | "forename" | "givenname" | "first" | "christianname" => Column::FirstName,
            "surname" | "lastname" | "familyname" | "last" => Column::LastName,
            "email" | "emailaddress" | "mail" | "emails" => Column::Email,
            "phone" | "phonenumber" | "telephone" | "tel" | "telno" | "mobile" | "mobilenumber"
            | "mobileno" | "mob" | "cell" | "contactnumber" | "number" | "phoneno" => Column::Phone,
            "captain" | "capt" | "captains" | "role" | "iscaptain" => Column::Captain,
            "venue" | "homevenue" | "pub" | "homepub" | "ground" | "home" | "venuename" => {
                Column::Venue
            }
            "division" | "div" | "divisionname" | "section" => Column::Division,
            _ => Column::Unused,
        }
    }

    /// What the column became, in words for the preview.
    pub fn words(self) -> &'static str {
        match self {
            Column::Team => "the team",
            Column::Player => "the player's name",
            Column::FirstName => "the player's first name",
            Column::LastName => "the player's surname",
            Column::Email => "an email address: the invitation is sent to it",
            Column::Phone => "a phone number: not kept",
            Column::Captain => "whether the player captains the team",
            Column::Venue => "the team's home venue",
            Column::Division => "the team's division",
            Column::Unused => "not used",
        }
    }
}

/// A column of the paste and what it became, for the preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnUse {
    /// From 1, left to right.
    pub number: usize,
    /// Its heading, if the paste has a heading row.
    pub heading: Option<String>,
    pub what: String,
}

/// Whether a cell is a phone number: digits with the spaces, dashes,
/// dots, brackets and `+` people write them with, at least 6 digits.
pub fn is_phone(cell: &str) -> bool {
    let cell = cell.trim();
    let digits = cell.chars().filter(char::is_ascii_digit).count();
    digits >= 6
        && cell
            .chars()
            .all(|c| c.is_ascii_digit() || " +-.()/".contains(c))
}

/// A name cell split from a phone number after it, when the tab between
/// them became spaces: `Ann Smith 07700 900001`.
pub fn split_phone(text: &str) -> (String, Option<String>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    // The longest run of words at the end that reads as one phone number,
    // after words with a letter in them (a name).
    let start = (1..words.len())
        .find(|&i| {
            words[..i]
                .iter()
                .any(|w| w.chars().any(char::is_alphabetic))
                && is_phone(&words[i..].join(" "))
        })
        .unwrap_or(words.len());
    if start == words.len() {
        return (text.trim().to_owned(), None);
    }
    (words[..start].join(" "), Some(words[start..].join(" ")))
}

/// A cell split into the name and the email address in it, whatever
/// separates them (a comma, a space, angle brackets):
/// `Dee New <dee@pub.example>`.
pub fn split_email(cell: &str) -> (String, Option<String>) {
    let separators = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '<' | '>');
    let Some(word) = cell.split(separators).rev().find(|w| w.contains('@')) else {
        return (cell.to_owned(), None);
    };
    let at = cell.rfind(word).unwrap_or(0);
    let name = cell[..at].trim_end_matches(separators);
    let rest = cell[at + word.len()..].trim_matches(separators);
    let name = if rest.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {rest}")
    };
    (name, Some(word.to_owned()))
}

/// A cell of a player's name as pasted: the name, and what else was in
/// it (an email address, a phone number), each kept apart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameCell {
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
}

pub fn name_cell(cell: &str) -> NameCell {
    let (rest, email) = split_email(cell);
    let (name, phone) = split_phone(&rest);
    NameCell { name, email, phone }
}

/// What a cell of a row without headings holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    Empty,
    Email,
    Phone,
    Text,
}

pub fn holds(cell: &str) -> Holds {
    let cell = cell.trim();
    if cell.is_empty() {
        Holds::Empty
    } else if !cell.contains(char::is_whitespace) && cell.contains('@') {
        Holds::Email
    } else if is_phone(cell) {
        Holds::Phone
    } else {
        Holds::Text
    }
}

/// The cells of one pasted line without headings: split at tabs if it has
/// any, else at commas and semicolons, else the whole line.
pub fn line_cells(line: &str) -> Vec<&str> {
    if line.contains('\t') {
        line.split('\t').collect()
    } else if line.contains([',', ';']) {
        line.split([',', ';']).collect()
    } else {
        vec![line]
    }
}

/// A captain column's cell: `Some(true)` for a mark that says yes
/// (`yes`, `y`, `x`, `captain`, `c`, `1`, a tick), `Some(false)` for an
/// empty cell or a no (`no`, `n`, `0`, `player`, `-`), `None` otherwise.
pub fn captain_mark(cell: &str) -> Option<bool> {
    let c = cell.trim().to_lowercase();
    match c.as_str() {
        "yes" | "y" | "x" | "captain" | "capt" | "c" | "1" | "true" | "✓" | "✔" | "*" => {
            Some(true)
        }
        "" | "no" | "n" | "0" | "false" | "player" | "-" => Some(false),
        _ => None,
    }
}

/// Why an email cell cannot be an address, or `None`.
pub fn email_fault(cell: &str) -> Option<&'static str> {
    check_email(cell.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spreadsheets_tabs_win_over_commas() {
        assert_eq!(Delimiter::sniff("Team\tPlayer, Esq"), Delimiter::Tab);
        assert_eq!(Delimiter::sniff("team,player"), Delimiter::Comma);
        assert_eq!(
            Delimiter::sniff("team;player;note, x"),
            Delimiter::Semicolon
        );
    }

    #[test]
    fn headings_are_read_whatever_their_spelling() {
        for (h, c) in [
            ("Team", Column::Team),
            (" PLAYER NAME ", Column::Player),
            ("E-mail address", Column::Email),
            ("Mobile No.", Column::Phone),
            ("Tel", Column::Phone),
            ("Surname", Column::LastName),
            ("First name", Column::FirstName),
            ("Captain?", Column::Captain),
            ("Home venue", Column::Venue),
            ("Div", Column::Division),
            ("Notes", Column::Unused),
        ] {
            assert_eq!(Column::from_heading(h), c, "{h}");
        }
    }

    #[test]
    fn a_phone_number_is_told_from_a_name() {
        for phone in [
            "07700 900001",
            "+44 7700 900001",
            "(01632) 960 004",
            "0121-496-0000",
        ] {
            assert!(is_phone(phone), "{phone}");
        }
        for not in ["Ann Smith", "2Pac", "12345", "Ann 07700 900001", ""] {
            assert!(!is_phone(not), "{not}");
        }
        assert_eq!(
            split_phone("Ann Smith 07700 900001"),
            ("Ann Smith".into(), Some("07700 900001".into()))
        );
        assert_eq!(
            split_phone("Ann Smith +44 (0)7700 900001"),
            ("Ann Smith".into(), Some("+44 (0)7700 900001".into()))
        );
        assert_eq!(split_phone("Ann Smith"), ("Ann Smith".into(), None));
        // A number alone is not taken from nothing.
        assert_eq!(split_phone("07700 900001"), ("07700 900001".into(), None));
    }

    #[test]
    fn a_name_cell_keeps_its_address_and_number_apart() {
        assert_eq!(
            name_cell("Dee New <dee@pub.example> 07700 900001"),
            NameCell {
                name: "Dee New".into(),
                email: Some("dee@pub.example".into()),
                phone: Some("07700 900001".into()),
            }
        );
    }

    #[test]
    fn cells_are_what_they_look_like() {
        assert_eq!(
            line_cells("Ann Smith\t07700 900001"),
            ["Ann Smith", "07700 900001"]
        );
        assert_eq!(
            line_cells("Ann Smith, 07700 900001"),
            ["Ann Smith", " 07700 900001"]
        );
        assert_eq!(line_cells("Ann Smith"), ["Ann Smith"]);
        assert_eq!(holds(" 07700 900001"), Holds::Phone);
        assert_eq!(holds("ann@example.org"), Holds::Email);
        assert_eq!(holds("Ann Smith"), Holds::Text);
        assert_eq!(holds("  "), Holds::Empty);
    }

    #[test]
    fn a_captains_mark_is_yes_no_or_unreadable() {
        assert_eq!(captain_mark("Yes"), Some(true));
        assert_eq!(captain_mark(" x "), Some(true));
        assert_eq!(captain_mark("✓"), Some(true));
        assert_eq!(captain_mark(""), Some(false));
        assert_eq!(captain_mark("player"), Some(false));
        assert_eq!(captain_mark("maybe"), None);
    }
}
