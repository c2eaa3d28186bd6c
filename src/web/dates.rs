//! Stored instants (UTC) as pages show them: in the league's time zone,
//! so a kick-off typed as 19:30 reads 19:30 in summer and in winter.

use chrono::{DateTime, Utc};

use crate::league::time::Zone;

/// A date as a person reads it: `Thu 10 Sep 2026`.
pub fn day(zone: Zone, t: DateTime<Utc>) -> String {
    zone.local(t).format("%a %-d %b %Y").to_string()
}

/// A clock time: `19:30`.
pub fn clock(zone: Zone, t: DateTime<Utc>) -> String {
    zone.local(t).format("%H:%M").to_string()
}

/// A date and a clock time: `Thu 10 Sep 2026, 19:30`.
pub fn when(zone: Zone, t: DateTime<Utc>) -> String {
    format!("{}, {}", day(zone, t), clock(zone, t))
}

/// A date as forms take it: `2026-09-10`.
pub fn iso_day(zone: Zone, t: DateTime<Utc>) -> String {
    zone.local(t).format("%Y-%m-%d").to_string()
}

/// A date and a clock time, short: `2026-09-10 19:30`.
pub fn stamp(zone: Zone, t: DateTime<Utc>) -> String {
    zone.local(t).format("%Y-%m-%d %H:%M").to_string()
}

/// An ISO time with the zone's offset, for `<time datetime>`:
/// `2026-09-10T19:30:00+01:00`.
pub fn datetime(zone: Zone, t: DateTime<Utc>) -> String {
    zone.zoned(t).to_rfc3339()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_in_the_zone() {
        let london = Zone::LONDON;
        let summer: DateTime<Utc> = "2026-09-10T18:30:00Z".parse().unwrap();
        let winter: DateTime<Utc> = "2026-12-03T19:30:00Z".parse().unwrap();
        assert_eq!(when(london, summer), "Thu 10 Sep 2026, 19:30");
        assert_eq!(when(london, winter), "Thu 3 Dec 2026, 19:30");
        assert_eq!(stamp(london, summer), "2026-09-10 19:30");
        assert_eq!(datetime(london, winter), "2026-12-03T19:30:00+00:00");
        // Late in a London evening it is already tomorrow.
        let late: DateTime<Utc> = "2026-09-10T23:30:00Z".parse().unwrap();
        assert_eq!(iso_day(london, late), "2026-09-11");
        let new_york = Zone::parse("America/New_York").unwrap();
        assert_eq!(when(new_york, summer), "Thu 10 Sep 2026, 14:30");
    }
}
