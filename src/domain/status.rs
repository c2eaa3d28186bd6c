//! Where a fixture and its result stand (LEAGUE.md, "Records" and
//! "Entering a result").

use serde::{Deserialize, Serialize};

use super::text_enum;

/// Where a result stands (LEAGUE.md, "Entering a result").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultStatus {
    /// Entered by a captain or the secretary; provisional.
    Entered,
    /// Confirmed by the other captain.
    Confirmed,
    /// Disputed by the other captain (with a note).
    Disputed,
    /// Approved by the secretary: counts in the tables.
    Approved,
}

text_enum!(ResultStatus {
    Entered = "entered",
    Confirmed = "confirmed",
    Disputed = "disputed",
    Approved = "approved",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FixtureStatus {
    Scheduled,
    Postponed,
    Played,
    /// One side conceded (`conceded_by`); the other gets the walkover score.
    Walkover,
    Void,
}

text_enum!(FixtureStatus {
    Scheduled = "scheduled",
    Postponed = "postponed",
    Played = "played",
    Walkover = "walkover",
    Void = "void",
});

impl FixtureStatus {
    /// Still to be played: its result may yet come in.
    pub fn is_open(self) -> bool {
        matches!(self, FixtureStatus::Scheduled | FixtureStatus::Postponed)
    }
}

/// The home or the away team of a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Home,
    Away,
}

text_enum!(Side {
    Home = "home",
    Away = "away",
});

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Home => Side::Away,
            Side::Away => Side::Home,
        }
    }
}
