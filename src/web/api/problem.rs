//! The API's errors as RFC 9457 problem details
//! (`application/problem+json`): a client reads `status`, `title` and
//! `detail` in the same shape whatever went wrong, never an HTML page.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::DbError;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// A problem detail (RFC 9457).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem; `about:blank` when the status
    /// says all.
    #[serde(rename = "type")]
    pub kind: String,
    /// The status's reason phrase (`Not Found`).
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong in this request, in words.
    pub detail: String,
}

/// Why an API request was refused.
#[derive(Debug)]
pub enum ApiError {
    /// No such record, or an address the API does not have.
    NotFound(String),
    /// A parameter that cannot be read.
    BadRequest(String),
    /// Too many requests from this client: try again after this many
    /// seconds.
    TooMany(u64),
    /// Our fault: logged, and said without internals.
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        match e {
            DbError::NotFound(what) => ApiError::NotFound(format!("{what} is not there.")),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<crate::league::season::BadSeason> for ApiError {
    fn from(e: crate::league::season::BadSeason) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn problem(&self) -> Problem {
        let status = self.status();
        let detail = match self {
            ApiError::NotFound(d) | ApiError::BadRequest(d) => d.clone(),
            ApiError::TooMany(after) => format!(
                "Too many requests from this address: try again in {after} second{}.",
                if *after == 1 { "" } else { "s" }
            ),
            ApiError::Internal(_) => {
                "Something went wrong on our side; it has been logged.".to_owned()
            }
        };
        Problem {
            kind: "about:blank".to_owned(),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(e) = &self {
            tracing::error!(error = %e, "an API request failed");
        }
        let problem = self.problem();
        let body = serde_json::to_string(&problem).unwrap_or_default();
        let mut response = (self.status(), body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let ApiError::TooMany(after) = self
            && let Ok(value) = HeaderValue::from_str(&after.to_string())
        {
            headers.insert(header::RETRY_AFTER, value);
        }
        response
    }
}
