//! The end of a season: from its final tables and the number of teams that
//! go up and down between consecutive divisions, where each team plays next
//! season, and which ties on every rule stand at a place that matters (the
//! title, a promotion or a relegation place) and want a play-off.
//!
//! Divisions are given top first. The same number of teams is exchanged
//! across each boundary, so every division keeps its size; when a division
//! is too small for the setting (its promoted and relegated teams would
//! overlap), fewer teams move across its boundaries, and the plan says so.

use super::refusal::Refusal;
use super::settings::SeasonSettings;
use super::standings::{Row, Separation, TeamKey};
use crate::domain::{DivisionId, TeamId};

/// Most teams that may go up and down between two divisions.
pub const MAX_PLACES: u32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Up,
    Stay,
    Down,
}

impl Move {
    pub fn label(self) -> &'static str {
        match self {
            Move::Up => "promoted",
            Move::Stay => "stays",
            Move::Down => "relegated",
        }
    }
}

/// Where a team finished and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub team: TeamKey,
    /// Index of its division this season (0: the top one).
    pub from: usize,
    /// Its final place, from 1.
    pub position: usize,
    /// Index of its division next season.
    pub to: usize,
    pub movement: Move,
}

/// A place in a table where the order decides something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    Title,
    Promotion,
    Relegation,
}

impl Boundary {
    pub fn label(self) -> &'static str {
        match self {
            Boundary::Title => "the title",
            Boundary::Promotion => "a promotion place",
            Boundary::Relegation => "a relegation place",
        }
    }
}

/// Teams level on every rule across a boundary: only a play-off (or the
/// secretary) can settle them; until then they are listed by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    pub division: usize,
    pub boundary: Boundary,
    /// The level teams in their present order.
    pub teams: Vec<TeamKey>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Every team, division by division, in table order.
    pub placements: Vec<Placement>,
    /// Teams exchanged across the boundary below each division but the last.
    pub exchanged: Vec<usize>,
    /// Boundaries where fewer teams move than the setting asks, in words
    /// the caller completes with division names: (division above, teams).
    pub reduced: Vec<(usize, usize)>,
    pub ties: Vec<Tie>,
}

/// How many teams cross each boundary: the setting, or fewer where a
/// division has too few teams for its promoted and relegated teams not to
/// overlap (a division with a boundary on both sides gives at most half its
/// teams to each; the top and bottom divisions, all of them).
pub fn exchanges(sizes: &[usize], places: u32) -> Vec<usize> {
    let places = usize::try_from(places).unwrap_or(usize::MAX);
    let last = sizes.len().saturating_sub(1);
    let cap = |d: usize| {
        if d > 0 && d < last {
            sizes[d] / 2
        } else {
            sizes[d]
        }
    };
    (0..last)
        .map(|d| places.min(cap(d)).min(cap(d + 1)))
        .collect()
}

/// The plan from the final tables (top division first, each in table
/// order with play-offs applied) and the setting.
pub fn plan(tables: &[Vec<Row>], places: u32) -> Plan {
    let sizes: Vec<usize> = tables.iter().map(Vec::len).collect();
    let exchanged = exchanges(&sizes, places);
    let wanted = usize::try_from(places).unwrap_or(usize::MAX);
    let reduced = exchanged
        .iter()
        .enumerate()
        .filter(|(_, n)| **n < wanted)
        .map(|(d, n)| (d, *n))
        .collect();
    let mut placements = Vec::new();
    let mut ties = Vec::new();
    for (d, rows) in tables.iter().enumerate() {
        let n = rows.len();
        let up = if d > 0 { exchanged[d - 1] } else { 0 };
        let down = exchanged.get(d).copied().unwrap_or(0);
        for (i, row) in rows.iter().enumerate() {
            let (to, movement) = if i < up {
                (d - 1, Move::Up)
            } else if i >= n - down {
                (d + 1, Move::Down)
            } else {
                (d, Move::Stay)
            };
            placements.push(Placement {
                team: row.team,
                from: d,
                position: i + 1,
                to,
                movement,
            });
        }
        ties.extend(ties_in(d, rows, up, down));
    }
    Plan {
        placements,
        exchanged,
        reduced,
        ties,
    }
}

