//! Partnership sets scored by hands won, with the derby after a tie and
//! individual penalty games.

use super::game::{End, Game, Hand, Penalty, PenaltyKind, Seat};
use super::pose::lowest_holder;
use super::ruleset::Derby;
use super::score::{HandResult, Running, WonAt};

pub(crate) fn score_hand(
    game: &Game,
    h: usize,
    hand: &Hand,
    poser: Seat,
    run: &mut Running,
) -> HandResult {
    let r = &game.ruleset;
    let player = match &hand.end {
        Some(End::Out { player, .. }) => Some(*player),
        Some(End::Blocked { pips: Some(pips) }) => {
            let low = lowest_holder(game, pips, poser, 0..game.players.len());
            if low.is_none() {
                // Shared by both pairs: a derby; the next hand is worth more.
                run.ties += 1;
            }
            low
        }
        // Void: worth nothing, and a pending derby carries on. (A blocked
        // hand always has its counts here: validation requires them.)
        Some(End::Abandoned | End::Blocked { pips: None }) | None => None,
    };
    let Some(player) = player else {
        return HandResult {
            worth: 0,
            disregarded: Vec::new(),
            side: None,
            player: None,
        };
    };
    let side = game.side_of[player];
    let worth = match (run.ties, r.derby) {
        (0, _) => 1,
        (_, Derby::Capped) if run.totals.iter().any(|&t| t + 1 >= r.set_to) => 1,
        (_, Derby::Capped) => 2,
        (ties, Derby::Growing) => 1 + ties,
    };
    run.ties = 0;
    run.totals[side] += worth;
    if run.totals[side] >= r.set_to {
        run.win(
            side,
            WonAt {
                hand: h,
                play: None,
            },
        );
    }
    HandResult {
        worth,
        disregarded: Vec::new(),
        side: Some(side),
        player: Some(player),
    }
}

/// Penalties are individual: they never touch the set score.
pub(crate) fn apply_penalty(game: &Game, penalty: &Penalty, run: &mut Running) {
    let tally = &mut run.players[penalty.player];
    match penalty.kind {
        PenaltyKind::Late { minutes } => {
            let (games, forfeit) = game.ruleset.late_penalty(minutes);
            tally.penalty_games += games;
            tally.forfeited |= forfeit;
        }
        PenaltyKind::Violation => tally.penalty_games += 1,
        // Validation allows only late and violation in hands-won.
        PenaltyKind::Talking | PenaltyKind::Exposed => {}
    }
}

/// Each player's games won and lost: their pair's, or 0 won and a whole
/// set lost for a player who forfeited by arriving too late.
pub(crate) fn settle_players(game: &Game, run: &mut Running) {
    for (seat, tally) in run.players.iter_mut().enumerate() {
        let side = game.side_of[seat];
        if tally.forfeited {
            tally.games_won = 0;
            tally.games_lost = game.ruleset.set_to;
        } else {
            tally.games_won = run.totals[side];
            tally.games_lost = run.totals[1 - side];
        }
    }
}
