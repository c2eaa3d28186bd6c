//! A league's time zone, and the two conversions every page needs: a
//! kick-off as a secretary types it (a date and a clock time where the
//! league plays) to the instant that is stored (UTC), and a stored instant
//! back to the league's date and clock time for showing.
//!
//! Summer time makes the first conversion partial. On the night the
//! clocks go forward, the hour they skip has no instant at all: such a
//! time is refused with a message that says so, never moved silently. On
//! the night they go back, the repeated hour happens twice: the earlier is
//! taken (a match does not start an hour late because of the clocks).
//!
//! Pure: the IANA rules come from `chrono-tz`, compiled into the program.

use std::fmt;
use std::str::FromStr;

use chrono::{
    DateTime, Days, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, TimeZone, Utc,
    Weekday,
};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

/// The zone of a league made without one.
pub const DEFAULT_ZONE: &str = "Europe/London";

/// Zones offered first when a league's zone is picked: where dominoes
/// leagues play, and a few more. Any IANA name is accepted.
pub const COMMON_ZONES: &[&str] = &[
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Amsterdam",
    "Europe/Berlin",
    "Europe/Malta",
    "Europe/Athens",
    "Asia/Nicosia",
    "Africa/Johannesburg",
    "America/New_York",
    "America/Toronto",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Jamaica",
    "America/Barbados",
    "America/Port_of_Spain",
    "America/Puerto_Rico",
    "America/Santo_Domingo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "UTC",
];

/// A time zone by its IANA name (`Europe/London`), known to be one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Zone(Tz);

/// A name that is not a time zone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a time zone this program knows: give an IANA name such as \
     Europe/London or America/New_York."
)]
pub struct UnknownZone(pub String);

/// A clock time that does not happen on that date in that zone: the
/// clocks go forward over it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} on {} does not exist in {}: the clocks go forward from {} to {} that night. \
     Give a time outside that gap.",
    time.format("%H:%M"),
    date.format("%a %-d %b %Y"),
    zone,
    gap.0.format("%H:%M"),
    gap.1.format("%H:%M")
)]
pub struct NoSuchTime {
    pub zone: Zone,
    pub date: NaiveDate,
    pub time: NaiveTime,
    /// The first clock time skipped, and the first after the gap.
    pub gap: (NaiveTime, NaiveTime),
}

/// The most minutes a gap is searched for its ends: longer than any
/// change of offset there has been (a whole day, for the date line).
const GAP_SEARCH_MINUTES: i64 = 26 * 60;

impl Zone {
    /// Europe/London.
    pub const LONDON: Zone = Zone(Tz::Europe__London);

    /// The zone named `name` (spaces around it ignored; the case must be
    /// the IANA one).
    pub fn parse(name: &str) -> Result<Zone, UnknownZone> {
        let name = name.trim();
        Tz::from_str(name)
            .map(Zone)
            .map_err(|_| UnknownZone(name.chars().take(80).collect()))
    }

    /// Its IANA name, as stored: `Europe/London`.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The date and clock time in this zone at the instant `t`.
    pub fn local(self, t: DateTime<Utc>) -> NaiveDateTime {
        t.with_timezone(&self.0).naive_local()
    }

    /// The instant `t` with this zone's offset, for an ISO time that says
    /// both (`2026-09-10T19:30:00+01:00`).
    pub fn zoned(self, t: DateTime<Utc>) -> DateTime<Tz> {
        t.with_timezone(&self.0)
    }

    /// The instant at which it is `time` on `date` in this zone. A time
    /// that happens twice (the clocks going back) is the earlier; one that
    /// does not happen (the clocks going forward) is refused.
    pub fn instant(self, date: NaiveDate, time: NaiveTime) -> Result<DateTime<Utc>, NoSuchTime> {
        let local = date.and_time(time);
        self.resolve(local).ok_or_else(|| NoSuchTime {
            zone: self,
            date,
            time,
            gap: {
                let (first, after) = self.gap_around(local);
                (first.time(), after.time())
            },
        })
    }

    /// The first instant of `date` in this zone: its midnight, or, in the
    /// few zones whose clocks go forward at midnight, the end of that gap.
    pub fn day_start(self, date: NaiveDate) -> DateTime<Utc> {
        let midnight = date.and_time(NaiveTime::MIN);
        self.resolve(midnight).unwrap_or_else(|| {
            let after = self.gap_around(midnight).1;
            self.resolve(after).unwrap_or_else(|| midnight.and_utc())
        })
    }

    /// Today in this zone at the instant `now`: its first instant and the
    /// first instant of tomorrow (the day is 23 or 25 hours long when the
    /// clocks change).
    pub fn today(self, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
        let date = self.local(now).date();
        let start = self.day_start(date);
        let end = date
            .checked_add_days(Days::new(1))
            .map_or(start + TimeDelta::days(1), |d| self.day_start(d));
        (start, end)
    }

