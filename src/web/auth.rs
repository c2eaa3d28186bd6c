//! Who is signed in and what they may do: password hashing, the client's
//! address, and typed extractors so a handler cannot forget a check.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts, Path};
use axum::http::request::Parts;
use tower_sessions::Session;

use crate::db::{Db, League, Result as DbResult, Role, RoleKind, UserId};

use super::AppState;
use super::csrf::{self, session_error};
use super::error::AppError;
use super::page::{ConsoleLink, Ctx};
use super::passwords;

/// The session key holding the signed-in user's id.
pub const USER_KEY: &str = "user_id";
/// The session key holding [`password_mark`] of the account's password as
/// it was when the session signed in: once the password is reset or
/// changed, every session signed in before no longer matches and is ended
/// (as Django's session auth hash does), whichever app server it is on.
pub const PASSWORD_KEY: &str = "password_mark";

/// A short fingerprint of a password hash, kept in the session: it says
/// whether the password changed, and nothing usable about the password.
pub fn password_mark(password_hash: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(password_hash.as_bytes())[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Hashes a password off the async threads: it takes tens of milliseconds
/// by design.
pub async fn hash_password(password: String) -> Result<String, AppError> {
    tokio::task::spawn_blocking(move || passwords::hash(password.as_bytes()))
        .await
        .map_err(|e| AppError::Internal(format!("hashing task: {e}")))?
        .map_err(|e| AppError::Internal(format!("hashing a password: {e}")))
}

/// Whether `password` matches `hash`, checked off the async threads.
pub async fn verify_password(password: String, hash: String) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || passwords::verify(password.as_bytes(), &hash))
        .await
        .map_err(|e| AppError::Internal(format!("verifying task: {e}")))
}

/// A hash of a random password, checked when the username is unknown.
pub fn decoy_hash() -> String {
    passwords::hash(csrf::random_token().as_bytes()).unwrap_or_default()
}

#[cfg(test)]
mod client_addr_tests {
    use axum::http::Request;

    use super::*;

    async fn addr(proxy: bool, forwarded: &[&str]) -> String {
        let mut req = Request::get("/sign-in");
        for f in forwarded {
            req = req.header("x-forwarded-for", *f);
        }
        let (mut parts, ()) = req.body(()).unwrap().into_parts();
        parts
            .extensions
            .insert(ConnectInfo(SocketAddr::from(([10, 0, 0, 1], 5000))));
        if proxy {
            parts.extensions.insert(BehindProxy);
        }
        let Ok(ClientAddr(a)) = ClientAddr::from_request_parts(&mut parts, &()).await;
        a
    }

    #[tokio::test]
    async fn the_address_is_the_proxys_last_entry_only_behind_a_proxy() {
        // Directly reached: a forged header changes nothing.
        assert_eq!(addr(false, &["203.0.113.9"]).await, "10.0.0.1");
        // Behind a proxy: the entry it appended, not the client's own.
        assert_eq!(
            addr(true, &["198.51.100.1, 203.0.113.9"]).await,
            "203.0.113.9"
        );
        assert_eq!(
            addr(true, &["198.51.100.1", "203.0.113.7"]).await,
            "203.0.113.7"
        );
        // No usable header: the peer.
        assert_eq!(addr(true, &[]).await, "10.0.0.1");
        assert_eq!(addr(true, &["not an address"]).await, "10.0.0.1");
    }
}

/// Put in the requests' extensions when the app runs behind a proxy that
/// appends the client's address to `X-Forwarded-For`.
#[derive(Debug, Clone, Copy)]
pub struct BehindProxy;

/// The client's address, for the throttle: the socket's peer, or behind a
/// proxy the last `X-Forwarded-For` entry (the one the proxy added; earlier
/// ones are the client's to forge); "local" when the request did not come
/// over a socket (tests).
pub struct ClientAddr(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let forwarded = parts
            .extensions
            .get::<BehindProxy>()
            .and_then(|_| parts.headers.get_all("x-forwarded-for").iter().next_back())
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|ip| ip.trim().parse::<IpAddr>().ok());
        let peer = || {
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip())
        };
        Ok(ClientAddr(
            forwarded
                .or_else(peer)
                .map_or_else(|| "local".to_owned(), |ip| ip.to_string()),
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
    /// The leagues this user is secretary of.
    pub consoles: Vec<ConsoleLink>,
    /// What the last form this user sent saved.
    pub flash: Option<String>,
    /// The path of the page asked for (see `Ctx::here`).
    pub here: String,
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
            consoles: self.consoles.clone(),
            flash: self.flash.clone(),
            here: self.here.clone(),
        }
    }
}

/// The leagues whose console these roles open: a query only for a
/// secretary.
pub(crate) async fn consoles(db: &Db, roles: &[Role]) -> DbResult<Vec<ConsoleLink>> {
    let ids: Vec<_> = roles
        .iter()
        .filter(|r| r.kind == RoleKind::Secretary)
        .filter_map(|r| r.league_id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(db
        .leagues()
        .await?
        .into_iter()
        .filter(|l| ids.contains(&l.id))
        .map(|l| ConsoleLink {
            short_name: l.short_name,
            name: l.name,
        })
        .collect())
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
        MaybeUser::of_session(&state, &session, parts.uri.path(), true).await
    }
}

impl MaybeUser {
    /// Who the session is signed in as, if anyone; with the message the
    /// last form saved, taken so it shows once, when `take_flash`; `here`
    /// is the page's path (the header leaves out a link to where it is).
    pub async fn of_session(
        state: &AppState,
        session: &Session,
        here: &str,
        take_flash: bool,
    ) -> Result<MaybeUser, AppError> {
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
        // Signed in before the password was reset or changed: ended.
        let mark = session
            .get::<String>(PASSWORD_KEY)
            .await
            .map_err(session_error)?;
        if mark.as_deref() != Some(password_mark(&user.password_hash).as_str()) {
            session.flush().await.map_err(session_error)?;
            return Ok(MaybeUser(None));
        }
        let roles = state.db().user_roles(id).await?;
        let consoles = consoles(state.db(), &roles).await?;
        Ok(MaybeUser(Some(CurrentUser {
            id,
            username: user.username,
            roles,
            csrf: csrf::token(session).await?,
            consoles,
            flash: if take_flash {
                super::flash::take(session).await
            } else {
                None
            },
            here: here.to_owned(),
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
    league_named(state.db(), short).await
}

/// The league named by the address's `{league}`, for pages anyone may
/// read: the one extractor the public pages find their league with.
pub struct InLeague(pub League);

impl FromRequestParts<AppState> for InLeague {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        league_from_path(parts, state).await.map(InLeague)
    }
}

/// The league whose short name is `short`, or the 404 page that names it:
/// the one way every page finds the league its address names.
pub async fn league_named(db: &crate::db::Db, short: &str) -> Result<League, AppError> {
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
    match db.league_by_short_name(short).await {
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
