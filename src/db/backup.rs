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
/// database whose migrations are all ones this binary knows (an older copy
/// is brought up to date when next opened). The newest migration it has.
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
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
            .fetch_all(&mut c)
            .await
            .map_err(|_| format!("{} is not a Boneyard database", copy.display()))?;
    let known: Vec<i64> = super::SQLITE_MIGRATIONS.iter().map(|m| m.version).collect();
    if let Some(v) = versions.iter().find(|v| !known.contains(v)) {
        return Err(format!(
            "{} was made by a newer Boneyard (migration {v}); this one knows up to {}: \
             restore it with that version",
            copy.display(),
            known.iter().max().copied().unwrap_or(0)
        ));
    }
    versions
        .last()
        .copied()
        .ok_or_else(|| format!("{} is not a Boneyard database", copy.display()))
}

/// Puts the checked copy at `copy` in place of the SQLite database file
/// `target` (the app stopped): the old file, if any, is kept beside it as
/// `TARGET.before-restore`, with its journal files. The old file's new name.
pub async fn restore(copy: &Path, target: &Path) -> std::result::Result<Option<PathBuf>, String> {
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
