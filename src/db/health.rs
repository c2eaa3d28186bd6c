//! Whether the database answers and its schema is this binary's (for
//! `/healthz`, issue 28, and `boneyard restore`, issue 44): every migration
//! this binary knows applied, finished and unaltered, and every table and
//! column its migrations make present. A database whose migration count is
//! right but which lost a table (or had a migration edited) is not
//! healthy: the app would fail on it request by request.

use std::collections::BTreeSet;

use sqlx::Connection;
use sqlx::migrate::Migrator;

use super::sql::{self};
use super::{Db, POSTGRES_MIGRATIONS, Result, SQLITE_MIGRATIONS};

/// The schema's state: the newest migration applied and the newest this
/// binary knows, and what else is wrong with it, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    pub applied: i64,
    pub known: i64,
    /// Migrations unfinished or differing from this binary's, tables and
    /// columns missing: empty when the schema is this binary's.
    pub wrong: Vec<String>,
}

impl Health {
    pub fn is_current(&self) -> bool {
        self.applied == self.known && self.wrong.is_empty()
    }
}

/// A migration as a database records it.
#[derive(sqlx::FromRow)]
pub(crate) struct Applied {
    pub(crate) version: i64,
    success: bool,
    checksum: Vec<u8>,
}

/// `(table, column)` pairs.
pub(crate) type Columns = BTreeSet<(String, String)>;

/// What is wrong with the migrations `applied` against the binary's
/// `migrator`: unfinished ones, ones whose checksum differs (edited after
/// they ran), ones this binary does not know (made by a newer one).
pub(crate) fn migration_faults(migrator: &Migrator, applied: &[Applied]) -> Vec<String> {
    let mut wrong = Vec::new();
    for a in applied {
        match migrator.iter().find(|m| m.version == a.version) {
            None => wrong.push(format!("migration {} is not this binary's", a.version)),
            Some(_) if !a.success => {
                wrong.push(format!("migration {} did not finish", a.version));
            }
            Some(m) if *m.checksum != *a.checksum => wrong.push(format!(
                "migration {} differs from this binary's (its checksum)",
                a.version
            )),
            Some(_) => {}
        }
    }
    wrong
}

/// The tables and columns the binary's SQLite migrations in `versions`
/// make, read from a database in memory they are run on. Both backends'
/// migrations make the same tables and columns (the same queries run on
/// either), so this is what a Postgres database should hold too.
pub(crate) async fn expected_columns(versions: &[i64]) -> std::result::Result<Columns, String> {
    // Run on a thread of its own: sqlx's futures over a connection borrowed
    // in a loop are not `Send`, and this is done once or twice a process.
    let versions = versions.to_vec();
    tokio::task::spawn_blocking(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("a runtime for the schema in memory: {e}"))?
            .block_on(schema_in_memory(&versions))
    })
    .await
    .map_err(|e| format!("the schema in memory: {e}"))?
}

async fn schema_in_memory(versions: &[i64]) -> std::result::Result<Columns, String> {
    let mut c = sqlx::SqliteConnection::connect("sqlite::memory:")
        .await
        .map_err(|e| format!("a database in memory: {e}"))?;
    for m in SQLITE_MIGRATIONS.iter() {
        if versions.contains(&m.version) {
            sqlx::raw_sql(&m.sql)
                .execute(&mut c)
                .await
                .map_err(|e| format!("migration {} in memory: {e}", m.version))?;
        }
    }
    let columns = sqlite_columns(&mut c)
        .await
        .map_err(|e| format!("reading a schema: {e}"))?;
    let _ = c.close().await;
    Ok(columns)
}

/// The tables and columns of a SQLite database, one query.
pub(crate) async fn sqlite_columns(
    c: &mut sqlx::SqliteConnection,
) -> std::result::Result<Columns, sqlx::Error> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'",
    )
    .fetch_all(c)
    .await?;
    Ok(rows.into_iter().collect())
}

/// The tables and columns of `expected` that `present` lacks, in words.
pub(crate) fn missing(expected: &Columns, present: &Columns) -> Vec<String> {
    let tables: BTreeSet<&str> = present.iter().map(|(t, _)| t.as_str()).collect();
    let mut wrong = Vec::new();
    let mut tables_said = BTreeSet::new();
    for (table, column) in expected.difference(present) {
        if !tables.contains(table.as_str()) {
            if tables_said.insert(table) {
                wrong.push(format!("table {table} is missing"));
            }
        } else {
            wrong.push(format!("column {table}.{column} is missing"));
        }
    }
    wrong
}

/// The columns this binary's whole schema has; worked out once.
async fn expected_now() -> std::result::Result<&'static Columns, String> {
    static EXPECTED: tokio::sync::OnceCell<Columns> = tokio::sync::OnceCell::const_new();
    EXPECTED
        .get_or_try_init(|| async {
            let all: Vec<i64> = SQLITE_MIGRATIONS.iter().map(|m| m.version).collect();
            expected_columns(&all).await
        })
        .await
}

impl Db {
    /// A few queries: an error if the database does not answer.
    pub async fn health(&self) -> Result<Health> {
        let applied: Vec<Applied> = sql::query_as(
            "SELECT version, success, checksum FROM _sqlx_migrations ORDER BY version",
        )
        .fetch_all(self)
        .await?;
        let migrator = match self {
            Db::Sqlite(_) => &SQLITE_MIGRATIONS,
            Db::Postgres(_) => &POSTGRES_MIGRATIONS,
        };
        let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
        let mut wrong = migration_faults(migrator, &applied);
        let present: Columns = match self {
            Db::Sqlite(s) => {
                let mut c = s.read.acquire().await?;
                sqlite_columns(&mut c).await?
            }
            Db::Postgres(p) => {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
                     FROM information_schema.columns WHERE table_schema = current_schema()",
                )
                .fetch_all(p)
                .await?;
                rows.into_iter().collect()
            }
        };
        match expected_now().await {
            Ok(expected) => wrong.extend(missing(expected, &present)),
            Err(e) => wrong.push(e),
        }
        Ok(Health {
            applied: applied
                .iter()
                .filter(|a| a.success)
                .map(|a| a.version)
                .max()
                .unwrap_or(0),
            known,
            wrong,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(pairs: &[(&str, &str)]) -> Columns {
        pairs
            .iter()
            .map(|(t, c)| ((*t).to_owned(), (*c).to_owned()))
            .collect()
    }

    #[test]
    fn a_missing_table_is_said_once_and_a_missing_column_by_name() {
        let expected = cols(&[("mail", "id"), ("mail", "to_address"), ("users", "email")]);
        let present = cols(&[("users", "id")]);
        assert_eq!(
            missing(&expected, &present),
            ["table mail is missing", "column users.email is missing"]
        );
        assert!(missing(&expected, &expected).is_empty());
    }

    #[tokio::test]
    async fn the_whole_schema_has_the_mail_table() {
        let all = expected_now().await.unwrap();
        assert!(all.contains(&("mail".to_owned(), "to_address".to_owned())));
        assert!(!all.iter().any(|(t, _)| t == "_sqlx_migrations"));
    }
}
