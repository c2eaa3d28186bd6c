//! The secretary's week (issue 39): the days the console calls "this
//! week", and which fixtures each of its bulk actions (remind the
//! captains, record walkovers, postpone) may act on, and why not. Pure:
//! the preview reads the fixtures as they are, the use case reads them
//! again inside its transaction, and both ask here, so the page and the
//! write cannot disagree.

use chrono::{DateTime, Days, Duration, NaiveDate, Utc};

use super::overdue::days_overdue;
use super::time::Zone;
use crate::domain::{FixtureStatus, ResultStatus};

/// How soon a secretary's reminder of one fixture may be sent again: a
/// second click, or a second secretary, the same morning sends nothing.
pub const REMIND_AGAIN_AFTER: Duration = Duration::hours(12);

/// The days the console's "this week" covers, at `now` in `zone`: from
/// this week's Monday (its nights already played, their results due)
/// to the end of the seventh day from today (the next league night, even
/// on a Sunday). The first instant, and the first instant after.
pub fn this_week(zone: Zone, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let today = zone.local(now).date();
    let (_, monday, _) = zone.week(today);
    let end = today
        .checked_add_days(Days::new(8))
        .map_or(monday + Duration::days(15), |d| zone.day_start(d));
    (monday, end)
}

/// The Monday of the week (in `zone`) a fixture at `at` is played in: the
/// key older missing results are grouped by.
pub fn week_of(zone: Zone, at: DateTime<Utc>) -> NaiveDate {
    zone.week(zone.local(at).date()).0
}

/// Where a fixture of the week stands, as the console says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeekState {
    /// Still to be played, today or later.
    ToPlay,
    /// Its night is over and no result is entered: missing.
    Missing,
    /// Missing, with boards kept on the score pads but never submitted.
    PadsLeft,
    /// The current result version's status.
    Result(ResultStatus),
    /// Postponed, waiting for a new date.
    Postponed,
    /// A walkover, conceded by this side.
    Walkover(Option<crate::domain::Side>),
    /// Played, with no result kept (a walkover reinstated, say).
    Played,
}

impl WeekState {
    /// A fixture's state from its records: `missing` when it is one of
    /// the league's missing results (see `db::counted::AWAITING_RESULT`
    /// and `overdue`), `pads` when its pads were left unsubmitted.
    pub fn of(
        status: FixtureStatus,
        conceded_by: Option<crate::domain::Side>,
        result: Option<ResultStatus>,
        missing: bool,
        pads: bool,
    ) -> WeekState {
        match (status, result) {
            (FixtureStatus::Walkover, _) => WeekState::Walkover(conceded_by),
            (FixtureStatus::Postponed, _) => WeekState::Postponed,
            (_, Some(r)) => WeekState::Result(r),
            _ if missing && pads => WeekState::PadsLeft,
            _ if missing => WeekState::Missing,
            (FixtureStatus::Played, None) => WeekState::Played,
            _ => WeekState::ToPlay,
        }
    }

    /// What the console says of it.
    pub fn words(self) -> &'static str {
        match self {
            WeekState::ToPlay => "to be played",
            WeekState::Missing => "no result entered",
            WeekState::PadsLeft => "kept on the score pads, never submitted",
            WeekState::Result(ResultStatus::Entered) => {
                "result entered, waiting for the other captain"
            }
            WeekState::Result(ResultStatus::Confirmed) => "result confirmed, to approve",
            WeekState::Result(ResultStatus::Disputed) => "result disputed",
            WeekState::Result(ResultStatus::Approved) => "result approved",
            WeekState::Postponed => "postponed",
            WeekState::Walkover(_) => "walkover",
            WeekState::Played => "played",
        }
    }

    /// Whether it waits on someone (the console marks it).
    pub fn needs_action(self) -> bool {
        matches!(
            self,
            WeekState::Missing
                | WeekState::PadsLeft
                | WeekState::Result(
                    ResultStatus::Entered | ResultStatus::Confirmed | ResultStatus::Disputed
                )
        )
    }
}

/// A bulk action of the console's week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bulk {
    /// Email both captains of a missing result, or the other captain of
    /// one waiting for confirmation.
    Remind,
    /// Record that one side conceded each fixture.
    Walkover,
    /// Mark each fixture postponed, its date kept until a new one is set.
    Postpone,
}

impl Bulk {
    pub const ALL: [Bulk; 3] = [Bulk::Remind, Bulk::Walkover, Bulk::Postpone];

    /// The form's value.
    pub fn key(self) -> &'static str {
        match self {
            Bulk::Remind => "remind",
            Bulk::Walkover => "walkover",
            Bulk::Postpone => "postpone",
        }
    }

    /// The console's button.
    pub fn label(self) -> &'static str {
        match self {
            Bulk::Remind => "Remind the captains",
            Bulk::Walkover => "Record walkovers",
            Bulk::Postpone => "Postpone",
        }
    }

    pub fn parse(key: &str) -> Option<Bulk> {
        Bulk::ALL.into_iter().find(|b| b.key() == key.trim())
    }
}

