//! Teams and players of a season read from a CSV file (a spreadsheet's
//! export): what saving it would do, worked out before anything is
//! written. Columns, in any order, named on the first row: `team` and
//! `player` (needed), `division`, `venue` and `email` (optional). A row
//! with a team and no player enters the team only; a player's email address
//! is where their invitation is sent.
//!
//! Teams, divisions, venues and players are matched by name whatever their
//! case and spacing; an unknown team or player is made; an unknown
//! division or venue is an error, since the secretary makes those first.

use std::collections::BTreeMap;

use super::roster::{MAX_NAME, clean};
use crate::domain::email::check_email;

/// The most rows one file may hold.
pub const MAX_ROWS: usize = 2000;

/// What the league has already, as plain ids and names.
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub divisions: Vec<(i64, String)>,
    pub venues: Vec<(i64, String)>,
    /// Every team of the league, with its division this season if entered.
    pub teams: Vec<KnownTeam>,
    /// Every player of the league, with their team this season if any.
    pub players: Vec<(i64, String, Option<i64>)>,
}

#[derive(Debug, Clone)]
pub struct KnownTeam {
    pub id: i64,
    pub name: String,
    pub division: Option<i64>,
}

/// A team as the file has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPlan {
    pub name: String,
    /// `None`: a new team.
    pub id: Option<i64>,
    /// New teams only: their home venue.
    pub venue: Option<i64>,
    pub division: i64,
    /// Entered in that division already.
    pub entered: bool,
    /// Players the file names for it, by name as kept.
    pub players: Vec<PlayerPlan>,
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
}

/// The whole file: its teams, or every reason it cannot be saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlan {
    pub teams: Vec<TeamPlan>,
    pub errors: Vec<String>,
}

impl ImportPlan {
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

/// What saving `text` would do in a season whose league has `known`.
pub fn plan(text: &str, known: &Known) -> ImportPlan {
    let mut errors = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|c| c.trim().to_lowercase()).collect(),
        Err(e) => {
            errors.push(format!("The first row cannot be read: {e}."));
            return ImportPlan {
                teams: Vec::new(),
                errors,
            };
        }
    };
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (Some(team_col), player_col) = (col("team"), col("player")) else {
        errors.push(format!(
            "The first row must name the columns, with at least `team` (and `player`, \
             `division`, `venue` as needed); it has: {}.",
            headers.join(", ")
        ));
        return ImportPlan {
            teams: Vec::new(),
            errors,
        };
    };
    let (division_col, venue_col, email_col) = (col("division"), col("venue"), col("email"));
    let mut teams: BTreeMap<String, TeamPlan> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    // Which team each player is given to, and on which row.
    let mut players_seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for (i, record) in reader.records().enumerate() {
        let row = i + 2;
        if row > MAX_ROWS + 1 {
            errors.push(format!("More than {MAX_ROWS} rows: split the file."));
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("Row {row} cannot be read: {e}."));
                continue;
            }
        };
        let cell = |c: Option<usize>| c.and_then(|c| record.get(c)).map(clean).unwrap_or_default();
        let (team, player, division, venue) = (
            cell(Some(team_col)),
            cell(player_col),
            cell(division_col),
            cell(venue_col),
        );
        if team.is_empty() && player.is_empty() {
            continue;
        }
        if team.is_empty() {
            errors.push(format!("Row {row}: the player {player} has no team."));
            continue;
        }
        if team.chars().count() > MAX_NAME || player.chars().count() > MAX_NAME {
            errors.push(format!(
                "Row {row}: a name is longer than {MAX_NAME} characters."
            ));
            continue;
        }
        if [&team, &player, &division, &venue]
            .iter()
            .any(|c| c.chars().any(char::is_control))
        {
            errors.push(format!(
                "Row {row}: a cell holds characters that are not part of a name."
            ));
            continue;
        }
        let tk = key(&team);
        if !teams.contains_key(&tk) {
            let Some(plan) = team_plan(row, &team, &division, &venue, known, &mut errors) else {
                continue;
            };
            teams.insert(tk.clone(), plan);
            order.push(tk.clone());
        } else if !division.is_empty() {
            let t = &teams[&tk];
            if find(&known.divisions, &division).map(|d| d.0) != Some(t.division) {
                errors.push(format!(
                    "Row {row}: {team} is given another division than on an earlier row."
                ));
            }
        }
        if player.is_empty() {
            continue;
        }
        let email = cell(email_col);
        let email = if email.is_empty() {
            None
        } else if let Some(why) = check_email(&email) {
            errors.push(format!("Row {row}: the email of {player}: {why}"));
            continue;
        } else {
            Some(email)
        };
        let pk = key(&player);
        if let Some((other, first)) = players_seen.get(&pk) {
            if *other != tk {
                errors.push(format!(
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
                name: player,
                id: None,
                registered: false,
                email,
            }),
            Some((id, name, on)) => {
                let here = t.id.is_some() && *on == t.id;
                if on.is_some() && !here {
                    let with = known
                        .teams
                        .iter()
                        .find(|k| Some(k.id) == *on)
                        .map_or("another team", |k| k.name.as_str());
                    errors.push(format!(
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
                });
            }
        }
    }
    if teams.is_empty() && errors.is_empty() {
        errors.push("The file has no rows under its first.".into());
    }
    ImportPlan {
        teams: order.into_iter().filter_map(|k| teams.remove(&k)).collect(),
        errors,
    }
}

