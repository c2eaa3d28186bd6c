//! The team table of a division: computed from match lines, ordered by the
//! season's tie-breakers, saying which rule separated each tied pair.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::match_format::MatchFormat;

/// A team's id as the caller knows it.
pub type TeamKey = i64;

/// One counted match: a played (approved) result or a walkover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchLine {
    pub round: u32,
    pub home: TeamKey,
    pub away: TeamKey,
    pub boards: [u32; 2],
    pub games: [u32; 2],
    pub pegs: [u32; 2],
}

/// League points taken from a team, with the round it belongs to (`None`:
/// counts whatever round the table is shown after).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    pub team: TeamKey,
    pub points: u32,
    pub round: Option<u32>,
}

/// The rules that order teams level on what comes before them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreaker {
    Points,
    BoardDifference,
    BoardsWon,
    HeadToHead,
    PegsDifference,
    GamesDifference,
}

impl TieBreaker {
    /// LEAGUE.md's default order.
    pub const DEFAULT: [TieBreaker; 5] = [
        TieBreaker::Points,
        TieBreaker::BoardDifference,
        TieBreaker::BoardsWon,
        TieBreaker::HeadToHead,
        TieBreaker::PegsDifference,
    ];

    /// Every rule, in the order a form lists them.
    pub const ALL: [TieBreaker; 6] = [
        TieBreaker::Points,
        TieBreaker::BoardDifference,
        TieBreaker::BoardsWon,
        TieBreaker::HeadToHead,
        TieBreaker::PegsDifference,
        TieBreaker::GamesDifference,
    ];

