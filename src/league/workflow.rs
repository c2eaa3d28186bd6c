//! The result workflow as plain data (LEAGUE.md, "Entering a result"): who
//! may submit, confirm, dispute, approve or restore a fixture's result, or
//! record a walkover or a void fixture, from which state, and what each
//! leaves behind. No I/O: the database layer loads the state inside its
//! write transaction, asks here, and writes what the answer says, so the
//! check and the write see the same rows.

use chrono::{DateTime, Duration, Utc};

use crate::domain::{FixtureStatus, ResultStatus, Side, UserId};
use crate::league::lineup::{BoardPlayers, clashes};
use crate::league::match_format::MatchFormat;

/// How far ahead of its date a fixture's result may be entered: a day, for
/// clocks and time zones; more is a mistake (the wrong fixture chosen).
pub const EARLIEST_ENTRY: Duration = Duration::days(1);

/// The most a dispute's note keeps, in characters.
pub const NOTE_LIMIT: usize = 2000;

/// The status note of a version a secretary entered, which is approved at
/// once.
pub const ENTERED_BY_SECRETARY: &str = "entered by a secretary";
/// The status note of a version approved when the other captain confirmed
/// it (the season's setting `approve_on_confirmation`).
pub const APPROVED_ON_CONFIRMATION: &str = "approved on confirmation";

/// Who is acting, and in what capacity for this fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub user: UserId,
    pub role: Role,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Secretary,
    /// A captain of the home or the away team this season.
    Captain(Side),
}

impl Actor {
    pub fn secretary(user: UserId) -> Actor {
        Actor {
            user,
            role: Role::Secretary,
        }
    }

    pub fn captain(user: UserId, side: Side) -> Actor {
        Actor {
            user,
            role: Role::Captain(side),
        }
    }
}

/// A fixture as the workflow needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixtureState {
    pub status: FixtureStatus,
    pub starts_at: Option<DateTime<Utc>>,
    /// The season's result lock: days after the fixture in which its
    /// captains may still enter or correct the result.
    pub lock_days: Option<u32>,
    /// The season is over (rolled over into the next): its results are
    /// kept as they are, and only a secretary still corrects one.
    pub season_closed: bool,
}

impl FixtureState {
    /// When the result locks for captains, if it ever does.
    pub fn locks_at(&self) -> Option<DateTime<Utc>> {
        Some(self.starts_at? + Duration::days(i64::from(self.lock_days?)))
    }
}

/// The current version of a result as the workflow needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionState {
    pub version: i64,
    pub status: ResultStatus,
    /// Who entered it, when the account still exists.
    pub entered_by: Option<UserId>,
    /// The fixture's sides whose captain entered it (this season): empty
    /// when a secretary, or nobody still known, entered it.
    pub entered_for: Vec<Side>,
}

pub use super::refusal::Refusal;

/// A fixture given a new date, or postponed, or scheduled again: only
/// while its result may yet come in (a played, conceded or void fixture
/// keeps its date), and only to scheduled or postponed. Decided on the
/// fixture as it is inside the write, so a result that came in meanwhile
/// wins.
pub fn reschedule(now: FixtureStatus, to: FixtureStatus) -> Decision<()> {
    if !now.is_open() {
        return Err(Refusal::NotNow(format!(
            "This fixture is {now}: only a scheduled or postponed fixture can be given a new date."
        )));
    }
    if !to.is_open() {
        return Err(Refusal::NotNow(format!(
            "A new date leaves a fixture scheduled or postponed, not {to}."
        )));
    }
    Ok(())
}

/// A walkover names the side that conceded, and nothing else does.
pub fn walkover_side(status: FixtureStatus, conceded_by: Option<Side>) -> Decision<()> {
    if (status == FixtureStatus::Walkover) != conceded_by.is_some() {
        return Err(Refusal::WalkoverSide);
    }
    Ok(())
}

/// The boards (1-based) whose pad revision is not the one the review
/// showed: `shown` and `now` list (board, revision), a board with no pad
/// being revision 0.
pub fn changed_pads(shown: &[(i64, i64)], now: &[(i64, i64)]) -> Vec<i64> {
    let revision = |list: &[(i64, i64)], board: i64| {
        list.iter()
            .find(|(b, _)| *b == board)
            .map_or(0, |(_, r)| *r)
    };
    let mut boards: Vec<i64> = shown.iter().chain(now).map(|(b, _)| *b).collect();
    boards.sort_unstable();
    boards.dedup();
    boards.retain(|&b| revision(shown, b) != revision(now, b));
    boards
}

