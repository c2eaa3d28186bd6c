//! What is live (LEAGUE.md, "Following and reusing"): a board is in play
//! from its first tap until it is over or its match's result is in; a match
//! is in progress while one of its boards is in play. Every live page (the
//! live page, the league home's count, the pub screens, the match page's
//! live part) asks this module, so none shows a board another has dropped.
//!
//! A pad never submitted is not live for ever: a board untouched since the
//! night it was played on leaves the live pages. A match night runs past
//! midnight, so a night is counted from [`NIGHT_BEGINS`] o'clock (5 a.m.) in the
//! league's time zone to 5 a.m. the next day; the boards of Tuesday's match
//! are followed until Wednesday 5 a.m., and a board tapped again later is
//! live again on that night.

use std::collections::BTreeSet;

use chrono::{DateTime, Days, NaiveTime, TimeDelta, Utc};

use super::pad::Summary;
use super::time::Zone;
use crate::domain::FixtureStatus;

/// The hour (local time) at which one match night ends and the next
/// begins: late enough that no board still being played is dropped at
/// midnight.
pub const NIGHT_BEGINS: u32 = 5;

/// The first instant of the match night that holds `now`: 5 a.m. today
/// where the league plays, or yesterday's before 5 a.m. The live queries
/// read only boards tapped since then.
pub fn night_begins(zone: Zone, now: DateTime<Utc>) -> DateTime<Utc> {
    night(zone, now).0
}

/// The match night that holds `now`: its first instant, and the first of
/// the next (a night is 23 or 25 hours long when the clocks change).
pub fn night(zone: Zone, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let date = (zone.local(now) - TimeDelta::hours(i64::from(NIGHT_BEGINS))).date();
    let begins = begins_on(zone, date);
    let ends = date
        .checked_add_days(Days::new(1))
        .map_or(begins + TimeDelta::days(1), |d| begins_on(zone, d));
    (begins, ends)
}

/// Whether `t` falls in the match night that holds `now` (a match "on the
/// night", or on match day as a captain would say).
pub fn on_the_night(zone: Zone, now: DateTime<Utc>, t: DateTime<Utc>) -> bool {
    let (begins, ends) = night(zone, now);
    begins <= t && t < ends
}

/// 5 a.m. on `date` in `zone` (or the first instant after, should the
/// clocks skip it).
fn begins_on(zone: Zone, date: chrono::NaiveDate) -> DateTime<Utc> {
    let hour = NaiveTime::from_hms_opt(NIGHT_BEGINS, 0, 0).unwrap_or(NaiveTime::MIN);
    zone.instant(date, hour)
        .unwrap_or_else(|_| zone.day_start(date) + TimeDelta::hours(i64::from(NIGHT_BEGINS)))
}

/// Whether a match's result is in: entered (the fixture is then played),
/// or the fixture settled another way (a walkover, void).
pub fn result_in(status: FixtureStatus, has_result: bool) -> bool {
    has_result || !status.is_open()
}

/// A board's pad as the live pages need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PadState {
    /// Something is on the pad (a board whose every tap was undone has
    /// nothing to show).
    pub tapped: bool,
    /// The board is won.
    pub over: bool,
    /// Its match's result is in.
    pub result_in: bool,
    pub last_tap: DateTime<Utc>,
}

impl PadState {
    pub fn new(summary: &Summary, result_in: bool, last_tap: DateTime<Utc>) -> PadState {
        PadState {
            tapped: !summary.players.is_empty(),
            over: summary.winner.is_some(),
            result_in,
            last_tap,
        }
    }

    /// Played on the night that began at `night` (see [`night_begins`]),
    /// its match's result not in: the live pages show it, in play or over.
    pub fn tonight(&self, night: DateTime<Utc>) -> bool {
        self.tapped && !self.result_in && self.last_tap >= night
    }

    /// In play: tapped tonight and not over.
    pub fn in_play(&self, night: DateTime<Utc>) -> bool {
        self.tonight(night) && !self.over
    }
}

/// The matches in progress among `boards` (each board's match and pad):
/// those with a board in play.
pub fn in_progress<K: Ord + Copy>(boards: &[(K, PadState)], night: DateTime<Utc>) -> BTreeSet<K> {
    boards
        .iter()
        .filter(|(_, pad)| pad.in_play(night))
        .map(|(k, _)| *k)
        .collect()
}