/// A fixture as the bulk actions see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub status: FixtureStatus,
    pub starts_at: Option<DateTime<Utc>>,
    /// The current result version's number and status, if any.
    pub result: Option<(i64, ResultStatus)>,
    /// When a secretary last reminded its captains, if ever.
    pub reminded_at: Option<DateTime<Utc>>,
    /// Whether a reminder would reach anyone: a captain it is for with a
    /// confirmed address who has not opted out of reminders.
    pub reachable: bool,
}

/// What a reminder asks of the captains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reminder {
    /// No result: both captains are asked to enter it.
    EnterResult,
    /// Version `version` waits for the other captain to confirm it.
    Confirm { version: i64 },
}

/// Why a bulk action leaves a fixture alone, in words that follow the
/// match's name ("Crown v Anchor: it has a result already").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    #[error("it has a result already")]
    HasResult,
    #[error("it is {0} already")]
    Settled(FixtureStatus),
    #[error("it is postponed already")]
    PostponedAlready,
    #[error("it is postponed: no result is due until it has a new date")]
    Postponed,
    #[error("it has not been played yet")]
    NotPlayedYet,
    #[error("its result is {0}: it waits for a secretary, not its captains")]
    WaitsForSecretary(ResultStatus),
    #[error("its captains were reminded less than 12 hours ago")]
    RemindedRecently,
    #[error("no captain it is for has a confirmed email address (or they asked for no reminders)")]
    NobodyToTell,
}

/// Whether a secretary may remind the captains of `c` at `now`, and of
/// what: a result missing from the day after the match, or an entered
/// result waiting for the other captain.
pub fn remind(c: &Candidate, zone: Zone, now: DateTime<Utc>) -> Result<Reminder, Unfit> {
    let reminder = match (c.status, c.result) {
        (FixtureStatus::Void | FixtureStatus::Walkover, _) => {
            return Err(Unfit::Settled(c.status));
        }
        (_, Some((version, ResultStatus::Entered))) => Reminder::Confirm { version },
        (_, Some((_, status))) => return Err(Unfit::WaitsForSecretary(status)),
        (FixtureStatus::Postponed, None) => return Err(Unfit::Postponed),
        (_, None) => {
            let due = c
                .starts_at
                .and_then(|at| days_overdue(zone, at, now))
                .is_some();
            if !due {
                return Err(Unfit::NotPlayedYet);
            }
            Reminder::EnterResult
        }
    };
    if c.reminded_at
        .is_some_and(|at| now - at < REMIND_AGAIN_AFTER)
    {
        return Err(Unfit::RemindedRecently);
    }
    if !c.reachable {
        return Err(Unfit::NobodyToTell);
    }
    Ok(reminder)
}

/// Whether a secretary may record a walkover for `c`: a fixture still to
/// be played or missing its result (a team may concede before the
/// night). One with a result is corrected on its own page, never in bulk.
pub fn walkover(c: &Candidate) -> Result<(), Unfit> {
    if !c.status.is_open() {
        return Err(Unfit::Settled(c.status));
    }
    if c.result.is_some() {
        return Err(Unfit::HasResult);
    }
    Ok(())
}

/// Whether a secretary may postpone `c`: a scheduled fixture without a
/// result.
pub fn postpone(c: &Candidate) -> Result<(), Unfit> {
    match c.status {
        FixtureStatus::Postponed => return Err(Unfit::PostponedAlready),
        FixtureStatus::Scheduled => {}
        other => return Err(Unfit::Settled(other)),
    }
    if c.result.is_some() {
        return Err(Unfit::HasResult);
    }
    Ok(())
}

