//! Turning templates into responses, and what every page's frame needs.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

/// What the frame of every page shows: who is signed in, and the token
/// their sign-out form carries.
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    pub user: Option<String>,
    pub csrf: String,
    pub is_admin: bool,
    /// The leagues whose console the user may open (secretaries).
    pub consoles: Vec<ConsoleLink>,
    /// What the last form saved, shown once.
    pub flash: Option<String>,
}

impl Ctx {
    /// Whether the user is a secretary of the league `short_name`.
    pub fn secretary_of(&self, short_name: &str) -> bool {
        self.consoles.iter().any(|c| c.short_name == short_name)
    }
}

/// A league the user is secretary of, for the header's console link.
#[derive(Debug, Clone)]
pub struct ConsoleLink {
    pub short_name: String,
    pub name: String,
}

/// Renders a template; a template that fails to render is our bug, logged
/// and answered with a plain 500, never a panic.
pub fn html<T: Template>(page: &T) -> Response {
    match page.render() {
        Ok(body) => Html(body).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "template failed to render");
            (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong").into_response()
        }
    }
}

/// A form page shown again with what was typed and why it was refused.
pub fn invalid<T: Template>(page: &T) -> Response {
    (StatusCode::UNPROCESSABLE_ENTITY, html(page)).into_response()
}
