//! A season's match format (LEAGUE.md): the boards a fixture is played as,
//! and the points a board and a match are worth.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rules::Format;
use crate::rules::limits::GAMES_A_BOARD;

/// A board's kind: one player a side or two. Results store it by
/// [`BoardKind::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardKind {
    Singles,
    Pairs,
}

impl std::str::FromStr for BoardKind {
    type Err = String;

    fn from_str(s: &str) -> Result<BoardKind, String> {
        match s {
            "singles" => Ok(BoardKind::Singles),
            "pairs" => Ok(BoardKind::Pairs),
            other => Err(format!("unknown board kind `{other}`")),
        }
    }
}

impl std::fmt::Display for BoardKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl BoardKind {
    /// Players each side fields on such a board.
    pub fn players_a_side(self) -> usize {
        match self {
            BoardKind::Singles => 1,
            BoardKind::Pairs => 2,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BoardKind::Singles => "singles",
            BoardKind::Pairs => "pairs",
        }
    }
}

/// One board: singles or pairs, one game or the best of `best_of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    pub kind: BoardKind,
    pub best_of: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Points {
    /// For each board won.
    pub board: u32,
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// For losing by exactly one board (0: no bonus).
    pub losing_bonus: u32,
}

/// What a walkover gives the side that did not concede.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Walkover {
    AllBoards,
    /// A given board score, as some rulebooks count it (Leek: 5-4): the
    /// side that did not concede wins `won` boards and the other `lost`,
    /// counted in the tables as a match played to that score.
    Score {
        won: u32,
        lost: u32,
    },
}

impl Walkover {
    /// The rule in words, for the league's page and the match page.
    pub fn words(self) -> String {
        match self {
            Walkover::AllBoards => {
                "A walkover gives every board to the side that did not concede.".into()
            }
            Walkover::Score { won, lost } => format!(
                "A walkover counts {won}-{lost} in boards to the side that did not concede, as a match played to that score."
            ),
        }
    }
}

/// Who decides which players meet on which board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairings {
    Captains,
    Secretary,
    /// The app draws who meets whom from the two line-ups with a seed both
    /// captains see ([`super::draw`]).
    Drawn,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFormat {
    pub boards: Vec<BoardSpec>,
    pub points: Points,
    pub walkover: Walkover,
    pub pairings: Pairings,
    /// Most boards of each kind one player may play in a match; formats
    /// stored before it had the default.
    #[serde(default)]
    pub line_up: super::lineup::LineUp,
}

/// Most boards a fixture may have: a long card, not a typo of 90.
pub const MAX_BOARDS: usize = crate::rules::limits::BOARDS_A_MATCH;

impl MatchFormat {
    /// LEAGUE.md's defaults: 6 singles + 3 pairs (`fives-and-threes`), 4
    /// singles best of 3 (`all-fives`), 3 sets between pairs (`hands-won`).
    pub fn default_for(format: Format) -> MatchFormat {
        let (singles, pairs, best_of) = match format {
            Format::FivesAndThrees => (6, 3, 1),
            Format::AllFives => (4, 0, 3),
            Format::HandsWon => (0, 3, 1),
        };
        MatchFormat::with_boards(singles, pairs, best_of)
    }

    /// `singles` singles boards then `pairs` pairs boards, each best of
    /// `best_of`, with the default points.
    pub fn with_boards(singles: usize, pairs: usize, best_of: u32) -> MatchFormat {
        let board = |kind| BoardSpec { kind, best_of };
        MatchFormat {
            boards: std::iter::repeat_n(board(BoardKind::Singles), singles)
                .chain(std::iter::repeat_n(board(BoardKind::Pairs), pairs))
                .collect(),
            points: Points {
                board: 1,
                win: 2,
                draw: 1,
                loss: 0,
                losing_bonus: 0,
            },
            walkover: Walkover::AllBoards,
            pairings: Pairings::Captains,
            line_up: super::lineup::LineUp::default(),
        }
    }

