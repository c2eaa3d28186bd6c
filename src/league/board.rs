//! One board of a match card: its games read from card text in order, the
//! rotation of pose carried from game to game, and who took the board.

use crate::rules::{Game, GameRecord, Outcome, Ruleset, score};

use super::card::{CardError, CardGame, locate, parse_game};

/// One game as typed and as the engine read it.
#[derive(Debug, Clone, Default)]
pub struct GameEntry {
    pub text: String,
    pub record: Option<GameRecord>,
    pub game: Option<Game>,
    pub outcome: Option<Outcome>,
    pub error: Option<CardError>,
}

/// A board's games and where it stands.
#[derive(Debug, Clone, Default)]
pub struct BoardEntry {
    pub games: Vec<GameEntry>,
    /// Games won by each side (side 0 is the home team).
    pub games_won: [u32; 2],
    pub winner: Option<usize>,
}

impl BoardEntry {
    pub fn has_errors(&self) -> bool {
        self.games.iter().any(|g| g.error.is_some())
    }

    /// The games that were played, as records, with their outcomes.
    pub fn played(&self) -> impl Iterator<Item = (&GameRecord, &Outcome)> {
        self.games
            .iter()
            .filter_map(|g| Some((g.record.as_ref()?, g.outcome.as_ref()?)))
    }
}

/// Reads a board's game texts. `players` are in order of play (home
/// first, sides alternating); empty texts are games not played.
pub fn read_board(
    texts: &[String],
    players: &[String],
    ruleset: &Ruleset,
    best_of: u32,
) -> BoardEntry {
    let options = ruleset.options();
    let to_win = best_of / 2 + 1;
    let mut board = BoardEntry::default();
    let mut carried: Option<String> = None;
    let mut blocked_by: Option<String> = None;
    for (g, text) in texts.iter().enumerate() {
        let mut entry = GameEntry {
            text: text.clone(),
            ..GameEntry::default()
        };
        if text.trim().is_empty() {
            board.games.push(entry);
            continue;
        }
        if let Some(why) = &blocked_by {
            entry.error = Some(CardError {
                line: 1,
                message: why.clone(),
            });
            board.games.push(entry);
            continue;
        }
        let card = CardGame {
            format: ruleset.format,
            options: &options,
            players,
            carried_pose: if g == 0 { None } else { carried.as_deref() },
        };
        if g > 0 && carried.is_none() {
            entry.error = Some(CardError {
                line: 1,
                message: format!("game {g} comes first: enter it before game {}", g + 1),
            });
            board.games.push(entry);
            continue;
        }
        match parse_game(text, &card) {
            Err(e) => entry.error = Some(e),
            Ok((record, lines)) => {
                match Game::from_record(&record).and_then(|game| Ok((score(&game)?, game))) {
                    Err(e) => entry.error = Some(locate(&e, &lines)),
                    Ok((outcome, game)) => {
                        if let Some(w) = outcome.winner {
                            board.games_won[w] += 1;
                            carried = Some(game.players[outcome.next_pose].clone());
                        } else {
                            blocked_by = Some(format!(
                                "game {} is not finished yet, so game {} cannot have started",
                                g + 1,
                                g + 2
                            ));
                        }
                        entry.record = Some(record);
                        entry.game = Some(game);
                        entry.outcome = Some(outcome);
                    }
                }
            }
        }
        if board.winner.is_none() {
            if let Some(side) = (0..2).find(|&s| board.games_won[s] >= to_win) {
                board.winner = Some(side);
                blocked_by.get_or_insert_with(|| "the board was already won".to_owned());
            }
        }
        board.games.push(entry);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Format;

    #[test]
    fn the_pose_carries_from_game_to_game_and_the_board_stops_when_won() {
        let players: Vec<String> = ["Ann", "Bob"].iter().map(|s| s.to_string()).collect();
        let ruleset = Ruleset::parse(
            Format::AllFives,
            serde_json::json!({"target": 20}).as_object(),
        )
        .unwrap();
        let texts = vec![
            "draw 6-6 1-0\nA20\n".to_owned(),
            "A10 B20\n".to_owned(),
            "B20\n".to_owned(),
        ];
        let b = read_board(&texts, &players, &ruleset, 3);
        assert!(
            !b.has_errors(),
            "{:?}",
            b.games.iter().map(|g| &g.error).collect::<Vec<_>>()
        );
        // Game 1 posed by Ann (6-6), won mid-hand: game 2 is posed by Bob.
        assert_eq!(
            b.games[1].record.as_ref().unwrap().first_pose.as_deref(),
            Some("Bob")
        );
        assert_eq!((b.games_won, b.winner), ([1, 2], Some(1)));
        let texts = vec![
            "draw 6-6 1-0\nA20\n".to_owned(),
            "B5 A20\n".to_owned(),
            "B20\n".to_owned(),
        ];
        let b = read_board(&texts, &players, &ruleset, 3);
        assert_eq!(b.winner, Some(0));
        assert!(
            b.games[2]
                .error
                .as_ref()
                .unwrap()
                .message
                .contains("already won")
        );
    }

    #[test]
    fn an_unfinished_game_must_be_the_last() {
        let players: Vec<String> = ["Ann", "Bob"].iter().map(|s| s.to_string()).collect();
        let ruleset = Ruleset::new(Format::AllFives);
        let texts = vec![
            "draw 6-6 1-0\nA20 / blocked 1 1\n".to_owned(),
            "A20\n".to_owned(),
        ];
        let b = read_board(&texts, &players, &ruleset, 3);
        assert!(
            b.games[1]
                .error
                .as_ref()
                .unwrap()
                .message
                .contains("not finished")
        );
        assert_eq!(b.winner, None);
    }
}
