//! The one error a record can get: where it is and what is wrong.

use std::fmt;

/// A bad game record. `hand` and `play` are 1-based, as a person counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub hand: Option<usize>,
    pub play: Option<usize>,
    pub message: String,
}

impl RecordError {
    /// A problem with the record as a whole (players, sides, options...).
    pub fn game(message: impl Into<String>) -> Self {
        RecordError {
            hand: None,
            play: None,
            message: message.into(),
        }
    }

    /// A problem with a hand; `hand` is 0-based here and shown 1-based.
    pub fn hand(hand: usize, message: impl Into<String>) -> Self {
        RecordError {
            hand: Some(hand + 1),
            play: None,
            message: message.into(),
        }
    }

    /// A problem with one play of a hand; both 0-based here.
    pub fn play(hand: usize, play: usize, message: impl Into<String>) -> Self {
        RecordError {
            hand: Some(hand + 1),
            play: Some(play + 1),
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.hand, self.play) {
            (Some(h), Some(p)) => write!(f, "hand {h}, play {p}: {}", self.message),
            (Some(h), None) => write!(f, "hand {h}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}