    /// The week (Monday to Sunday, in this zone) that holds the local date
    /// `date`: its Monday, its first instant and the first instant of the
    /// next Monday.
    pub fn week(self, date: NaiveDate) -> (NaiveDate, DateTime<Utc>, DateTime<Utc>) {
        let monday = date.week(Weekday::Mon).first_day();
        let next = monday
            .checked_add_days(Days::new(7))
            .unwrap_or(NaiveDate::MAX);
        (monday, self.day_start(monday), self.day_start(next))
    }

    /// The instant of a local date and time: `None` in a gap, the earlier
    /// of two when it repeats.
    fn resolve(self, local: NaiveDateTime) -> Option<DateTime<Utc>> {
        match self.0.from_local_datetime(&local) {
            LocalResult::Single(t) => Some(t.with_timezone(&Utc)),
            LocalResult::Ambiguous(a, b) => Some(a.min(b).with_timezone(&Utc)),
            LocalResult::None => None,
        }
    }

    /// For a local time in a gap: the first local time skipped and the
    /// first that happens after it.
    fn gap_around(self, local: NaiveDateTime) -> (NaiveDateTime, NaiveDateTime) {
        let minute = TimeDelta::minutes(1);
        let mut first = local;
        for _ in 0..GAP_SEARCH_MINUTES {
            match first.checked_sub_signed(minute) {
                Some(before) if self.resolve(before).is_none() => first = before,
                _ => break,
            }
        }
        let mut after = local;
        for _ in 0..GAP_SEARCH_MINUTES {
            match after.checked_add_signed(minute) {
                Some(next) => after = next,
                None => break,
            }
            if self.resolve(after).is_some() {
                break;
            }
        }
        (first, after)
    }
}

