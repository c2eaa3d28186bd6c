//! The stylesheet and scripts: every file under static/ is compiled into the
//! binary, so it serves them wherever it runs, copied or installed.
//!
//! Pages link each file by a name holding a hash of its content,
//! `/static/style.3f2a9c1b.css` (see [`url`]), cached for a year: a release
//! that changes the file changes its name. The plain name, `/static/style.css`,
//! is served too, for old links, but checked again on every use.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;
use sha2::{Digest, Sha256};

use super::AppState;
use super::error::AppError;

/// static/, read at compile time in every profile (`debug-embed`); build.rs
/// rebuilds when a file there changes or is added.
#[derive(Embed)]
#[folder = "static/"]
struct Files;

/// A hashed name's content never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A plain name's content changes with a new release: ask each time (an
/// unchanged file is a 304 through its ETag).
const REVALIDATE: &str = "no-cache";
/// Where [`url`] points for a name not in static/: a 404, and an error logged.
const MISSING: &str = "/static/missing";

/// The routes under /static: each file by its hashed name and by its plain one.
pub fn router() -> Router<AppState> {
    Router::new().route("/{*path}", get(serve))
}

/// The address pages link a file of static/ by, its content hash in its
/// name: `url("style.css")` is `"/static/style.3f2a9c1b.css"`.
pub fn url(name: &str) -> &'static str {
    match ASSETS.files.get(name) {
        Some(asset) => &asset.url,
        None => {
            tracing::error!(name, "no such file in static/");
            MISSING
        }
    }
}

/// A file of static/ as it is, for a route outside /static (the pad's
/// service worker must be served from the site's root).
pub fn body(name: &str) -> Option<&'static [u8]> {
    ASSETS.files.get(name).map(|asset| asset.body.as_ref())
}

struct Asset {
    body: Cow<'static, [u8]>,
    content_type: HeaderValue,
    etag: HeaderValue,
    /// `/static/` and the hashed name.
    url: String,
}

struct Assets {
    /// By plain name, as under static/.
    files: HashMap<String, Asset>,
    /// Hashed name to plain name.
    hashed: HashMap<String, String>,
}

/// Hashed once, at the first page or file served.
static ASSETS: LazyLock<Assets> = LazyLock::new(|| {
    let mut files = HashMap::new();
    let mut hashed = HashMap::new();
    for name in Files::iter() {
        let Some(file) = Files::get(&name) else {
            continue;
        };
        let hash = fingerprint(&file.data);
        let stamped = hashed_name(&name, &hash);
        let content_type = content_type(file.metadata.mimetype());
        let asset = Asset {
            content_type: HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
            etag: HeaderValue::from_str(&format!("\"{hash}\""))
                .expect("hex is a valid header value"),
            url: format!("/static/{stamped}"),
            body: file.data,
        };
        hashed.insert(stamped, name.to_string());
        files.insert(name.into_owned(), asset);
    }
    Assets { files, hashed }
});

