//! The league records on SQLite or Postgres: the only place with SQL.
//!
//! One [`Db`] over either backend, picked by the address's scheme
//! (`sqlite://path` or `postgres://...`). Statements are written once with
//! `$1` placeholders, which both backends accept, and run through [`sql`]
//! on whichever database is there: reads on the [`Db`], writes on a
//! [`sql::Tx`] that the functions of each module take and compose, so a
//! use case is one transaction however many of them it calls.
//!
//! Every read and write takes the league's id and is scoped by it, and the
//! schema backs that up: references between league records are composite
//! foreign keys that include `league_id` (see `migrations/`).
//!
//! Sessions are not here: the web layer calls tower-sessions-sqlx-store's own
//! `migrate()` at start, which creates its table on either backend.

use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, SubsecRound, Utc};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

mod error;
pub mod sql;

pub mod approvals;
pub mod audit;
pub mod backup;
mod counted;
pub mod cups;
pub mod dated;
pub mod fixtures;
pub mod generation;
pub mod health;
pub mod invitations;
pub mod late_results;
pub mod leagues;
pub mod mail;
pub mod pad;
pub mod pages;
pub mod penalties;
pub mod people;
pub mod players;
pub mod ratings;
pub mod results;
pub mod rollover;
pub mod round_up_list;
pub mod schedule;
pub mod seasons;
pub mod sessions;
pub mod stats;
pub mod team_sheet;
pub mod teams;
pub mod throttle;
pub mod transfers;
pub mod users;
pub mod venues;
pub mod week;

pub use crate::domain::ids::*;
pub use crate::domain::{FixtureStatus, ResultStatus, Side};
pub use audit::AuditEntry;
pub use cups::{Cup, CupData, CupEntrant, CupRound, CupTie, DrawRequest, How, NewCup, NewEntrant};
pub use error::{Constraint, DbError, Result};
pub use fixtures::{
    Fixture, FixtureChange, FixtureChangeLine, FixtureHistory, FixtureMoment, NewFixture,
};
pub use leagues::{League, NewLeague};
pub use penalties::{
    Fine, NewFine, NewPenalty, NewPenaltyKind, Penalty, PenaltyEffect, PenaltyKind,
};
pub use players::{Player, Registration};
pub use results::{
    BoardKind, BoardResult, GameOutcome, GameResult, MatchResult, PlayerGames, ResultVersion,
    StoredResult,
};
pub use seasons::{Division, NewSeason, Season, SeasonUpdate};
pub use stats::Counted;
pub use teams::{Team, TeamEntry};
pub use users::{NewRole, Role, RoleKind, User};
pub use venues::{NewVenue, Venue};

/// How long a SQLite connection waits for a lock held by another process
/// (a backup, the command line) before giving up.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Readers on SQLite: WAL lets them all run beside the one writer.
const SQLITE_READERS: u32 = 4;
const POSTGRES_CONNECTIONS: u32 = 10;

/// The league records, on SQLite or Postgres. Cheap to clone: the pools
/// inside are shared.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqliteDb),
    Postgres(PgPool),
}

/// SQLite as a server needs it: several readers, one writer.
///
/// Writes are serialized by giving them a pool of exactly one connection:
/// a writer waits its turn for that connection inside our process (bounded
/// by the pool's acquire timeout), instead of racing other connections for
/// SQLite's lock and getting "database is locked". Each write transaction
/// also opens with `BEGIN IMMEDIATE`, so it takes the write lock up front and
/// a transaction that reads before it writes can never fail to upgrade its
/// lock when another process (a backup, the command line) holds it; that
/// wait is covered by the busy timeout. The readers run `query_only`, so a
/// write sent to the wrong pool fails loudly instead of contending.
#[derive(Clone, Debug)]
pub struct SqliteDb {
    pub(crate) read: SqlitePool,
    pub(crate) write: SqlitePool,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

impl Db {
    /// Opens the database at `address` and brings its schema up to date.
    ///
    /// `sqlite://path/to/file.db` (the file is created if missing) or
    /// `postgres://user@host/name`. SQLite in memory is refused: each
    /// connection of a pool would get a database of its own.
    pub async fn connect(address: &str) -> Result<Db> {
        if address.starts_with("postgres://") || address.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(POSTGRES_CONNECTIONS)
                .connect(address)
                .await?;
            POSTGRES_MIGRATIONS.run(&pool).await?;
            Ok(Db::Postgres(pool))
        } else if address.starts_with("sqlite:") {
            if address.contains(":memory:") || address.contains("mode=memory") {
                return Err(DbError::Address(
                    "SQLite in memory gives each connection its own database: use a file".into(),
                ));
            }
            let options = SqliteConnectOptions::from_str(address)
                .map_err(|e| DbError::Address(format!("{address}: {e}")))?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .foreign_keys(true)
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                .synchronous(SqliteSynchronous::Full);
            let write = SqlitePoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await?;
            SQLITE_MIGRATIONS.run(&write).await?;
            let read = SqlitePoolOptions::new()
                .max_connections(SQLITE_READERS)
                .connect_with(options.pragma("query_only", "ON"))
                .await?;
            Ok(Db::Sqlite(SqliteDb { read, write }))
        } else {
            Err(DbError::Address(format!(
                "`{address}`: expected sqlite://FILE or postgres://..."
            )))
        }
    }

