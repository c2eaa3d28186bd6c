//! A season set up from one paste or one CSV file (issue 39): the venues,
//! the divisions, the teams entered in them, their players and their
//! captains, worked out before anything is written, so that the secretary
//! sees first what each column became and what saving will make.
//!
//! The first row names the columns, in any order and spelt as people
//! spell them (`Team`, `Player` or `First name` and `Surname`, `Email`,
//! `Captain`, `Venue`, `Division`, `Mobile`...; see
//! [`Column::from_heading`]); cells are separated by tabs (rows copied
//! from a spreadsheet), commas or semicolons. One row a player; a team's
//! venue and division on one of its rows are enough. A phone number is
//! understood and left out; any other column is said to be unused.
//!
//! Teams, divisions, venues and players are matched by name whatever their
//! case and spacing; an unknown team, player, venue or division is made.
//! A player marked captain is named captain of the team, and invited to
//! make their account; a player given an email address is sent their
//! invitation.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::captains::MAX_CAPTAINS;
use super::columns::{self, Column, ColumnUse, Delimiter};
use super::roster::{MAX_NAME, clean};
use crate::addresses::address_clash;
use crate::domain::email::check_email;

/// The most rows one file may hold.
pub const MAX_ROWS: usize = 2000;
/// The longest name of a division (as its form allows).
pub const MAX_DIVISION_NAME: usize = 60;

/// What the league has already, as plain ids and names.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// This season's divisions.
    pub divisions: Vec<(i64, String)>,
    pub venues: Vec<(i64, String)>,
    /// Every team of the league, with its division this season if entered.
    pub teams: Vec<KnownTeam>,
    /// Every player of the league, with their team this season if any.
    pub players: Vec<(i64, String, Option<i64>)>,
    /// This season's captains: team and player.
    pub captains: Vec<(i64, i64)>,
    /// Addresses a division's page may not have (the season's own pages).
    pub taken: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct KnownTeam {
    pub id: i64,
    pub name: String,
    pub division: Option<i64>,
}

/// A venue or division: one the league has, or one to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    Known(i64),
    New(String),
}

/// A team as the file has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPlan {
    pub name: String,
    /// `None`: a new team.
    pub id: Option<i64>,
    /// New teams only: their home venue.
    pub venue: Option<Named>,
    pub division: Named,
    /// Entered in that division already.
    pub entered: bool,
    /// Players the file names for it, by name as kept.
    pub players: Vec<PlayerPlan>,
}

impl TeamPlan {
    /// The players to name captain.
    pub fn new_captains(&self) -> impl Iterator<Item = &PlayerPlan> {
        self.players
            .iter()
            .filter(|p| p.captain && !p.captain_already)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerPlan {
    pub name: String,
    /// `None`: a new player.
    pub id: Option<i64>,
    /// On this team already: nothing to do.
    pub registered: bool,
    /// Where their invitation is emailed, if the file gives an address.
    pub email: Option<String>,
    /// Marked captain of the team.
    pub captain: bool,
    /// A captain of the team this season already.
    pub captain_already: bool,
}

/// The whole file: what each column became, what saving makes, or every
/// reason it cannot be saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlan {
    pub delimiter: Delimiter,
    pub columns: Vec<ColumnUse>,
    /// Venues and divisions to make, in the order the file names them.
    pub new_venues: Vec<String>,
    pub new_divisions: Vec<String>,
    pub teams: Vec<TeamPlan>,
    /// Phone numbers read and left out.
    pub phones: usize,
    pub errors: Vec<String>,
}

impl ImportPlan {
    fn empty(errors: Vec<String>) -> ImportPlan {
        ImportPlan {
            delimiter: Delimiter::Comma,
            columns: Vec::new(),
            new_venues: Vec::new(),
            new_divisions: Vec::new(),
            teams: Vec::new(),
            phones: 0,
            errors,
        }
    }
    pub fn new_teams(&self) -> usize {
        self.teams.iter().filter(|t| t.id.is_none()).count()
    }
    pub fn entries(&self) -> usize {
        self.teams.iter().filter(|t| !t.entered).count()
    }
    pub fn new_players(&self) -> usize {
        self.players().filter(|p| p.id.is_none()).count()
    }
    pub fn registrations(&self) -> usize {
        self.players().filter(|p| !p.registered).count()
    }
    pub fn new_captains(&self) -> usize {
        self.teams.iter().flat_map(TeamPlan::new_captains).count()
    }
    /// Players given an email address.
    pub fn addresses(&self) -> usize {
        self.players().filter(|p| p.email.is_some()).count()
    }
    fn players(&self) -> impl Iterator<Item = &PlayerPlan> {
        self.teams.iter().flat_map(|t| t.players.iter())
    }
}

fn key(name: &str) -> String {
    clean(name).to_lowercase()
}

fn find<'a>(list: &'a [(i64, String)], name: &str) -> Option<&'a (i64, String)> {
    let k = key(name);
    list.iter().find(|(_, n)| key(n) == k)
}

