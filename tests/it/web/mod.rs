//! The web app in process: requests sent to the router itself, on both
//! databases.

mod account;
mod admin;
mod console;
mod pad;
mod penalties;
mod public;
pub(crate) mod results;
mod schedule;
mod time_zone;
mod workflow;
