//! "Saved" messages. A handler that saves answers with [`saved`]: a
//! redirect carrying what it saved. [`keep`] puts the message in the
//! session, and the next page a signed-in user sees shows it once in its
//! frame, so every save says what it did without a query string anyone
//! could forge.

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use tower_sessions::Session;

pub(crate) const KEY: &str = "flash";

/// What a response saved, for the next page to say.
#[derive(Debug, Clone)]
struct Flash(String);

/// Redirects to `to`, whose page then says `message`.
pub fn saved(to: &str, message: impl Into<String>) -> Response {
    let mut response = Redirect::to(to).into_response();
    response.extensions_mut().insert(Flash(message.into()));
    response
}

/// Middleware: keeps a response's message in its session.
pub async fn keep(session: Session, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if let Some(Flash(message)) = response.extensions_mut().remove::<Flash>() {
        if let Err(e) = session.insert(KEY, message).await {
            tracing::warn!(error = %e, "cannot keep a saved message");
        }
        // A page saying what one user saved is nobody else's.
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The message waiting for this session, taken so it shows once.
pub async fn take(session: &Session) -> Option<String> {
    match session.remove::<String>(KEY).await {
        Ok(message) => message,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read a saved message");
            None
        }
    }
}
