//! The use cases between the pages and the records: what a page's data is
//! made of when more than one page (or a page and a command) need it, so
//! each concept is worked out in one place. Handlers in `web/` parse, call
//! one of these and render; `db/` stores; `league/` and `rules/` decide.

pub mod answer_links;
pub mod by_generation;
pub mod cup_commands;
pub mod cups;
pub mod division_table;
pub mod embeds;
pub mod feats;
pub mod fixtures;
pub mod formats;
pub mod invitation_links;
pub mod invitations;
pub mod mail;
pub mod pad;
pub mod penalties;
pub mod people;
pub mod ratings;
pub mod read;
pub mod registrations;
pub mod results;
pub mod rollover;
pub mod round_up_list;
pub mod schedule;
pub mod season_results;
pub mod seasons;
pub mod setup;
pub mod tallies;
pub mod team_sheet;
pub mod teams;
pub mod transfers;
pub mod week;
pub mod words;