    /// Reads a stored match format; an empty object is the format's default.
    pub fn parse(format: Format, value: &Value) -> Result<MatchFormat, String> {
        if value.as_object().is_some_and(|o| o.is_empty()) {
            return Ok(MatchFormat::default_for(format));
        }
        let mf: MatchFormat =
            serde_json::from_value(value.clone()).map_err(|e| format!("match format: {e}"))?;
        mf.check()?;
        Ok(mf)
    }

    /// Refuses a format no league could play.
    pub fn check(&self) -> Result<(), String> {
        if self.boards.is_empty() {
            return Err("a match needs at least one board".into());
        }
        if self.boards.len() > MAX_BOARDS {
            return Err(format!("a match has at most {MAX_BOARDS} boards"));
        }
        self.line_up.check()?;
        if let Walkover::Score { won, lost } = self.walkover {
            let boards = self.boards.len();
            if won <= lost || (won + lost) as usize > boards {
                return Err(format!(
                    "a walkover's score gives more boards to the side that did not concede, and {boards} boards at most in all, not {won}-{lost}"
                ));
            }
        }
        if let Some(b) = self
            .boards
            .iter()
            .find(|b| b.best_of == 0 || b.best_of % 2 == 0 || b.best_of > GAMES_A_BOARD)
        {
            return Err(format!(
                "a board is 1 game or the best of an odd number up to {GAMES_A_BOARD}, not {}",
                b.best_of
            ));
        }
        Ok(())
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("plain data serializes")
    }

    /// Games a side must win to take a board.
    pub fn games_to_win(board: &BoardSpec) -> u32 {
        board.best_of / 2 + 1
    }

    /// Which side (0 home, 1 away) takes board `number` (1-based) having
    /// won `games`: the side that won the games the board needs, and more
    /// than the other; neither for a board not played out. A board the
    /// format does not list needs one game.
    pub fn board_winner(&self, number: usize, games: [u32; 2]) -> Option<usize> {
        let need = number
            .checked_sub(1)
            .and_then(|i| self.boards.get(i))
            .map_or(1, MatchFormat::games_to_win);
        (0..2).find(|&side| games[side] >= need && games[side] > games[1 - side])
    }

    /// The walkover score of LEAGUE.md when side `conceding` (0 home, 1
    /// away) concedes: every board, with the games that win each, to the
    /// other side; or the format's given board score, the winner taking
    /// the first boards and the loser the next, each with the games that
    /// win it (as a match played to that score with no game to spare);
    /// boards then games, home first.
    pub fn walkover(&self, conceding: usize) -> ([u32; 2], [u32; 2]) {
        let all = u32::try_from(self.boards.len()).unwrap_or(u32::MAX);
        let (won, lost) = match self.walkover {
            Walkover::AllBoards => (all, 0),
            Walkover::Score { won, lost } => (won, lost),
        };
        let games = |skip: u32, take: u32| -> u32 {
            self.boards
                .iter()
                .skip(skip as usize)
                .take(take as usize)
                .map(MatchFormat::games_to_win)
                .sum()
        };
        let (w, l) = ((won, games(0, won)), (lost, games(won, lost)));
        if conceding == 0 {
            ([l.0, w.0], [l.1, w.1])
        } else {
            ([w.0, l.0], [w.1, l.1])
        }
    }

