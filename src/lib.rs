//! Boneyard: a league manager for dominoes pub leagues.
#![forbid(unsafe_code)]

/// Every program built on this library (the server, the tests, the
/// benches) allocates through mimalloc: pages and taps make many small
/// allocations, which glibc's malloc served at a fifth of the cores.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod addresses;
pub mod app;
pub mod backups;
pub mod cli;
pub mod db;
pub mod demo;
pub mod domain;
pub mod https;
pub mod league;
pub mod mail;
pub mod metrics;
pub mod push;
pub mod rules;
pub mod web;

/// The version shown in page footers and used to bust the stylesheet cache.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
