//! Small builders for game records in tests.

use boneyard::rules::{Game, Outcome, RecordError, parse_record, score};
use serde_json::{Value, json};

/// Scores a record given as JSON, through the same path as `boneyard score`.
pub fn score_json(record: &Value) -> Result<Outcome, RecordError> {
    let record = parse_record(&record.to_string())?;
    score(&Game::from_record(&record)?)
}

pub fn ok(record: &Value) -> Outcome {
    score_json(record).unwrap_or_else(|e| panic!("record refused: {e}\n{record:#}"))
}

/// The error a bad record gets, as `boneyard score` prints it.
pub fn refused(record: &Value) -> String {
    match score_json(record) {
        Ok(o) => panic!("record accepted, expected a refusal: {o:?}\n{record:#}"),
        Err(e) => e.to_string(),
    }
}

/// A singles fives-and-threes game between Ann (side 0) and Bob.
pub fn fat_singles(hands: Value) -> Value {
    json!({
        "format": "fives-and-threes",
        "players": ["Ann", "Bob"],
        "sides": [["Ann"], ["Bob"]],
        "first_pose": "Ann",
        "hands": hands,
    })
}

/// A pairs game of `format`: Ann and Cat (side 0) against Bob and Dan.
pub fn pairs(format: &str, hands: Value) -> Value {
    json!({
        "format": format,
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "sides": [["Ann", "Cat"], ["Bob", "Dan"]],
        "first_pose": "Ann",
        "hands": hands,
    })
}

/// A blocked end with every player's pips, in order Ann, Bob, Cat, Dan.
pub fn blocked4(pips: [u32; 4]) -> Value {
    json!({"blocked": {"Ann": pips[0], "Bob": pips[1], "Cat": pips[2], "Dan": pips[3]}})
}

pub fn blocked2(ann: u32, bob: u32) -> Value {
    json!({"blocked": {"Ann": ann, "Bob": bob}})
}

/// A fives-and-threes hand in which `by` pegs each of `points`, then the
/// hand blocks.
pub fn fat_hand(by: &str, points: &[u32]) -> Value {
    let plays: Vec<Value> = points
        .iter()
        .map(|p| json!({"by": by, "points": p}))
        .collect();
    json!({"plays": plays, "end": blocked2(10, 10)})
}
