//! When the demo's matches are played: relative to the moment it is made,
//! so that a demo made on any day is a league as it is that week. Its
//! leagues play on that day's weekday; the season being played has its
//! current round tonight, the rounds before it on the weeks before, the
//! rest from next week on; finished seasons ran from the September of
//! their years.

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc, Weekday};

use crate::league::time::Zone;

/// The demo leagues' time zone (the league's default).
pub(super) const ZONE: Zone = Zone::LONDON;

/// Matches start at 8pm.
pub(super) fn kick_off() -> NaiveTime {
    NaiveTime::from_hms_opt(20, 0, 0).expect("8pm exists")
}

/// The moment the demo is made, and that day in the leagues' zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Today {
    pub now: DateTime<Utc>,
    pub date: NaiveDate,
}

impl Today {
    pub fn at(now: DateTime<Utc>) -> Today {
        Today {
            now,
            date: ZONE.local(now).date(),
        }
    }

    /// The leagues' match night: today's weekday, so tonight is one.
    pub fn weekday(self) -> Weekday {
        self.date.weekday()
    }

    /// 8pm on the day `days` after today (before it when negative).
    pub fn night(self, days: i64) -> DateTime<Utc> {
        in_zone(self.date + Duration::days(days), kick_off())
    }

    /// The first instant of today.
    pub fn start(self) -> DateTime<Utc> {
        ZONE.day_start(self.date)
    }

    /// `t`, or now if `t` is later: nothing the demo stores happened after
    /// it was made.
    pub fn by_now(self, t: DateTime<Utc>) -> DateTime<Utc> {
        t.min(self.now)
    }

    /// `t` if it is not after now, else a moment between `since` and now:
    /// when a step taken some days after `since` was taken, for a demo
    /// made sooner than that.
    pub fn by_now_since(self, t: DateTime<Utc>, since: DateTime<Utc>) -> DateTime<Utc> {
        if t <= self.now {
            t
        } else {
            let since = since.min(self.now);
            since + (self.now - since) / 2
        }
    }

    /// `t`, kept within today up to now: when tonight's pads were tapped,
    /// even in the first minutes of the day.
    pub fn today_by_now(self, t: DateTime<Utc>) -> DateTime<Utc> {
        self.by_now(t).max(self.start())
    }
}

/// A local date and time in the leagues' zone, in UTC. 8pm always exists;
/// a time the clocks skip is taken an hour on.
pub(super) fn in_zone(date: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
    ZONE.instant(date, time)
        .or_else(|_| ZONE.instant(date, time + Duration::hours(1)))
        .unwrap_or_else(|_| date.and_time(time).and_utc())
}

/// A season's dates: its first year (`2026` for 2026/27), the day its
/// rounds start from and the days it passes over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SeasonDates {
    pub year: i32,
    pub start: NaiveDate,
    pub skip: Vec<NaiveDate>,
}

/// The Christmas weeks no league plays: 20 December for 15 days.
fn christmas(year: i32) -> impl Iterator<Item = NaiveDate> {
    NaiveDate::from_ymd_opt(year, 12, 20)
        .expect("20 December exists")
        .iter_days()
        .take(15)
}

/// A finished season of `year`: from the first of September, over
/// Christmas.
pub(super) fn past(year: i32) -> SeasonDates {
    SeasonDates {
        year,
        start: NaiveDate::from_ymd_opt(year, 9, 1).expect("1 September exists"),
        skip: christmas(year).collect(),
    }
}

/// The round (1-based) played tonight in a season of `rounds` rounds: the
/// first of its second half, so half the season is played.
pub(super) fn current_round(rounds: usize) -> usize {
    (rounds / 2 + 1).min(rounds.max(1))
}

