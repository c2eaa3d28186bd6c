//! A widget's look, chosen in its address: `?theme=light|dark` and
//! `?accent=RRGGBB` (or `RGB`, with or without `#`). Anything else is
//! ignored: the widget keeps the default look rather than refuse a host
//! page's frame, and nothing from the address reaches the page's CSS but
//! six hexadecimal digits read back out of three bytes.

use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Debug, Default, Deserialize)]
struct LookQuery {
    theme: Option<String>,
    accent: Option<String>,
}

/// Light or dark, and an accent colour or the site's own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Look {
    pub dark: bool,
    pub accent: Option<[u8; 3]>,
}

impl Look {
    /// The look a request's query asks for; what cannot be read is left at
    /// the default.
    pub fn from_query(query: Option<&str>) -> Look {
        let q: LookQuery = query
            .and_then(|q| serde_urlencoded::from_str(q).ok())
            .unwrap_or_default();
        Look {
            dark: q.theme.as_deref() == Some("dark"),
            accent: q.accent.as_deref().and_then(parse_colour),
        }
    }

    /// The classes of the page's `<html>`: `embed`, `dark`, `accent`.
    pub fn classes(&self) -> String {
        let mut classes = vec!["embed"];
        if self.dark {
            classes.push("dark");
        }
        if self.accent.is_some() {
            classes.push("accent");
        }
        classes.join(" ")
    }

    /// The one rule the accent needs, or none: the colour and, for text on
    /// it, black or white, whichever reads better. Its specificity beats
    /// both themes' own accent.
    pub fn style(&self) -> Option<String> {
        let [r, g, b] = self.accent?;
        let ink = if luminance([r, g, b]) > 0.179 {
            "#000"
        } else {
            "#fff"
        };
        Some(format!(
            "html.embed.accent{{--accent:#{r:02x}{g:02x}{b:02x};--accent-ink:{ink}}}"
        ))
    }

    /// The query that gives this look again (`theme=dark&accent=c0392b`),
    /// empty for the default one.
    pub fn query(&self) -> String {
        let mut parts = Vec::new();
        if self.dark {
            parts.push("theme=dark".to_owned());
        }
        if let Some([r, g, b]) = self.accent {
            parts.push(format!("accent={r:02x}{g:02x}{b:02x}"));
        }
        parts.join("&")
    }
}

/// `c0392b`, `#c0392b`, `c39` or `#c39` as three bytes; anything else none.
fn parse_colour(text: &str) -> Option<[u8; 3]> {
    let hex = text.trim().strip_prefix('#').unwrap_or(text.trim());
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).ok();
    match hex.len() {
        3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17]),
        6 => {
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            Some([byte(0)?, byte(2)?, byte(4)?])
        }
        _ => None,
    }
}

/// WCAG's relative luminance of a colour.
fn luminance(rgb: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
}

/// The CSP hash source of a `<style>` element's text (base64 SHA-256).
pub fn hash(css: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(css.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_and_an_accent_are_read_from_the_query() {
        let look = Look::from_query(Some("theme=dark&accent=%23C0392B"));
        assert_eq!(
            look,
            Look {
                dark: true,
                accent: Some([0xc0, 0x39, 0x2b])
            }
        );
        assert_eq!(look.query(), "theme=dark&accent=c0392b");
        assert_eq!(look.classes(), "embed dark accent");
        assert_eq!(
            Look::from_query(Some("accent=c39")).accent,
            Some([0xcc, 0x33, 0x99])
        );
        assert_eq!(Look::from_query(None), Look::default());
    }

    #[test]
    fn anything_else_keeps_the_default_look() {
        for query in [
            "theme=purple",
            "accent=red",
            "accent=12345",
            "accent=1234567",
            "accent=%7D%3Cscript%3E",
            "accent=00ff0g",
            "accent=;}body{display:none",
            "accent=é1é2é3",
            "theme",
            "%ZZ",
        ] {
            let look = Look::from_query(Some(query));
            assert_eq!(look, Look::default(), "{query}");
            assert_eq!(look.style(), None, "{query}");
        }
    }

    #[test]
    fn the_style_holds_only_hex_digits_and_readable_ink() {
        let dark_red = Look::from_query(Some("accent=7a0000")).style().unwrap();
        assert_eq!(
            dark_red,
            "html.embed.accent{--accent:#7a0000;--accent-ink:#fff}"
        );
        let yellow = Look::from_query(Some("accent=ffdd00")).style().unwrap();
        assert!(yellow.ends_with("--accent-ink:#000}"), "{yellow}");
    }

    #[test]
    fn the_hash_is_the_browsers() {
        // `echo -n 'a{}' | openssl dgst -sha256 -binary | base64`
        assert_eq!(hash("a{}"), "X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk=");
    }
}
