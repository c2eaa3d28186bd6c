//! The team sheet before the night (LEAGUE.md, "The team sheet"): each
//! registered player's answer for a fixture, the captain's line-up (the
//! singles in order, then the pairs, and substitutes), checked against the
//! match format's line-up rule and the registrations, and the boards a
//! fixture starts from once both line-ups (and a draw, if the pairings are
//! drawn) are in.

use serde::{Deserialize, Serialize};

use super::draw::{Drawn, arrange};
use super::lineup::{BoardPlayers, clashes};
use super::match_format::{BoardKind, MatchFormat, Pairings};

/// A player's answer for a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Yes,
    No,
    Maybe,
}

impl Answer {
    pub const ALL: [Answer; 3] = [Answer::Yes, Answer::Maybe, Answer::No];

    /// As stored and in addresses.
    pub fn key(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::Maybe => "maybe",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Answer::Yes => "Can play",
            Answer::No => "Can't",
            Answer::Maybe => "Maybe",
        }
    }

    pub fn parse(text: &str) -> Option<Answer> {
        Answer::ALL.into_iter().find(|a| a.key() == text)
    }
}

/// When the other side may see a team's line-up (a season setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineUpShown {
    /// As soon as it is set.
    AtOnce,
    /// From the fixture's start.
    #[default]
    AtStart,
}

impl LineUpShown {
    pub const ALL: [LineUpShown; 2] = [LineUpShown::AtOnce, LineUpShown::AtStart];

    pub fn key(self) -> &'static str {
        match self {
            LineUpShown::AtOnce => "at_once",
            LineUpShown::AtStart => "at_start",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            LineUpShown::AtOnce => "As soon as the captain sets it",
            LineUpShown::AtStart => "When the night starts",
        }
    }

    pub fn parse(text: &str) -> Option<LineUpShown> {
        LineUpShown::ALL.into_iter().find(|s| s.key() == text)
    }
}

/// When drawn pairings are drawn (a season setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAt {
    /// As soon as both line-ups are set.
    #[default]
    LineUps,
    /// At the fixture's start, both line-ups set.
    Start,
}

impl DrawAt {
    pub const ALL: [DrawAt; 2] = [DrawAt::LineUps, DrawAt::Start];

    pub fn key(self) -> &'static str {
        match self {
            DrawAt::LineUps => "line_ups",
            DrawAt::Start => "start",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            DrawAt::LineUps => "As soon as both line-ups are set",
            DrawAt::Start => "When the night starts",
        }
    }

    pub fn parse(text: &str) -> Option<DrawAt> {
        DrawAt::ALL.into_iter().find(|s| s.key() == text)
    }
}

/// One team's line-up for a fixture: players' ids.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LineUp {
    /// The singles boards in order.
    pub singles: Vec<i64>,
    /// The pairs boards in order.
    pub pairs: Vec<[i64; 2]>,
    pub substitutes: Vec<i64>,
}

/// Why a line-up is refused, in words naming the player by `name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineUpFault {
    /// The format has `want` boards of the kind, the line-up `got` players
    /// (or pairs) for them.
    Count {
        kind: BoardKind,
        want: usize,
        got: usize,
    },
    NotRegistered(i64),
    /// Both places of a pair are one player.
    PairTwice(i64),
    /// On a board and among the substitutes.
    SubstituteOnBoard(i64),
    /// More boards of a kind than the line-up rule allows.
    Rule(super::lineup::Clash),
}

impl LineUpFault {
    pub fn words(&self, name: &dyn Fn(i64) -> String) -> String {
        match self {
            LineUpFault::Count { kind, want, got } => format!(
                "The match has {want} {kind} board{}: the line-up names {got}. Fill every board.",
                if *want == 1 { "" } else { "s" }
            ),
            LineUpFault::NotRegistered(p) => format!(
                "{} is not registered for this team this season: only registered players may play.",
                name(*p)
            ),
            LineUpFault::PairTwice(p) => {
                format!("{} is named twice in one pair.", name(*p))
            }
            LineUpFault::SubstituteOnBoard(p) => format!(
                "{} is on a board and among the substitutes: choose one.",
                name(*p)
            ),
            LineUpFault::Rule(c) => c.words(&name(c.player)),
        }
    }
}

