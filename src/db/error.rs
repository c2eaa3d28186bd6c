//! What can go wrong with the records, told apart and typed, so that the
//! web layer can answer each in its own words: a duplicate name or a
//! missing record as a form error, a rule's refusal as the page again
//! saying why, anything else as a logged 500. Nothing here is a sentence
//! for a page: the database's own text is kept for the log only.

use crate::league::refusal::Refusal;

/// An error of the database layer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// No such record in this league.
    #[error("not found: {0}")]
    NotFound(String),
    /// A unique constraint refused the write: the name, number or role is
    /// already taken.
    #[error("a unique constraint refused the write: {0}")]
    Unique(Constraint),
    /// A foreign key refused the write: it refers to a record that does not
    /// exist in this league.
    #[error("a foreign key refused the write: {0}")]
    ForeignKey(Constraint),
    /// A check constraint refused a value the layers above let through.
    #[error("a check constraint refused the write: {0}")]
    Check(Constraint),
    /// The league's rules refuse the operation from the records' present
    /// state (see `league::refusal`).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The database address could not be used.
    #[error("database address: {0}")]
    Address(String),
    /// A copy of the database could not be taken or put in place.
    #[error("backup: {0}")]
    Backup(String),
    /// A season whose stored rules cannot be read.
    #[error(transparent)]
    BadSeason(#[from] crate::league::season::BadSeason),
    /// A stored value could not be read back (bad JSON, unknown status).
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
    #[error("migrating the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database: {0}")]
    Other(sqlx::Error),
}

/// The constraint that refused a write: the table it guards, where the
/// database says, and the database's own words for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// `teams`, `players`, ... (SQLite names it for unique constraints,
    /// Postgres for every kind).
    pub table: Option<String>,
    /// The database's message, for the log; never shown on a page.
    pub detail: String,
}

impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl Constraint {
    fn of(d: &dyn sqlx::error::DatabaseError) -> Constraint {
        let detail = d.message().to_owned();
        let table = match d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
            Some(pg) => pg.table().map(str::to_owned),
            // SQLite: "UNIQUE constraint failed: teams.league_id, teams.name".
            None => detail
                .split_once(": ")
                .and_then(|(_, columns)| columns.split_once('.'))
                .map(|(table, _)| table.trim().to_owned()),
        };
        Constraint { table, detail }
    }
}

pub type Result<T, E = DbError> = std::result::Result<T, E>;

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> DbError {
        match e {
            sqlx::Error::RowNotFound => DbError::NotFound("no such record".into()),
            sqlx::Error::Database(d) => {
                if d.is_unique_violation() {
                    DbError::Unique(Constraint::of(d.as_ref()))
                } else if d.is_foreign_key_violation() {
                    DbError::ForeignKey(Constraint::of(d.as_ref()))
                } else if d.is_check_violation() {
                    DbError::Check(Constraint::of(d.as_ref()))
                } else if d.code().as_deref() == Some("22021") {
                    // Postgres refuses text holding a NUL byte; SQLite stores
                    // it. Either way it is bad input, not a server fault.
                    DbError::Check(Constraint {
                        table: None,
                        detail: "text holding a NUL character".into(),
                    })
                } else {
                    DbError::Other(sqlx::Error::Database(d))
                }
            }
            other => DbError::Other(other),
        }
    }
}

impl From<crate::domain::UnknownText> for DbError {
    fn from(e: crate::domain::UnknownText) -> DbError {
        DbError::Corrupt(e.to_string())
    }
}

impl DbError {
    pub(crate) fn not_found(what: impl std::fmt::Display) -> DbError {
        DbError::NotFound(what.to_string())
    }
}