    /// The name a stored setting and a form use.
    pub fn key(self) -> &'static str {
        match self {
            TieBreaker::Points => "points",
            TieBreaker::BoardDifference => "board_difference",
            TieBreaker::BoardsWon => "boards_won",
            TieBreaker::HeadToHead => "head_to_head",
            TieBreaker::PegsDifference => "pegs_difference",
            TieBreaker::GamesDifference => "games_difference",
        }
    }

    pub fn from_key(key: &str) -> Option<TieBreaker> {
        TieBreaker::ALL.into_iter().find(|r| r.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            TieBreaker::Points => "points",
            TieBreaker::BoardDifference => "board difference",
            TieBreaker::BoardsWon => "boards won",
            TieBreaker::HeadToHead => "head-to-head",
            TieBreaker::PegsDifference => "pegs difference",
            TieBreaker::GamesDifference => "games difference",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    pub team: TeamKey,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub boards_for: u32,
    pub boards_against: u32,
    pub games_for: u32,
    pub games_against: u32,
    pub pegs_for: u32,
    pub pegs_against: u32,
    pub deducted: u32,
    /// Earned points less deductions (may go below zero).
    pub points: i64,
    /// What put this team above the next one when they were level on
    /// points; `None` for the last row or a difference in points.
    pub separated_by: Option<Separation>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separation {
    Rule(TieBreaker),
    /// Level on every rule: listed by name.
    Level,
    /// Level on every rule, and placed higher by winning a play-off.
    PlayOff,
}

impl Row {
    /// The one win/draw/loss tally: a counted match added to the row.
    pub fn count(&mut self, outcome: MatchOutcome) {
        self.played += 1;
        match outcome {
            MatchOutcome::Won => self.won += 1,
            MatchOutcome::Drawn => self.drawn += 1,
            MatchOutcome::Lost => self.lost += 1,
        }
    }

    pub fn board_difference(&self) -> i64 {
        i64::from(self.boards_for) - i64::from(self.boards_against)
    }

    pub fn pegs_difference(&self) -> i64 {
        i64::from(self.pegs_for) - i64::from(self.pegs_against)
    }

    pub fn games_difference(&self) -> i64 {
        i64::from(self.games_for) - i64::from(self.games_against)
    }
}

/// The table after `upto_round` (all rounds when `None`). `teams` are the
/// division's teams with the names used for the final, alphabetical order.
pub fn table(
    teams: &[(TeamKey, &str)],
    matches: &[MatchLine],
    deductions: &[Deduction],
    format: &MatchFormat,
    rules: &[TieBreaker],
    upto_round: Option<u32>,
) -> Vec<Row> {
    let counts = |round: u32| upto_round.is_none_or(|r| round <= r);
    let mut rows: BTreeMap<TeamKey, Row> = teams
        .iter()
        .map(|&(team, _)| {
            (
                team,
                Row {
                    team,
                    ..Row::default()
                },
            )
        })
        .collect();
    let counted: Vec<&MatchLine> = matches
        .iter()
        .filter(|m| counts(m.round) && rows.contains_key(&m.home) && rows.contains_key(&m.away))
        .collect();
    for m in &counted {
        let points = format.match_points(m.boards[0], m.boards[1]);
        for (side, team) in [(0, m.home), (1, m.away)] {
            let other = 1 - side;
            let row = rows.get_mut(&team).expect("checked above");
            row.count(MatchOutcome::of(m.boards[side], m.boards[other]));
            row.boards_for += m.boards[side];
            row.boards_against += m.boards[other];
            row.games_for += m.games[side];
            row.games_against += m.games[other];
            row.pegs_for += m.pegs[side];
            row.pegs_against += m.pegs[other];
            row.points += i64::from(if side == 0 { points.0 } else { points.1 });
        }
    }
    for d in deductions {
        if d.round.is_none_or(counts) {
            if let Some(row) = rows.get_mut(&d.team) {
                row.deducted += d.points;
                row.points -= i64::from(d.points);
            }
        }
    }
    let names: BTreeMap<TeamKey, &str> = teams.iter().copied().collect();
    let ctx = Ranking {
        rows: &rows,
        matches: &counted,
        format,
        names: &names,
    };
    let group: Vec<TeamKey> = rows.keys().copied().collect();
    let ordered = ctx.rank(group, rules);
    ordered
        .into_iter()
        .map(|(team, sep)| Row {
            separated_by: sep,
            ..rows[&team].clone()
        })
        .collect()
}

/// How a counted match went for one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOutcome {
    Won,
    Drawn,
    Lost,
}

impl MatchOutcome {
    /// A match is won, drawn or lost on boards: the one comparison the
    /// table, form and a team's record all make.
    pub fn of(mine: u32, theirs: u32) -> MatchOutcome {
        match mine.cmp(&theirs) {
            Ordering::Greater => MatchOutcome::Won,
            Ordering::Equal => MatchOutcome::Drawn,
            Ordering::Less => MatchOutcome::Lost,
        }
    }

    /// `W`, `D` or `L`.
    pub fn letter(self) -> &'static str {
        match self {
            MatchOutcome::Won => "W",
            MatchOutcome::Drawn => "D",
            MatchOutcome::Lost => "L",
        }
    }

    /// The outcome [`MatchOutcome::word`] names.
    pub fn from_word(word: &str) -> Option<MatchOutcome> {
        [MatchOutcome::Won, MatchOutcome::Drawn, MatchOutcome::Lost]
            .into_iter()
            .find(|o| o.word() == word)
    }

    /// `won`, `drawn` or `lost`.
    pub fn word(self) -> &'static str {
        match self {
            MatchOutcome::Won => "won",
            MatchOutcome::Drawn => "drawn",
            MatchOutcome::Lost => "lost",
        }
    }
}

/// A team's form: its last `last` counted matches of rounds up to
/// `upto_round` (all when `None`), oldest first. `matches` are in the order
/// they were played (a rearranged match goes where it was played, not
/// where its round is); a match is won or lost on boards, as in the table.
pub fn form(
    team: TeamKey,
    matches: &[MatchLine],
    upto_round: Option<u32>,
    last: usize,
) -> Vec<MatchOutcome> {
    let mut out: Vec<MatchOutcome> = matches
        .iter()
        .filter(|m| upto_round.is_none_or(|r| m.round <= r))
        .filter_map(|m| {
            let (mine, theirs) = if m.home == team {
                (m.boards[0], m.boards[1])
            } else if m.away == team {
                (m.boards[1], m.boards[0])
            } else {
                return None;
            };
            Some(MatchOutcome::of(mine, theirs))
        })
        .collect();
    let skip = out.len().saturating_sub(last);
    out.drain(..skip);
    out
}