impl LineUp {
    /// Every player named, boards first, each once.
    pub fn players(&self) -> Vec<i64> {
        let mut out: Vec<i64> = Vec::new();
        let all = self
            .singles
            .iter()
            .chain(self.pairs.iter().flatten())
            .chain(&self.substitutes);
        for &p in all {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// The line-up against the match format and the team's registered
    /// players: the first fault found, in the order a captain fixes them.
    pub fn check(&self, format: &MatchFormat, registered: &[i64]) -> Result<(), LineUpFault> {
        let count = |kind| format.boards.iter().filter(|b| b.kind == kind).count();
        for (kind, got) in [
            (BoardKind::Singles, self.singles.len()),
            (BoardKind::Pairs, self.pairs.len()),
        ] {
            let want = count(kind);
            if want != got {
                return Err(LineUpFault::Count { kind, want, got });
            }
        }
        if let Some(&p) = self.players().iter().find(|p| !registered.contains(p)) {
            return Err(LineUpFault::NotRegistered(p));
        }
        if let Some(pair) = self.pairs.iter().find(|p| p[0] == p[1]) {
            return Err(LineUpFault::PairTwice(pair[0]));
        }
        let on_boards: Vec<i64> = self
            .singles
            .iter()
            .chain(self.pairs.iter().flatten())
            .copied()
            .collect();
        if let Some(&p) = self.substitutes.iter().find(|p| on_boards.contains(p)) {
            return Err(LineUpFault::SubstituteOnBoard(p));
        }
        let boards = self.boards(format);
        if let Some(c) = clashes(format, &boards).into_iter().next() {
            return Err(LineUpFault::Rule(c));
        }
        Ok(())
    }

    /// This side's players on each board of `format`, in the format's
    /// order of boards (as the pads number them).
    pub fn boards(&self, format: &MatchFormat) -> Vec<BoardPlayers> {
        let (mut s, mut p) = (self.singles.iter(), self.pairs.iter());
        format
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| BoardPlayers {
                board: i + 1,
                kind: b.kind,
                players: match b.kind {
                    BoardKind::Singles => s.next().map(|x| vec![*x]).unwrap_or_default(),
                    BoardKind::Pairs => p.next().map(|x| x.to_vec()).unwrap_or_default(),
                },
            })
            .collect()
    }

    /// The line-up as the draw orders it.
    pub fn arranged(&self, order: &super::draw::SideOrder) -> LineUp {
        LineUp {
            singles: arrange(&self.singles, &order.singles),
            pairs: arrange(&self.pairs, &order.pairs),
            substitutes: self.substitutes.clone(),
        }
    }
}

/// Who plays board `board` (1-based), home and away, from the two
/// line-ups: in the captains' order, or as drawn when the pairings are
/// drawn (no draw yet: nobody). `None` when either side is missing.
pub fn board_players(
    format: &MatchFormat,
    home: Option<&LineUp>,
    away: Option<&LineUp>,
    drawn: Option<&Drawn>,
    board: usize,
) -> Option<(Vec<i64>, Vec<i64>)> {
    let (home, away) = match (format.pairings, drawn) {
        (Pairings::Drawn, None) => return None,
        (Pairings::Drawn, Some(d)) => (home?.arranged(&d.home), away?.arranged(&d.away)),
        _ => (home?.clone(), away?.clone()),
    };
    let pick = |l: &LineUp| {
        l.boards(format)
            .into_iter()
            .find(|b| b.board == board)
            .map(|b| b.players)
            .filter(|p| !p.is_empty())
    };
    Some((pick(&home)?, pick(&away)?))
}

/// Players a team needs on the night: enough for each kind's boards
/// under the line-up rule, the larger of the two.
pub fn players_needed(format: &MatchFormat) -> usize {
    let need = |kind: BoardKind| {
        let seats = format.boards.iter().filter(|b| b.kind == kind).count() * kind.players_a_side();
        seats.div_ceil(format.line_up.most(kind).max(1) as usize)
    };
    need(BoardKind::Singles).max(need(BoardKind::Pairs))
}

/// Whether the team is short: fewer players who have not said "can't"
/// than it needs.
pub fn short(format: &MatchFormat, registered: usize, cannot: usize) -> bool {
    registered.saturating_sub(cannot) < players_needed(format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::draw::draw;

    fn six_three() -> MatchFormat {
        MatchFormat::with_boards(6, 3, 1)
    }

    fn line_up() -> LineUp {
        LineUp {
            singles: vec![1, 2, 3, 4, 5, 6],
            pairs: vec![[1, 2], [3, 4], [5, 6]],
            substitutes: vec![7],
        }
    }

    #[test]
    fn a_full_line_up_of_registered_players_passes() {
        let registered: Vec<i64> = (1..=8).collect();
        assert_eq!(line_up().check(&six_three(), &registered), Ok(()));
        assert_eq!(players_needed(&six_three()), 6);
        assert!(!short(&six_three(), 8, 2));
        assert!(short(&six_three(), 8, 3));
    }

    #[test]
    fn faults_are_named() {
        let registered: Vec<i64> = (1..=8).collect();
        let name = |p: i64| format!("P{p}");
        let mut l = line_up();
        l.singles[5] = 1;
        let fault = l.check(&six_three(), &registered).unwrap_err();
        assert_eq!(
            fault.words(&name),
            "P1 is on singles boards 1 and 6 (2); a player plays at most 1 singles board a match."
        );
        let mut l = line_up();
        l.singles[0] = 99;
        assert_eq!(
            l.check(&six_three(), &registered),
            Err(LineUpFault::NotRegistered(99))
        );
        let mut l = line_up();
        l.pairs.pop();
        assert_eq!(
            l.check(&six_three(), &registered).unwrap_err().words(&name),
            "The match has 3 pairs boards: the line-up names 2. Fill every board."
        );
        let mut l = line_up();
        l.substitutes = vec![6];
        assert_eq!(
            l.check(&six_three(), &registered),
            Err(LineUpFault::SubstituteOnBoard(6))
        );
    }

    #[test]
    fn boards_follow_the_format_and_the_draw() {
        let mut f = six_three();
        let home = line_up();
        let away = LineUp {
            singles: vec![11, 12, 13, 14, 15, 16],
            pairs: vec![[11, 12], [13, 14], [15, 16]],
            substitutes: vec![],
        };
        assert_eq!(
            board_players(&f, Some(&home), Some(&away), None, 1),
            Some((vec![1], vec![11]))
        );
        assert_eq!(
            board_players(&f, Some(&home), Some(&away), None, 8),
            Some((vec![3, 4], vec![13, 14]))
        );
        assert_eq!(board_players(&f, Some(&home), None, None, 1), None);
        f.pairings = Pairings::Drawn;
        assert_eq!(board_players(&f, Some(&home), Some(&away), None, 1), None);
        let d = draw("seed", 6, 3);
        let (h, a) = board_players(&f, Some(&home), Some(&away), Some(&d), 1).unwrap();
        assert_eq!(h, vec![home.singles[d.home.singles[0]]]);
        assert_eq!(a, vec![away.singles[d.away.singles[0]]]);
    }
}
