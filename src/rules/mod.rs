//! The scoring engine: the contract of RULES.md as pure functions over
//! plain data. No I/O, no async, no database.

pub mod error;
pub mod points;
pub mod record;
pub mod ruleset;
pub mod tile;

pub use error::RecordError;
pub use record::{EndRecord, GameRecord, HandRecord, PenaltyRecord, PlayRecord};
pub use ruleset::{Format, Ruleset};
pub use tile::Tile;