/// Settles the order of teams level on every rule by the play-offs among
/// them (`playoffs`: the counted results of play-off fixtures, which never
/// count in the table itself). Within each run of teams level on every
/// rule, teams are ordered by the play-offs they won against others of the
/// run, then as they were (by name); a play-off between teams that are not
/// level on every rule changes nothing.
pub fn settle_by_playoffs(rows: Vec<Row>, playoffs: &[MatchLine]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::with_capacity(rows.len());
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len() && rows[end - 1].separated_by == Some(Separation::Level) {
            end += 1;
        }
        let run = &rows[start..end];
        if run.len() == 1 {
            out.push(run[0].clone());
            start = end;
            continue;
        }
        let members: Vec<TeamKey> = run.iter().map(|r| r.team).collect();
        let wins = |team: TeamKey| -> u32 {
            let won = |m: &MatchLine| {
                let (mine, theirs) = if m.home == team {
                    (0, 1)
                } else if m.away == team {
                    (1, 0)
                } else {
                    return false;
                };
                let other = if mine == 0 { m.away } else { m.home };
                members.contains(&other) && m.boards[mine] > m.boards[theirs]
            };
            let n = playoffs.iter().filter(|m| won(m)).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        let mut ranked: Vec<(u32, Row)> = run.iter().map(|r| (wins(r.team), r.clone())).collect();
        // Stable: teams with as many play-off wins keep their order.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        let last_sep = run.last().expect("a run is never empty").separated_by;
        let n = ranked.len();
        for i in 0..n {
            let sep = if i + 1 == n {
                last_sep
            } else if ranked[i].0 > ranked[i + 1].0 {
                Some(Separation::PlayOff)
            } else {
                Some(Separation::Level)
            };
            let mut row = ranked[i].1.clone();
            row.separated_by = sep;
            out.push(row);
        }
        start = end;
    }
    out
}

struct Ranking<'a> {
    rows: &'a BTreeMap<TeamKey, Row>,
    matches: &'a [&'a MatchLine],
    format: &'a MatchFormat,
    names: &'a BTreeMap<TeamKey, &'a str>,
}

impl Ranking<'_> {
    /// Orders `group` by the first rule, then each run of teams still level
    /// by the rules after it. Returns each team with what separated it from
    /// the next team of the group.
    fn rank(
        &self,
        group: Vec<TeamKey>,
        rules: &[TieBreaker],
    ) -> Vec<(TeamKey, Option<Separation>)> {
        if group.len() <= 1 {
            return group.into_iter().map(|t| (t, None)).collect();
        }
        let Some((&rule, rest)) = rules.split_first() else {
            let mut level = group;
            level.sort_by(|a, b| self.names.get(a).cmp(&self.names.get(b)).then(a.cmp(b)));
            let n = level.len();
            return level
                .into_iter()
                .enumerate()
                .map(|(i, t)| (t, (i + 1 < n).then_some(Separation::Level)))
                .collect();
        };
        let key = self.keys(rule, &group);
        let mut sorted = group;
        sorted.sort_by(|a, b| key[b].cmp(&key[a]));
        let mut out = Vec::with_capacity(sorted.len());
        let mut start = 0;
        while start < sorted.len() {
            let mut end = start + 1;
            while end < sorted.len() && key[&sorted[end]] == key[&sorted[start]] {
                end += 1;
            }
            let mut part = self.rank(sorted[start..end].to_vec(), rest);
            if end < sorted.len() {
                // This run sits above the next one by this rule.
                part.last_mut().expect("a run is never empty").1 = Some(Separation::Rule(rule));
            }
            out.extend(part);
            start = end;
        }
        out
    }

    /// Each team's value under `rule`, higher first; head-to-head counts
    /// only the matches among `group`.
    fn keys(&self, rule: TieBreaker, group: &[TeamKey]) -> BTreeMap<TeamKey, i64> {
        let row = |t: &TeamKey| &self.rows[t];
        match rule {
            TieBreaker::Points => group.iter().map(|t| (*t, row(t).points)).collect(),
            TieBreaker::BoardDifference => group
                .iter()
                .map(|t| (*t, row(t).board_difference()))
                .collect(),
            TieBreaker::BoardsWon => group
                .iter()
                .map(|t| (*t, i64::from(row(t).boards_for)))
                .collect(),
            TieBreaker::PegsDifference => group
                .iter()
                .map(|t| (*t, row(t).pegs_difference()))
                .collect(),
            TieBreaker::GamesDifference => group
                .iter()
                .map(|t| (*t, row(t).games_difference()))
                .collect(),
            TieBreaker::HeadToHead => {
                let mut points: BTreeMap<TeamKey, i64> = group.iter().map(|t| (*t, 0)).collect();
                for m in self.matches {
                    if points.contains_key(&m.home) && points.contains_key(&m.away) {
                        let (h, a) = self.format.match_points(m.boards[0], m.boards[1]);
                        *points.get_mut(&m.home).expect("in group") += i64::from(h);
                        *points.get_mut(&m.away).expect("in group") += i64::from(a);
                    }
                }
                points
            }
        }
    }
}

