//! One board of a match card: its games read from card text in order, the
//! rotation of pose carried from game to game, and who took the board. A
//! game may also be entered by its final score alone (`final 61-47`, home
//! first) on a night kept without hand-by-hand detail, when the season
//! allows it.

use crate::rules::{Format, Game, GameRecord, Outcome, Ruleset, score};

use super::card::{CardError, CardGame, locate, parse_game};

/// One game as typed and as the engine read it.
#[derive(Debug, Clone, Default)]
pub struct GameEntry {
    pub text: String,
    pub record: Option<GameRecord>,
    pub game: Option<Game>,
    pub outcome: Option<Outcome>,
    /// A game entered by its final score only: home's and away's totals.
    pub final_score: Option<[u32; 2]>,
    /// Every mistake found in the game, in line order; empty when it reads.
    pub errors: Vec<CardError>,
}

impl GameEntry {
    /// Whether the game was read, by its hands or by its final score.
    pub fn is_read(&self) -> bool {
        self.outcome.is_some() || self.final_score.is_some()
    }
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
        self.games.iter().any(|g| !g.errors.is_empty())
    }
}

/// The final score written `final 61-47` (home first), checked against the
/// rules: `None` when the text is not a final score at all.
pub fn final_score(text: &str, ruleset: &Ruleset) -> Option<Result<[u32; 2], String>> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let rest = lines.first()?.to_ascii_lowercase();
    let score = rest.strip_prefix("final")?.trim().to_owned();
    if lines.len() > 1 {
        return Some(Err(
            "a game entered by its final score is that one line only, like `final 61-47`".into(),
        ));
    }
    let usage = || format!("`final {score}`: write the final score home first, like `final 61-47`");
    let Some((h, a)) = score.split_once(['-', '–']) else {
        return Some(Err(usage()));
    };
    let (Ok(h), Ok(a)) = (h.trim().parse::<u32>(), a.trim().parse::<u32>()) else {
        return Some(Err(usage()));
    };
    Some(check_final(h, a, ruleset).map(|()| [h, a]))
}

/// A final score the rules could have produced: one side reached the
/// winning total (exactly, when the finish must be exact) and the other
/// did not.
fn check_final(h: u32, a: u32, r: &Ruleset) -> Result<(), String> {
    let (win, lose) = (h.max(a), h.min(a));
    if win == lose {
        return Err(format!(
            "{h}-{a}: a game has a winner, so the scores differ"
        ));
    }
    match r.format {
        Format::FivesAndThrees | Format::AllFives => {
            let target = r.target;
            if r.exact_finish && r.format == Format::FivesAndThrees && win != target {
                return Err(format!("{h}-{a}: the winner finishes on exactly {target}"));
            }
            if win < target {
                return Err(format!("{h}-{a}: nobody reached {target}"));
            }
            if lose >= target {
                return Err(format!(
                    "{h}-{a}: the game ends when one side reaches {target}, so the other has less"
                ));
            }
            if r.format == Format::AllFives && (h % 5 != 0 || a % 5 != 0) {
                return Err(format!("{h}-{a}: All Fives scores go in fives"));
            }
        }
        Format::HandsWon => {
            if win < r.set_to {
                return Err(format!("{h}-{a}: a set is won with {} hands", r.set_to));
            }
        }
    }
    Ok(())
}

