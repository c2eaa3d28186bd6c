//! The one integration test binary: modules share its build.

mod backups;
mod bad_records;
mod browser;
mod cli;
mod db;
mod demo;
mod harness;
mod helpers;
mod https;
mod kill_drill;
mod mail;
mod portable;
mod properties;
mod schemas;
mod support;
mod tables;
mod trust;
mod web;
mod worked_examples;
