//! Where a fixture stands, as every page, export and the API say it: one
//! list of states and one wording of each, so the fixtures list, the match
//! page, the bracket, the round-up and the console cannot drift apart
//! ("void" here, "void: nobody goes through" there).

use serde::Serialize;

use crate::domain::{FixtureStatus, ResultStatus, Side};

/// A fixture's state for readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FixtureState {
    /// Not played yet, on its date or with none set.
    ToPlay,
    /// Put off from its date; no result yet.
    Postponed,
    /// A result is in (provisional until approved: see [`pending_words`]).
    Played,
    /// One side conceded; the other takes the walkover score.
    Walkover,
    /// Struck out: it and any result count nowhere.
    Void,
}

impl FixtureState {
    pub const ALL: [FixtureState; 5] = [
        FixtureState::ToPlay,
        FixtureState::Postponed,
        FixtureState::Played,
        FixtureState::Walkover,
        FixtureState::Void,
    ];

    /// The state of a fixture with `status` that has (`has_result`) or has
    /// not a result entered.
    pub fn of(status: FixtureStatus, has_result: bool) -> FixtureState {
        match status {
            FixtureStatus::Void => FixtureState::Void,
            FixtureStatus::Walkover => FixtureState::Walkover,
            FixtureStatus::Played => FixtureState::Played,
            _ if has_result => FixtureState::Played,
            FixtureStatus::Postponed => FixtureState::Postponed,
            FixtureStatus::Scheduled => FixtureState::ToPlay,
        }
    }

    /// The name the API and the exports use.
    pub fn key(self) -> &'static str {
        match self {
            FixtureState::ToPlay => "to_play",
            FixtureState::Postponed => "postponed",
            FixtureState::Played => "played",
            FixtureState::Walkover => "walkover",
            FixtureState::Void => "void",
        }
    }

    /// The state in words, naming the side that conceded a walkover
    /// (`conceded`: its name as the page shows it).
    pub fn words(self, conceded: Option<&str>) -> String {
        match (self, conceded) {
            (FixtureState::ToPlay, _) => "to play".into(),
            (FixtureState::Postponed, _) => "postponed".into(),
            (FixtureState::Played, _) => "played".into(),
            (FixtureState::Walkover, Some(side)) => format!("walkover: {side} conceded"),
            (FixtureState::Walkover, None) => "walkover".into(),
            (FixtureState::Void, _) => "void: the match does not count".into(),
        }
    }
}

/// Which side conceded a walkover; an old record without it is taken as
/// the away side's, as the walkover score was given.
pub fn conceding_side(conceded_by: Option<Side>) -> Side {
    conceded_by.unwrap_or(Side::Away)
}

/// What a result not yet approved is called on a badge.
pub fn pending_words(status: ResultStatus) -> &'static str {
    match status {
        ResultStatus::Entered => "provisional: not yet confirmed",
        ResultStatus::Confirmed => "provisional: confirmed, not yet approved",
        ResultStatus::Disputed => "provisional: disputed",
        ResultStatus::Approved => "approved",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_makes_an_open_fixture_played() {
        assert_eq!(
            FixtureState::of(FixtureStatus::Scheduled, false),
            FixtureState::ToPlay
        );
        assert_eq!(
            FixtureState::of(FixtureStatus::Scheduled, true),
            FixtureState::Played
        );
        assert_eq!(
            FixtureState::of(FixtureStatus::Postponed, false),
            FixtureState::Postponed
        );
        assert_eq!(
            FixtureState::of(FixtureStatus::Postponed, true),
            FixtureState::Played
        );
        assert_eq!(
            FixtureState::of(FixtureStatus::Void, true),
            FixtureState::Void
        );
        assert_eq!(
            FixtureState::of(FixtureStatus::Walkover, true),
            FixtureState::Walkover
        );
    }

    #[test]
    fn each_state_has_one_wording() {
        assert_eq!(
            FixtureState::Walkover.words(Some("The Crown")),
            "walkover: The Crown conceded"
        );
        assert_eq!(
            FixtureState::Void.words(None),
            "void: the match does not count"
        );
        let keys: Vec<_> = FixtureState::ALL.iter().map(|s| s.key()).collect();
        assert_eq!(keys, ["to_play", "postponed", "played", "walkover", "void"]);
    }
}