/// The plan of a team on its first row, or `None` with the reason added.
fn team_plan(
    row: usize,
    team: &str,
    division: &str,
    venue: &str,
    known: &Known,
    errors: &mut Vec<String>,
) -> Option<TeamPlan> {
    let existing = known.teams.iter().find(|k| key(&k.name) == key(team));
    let named_division = if division.is_empty() {
        None
    } else {
        match find(&known.divisions, division) {
            Some(d) => Some(d.0),
            None => {
                errors.push(format!(
                    "Row {row}: the division `{division}` is not one of this season's: {}.",
                    names(&known.divisions)
                ));
                return None;
            }
        }
    };
    let venue = if venue.is_empty() {
        None
    } else {
        match find(&known.venues, venue) {
            Some(v) => Some(v.0),
            None => {
                errors.push(format!(
                    "Row {row}: the venue `{venue}` is not one of the league's{}; add it on the venues page first.",
                    if known.venues.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", names(&known.venues))
                    }
                ));
                return None;
            }
        }
    };
    let entered = existing.and_then(|t| t.division);
    let division = match (entered, named_division) {
        (Some(e), Some(n)) if e != n => {
            errors.push(format!(
                "Row {row}: {team} is entered in another division this season already."
            ));
            return None;
        }
        (Some(e), _) => e,
        (None, Some(n)) => n,
        (None, None) if known.divisions.len() == 1 => known.divisions[0].0,
        (None, None) => {
            errors.push(format!(
                "Row {row}: say which division {team} plays in (a `division` column): {}.",
                names(&known.divisions)
            ));
            return None;
        }
    };
    Some(TeamPlan {
        name: existing.map_or_else(|| team.to_owned(), |t| t.name.clone()),
        id: existing.map(|t| t.id),
        venue: if existing.is_some() { None } else { venue },
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
            (crown.id, crown.entered, crown.division),
            (Some(10), true, 1)
        );
        assert_eq!(
            crown.players,
            vec![
                PlayerPlan {
                    name: "Ann Smith".into(),
                    id: Some(100),
                    registered: true,
                    email: None,
                },
                PlayerPlan {
                    name: "Cat New".into(),
                    id: None,
                    registered: false,
                    email: Some("cat@example.org".into()),
                },
            ]
        );
        let plough = &p.teams[1];
        assert_eq!(
            (plough.id, plough.venue, plough.division, plough.entered),
            (None, Some(5), 2, false)
        );
        assert_eq!(plough.players[0].id, Some(101));
        assert_eq!((p.teams[2].id, p.teams[2].division), (Some(11), 1));
        assert_eq!(
            (
                p.new_teams(),
                p.entries(),
                p.new_players(),
                p.registrations()
            ),
            (1, 2, 2, 3)
        );
    }

    #[test]
    fn every_mistake_is_named_with_its_row() {
        let text = "team,player,division,venue,email\n\
                    New Team,X One,,\n\
                    Other,Ann Smith,Premier,\n\
                    Third,Y Two,Nowhere,\n\
                    Fourth,Y Three,Premier,The Moon\n\
                    Crown A,Z,Division One,\n\
                    Fifth,Q,Premier,\n\
                    Sixth,q,Premier,\n\
                    ,Lost Soul,,\n\
                    Seventh,Nul\u{0}Name,Premier,\n\
                    Fifth,R,,,r at example\n";
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
            e.contains(
                "Row 4: the division `Nowhere` is not one of this season's: Premier, Division One."
            ),
            "{e}"
        );
        assert!(e.contains("Row 5: the venue `The Moon`"), "{e}");
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
    }

    #[test]
    fn a_file_without_the_columns_says_what_it_has() {
        let p = plan("name,club\nAnn,Crown\n", &known());
        assert!(p.errors[0].contains("it has: name, club"), "{:?}", p.errors);
        let p = plan("", &known());
        assert!(!p.errors.is_empty());
    }
}