/// Which of `boards` the league's live pages show: every board played
/// tonight of a match in progress, so a board just won stays beside its
/// match's boards still in play, and a match whose boards are all over
/// leaves with them.
pub fn followed<K: Ord + Copy>(boards: &[(K, PadState)], night: DateTime<Utc>) -> Vec<bool> {
    let matches = in_progress(boards, night);
    boards
        .iter()
        .map(|(k, pad)| pad.tonight(night) && matches.contains(k))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
    }

    fn pad(over: bool, last_tap: DateTime<Utc>) -> PadState {
        PadState {
            tapped: true,
            over,
            result_in: false,
            last_tap,
        }
    }

    #[test]
    fn a_night_runs_from_five_in_the_morning_local_time() {
        let london = Zone::LONDON;
        // Tuesday 2 June 2026 (summer time: London is UTC+1).
        let evening = utc(2026, 6, 2, 19, 30);
        assert_eq!(night_begins(london, evening), utc(2026, 6, 2, 4, 0));
        // 00:30 and 04:59 on Wednesday in London are still Tuesday's night.
        let after_midnight = utc(2026, 6, 2, 23, 30);
        assert_eq!(night_begins(london, after_midnight), utc(2026, 6, 2, 4, 0));
        assert_eq!(
            night_begins(london, utc(2026, 6, 3, 3, 59)),
            utc(2026, 6, 2, 4, 0)
        );
        // From 05:00 it is Wednesday's.
        assert_eq!(
            night_begins(london, utc(2026, 6, 3, 4, 0)),
            utc(2026, 6, 3, 4, 0)
        );
        // In winter London is UTC.
        assert_eq!(
            night_begins(london, utc(2026, 12, 1, 20, 0)),
            utc(2026, 12, 1, 5, 0)
        );
        // Another zone counts from its own 5 a.m.
        let new_york = Zone::parse("America/New_York").unwrap();
        assert_eq!(
            night_begins(new_york, utc(2026, 12, 2, 3, 0)),
            utc(2026, 12, 1, 10, 0)
        );
    }

    #[test]
    fn on_the_night_is_the_match_night_not_the_calendar_day() {
        let london = Zone::LONDON;
        let match_at = utc(2026, 12, 1, 20, 0);
        assert!(on_the_night(london, utc(2026, 12, 1, 6, 0), match_at));
        assert!(on_the_night(london, utc(2026, 12, 2, 0, 30), match_at));
        assert!(!on_the_night(london, utc(2026, 12, 1, 4, 0), match_at));
        assert!(!on_the_night(london, utc(2026, 12, 2, 5, 0), match_at));
        assert!(!on_the_night(london, utc(2026, 11, 24, 20, 0), match_at));
        // The night the clocks go back is 25 hours long.
        let (begins, ends) = night(london, utc(2026, 10, 24, 12, 0));
        assert_eq!(ends - begins, TimeDelta::hours(25));
    }

    #[test]
    fn a_board_is_in_play_from_its_first_tap_until_it_is_over() {
        let night = utc(2026, 12, 1, 5, 0);
        let tap = utc(2026, 12, 1, 20, 15);
        assert!(pad(false, tap).in_play(night));
        // Over: no longer in play, but still shown as tonight's.
        assert!(!pad(true, tap).in_play(night));
        assert!(pad(true, tap).tonight(night));
        // Its match's result in: neither.
        let submitted = PadState {
            result_in: true,
            ..pad(false, tap)
        };
        assert!(!submitted.in_play(night) && !submitted.tonight(night));
        // Nothing on the pad (every tap undone): nothing to show.
        let empty = PadState {
            tapped: false,
            ..pad(false, tap)
        };
        assert!(!empty.in_play(night) && !empty.tonight(night));
    }

    #[test]
    fn a_board_untouched_since_its_night_is_not_live() {
        // Never submitted, last tapped five weeks ago.
        let now = utc(2026, 12, 1, 6, 0);
        let night = night_begins(Zone::LONDON, now);
        let old = pad(false, utc(2026, 10, 27, 21, 40));
        assert!(!old.in_play(night) && !old.tonight(night));
        // Tapped last night at 23:50: gone at 5 a.m. this morning.
        let last_night = pad(false, utc(2026, 11, 30, 23, 50));
        assert!(!last_night.in_play(night));
        let before_five = night_begins(Zone::LONDON, utc(2026, 12, 1, 4, 30));
        assert!(last_night.in_play(before_five));
        // Tapped again today: live again.
        assert!(pad(false, utc(2026, 12, 1, 9, 0)).in_play(night));
    }

    #[test]
    fn a_match_is_in_progress_only_while_a_board_is_in_play() {
        let night = utc(2026, 12, 1, 5, 0);
        let tonight = utc(2026, 12, 1, 20, 30);
        let stale = utc(2026, 11, 3, 21, 0);
        let boards = [
            // Match 1: one board won, one in play.
            (1, pad(true, tonight)),
            (1, pad(false, tonight)),
            // Match 2: every board over, the result not in yet.
            (2, pad(true, tonight)),
            (2, pad(true, tonight)),
            // Match 3: a pad left from weeks ago.
            (3, pad(false, stale)),
        ];
        assert_eq!(in_progress(&boards, night), BTreeSet::from([1]));
        // The live pages follow match 1's boards, the won one included.
        assert_eq!(followed(&boards, night), [true, true, false, false, false]);
        assert!(in_progress::<i64>(&[], night).is_empty());
    }

    #[test]
    fn a_result_is_in_once_entered_or_settled() {
        assert!(!result_in(FixtureStatus::Scheduled, false));
        assert!(!result_in(FixtureStatus::Postponed, false));
        assert!(result_in(FixtureStatus::Scheduled, true));
        assert!(result_in(FixtureStatus::Played, true));
        assert!(result_in(FixtureStatus::Walkover, false));
        assert!(result_in(FixtureStatus::Void, false));
    }
}
