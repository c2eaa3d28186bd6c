//! A fixture's result as recorded (its boards, their players and games),
//! and the check that it names the right players: every player registered
//! to the side they play for, once a board, and every name in a game one of
//! its board's players, each on one side. Storage keeps what passes.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::match_format::BoardKind;
use super::refusal::{BoardFault, Refusal};
use crate::domain::{PlayerId, Side};
use crate::rules::{EndRecord, GameRecord};

/// A fixture's result: its boards in order (board 1 first).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub boards: Vec<BoardResult>,
}

/// One board: who played it for each team, and its games in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardResult {
    pub kind: BoardKind,
    /// The home team's players (registered to it this season).
    pub home: Vec<PlayerId>,
    /// The away team's players.
    pub away: Vec<PlayerId>,
    pub games: Vec<GameResult>,
    /// A board not played: the side that conceded it, the other taking it
    /// as a walkover takes every board. It has no players and no games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conceded_by: Option<Side>,
}

/// One game: its record as in RULES.md (naming the board's players), and
/// the outcome the scoring engine computed from it, kept for the tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub record: GameRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<GameOutcome>,
    /// Entered by its final score only (the outcome's totals), with no
    /// hands: it counts in the tables but not in the per-hand statistics.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub score_only: bool,
}

/// What the engine says of a game: each side's total in the order of the
/// record's `sides`, the winning side's index, whether it is over, and who
/// poses next (a player of the game).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    pub totals: [i64; 2],
    pub winner: Option<usize>,
    pub finished: bool,
    pub next_pose: Option<String>,
}

impl GameOutcome {
    /// The engine's outcome in the form stored beside each game.
    pub fn of(record: &GameRecord, o: &crate::rules::Outcome) -> GameOutcome {
        GameOutcome {
            totals: [i64::from(o.totals[0]), i64::from(o.totals[1])],
            winner: o.winner,
            finished: o.finished,
            next_pose: record.players.get(o.next_pose).cloned(),
        }
    }
}

/// Who may be named on a fixture's boards: each player's name and the side
/// they are registered to for it.
pub type Roster = HashMap<PlayerId, (String, Side)>;

/// Refuses a result that names a player `roster` does not let play where
/// they are named, or whose game records name players inconsistently, with
/// the board and game at fault.
pub fn check_names(result: &MatchResult, roster: &Roster) -> Result<(), Refusal> {
    for (bi, board) in result.boards.iter().enumerate() {
        let bn = bi + 1;
        let names = board_names(bn, board, roster)?;
        for (gi, game) in board.games.iter().enumerate() {
            check_game(game, &names).map_err(|why| Refusal::Game {
                board: bn,
                game: gi + 1,
                why,
            })?;
        }
    }
    Ok(())
}

/// The board's players by name, after checking each is registered to the
/// side they play for and plays once.
fn board_names<'a>(
    bn: usize,
    board: &BoardResult,
    roster: &'a Roster,
) -> Result<HashSet<&'a str>, Refusal> {
    let fault = |why| Refusal::Board { board: bn, why };
    let want = board.kind.players_a_side();
    if board.conceded_by.is_some() {
        if !(board.home.is_empty() && board.away.is_empty() && board.games.is_empty()) {
            return Err(fault(BoardFault::ConcededWithPlay));
        }
    } else if board.home.len() != want || board.away.len() != want {
        return Err(fault(BoardFault::Sides {
            kind: board.kind.as_str(),
            want,
        }));
    }
    let mut names = HashSet::new();
    for (side, ids) in [(Side::Home, &board.home), (Side::Away, &board.away)] {
        for id in ids {
            let (name, registered) = roster
                .get(id)
                .ok_or_else(|| fault(BoardFault::Unregistered(*id)))?;
            if *registered != side {
                return Err(fault(BoardFault::WrongTeam {
                    name: name.clone(),
                    registered: *registered,
                    played: side,
                }));
            }
            if !names.insert(name.as_str()) {
                return Err(fault(BoardFault::Twice(name.clone())));
            }
        }
    }
    Ok(names)
}