/// Reads a board's game texts. `players` are in order of play (home
/// first, sides alternating); empty texts are games not played.
pub fn read_board(
    texts: &[String],
    players: &[String],
    ruleset: &Ruleset,
    best_of: u32,
    final_scores_allowed: bool,
) -> BoardEntry {
    let options = ruleset.options();
    let to_win = best_of / 2 + 1;
    let mut board = BoardEntry::default();
    let mut carried: Option<String> = None;
    let mut blocked_by: Option<String> = None;
    // After a game known by its score only, nobody knows who poses next:
    // the next game opens with the draw or `pose`, as a board's first does.
    let mut after_score_only = false;
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
            entry.errors.push(CardError {
                line: 1,
                message: why.clone(),
            });
            board.games.push(entry);
            continue;
        }
        if let Some(read) = final_score(text, ruleset) {
            match read {
                Err(message) if !final_scores_allowed => {
                    entry.errors.push(CardError { line: 1, message });
                }
                _ if !final_scores_allowed => entry.errors.push(CardError {
                    line: 1,
                    message: "this season's games are entered hand by hand: a final score alone is not allowed (a secretary can allow it in the season's settings)".into(),
                }),
                Err(message) => entry.errors.push(CardError { line: 1, message }),
                Ok(score) => {
                    let w = usize::from(score[1] > score[0]);
                    board.games_won[w] += 1;
                    entry.final_score = Some(score);
                    carried = None;
                    after_score_only = true;
                }
            }
            finish_game(&mut board, entry, to_win, &mut blocked_by);
            continue;
        }
        let opens_fresh = g == 0 || std::mem::take(&mut after_score_only);
        let card = CardGame {
            format: ruleset.format,
            options: &options,
            players,
            carried_pose: if opens_fresh {
                None
            } else {
                carried.as_deref()
            },
        };
        if !opens_fresh && carried.is_none() {
            entry.errors.push(CardError {
                line: 1,
                message: format!("game {g} comes first: enter it before game {}", g + 1),
            });
            board.games.push(entry);
            continue;
        }
        match parse_game(text, &card) {
            Err(errors) => entry.errors = errors,
            Ok((record, lines)) => {
                let read = Game::check_record(&record)
                    .and_then(|game| Ok((score(&game).map_err(|e| vec![e])?, game)));
                match read {
                    Err(errors) => {
                        entry.errors = errors.iter().map(|e| locate(e, &lines, &record)).collect();
                        entry.errors.sort_by_key(|e| e.line);
                    }
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
        finish_game(&mut board, entry, to_win, &mut blocked_by);
    }
    board
}

/// Adds a read game to its board, and stops the board once it is won.
fn finish_game(
    board: &mut BoardEntry,
    entry: GameEntry,
    to_win: u32,
    blocked_by: &mut Option<String>,
) {
    if board.winner.is_none() {
        if let Some(side) = (0..2).find(|&s| board.games_won[s] >= to_win) {
            board.winner = Some(side);
            blocked_by.get_or_insert_with(|| "the board was already won".to_owned());
        }
    }
    board.games.push(entry);
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
        let b = read_board(&texts, &players, &ruleset, 3, false);
        assert!(
            !b.has_errors(),
            "{:?}",
            b.games.iter().map(|g| &g.errors).collect::<Vec<_>>()
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
        let b = read_board(&texts, &players, &ruleset, 3, false);
        assert_eq!(b.winner, Some(0));
        assert!(b.games[2].errors[0].message.contains("already won"));
    }

    #[test]
    fn an_unfinished_game_must_be_the_last() {
        let players: Vec<String> = ["Ann", "Bob"].iter().map(|s| s.to_string()).collect();
        let ruleset = Ruleset::new(Format::AllFives);
        let texts = vec![
            "draw 6-6 1-0\nA20 / blocked 1 1\n".to_owned(),
            "A20\n".to_owned(),
        ];
        let b = read_board(&texts, &players, &ruleset, 3, false);
        assert!(b.games[1].errors[0].message.contains("not finished"));
        assert_eq!(b.winner, None);
    }

    fn fives_and_threes_singles() -> (Vec<String>, Ruleset) {
        let players = ["Ann", "Bob"].iter().map(|s| s.to_string()).collect();
        (players, Ruleset::new(Format::FivesAndThrees))
    }

    #[test]
    fn every_mistake_of_a_game_is_listed_at_once_on_its_own_line() {
        let (players, ruleset) = fives_and_threes_singles();
        // Two notation mistakes (lines 2 and 4), then two the engine finds
        // hand by hand (lines 2 and 3 of a text that reads).
        let texts = vec!["draw 6-1 4-3\nA2 Z8\nB3 / out B\nA2 / sideways\n".to_owned()];
        let b = read_board(&texts, &players, &ruleset, 1, false);
        let lines: Vec<usize> = b.games[0].errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 4], "{:?}", b.games[0].errors);
        let texts = vec!["draw 6-1 4-3\nA5 / blocked\nB7 / blocked\nA2 / blocked\n".to_owned()];
        let b = read_board(&texts, &players, &ruleset, 1, false);
        let errors = &b.games[0].errors;
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3]);
        assert!(errors[0].message.starts_with("`A5`: "), "{errors:?}");
    }

    #[test]
    fn a_hand_typed_after_the_win_is_blamed_on_its_own_line() {
        let (players, ruleset) = fives_and_threes_singles();
        // 48 in hand 1; A reaches 61 with the last play of hand 2 (line 3).
        let texts =
            vec!["draw 6-1 4-3\nA8 A8 A8 A8 A8 A8 / blocked\nA8 A4 A1\nB2 / blocked\n".to_owned()];
        let b = read_board(&texts, &players, &ruleset, 1, false);
        let errors = &b.games[0].errors;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, 4, "{errors:?}");
        assert!(
            errors[0].message.contains("already won")
                && errors[0].message.contains("should not be there"),
            "{errors:?}"
        );
    }

    #[test]
    fn engine_refusals_are_worded_for_the_card_not_for_json() {
        let (players, ruleset) = fives_and_threes_singles();
        let texts = vec!["draw 6-1 4-3\nA2 B3 / out B\n".to_owned()];
        let b = read_board(&texts, &players, &ruleset, 1, false);
        let message = &b.games[0].errors[0].message;
        assert!(
            !message.contains('"') && !message.contains("true"),
            "{message}"
        );
        assert!(message.contains("with an x, like `C1x`"), "{message}");
        // A hand with no end, mid-game, says how to end the line.
        let texts = vec!["draw 6-1 4-3\nA2 B3\nA4x / out A\n".to_owned()];
        let b = read_board(&texts, &players, &ruleset, 1, false);
        let e = &b.games[0].errors[0];
        assert_eq!(e.line, 2);
        assert!(e.message.contains("finish the line with /"), "{e}");
    }

    #[test]
    fn a_final_score_alone_when_the_season_allows_it() {
        let (players, ruleset) = fives_and_threes_singles();
        let texts = vec!["final 47-61\n".to_owned()];
        let refused = read_board(&texts, &players, &ruleset, 1, false);
        assert!(refused.games[0].errors[0].message.contains("not allowed"));
        let b = read_board(&texts, &players, &ruleset, 1, true);
        assert!(!b.has_errors());
        assert_eq!(
            (b.games[0].final_score, b.winner),
            (Some([47, 61]), Some(1))
        );
        for (bad, why) in [
            ("final 60-47", "exactly 61"),
            ("final 61-61", "differ"),
            ("final 61", "home first"),
            ("final 61-47\nA2 / out A", "one line only"),
        ] {
            let b = read_board(&[bad.to_owned()], &players, &ruleset, 1, true);
            assert!(
                b.games[0].errors[0].message.contains(why),
                "{bad}: {:?}",
                b.games[0].errors
            );
        }
        // All Fives in fives, to 250; the next game of the board opens
        // with its own draw or pose, since nobody knows who poses next.
        let ruleset = Ruleset::parse(
            Format::AllFives,
            serde_json::json!({"target": 20}).as_object(),
        )
        .unwrap();
        let texts = vec![
            "final 20-5".to_owned(),
            "pose B\nB20".to_owned(),
            "final 20-3".to_owned(),
        ];
        let b = read_board(&texts, &players, &ruleset, 3, true);
        assert_eq!(b.games[1].errors.len(), 0, "{:?}", b.games[1].errors);
        assert_eq!(b.games_won, [1, 1]);
        assert!(b.games[2].errors[0].message.contains("fives"));
    }
}
