//! CSRF protection: a random token kept in the session and carried by every
//! form that changes anything; [`CsrfForm`] refuses a form without it.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tower_sessions::Session;

use super::error::AppError;

const KEY: &str = "csrf";

/// The session's token, made on first use.
pub async fn token(session: &Session) -> Result<String, AppError> {
    if let Some(t) = session.get::<String>(KEY).await.map_err(session_error)? {
        return Ok(t);
    }
    let t = random_token();
    session.insert(KEY, &t).await.map_err(session_error)?;
    Ok(t)
}

/// A new token, after sign-in: one seen before it is worth nothing.
pub async fn renew(session: &Session) -> Result<String, AppError> {
    let t = random_token();
    session.insert(KEY, &t).await.map_err(session_error)?;
    Ok(t)
}

pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn session_error(e: tower_sessions::session::Error) -> AppError {
    AppError::Internal(format!("session: {e}"))
}

#[derive(Deserialize)]
struct Field {
    csrf: Option<String>,
}

/// A url-encoded form whose `csrf` field matches the session's token.
pub struct CsrfForm<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for CsrfForm<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let (mut parts, body) = req.into_parts();
        let session = Session::from_request_parts(&mut parts, state)
            .await
            .map_err(|_| AppError::Internal("no session layer".into()))?;
        let req = Request::from_parts(parts, body);
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| AppError::BadRequest(format!("the form could not be read: {e}")))?;
        let sent = serde_urlencoded::from_bytes::<Field>(&bytes)
            .ok()
            .and_then(|f| f.csrf)
            .unwrap_or_default();
        let expected = session.get::<String>(KEY).await.map_err(session_error)?;
        match expected {
            Some(e) if !sent.is_empty() && same(e.as_bytes(), sent.as_bytes()) => {}
            _ => return Err(AppError::Csrf),
        }
        serde_urlencoded::from_bytes::<T>(&bytes)
            .map(CsrfForm)
            .map_err(|e| AppError::BadRequest(format!("the form could not be read: {e}")))
    }
}

/// Compares without stopping at the first difference, so the time taken
/// says nothing about how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
