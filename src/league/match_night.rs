//! A captain's match night: which of a team's fixtures is tonight's, and
//! what its captain does next with each fixture (score it on the pads,
//! enter its result, confirm or dispute the other team's, or wait). The
//! home page asks here, so it offers each captain the one step that is
//! theirs and never one the workflow would refuse.

use chrono::{DateTime, Duration, Utc};

use super::time::Zone;
use crate::domain::{FixtureStatus, ResultStatus};

/// How long after its start a match is still tonight's once the clock has
/// passed midnight: a league night runs late, and a captain submitting at
/// one in the morning is still on that night.
pub const RUNS_ON: Duration = Duration::hours(8);

/// Whether a match starting at `starts_at` is tonight's at `now`: it starts
/// today in the league's zone, or started less than [`RUNS_ON`] ago.
pub fn tonight(zone: Zone, starts_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    let (start, end) = zone.today(now);
    (start <= starts_at && starts_at < end) || (starts_at <= now && now - starts_at < RUNS_ON)
}

/// A fixture as its captain's next step needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub status: FixtureStatus,
    /// The current result's status, if there is a result.
    pub result: Option<ResultStatus>,
    /// This captain may confirm the current result
    /// ([`super::workflow::may_confirm`]).
    pub may_confirm: bool,
    /// Tonight's match ([`tonight`]).
    pub tonight: bool,
    /// It has started.
    pub started: bool,
    /// Its result is locked for captains (the season's result lock).
    pub locked: bool,
}

/// What the captain does next with a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Tonight, no result yet: keep the score on the pads.
    ScorePads,
    /// Played, no result yet: enter it.
    EnterResult,
    /// The other team entered the result: confirm or dispute it.
    ConfirmOrDispute,
    /// The result is disputed: correct it, as a new version.
    Correct,
    /// This captain's team entered the result: the other captain confirms.
    AwaitingOtherCaptain,
    /// Confirmed: a secretary approves.
    AwaitingApproval,
    /// Past the result lock without a settled result: the secretary's.
    Locked,
    /// Still to come.
    ComingUp,
    /// Approved: it counts.
    Done,
    /// Nothing for a captain: conceded, void, or postponed without a result.
    Nothing,
}

impl Step {
    /// Whether the step is the captain's to take (a button), not a wait.
    pub fn is_action(self) -> bool {
        matches!(
            self,
            Step::ScorePads | Step::EnterResult | Step::ConfirmOrDispute | Step::Correct
        )
    }
}

/// The captain's next step with the fixture `f`.
pub fn next_step(f: &Facts) -> Step {
    if matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) {
        return Step::Nothing;
    }
    match f.result {
        Some(ResultStatus::Approved) => Step::Done,
        Some(ResultStatus::Entered) if f.may_confirm => Step::ConfirmOrDispute,
        Some(ResultStatus::Entered) => Step::AwaitingOtherCaptain,
        Some(ResultStatus::Confirmed) => Step::AwaitingApproval,
        Some(ResultStatus::Disputed) if f.locked => Step::Locked,
        Some(ResultStatus::Disputed) => Step::Correct,
        None if f.status != FixtureStatus::Scheduled => Step::Nothing,
        None if f.started && f.locked => Step::Locked,
        None if f.tonight => Step::ScorePads,
        None if f.started => Step::EnterResult,
        None => Step::ComingUp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: &str) -> DateTime<Utc> {
        t.parse().unwrap()
    }

    #[test]
    fn tonight_is_todays_date_in_the_leagues_zone_and_runs_past_midnight() {
        let london = Zone::LONDON;
        // 19:30 in London on 10 September is 18:30 UTC.
        let kick_off = at("2026-09-10T18:30:00Z");
        // The morning of the match, and in the evening before it starts.
        assert!(tonight(london, kick_off, at("2026-09-10T08:00:00Z")));
        assert!(tonight(london, kick_off, at("2026-09-10T18:00:00Z")));
        // Past midnight in London (00:30 BST on the 11th), still that night.
        assert!(tonight(london, kick_off, at("2026-09-10T23:30:00Z")));
        // The next morning at ten, no longer.
        assert!(!tonight(london, kick_off, at("2026-09-11T09:00:00Z")));
        // The day before, late: tomorrow's match is not tonight's.
        assert!(!tonight(london, kick_off, at("2026-09-09T22:00:00Z")));
        // By the league's own clock: at 23:30 UTC it is the 11th in London
        // but still the 10th in New York, where a 21:00 match is tonight's.
        let new_york = Zone::parse("America/New_York").unwrap();
        let late = at("2026-09-11T01:00:00Z");
        assert!(tonight(new_york, late, at("2026-09-10T23:30:00Z")));
        assert!(!tonight(london, late, at("2026-09-10T12:00:00Z")));
    }

    fn facts() -> Facts {
        Facts {
            status: FixtureStatus::Scheduled,
            result: None,
            may_confirm: false,
            tonight: false,
            started: false,
            locked: false,
        }
    }

    #[test]
    fn tonights_match_is_scored_on_the_pads_then_confirmed_by_the_other_side() {
        let tonight = Facts {
            tonight: true,
            ..facts()
        };
        assert_eq!(next_step(&tonight), Step::ScorePads);
        // Started, still tonight: the pads, not the card.
        let started = Facts {
            started: true,
            ..tonight
        };
        assert_eq!(next_step(&started), Step::ScorePads);
        // Entered: the submitter waits, the other captain confirms.
        let entered = Facts {
            status: FixtureStatus::Played,
            result: Some(ResultStatus::Entered),
            ..started
        };
        assert_eq!(next_step(&entered), Step::AwaitingOtherCaptain);
        assert!(!next_step(&entered).is_action());
        let theirs = Facts {
            may_confirm: true,
            ..entered
        };
        assert_eq!(next_step(&theirs), Step::ConfirmOrDispute);
        assert!(next_step(&theirs).is_action());
        let confirmed = Facts {
            result: Some(ResultStatus::Confirmed),
            ..entered
        };
        assert_eq!(next_step(&confirmed), Step::AwaitingApproval);
        let approved = Facts {
            result: Some(ResultStatus::Approved),
            ..theirs
        };
        assert_eq!(next_step(&approved), Step::Done);
    }

    #[test]
    fn other_nights_are_coming_up_or_missing_or_locked() {
        assert_eq!(next_step(&facts()), Step::ComingUp);
        let missing = Facts {
            started: true,
            ..facts()
        };
        assert_eq!(next_step(&missing), Step::EnterResult);
        let locked = Facts {
            locked: true,
            ..missing
        };
        assert_eq!(next_step(&locked), Step::Locked);
        let disputed = Facts {
            status: FixtureStatus::Played,
            result: Some(ResultStatus::Disputed),
            ..missing
        };
        assert_eq!(next_step(&disputed), Step::Correct);
        assert_eq!(
            next_step(&Facts {
                locked: true,
                ..disputed
            }),
            Step::Locked
        );
        for status in [
            FixtureStatus::Void,
            FixtureStatus::Walkover,
            FixtureStatus::Postponed,
        ] {
            let f = Facts {
                status,
                tonight: true,
                ..missing
            };
            assert_eq!(next_step(&f), Step::Nothing, "{status}");
        }
    }
}