pub type Decision<T> = Result<T, Refusal>;

/// What a submit leaves: the new version's status and note, and whether the
/// fixture is now marked played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub status: ResultStatus,
    pub note: &'static str,
    pub mark_played: bool,
}

/// A result entered or corrected from the card or the pads: a new version,
/// approved at once when a secretary enters it; the fixture is marked
/// played when it was still open. Captains may not enter a result for a
/// fixture the secretary has recorded as a walkover or void, nor after the
/// season's result lock; nobody may enter one more than a day before the
/// fixture.
pub fn submit(actor: Actor, fixture: FixtureState, now: DateTime<Utc>) -> Decision<Submitted> {
    if fixture.season_closed && actor.role != Role::Secretary {
        return Err(Refusal::SeasonClosed);
    }
    if let Some(starts_at) = fixture.starts_at
        && starts_at > now + EARLIEST_ENTRY
    {
        return Err(Refusal::TooEarly { starts_at });
    }
    if let (Role::Captain(_), Some(since)) = (actor.role, fixture.locks_at())
        && now > since
    {
        return Err(Refusal::Locked { since });
    }
    match (actor.role, fixture.status) {
        (Role::Captain(_), FixtureStatus::Walkover | FixtureStatus::Void) => {
            Err(Refusal::NotNow(format!(
                "The secretary has recorded this fixture as {}: ask them to correct it.",
                if fixture.status == FixtureStatus::Void {
                    "void"
                } else {
                    "a walkover"
                }
            )))
        }
        (Role::Captain(_), _) => Ok(Submitted {
            status: ResultStatus::Entered,
            note: "",
            mark_played: fixture.status.is_open(),
        }),
        (Role::Secretary, _) => Ok(Submitted {
            status: ResultStatus::Approved,
            note: ENTERED_BY_SECRETARY,
            mark_played: fixture.status.is_open(),
        }),
    }
}

/// Games given by their final score alone (`score_only`): a secretary's
/// to give always, a captain's when the season allows it (its setting
/// "Entering games").
pub fn may_give_final_scores(actor: Actor, season_allows: bool, score_only: bool) -> Decision<()> {
    if score_only && !season_allows && actor.role != Role::Secretary {
        return Err(Refusal::HandsRequired);
    }
    Ok(())
}

/// A step of the other captain's (confirm, dispute) in a season that may
/// be over: only a secretary still acts on a closed season's results.
pub fn in_open_season(actor: Actor, season_closed: bool) -> Decision<()> {
    if season_closed && actor.role != Role::Secretary {
        return Err(Refusal::SeasonClosed);
    }
    Ok(())
}

/// A board of a submitted result, as the match format's check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmittedBoard {
    pub conceded: bool,
    pub games: usize,
    /// Both sides' player ids.
    pub players: Vec<i64>,
}

/// A submitted result as its match format asks, whoever sends it (the
/// card, the pads, any other way in): every board entered or conceded, no
/// more boards than the format has, and no player on more boards of a
/// kind than the match allows. `name` gives a player's name for the words.
pub fn check_result(
    format: &MatchFormat,
    boards: &[SubmittedBoard],
    name: impl Fn(i64) -> String,
) -> Decision<()> {
    if boards.len() > format.boards.len() {
        return Err(Refusal::TooManyBoards {
            sent: boards.len(),
            format: format.boards.len(),
        });
    }
    let missing: Vec<usize> = (0..format.boards.len())
        .filter(|&i| boards.get(i).is_none_or(|b| !b.conceded && b.games == 0))
        .map(|i| i + 1)
        .collect();
    if !missing.is_empty() {
        return Err(Refusal::BoardsMissing { boards: missing });
    }
    let played: Vec<BoardPlayers> = boards
        .iter()
        .zip(&format.boards)
        .enumerate()
        .filter(|(_, (b, _))| !b.conceded)
        .map(|(i, (b, spec))| BoardPlayers {
            board: i + 1,
            kind: spec.kind,
            players: b.players.clone(),
        })
        .collect();
    match clashes(format, &played).first() {
        Some(clash) => Err(Refusal::LineUp(clash.words(&name(clash.player)))),
        None => Ok(()),
    }
}