/// The division's leaders from its table (`rows`, in order, play-offs
/// applied): the first team and every team level with it on every rule,
/// so two teams level on points but apart on the tie-breaks are not both
/// leaders. None before a match is played.
pub fn leaders(rows: &[Row]) -> &[Row] {
    if rows.first().is_none_or(|r| r.played == 0) {
        return &[];
    }
    let mut n = 1;
    while n < rows.len() && rows[n - 1].separated_by == Some(Separation::Level) {
        n += 1;
    }
    &rows[..n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Format;

    fn line(round: u32, home: i64, away: i64, boards: [u32; 2]) -> MatchLine {
        MatchLine {
            round,
            home,
            away,
            boards,
            games: boards,
            pegs: [boards[0] * 50, boards[1] * 50],
        }
    }

    const TEAMS: [(i64, &str); 4] = [(1, "Anchor"), (2, "Bell"), (3, "Crown"), (4, "Dolphin")];

    #[test]
    fn a_playoff_settles_only_teams_level_on_every_rule() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        // Anchor and Bell each beat Crown and Dolphin by the same score and
        // drew with each other: level on everything, listed by name.
        let matches = [
            line(1, 1, 3, [5, 4]),
            line(1, 2, 4, [5, 4]),
            line(2, 1, 4, [5, 4]),
            line(2, 2, 3, [5, 4]),
            line(3, 1, 2, [4, 4]),
            line(3, 3, 4, [6, 3]),
        ];
        let t = table(&TEAMS, &matches, &[], &f, &TieBreaker::DEFAULT, None);
        assert_eq!(t.iter().map(|r| r.team).collect::<Vec<_>>()[..2], [1, 2]);
        assert_eq!(t[0].separated_by, Some(Separation::Level));
        let points: Vec<i64> = t.iter().map(|r| r.points).collect();
        // Bell wins the play-off: above Anchor, the points unchanged.
        let settled = settle_by_playoffs(t.clone(), &[line(4, 1, 2, [3, 6])]);
        assert_eq!(
            settled.iter().map(|r| r.team).collect::<Vec<_>>(),
            [2, 1, 3, 4]
        );
        assert_eq!(settled[0].separated_by, Some(Separation::PlayOff));
        assert_eq!(settled[1].separated_by, t[1].separated_by);
        assert_eq!(settled.iter().map(|r| r.points).collect::<Vec<_>>(), points);
        // A drawn play-off settles nothing; one between teams not level
        // changes nothing.
        assert_eq!(settle_by_playoffs(t.clone(), &[line(4, 1, 2, [4, 4])]), t);
        assert_eq!(settle_by_playoffs(t.clone(), &[line(4, 4, 1, [9, 0])]), t);
    }

    #[test]
    fn the_leaders_are_those_level_with_the_first_on_every_rule() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        assert!(leaders(&table(&TEAMS, &[], &[], &f, &TieBreaker::DEFAULT, None)).is_empty());
        // Anchor and Bell level on everything: both lead.
        let level = [
            line(1, 1, 3, [5, 4]),
            line(1, 2, 4, [5, 4]),
            line(2, 1, 4, [5, 4]),
            line(2, 2, 3, [5, 4]),
            line(3, 1, 2, [4, 4]),
            line(3, 3, 4, [6, 3]),
        ];
        let t = table(&TEAMS, &level, &[], &f, &TieBreaker::DEFAULT, None);
        let teams = |rows: &[Row]| rows.iter().map(|r| r.team).collect::<Vec<_>>();
        assert_eq!(teams(leaders(&t)), [1, 2]);
        // Level on points, but Anchor lost a board fewer (one of its
        // boards undecided): Anchor alone (the round-up named both, by
        // points alone).
        let apart = [
            line(1, 1, 3, [5, 3]),
            line(1, 2, 4, [5, 4]),
            line(2, 1, 4, [5, 4]),
            line(2, 2, 3, [5, 4]),
            line(3, 1, 2, [4, 4]),
            line(3, 3, 4, [6, 3]),
        ];
        let t = table(&TEAMS, &apart, &[], &f, &TieBreaker::DEFAULT, None);
        assert_eq!(t[0].points, t[1].points);
        assert_eq!(teams(leaders(&t)), [1]);
    }

    #[test]
    fn form_is_the_last_results_in_the_order_played() {
        // Anchor: won round 1, drew round 3 (played early), lost round 2.
        let matches = [
            line(1, 1, 2, [6, 3]),
            line(3, 3, 1, [4, 4]),
            line(2, 4, 1, [7, 2]),
            line(2, 2, 3, [5, 4]),
        ];
        use MatchOutcome::*;
        assert_eq!(form(1, &matches, None, 5), [Won, Drawn, Lost]);
        assert_eq!(form(1, &matches, None, 2), [Drawn, Lost]);
        assert_eq!(form(1, &matches, Some(2), 5), [Won, Lost]);
        assert_eq!(form(2, &matches, None, 5), [Lost, Won]);
        assert!(form(9, &matches, None, 5).is_empty());
        assert_eq!(Won.letter(), "W");
        assert_eq!(Lost.word(), "lost");
    }

    #[test]
    fn keys_are_the_stored_names() {
        for rule in TieBreaker::ALL {
            assert_eq!(serde_json::to_value(rule).unwrap(), rule.key());
            assert_eq!(TieBreaker::from_key(rule.key()), Some(rule));
        }
        assert_eq!(TieBreaker::from_key("coin_toss"), None);
    }

    #[test]
    fn counts_and_points() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        let t = table(
            &TEAMS,
            &[line(1, 1, 2, [6, 3]), line(1, 3, 4, [4, 5])],
            &[],
            &f,
            &TieBreaker::DEFAULT,
            None,
        );
        let anchor = t.iter().find(|r| r.team == 1).unwrap();
        assert_eq!(
            (anchor.played, anchor.won, anchor.boards_for, anchor.points),
            (1, 1, 6, 8)
        );
        let crown = t.iter().find(|r| r.team == 3).unwrap();
        assert_eq!((crown.lost, crown.points), (1, 4));
        assert_eq!(t[0].team, 1);
    }

    #[test]
    fn head_to_head_separates_teams_level_on_boards() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        // Bell and Crown both win one and lose one with the same boards;
        // Bell beat Crown.
        let matches = [
            line(1, 2, 3, [5, 4]),
            line(2, 3, 1, [5, 4]),
            line(3, 1, 2, [5, 4]),
        ];
        let t = table(&TEAMS[..3], &matches, &[], &f, &TieBreaker::DEFAULT, None);
        // All three level on points, boards; head-to-head is circular too;
        // pegs equal: by name.
        assert!(t.iter().all(|r| r.points == 11));
        assert_eq!(t.iter().map(|r| r.team).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(t[0].separated_by, Some(Separation::Level));
        // Two teams level with a head-to-head result between them.
        let matches = [
            line(1, 2, 3, [5, 4]),
            line(2, 1, 2, [5, 4]),
            line(3, 3, 4, [5, 4]),
        ];
        let t = table(&TEAMS, &matches, &[], &f, &TieBreaker::DEFAULT, None);
        assert_eq!(t.iter().map(|r| r.team).collect::<Vec<_>>(), [2, 3, 1, 4]);
        assert_eq!(
            t[0].separated_by,
            Some(Separation::Rule(TieBreaker::HeadToHead))
        );
        assert_eq!(
            t[1].separated_by,
            Some(Separation::Rule(TieBreaker::Points))
        );
    }

    #[test]
    fn the_season_order_decides() {
        let f = MatchFormat {
            points: crate::league::match_format::Points {
                board: 0,
                ..MatchFormat::default_for(Format::FivesAndThrees).points
            },
            ..MatchFormat::default_for(Format::FivesAndThrees)
        };
        // Anchor wins 9-0 with few pegs; Bell wins 5-4 with many.
        let mut big = line(1, 1, 3, [9, 0]);
        big.pegs = [100, 90];
        let mut close = line(1, 2, 4, [5, 4]);
        close.pegs = [400, 100];
        let matches = [big, close];
        let order = |rules: &[TieBreaker]| {
            table(&TEAMS, &matches, &[], &f, rules, None)
                .iter()
                .map(|r| r.team)
                .take(2)
                .collect::<Vec<_>>()
        };
        assert_eq!(order(&TieBreaker::DEFAULT), [1, 2]);
        let pegs_first = [TieBreaker::Points, TieBreaker::PegsDifference];
        assert_eq!(order(&pegs_first), [2, 1]);
        let t = table(&TEAMS, &matches, &[], &f, &pegs_first, None);
        assert_eq!(
            t[0].separated_by,
            Some(Separation::Rule(TieBreaker::PegsDifference))
        );
    }

    #[test]
    fn deductions_and_rounds() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        let matches = [line(1, 1, 2, [6, 3]), line(2, 2, 1, [9, 0])];
        let d = [Deduction {
            team: 2,
            points: 3,
            round: Some(2),
        }];
        let after1 = table(&TEAMS[..2], &matches, &d, &f, &TieBreaker::DEFAULT, Some(1));
        assert_eq!(after1[0].team, 1);
        assert_eq!(after1[1].deducted, 0);
        let all = table(&TEAMS[..2], &matches, &d, &f, &TieBreaker::DEFAULT, None);
        let bell = all.iter().find(|r| r.team == 2).unwrap();
        assert_eq!((bell.points, bell.deducted), (3 + 11 - 3, 3));
    }

    #[test]
    fn the_rule_that_separated_level_teams_is_named() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        // 1 and 2 both win once; 1 by more boards.
        let matches = [line(1, 1, 3, [8, 1]), line(1, 2, 4, [5, 4])];
        let t = table(&TEAMS, &matches, &[], &f, &TieBreaker::DEFAULT, None);
        assert_eq!(t[0].team, 1);
        assert_eq!(
            t[0].separated_by,
            Some(Separation::Rule(TieBreaker::Points))
        );
        // Points: 1 has 2+8=10, 2 has 2+5=7: separated by points already.
        let g = MatchFormat {
            points: crate::league::match_format::Points {
                board: 0,
                ..f.points
            },
            ..f
        };
        let t = table(&TEAMS, &matches, &[], &g, &TieBreaker::DEFAULT, None);
        assert_eq!(
            t[0].separated_by,
            Some(Separation::Rule(TieBreaker::BoardDifference))
        );
    }
}
