//! The database layer, on SQLite always and on Postgres when
//! `BONEYARD_TEST_POSTGRES` holds a server address: every body runs on both
//! (`db::MODULE::sqlite::NAME`, `db::MODULE::postgres::NAME`).

mod concurrency;
mod operations;
mod player_stats;
mod records;
mod results;
mod scoping;
