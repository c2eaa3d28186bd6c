//! Who a request's session is signed in as, read for the shared pages
//! (`web::cache`, `web::personal`) without the session layer: the session's
//! record from the same store, kept under the sessions' generation, which
//! every change to a session raises (`db::sessions`); and the account's
//! name, roles and consoles kept under the installation's generation, which
//! every write to an account or a role raises (`Db::write_everywhere`). Both
//! are read with the page's generation, in the one query the page cache
//! makes for many requests, so a change through any app server is seen by
//! the next request to every other.
//! Anything this fast path does not handle as the session layer would (a
//! saved message to show, a session without its form token, an ended
//! sign-in) goes the whole way through the app instead.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use tower_sessions::SessionStore;
use tower_sessions::session::{Id, Record};

use crate::db::sessions::Sessions;
use crate::db::{Db, DbError, Role, UserId};

use super::auth::{CurrentUser, PASSWORD_KEY, USER_KEY, consoles, password_mark};
use super::page::ConsoleLink;

/// Most accounts remembered; past it they are all let go.
const MOST_ACCOUNTS: usize = 10_000;
/// Most sessions remembered; past it they are all let go.
const MOST_SESSIONS: usize = 50_000;

/// The generations a session's reading follows.
#[derive(Debug, Clone, Copy)]
pub struct Generations {
    /// The installation's: accounts and roles.
    pub installation: i64,
    /// The sessions'.
    pub sessions: i64,
}

/// What a session cookie stands for.
pub enum Seen {
    /// No one signed in (a session holding only a form token): the
    /// visitor's page as it is.
    Visitor,
    /// A signed-in user, as the session layer would make them.
    User(CurrentUser),
    /// The request goes the whole way through the app.
    Full,
}

/// One app server's accounts seen lately. Cheap to clone.
#[derive(Clone)]
pub struct Viewers {
    store: Sessions,
    accounts: Arc<Mutex<Accounts>>,
    sessions: Arc<Mutex<Records>>,
}

/// Each session read, with the sessions' generation it was read under.
type Records = HashMap<Id, (i64, Arc<Record>)>;

/// Each account seen, with the installation's generation it was read under.
type Accounts = HashMap<UserId, (i64, Arc<Account>)>;

/// What the frame of a page needs of an account.
struct Account {
    username: String,
    mark: String,
    roles: Vec<Role>,
    consoles: Vec<ConsoleLink>,
}

impl Viewers {
    pub fn new(store: Sessions) -> Viewers {
        Viewers {
            store,
            accounts: Arc::default(),
            sessions: Arc::default(),
        }
    }

    /// Who the session `cookie` is signed in as, for the page at `here`,
    /// with the installation's and the sessions' generations now.
    pub async fn see(&self, db: &Db, cookie: &str, now: Generations, here: &str) -> Seen {
        let Ok(id) = Id::from_str(cookie) else {
            return Seen::Full;
        };
        let record = match self.record(id, now.sessions).await {
            Ok(Some(record)) => record,
            // Unknown or expired: the session layer takes the cookie away.
            Ok(None) => return Seen::Full,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a session");
                return Seen::Full;
            }
        };
        let installation = now.installation;
        let data = &record.data;
        if data.contains_key(super::flash::KEY) {
            return Seen::Full;
        }
        let Some(user) = data
            .get(USER_KEY)
            .and_then(|v| serde_json::from_value::<UserId>(v.clone()).ok())
        else {
            return Seen::Visitor;
        };
        let text = |key: &str| data.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        let (Some(csrf), Some(mark)) = (text(super::csrf::KEY), text(PASSWORD_KEY)) else {
            return Seen::Full;
        };
        let account = match self.account(db, user, installation).await {
            Ok(Some(account)) => account,
            Ok(None) => return Seen::Full,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read an account");
                return Seen::Full;
            }
        };
        // Signed in before the password changed: the session layer ends it.
        if account.mark != mark {
            return Seen::Full;
        }
        Seen::User(CurrentUser {
            id: user,
            username: account.username.clone(),
            roles: account.roles.clone(),
            csrf,
            consoles: account.consoles.clone(),
            flash: None,
            here: here.to_owned(),
        })
    }

    /// The session `id` as at the sessions' generation `generation`, unless
    /// it has expired.
    async fn record(
        &self,
        id: Id,
        generation: i64,
    ) -> tower_sessions::session_store::Result<Option<Arc<Record>>> {
        let kept = self
            .records()
            .get(&id)
            .filter(|(g, _)| *g == generation)
            .map(|(_, r)| r.clone());
        let record = match kept {
            Some(record) => record,
            None => {
                let Some(record) = self.store.load(&id).await? else {
                    return Ok(None);
                };
                let record = Arc::new(record);
                let mut records = self.records();
                if records.len() >= MOST_SESSIONS {
                    records.clear();
                }
                // Read after the generation was: kept under it, it is current.
                records.insert(id, (generation, record.clone()));
                record
            }
        };
        Ok(
            (record.expiry_date > tower_sessions::cookie::time::OffsetDateTime::now_utc())
                .then_some(record),
        )
    }

    fn records(&self) -> std::sync::MutexGuard<'_, Records> {
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The account `id` as at the installation's generation `installation`
    /// (None: there is no such account).
    async fn account(
        &self,
        db: &Db,
        id: UserId,
        installation: i64,
    ) -> crate::db::Result<Option<Arc<Account>>> {
        if let Some((generation, account)) = self.accounts().get(&id)
            && *generation == installation
        {
            return Ok(Some(account.clone()));
        }
        let user = match db.user(id).await {
            Ok(user) => user,
            Err(DbError::NotFound(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let roles = db.user_roles(id).await?;
        let account = Arc::new(Account {
            username: user.username,
            mark: password_mark(&user.password_hash),
            consoles: consoles(db, &roles).await?,
            roles,
        });
        let mut accounts = self.accounts();
        if accounts.len() >= MOST_ACCOUNTS {
            accounts.clear();
        }
        // Read after the generation was: kept under it, it is current.
        accounts.insert(id, (installation, account.clone()));
        Ok(Some(account))
    }

    fn accounts(&self) -> std::sync::MutexGuard<'_, Accounts> {
        self.accounts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