fn names(list: &[(i64, String)]) -> String {
    list.iter()
        .map(|(_, n)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which column holds what: the first column of each kind is used, a
/// second of the same kind is not.
struct Layout {
    at: BTreeMap<Column, usize>,
}

impl Layout {
    fn of(headings: &[String]) -> (Layout, Vec<ColumnUse>) {
        let mut at = BTreeMap::new();
        let mut uses = Vec::with_capacity(headings.len());
        for (i, h) in headings.iter().enumerate() {
            if h.is_empty() {
                continue;
            }
            let column = Column::from_heading(h);
            let what = match at.entry(column) {
                _ if column == Column::Unused => column.words().to_owned(),
                Entry::Occupied(first) => format!(
                    "not used: column {} is {} already",
                    first.get() + 1,
                    column.words()
                ),
                Entry::Vacant(free) => {
                    free.insert(i);
                    column.words().to_owned()
                }
            };
            uses.push(ColumnUse {
                number: i + 1,
                heading: Some(h.clone()),
                what,
            });
        }
        (Layout { at }, uses)
    }

    fn has(&self, c: Column) -> bool {
        self.at.contains_key(&c)
    }
}

/// One row's cells, read.
struct Row {
    team: String,
    player: String,
    email: Option<String>,
    captain: Option<bool>,
    venue: String,
    division: String,
    phones: usize,
}

fn read_row(record: &csv::StringRecord, layout: &Layout) -> Row {
    let cell = |c: Column| {
        layout
            .at
            .get(&c)
            .and_then(|&i| record.get(i))
            .map(clean)
            .unwrap_or_default()
    };
    let named = columns::name_cell(&cell(Column::Player));
    let player = if named.name.is_empty() {
        clean(&format!(
            "{} {}",
            cell(Column::FirstName),
            cell(Column::LastName)
        ))
    } else {
        clean(&named.name)
    };
    let email = Some(cell(Column::Email))
        .filter(|e| !e.is_empty())
        .or(named.email);
    let phones = usize::from(!cell(Column::Phone).is_empty()) + usize::from(named.phone.is_some());
    Row {
        team: cell(Column::Team),
        player,
        email,
        captain: columns::captain_mark(&cell(Column::Captain)),
        venue: cell(Column::Venue),
        division: cell(Column::Division),
        phones,
    }
}

/// What saving `text` would do in a season whose league has `known`.
pub fn plan(text: &str, known: &Known) -> ImportPlan {
    let text = text
        .trim_start_matches('\u{feff}')
        .trim_start_matches(['\r', '\n']);
    let delimiter = Delimiter::sniff(text.lines().next().unwrap_or(""));
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .delimiter(delimiter.byte())
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headings: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|c| c.trim().to_owned()).collect(),
        Err(e) => {
            return ImportPlan::empty(vec![format!("The first row cannot be read: {e}.")]);
        }
    };
    let (layout, uses) = Layout::of(&headings);
    let mut plan = ImportPlan {
        delimiter,
        columns: uses,
        ..ImportPlan::empty(Vec::new())
    };
    let names_player =
        layout.has(Column::Player) || layout.has(Column::FirstName) || layout.has(Column::LastName);
    if !layout.has(Column::Team) || !names_player {
        plan.errors.push(format!(
            "The first row must name the columns, with at least Team and Player (and Email, \
             Captain, Venue, Division as you have them); it has: {}.",
            headings.join(", ")
        ));
        return plan;
    }
    let mut teams: BTreeMap<String, TeamPlan> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    // Which team each player is given to, and on which row.
    let mut players_seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for (i, record) in reader.records().enumerate() {
        let row = i + 2;
        if row > MAX_ROWS + 1 {
            plan.errors
                .push(format!("More than {MAX_ROWS} rows: split the file."));
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                plan.errors.push(format!("Row {row} cannot be read: {e}."));
                continue;
            }
        };
        let r = read_row(&record, &layout);
        plan.phones += r.phones;
        let (team, player) = (&r.team, &r.player);
        if team.is_empty() && player.is_empty() {
            continue;
        }
        if team.is_empty() {
            plan.errors
                .push(format!("Row {row}: the player {player} has no team."));
            continue;
        }
        if [team, player, &r.venue]
            .iter()
            .any(|n| n.chars().count() > MAX_NAME)
        {
            plan.errors.push(format!(
                "Row {row}: a name is longer than {MAX_NAME} characters."
            ));
            continue;
        }
        if [team, player, &r.division, &r.venue]
            .iter()
            .any(|c| c.chars().any(char::is_control))
        {
            plan.errors.push(format!(
                "Row {row}: a cell holds characters that are not part of a name."
            ));
            continue;
        }
        let Some(captain) = r.captain else {
            plan.errors.push(format!(
                "Row {row}: the captain column says `{}`: write yes (or x) for a captain, or \
                 leave it empty.",
                layout
                    .at
                    .get(&Column::Captain)
                    .and_then(|&c| record.get(c))
                    .unwrap_or_default()
            ));
            continue;
        };
        let tk = key(team);
        if !teams.contains_key(&tk) {
            let Some(t) = team_plan(row, &r, known, &mut plan) else {
                continue;
            };
            teams.insert(tk.clone(), t);
            order.push(tk.clone());
        } else {
            let t = &teams[&tk];
            if !r.division.is_empty() && !same(&t.division, &r.division, &known.divisions) {
                plan.errors.push(format!(
                    "Row {row}: {team} is given another division than on an earlier row."
                ));
            }
            if t.venue.is_none() && t.id.is_none() && !r.venue.is_empty() {
                let venue = venue(&r.venue, known, &mut plan);
                teams.get_mut(&tk).expect("there").venue = Some(venue);
            }
        }
        if player.is_empty() {
            if captain {
                plan.errors.push(format!(
                    "Row {row}: marked captain, but the row names no player."
                ));
            }
            continue;
        }
        let email = match r.email {
            Some(e) => match check_email(&e) {
                Some(why) => {
                    plan.errors
                        .push(format!("Row {row}: the email of {player}: {why}"));
                    continue;
                }
                None => Some(e),
            },
            None => None,
        };
        let pk = key(player);
        if let Some((other, first)) = players_seen.get(&pk) {
            if *other != tk {
                plan.errors.push(format!(
                    "Row {row}: {player} is on row {first} for another team: a player plays \
                     for one team a season."
                ));
            }
            continue;
        }
        players_seen.insert(pk.clone(), (tk.clone(), row));
        let t = teams.get_mut(&tk).expect("inserted above");
        match known.players.iter().find(|(_, n, _)| key(n) == pk) {
            None => t.players.push(PlayerPlan {
                name: player.clone(),
                id: None,
                registered: false,
                email,
                captain,
                captain_already: false,
            }),
            Some((id, name, on)) => {
                let here = t.id.is_some() && *on == t.id;
                if on.is_some() && !here {
                    let with = known
                        .teams
                        .iter()
                        .find(|k| Some(k.id) == *on)
                        .map_or("another team", |k| k.name.as_str());
                    plan.errors.push(format!(
                        "Row {row}: {name} is registered to {with} this season (move them \
                         with a transfer)."
                    ));
                    continue;
                }
                t.players.push(PlayerPlan {
                    name: name.clone(),
                    id: Some(*id),
                    registered: here,
                    email,
                    captain,
                    captain_already: here
                        && known
                            .captains
                            .iter()
                            .any(|&(team, p)| Some(team) == t.id && p == *id),
                });
            }
        }
    }
    let teams: Vec<TeamPlan> = order.into_iter().filter_map(|k| teams.remove(&k)).collect();
    for t in &teams {
        let already = t.id.map_or(0, |id| {
            known
                .captains
                .iter()
                .filter(|(team, _)| *team == id)
                .count()
        });
        let total = already + t.new_captains().count();
        if total > MAX_CAPTAINS as usize {
            plan.errors.push(format!(
                "{} would have {total} captains{}: a team has {MAX_CAPTAINS} at most.",
                t.name,
                if already > 0 {
                    format!(" ({already} already)")
                } else {
                    String::new()
                }
            ));
        }
    }
    if teams.is_empty() && plan.errors.is_empty() {
        plan.errors
            .push("The file has no rows under its first.".into());
    }
    plan.teams = teams;
    plan
}

