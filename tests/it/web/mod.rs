//! The web app in process: requests sent to the router itself, on both
//! databases.

mod account;
mod admin;
mod api;
mod cache;
mod card;
mod console;
mod content_first;
mod cups;
mod embed;
mod header;
mod health;
mod honours;
mod limits;
mod links;
mod live;
mod match_page;
pub(crate) mod night;
mod pad;
mod penalties;
mod people;
pub(crate) mod public;
mod push;
mod ratings;
pub(crate) mod results;
pub(crate) mod rollover;
mod schedule;
mod secretary;
mod security;
mod setup;
mod sheet;
pub(crate) mod team_sheet;
mod time_zone;
mod transfers;
mod walkover_score;
mod week;
mod workflow;