/// The current version, if it is the one the user saw.
fn seen(current: Option<&VersionState>, shown: i64) -> Decision<&VersionState> {
    let current = current.ok_or(Refusal::NoResult)?;
    if current.version != shown {
        return Err(Refusal::Stale {
            shown,
            current: current.version,
        });
    }
    Ok(current)
}

/// Only a captain of the team that did not enter the result confirms or
/// disputes it.
fn other_captain(actor: Actor, current: &VersionState) -> Decision<()> {
    let Role::Captain(side) = actor.role else {
        return Err(Refusal::NotYours(
            "A secretary approves results; confirming is for the other captain.",
        ));
    };
    if current.entered_by == Some(actor.user) || current.entered_for.contains(&side) {
        return Err(Refusal::NotYours(
            "Your team entered this result: the other captain confirms or disputes it.",
        ));
    }
    Ok(())
}

/// The other captain confirms the version they saw, while it is entered:
/// confirmed, or approved at once when the season approves on
/// confirmation.
pub fn confirm(
    actor: Actor,
    current: Option<&VersionState>,
    shown: i64,
    approve_on_confirmation: bool,
) -> Decision<(ResultStatus, &'static str)> {
    let current = seen(current, shown)?;
    may_confirm(actor, current)?;
    Ok(if approve_on_confirmation {
        (ResultStatus::Approved, APPROVED_ON_CONFIRMATION)
    } else {
        (ResultStatus::Confirmed, "")
    })
}

/// The other captain disputes the version they saw, with a note, until it
/// is approved. Returns the note as kept.
pub fn dispute(
    actor: Actor,
    current: Option<&VersionState>,
    shown: i64,
    note: &str,
) -> Decision<String> {
    let current = seen(current, shown)?;
    may_dispute(actor, current)?;
    let note = note.trim();
    if note.is_empty() {
        return Err(Refusal::NoNote);
    }
    Ok(note.chars().take(NOTE_LIMIT).collect())
}

/// Whether `actor` may confirm `current` as it stands: the other captain,
/// while it is entered. The pages offer the button by this rule and the
/// command decides by it, so nobody is offered a step that is refused.
pub fn may_confirm(actor: Actor, current: &VersionState) -> Decision<()> {
    other_captain(actor, current)?;
    if current.status != ResultStatus::Entered {
        return Err(Refusal::NotNow(format!(
            "This result is {}; only an entered result can be confirmed.",
            current.status
        )));
    }
    Ok(())
}

/// Whether `actor` may dispute `current` as it stands: the other captain,
/// until it is approved.
pub fn may_dispute(actor: Actor, current: &VersionState) -> Decision<()> {
    other_captain(actor, current)?;
    if current.status == ResultStatus::Approved {
        return Err(Refusal::NotNow(
            "This result is approved already; ask a secretary to correct it.".into(),
        ));
    }
    Ok(())
}

fn secretary(actor: Actor, what: &'static str) -> Decision<()> {
    match actor.role {
        Role::Secretary => Ok(()),
        Role::Captain(_) => Err(Refusal::NotYours(what)),
    }
}

/// A secretary approves the version they saw, whatever the captains did,
/// unless it is approved already.
pub fn approve(
    actor: Actor,
    current: Option<&VersionState>,
    shown: i64,
    shown_status: Option<ResultStatus>,
    note: &str,
) -> Decision<String> {
    secretary(actor, "Only a secretary may approve a result.")?;
    let current = seen(current, shown)?;
    // The number and the state the secretary saw: a dispute since is seen
    // before anything is approved.
    if let Some(was) = shown_status {
        if was != current.status {
            return Err(Refusal::Changed {
                version: current.version,
                was,
                now: current.status,
            });
        }
    }
    if current.status == ResultStatus::Approved {
        return Err(Refusal::NotNow(format!(
            "Version {} is approved already.",
            current.version
        )));
    }
    Ok(note.trim().chars().take(NOTE_LIMIT).collect())
}