/// A short hex of a file's SHA-256: 8 hex digits, plenty to tell one
/// release's file from the next.
fn fingerprint(content: &[u8]) -> String {
    Sha256::digest(content)[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `style.css` with hash `3f2a…` is `style.3f2a….css`; a name without an
/// extension gets the hash at its end.
fn hashed_name(name: &str, hash: &str) -> String {
    let (dir, file) = match name.rsplit_once('/') {
        Some((dir, file)) => (format!("{dir}/"), file),
        None => (String::new(), name),
    };
    match file.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{dir}{stem}.{hash}.{ext}"),
        _ => format!("{dir}{file}.{hash}"),
    }
}

/// Text is UTF-8 here, said so the browser need not guess; scripts get
/// their standard type (RFC 9239).
fn content_type(mime: &str) -> String {
    match mime {
        "application/javascript" | "text/javascript" => "text/javascript; charset=utf-8".into(),
        text if text.starts_with("text/") => format!("{text}; charset=utf-8"),
        other => other.to_owned(),
    }
}

async fn serve(Path(path): Path<String>, request: HeaderMap) -> Response {
    let assets = &*ASSETS;
    let (asset, cache) = if let Some(name) = assets.hashed.get(&path) {
        (&assets.files[name], IMMUTABLE)
    } else if let Some(asset) = assets.files.get(&path) {
        (asset, REVALIDATE)
    } else {
        return AppError::NotFound(format!("The file /static/{path}")).into_response();
    };
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        (header::ETAG, asset.etag.clone()),
    ];
    if unchanged(&request, &asset.etag) {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (
        headers,
        [(header::CONTENT_TYPE, asset.content_type.clone())],
        asset.body.clone(),
    )
        .into_response()
}

/// The browser's copy is this one: its `If-None-Match` lists our ETag.
pub(crate) fn unchanged(request: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(|tag| tag.trim_ascii())
        .any(|tag| tag == b"*" || tag == etag || tag.strip_prefix(b"W/") == Some(etag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_gets_a_new_name() {
        let before = hashed_name("style.css", &fingerprint(b"body { color: black }"));
        let after = hashed_name("style.css", &fingerprint(b"body { color: navy }"));
        assert_ne!(before, after);
        assert_eq!(
            before,
            hashed_name("style.css", &fingerprint(b"body { color: black }"))
        );
        assert!(
            before.starts_with("style.") && before.ends_with(".css"),
            "{before}"
        );
    }

    #[test]
    fn hashed_names_keep_the_folder_and_the_extension() {
        assert_eq!(hashed_name("style.css", "ab12"), "style.ab12.css");
        assert_eq!(hashed_name("app.min.js", "ab12"), "app.min.ab12.js");
        assert_eq!(hashed_name("img/logo.svg", "ab12"), "img/logo.ab12.svg");
        assert_eq!(hashed_name("LICENSE", "ab12"), "LICENSE.ab12");
        assert_eq!(hashed_name(".well-known", "ab12"), ".well-known.ab12");
    }

    #[test]
    fn every_file_of_static_is_embedded_under_a_hashed_url() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static");
        let mut on_disk = 0;
        for entry in std::fs::read_dir(dir).expect("static/") {
            let entry = entry.expect("an entry");
            if !entry.file_type().expect("a type").is_file() {
                continue;
            }
            on_disk += 1;
            let name = entry.file_name().into_string().expect("a UTF-8 name");
            let content = std::fs::read(entry.path()).expect("the file");
            let url = url(&name);
            assert_eq!(
                url,
                format!("/static/{}", hashed_name(&name, &fingerprint(&content))),
                "{name}"
            );
            assert_eq!(ASSETS.files[&name].body.as_ref(), content, "{name}");
        }
        assert!(on_disk >= 2, "style.css and card.js at least");
        assert_eq!(url("style.css").len(), "/static/style..css".len() + 8);
        assert_eq!(url("no-such.css"), MISSING);
    }

    #[test]
    fn templates_link_static_files_by_their_hashed_url() {
        let mut linked = 0;
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/templates"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("a templates folder") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a template");
                let shown = path.display();
                assert!(
                    !text.contains("\"/static/"),
                    "{shown}: link /static/ files with assets::url(\"NAME\")"
                );
                for call in text.split("assets::url(\"").skip(1) {
                    let name = call.split('"').next().unwrap_or_default();
                    assert!(ASSETS.files.contains_key(name), "{shown}: no static/{name}");
                    linked += 1;
                }
            }
        }
        assert!(linked >= 2, "the stylesheet and the card's script");
    }

    #[test]
    fn if_none_match_is_read_as_a_list() {
        let etag = HeaderValue::from_static("\"ab12\"");
        let ask = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_static(v));
            unchanged(&h, &etag)
        };
        assert!(ask("\"ab12\""));
        assert!(ask("\"x\", W/\"ab12\""));
        assert!(ask("*"));
        assert!(!ask("\"ab1\""));
        assert!(!unchanged(&HeaderMap::new(), &etag));
    }
}