    /// League points for a match that ended `home` boards to `away`.
    pub fn match_points(&self, home: u32, away: u32) -> (u32, u32) {
        let p = &self.points;
        let result = |mine: u32, theirs: u32| {
            let outcome = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => p.win,
                std::cmp::Ordering::Equal => p.draw,
                std::cmp::Ordering::Less if theirs - mine == 1 => p.loss + p.losing_bonus,
                std::cmp::Ordering::Less => p.loss,
            };
            outcome + mine * p.board
        };
        (result(home, away), result(away, home))
    }

    /// A short description: "6 singles + 3 pairs, 1 game each".
    pub fn describe(&self) -> String {
        let singles = self
            .boards
            .iter()
            .filter(|b| b.kind == BoardKind::Singles)
            .count();
        let pairs = self.boards.len() - singles;
        let mut parts = Vec::new();
        if singles > 0 {
            parts.push(format!("{singles} singles"));
        }
        if pairs > 0 {
            parts.push(format!("{pairs} pairs"));
        }
        let games = match self.boards.iter().map(|b| b.best_of).max().unwrap_or(1) {
            1 => "1 game each".to_owned(),
            n => format!("best of {n}"),
        };
        format!("{}, {games}", parts.join(" + "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_league_md_and_round_trip() {
        let f = MatchFormat::default_for(Format::FivesAndThrees);
        assert_eq!(f.describe(), "6 singles + 3 pairs, 1 game each");
        assert_eq!(
            MatchFormat::parse(Format::FivesAndThrees, &f.to_value()).unwrap(),
            f
        );
        assert_eq!(
            MatchFormat::default_for(Format::AllFives).describe(),
            "4 singles, best of 3"
        );
        assert_eq!(
            MatchFormat::parse(Format::HandsWon, &serde_json::json!({})).unwrap(),
            MatchFormat::default_for(Format::HandsWon)
        );
    }

    #[test]
    fn points_for_a_match() {
        let mut f = MatchFormat::default_for(Format::FivesAndThrees);
        assert_eq!(f.match_points(6, 3), (2 + 6, 3));
        assert_eq!(f.match_points(4, 5), (4, 2 + 5));
        f.points.losing_bonus = 1;
        assert_eq!(f.match_points(4, 5), (5, 7));
        assert_eq!(f.match_points(3, 6), (3, 8));
        assert_eq!(f.match_points(0, 0), (1, 1));
    }

    #[test]
    fn boards_and_walkovers() {
        let f = MatchFormat::default_for(Format::AllFives);
        assert_eq!(f.board_winner(1, [2, 1]), Some(0));
        assert_eq!(f.board_winner(2, [1, 2]), Some(1));
        assert_eq!(f.board_winner(3, [1, 1]), None, "not played out");
        assert_eq!(f.board_winner(4, [1, 0]), None, "best of 3 needs 2");
        assert_eq!(f.board_winner(9, [1, 0]), Some(0), "unlisted: one game");
        assert_eq!(f.walkover(0), ([0, 4], [0, 8]));
        assert_eq!(f.walkover(1), ([4, 0], [8, 0]));
    }

    #[test]
    fn a_walkover_of_a_given_score_counts_that_score() {
        let mut f = MatchFormat::default_for(Format::FivesAndThrees);
        f.walkover = Walkover::Score { won: 5, lost: 4 };
        f.check().unwrap();
        assert_eq!(f.walkover(1), ([5, 4], [5, 4]));
        assert_eq!(f.walkover(0), ([4, 5], [4, 5]));
        assert_eq!(f.match_points(5, 4), (2 + 5, 4));
        assert_eq!(
            MatchFormat::parse(Format::FivesAndThrees, &f.to_value()).unwrap(),
            f
        );
        let mut best_of_3 = MatchFormat::with_boards(3, 0, 3);
        best_of_3.walkover = Walkover::Score { won: 2, lost: 1 };
        assert_eq!(best_of_3.walkover(1), ([2, 1], [4, 2]));
        for (won, lost) in [(4, 5), (4, 4), (6, 4)] {
            f.walkover = Walkover::Score { won, lost };
            assert!(f.check().is_err(), "{won}-{lost}");
        }
    }

    #[test]
    fn impossible_formats_are_refused() {
        let mut f = MatchFormat::default_for(Format::AllFives);
        f.boards[0].best_of = 2;
        assert!(f.check().is_err());
        f.boards.clear();
        assert!(f.check().is_err());
        assert!(MatchFormat::parse(Format::AllFives, &serde_json::json!({"boards": 3})).is_err());
    }
}
