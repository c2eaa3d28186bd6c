//! How big a record may be: far above any game that was ever played, low
//! enough that a made-up one is refused before it costs anything.
//!
//! A Fives and Threes game whose plays are all disregarded never ends, so
//! without a limit a record of 60,000 hands was a valid game: it held the
//! database for seconds and made its match page megabytes long. The
//! longest real games are a few dozen hands of a handful of plays each.

use super::error::RecordError;
use super::record::GameRecord;

/// Hands in one game. Fives and Threes to 61 takes some 5 to 20 hands,
/// All Fives to 121 up to about 40, hands-won fewer.
pub const HANDS_A_GAME: usize = 200;

/// Scoring plays in one hand: a hand has at most 28 tiles to play.
pub const PLAYS_A_HAND: usize = 60;

/// In-game penalties in one game.
pub const PENALTIES_A_GAME: usize = 100;

/// Games on one board: a board is one game or the best of 3, 5, 7 or 9.
pub const GAMES_A_BOARD: u32 = 9;

/// Boards in one match.
pub const BOARDS_A_MATCH: usize = 24;

/// Refuses a record longer than any real game, before any of it is read
/// further. The message says what and where, in a person's words.
pub fn check(record: &GameRecord) -> Result<(), RecordError> {
    if record.hands.len() > HANDS_A_GAME {
        return Err(RecordError::hand(
            HANDS_A_GAME,
            format!(
                "this game has {} hands, more than {HANDS_A_GAME}: no real game is that long",
                record.hands.len()
            ),
        ));
    }
    if let Some((h, hand)) = record
        .hands
        .iter()
        .enumerate()
        .find(|(_, hand)| hand.plays.len() > PLAYS_A_HAND)
    {
        return Err(RecordError::play(
            h,
            PLAYS_A_HAND,
            format!(
                "this hand has {} scoring plays, more than {PLAYS_A_HAND}: no real hand is that long",
                hand.plays.len()
            ),
        ));
    }
    if record.penalties.len() > PENALTIES_A_GAME {
        return Err(RecordError::game(format!(
            "this game has {} penalties, more than {PENALTIES_A_GAME}: no real game has that many",
            record.penalties.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::rules::{Game, PlayRecord, parse_record};

    /// A Fives and Threes game of `hands` blocked hands: nobody scores, so
    /// it never ends, and every hand of it is valid.
    fn endless(hands: usize) -> String {
        let hand = r#"{"plays":[],"end":{"blocked":{"Ann":3,"Bob":4}}}"#;
        format!(
            r#"{{"format":"fives-and-threes","players":["Ann","Bob"],"sides":[["Ann"],["Bob"]],"first_pose":"Ann","hands":[{}]}}"#,
            vec![hand; hands].join(",")
        )
    }

    #[test]
    fn a_game_of_sixty_thousand_hands_is_refused_at_once() {
        let json = endless(60_000);
        let record = parse_record(&json).expect("it reads as a record");
        // The count is checked before any hand is looked at.
        let started = Instant::now();
        let err = Game::from_record(&record).unwrap_err();
        let took = started.elapsed();
        assert_eq!(err.hand, Some(HANDS_A_GAME + 1));
        assert!(
            err.to_string()
                .contains("more than 200: no real game is that long"),
            "{err}"
        );
        assert!(took < Duration::from_millis(500), "took {took:?}");
    }

    #[test]
    fn the_longest_allowed_game_still_reads() {
        // The hands are valid on their own: only their number is refused.
        let record = parse_record(&endless(HANDS_A_GAME)).unwrap();
        Game::from_record(&record).expect("200 hands are allowed");
    }

    #[test]
    fn a_hand_of_too_many_plays_is_refused_by_its_place() {
        let mut record = parse_record(&endless(3)).unwrap();
        record.hands[1].plays = vec![PlayRecord::new("Ann", 3); PLAYS_A_HAND + 1];
        let err = Game::from_record(&record).unwrap_err();
        assert_eq!((err.hand, err.play), (Some(2), Some(PLAYS_A_HAND + 1)));
        assert!(err.message.contains("no real hand is that long"), "{err}");
    }
}
