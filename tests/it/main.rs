//! The one integration test binary: modules share its build.

mod bad_records;
mod cli;
mod helpers;
mod properties;
mod worked_examples;
