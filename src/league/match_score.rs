//! A match's score from its boards: each board to the side that won
//! enough of its games (or against the side that conceded it), a
//! walkover's score, and the matches a division table counts.

use std::collections::HashMap;

use super::match_format::MatchFormat;
use super::standings::MatchLine;
use crate::domain::{FixtureId, FixtureStatus, ResultStatus, Side, TeamId};

/// One board of a fixture's current result, summed from its games' stored
/// outcomes and oriented home/away (whichever side of each game record the
/// home team's players sat on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardLine {
    pub fixture_id: FixtureId,
    /// The status of the result version it comes from.
    pub status: ResultStatus,
    /// 1-based.
    pub board: i64,
    pub home_games: i64,
    pub away_games: i64,
    pub home_pegs: i64,
    pub away_pegs: i64,
    /// A board not played: the side that conceded it (no games, no pegs).
    pub conceded_by: Option<Side>,
}

/// What a fixture's score depends on, besides its boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixtureFacts {
    pub id: FixtureId,
    pub round: i64,
    pub home: TeamId,
    pub away: TeamId,
    pub status: FixtureStatus,
    /// A walkover: the side that conceded it.
    pub conceded_by: Option<Side>,
    pub playoff: bool,
}

/// A fixture as some record holds it.
pub trait Fixture {
    fn facts(&self) -> FixtureFacts;
}

impl Fixture for FixtureFacts {
    fn facts(&self) -> FixtureFacts {
        *self
    }
}

/// A fixture's score in boards, home first, with games and pegs; from its
/// current result, or the walkover score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub boards: [u32; 2],
    pub games: [u32; 2],
    pub pegs: [u32; 2],
    /// The result's status; `None` for a walkover.
    pub status: Option<ResultStatus>,
}

