//! Tonight's matches on the score pads: every other one of tonight's
//! fixtures under way (its first board over, the next one or two a few
//! hands into their games), the rest not started. The taps are the pad's
//! own, replayed and saved through the code the pads use, and dated a few
//! minutes before the demo was made (within today).

use chrono::Duration;

use crate::db::PlayerId;
use crate::league::pad::{PadRules, Tap, replay, taps_for_board};
use crate::rules::ruleset::PoseRule;
use crate::rules::simulate::Rng;

use super::fates::Fate;
use super::{DemoError, LeagueWriter, Planned};

/// A tap that ends a hand.
fn ends_hand(tap: &Tap) -> bool {
    matches!(tap, Tap::Out { .. } | Tap::Blocked { .. } | Tap::Abandoned)
}

/// How many of a board's `taps` (the whole board, from its line-up) are
/// tapped once `hands` hands are over and `plays` taps into the next: never
/// the board's last hand's end, so the board is still in play.
fn a_few_hands(taps: &[Tap], hands: usize, plays: usize) -> usize {
    let ends: Vec<usize> = taps
        .iter()
        .enumerate()
        .filter(|(_, t)| ends_hand(t))
        .map(|(i, _)| i)
        .collect();
    let Some(last) = ends.len().checked_sub(1) else {
        return taps.len().min(2);
    };
    let done = hands.min(last);
    // The line-up and the draw (or pose) come before the first hand.
    let from = if done == 0 { 2 } else { ends[done - 1] + 1 };
    (from + plays).min(ends[done])
}

impl LeagueWriter<'_> {
    /// Tonight's fixtures on the pads: every other one (the first among
    /// them) under way, the rest not started.
    pub(super) async fn tonight(
        &mut self,
        fixtures: &[Planned],
        round: i64,
    ) -> Result<(), DemoError> {
        let tonight: Vec<&Planned> = fixtures
            .iter()
            .filter(|f| f.fixture.round == round && f.fate == Fate::Scheduled)
            .collect();
        for f in tonight.into_iter().step_by(2) {
            self.under_way(f).await?;
        }
        Ok(())
    }

    /// A match being played: its first board over, the next one or two
    /// (all but its last board, at most) a few hands in; its other boards
    /// not started.
    async fn under_way(&mut self, f: &Planned) -> Result<(), DemoError> {
        let m = self.play(f)?;
        let roster = |team: usize| -> Vec<(i64, String)> {
            self.teams[team]
                .roster
                .iter()
                .map(|p| (p.id.0, p.name.clone()))
                .collect()
        };
        let (home, away) = (roster(f.home), roster(f.away));
        let specs = &self.plan.match_format.boards;
        let touched = specs.len().saturating_sub(1).clamp(1, 3);
        let by = self.people.as_ref().map(|p| p.captains[f.home]);
        for (number, (board, spec)) in m.result.boards.iter().zip(specs).enumerate() {
            if number >= touched {
                break;
            }
            let ids = |p: &[PlayerId]| p.iter().map(|id| id.0).collect::<Vec<_>>();
            let records: Vec<_> = board.games.iter().map(|g| g.record.clone()).collect();
            let mut taps = taps_for_board(&ids(&board.home), &ids(&board.away), &records);
            let rng: &mut Rng = self.rng;
            // Over a while ago, or tapped in the last few minutes.
            let minutes = if number == 0 {
                20 + rng.below(20)
            } else {
                let hands = 1 + rng.below(3) as usize;
                let plays = rng.below(3) as usize;
                taps.truncate(a_few_hands(&taps, hands, plays));
                1 + rng.below(6)
            };
            let rules = PadRules {
                ruleset: &self.ruleset,
                kind: spec.kind,
                best_of: spec.best_of,
                home: &home,
                away: &away,
            };
            let (pad, refused) = replay(&rules, &taps);
            if let Some(r) = refused {
                return Err(DemoError::Engine(format!(
                    "the score pad refused tap {} of a demo board: {}",
                    r.index + 1,
                    r.reason
                )));
            }
            let summary = pad.summary(self.ruleset.pose == PoseRule::Rotate);
            let (db, league, board) = (self.db, self.league, number as i64 + 1);
            db.save_pad(league, f.fixture.id, board, 0, &taps, &summary, by)
                .await?;
            let at = self
                .today
                .today_by_now(self.today.now - Duration::minutes(i64::from(minutes)));
            db.date_pad(league, f.fixture.id, board, at).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(points: u32) -> Tap {
        Tap::Play { seat: 0, points }
    }

    fn out() -> Tap {
        Tap::Out {
            seat: 1,
            points: 0,
            left: None,
        }
    }

    /// A line-up, a pose, then three hands: two plays and an end each.
    fn board() -> Vec<Tap> {
        let mut taps = vec![
            Tap::Players {
                home: vec![1],
                away: vec![2],
            },
            Tap::Pose { seat: 0 },
        ];
        for _ in 0..3 {
            taps.extend([play(5), play(10), out()]);
        }
        taps
    }

    #[test]
    fn a_few_hands_in_is_never_the_end_of_the_board() {
        let taps = board();
        // Ends at 4, 7 and 10 (the board's last).
        assert_eq!(a_few_hands(&taps, 0, 0), 2);
        assert_eq!(a_few_hands(&taps, 0, 5), 4);
        assert_eq!(a_few_hands(&taps, 1, 1), 6);
        assert_eq!(a_few_hands(&taps, 2, 0), 8);
        assert_eq!(a_few_hands(&taps, 5, 9), 10);
        for hands in 0..5 {
            for plays in 0..5 {
                let n = a_few_hands(&taps, hands, plays);
                assert!(n < taps.len(), "{hands} {plays}: the board is over");
                let over = taps[..n].iter().filter(|t| ends_hand(t)).count();
                assert_eq!(over, hands.min(2), "{hands} {plays}");
            }
        }
    }
}