    /// Starts a bulk load (the demo): the database to load through, whose
    /// commits do not wait for the disk until [`Db::end_bulk_load`] makes
    /// it all durable at once. On SQLite that is the one writer connection
    /// with `synchronous = OFF`; on Postgres, connections of their own with
    /// `synchronous_commit = off` (the server's other sessions keep theirs).
    /// The writes themselves are the same as ever, so the database ends as
    /// one filled result by result would. A crash of the program in between
    /// loses nothing committed; a power cut may, as with any bulk load.
    pub async fn begin_bulk_load(&self) -> Result<Db> {
        match self {
            Db::Sqlite(s) => {
                sqlx::query("PRAGMA synchronous = OFF")
                    .execute(&s.write)
                    .await?;
                Ok(self.clone())
            }
            Db::Postgres(p) => {
                let options = (*p.connect_options())
                    .clone()
                    .options([("synchronous_commit", "off")]);
                let pool = PgPoolOptions::new()
                    .max_connections(POSTGRES_CONNECTIONS)
                    .connect_with(options)
                    .await?;
                Ok(Db::Postgres(pool))
            }
        }
    }

    /// Ends the bulk load through `loader`: durable commits again, and
    /// everything loaded written through to the disk. On Postgres the
    /// loader's connections are closed and the planner's statistics brought
    /// up to date, in a commit that waits for the disk and so for every
    /// commit before it: without fresh statistics (autovacuum off or not yet
    /// come round) the planner guessed the tables tiny and read a match's
    /// hands by scanning every hand, hundreds of milliseconds a page.
    pub async fn end_bulk_load(&self, loader: Db) -> Result<()> {
        match self {
            Db::Sqlite(s) => {
                sqlx::query("PRAGMA synchronous = FULL")
                    .execute(&s.write)
                    .await?;
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(&s.write)
                    .await?;
            }
            Db::Postgres(p) => {
                loader.close().await;
                sqlx::query("ANALYZE").execute(p).await?;
            }
        }
        Ok(())
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        self.dialect("sqlite", "postgres")
    }

    /// Closes every connection; waits for those in use to come back.
    pub async fn close(&self) {
        match self {
            Db::Sqlite(s) => {
                s.read.close().await;
                s.write.close().await;
            }
            Db::Postgres(p) => p.close().await,
        }
    }
}

/// The time now, to the microsecond: what Postgres keeps, so a time reads
/// back equal to what was written on either backend.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

/// A JSON object stored as text.
pub(crate) fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("serializing plain data to JSON cannot fail")
}

pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| DbError::Corrupt(format!("{what}: {e}")))
}

pub(crate) use crate::domain::text_enum;

#[cfg(test)]
mod tests {
    //! SQLite's settings, which only this module can see; the behaviour
    //! shared by both backends is tested in `tests/db`.

    use super::*;

    struct TempFile(std::path::PathBuf);

    impl Drop for TempFile {
        fn drop(&mut self) {
            for suffix in ["", "-wal", "-shm"] {
                let mut path = self.0.clone().into_os_string();
                path.push(suffix);
                let _ = std::fs::remove_file(path);
            }
        }
    }

    fn temp_file(name: &str) -> TempFile {
        TempFile(
            std::env::temp_dir().join(format!("boneyard-unit-{name}-{}.db", std::process::id())),
        )
    }

    /// A pragma's value as SQLite gives it as text.
    async fn pragma(pool: &SqlitePool, name: &str) -> String {
        use sqlx::Row;
        let row = sqlx::query(&format!("PRAGMA {name}"))
            .fetch_one(pool)
            .await
            .unwrap();
        row.try_get_unchecked::<String, _>(0).unwrap()
    }

    #[tokio::test]
    async fn sqlite_is_tuned_for_a_server() {
        let file = temp_file("pragmas");
        let db = Db::connect(&format!("sqlite://{}", file.0.display()))
            .await
            .unwrap();
        let Db::Sqlite(s) = &db else {
            panic!("not SQLite")
        };
        for pool in [&s.write, &s.read] {
            assert_eq!(pragma(pool, "journal_mode").await, "wal");
            assert_eq!(pragma(pool, "foreign_keys").await, "1");
            assert_eq!(pragma(pool, "synchronous").await, "2", "FULL");
            assert_eq!(pragma(pool, "busy_timeout").await, "10000");
        }
        assert_eq!(pragma(&s.read, "query_only").await, "1");
        assert_eq!(pragma(&s.write, "query_only").await, "0");
        assert_eq!(s.write.options().get_max_connections(), 1);
        db.close().await;
    }

    #[tokio::test]
    async fn memory_and_unknown_addresses_are_refused() {
        for address in ["sqlite::memory:", "mysql://localhost/x", "league.db"] {
            assert!(matches!(
                Db::connect(address).await,
                Err(DbError::Address(_))
            ));
        }
    }

    /// Two programs on one file (the server and the command line): the
    /// second waits for the first's lock instead of failing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_programs_on_one_file_wait_their_turn() {
        let file = temp_file("two-programs");
        let address = format!("sqlite://{}", file.0.display());
        let first = Db::connect(&address).await.unwrap();
        let second = Db::connect(&address).await.unwrap();
        let league = first
            .create_league(&NewLeague {
                name: "Both".into(),
                short_name: "both".into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .id;
        let tasks: Vec<_> = [first.clone(), second.clone()]
            .into_iter()
            .enumerate()
            .map(|(i, db)| {
                tokio::spawn(async move {
                    for n in 0..25 {
                        db.create_player(league, &format!("p{i}-{n}")).await?;
                    }
                    Ok::<_, DbError>(())
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        assert_eq!(second.players(league).await.unwrap().len(), 50);
        first.close().await;
        second.close().await;
    }
}