impl Score {
    /// Not yet approved: shown as provisional, never counted.
    pub fn provisional(&self) -> bool {
        self.status.is_some_and(|s| s != ResultStatus::Approved)
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// Each fixture's score from its board lines, each board to the side
/// [`MatchFormat::board_winner`] gives it to.
pub fn scores_from_boards(boards: &[BoardLine], format: &MatchFormat) -> HashMap<FixtureId, Score> {
    let mut out: HashMap<FixtureId, Score> = HashMap::new();
    for b in boards {
        let score = out.entry(b.fixture_id).or_insert(Score {
            boards: [0, 0],
            games: [0, 0],
            pegs: [0, 0],
            status: Some(b.status),
        });
        let number = usize::try_from(b.board).unwrap_or(0);
        let board = board_tally(
            format,
            number,
            b.conceded_by,
            [count(b.home_games), count(b.away_games)],
        );
        if let Some(side) = board.winner {
            score.boards[side] += 1;
        }
        for (total, won) in score.games.iter_mut().zip(board.games) {
            *total += won;
        }
        score.pegs[0] += count(b.home_pegs);
        score.pegs[1] += count(b.away_pegs);
    }
    out
}

/// A board as the tables count it: the games each side won, home first,
/// and the side (0 home, 1 away) it went to, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardTally {
    pub games: [u32; 2],
    pub winner: Option<usize>,
}

/// Board `number` (1-based) of `format`, whose games went `won` (home
/// first): to the side [`MatchFormat::board_winner`] gives it to. A board
/// conceded goes to the other side with the games that win it, as a
/// walkover gives every board; the games played on it, if any, are not
/// counted.
pub fn board_tally(
    format: &MatchFormat,
    number: usize,
    conceded_by: Option<Side>,
    won: [u32; 2],
) -> BoardTally {
    let games = match conceded_by {
        Some(side) => {
            let need = number
                .checked_sub(1)
                .and_then(|i| format.boards.get(i))
                .map_or(1, MatchFormat::games_to_win);
            match side {
                Side::Home => [0, need],
                Side::Away => [need, 0],
            }
        }
        None => won,
    };
    BoardTally {
        games,
        winner: format.board_winner(number, games),
    }
}

/// The walkover score ([`MatchFormat::walkover`]); no pegs.
pub fn walkover_score(format: &MatchFormat, conceded_by: Side) -> Score {
    let (boards, games) = format.walkover(match conceded_by {
        Side::Home => 0,
        Side::Away => 1,
    });
    Score {
        boards,
        games,
        pegs: [0, 0],
        status: None,
    }
}

/// What a fixture's line shows as its score: the walkover score, the
/// current result's (provisional or not), or nothing (not played, void).
pub fn fixture_score(
    fixture: &impl Fixture,
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> Option<Score> {
    let fixture = fixture.facts();
    match (fixture.status, fixture.conceded_by) {
        (FixtureStatus::Void, _) => None,
        (FixtureStatus::Walkover, Some(side)) => Some(walkover_score(format, side)),
        (FixtureStatus::Walkover, None) => None,
        _ => scores.get(&fixture.id).copied(),
    }
}

/// The matches a division table counts: each fixture's approved current
/// result (not a void fixture's or a walkover's), and each walkover; never
/// a play-off (see [`playoff_lines`]).
/// Rounds below 1 or past `u32` cannot occur (the schema checks them).
pub fn match_lines(
    fixtures: &[impl Fixture],
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> Vec<MatchLine> {
    counted_lines(fixtures, scores, format, false)
}

/// The play-offs' counted results, which settle only the order of teams
/// level on every rule
/// ([`settle_by_playoffs`](super::standings::settle_by_playoffs)).
pub fn playoff_lines(
    fixtures: &[impl Fixture],
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
) -> Vec<MatchLine> {
    counted_lines(fixtures, scores, format, true)
}

fn counted_lines(
    fixtures: &[impl Fixture],
    scores: &HashMap<FixtureId, Score>,
    format: &MatchFormat,
    playoffs: bool,
) -> Vec<MatchLine> {
    fixtures
        .iter()
        .filter(|f| f.facts().playoff == playoffs)
        .filter_map(|f| {
            let score = fixture_score(f, scores, format)?;
            let f = f.facts();
            if score.provisional() {
                return None;
            }
            Some(MatchLine {
                round: u32::try_from(f.round).unwrap_or(u32::MAX),
                home: f.home.0,
                away: f.away.0,
                boards: score.boards,
                games: score.games,
                pegs: score.pegs,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Format;

    fn board(fixture: i64, board: i64, games: [i64; 2], status: ResultStatus) -> BoardLine {
        BoardLine {
            fixture_id: FixtureId(fixture),
            status,
            board,
            home_games: games[0],
            away_games: games[1],
            home_pegs: games[0] * 61,
            away_pegs: games[1] * 40,
            conceded_by: None,
        }
    }

    #[test]
    fn a_conceded_board_goes_to_the_other_side_with_the_games_that_win_it() {
        let format = MatchFormat::default_for(Format::AllFives);
        let mut conceded = board(1, 2, [0, 0], ResultStatus::Approved);
        conceded.conceded_by = Some(Side::Away);
        let lines = [board(1, 1, [0, 2], ResultStatus::Approved), conceded];
        let s = scores_from_boards(&lines, &format)[&FixtureId(1)];
        assert_eq!((s.boards, s.games), ([1, 1], [2, 2]));
        assert_eq!(s.pegs, [0, 80], "a board not played has no pegs");
    }

    #[test]
    fn boards_go_to_the_side_that_won_enough_games() {
        let format = MatchFormat::default_for(Format::AllFives);
        let lines = [
            board(1, 1, [2, 1], ResultStatus::Approved),
            board(1, 2, [0, 2], ResultStatus::Approved),
            board(1, 3, [1, 1], ResultStatus::Approved),
            board(1, 4, [2, 0], ResultStatus::Approved),
        ];
        let s = scores_from_boards(&lines, &format)[&FixtureId(1)];
        assert_eq!(s.boards, [2, 1]);
        assert_eq!(s.games, [5, 4]);
        assert_eq!(s.pegs, [5 * 61, 4 * 40]);
        assert!(!s.provisional());
    }

    #[test]
    fn walkovers_count_and_provisional_results_do_not() {
        let format = MatchFormat::default_for(Format::FivesAndThrees);
        let w = walkover_score(&format, Side::Home);
        assert_eq!((w.boards, w.games, w.pegs), ([0, 9], [0, 9], [0, 0]));
        let scores = scores_from_boards(&[board(2, 1, [1, 0], ResultStatus::Entered)], &format);
        assert!(scores[&FixtureId(2)].provisional());
        let line = |id, status, conceded_by| FixtureFacts {
            id: FixtureId(id),
            round: 1,
            home: TeamId(10),
            away: TeamId(11),
            status,
            conceded_by,
            playoff: false,
        };
        let fixtures = [
            line(2, FixtureStatus::Played, None),
            line(3, FixtureStatus::Walkover, Some(Side::Home)),
            line(4, FixtureStatus::Void, None),
        ];
        let lines = match_lines(&fixtures, &scores, &format);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].boards, [0, 9]);
    }
}
