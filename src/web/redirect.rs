//! The one way a redirect's address is made from what a user sent: a
//! path on this site, checked.
//!
//! A browser reads more into an address than it shows: `/%09/evil.example`
//! and `/\evil.example` both lead off the site (tabs and newlines are
//! dropped, a backslash is a slash), and a control character in a
//! `Location` header cannot be sent at all. So an address made of user
//! text goes through [`SitePath::parse`], which keeps only plain paths.

use axum::response::{IntoResponse, Redirect, Response};

/// A path on this site, safe to send back in a `Location` header: `/`, then
/// path and query characters only, with nothing after percent-decoding
/// that a browser would read as another site (`//`, `\`) or that a header
/// cannot carry (control characters, whitespace).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePath(String);

impl SitePath {
    /// `Some` when `text` is such a path.
    pub fn parse(text: &str) -> Option<SitePath> {
        if !text.starts_with('/') || text.len() > 2000 {
            return None;
        }
        // Visible ASCII without `\`, quotes, `<>`, `^`, backquote, `{|}`
        // and `#`: what a path and query of this site are made of.
        let plain = |b: u8| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'/' | b'-'
                        | b'.'
                        | b'_'
                        | b'~'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b':'
                        | b'@'
                        | b'?'
                        | b'%'
                )
        };
        if !text.bytes().all(plain) {
            return None;
        }
        let decoded = percent_decoded(text)?;
        let bad = |b: &u8| b.is_ascii_control() || b.is_ascii_whitespace() || *b == b'\\';
        if decoded.iter().any(bad) || decoded.windows(2).any(|w| w == b"//") {
            return None;
        }
        Some(SitePath(text.to_owned()))
    }

    /// `text` when it is a site path, else the home page.
    pub fn or_home(text: &str) -> SitePath {
        SitePath::parse(text).unwrap_or_else(|| SitePath("/".to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A 303 to this path.
    pub fn redirect(&self) -> Response {
        Redirect::to(&self.0).into_response()
    }
}

/// The bytes `text` stands for, `%XX` decoded; `None` for a `%` without two
/// hex digits after it.
fn percent_decoded(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_of_this_site_pass() {
        for ok in [
            "/",
            "/leagues/kings/matches/3/card",
            "/leagues/kings/penalties?season=2",
            "/sign-in?next=%2Fleagues%2Fkings",
            "/players/O%27Neill",
        ] {
            assert_eq!(SitePath::parse(ok).unwrap().as_str(), ok);
        }
    }

    #[test]
    fn anything_a_browser_could_read_as_elsewhere_is_refused() {
        for bad in [
            "",
            "leagues",
            "https://evil.example",
            "//evil.example",
            "/\\evil.example",
            "/%5Cevil.example",
            "/%09/evil.example",
            "/\t/evil.example",
            "/%2F/evil.example",
            "/%2f%2fevil.example",
            "/ /evil.example",
            "/%0a",
            "/%0D%0ASet-Cookie:x=1",
            "/%00",
            "/\u{0}",
            "/%",
            "/%zz",
            "/caf\u{e9}",
            "/a#frag",
        ] {
            assert_eq!(SitePath::parse(bad), None, "{bad:?}");
            assert_eq!(SitePath::or_home(bad).as_str(), "/");
        }
    }
}
