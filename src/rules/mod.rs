//! The scoring engine: the contract of RULES.md as pure functions over
//! plain data. No I/O, no async, no database.
//!
//! A record is read ([`parse_record`]), validated into a [`Game`]
//! ([`Game::from_record`]) and scored ([`score`]); [`Report`] is the result
//! JSON.

mod all_fives;
pub mod error;
mod fives_and_threes;
pub mod game;
mod hands_won;
pub mod limits;
pub mod points;
pub mod pose;
pub mod record;
pub mod report;
pub mod ruleset;
pub mod score;
pub mod simulate;
pub mod tile;

pub use error::RecordError;
pub use game::{End, Game, Hand, Opening, Penalty, PenaltyKind, Play, Seat};
pub use record::{EndRecord, GameRecord, HandRecord, PenaltyRecord, PlayRecord};
pub use report::Report;
pub use ruleset::{Format, Ruleset};
pub use score::{HandOutcome, Outcome, PlayerTally, WonAt, score};
pub use tile::Tile;

/// Reads a game record from JSON. A mistake of shape (a missing field, a
/// string where a number belongs) names the hand and play it is in.
pub fn parse_record(json: &str) -> Result<GameRecord, RecordError> {
    // serde would read a struct from a JSON array too; a record is an object.
    if !json.trim_start().starts_with('{') {
        return Err(RecordError::game(
            "not a game record: a record is a JSON object, `{\"format\": ..., \"players\": [...], ...}`",
        ));
    }
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let mut err = locate(&path);
        // serde_json's own message, without its line and column suffix when
        // the path says more.
        let what = inner.to_string();
        err.message = if path == "." || path.is_empty() {
            format!("not a game record: {what}")
        } else {
            format!("`{path}`: {what}")
        };
        err
    })
}

/// Validates and scores a record in one go.
pub fn score_record(record: &GameRecord) -> Result<Outcome, RecordError> {
    score(&Game::from_record(record)?)
}

/// The hand and play a serde path such as `hands[2].plays[0].points`
/// points into.
fn locate(path: &str) -> RecordError {
    let index_after = |key: &str| -> Option<usize> {
        let rest = &path[path.find(key)? + key.len()..];
        rest.strip_prefix('[')?.split(']').next()?.parse().ok()
    };
    match (index_after("hands"), index_after("plays")) {
        (Some(h), Some(p)) => RecordError::play(h, p, ""),
        (Some(h), None) => RecordError::hand(h, ""),
        _ => RecordError::game(""),
    }
}
