//! What can go wrong with the records, told apart so that the web layer can
//! answer a duplicate name or a missing record with a form error, not a 500.

/// An error of the database layer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// No such record in this league.
    #[error("not found: {0}")]
    NotFound(String),
    /// A unique constraint refused the write: the name, number or role is
    /// already taken.
    #[error("already exists: {0}")]
    Unique(String),
    /// A foreign key refused the write: it refers to a record that does not
    /// exist in this league.
    #[error("refers to a record that does not exist in this league: {0}")]
    ForeignKey(String),
    /// The input cannot be stored as it is (a check constraint, or a game
    /// record naming a player who is not on the board); the message says why.
    #[error("{0}")]
    Invalid(String),
    /// The write is not allowed in the record's present state (for example
    /// a season's ruleset once results exist).
    #[error("{0}")]
    Conflict(String),
    /// The league's rules refuse the operation from the record's present
    /// state (see `league::workflow`): a stale version, someone else's
    /// step, a result too early.
    #[error("{0}")]
    Refused(#[from] crate::league::workflow::Refusal),
    /// The database address could not be used.
    #[error("database address: {0}")]
    Address(String),
    /// A stored value could not be read back (bad JSON, unknown status).
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
    #[error("migrating the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database: {0}")]
    Other(sqlx::Error),
}

pub type Result<T, E = DbError> = std::result::Result<T, E>;

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> DbError {
        match e {
            sqlx::Error::RowNotFound => DbError::NotFound("no such record".into()),
            sqlx::Error::Database(d) => {
                let message = d.message().to_owned();
                if d.is_unique_violation() {
                    DbError::Unique(message)
                } else if d.is_foreign_key_violation() {
                    DbError::ForeignKey(message)
                } else if d.is_check_violation() {
                    DbError::Invalid(message)
                } else if d.code().as_deref() == Some("22021") {
                    // Postgres refuses text holding a NUL byte; SQLite stores
                    // it. Either way it is bad input, not a server fault.
                    DbError::Invalid("the text holds a character that cannot be stored".into())
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
