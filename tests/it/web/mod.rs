//! The web app in process: requests sent to the router itself, on both
//! databases.

mod account;
pub mod client;