/// Whether the division `named` on a later row is the one a team has.
fn same(division: &Named, named: &str, known: &[(i64, String)]) -> bool {
    match division {
        Named::Known(id) => find(known, named).map(|d| d.0) == Some(*id),
        Named::New(name) => key(name) == key(named),
    }
}

/// The venue `name` names: the league's, or one to make.
fn venue(name: &str, known: &Known, plan: &mut ImportPlan) -> Named {
    if let Some(v) = find(&known.venues, name) {
        return Named::Known(v.0);
    }
    match plan.new_venues.iter().find(|v| key(v) == key(name)) {
        Some(v) => Named::New(v.clone()),
        None => {
            plan.new_venues.push(name.to_owned());
            Named::New(name.to_owned())
        }
    }
}

/// The division `name` names: the season's, or one to make, or `None`
/// with the reason added.
fn division(row: usize, name: &str, known: &Known, plan: &mut ImportPlan) -> Option<Named> {
    if let Some(d) = find(&known.divisions, name) {
        return Some(Named::Known(d.0));
    }
    if let Some(d) = plan.new_divisions.iter().find(|d| key(d) == key(name)) {
        return Some(Named::New(d.clone()));
    }
    if name.chars().count() > MAX_DIVISION_NAME {
        plan.errors.push(format!(
            "Row {row}: a division's name is longer than {MAX_DIVISION_NAME} characters."
        ));
        return None;
    }
    let siblings: Vec<&str> = known
        .divisions
        .iter()
        .map(|(_, n)| n.as_str())
        .chain(plan.new_divisions.iter().map(String::as_str))
        .collect();
    let taken: Vec<&str> = known.taken.iter().map(String::as_str).collect();
    if let Some(why) = address_clash(name, &siblings, &taken) {
        plan.errors
            .push(format!("Row {row}: the division `{name}`: {why}"));
        return None;
    }
    plan.new_divisions.push(name.to_owned());
    Some(Named::New(name.to_owned()))
}

