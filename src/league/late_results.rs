//! The league's rule for late results: after so many days without a
//! result, a penalty of a chosen kind is proposed to the secretary, against
//! the home team (LEAGUE.md: the home team keeps and sends the card).

use chrono::{DateTime, Utc};

use super::overdue::days_overdue;
use super::time::Zone;
use crate::domain::ids::PenaltyKindId;

/// The longest wait a rule may give: a season is never longer.
pub const MAX_DAYS: u32 = 366;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateResultRule {
    /// Days after the fixture's date (in the league's zone) from which a
    /// fixture without a result is late.
    pub days: u32,
    pub kind: PenaltyKindId,
}

impl LateResultRule {
    /// The days a fixture played at `starts` is late by on `now`, counted in
    /// whole local dates as for every overdue match; `None` while it is not
    /// late yet.
    pub fn days_late(&self, zone: Zone, starts: DateTime<Utc>, now: DateTime<Utc>) -> Option<u32> {
        days_overdue(zone, starts, now).filter(|d| *d >= self.days)
    }

    /// A wait the rule may have: 1 to [`MAX_DAYS`].
    pub fn check_days(days: i64) -> Result<u32, String> {
        u32::try_from(days)
            .ok()
            .filter(|d| (1..=MAX_DAYS).contains(d))
            .ok_or_else(|| format!("give the days as a whole number from 1 to {MAX_DAYS}"))
    }
}

/// The note the penalty is recorded with: why it was given.
pub fn penalty_note(days: u32) -> String {
    format!("No result {days} days after the fixture (late result card).")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn rule(days: u32) -> LateResultRule {
        LateResultRule {
            days,
            kind: PenaltyKindId(1),
        }
    }

    #[test]
    fn late_from_the_local_date_that_many_days_after_the_fixture() {
        let zone = Zone::LONDON;
        // A Tuesday 20:00 in summer (19:00 UTC).
        let starts = Utc.with_ymd_and_hms(2026, 6, 2, 19, 0, 0).unwrap();
        let r = rule(3);
        let friday_late = Utc.with_ymd_and_hms(2026, 6, 5, 22, 59, 0).unwrap();
        assert_eq!(r.days_late(zone, starts, friday_late), Some(3));
        // Thursday 23:30 in London is still two days on.
        let thursday = Utc.with_ymd_and_hms(2026, 6, 4, 22, 30, 0).unwrap();
        assert_eq!(r.days_late(zone, starts, thursday), None);
        // Friday 00:30 in London (23:30 UTC on Thursday) is three.
        let friday = Utc.with_ymd_and_hms(2026, 6, 4, 23, 30, 0).unwrap();
        assert_eq!(r.days_late(zone, starts, friday), Some(3));
        assert_eq!(r.days_late(zone, starts, starts), None);
    }

    #[test]
    fn the_wait_is_one_day_to_a_year() {
        assert_eq!(LateResultRule::check_days(7), Ok(7));
        assert!(LateResultRule::check_days(0).is_err());
        assert!(LateResultRule::check_days(-2).is_err());
        assert!(LateResultRule::check_days(367).is_err());
    }
}