/// Whether `action` may act on `c` at `now`.
pub fn fit(action: Bulk, c: &Candidate, zone: Zone, now: DateTime<Utc>) -> Result<(), Unfit> {
    match action {
        Bulk::Remind => remind(c, zone, now).map(|_| ()),
        Bulk::Walkover => walkover(c),
        Bulk::Postpone => postpone(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: &str) -> DateTime<Utc> {
        t.parse().unwrap()
    }

    /// A scheduled fixture on Tuesday 10 November 2026, 20:00 in London,
    /// no result, never reminded, its captains reachable.
    fn tuesday() -> Candidate {
        Candidate {
            status: FixtureStatus::Scheduled,
            starts_at: Some(at("2026-11-10T20:00:00Z")),
            result: None,
            reminded_at: None,
            reachable: true,
        }
    }

    const WEDNESDAY: &str = "2026-11-11T09:00:00Z";

    #[test]
    fn this_week_runs_from_monday_to_a_week_ahead() {
        let zone = Zone::LONDON;
        // Friday 27 November 2026.
        let (from, to) = this_week(zone, at("2026-11-27T10:00:00Z"));
        assert_eq!(from, at("2026-11-23T00:00:00Z"));
        assert_eq!(to, at("2026-12-05T00:00:00Z"));
        assert_eq!(
            week_of(zone, at("2026-11-29T21:00:00Z")),
            NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
        );
        // 00:30 on Monday in London in summer is still Sunday in UTC.
        assert_eq!(
            week_of(zone, at("2026-06-07T23:30:00Z")),
            NaiveDate::from_ymd_opt(2026, 6, 8).unwrap()
        );
    }

    #[test]
    fn a_reminder_is_for_a_missing_or_unconfirmed_result_once_a_morning() {
        let zone = Zone::LONDON;
        let now = at(WEDNESDAY);
        assert_eq!(remind(&tuesday(), zone, now), Ok(Reminder::EnterResult));
        // The night itself: not yet missing.
        assert_eq!(
            remind(&tuesday(), zone, at("2026-11-10T22:00:00Z")),
            Err(Unfit::NotPlayedYet)
        );
        let entered = Candidate {
            status: FixtureStatus::Played,
            result: Some((2, ResultStatus::Entered)),
            ..tuesday()
        };
        assert_eq!(
            remind(&entered, zone, now),
            Ok(Reminder::Confirm { version: 2 })
        );
        for status in [ResultStatus::Confirmed, ResultStatus::Disputed] {
            let waits = Candidate {
                result: Some((1, status)),
                ..entered.clone()
            };
            assert_eq!(
                remind(&waits, zone, now),
                Err(Unfit::WaitsForSecretary(status))
            );
        }
        let recently = Candidate {
            reminded_at: Some(now - Duration::hours(11)),
            ..tuesday()
        };
        assert_eq!(remind(&recently, zone, now), Err(Unfit::RemindedRecently));
        let yesterday = Candidate {
            reminded_at: Some(now - Duration::hours(13)),
            ..tuesday()
        };
        assert!(remind(&yesterday, zone, now).is_ok());
        let nobody = Candidate {
            reachable: false,
            ..tuesday()
        };
        assert_eq!(remind(&nobody, zone, now), Err(Unfit::NobodyToTell));
        let postponed = Candidate {
            status: FixtureStatus::Postponed,
            ..tuesday()
        };
        assert_eq!(remind(&postponed, zone, now), Err(Unfit::Postponed));
        let void = Candidate {
            status: FixtureStatus::Void,
            ..tuesday()
        };
        assert_eq!(
            remind(&void, zone, now),
            Err(Unfit::Settled(FixtureStatus::Void))
        );
    }

    #[test]
    fn walkovers_and_postponements_are_for_fixtures_without_a_result() {
        let zone = Zone::LONDON;
        let now = at(WEDNESDAY);
        let ahead = Candidate {
            starts_at: Some(at("2026-11-24T20:00:00Z")),
            ..tuesday()
        };
        for c in [tuesday(), ahead] {
            assert_eq!(fit(Bulk::Walkover, &c, zone, now), Ok(()));
            assert_eq!(fit(Bulk::Postpone, &c, zone, now), Ok(()));
        }
        let played = Candidate {
            status: FixtureStatus::Played,
            result: Some((1, ResultStatus::Approved)),
            ..tuesday()
        };
        assert_eq!(
            walkover(&played),
            Err(Unfit::Settled(FixtureStatus::Played))
        );
        assert_eq!(
            postpone(&played),
            Err(Unfit::Settled(FixtureStatus::Played))
        );
        let entered_still_scheduled = Candidate {
            result: Some((1, ResultStatus::Entered)),
            ..tuesday()
        };
        assert_eq!(walkover(&entered_still_scheduled), Err(Unfit::HasResult));
        assert_eq!(postpone(&entered_still_scheduled), Err(Unfit::HasResult));
        let postponed = Candidate {
            status: FixtureStatus::Postponed,
            ..tuesday()
        };
        assert_eq!(walkover(&postponed), Ok(()));
        assert_eq!(postpone(&postponed), Err(Unfit::PostponedAlready));
        let conceded = Candidate {
            status: FixtureStatus::Walkover,
            ..tuesday()
        };
        assert_eq!(
            walkover(&conceded),
            Err(Unfit::Settled(FixtureStatus::Walkover))
        );
    }

    #[test]
    fn a_fixtures_state_in_the_week() {
        use crate::domain::Side;
        let of = |status, result, missing, pads| WeekState::of(status, None, result, missing, pads);
        assert_eq!(
            of(FixtureStatus::Scheduled, None, true, false),
            WeekState::Missing
        );
        assert_eq!(
            of(FixtureStatus::Scheduled, None, true, true),
            WeekState::PadsLeft
        );
        assert_eq!(
            of(FixtureStatus::Scheduled, None, false, false),
            WeekState::ToPlay
        );
        assert_eq!(
            of(
                FixtureStatus::Played,
                Some(ResultStatus::Confirmed),
                false,
                false
            ),
            WeekState::Result(ResultStatus::Confirmed)
        );
        assert_eq!(
            WeekState::of(
                FixtureStatus::Walkover,
                Some(Side::Away),
                None,
                false,
                false
            ),
            WeekState::Walkover(Some(Side::Away))
        );
        assert!(WeekState::Missing.needs_action());
        assert!(!WeekState::Result(ResultStatus::Approved).needs_action());
    }

    #[test]
    fn the_actions_are_one_list() {
        for b in Bulk::ALL {
            assert_eq!(Bulk::parse(b.key()), Some(b));
        }
        assert_eq!(Bulk::parse("delete"), None);
    }
}
