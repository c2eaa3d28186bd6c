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
    /// The page's path, so the header does not link to the console or the
    /// administration from inside it (its crumbs do).
    pub here: String,
}

impl Ctx {
    /// Whether the user is a secretary of the league `short_name`.
    pub fn secretary_of(&self, short_name: &str) -> bool {
        self.consoles.iter().any(|c| c.short_name == short_name)
    }

    /// Whether the header links to the console `c`: not from its own pages.
    pub fn links_console(&self, c: &ConsoleLink) -> bool {
        let console = crate::web::links::at_short(&c.short_name)
            .console()
            .to_string();
        !under(&self.here, &console)
    }

    /// Whether the header links to the administration: for an
    /// administrator, not from its own pages.
    pub fn links_admin(&self) -> bool {
        self.is_admin && !under(&self.here, "/admin")
    }
}

/// `path` is `root` or a page under it.
fn under(path: &str, root: &str) -> bool {
    path.strip_prefix(root)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_links_a_console_or_the_administration_once() {
        let ctx = |here: &str| Ctx {
            user: Some("sec".into()),
            is_admin: true,
            consoles: vec![ConsoleLink {
                short_name: "wessex".into(),
                name: "Wessex".into(),
            }],
            here: here.into(),
            ..Ctx::default()
        };
        let wessex = &ctx("/").consoles[0];
        assert!(ctx("/leagues/wessex").links_console(wessex));
        assert!(ctx("/leagues/wessex/consoles").links_console(wessex));
        assert!(!ctx("/leagues/wessex/console").links_console(wessex));
        assert!(!ctx("/leagues/wessex/console/approvals").links_console(wessex));
        assert!(ctx("/leagues/wessex").links_admin());
        assert!(!ctx("/admin").links_admin());
        assert!(!ctx("/admin/mail").links_admin());
        assert!(ctx("/administration").links_admin());
        assert!(
            !Ctx {
                is_admin: false,
                ..ctx("/")
            }
            .links_admin()
        );
    }
}
