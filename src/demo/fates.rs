//! What becomes of each league fixture of the season being played, as a
//! league is in the week the demo is made: the rounds before tonight
//! played and approved, but for last week's results still going through
//! the workflow (one awaiting approval, one awaiting the other captain,
//! one disputed), a result left late, a postponement, a walkover and a
//! void fixture; tonight's round and the later ones still to play.

use crate::db::{ResultStatus, Side};
use crate::rules::simulate::Rng;

/// What becomes of a fixture this season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    /// Played, its result now at this status.
    Played(ResultStatus),
    /// Tonight's or a later round's: still to play.
    Scheduled,
    /// Played weeks ago, and its result not in yet.
    Late,
    /// Put off, and rearranged for a night after next week's round.
    Postponed,
    Walkover(Side),
    Void,
}

/// The fates of a season's fixtures, given each fixture's round (in the
/// order written) and tonight's round. A finished season (`tonight`
/// `None`) is all played and approved.
///
/// The workflow's cases are each the latest fixture still approved in
/// their round or before (an earlier round when a small league has run
/// out): last week's for the results going through the workflow and the
/// postponement, two weeks ago for the late result (only when
/// `leave_late`), earlier on for the walkover and the void. A small league
/// gets them in that order while at least half of its played fixtures stay
/// approved, so its table is still a table.
pub(super) fn decide(
    rounds: &[i64],
    tonight: Option<i64>,
    leave_late: bool,
    rng: &mut Rng,
) -> Vec<Fate> {
    let approved = Fate::Played(ResultStatus::Approved);
    let Some(tonight) = tonight else {
        return vec![approved; rounds.len()];
    };
    let mut fates: Vec<Fate> = rounds
        .iter()
        .map(|&r| {
            if r < tonight {
                approved
            } else {
                Fate::Scheduled
            }
        })
        .collect();
    let played = fates.iter().filter(|f| **f == approved).count();
    let mut left = played / 2;
    let last_week = tonight - 1;
    let side = if rng.chance(500) {
        Side::Home
    } else {
        Side::Away
    };
    let mut wanted = vec![
        (last_week, Fate::Played(ResultStatus::Confirmed)),
        (last_week, Fate::Played(ResultStatus::Entered)),
        (last_week, Fate::Played(ResultStatus::Disputed)),
    ];
    if leave_late {
        wanted.push((last_week - 1, Fate::Late));
    }
    wanted.extend([
        (last_week, Fate::Postponed),
        ((last_week * 2 / 3).max(1), Fate::Walkover(side)),
        ((last_week / 3).max(1), Fate::Void),
    ]);
    for (round, fate) in wanted {
        if left == 0 {
            break;
        }
        let found = fates
            .iter()
            .enumerate()
            .filter(|(i, f)| **f == approved && rounds[*i] <= round)
            .max_by_key(|(i, _)| (rounds[*i], std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        if let Some(i) = found {
            fates[i] = fate;
            left -= 1;
        }
    }
    fates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(fates: &[Fate], fate: Fate) -> usize {
        fates.iter().filter(|f| **f == fate).count()
    }

    /// Eight teams: 14 rounds of four, tonight the eighth.
    #[test]
    fn a_league_this_week() {
        let rounds: Vec<i64> = (1..=14).flat_map(|r| [r; 4]).collect();
        let fates = decide(&rounds, Some(8), true, &mut Rng::new(1));
        for (round, fate) in rounds.iter().zip(&fates) {
            if *round >= 8 {
                assert_eq!(*fate, Fate::Scheduled, "round {round}");
            } else {
                assert_ne!(*fate, Fate::Scheduled, "round {round}");
            }
        }
        let last_week = |fate| {
            rounds
                .iter()
                .zip(&fates)
                .any(|(r, f)| *r == 7 && *f == fate)
        };
        for status in [
            ResultStatus::Confirmed,
            ResultStatus::Entered,
            ResultStatus::Disputed,
        ] {
            assert!(last_week(Fate::Played(status)), "{status:?}");
        }
        assert!(last_week(Fate::Postponed));
        assert_eq!(count(&fates, Fate::Late), 1);
        let late = fates.iter().position(|f| *f == Fate::Late).unwrap();
        assert_eq!(rounds[late], 6, "two weeks ago");
        assert_eq!(count(&fates, Fate::Void), 1);
        assert_eq!(
            fates
                .iter()
                .filter(|f| matches!(f, Fate::Walkover(_)))
                .count(),
            1
        );
        assert_eq!(count(&fates, Fate::Played(ResultStatus::Approved)), 28 - 7);
    }

    #[test]
    fn no_late_result_unless_asked_and_none_in_a_finished_season() {
        let rounds: Vec<i64> = (1..=14).flat_map(|r| [r; 4]).collect();
        let fates = decide(&rounds, Some(8), false, &mut Rng::new(1));
        assert_eq!(count(&fates, Fate::Late), 0);
        let done = decide(&rounds, None, true, &mut Rng::new(1));
        assert_eq!(
            count(&done, Fate::Played(ResultStatus::Approved)),
            rounds.len()
        );
    }

    /// Four teams in one division: six played fixtures, three of them
    /// left approved.
    #[test]
    fn a_small_league_keeps_half_its_results_approved() {
        let rounds: Vec<i64> = (1..=6).flat_map(|r| [r; 2]).collect();
        let fates = decide(&rounds, Some(4), true, &mut Rng::new(1));
        assert_eq!(count(&fates, Fate::Played(ResultStatus::Approved)), 3);
        assert_eq!(count(&fates, Fate::Played(ResultStatus::Confirmed)), 1);
        assert_eq!(count(&fates, Fate::Played(ResultStatus::Entered)), 1);
        assert_eq!(count(&fates, Fate::Played(ResultStatus::Disputed)), 1);
        assert_eq!(count(&fates, Fate::Scheduled), 6);
    }
}