impl Default for Zone {
    fn default() -> Zone {
        Zone::LONDON
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Zone {
    type Err = UnknownZone;

    fn from_str(s: &str) -> Result<Zone, UnknownZone> {
        Zone::parse(s)
    }
}

impl TryFrom<String> for Zone {
    type Error = UnknownZone;

    fn try_from(s: String) -> Result<Zone, UnknownZone> {
        Zone::parse(&s)
    }
}

impl From<Zone> for String {
    fn from(z: Zone) -> String {
        z.name().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    fn time(s: &str) -> NaiveTime {
        NaiveTime::parse_from_str(s, "%H:%M").unwrap()
    }

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    fn zone(name: &str) -> Zone {
        Zone::parse(name).unwrap()
    }

    #[test]
    fn names_are_parsed_and_kept() {
        assert_eq!(zone("Europe/London"), Zone::LONDON);
        assert_eq!(zone(" America/New_York ").name(), "America/New_York");
        assert_eq!(Zone::default().name(), DEFAULT_ZONE);
        assert_eq!(zone("UTC").to_string(), "UTC");
        for bad in [
            "",
            "London",
            "Europe/Londn",
            "europe/london",
            "GMT+1 ",
            "Mars/Olympus",
        ] {
            let e = Zone::parse(bad).unwrap_err();
            assert!(e.to_string().contains("not a time zone"), "{bad}: {e}");
        }
        let long = "x".repeat(1000);
        assert!(Zone::parse(&long).unwrap_err().0.len() <= 80);
        for name in COMMON_ZONES {
            assert_eq!(zone(name).name(), *name);
        }
    }

    #[test]
    fn serde_uses_the_name() {
        let json = serde_json::to_string(&zone("Asia/Nicosia")).unwrap();
        assert_eq!(json, "\"Asia/Nicosia\"");
        assert_eq!(
            serde_json::from_str::<Zone>(&json).unwrap(),
            zone("Asia/Nicosia")
        );
        assert!(serde_json::from_str::<Zone>("\"Nowhere\"").is_err());
    }

    #[test]
    fn london_kick_offs_follow_summer_time() {
        let london = Zone::LONDON;
        // British Summer Time: an hour ahead of UTC.
        assert_eq!(
            london.instant(date("2026-09-10"), time("19:30")),
            Ok(utc("2026-09-10T18:30:00Z"))
        );
        // Greenwich Mean Time: UTC itself.
        assert_eq!(
            london.instant(date("2026-12-03"), time("19:30")),
            Ok(utc("2026-12-03T19:30:00Z"))
        );
        // And back, for showing.
        assert_eq!(
            london.local(utc("2026-09-10T18:30:00Z")),
            date("2026-09-10").and_time(time("19:30"))
        );
        assert_eq!(
            london.local(utc("2026-12-03T19:30:00Z")),
            date("2026-12-03").and_time(time("19:30"))
        );
        assert_eq!(
            london.zoned(utc("2026-09-10T18:30:00Z")).to_rfc3339(),
            "2026-09-10T19:30:00+01:00"
        );
    }

    #[test]
    fn the_spring_gap_is_refused_and_said() {
        // 28 March 2027: at 01:00 GMT the clocks go forward to 02:00 BST.
        let london = Zone::LONDON;
        let e = london
            .instant(date("2027-03-28"), time("01:30"))
            .unwrap_err();
        assert_eq!(e.gap, (time("01:00"), time("02:00")));
        let message = e.to_string();
        assert!(message.contains("01:30 on Sun 28 Mar 2027 does not exist in Europe/London"));
        assert!(
            message.contains("go forward from 01:00 to 02:00"),
            "{message}"
        );
        assert!(london.instant(date("2027-03-28"), time("01:00")).is_err());
        // Either side of the gap is fine.
        assert_eq!(
            london.instant(date("2027-03-28"), time("00:59")),
            Ok(utc("2027-03-28T00:59:00Z"))
        );
        assert_eq!(
            london.instant(date("2027-03-28"), time("02:00")),
            Ok(utc("2027-03-28T01:00:00Z"))
        );
        // The same clock time on the nights around it exists.
        assert!(london.instant(date("2027-03-27"), time("01:30")).is_ok());
        assert!(london.instant(date("2027-03-29"), time("01:30")).is_ok());
    }

    #[test]
    fn the_autumn_repeat_takes_the_earlier() {
        // 25 October 2026: at 02:00 BST the clocks go back to 01:00 GMT, so
        // 01:30 happens at 00:30Z and again at 01:30Z.
        let london = Zone::LONDON;
        assert_eq!(
            london.instant(date("2026-10-25"), time("01:30")),
            Ok(utc("2026-10-25T00:30:00Z"))
        );
        assert_eq!(
            london.local(utc("2026-10-25T01:30:00Z")).time(),
            time("01:30")
        );
        assert_eq!(
            london.instant(date("2026-10-25"), time("19:30")),
            Ok(utc("2026-10-25T19:30:00Z"))
        );
        assert_eq!(
            london.instant(date("2026-10-24"), time("19:30")),
            Ok(utc("2026-10-24T18:30:00Z"))
        );
    }

    #[test]
    fn other_zones_have_their_own_rules() {
        let new_york = zone("America/New_York");
        assert_eq!(
            new_york.instant(date("2026-09-10"), time("19:30")),
            Ok(utc("2026-09-10T23:30:00Z"))
        );
        assert_eq!(
            new_york.instant(date("2026-12-03"), time("19:30")),
            Ok(utc("2026-12-04T00:30:00Z"))
        );
        // New York's clocks go forward on 14 March 2027, not London's day.
        assert!(new_york.instant(date("2027-03-14"), time("02:30")).is_err());
        assert!(new_york.instant(date("2027-03-28"), time("01:30")).is_ok());
        assert_eq!(
            zone("UTC").instant(date("2027-03-28"), time("01:30")),
            Ok(utc("2027-03-28T01:30:00Z"))
        );
    }

    #[test]
    fn a_week_is_monday_to_sunday_in_the_zone() {
        let london = Zone::LONDON;
        // Sunday 25 October 2026: the clocks go back; the week began on
        // Monday 19th, in summer time, and ends in winter time.
        let (monday, start, end) = london.week(date("2026-10-25"));
        assert_eq!(monday, date("2026-10-19"));
        assert_eq!(
            start,
            "2026-10-18T23:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        assert_eq!(
            end,
            "2026-10-26T00:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        assert_eq!(london.week(date("2026-10-19")).0, monday);
        assert_eq!(london.week(date("2026-10-26")).0, date("2026-10-26"));
    }

    #[test]
    fn days_begin_at_local_midnight() {
        let london = Zone::LONDON;
        // A summer evening: today began at 23:00Z the day before.
        let (start, end) = london.today(utc("2026-09-10T22:30:00Z"));
        assert_eq!(start, utc("2026-09-09T23:00:00Z"));
        assert_eq!(end, utc("2026-09-10T23:00:00Z"));
        // 23:30Z in summer is already tomorrow in London.
        let (start, _) = london.today(utc("2026-09-10T23:30:00Z"));
        assert_eq!(start, utc("2026-09-10T23:00:00Z"));
        // The day the clocks go back lasts 25 hours; forward, 23.
        let (start, end) = london.today(utc("2026-10-25T12:00:00Z"));
        assert_eq!(end - start, TimeDelta::hours(25));
        let (start, end) = london.today(utc("2027-03-28T12:00:00Z"));
        assert_eq!(end - start, TimeDelta::hours(23));
        // Where the clocks go forward at midnight, the day starts at 01:00.
        let havana = zone("America/Havana");
        assert_eq!(
            havana.day_start(date("2027-03-14")),
            utc("2027-03-14T05:00:00Z")
        );
        assert!(havana.instant(date("2027-03-14"), time("00:30")).is_err());
    }
}