/// A secretary makes an earlier version current again, as a new version
/// copying it (status included), when the current version is the one they
/// saw.
pub fn restore(
    actor: Actor,
    current: Option<&VersionState>,
    shown: i64,
    from: i64,
) -> Decision<()> {
    secretary(actor, "Only a secretary may restore an earlier version.")?;
    let current = seen(current, shown)?;
    if from == current.version {
        return Err(Refusal::NotNow(format!(
            "Version {from} is the current version already."
        )));
    }
    if from < 1 || from > current.version {
        return Err(Refusal::NotNow(format!("There is no version {from}.")));
    }
    Ok(())
}

/// A secretary records that `side` conceded: the fixture becomes a
/// walkover (its result, if any, stops counting). Not for a void fixture.
pub fn walkover(
    actor: Actor,
    fixture: FixtureState,
    side: Side,
) -> Decision<(FixtureStatus, Side)> {
    secretary(actor, "Only a secretary may record a walkover.")?;
    if fixture.status == FixtureStatus::Void {
        return Err(Refusal::NotNow(
            "This fixture is void: a void fixture has no walkover.".into(),
        ));
    }
    Ok((FixtureStatus::Walkover, side))
}

/// A secretary voids a fixture: it and any result stop counting.
pub fn void(actor: Actor, fixture: FixtureState) -> Decision<FixtureStatus> {
    secretary(actor, "Only a secretary may void a fixture.")?;
    if fixture.status == FixtureStatus::Void {
        return Err(Refusal::NotNow("This fixture is void already.".into()));
    }
    Ok(FixtureStatus::Void)
}

/// Whether a fixture in `status` can be reinstated: a walkover or a void.
pub fn reinstatable(status: FixtureStatus) -> bool {
    matches!(status, FixtureStatus::Void | FixtureStatus::Walkover)
}

