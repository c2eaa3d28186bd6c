//! Widgets for other websites (issue 41): a division's table, its latest
//! results and next fixtures, a team's next match and form, and the boards
//! in play, each made to sit in an `<iframe>` on a pub's or a league's own
//! site. They have no site header; `?theme=dark` and `?accent=RRGGBB` in
//! the address choose their look; their links open in the top window
//! (`<base target="_top">`); `static/embed.js` tells the host page their
//! height, which `static/embed-host.js` (the host copies a `<script>` tag
//! for it) gives the frame.
//!
//! Only these addresses may be framed by another site: [`framing`] gives
//! them `frame-ancestors *` and no `X-Frame-Options`, and every other page
//! keeps the app's `frame-ancestors 'none'` and `X-Frame-Options: DENY`.

mod division;
mod live;
mod look;
mod team;

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::get;

use crate::web::routes::{LEAGUE, Routes, paths};

pub use look::Look;

/// Where the widgets live, after a league's address.
const PREFIX: &str = "/embed";

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/divisions/{{division}}/table"),
            get(division::table),
        )
        .league(
            &format!("{PREFIX}/divisions/{{division}}/fixtures"),
            get(division::fixtures),
        )
        .league(&format!("{PREFIX}/teams/{{team}}"), get(team::page))
        .league(&format!("{PREFIX}/live"), get(live::page))
}

/// Whether `path` is a widget's address: it takes one of the table's
/// routes under a league's `/embed/` (read off the table, so an address no
/// widget's route takes is never framed). Matched here, not by
/// `routes::route_of`, which gives the first route that fits: a season's
/// division's, whose segments are all parameters.
pub fn is_embed(path: &str) -> bool {
    let under = format!("{LEAGUE}{PREFIX}/");
    let segments: Vec<&str> = path.split('/').collect();
    paths()
        .iter()
        .filter(|route| route.starts_with(&under))
        .any(|route| {
            let pattern: Vec<&str> = route.split('/').collect();
            pattern.len() == segments.len()
                && pattern.iter().zip(&segments).all(|(p, s)| {
                    if p.starts_with('{') {
                        !s.is_empty()
                    } else {
                        p == s
                    }
                })
        })
}

/// Who may frame a widget: any site. (A league that wants only its own
/// site can say so in its web server; the widgets show only public pages.)
const ANCESTORS: &str = "*";

/// The widgets' policy: the app's own, but framed by [`ANCESTORS`] and with
/// the look's one `<style>` element allowed by its hash (never
/// `'unsafe-inline'`).
pub fn csp(look: &Look) -> String {
    let style = look
        .style()
        .map(|css| format!(" 'sha256-{}'", look::hash(&css)))
        .unwrap_or_default();
    format!(
        "default-src 'self'; img-src 'self' data:; style-src 'self'{style}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {ANCESTORS}"
    )
}

/// Middleware, outside the app's security headers: a widget's response
/// (a kept page, a `304`, an error page too) may be framed by any site;
/// every other response is left as the app made it.
pub async fn framing(request: Request, next: Next) -> Response {
    let look = is_embed(request.uri().path()).then(|| Look::from_query(request.uri().query()));
    let mut response = next.run(request).await;
    if let Some(look) = look {
        let headers = response.headers_mut();
        headers.remove(header::X_FRAME_OPTIONS);
        match HeaderValue::from_str(&csp(&look)) {
            Ok(policy) => {
                headers.insert(header::CONTENT_SECURITY_POLICY, policy);
            }
            Err(e) => tracing::error!("a widget's policy is not a header: {e}"),
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_widgets_are_embeds() {
        for yes in [
            "/leagues/wessex/embed/live",
            "/leagues/wessex/embed/divisions/3/table",
            "/leagues/wessex/embed/divisions/3/fixtures",
            "/leagues/wessex/embed/teams/12",
        ] {
            assert!(is_embed(yes), "{yes}");
        }
        for no in [
            "/leagues/wessex",
            "/leagues/wessex/live",
            "/leagues/wessex/embed",
            "/leagues/wessex/embed/nowhere",
            "/leagues/wessex/console",
            "/leagues/wessex/console/website",
            "/embed/leagues/wessex/live",
            "/",
        ] {
            assert!(!is_embed(no), "{no}");
        }
    }

    #[test]
    fn the_policy_allows_framing_and_the_looks_style_only() {
        let plain = csp(&Look::default());
        assert!(plain.contains("frame-ancestors *"), "{plain}");
        assert!(plain.contains("style-src 'self';"), "{plain}");
        assert!(!plain.contains("unsafe-inline"));
        let coloured = csp(&Look::from_query(Some("accent=c0392b")));
        assert!(coloured.contains("style-src 'self' 'sha256-"), "{coloured}");
    }
}
