//! CSRF protection: a random token kept in the session and carried by every
//! form that changes anything; [`CsrfForm`] refuses a form without it.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use std::pin::Pin;

use axum::body::{Bytes, HttpBody};
use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, FromRequestParts, Multipart, Request};
use axum::http::{StatusCode, header};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tower_sessions::Session;

use super::error::AppError;

pub(crate) const KEY: &str = "csrf";

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

/// The frame of a page for someone not signed in: just the form token.
pub async fn guest_ctx(session: &Session) -> Result<crate::web::page::Ctx, AppError> {
    Ok(crate::web::page::Ctx {
        csrf: token(session).await?,
        ..crate::web::page::Ctx::default()
    })
}

/// A form whose `csrf` field matches the session's token: url-encoded, or
/// multipart when it carries a file (each field, files too, read as text).
pub struct CsrfForm<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for CsrfForm<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let (mut parts, body) = req.into_parts();
        let session = Session::from_request_parts(&mut parts, state)
            .await
            .map_err(|_| AppError::Internal("no session layer".into()))?;
        let multipart = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("multipart/form-data"));
        let req = Request::from_parts(parts, body);
        let bytes = if multipart {
            multipart_as_urlencoded(req, state).await?
        } else {
            read_form(req).await?
        };
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

/// Largest url-encoded form taken: a whole match card typed by hand is a
/// few tens of kilobytes. A file (multipart) may be larger, up to the
/// app's body limit.
pub const FORM_LIMIT: usize = 256 * 1024;

fn form_too_large() -> AppError {
    AppError::TooLarge(format!(
        "This form is larger than {} KB, far more than any real card or form needs, so it was not read. Nothing was saved.",
        FORM_LIMIT / 1024
    ))
}

/// A url-encoded form's body, refused past [`FORM_LIMIT`] before more of
/// it is read.
async fn read_form(req: Request) -> Result<Bytes, AppError> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > FORM_LIMIT as u64) {
        return Err(form_too_large());
    }
    let mut body = req.into_body();
    let mut bytes = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame =
            frame.map_err(|e| AppError::BadRequest(format!("the form could not be read: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > FORM_LIMIT {
                return Err(form_too_large());
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(Bytes::from(bytes))
}

/// A multipart form's fields as the url-encoded form of the same fields,
/// so one reader serves both. A file must be UTF-8 text.
async fn multipart_as_urlencoded<S: Send + Sync>(
    req: Request,
    state: &S,
) -> Result<Bytes, AppError> {
    let unreadable = |e: &dyn std::fmt::Display| {
        AppError::BadRequest(format!("the form could not be read: {e}"))
    };
    // Past the app's body limit a file is refused as too large, not as
    // unreadable.
    let failed = |e: MultipartError| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::TooLarge(
                "This file is larger than any real match's records, so it was not read. Nothing was saved."
                    .into(),
            )
        } else {
            unreadable(&e)
        }
    };
    let mut form = Multipart::from_request(req, state)
        .await
        .map_err(|e| unreadable(&e))?;
    let mut pairs = Vec::new();
    while let Some(field) = form.next_field().await.map_err(failed)? {
        let name = field.name().unwrap_or_default().to_owned();
        let file = field.file_name().map(str::to_owned);
        let data = field.bytes().await.map_err(failed)?;
        let text = String::from_utf8(data.to_vec()).map_err(|_| {
            AppError::BadRequest(format!(
                "`{}` is not a text file",
                file.unwrap_or_else(|| name.clone())
            ))
        })?;
        pairs.push((name, text));
    }
    serde_urlencoded::to_string(&pairs)
        .map(Bytes::from)
        .map_err(|e| unreadable(&e))
}

/// Compares without stopping at the first difference, so the time taken
/// says nothing about how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
