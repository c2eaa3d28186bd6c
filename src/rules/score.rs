//! Scoring a validated game: the driver shared by the three formats. It
//! walks the hands in order, applies in-game penalties where they fall,
//! rotates the pose and refuses a record that goes on after the game was
//! won. What a hand is worth is each format's own module.

use super::error::RecordError;
use super::game::{Game, Hand, Seat};
use super::pose::{first_poser, next_poser};
use super::ruleset::Format;
use super::{all_fives, fives_and_threes, hands_won};

/// What the engine computed for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Each side's score in the order of `sides` (`hands-won`: games).
    pub totals: [u32; 2],
    pub finished: bool,
    pub winner: Option<usize>,
    /// Who poses the next hand, or the first hand of the board's next game
    /// once this one is won.
    pub next_pose: Seat,
    pub hands: Vec<HandOutcome>,
    /// Each seat's individual tally.
    pub players: Vec<PlayerTally>,
    /// Where the game was won, if it was.
    pub won_at: Option<WonAt>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandOutcome {
    pub posed_by: Seat,
    /// `hands-won`: games the hand gave (0 for a tied or void hand);
    /// elsewhere 1.
    pub worth: u32,
    pub totals_after: [u32; 2],
    /// 1-based numbers of the plays disregarded by the exact-finish rule.
    pub disregarded: Vec<usize>,
    /// `hands-won`: the side that won the hand.
    pub winner: Option<usize>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerTally {
    pub games_won: u32,
    pub games_lost: u32,
    pub penalty_games: u32,
    /// `hands-won`: forfeited the set by arriving too late.
    pub forfeited: bool,
}

/// The moment the game was won: a play (0-based hand and play), the end of
/// a hand, or a penalty given before a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WonAt {
    pub hand: usize,
    pub play: Option<usize>,
}

impl WonAt {
    fn describe(self) -> String {
        match self.play {
            Some(p) => format!("at hand {}, play {}", self.hand + 1, p + 1),
            None => format!("at hand {}", self.hand + 1),
        }
    }
}

/// One hand's result as a format module reports it.
pub(crate) struct HandResult {
    pub worth: u32,
    pub disregarded: Vec<usize>,
    pub side: Option<usize>,
    /// The player who won the hand, for the `winner` pose option.
    pub player: Option<Seat>,
}

/// The running state a format module updates.
pub(crate) struct Running {
    pub totals: [u32; 2],
    pub won: Option<(usize, WonAt)>,
    pub players: Vec<PlayerTally>,
    /// `hands-won`: tied hands since the last hand won.
    pub ties: u32,
}

impl Running {
    /// Records a win by `side` if nobody has won yet.
    pub fn win(&mut self, side: usize, at: WonAt) {
        if self.won.is_none() {
            self.won = Some((side, at));
        }
    }

    /// The error for anything recorded after the game was won.
    pub fn already_won(&self) -> Option<String> {
        self.won
            .map(|(_, at)| format!("the game was already won {}", at.describe()))
    }
}

/// Scores a validated game exactly as RULES.md says.
pub fn score(game: &Game) -> Result<Outcome, RecordError> {
    score_game(game, false)
}

/// Scores a game still being played (the score pad): its last hand may be
/// open, with no `end` yet. Everything else is as [`score`].
pub fn score_in_play(game: &Game) -> Result<Outcome, RecordError> {
    score_game(game, true)
}

fn score_game(game: &Game, last_hand_open: bool) -> Result<Outcome, RecordError> {
    let mut run = Running {
        totals: [0, 0],
        won: None,
        players: vec![PlayerTally::default(); game.players.len()],
        ties: 0,
    };
    let mut hands = Vec::with_capacity(game.hands.len());
    let mut poser = first_poser(game);
    for h in 0..=game.hands.len() {
        apply_penalties(game, h, &mut run)?;
        let Some(hand) = game.hands.get(h) else { break };
        if let Some(why) = run.already_won() {
            return Err(RecordError::hand(
                h,
                format!("{why}; a record stops at the winning play"),
            ));
        }
        let result = score_hand(game, h, hand, poser, &mut run)?;
        let may_be_open = last_hand_open && h + 1 == game.hands.len();
        if hand.end.is_none() && run.won.is_none() && !may_be_open {
            return Err(RecordError::hand(
                h,
                "the hand has no `end`, and the game was not won during it",
            ));
        }
        hands.push(HandOutcome {
            posed_by: poser,
            worth: result.worth,
            totals_after: run.totals,
            disregarded: result.disregarded,
            winner: result.side,
        });
        // A hand cut short by the winning play had no winner of its own.
        let winner = hand.end.as_ref().and(result.player);
        poser = next_poser(game, poser, winner);
    }
    if game.ruleset.format == Format::HandsWon {
        hands_won::settle_players(game, &mut run);
    }
    Ok(Outcome {
        totals: run.totals,
        finished: run.won.is_some(),
        winner: run.won.map(|(side, _)| side),
        next_pose: poser,
        hands,
        players: run.players,
        won_at: run.won.map(|(_, at)| at),
    })
}

fn score_hand(
    game: &Game,
    h: usize,
    hand: &Hand,
    poser: Seat,
    run: &mut Running,
) -> Result<HandResult, RecordError> {
    match game.ruleset.format {
        Format::FivesAndThrees => fives_and_threes::score_hand(game, h, hand, poser, run),
        Format::AllFives => all_fives::score_hand(game, h, hand, poser, run),
        Format::HandsWon => Ok(hands_won::score_hand(game, h, hand, poser, run)),
    }
}

fn apply_penalties(game: &Game, h: usize, run: &mut Running) -> Result<(), RecordError> {
    for (i, penalty) in game.penalties.iter().enumerate() {
        if penalty.before_hand != h {
            continue;
        }
        match game.ruleset.format {
            Format::AllFives => {
                if let Some(why) = run.already_won() {
                    return Err(RecordError::game(format!(
                        "penalty {}: {why}; nothing may follow the winning play",
                        i + 1
                    )));
                }
                all_fives::apply_penalty(game, penalty, run);
            }
            Format::HandsWon => hands_won::apply_penalty(game, penalty, run),
            // Validation refuses penalties in a fives-and-threes record.
            Format::FivesAndThrees => {}
        }
    }
    Ok(())
}