/// A secretary takes back a walkover or a void (recorded by mistake, or a
/// void cup tie to be played again): the fixture is played again when it
/// has a result, else scheduled, and its result counts as before.
pub fn reinstate(actor: Actor, fixture: FixtureState, has_result: bool) -> Decision<FixtureStatus> {
    secretary(actor, "Only a secretary may reinstate a fixture.")?;
    if !reinstatable(fixture.status) {
        return Err(Refusal::NotNow(
            "Only a void fixture or a walkover can be reinstated.".into(),
        ));
    }
    Ok(if has_result {
        FixtureStatus::Played
    } else {
        FixtureStatus::Scheduled
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_scores_alone_are_a_secretarys_always_and_a_captains_when_allowed() {
        let (home, sec) = (
            Actor::captain(UserId(10), Side::Home),
            Actor::secretary(UserId(1)),
        );
        assert_eq!(
            may_give_final_scores(home, false, true),
            Err(Refusal::HandsRequired)
        );
        assert_eq!(may_give_final_scores(home, true, true), Ok(()));
        assert_eq!(may_give_final_scores(home, false, false), Ok(()));
        assert_eq!(may_give_final_scores(sec, false, true), Ok(()));
    }

    const HOME_CAPTAIN: UserId = UserId(10);
    const AWAY_CAPTAIN: UserId = UserId(11);
    const SECRETARY: UserId = UserId(1);

    fn home() -> Actor {
        Actor::captain(HOME_CAPTAIN, Side::Home)
    }
    fn away() -> Actor {
        Actor::captain(AWAY_CAPTAIN, Side::Away)
    }
    fn sec() -> Actor {
        Actor::secretary(SECRETARY)
    }

    fn now() -> DateTime<Utc> {
        "2026-09-10T22:00:00Z".parse().unwrap()
    }

    fn fixture(status: FixtureStatus) -> FixtureState {
        FixtureState {
            status,
            starts_at: Some("2026-09-10T19:30:00Z".parse().unwrap()),
            lock_days: None,
            season_closed: false,
        }
    }

    /// Version `n` with `status`, entered by the home captain.
    fn by_home(n: i64, status: ResultStatus) -> VersionState {
        VersionState {
            version: n,
            status,
            entered_by: Some(HOME_CAPTAIN),
            entered_for: vec![Side::Home],
        }
    }

    fn by_secretary(n: i64, status: ResultStatus) -> VersionState {
        VersionState {
            version: n,
            status,
            entered_by: Some(SECRETARY),
            entered_for: vec![],
        }
    }

    const ALL_RESULTS: [ResultStatus; 4] = [
        ResultStatus::Entered,
        ResultStatus::Confirmed,
        ResultStatus::Disputed,
        ResultStatus::Approved,
    ];
    const ALL_FIXTURES: [FixtureStatus; 5] = [
        FixtureStatus::Scheduled,
        FixtureStatus::Postponed,
        FixtureStatus::Played,
        FixtureStatus::Walkover,
        FixtureStatus::Void,
    ];

    #[test]
    fn only_a_walkover_names_a_conceding_side() {
        use FixtureStatus::*;
        assert_eq!(walkover_side(Walkover, Some(Side::Away)), Ok(()));
        assert_eq!(walkover_side(Walkover, None), Err(Refusal::WalkoverSide));
        assert_eq!(
            walkover_side(Played, Some(Side::Home)),
            Err(Refusal::WalkoverSide)
        );
        assert_eq!(walkover_side(Void, None), Ok(()));
    }

    #[test]
    fn a_captain_submits_an_entered_version_and_an_open_fixture_is_played() {
        for status in ALL_FIXTURES {
            let got = submit(home(), fixture(status), now());
            match status {
                FixtureStatus::Walkover | FixtureStatus::Void => {
                    assert!(matches!(got, Err(Refusal::NotNow(_))), "{status}: {got:?}")
                }
                _ => assert_eq!(
                    got,
                    Ok(Submitted {
                        status: ResultStatus::Entered,
                        note: "",
                        mark_played: status.is_open(),
                    }),
                    "{status}"
                ),
            }
        }
    }

    #[test]
    fn a_secretary_submits_an_approved_version_from_any_fixture_status() {
        for status in ALL_FIXTURES {
            assert_eq!(
                submit(sec(), fixture(status), now()),
                Ok(Submitted {
                    status: ResultStatus::Approved,
                    note: ENTERED_BY_SECRETARY,
                    mark_played: status.is_open(),
                }),
                "{status}"
            );
        }
    }

    #[test]
    fn a_result_more_than_a_day_ahead_is_refused_with_its_date() {
        let starts_at: DateTime<Utc> = "2026-09-12T19:30:00Z".parse().unwrap();
        let ahead = FixtureState {
            status: FixtureStatus::Scheduled,
            starts_at: Some(starts_at),
            lock_days: None,
            season_closed: false,
        };
        for actor in [home(), sec()] {
            let got = submit(actor, ahead, now());
            assert_eq!(got, Err(Refusal::TooEarly { starts_at }));
            assert!(got.unwrap_err().to_string().contains("2026-09-12"));
        }
        // Within the day ahead, and undated fixtures, are fine.
        let tomorrow = FixtureState {
            starts_at: Some(now() + Duration::hours(23)),
            ..ahead
        };
        assert!(submit(home(), tomorrow, now()).is_ok());
        let undated = FixtureState {
            starts_at: None,
            ..ahead
        };
        assert!(submit(home(), undated, now()).is_ok());
    }

    #[test]
    fn after_the_lock_only_a_secretary_enters_or_corrects() {
        let played = FixtureState {
            lock_days: Some(3),
            season_closed: false,
            ..fixture(FixtureStatus::Played)
        };
        let since = played.locks_at().unwrap();
        assert_eq!(
            since,
            "2026-09-13T19:30:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        // On the last day a captain may still correct it.
        let just_before = since - Duration::minutes(1);
        assert!(submit(home(), played, just_before).is_ok());
        for late in [since + Duration::minutes(1), since + Duration::days(30)] {
            for captain in [home(), away()] {
                let got = submit(captain, played, late);
                assert_eq!(got, Err(Refusal::Locked { since }));
                assert!(got.unwrap_err().to_string().contains("only a secretary"));
            }
            assert!(submit(sec(), played, late).is_ok());
        }
        // No lock, or an undated fixture, never locks.
        let open = FixtureState {
            lock_days: None,
            season_closed: false,
            ..played
        };
        assert!(submit(home(), open, since + Duration::days(300)).is_ok());
        let undated = FixtureState {
            starts_at: None,
            ..played
        };
        assert!(submit(home(), undated, since + Duration::days(300)).is_ok());
    }

    #[test]
    fn the_other_captain_confirms_an_entered_version_only() {
        for status in ALL_RESULTS {
            let v = by_home(2, status);
            let got = confirm(away(), Some(&v), 2, false);
            if status == ResultStatus::Entered {
                assert_eq!(got, Ok((ResultStatus::Confirmed, "")));
            } else {
                assert!(matches!(got, Err(Refusal::NotNow(_))), "{status}: {got:?}");
            }
        }
        assert_eq!(
            confirm(away(), Some(&by_home(1, ResultStatus::Entered)), 1, true),
            Ok((ResultStatus::Approved, APPROVED_ON_CONFIRMATION))
        );
        // A version a secretary entered (entered again by a restore) may be
        // confirmed by either captain.
        let v = by_secretary(1, ResultStatus::Entered);
        assert!(confirm(home(), Some(&v), 1, false).is_ok());
        assert!(confirm(away(), Some(&v), 1, false).is_ok());
    }

    #[test]
    fn the_entering_team_and_the_secretary_do_not_confirm_or_dispute() {
        let v = by_home(1, ResultStatus::Entered);
        assert!(matches!(
            confirm(home(), Some(&v), 1, false),
            Err(Refusal::NotYours(_))
        ));
        assert!(matches!(
            dispute(home(), Some(&v), 1, "no"),
            Err(Refusal::NotYours(_))
        ));
        // A second captain of the home team is of the entering team too.
        let second = Actor::captain(UserId(12), Side::Home);
        assert!(matches!(
            confirm(second, Some(&v), 1, false),
            Err(Refusal::NotYours(_))
        ));
        assert!(matches!(
            confirm(sec(), Some(&v), 1, false),
            Err(Refusal::NotYours(_))
        ));
        assert!(matches!(
            dispute(sec(), Some(&v), 1, "no"),
            Err(Refusal::NotYours(_))
        ));
    }

    #[test]
    fn a_step_is_offered_exactly_when_the_command_would_take_it() {
        // What a page offers (may_confirm, may_dispute) and what the
        // command decides never differ, for anyone, in any state.
        let second_home = Actor::captain(UserId(12), Side::Home);
        for status in ALL_RESULTS {
            for v in [by_home(4, status), by_secretary(4, status)] {
                for actor in [home(), away(), second_home, sec()] {
                    assert_eq!(
                        may_confirm(actor, &v).is_ok(),
                        confirm(actor, Some(&v), 4, false).is_ok(),
                        "{actor:?} confirming {v:?}"
                    );
                    assert_eq!(
                        may_dispute(actor, &v).is_ok(),
                        dispute(actor, Some(&v), 4, "a note").is_ok(),
                        "{actor:?} disputing {v:?}"
                    );
                }
            }
        }
        // The captain who submitted is never offered either.
        let mine = by_home(1, ResultStatus::Entered);
        assert!(matches!(
            may_confirm(home(), &mine),
            Err(Refusal::NotYours(_))
        ));
        assert!(matches!(
            may_dispute(second_home, &mine),
            Err(Refusal::NotYours(_))
        ));
        assert_eq!(may_confirm(away(), &mine), Ok(()));
    }

    #[test]
    fn the_other_captain_disputes_with_a_note_until_approved() {
        for status in ALL_RESULTS {
            let v = by_home(3, status);
            let got = dispute(away(), Some(&v), 3, "  Board 2 was 61-40 ");
            if status == ResultStatus::Approved {
                assert!(matches!(got, Err(Refusal::NotNow(_))), "{got:?}");
            } else {
                assert_eq!(got, Ok("Board 2 was 61-40".to_owned()), "{status}");
            }
        }
        let v = by_home(1, ResultStatus::Entered);
        assert_eq!(dispute(away(), Some(&v), 1, "  "), Err(Refusal::NoNote));
        let long = "x".repeat(NOTE_LIMIT + 10);
        assert_eq!(
            dispute(away(), Some(&v), 1, &long).unwrap().len(),
            NOTE_LIMIT
        );
    }

    #[test]
    fn a_secretary_approves_any_version_not_yet_approved() {
        for status in ALL_RESULTS {
            let v = by_home(2, status);
            let got = approve(sec(), Some(&v), 2, None, " checked ");
            if status == ResultStatus::Approved {
                assert!(matches!(got, Err(Refusal::NotNow(_))), "{got:?}");
            } else {
                assert_eq!(got, Ok("checked".to_owned()), "{status}");
            }
        }
        let v = by_home(2, ResultStatus::Confirmed);
        assert!(matches!(
            approve(away(), Some(&v), 2, None, ""),
            Err(Refusal::NotYours(_))
        ));
    }

    #[test]
    fn an_approval_acts_on_the_state_the_secretary_saw() {
        let v = by_home(2, ResultStatus::Disputed);
        assert_eq!(
            approve(sec(), Some(&v), 2, Some(ResultStatus::Entered), ""),
            Err(Refusal::Changed {
                version: 2,
                was: ResultStatus::Entered,
                now: ResultStatus::Disputed,
            })
        );
        assert!(approve(sec(), Some(&v), 2, Some(ResultStatus::Disputed), "").is_ok());
    }

    #[test]
    fn every_action_on_a_result_needs_the_version_the_user_saw() {
        let v = by_home(3, ResultStatus::Entered);
        let stale = Err::<(), _>(Refusal::Stale {
            shown: 2,
            current: 3,
        });
        assert_eq!(confirm(away(), Some(&v), 2, false).map(|_| ()), stale);
        assert_eq!(dispute(away(), Some(&v), 2, "x").map(|_| ()), stale);
        assert_eq!(approve(sec(), Some(&v), 2, None, "").map(|_| ()), stale);
        assert_eq!(restore(sec(), Some(&v), 2, 1), stale);
        // And there must be a result at all.
        assert_eq!(confirm(away(), None, 1, false), Err(Refusal::NoResult));
        assert_eq!(dispute(away(), None, 1, "x"), Err(Refusal::NoResult));
        assert_eq!(approve(sec(), None, 1, None, ""), Err(Refusal::NoResult));
        assert_eq!(restore(sec(), None, 1, 1), Err(Refusal::NoResult));
    }

    #[test]
    fn a_secretary_restores_an_earlier_version_only() {
        let v = by_home(3, ResultStatus::Approved);
        assert_eq!(restore(sec(), Some(&v), 3, 1), Ok(()));
        assert_eq!(restore(sec(), Some(&v), 3, 2), Ok(()));
        assert!(matches!(
            restore(sec(), Some(&v), 3, 3),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            restore(sec(), Some(&v), 3, 4),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            restore(sec(), Some(&v), 3, 0),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            restore(home(), Some(&v), 3, 1),
            Err(Refusal::NotYours(_))
        ));
    }

    #[test]
    fn a_secretary_records_walkovers_and_voids() {
        for status in ALL_FIXTURES {
            let got = walkover(sec(), fixture(status), Side::Away);
            if status == FixtureStatus::Void {
                assert!(matches!(got, Err(Refusal::NotNow(_))));
            } else {
                assert_eq!(got, Ok((FixtureStatus::Walkover, Side::Away)), "{status}");
            }
            let got = void(sec(), fixture(status));
            if status == FixtureStatus::Void {
                assert!(matches!(got, Err(Refusal::NotNow(_))));
            } else {
                assert_eq!(got, Ok(FixtureStatus::Void), "{status}");
            }
            for captain in [home(), away()] {
                assert!(matches!(
                    walkover(captain, fixture(status), Side::Home),
                    Err(Refusal::NotYours(_))
                ));
                assert!(matches!(
                    void(captain, fixture(status)),
                    Err(Refusal::NotYours(_))
                ));
            }
        }
    }

    #[test]
    fn a_secretary_reinstates_a_walkover_or_a_void_as_played_or_scheduled() {
        for status in ALL_FIXTURES {
            for has_result in [false, true] {
                let got = reinstate(sec(), fixture(status), has_result);
                match status {
                    FixtureStatus::Void | FixtureStatus::Walkover => {
                        let back = if has_result {
                            FixtureStatus::Played
                        } else {
                            FixtureStatus::Scheduled
                        };
                        assert_eq!(got, Ok(back), "{status}");
                    }
                    _ => assert!(matches!(got, Err(Refusal::NotNow(_))), "{status}"),
                }
                for captain in [home(), away()] {
                    assert!(matches!(
                        reinstate(captain, fixture(status), has_result),
                        Err(Refusal::NotYours(_))
                    ));
                }
            }
        }
    }

    #[test]
    fn only_an_open_fixture_is_rescheduled_and_only_to_open() {
        use FixtureStatus::*;
        for now in [Scheduled, Postponed, Played, Walkover, Void] {
            for to in [Scheduled, Postponed, Played, Walkover, Void] {
                let got = super::reschedule(now, to);
                assert_eq!(got.is_ok(), now.is_open() && to.is_open(), "{now} -> {to}");
            }
        }
    }
}