/// The ties on every rule across the title line, the promotion line (`up`
/// teams above it) and the relegation line (`down` teams below it) of
/// division `d`'s table (in order, play-offs applied). A run of level
/// teams across two lines is reported once, at the higher.
pub fn ties_in(d: usize, rows: &[Row], up: usize, down: usize) -> Vec<Tie> {
    let n = rows.len();
    let mut lines = vec![(1, Boundary::Title)];
    if up > 0 {
        lines.push((up, Boundary::Promotion));
    }
    if down > 0 && down < n {
        lines.push((n - down, Boundary::Relegation));
    }
    let mut out: Vec<Tie> = Vec::new();
    for (at, boundary) in lines {
        // `at` teams are above the line.
        if at == 0 || at >= n || rows[at - 1].separated_by != Some(Separation::Level) {
            continue;
        }
        let mut first = at - 1;
        while first > 0 && rows[first - 1].separated_by == Some(Separation::Level) {
            first -= 1;
        }
        let mut last = at;
        while last + 1 < n && rows[last].separated_by == Some(Separation::Level) {
            last += 1;
        }
        let teams: Vec<TeamKey> = rows[first..=last].iter().map(|r| r.team).collect();
        if !out.iter().any(|t| t.teams == teams) {
            out.push(Tie {
                division: d,
                boundary,
                teams,
            });
        }
    }
    out
}

/// The name of the season after `name`: every number in it one higher
/// (`2025/26` → `2026/27`, `Winter 2026` → `Winter 2027`); a two-digit
/// number wraps (`99` → `00`). A name without a number gets ` (next)`.
pub fn next_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    let mut digits = String::new();
    let mut any = false;
    let flush = |digits: &mut String, out: &mut String, any: &mut bool| {
        if digits.is_empty() {
            return;
        }
        *any = true;
        let width = digits.len();
        match digits.parse::<u64>() {
            Ok(n) if width == 2 => out.push_str(&format!("{:02}", (n + 1) % 100)),
            Ok(n) => out.push_str(&format!("{:0width$}", n.saturating_add(1))),
            Err(_) => out.push_str(digits),
        }
        digits.clear();
    };
    for c in name.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out, &mut any);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out, &mut any);
    if any { out } else { format!("{name} (next)") }
}

/// The next season as a roll-over asks for it, before anything is read:
/// its settings hold, it has a name, and no team is listed twice. Returns
/// the name the season takes (trimmed).
pub fn next_season<'a>(
    name: &'a str,
    settings: &SeasonSettings,
    teams: &[TeamId],
) -> Result<&'a str, Refusal> {
    settings.check().map_err(Refusal::Rule)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(Refusal::NoSeasonName);
    }
    for (i, t) in teams.iter().enumerate() {
        if teams[..i].contains(t) {
            return Err(Refusal::TeamListedTwice { team: *t });
        }
    }
    Ok(name)
}

/// A season is rolled over once: `closed_now` says whether closing it
/// found it still open (of two roll-overs at once, the second finds it
/// closed).
pub fn rolled_over_once(closed_now: bool, season: &str) -> Result<(), Refusal> {
    if !closed_now {
        return Err(Refusal::RolledOverAlready {
            season: season.to_owned(),
        });
    }
    Ok(())
}

/// Where each carried team (the team, its division in `season`) enters
/// next season: its division's counterpart in `divisions` (each of
/// `season`'s divisions with the new one of the same name and place).
/// Refused, team by team in the order given, for a division that is not
/// one of `season`'s and for a team not `entered` in it.
pub fn destinations(
    teams: &[(TeamId, DivisionId)],
    divisions: &[(DivisionId, DivisionId)],
    entered: &[TeamId],
    season: &str,
) -> Result<Vec<DivisionId>, Refusal> {
    teams
        .iter()
        .map(|&(team, division)| {
            let to = divisions
                .iter()
                .find(|(old, _)| *old == division)
                .map(|(_, new)| *new)
                .ok_or_else(|| Refusal::DivisionNotInSeason {
                    division,
                    season: season.to_owned(),
                })?;
            if !entered.contains(&team) {
                return Err(Refusal::TeamNotInSeason {
                    team,
                    season: season.to_owned(),
                });
            }
            Ok(to)
        })
        .collect()
}