/// Why a game's record cannot stand on its board of `board` players.
fn check_game(game: &GameResult, board: &HashSet<&str>) -> Result<(), String> {
    let r = &game.record;
    let mut seats: BTreeMap<&str, bool> = BTreeMap::new();
    for n in &r.players {
        if seats.insert(n, false).is_some() {
            return Err(format!("`{n}` plays twice"));
        }
        if !board.contains(n.as_str()) {
            return Err(format!("`{n}` is not a player of this board"));
        }
    }
    for (side, members) in r.sides.iter().enumerate() {
        if members.is_empty() {
            return Err(format!("side {side} is empty"));
        }
        for n in members {
            match seats.get_mut(n.as_str()) {
                None => return Err(format!("`{n}` is not a player of this game")),
                Some(true) => return Err(format!("`{n}` is on two sides")),
                Some(placed) => *placed = true,
            }
        }
    }
    if let Some(n) = r.players.iter().find(|n| !seats[n.as_str()]) {
        return Err(format!("`{n}` is on no side"));
    }
    let in_game = |n: &str| -> Result<(), String> {
        if seats.contains_key(n) {
            Ok(())
        } else {
            Err(format!("`{n}` is not a player of this game"))
        }
    };
    for (n, _) in r.draw.iter().flatten() {
        in_game(n)?;
    }
    for (hi, hand) in r.hands.iter().enumerate() {
        match &hand.end {
            None => {}
            Some(EndRecord {
                out: Some(n),
                left,
                blocked: None,
                abandoned: false,
            }) => {
                in_game(n)?;
                for n in left.iter().flat_map(BTreeMap::keys) {
                    in_game(n)?;
                }
            }
            Some(EndRecord {
                out: None,
                left: None,
                blocked: Some(counts),
                abandoned: false,
            }) => {
                for n in counts.keys() {
                    in_game(n)?;
                }
            }
            Some(EndRecord {
                out: None,
                left: None,
                blocked: None,
                abandoned: true,
            }) => {}
            Some(_) => {
                return Err(format!(
                    "hand {}: an end is one of out (with left), blocked or abandoned",
                    hi + 1
                ));
            }
        }
        for p in &hand.plays {
            in_game(&p.by)?;
        }
    }
    for p in &r.penalties {
        in_game(&p.player)?;
    }
    let outcome = game.outcome.as_ref();
    if outcome.and_then(|o| o.winner).is_some_and(|w| w > 1) {
        return Err("the winner is side 0 or side 1".into());
    }
    if game.score_only && !(r.hands.is_empty() && outcome.is_some()) {
        return Err("a game entered by its final score has the score and no hands".into());
    }
    if let Some(n) = &r.first_pose {
        in_game(n)?;
    }
    if let Some(n) = outcome.and_then(|o| o.next_pose.as_deref()) {
        in_game(n)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// Ann (1) plays for the home team, Bob (2) and Cy (3) for the away.
    fn roster() -> Roster {
        [
            (PlayerId(1), ("Ann".to_owned(), Side::Home)),
            (PlayerId(2), ("Bob".to_owned(), Side::Away)),
            (PlayerId(3), ("Cy".to_owned(), Side::Away)),
        ]
        .into_iter()
        .collect()
    }

    /// One singles board, `home` against `away`, with one game `record`.
    fn singles(home: &[i64], away: &[i64], record: Value) -> MatchResult {
        MatchResult {
            boards: vec![BoardResult {
                kind: BoardKind::Singles,
                home: home.iter().map(|&i| PlayerId(i)).collect(),
                away: away.iter().map(|&i| PlayerId(i)).collect(),
                games: vec![GameResult {
                    record: serde_json::from_value(record).unwrap(),
                    outcome: None,
                    score_only: false,
                }],
                conceded_by: None,
            }],
        }
    }

    fn game(players: [&str; 2], sides: Value, hands: Value) -> Value {
        json!({
            "format": "fives-and-threes",
            "players": players,
            "sides": sides,
            "first_pose": players[0],
            "hands": hands,
        })
    }

    fn ann_v_bob(hands: Value) -> Value {
        game(["Ann", "Bob"], json!([["Ann"], ["Bob"]]), hands)
    }

    fn refusal(result: &MatchResult) -> String {
        check_names(result, &roster()).unwrap_err().to_string()
    }

    #[test]
    fn a_result_naming_each_player_where_they_play_stands() {
        let hands = json!([{"plays": [{"by": "Ann", "points": 10}], "end": {"out": "Bob", "left": {"Ann": 5}}}]);
        assert_eq!(
            check_names(&singles(&[1], &[2], ann_v_bob(hands)), &roster()),
            Ok(())
        );
    }

    #[test]
    fn a_board_with_a_player_of_neither_team_or_the_wrong_one_is_refused() {
        let refused = check_names(&singles(&[9], &[2], ann_v_bob(json!([]))), &roster());
        assert_eq!(
            refused,
            Err(Refusal::Board {
                board: 1,
                why: BoardFault::Unregistered(PlayerId(9))
            })
        );
        let refused = check_names(&singles(&[2], &[3], ann_v_bob(json!([]))), &roster());
        assert!(matches!(
            refused,
            Err(Refusal::Board {
                why: BoardFault::WrongTeam { .. },
                ..
            })
        ));
    }

    #[test]
    fn a_board_short_of_players_or_conceded_with_play_is_refused() {
        let refused = check_names(&singles(&[1], &[], ann_v_bob(json!([]))), &roster());
        assert!(matches!(
            refused,
            Err(Refusal::Board {
                why: BoardFault::Sides { want: 1, .. },
                ..
            })
        ));
        let mut conceded = singles(&[], &[], ann_v_bob(json!([])));
        conceded.boards[0].conceded_by = Some(Side::Home);
        assert_eq!(
            check_names(&conceded, &roster()),
            Err(Refusal::Board {
                board: 1,
                why: BoardFault::ConcededWithPlay
            })
        );
        conceded.boards[0].games.clear();
        assert_eq!(check_names(&conceded, &roster()), Ok(()));
    }

    #[test]
    fn a_game_naming_someone_off_the_board_or_off_the_game_is_refused() {
        let off_board = game(["Ann", "Cy"], json!([["Ann"], ["Cy"]]), json!([]));
        assert!(
            refusal(&singles(&[1], &[2], off_board)).contains("`Cy` is not a player of this board")
        );
        let hands = json!([{"plays": [{"by": "Cy", "points": 5}]}]);
        assert!(
            refusal(&singles(&[1], &[2], ann_v_bob(hands)))
                .contains("`Cy` is not a player of this game")
        );
        let blocked = json!([{"plays": [], "end": {"blocked": {"Ann": 3, "Zed": 4}}}]);
        assert!(refusal(&singles(&[1], &[2], ann_v_bob(blocked))).contains("`Zed`"));
    }

    #[test]
    fn a_game_whose_sides_do_not_seat_each_player_once_is_refused() {
        let twice = game(["Ann", "Bob"], json!([["Ann"], ["Ann"]]), json!([]));
        assert!(refusal(&singles(&[1], &[2], twice)).contains("`Ann` is on two sides"));
        let nobody = game(["Ann", "Bob"], json!([["Ann"], []]), json!([]));
        assert!(refusal(&singles(&[1], &[2], nobody)).contains("side 1 is empty"));
    }

    #[test]
    fn an_end_of_two_kinds_at_once_is_refused() {
        let both = json!([{"plays": [], "end": {"out": "Ann", "blocked": {"Ann": 1}}}]);
        assert!(
            refusal(&singles(&[1], &[2], ann_v_bob(both))).contains("hand 1: an end is one of")
        );
    }
}
