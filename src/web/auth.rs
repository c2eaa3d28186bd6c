//! Who is signed in and what they may do: password hashing, the sign-in
//! throttle, and typed extractors so a handler cannot forget a check.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::{ConnectInfo, FromRef, FromRequestParts, Path};
use axum::http::request::Parts;
use tower_sessions::Session;

use crate::db::{League, Role, RoleKind, UserId};

use super::AppState;
use super::csrf::{self, session_error};
use super::error::AppError;
use super::page::Ctx;

/// The session key holding the signed-in user's id.
pub const USER_KEY: &str = "user_id";

/// Argon2id at OWASP's recommended parameters: 19 MiB, 2 passes, 1 lane.
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("fixed, valid parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password off the async threads: it takes tens of milliseconds
/// by design.
pub async fn hash_password(password: String) -> Result<String, AppError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        hasher()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AppError::Internal(format!("hashing a password: {e}")))
    })
    .await
    .map_err(|e| AppError::Internal(format!("hashing task: {e}")))?
}

/// Whether `password` matches `hash`, checked off the async threads.
pub async fn verify_password(password: String, hash: String) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .and_then(|h| hasher().verify_password(password.as_bytes(), &h))
            .is_ok()
    })
    .await
    .map_err(|e| AppError::Internal(format!("verifying task: {e}")))
}

/// A hash of a random password, checked when the username is unknown.
pub fn decoy_hash() -> String {
    let salt = SaltString::generate(&mut OsRng);
    hasher()
        .hash_password(csrf::random_token().as_bytes(), &salt)
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// Failed sign-ins allowed per account, and per address, in one window.
const ACCOUNT_FAILURES: u32 = 5;
const ADDRESS_FAILURES: u32 = 20;
const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Counts failed sign-ins per account and per address. Kept in memory: each
/// app server throttles what it sees.
#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, (u32, Instant)>>,
}

impl Throttle {
    /// `Some(wait)` when either key has failed too often lately.
    pub fn blocked(&self, account: &str, address: &str) -> Option<Duration> {
        let map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        [
            (account_key(account), ACCOUNT_FAILURES),
            (address_key(address), ADDRESS_FAILURES),
        ]
        .into_iter()
        .filter_map(|(key, limit)| {
            let &(count, since) = map.get(&key)?;
            let left = WINDOW.checked_sub(now.duration_since(since))?;
            (count >= limit).then_some(left)
        })
        .max()
    }

    pub fn failed(&self, account: &str, address: &str) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        map.retain(|_, (_, since)| now.duration_since(*since) < WINDOW);
        for key in [account_key(account), address_key(address)] {
            map.entry(key).or_insert((0, now)).0 += 1;
        }
    }

    pub fn succeeded(&self, account: &str) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&account_key(account));
    }
}

fn account_key(account: &str) -> String {
    format!("account:{}", account.trim().to_lowercase())
}

fn address_key(address: &str) -> String {
    format!("address:{address}")
}

/// The client's address, for the throttle; "local" when the request did not
/// come over a socket (tests).
pub struct ClientAddr(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or_else(|| "local".to_owned(), |c| c.0.ip().to_string()),
        ))
    }
}

/// A signed-in user, with their roles and the session's form token.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub id: UserId,
    pub username: String,
    pub roles: Vec<Role>,
    pub csrf: String,
}

impl CurrentUser {
    pub fn is_admin(&self) -> bool {
        self.roles.iter().any(|r| r.kind == RoleKind::Administrator)
    }

    pub fn is_secretary_of(&self, league: &League) -> bool {
        self.roles
            .iter()
            .any(|r| r.kind == RoleKind::Secretary && r.league_id == Some(league.id))
    }

    /// The frame of a page for this user.
    pub fn ctx(&self) -> Ctx {
        Ctx {
            user: Some(self.username.clone()),
            csrf: self.csrf.clone(),
            is_admin: self.is_admin(),
        }
    }
}

/// Someone who may or may not be signed in.
pub struct MaybeUser(pub Option<CurrentUser>);

impl MaybeUser {
    pub fn ctx(&self) -> Ctx {
        self.0.as_ref().map(CurrentUser::ctx).unwrap_or_default()
    }
}

impl<S> FromRequestParts<S> for MaybeUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let state = AppState::from_ref(state);
        let session = Session::from_request_parts(parts, &state)
            .await
            .map_err(|_| AppError::Internal("no session layer".into()))?;
        let Some(id) = session
            .get::<UserId>(USER_KEY)
            .await
            .map_err(session_error)?
        else {
            return Ok(MaybeUser(None));
        };
        let user = match state.db().user(id).await {
            Ok(user) => user,
            // The account is gone: the session means nothing now.
            Err(crate::db::DbError::NotFound(_)) => {
                session.flush().await.map_err(session_error)?;
                return Ok(MaybeUser(None));
            }
            Err(e) => return Err(e.into()),
        };
        let roles = state.db().user_roles(id).await?;
        Ok(MaybeUser(Some(CurrentUser {
            id,
            username: user.username,
            roles,
            csrf: csrf::token(&session).await?,
        })))
    }
}

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let path = parts.uri.path().to_owned();
        MaybeUser::from_request_parts(parts, state)
            .await?
            .0
            .ok_or(AppError::SignInRequired(path))
    }
}

/// The installation's administrator.
pub struct Admin(pub CurrentUser);

impl<S> FromRequestParts<S> for Admin
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        if user.is_admin() {
            Ok(Admin(user))
        } else {
            Err(AppError::Forbidden(
                "Only the installation's administrator may do this.".into(),
            ))
        }
    }
}

/// The league named by the address's `{league}`.
pub async fn league_from_path(parts: &mut Parts, state: &AppState) -> Result<League, AppError> {
    let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
        .await
        .map_err(|_| AppError::NotFound("That league".into()))?;
    let short = params
        .get("league")
        .ok_or_else(|| AppError::Internal("route without {league}".into()))?;
    // Short names are lowercase letters, digits and dashes: anything else
    // (a NUL byte Postgres would refuse, say) names no league.
    if short.is_empty()
        || short.len() > 64
        || !short
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(AppError::NotFound(format!("The league `{short}`")));
    }
    match state.db().league_by_short_name(short).await {
        Ok(league) => Ok(league),
        Err(crate::db::DbError::NotFound(_)) => {
            Err(AppError::NotFound(format!("The league `{short}`")))
        }
        Err(e) => Err(e.into()),
    }
}

/// A secretary of the league in the address: everything inside that
/// league, nothing of others.
pub struct Secretary {
    pub user: CurrentUser,
    pub league: League,
}

impl<S> FromRequestParts<S> for Secretary
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        let league = league_from_path(parts, &AppState::from_ref(state)).await?;
        if user.is_secretary_of(&league) {
            Ok(Secretary { user, league })
        } else {
            Err(AppError::Forbidden(format!(
                "Only a secretary of {} may do this.",
                league.name
            )))
        }
    }
}
