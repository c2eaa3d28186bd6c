//! A copy of the whole database, taken while the app runs: SQLite's
//! `VACUUM INTO` writes a consistent, compacted file in one transaction
//! (readers and the app's writer carry on). Postgres has its own tool.

use std::path::{Path, PathBuf};

use super::{Db, DbError, Result};
use sqlx::Connection;

impl Db {
    /// Writes a copy of the database to `path`, a file that must not exist
    /// yet.
    pub async fn backup_to(&self, path: &Path) -> Result<()> {
        if path.exists() {
            return Err(DbError::Backup(format!(
                "{} exists already: give a new file's name",
                path.display()
            )));
        }
        let Some(target) = path.to_str() else {
            return Err(DbError::Backup(format!(
                "{} is not a name SQLite can take (not UTF-8)",
                path.display()
            )));
        };
        match self {
            Db::Sqlite(s) => {
                // A connection of its own, not the one writer: in WAL mode
                // the copy is a read of one snapshot, so the league's
                // writes (a night of taps) go on while a big file is copied.
                let options = (*s.read.connect_options())
                    .clone()
                    .pragma("query_only", "OFF");
                let mut copier = sqlx::SqliteConnection::connect_with(&options).await?;
                sqlx::query("VACUUM INTO $1")
                    .bind(target)
                    .execute(&mut copier)
                    .await?;
                copier.close().await?;
                Ok(())
            }
            Db::Postgres(_) => Err(DbError::Backup(
                "a Postgres database is backed up with pg_dump, e.g. \
                 `pg_dump --format=custom --file=boneyard.dump DATABASE`"
                    .into(),
            )),
        }
    }
}

/// Checks that the SQLite file at `copy` can be put in place of a
/// database: SQLite's integrity check passes, and it is a Boneyard
/// database whose migrations are all ones this binary knows, finished and
/// unaltered (an older copy is brought up to date when next opened), with
/// every table and column they make. The newest migration it has.
pub async fn check_copy(copy: &Path) -> std::result::Result<i64, String> {
    if !copy.is_file() {
        return Err(format!("{} is not a file", copy.display()));
    }
    let url = format!("sqlite://{}?mode=ro", copy.display());
    let mut c = sqlx::SqliteConnection::connect(&url)
        .await
        .map_err(|e| format!("{} cannot be opened as SQLite: {e}", copy.display()))?;
    let check: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut c)
        .await
        .map_err(|e| format!("{} is damaged: {e}", copy.display()))?;
    if check != ["ok"] {
        return Err(format!(
            "{} is damaged: {}",
            copy.display(),
            check.join("; ")
        ));
    }
    let applied: Vec<super::health::Applied> =
        sqlx::query_as("SELECT version, success, checksum FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&mut c)
            .await
            .map_err(|_| format!("{} is not a Boneyard database", copy.display()))?;
    let known: Vec<i64> = super::SQLITE_MIGRATIONS.iter().map(|m| m.version).collect();
    let versions: Vec<i64> = applied.iter().map(|a| a.version).collect();
    if let Some(v) = versions.iter().find(|v| !known.contains(v)) {
        return Err(format!(
            "{} was made by a newer Boneyard (migration {v}); this one knows up to {}: \
             restore it with that version",
            copy.display(),
            known.iter().max().copied().unwrap_or(0)
        ));
    }
    // The app would refuse to start on a copy whose migrations were
    // edited or left unfinished: refused here, before it is in place.
    let faults = super::health::migration_faults(&super::SQLITE_MIGRATIONS, &applied);
    if !faults.is_empty() {
        return Err(format!(
            "{} is not a copy this binary can open: {}",
            copy.display(),
            faults.join("; ")
        ));
    }
    // Every table and column its migrations made must be there: a copy
    // missing one starts, then fails on every request that needs it.
    let expected = super::health::expected_columns(&versions).await?;
    let present = super::health::sqlite_columns(&mut c)
        .await
        .map_err(|e| format!("{} cannot be read: {e}", copy.display()))?;
    let missing = super::health::missing(&expected, &present);
    if !missing.is_empty() {
        return Err(format!(
            "{} is not a whole Boneyard database: {}",
            copy.display(),
            missing.join("; ")
        ));
    }
    versions
        .last()
        .copied()
        .ok_or_else(|| format!("{} is not a Boneyard database", copy.display()))
}

/// The file of a SQLite database address (`sqlite://FILE?...`), or `None`
/// for any other address.
pub fn sqlite_file(address: &str) -> Option<PathBuf> {
    let rest = address
        .strip_prefix("sqlite://")
        .or_else(|| address.strip_prefix("sqlite:"))?;
    let file = rest.split('?').next().unwrap_or(rest);
    (!file.is_empty() && !file.contains(":memory:")).then(|| PathBuf::from(file))
}

/// The lock file beside a SQLite database: every app server serving the
/// database holds a shared lock on it while it runs, and a restore takes it
/// exclusively, so a restore never swaps the file under a running server
/// (whose later writes would land in the file set aside, and be lost).
/// A separate file, not the database itself: SQLite's own locks on the
/// database would be dropped if this process closed another handle on it.
fn lock_file(database: &Path) -> std::result::Result<std::fs::File, String> {
    let path = PathBuf::from(format!("{}.lock", database.display()));
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Held by a running app server: see [`lock_file`].
#[derive(Debug)]
pub struct ServingLock(#[allow(dead_code)] std::fs::File);

/// Takes the shared lock an app server holds on `database` while it runs;
/// refused while a restore holds it.
// std's file locks are stable since Rust 1.89, past the crate's declared
// MSRV (1.85); raising it wakes lints elsewhere, so it is the lead's call
// (issue 44's note).
#[allow(clippy::incompatible_msrv)]
pub fn lock_for_serving(database: &Path) -> std::result::Result<ServingLock, String> {
    let file = lock_file(database)?;
    match file.try_lock_shared() {
        Ok(()) => Ok(ServingLock(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "{} is being restored: start the app again once the restore is done",
            database.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}.lock: {e}", database.display())),
    }
}

/// Puts the checked copy at `copy` in place of the SQLite database file
/// `target` (the app stopped): the old file, if any, is kept beside it as
/// `TARGET.before-restore`, with its journal files. Refused while an app
/// server serves `target` (see [`lock_for_serving`]). The old file's new
/// name.
#[allow(clippy::incompatible_msrv)] // std's file locks: see `lock_for_serving`
pub async fn restore(copy: &Path, target: &Path) -> std::result::Result<Option<PathBuf>, String> {
    // No app server may be serving the file while it is swapped; and none
    // starts on it until the swap is done (the lock is held till then).
    let lock = lock_file(target)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(format!(
                "an app server is serving {}: stop it first, then restore",
                target.display()
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("{}.lock: {e}", target.display()));
        }
    }
    check_copy(copy).await?;
    let io = |e: std::io::Error| format!("{}: {e}", target.display());
    let staged = target.with_extension("restoring");
    std::fs::copy(copy, &staged).map_err(io)?;
    let kept = if target.exists() {
        let aside = PathBuf::from(format!("{}.before-restore", target.display()));
        std::fs::rename(target, &aside).map_err(io)?;
        Some(aside)
    } else {
        None
    };
    for journal in ["-wal", "-shm"] {
        let j = PathBuf::from(format!("{}{journal}", target.display()));
        if j.exists() {
            std::fs::remove_file(&j).map_err(io)?;
        }
    }
    std::fs::rename(&staged, target).map_err(io)?;
    Ok(kept)
}
