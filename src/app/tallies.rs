//! A season's player stat lines as the league core counts them: the
//! player table and the honours rank players from the same sums.

use crate::db::PlayerId;
use crate::db::stats::{GamePenaltyLine, PlayerStatLine};
use crate::league::players::{GameFacts, IndividualPenalty, Tally};

pub fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The sums of a stat line, as the league core takes them.
pub fn tally(line: &PlayerStatLine) -> Tally {
    Tally {
        played: count(line.played),
        won: count(line.won),
        pegs: count(line.pegs),
        eights: count(line.eights),
        chip_outs: count(line.chip_outs),
        penalty_games: 0,
        forfeits: 0,
        sets_6_0_won: count(line.sets_won_6_0),
        sets_6_0_lost: count(line.sets_lost_6_0),
    }
}

/// A penalty line as the league core takes it: `None` for a kind that is
/// not individual.
pub fn penalty(line: &GamePenaltyLine) -> Option<(PlayerId, i64, IndividualPenalty, GameFacts)> {
    let penalty = match line.kind.as_str() {
        "late" => IndividualPenalty::Late {
            minutes: count(line.minutes.unwrap_or(0)),
        },
        "violation" => IndividualPenalty::Violation,
        _ => return None,
    };
    let facts = GameFacts {
        won: line.won != 0,
        pegs: count(line.pegs),
        set_6_0_won: line.set_won_6_0 != 0,
        set_6_0_lost: line.set_lost_6_0 != 0,
        ..GameFacts::default()
    };
    Some((line.player_id, line.game_id, penalty, facts))
}
