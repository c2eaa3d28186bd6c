//! Sessions kept in the same database as the league, so several app servers
//! sharing one Postgres share sign-ins too. The tables and their SQL are
//! tower-sessions-sqlx-store's; this picks the store for the backend. Every
//! change to a session raises the sessions' generation
//! (`generation::SESSIONS`), so a server that keeps sessions it read
//! (`web::viewer`) knows when any may have changed, whichever server
//! changed it.

use async_trait::async_trait;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, ExpiredDeletion, SessionStore};
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

use super::{Db, Result};

/// The session store over whichever database the league is on.
#[derive(Debug, Clone)]
pub enum Sessions {
    Sqlite(SqliteStore, sqlx::SqlitePool),
    Postgres(PostgresStore, sqlx::PgPool),
}

impl Sessions {
    /// Raises the sessions' generation, after a change to one.
    async fn changed(&self) -> session_store::Result<()> {
        let raise = super::generation::RAISE;
        let scope = super::generation::SESSIONS;
        let done = match self {
            Sessions::Sqlite(_, pool) => {
                sqlx::query(raise).bind(scope).execute(pool).await.map(drop)
            }
            Sessions::Postgres(_, pool) => {
                sqlx::query(raise).bind(scope).execute(pool).await.map(drop)
            }
        };
        done.map_err(|e| session_store::Error::Backend(e.to_string()))
    }
}

impl Db {
    /// The session store, with its table created if missing.
    pub async fn sessions(&self) -> Result<Sessions> {
        Ok(match self {
            // Session writes go through the one writer connection like every
            // other write, so they never meet "database is locked".
            Db::Sqlite(s) => {
                let store = SqliteStore::new(s.write.clone());
                store.migrate().await?;
                Sessions::Sqlite(store, s.write.clone())
            }
            Db::Postgres(p) => {
                let store = PostgresStore::new(p.clone());
                store.migrate().await?;
                Sessions::Postgres(store, p.clone())
            }
        })
    }
}

#[async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s, _) => s.create(record).await,
            Sessions::Postgres(s, _) => s.create(record).await,
        }?;
        self.changed().await
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s, _) => s.save(record).await,
            Sessions::Postgres(s, _) => s.save(record).await,
        }?;
        self.changed().await
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s, _) => s.load(id).await,
            Sessions::Postgres(s, _) => s.load(id).await,
        }
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s, _) => s.delete(id).await,
            Sessions::Postgres(s, _) => s.delete(id).await,
        }?;
        self.changed().await
    }
}

#[async_trait]
impl ExpiredDeletion for Sessions {
    async fn delete_expired(&self) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s, _) => s.delete_expired().await,
            Sessions::Postgres(s, _) => s.delete_expired().await,
        }
    }
}