/// The season being played, of `rounds` rounds a week apart on today's
/// weekday, its [`current_round`] tonight: it started that many match
/// weeks ago. Christmas weeks are passed over, but for this week and next
/// (tonight and next week's round are always there). Its first year is
/// that of its start, or the year before for a start before June.
pub(super) fn current(today: Today, rounds: usize) -> SeasonDates {
    let year = today.date.year();
    let keep = today.date..=today.date + Duration::days(7);
    let skip: BTreeSet<NaiveDate> = (year - 2..=year + 2)
        .flat_map(christmas)
        .filter(|d| !keep.contains(d))
        .collect();
    let mut start = today.date;
    for _ in 1..current_round(rounds) {
        start -= Duration::days(7);
        while skip.contains(&start) {
            start -= Duration::days(7);
        }
    }
    let year = if start.month() >= 6 {
        start.year()
    } else {
        start.year() - 1
    };
    SeasonDates {
        year,
        start,
        skip: skip.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::fixtures::{FixtureRequest, TeamSlot, generate};

    fn request(dates: &SeasonDates, weekday: Weekday, teams: i64) -> FixtureRequest {
        FixtureRequest {
            teams: (1..=teams)
                .map(|team| TeamSlot {
                    team,
                    venue: Some(team),
                })
                .collect(),
            meetings: 2,
            start: dates.start,
            weekday,
            kick_off: kick_off(),
            skip: dates.skip.clone(),
            venue_tables: Default::default(),
            booked: Vec::new(),
        }
    }

    /// Made on any day of two years, at any hour: the generator's round
    /// `current_round` is tonight, the rounds before it are past, the next
    /// one is a week today; the season is named for the year it started.
    #[test]
    fn tonight_is_the_current_round_on_every_day() {
        let first = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        for (i, date) in first.iter_days().take(731).enumerate() {
            for teams in [2, 3, 4, 8] {
                let hour = [0, 12, 23][i % 3];
                let now = in_zone(date, NaiveTime::from_hms_opt(hour, 30, 0).unwrap());
                let today = Today::at(now);
                assert_eq!(today.date, date);
                let rounds = generate(&request(&past(2026), Weekday::Mon, teams))
                    .unwrap()
                    .rounds
                    .len();
                let dates = current(today, rounds);
                let draft = generate(&request(&dates, today.weekday(), teams)).unwrap();
                assert_eq!(draft.rounds.len(), rounds);
                let current = current_round(rounds);
                let when = |r: usize| draft.rounds[r - 1].date;
                assert_eq!(when(current), date, "{teams} teams on {date}");
                assert!(current == 1 || when(current - 1) < date);
                if current < rounds {
                    assert_eq!(when(current + 1), date + Duration::days(7), "{date}");
                }
                let name_year = if dates.start.month() >= 6 {
                    dates.start.year()
                } else {
                    dates.start.year() - 1
                };
                assert_eq!(dates.year, name_year);
            }
        }
    }

    #[test]
    fn half_the_season_is_played_before_tonight() {
        assert_eq!(current_round(14), 8);
        assert_eq!(current_round(6), 4);
        assert_eq!(current_round(3), 2);
        assert_eq!(current_round(2), 2);
        assert_eq!(current_round(1), 1);
    }

    #[test]
    fn nothing_is_dated_after_now_and_tonights_taps_are_today() {
        // 00:30 in London in winter (GMT) and in summer (BST, 23:30 UTC
        // the day before).
        for now in [
            "2026-11-30T00:30:00Z".parse::<DateTime<Utc>>().unwrap(),
            "2027-06-13T23:30:00Z".parse().unwrap(),
        ] {
            let today = Today::at(now);
            let earlier = now - Duration::hours(2);
            let tapped = today.today_by_now(earlier);
            assert_eq!(ZONE.local(tapped).date(), today.date);
            assert!(tapped <= now);
            assert_eq!(today.by_now(now + Duration::days(1)), now);
            let since = today.by_now_since(now + Duration::days(1), earlier);
            assert!(earlier < since && since < now);
            assert_eq!(today.by_now_since(earlier, earlier), earlier);
            assert_eq!(
                ZONE.local(today.night(-7)).date(),
                today.date - Duration::days(7)
            );
        }
    }
}
