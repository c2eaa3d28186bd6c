//! Fives and Threes: pegging to exactly 61.

use super::error::RecordError;
use super::game::{End, Game, Hand, Seat};
use super::points;
use super::pose::lowest_holder;
use super::score::{HandResult, Running, WonAt};

pub(crate) fn score_hand(
    game: &Game,
    h: usize,
    hand: &Hand,
    poser: Seat,
    run: &mut Running,
) -> Result<HandResult, RecordError> {
    let r = &game.ruleset;
    let mut disregarded = Vec::new();
    for (p, play) in hand.plays.iter().enumerate() {
        if let Some(why) = run.already_won() {
            return Err(RecordError::play(
                h,
                p,
                format!("{why}; a record stops at the winning play"),
            ));
        }
        // The chipping-out point is part of the play's one score.
        let score = play.points + u32::from(play.out);
        let side = game.side_of[play.by];
        match points::fives_and_threes_counted(run.totals[side], score, r.target, r.exact_finish) {
            None => disregarded.push(p + 1),
            Some(total) => {
                run.totals[side] = total;
                if total >= r.target {
                    run.win(
                        side,
                        WonAt {
                            hand: h,
                            play: Some(p),
                        },
                    );
                }
            }
        }
    }
    let player = match &hand.end {
        Some(End::Out { player, .. }) => Some(*player),
        Some(End::Blocked { pips: Some(pips) }) => {
            lowest_holder(game, pips, poser, 0..game.players.len())
        }
        // Without counts nobody holds the lowest: the pose rotates (and
        // validation allows that only when it rotates anyway).
        Some(End::Blocked { pips: None } | End::Abandoned) | None => None,
    };
    Ok(HandResult {
        worth: 1,
        disregarded,
        side: None,
        player,
    })
}
