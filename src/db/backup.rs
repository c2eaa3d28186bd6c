//! A copy of the whole database, taken while the app runs: SQLite's
//! `VACUUM INTO` writes a consistent, compacted file in one transaction
//! (readers and the app's writer carry on). Postgres has its own tool.

use std::path::Path;

use super::{Db, DbError, Result};

impl Db {
    /// Writes a copy of the database to `path`, a file that must not exist
    /// yet.
    pub async fn backup_to(&self, path: &Path) -> Result<()> {
        if path.exists() {
            return Err(DbError::Invalid(format!(
                "{} exists already: give a new file's name",
                path.display()
            )));
        }
        let Some(target) = path.to_str() else {
            return Err(DbError::Invalid(format!(
                "{} is not a name SQLite can take (not UTF-8)",
                path.display()
            )));
        };
        match self {
            Db::Sqlite(s) => {
                sqlx::query("VACUUM INTO $1")
                    .bind(target)
                    .execute(&s.write)
                    .await?;
                Ok(())
            }
            Db::Postgres(_) => Err(DbError::Invalid(
                "a Postgres database is backed up with pg_dump, e.g. \
                 `pg_dump --format=custom --file=boneyard.dump DATABASE`"
                    .into(),
            )),
        }
    }
}
