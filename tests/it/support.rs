//! Runs each test body on a fresh SQLite file always, and on a fresh
//! Postgres database when `BONEYARD_TEST_POSTGRES` holds a server address.

use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use boneyard::db::*;
use sqlx::Executor;

/// Declares each named body as two tests, `sqlite::NAME` and
/// `postgres::NAME`.
macro_rules! on_both {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_sqlite(stringify!($name), super::$name).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_postgres(stringify!($name), super::$name).await;
                }
            )+
        }
    };
}

pub(crate) use on_both;

static UNIQUE: AtomicUsize = AtomicUsize::new(0);

fn unique(name: &str) -> String {
    let mut name: String = name.chars().take(28).collect();
    name.push_str(&format!(
        "_{}_{}",
        std::process::id(),
        UNIQUE.fetch_add(1, Ordering::Relaxed)
    ));
    name
}

/// Runs `body` to completion and cleans up, then passes on its panic.
async fn run<F, Fut>(db: Db, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let outcome = tokio::spawn(body(db.clone())).await;
    db.close().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub async fn on_sqlite<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = TempDir(std::env::temp_dir().join(format!("boneyard-{}", unique(name))));
    std::fs::create_dir_all(&dir.0).unwrap();
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.expect("open SQLite");
    assert_eq!(db.backend(), "sqlite");
    run(db, body).await;
}

pub async fn on_postgres<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    static SKIPPED: Once = Once::new();
    let Ok(server) = std::env::var("BONEYARD_TEST_POSTGRES") else {
        // Straight to the stream: the test harness captures `eprintln!`.
        SKIPPED.call_once(|| {
            let _ = writeln!(
                std::io::stderr(),
                "Postgres half skipped: set BONEYARD_TEST_POSTGRES"
            );
        });
        return;
    };
    let database = format!("boneyard_{}", unique(name));
    let admin = sqlx::PgPool::connect(&server)
        .await
        .expect("connect to BONEYARD_TEST_POSTGRES");
    admin
        .execute(format!("CREATE DATABASE \"{database}\"").as_str())
        .await
        .expect("create the test database");
    let db = Db::connect(&with_database(&server, &database))
        .await
        .expect("open Postgres");
    assert_eq!(db.backend(), "postgres");
    run(db, body).await;
    admin
        .execute(format!("DROP DATABASE \"{database}\" WITH (FORCE)").as_str())
        .await
        .expect("drop the test database");
    admin.close().await;
}

/// The server address with its database name replaced.
fn with_database(server: &str, database: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (server, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    format!("{base}/{database}{query}")
}

/// A division JSON table row's numbers, in the order of a table line.
pub const TABLE_JSON_KEYS: [&str; 12] = [
    "played",
    "won",
    "drawn",
    "lost",
    "boards_for",
    "boards_against",
    "games_for",
    "games_against",
    "pegs_for",
    "pegs_against",
    "points_deducted",
    "points",
];

/// As [`on_both`], for bodies that need the database's address too (to
/// start the server binary on it, or to change it behind the app's back):
/// `sqlite_at::NAME` and `postgres_at::NAME`, each given `(db, address)`.
macro_rules! on_both_at {
    ($($name:ident),+ $(,)?) => {
        mod sqlite_at {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_sqlite_at(stringify!($name), super::$name).await;
                }
            )+
        }
        mod postgres_at {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_postgres_at(stringify!($name), super::$name).await;
                }
            )+
        }
    };
}

pub(crate) use on_both_at;

/// [`on_sqlite`], the body given the database's address too.
pub async fn on_sqlite_at<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db, String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = TempDir(std::env::temp_dir().join(format!("boneyard-{}", unique(name))));
    std::fs::create_dir_all(&dir.0).unwrap();
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.expect("open SQLite");
    run(db, move |db| body(db, address)).await;
}

/// [`on_postgres`], the body given the database's address too.
pub async fn on_postgres_at<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db, String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Ok(server) = std::env::var("BONEYARD_TEST_POSTGRES") else {
        return;
    };
    let database = format!("boneyard_{}", unique(name));
    let admin = sqlx::PgPool::connect(&server)
        .await
        .expect("connect to BONEYARD_TEST_POSTGRES");
    admin
        .execute(format!("CREATE DATABASE \"{database}\"").as_str())
        .await
        .expect("create the test database");
    let address = with_database(&server, &database);
    let db = Db::connect(&address).await.expect("open Postgres");
    run(db, move |db| body(db, address)).await;
    admin
        .execute(format!("DROP DATABASE \"{database}\" WITH (FORCE)").as_str())
        .await
        .expect("drop the test database");
    admin.close().await;
}