/// A play-off is between two different teams.
pub fn playoff_pair(home: TeamId, away: TeamId) -> Result<(), Refusal> {
    if home == away {
        return Err(Refusal::PlayoffOfTwo);
    }
    Ok(())
}

/// A play-off is added to a season not over yet, between two teams of the
/// division: `entered` is how many of its two are entered there.
pub fn may_add_playoff(season_closed: bool, entered: i64) -> Result<(), Refusal> {
    if season_closed {
        return Err(Refusal::SeasonOver);
    }
    if entered != 2 {
        return Err(Refusal::PlayoffOutsideDivision);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `teams` in this order; `level[i]`: team i is level on
    /// every rule with team i + 1.
    fn rows(teams: &[TeamKey], level: &[usize]) -> Vec<Row> {
        teams
            .iter()
            .enumerate()
            .map(|(i, &team)| Row {
                team,
                separated_by: if i + 1 == teams.len() {
                    None
                } else if level.contains(&i) {
                    Some(Separation::Level)
                } else {
                    Some(Separation::Rule(
                        crate::league::standings::TieBreaker::Points,
                    ))
                },
                ..Row::default()
            })
            .collect()
    }

    fn moves(plan: &Plan) -> Vec<(TeamKey, usize, Move)> {
        plan.placements
            .iter()
            .map(|p| (p.team, p.to, p.movement))
            .collect()
    }

    #[test]
    fn two_up_and_two_down_between_three_divisions() {
        let tables = [
            rows(&[1, 2, 3, 4, 5], &[]),
            rows(&[11, 12, 13, 14, 15], &[]),
            rows(&[21, 22, 23, 24], &[]),
        ];
        let p = plan(&tables, 2);
        assert_eq!(p.exchanged, [2, 2]);
        assert!(p.reduced.is_empty() && p.ties.is_empty());
        use Move::*;
        assert_eq!(
            moves(&p),
            [
                (1, 0, Stay),
                (2, 0, Stay),
                (3, 0, Stay),
                (4, 1, Down),
                (5, 1, Down),
                (11, 0, Up),
                (12, 0, Up),
                (13, 1, Stay),
                (14, 2, Down),
                (15, 2, Down),
                (21, 1, Up),
                (22, 1, Up),
                (23, 2, Stay),
                (24, 2, Stay),
            ]
        );
        // Every division keeps its size.
        for (d, table) in tables.iter().enumerate() {
            let before = table.len();
            let after = p.placements.iter().filter(|x| x.to == d).count();
            assert_eq!(before, after);
        }
    }

    #[test]
    fn a_single_division_or_no_places_moves_nobody() {
        let one = [rows(&[1, 2, 3, 4], &[])];
        let p = plan(&one, 2);
        assert!(p.exchanged.is_empty() && p.reduced.is_empty());
        assert!(p.placements.iter().all(|x| x.movement == Move::Stay));
        let two = [rows(&[1, 2], &[]), rows(&[3, 4], &[])];
        let p = plan(&two, 0);
        assert!(p.placements.iter().all(|x| x.to == x.from));
        assert!(plan(&[], 1).placements.is_empty());
    }

    #[test]
    fn fewer_teams_than_places_moves_fewer() {
        // The middle division has 3 teams: at most 1 up and 1 down.
        let tables = [
            rows(&[1, 2, 3, 4], &[]),
            rows(&[11, 12, 13], &[]),
            rows(&[21], &[]),
        ];
        let p = plan(&tables, 3);
        assert_eq!(p.exchanged, [1, 1]);
        assert_eq!(p.reduced, [(0, 1), (1, 1)]);
        use Move::*;
        assert_eq!(
            moves(&p),
            [
                (1, 0, Stay),
                (2, 0, Stay),
                (3, 0, Stay),
                (4, 1, Down),
                (11, 0, Up),
                (12, 1, Stay),
                (13, 2, Down),
                (21, 1, Up),
            ]
        );
        // Two divisions: the smaller one sets the number.
        let p = plan(&[rows(&[1, 2, 3], &[]), rows(&[11], &[])], 2);
        assert_eq!(p.exchanged, [1]);
        // An empty division exchanges nobody.
        let p = plan(&[rows(&[1, 2], &[]), rows(&[], &[])], 1);
        assert_eq!(p.exchanged, [0]);
        assert!(p.placements.iter().all(|x| x.movement == Stay));
    }

    #[test]
    fn ties_on_every_rule_at_a_boundary_are_found() {
        // Top: 1 and 2 level for the title. 3 and 4 level, both safe.
        // Bottom of the top division: 5 and 6 level across the relegation
        // place (one up... one down of 6 teams with 1 place: place 6).
        let tables = [
            rows(&[1, 2, 3, 4, 5, 6], &[0, 2, 4]),
            rows(&[11, 12, 13, 14], &[0, 1]),
        ];
        let p = plan(&tables, 1);
        assert_eq!(
            p.ties,
            [
                Tie {
                    division: 0,
                    boundary: Boundary::Title,
                    teams: vec![1, 2]
                },
                Tie {
                    division: 0,
                    boundary: Boundary::Relegation,
                    teams: vec![5, 6]
                },
                // 11, 12, 13 level: the title and the promotion place are
                // the same line, reported once.
                Tie {
                    division: 1,
                    boundary: Boundary::Title,
                    teams: vec![11, 12, 13]
                },
            ]
        );
        // Level teams all above or all below a line are no tie there.
        let p = plan(&[rows(&[1, 2, 3, 4], &[1]), rows(&[11, 12], &[])], 1);
        assert!(p.ties.is_empty());
    }

    #[test]
    fn next_season_names() {
        assert_eq!(next_name("2025/26"), "2026/27");
        assert_eq!(next_name("2099/00"), "2100/01");
        assert_eq!(next_name("1999/99"), "2000/00");
        assert_eq!(next_name("Winter 2026"), "Winter 2027");
        assert_eq!(next_name("Season 9"), "Season 10");
        assert_eq!(next_name("Autumn"), "Autumn (next)");
    }

    #[test]
    fn a_roll_over_is_asked_and_made_once() {
        let ok = SeasonSettings::default();
        let (a, b) = (TeamId(1), TeamId(2));
        assert_eq!(next_season(" 2027/28 ", &ok, &[a, b]), Ok("2027/28"));
        assert_eq!(next_season("  ", &ok, &[a]), Err(Refusal::NoSeasonName));
        assert_eq!(
            next_season("2027/28", &ok, &[a, b, a]),
            Err(Refusal::TeamListedTwice { team: a })
        );
        let bad = SeasonSettings {
            promotion_places: MAX_PLACES + 1,
            ..SeasonSettings::default()
        };
        assert!(matches!(
            next_season("2027/28", &bad, &[]),
            Err(Refusal::Rule(_))
        ));
        assert_eq!(rolled_over_once(true, "2026/27"), Ok(()));
        assert_eq!(
            rolled_over_once(false, "2026/27"),
            Err(Refusal::RolledOverAlready {
                season: "2026/27".into()
            })
        );
    }

    #[test]
    fn carried_teams_enter_their_divisions_counterpart() {
        let (premier, first) = (DivisionId(1), DivisionId(2));
        let divisions = [(premier, DivisionId(11)), (first, DivisionId(12))];
        let (a, b) = (TeamId(1), TeamId(2));
        assert_eq!(
            destinations(&[(a, first), (b, premier)], &divisions, &[a, b], "2026/27"),
            Ok(vec![DivisionId(12), DivisionId(11)])
        );
        assert_eq!(
            destinations(&[(a, DivisionId(9))], &divisions, &[a], "2026/27"),
            Err(Refusal::DivisionNotInSeason {
                division: DivisionId(9),
                season: "2026/27".into()
            })
        );
        assert_eq!(
            destinations(&[(b, premier)], &divisions, &[a], "2026/27"),
            Err(Refusal::TeamNotInSeason {
                team: b,
                season: "2026/27".into()
            })
        );
    }

    #[test]
    fn a_playoff_is_two_teams_of_an_open_division() {
        assert_eq!(playoff_pair(TeamId(1), TeamId(2)), Ok(()));
        assert_eq!(
            playoff_pair(TeamId(1), TeamId(1)),
            Err(Refusal::PlayoffOfTwo)
        );
        assert_eq!(may_add_playoff(false, 2), Ok(()));
        assert_eq!(may_add_playoff(true, 2), Err(Refusal::SeasonOver));
        assert_eq!(
            may_add_playoff(false, 1),
            Err(Refusal::PlayoffOutsideDivision)
        );
    }
}
