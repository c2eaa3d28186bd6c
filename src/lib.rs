//! Boneyard: a league manager for dominoes pub leagues.
#![forbid(unsafe_code)]

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
