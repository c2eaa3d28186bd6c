//! The game record of RULES.md as it travels: JSON in, JSON out.
//!
//! These types mirror the JSON shape and accept anything of the right JSON
//! kind; whether the record makes sense is decided by [`crate::rules::Game`],
//! which turns a record into validated indices. Numbers are `i64` here so that
//! a negative or oversized count reaches validation and gets a message naming
//! its hand and play instead of a bare parser error.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One game as recorded: who played, who posed first, and every hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub format: String,
    pub players: Vec<String>,
    pub sides: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_pose: Option<String>,
    pub hands: Vec<HandRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub penalties: Vec<PenaltyRecord>,
}

/// One hand: its scoring plays in order, and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    #[serde(default)]
    pub plays: Vec<PlayRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<EndRecord>,
}

/// A scoring play, credited to the player whose side received the points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRecord {
    pub by: String,
    pub points: i64,
    #[serde(default, skip_serializing_if = "is_false")]
    pub out: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub muggins: bool,
}

/// How a hand ended. Exactly one of `out`, `blocked` and `abandoned` is
/// given; `left` goes with `out` in `all-fives`. Kept as one struct rather
/// than a serde enum so a wrong mix gets a message of ours.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<BTreeMap<String, i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<BTreeMap<String, i64>>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub abandoned: bool,
}

/// An in-game penalty, given before the 1-based hand `before_hand`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenaltyRecord {
    pub player: String,
    pub kind: String,
    pub before_hand: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<i64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl EndRecord {
    pub fn out(name: &str) -> Self {
        EndRecord {
            out: Some(name.to_owned()),
            ..Default::default()
        }
    }
}

impl PlayRecord {
    pub fn new(by: &str, points: i64) -> Self {
        PlayRecord {
            by: by.to_owned(),
            points,
            out: false,
            muggins: false,
        }
    }
}
