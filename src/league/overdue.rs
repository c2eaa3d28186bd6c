//! When a match without a result is overdue: from the league's local date
//! after the one it was played on (LEAGUE.md: "a result is missing the
//! morning after"). The console's to-do list, the captains' reminders and
//! the late-result rule all count from this one date, so a fixture cannot
//! be missing on one page and not yet due on another.

use chrono::{DateTime, Duration, NaiveDate, Utc};

use super::time::Zone;

/// The first local date on which a match played at `starts` without a
/// result is overdue: the day after it.
pub fn overdue_from(zone: Zone, starts: DateTime<Utc>) -> NaiveDate {
    zone.local(starts).date() + Duration::days(1)
}

/// The whole local days since a match played at `starts`, on `now`, once
/// it is overdue (1 on the day after); `None` before that.
pub fn days_overdue(zone: Zone, starts: DateTime<Utc>, now: DateTime<Utc>) -> Option<u32> {
    let today = zone.local(now).date();
    let days = (today - overdue_from(zone, starts)).num_days() + 1;
    u32::try_from(days).ok().filter(|d| *d >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn overdue_from_the_local_day_after_the_match() {
        let zone = Zone::LONDON;
        // Tuesday 2 June 2026, 20:00 in London (19:00 UTC).
        let starts = Utc.with_ymd_and_hms(2026, 6, 2, 19, 0, 0).unwrap();
        assert_eq!(
            overdue_from(zone, starts),
            NaiveDate::from_ymd_opt(2026, 6, 3).unwrap()
        );
        // 23:30 on the night in London is still the day it was played.
        let same_night = Utc.with_ymd_and_hms(2026, 6, 2, 22, 30, 0).unwrap();
        assert_eq!(days_overdue(zone, starts, same_night), None);
        assert_eq!(days_overdue(zone, starts, starts), None);
        // 00:30 in London (23:30 UTC on the Tuesday) is the day after.
        let after_midnight = Utc.with_ymd_and_hms(2026, 6, 2, 23, 30, 0).unwrap();
        assert_eq!(days_overdue(zone, starts, after_midnight), Some(1));
        let friday = Utc.with_ymd_and_hms(2026, 6, 5, 12, 0, 0).unwrap();
        assert_eq!(days_overdue(zone, starts, friday), Some(3));
        // A match not played yet is not overdue.
        assert_eq!(days_overdue(zone, friday, starts), None);
    }
}
