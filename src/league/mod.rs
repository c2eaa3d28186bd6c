//! League logic over plain data: fixtures, standings, penalties. No I/O.

pub mod board;
pub mod card;
pub mod cup;
pub mod feats;
pub mod fixtures;
pub mod ical;
pub mod import;
pub mod late_results;
pub mod lineup;
pub mod match_format;
pub mod match_score;
pub mod notices;
pub mod pad;
pub mod penalties;
pub mod players;
pub mod ratings;
pub mod refusal;
pub mod rollover;
pub mod roster;
pub mod season;
pub mod settings;
pub mod sheet;
pub mod standings;
pub mod time;
pub mod transfers;
pub mod workflow;
