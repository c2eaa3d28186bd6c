//! All Fives: multiples of five to 250, with muggins and 50-point penalties.

use super::error::RecordError;
use super::game::{End, Game, Hand, Penalty, Seat};
use super::points;
use super::pose::lowest_holder;
use super::ruleset::{BlockedScores, PenaltyTo};
use super::score::{HandResult, Running, WonAt};

pub(crate) fn score_hand(
    game: &Game,
    h: usize,
    hand: &Hand,
    poser: Seat,
    run: &mut Running,
) -> Result<HandResult, RecordError> {
    let target = game.ruleset.target;
    for (p, play) in hand.plays.iter().enumerate() {
        if let Some(why) = run.already_won() {
            return Err(RecordError::play(
                h,
                p,
                format!("{why}; a record stops at the winning play"),
            ));
        }
        let side = game.side_of[play.by];
        run.totals[side] = run.totals[side].saturating_add(play.points);
        if run.totals[side] >= target {
            run.win(
                side,
                WonAt {
                    hand: h,
                    play: Some(p),
                },
            );
        }
    }
    let mut player = None;
    if let Some(end) = &hand.end {
        let (side, score) = match end {
            End::Out { player: out, left } => {
                player = Some(*out);
                let side = game.side_of[*out];
                (Some(side), points::round_to_five(left.iter().sum()))
            }
            End::Blocked { pips: Some(pips) } => {
                let counts = [game.side_pips(pips, 0), game.side_pips(pips, 1)];
                if counts[0] == counts[1] {
                    (None, 0)
                } else {
                    let low = usize::from(counts[1] < counts[0]);
                    let high = counts[1 - low];
                    player = lowest_holder(game, pips, poser, game.sides[low].iter().copied());
                    let scored = match game.ruleset.blocked_scores {
                        BlockedScores::Total => high,
                        BlockedScores::Difference => high - counts[low],
                    };
                    (Some(low), points::round_to_five(scored))
                }
            }
            // Validation requires an all-fives block's counts.
            End::Blocked { pips: None } | End::Abandoned => (None, 0),
        };
        // A game won during the hand ended there: its end scores nothing.
        if let (Some(side), None) = (side, run.won) {
            run.totals[side] = run.totals[side].saturating_add(score);
            if run.totals[side] >= target {
                run.win(
                    side,
                    WonAt {
                        hand: h,
                        play: None,
                    },
                );
            }
        }
    }
    Ok(HandResult {
        worth: 1,
        disregarded: Vec::new(),
        side: None,
        player,
    })
}

/// Talking or an exposed tile: points to the opponents, or taken from the
/// offender's side (never below 0). Penalty points can win the game.
pub(crate) fn apply_penalty(game: &Game, penalty: &Penalty, run: &mut Running) {
    let r = &game.ruleset;
    let offender = game.side_of[penalty.player];
    match r.penalty_to {
        PenaltyTo::Opponents => {
            let side = 1 - offender;
            run.totals[side] = run.totals[side].saturating_add(r.penalty_points);
            if run.totals[side] >= r.target {
                run.win(
                    side,
                    WonAt {
                        hand: penalty.before_hand,
                        play: None,
                    },
                );
            }
        }
        PenaltyTo::Offender => {
            run.totals[offender] = run.totals[offender].saturating_sub(r.penalty_points);
        }
    }
}