/// The plan of a team on its first row, or `None` with the reason added.
fn team_plan(row: usize, r: &Row, known: &Known, plan: &mut ImportPlan) -> Option<TeamPlan> {
    let team = r.team.as_str();
    let existing = known.teams.iter().find(|k| key(&k.name) == key(team));
    let entered = existing.and_then(|t| t.division);
    let division = match (entered, r.division.is_empty()) {
        (Some(e), false) if find(&known.divisions, &r.division).map(|d| d.0) != Some(e) => {
            plan.errors.push(format!(
                "Row {row}: {team} is entered in another division this season already."
            ));
            return None;
        }
        (Some(e), _) => Named::Known(e),
        (None, false) => division(row, &r.division, known, plan)?,
        (None, true) if known.divisions.len() == 1 && plan.new_divisions.is_empty() => {
            Named::Known(known.divisions[0].0)
        }
        (None, true) => {
            plan.errors.push(if known.divisions.is_empty() {
                format!(
                    "Row {row}: say which division {team} plays in (a Division column; the \
                     season has none yet, and those it names are made)."
                )
            } else {
                format!(
                    "Row {row}: say which division {team} plays in (a Division column): {}, \
                     or a new one.",
                    names(&known.divisions)
                )
            });
            return None;
        }
    };
    let venue = match (existing, r.venue.is_empty()) {
        (None, false) => Some(venue(&r.venue, known, plan)),
        _ => None,
    };
    Some(TeamPlan {
        name: existing.map_or_else(|| team.to_owned(), |t| t.name.clone()),
        id: existing.map(|t| t.id),
        venue,
        division,
        entered: entered.is_some(),
        players: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Known {
        Known {
            divisions: vec![(1, "Premier".into()), (2, "Division One".into())],
            venues: vec![(5, "The Plough".into())],
            teams: vec![
                KnownTeam {
                    id: 10,
                    name: "Crown A".into(),
                    division: Some(1),
                },
                KnownTeam {
                    id: 11,
                    name: "Anchor".into(),
                    division: None,
                },
            ],
            players: vec![
                (100, "Ann Smith".into(), Some(10)),
                (101, "Bob Jones".into(), None),
            ],
            captains: vec![(10, 100)],
            taken: vec!["honours".into()],
        }
    }

    #[test]
    fn a_file_makes_enters_and_registers() {
        let text = "Team,Player,Division,Venue,Email\n\
                    crown a,ann smith,,\n\
                    Crown A,Cat New,,,cat@example.org\n\
                    Plough B,Bob Jones,Division One,the plough\n\
                    Plough B,Dee New,,\n\
                    Anchor,,premier,\n";
        let p = plan(text, &known());
        assert_eq!(p.errors, Vec::<String>::new());
        assert_eq!(p.teams.len(), 3);
        let crown = &p.teams[0];
        assert_eq!(
            (crown.id, crown.entered, &crown.division),
            (Some(10), true, &Named::Known(1))
        );
        assert_eq!(
            crown.players,
            vec![
                PlayerPlan {
                    name: "Ann Smith".into(),
                    id: Some(100),
                    registered: true,
                    email: None,
                    captain: false,
                    captain_already: true,
                },
                PlayerPlan {
                    name: "Cat New".into(),
                    id: None,
                    registered: false,
                    email: Some("cat@example.org".into()),
                    captain: false,
                    captain_already: false,
                },
            ]
        );
        let plough = &p.teams[1];
        assert_eq!(
            (plough.id, &plough.venue, &plough.division, plough.entered),
            (None, &Some(Named::Known(5)), &Named::Known(2), false)
        );
        assert_eq!(plough.players[0].id, Some(101));
        assert_eq!(
            (p.teams[2].id, &p.teams[2].division),
            (Some(11), &Named::Known(1))
        );
        assert_eq!(
            (
                p.new_teams(),
                p.entries(),
                p.new_players(),
                p.registrations()
            ),
            (1, 2, 2, 3)
        );
        assert!(p.new_venues.is_empty() && p.new_divisions.is_empty());
    }

    #[test]
    fn a_spreadsheets_rows_make_venues_divisions_and_captains() {
        // Copied from a spreadsheet: tabs, headings as people write them, a
        // phone number and a column of notes.
        let text = "\u{feff}Team\tFirst name\tSurname\tMobile\tE-mail\tCaptain?\tHome pub\tDiv\tNotes\n\
                    Swan\tEve\tNew\t07700 900001\teve@example.org\tyes\tThe Swan\tPremier\tsubs paid\n\
                    Swan\tFay\tNew\t07700 900002\t\t\t\t\t\n\
                    Lamb\tGus\tNew\t\tgus@example.org\tx\tThe Lamb\tDivision Two\t\n\
                    Lamb\tHal\tNew\t07700 900003\t\tY\tthe lamb\t\t\n";
        let p = plan(text, &known());
        assert_eq!(p.errors, Vec::<String>::new());
        assert_eq!(p.delimiter, Delimiter::Tab);
        let whats: Vec<(usize, &str)> = p
            .columns
            .iter()
            .map(|c| (c.number, c.what.as_str()))
            .collect();
        assert_eq!(
            whats,
            [
                (1, "the team"),
                (2, "the player's first name"),
                (3, "the player's surname"),
                (4, "a phone number: not kept"),
                (5, "an email address: the invitation is sent to it"),
                (6, "whether the player captains the team"),
                (7, "the team's home venue"),
                (8, "the team's division"),
                (9, "not used"),
            ]
        );
        assert_eq!(p.columns[3].heading.as_deref(), Some("Mobile"));
        assert_eq!(p.new_venues, ["The Swan", "The Lamb"]);
        assert_eq!(p.new_divisions, ["Division Two"]);
        assert_eq!(p.phones, 3);
        let swan = &p.teams[0];
        assert_eq!(swan.venue, Some(Named::New("The Swan".into())));
        assert_eq!(swan.division, Named::Known(1));
        let names: Vec<&str> = swan.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Eve New", "Fay New"]);
        assert!(swan.players[0].captain && !swan.players[1].captain);
        let lamb = &p.teams[1];
        assert_eq!(lamb.division, Named::New("Division Two".into()));
        assert_eq!(lamb.venue, Some(Named::New("The Lamb".into())));
        assert_eq!(lamb.new_captains().count(), 2);
        assert_eq!((p.new_captains(), p.addresses()), (3, 2));
    }

    #[test]
    fn a_phone_number_in_a_players_cell_is_left_out() {
        for text in [
            "Team\tPlayer\tPhone\tDivision\nSwan\tAnn New\t07700 900001\tPremier\n",
            "Team,Player,Phone,Division\nSwan,Ann New,07700 900001,Premier\n",
            "Team,Player,Division\nSwan,Ann New 07700 900001,Premier\n",
        ] {
            let p = plan(text, &known());
            assert_eq!(p.errors, Vec::<String>::new(), "{text}");
            assert_eq!(p.teams[0].players[0].name, "Ann New", "{text}");
            assert_eq!(p.phones, 1, "{text}");
        }
    }

    #[test]
    fn every_mistake_is_named_with_its_row() {
        let text = "team,player,division,venue,email,captain\n\
                    New Team,X One,,\n\
                    Other,Ann Smith,Premier,\n\
                    Third,Y Two,Honours,\n\
                    Fourth,Y Three,Premier,The Moon,,maybe\n\
                    Crown A,Z,Division One,\n\
                    Fifth,Q,Premier,\n\
                    Sixth,q,Premier,\n\
                    ,Lost Soul,,\n\
                    Seventh,Nul\u{0}Name,Premier,\n\
                    Fifth,R,,,r at example\n\
                    Fifth,,,,,yes\n\
                    Crown A,Cap Two,,,,yes\n\
                    Crown A,Cap Three,,,,yes\n";
        let p = plan(text, &known());
        let e = p.errors.join("\n");
        assert!(
            e.contains("Row 2: say which division New Team plays in"),
            "{e}"
        );
        assert!(
            e.contains("Row 3: Ann Smith is registered to Crown A"),
            "{e}"
        );
        assert!(
            e.contains("Row 4: the division `Honours`: The address …/honours belongs to"),
            "{e}"
        );
        assert!(e.contains("Row 5: the captain column says `maybe`"), "{e}");
        assert!(
            e.contains("Row 6: Crown A is entered in another division"),
            "{e}"
        );
        assert!(e.contains("Row 8: q is on row 7 for another team"), "{e}");
        assert!(
            e.contains("Row 9: the player Lost Soul has no team."),
            "{e}"
        );
        assert!(e.contains("Row 10: a cell holds characters"), "{e}");
        assert!(
            e.contains("Row 11: the email of R: An email address has an @"),
            "{e}"
        );
        assert!(
            e.contains("Row 12: marked captain, but the row names no player."),
            "{e}"
        );
        assert!(
            e.contains("Crown A would have 3 captains (1 already): a team has 2 at most."),
            "{e}"
        );
    }

    #[test]
    fn a_file_without_the_columns_says_what_it_has() {
        // `club` is a team, `name` a player: only the division is missing.
        let p = plan("name,club\nAnn,Crown\n", &known());
        assert!(
            p.errors[0].contains("say which division Crown plays in"),
            "{:?}",
            p.errors
        );
        let p = plan("who,where\nAnn,Crown\n", &known());
        assert!(p.errors[0].contains("it has: who, where"), "{:?}", p.errors);
        let p = plan("", &known());
        assert!(!p.errors.is_empty());
    }
}
