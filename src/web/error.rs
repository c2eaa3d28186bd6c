//! The one error type of the web layer. Users see a page that says what went
//! wrong in their terms; internals are logged once, never shown.

use askama::Template;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};

use crate::db::DbError;
use crate::league::workflow::Refusal;

use super::page::{Ctx, html};

pub type Result<T, E = AppError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0} was not found")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    /// Sign in first, then come back to this path.
    #[error("sign in to see this page")]
    SignInRequired(String),
    #[error("{0}")]
    BadRequest(String),
    /// A request body over the limit for its kind (a form, a file).
    #[error("{0}")]
    TooLarge(String),
    #[error(
        "this form has expired or did not come from this site; go back, reload the page and send it again"
    )]
    Csrf,
    #[error(transparent)]
    Db(#[from] DbError),
    /// A season record that cannot be read: every page that needs it says
    /// so, naming the season and the part.
    #[error(transparent)]
    BadSeason(#[from] crate::league::season::BadSeason),
    #[error("{0}")]
    Internal(String),
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    ctx: Ctx,
    title: &'static str,
    message: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, title) = match &self {
            AppError::SignInRequired(next) => {
                let to = format!("/sign-in?next={}", urlencode(next));
                return Redirect::to(&to).into_response();
            }
            AppError::NotFound(_) | AppError::Db(DbError::NotFound(_)) => {
                (StatusCode::NOT_FOUND, "Not found")
            }
            AppError::Forbidden(_) => (StatusCode::FORBIDDEN, "Not allowed"),
            AppError::BadRequest(_)
            | AppError::Db(DbError::Unique(_) | DbError::ForeignKey(_) | DbError::Invalid(_)) => {
                (StatusCode::BAD_REQUEST, "That did not work")
            }
            AppError::Db(DbError::Conflict(_)) => (StatusCode::CONFLICT, "That did not work"),
            AppError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "Too large"),
            AppError::Db(DbError::Refused(r)) => match r {
                Refusal::Stale { .. } | Refusal::PadsChanged { .. } | Refusal::Changed { .. } => {
                    (StatusCode::CONFLICT, "Not saved")
                }
                Refusal::NotYours(_) | Refusal::Locked { .. } => {
                    (StatusCode::FORBIDDEN, "Not allowed")
                }
                Refusal::NoResult
                | Refusal::NotNow(_)
                | Refusal::TooEarly { .. }
                | Refusal::NoNote => (StatusCode::BAD_REQUEST, "That did not work"),
            },
            AppError::Csrf => (StatusCode::FORBIDDEN, "Form expired"),
            AppError::BadSeason(why) => {
                tracing::error!(error = %why, "a season record cannot be read");
                let page = ErrorPage {
                    ctx: Ctx::default(),
                    title: "A season cannot be read",
                    message: format!("{why}."),
                };
                return (StatusCode::INTERNAL_SERVER_ERROR, html(&page)).into_response();
            }
            AppError::Db(_) | AppError::Internal(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong")
            }
        };
        let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %self, "request failed");
            "Something went wrong on our side; it has been logged. Try again in a moment.".into()
        } else {
            self.to_string()
        };
        let page = ErrorPage {
            ctx: Ctx::default(),
            title,
            message,
        };
        (status, html(&page)).into_response()
    }
}

/// The 404 page for any address we do not know.
pub async fn not_found(uri: Uri) -> AppError {
    AppError::NotFound(format!("The page {}", uri.path()))
}

/// Percent-encodes a path for a query parameter.
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
