//! Boneyard: a league manager for dominoes pub leagues.
#![forbid(unsafe_code)]

pub mod cli;
pub mod db;
pub mod rules;
