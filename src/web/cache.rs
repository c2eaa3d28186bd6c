//! Rendered pages kept in memory while nothing they show has changed.
//!
//! Results change a few times a week; tables are read all the time. Every
//! write transaction raises a page generation in the database (see
//! `db::generation` and `db::sql::Tx`): its league's, or the installation's
//! when any page may show what it wrote. A page of a league
//! (`/leagues/SHORT/...`) rendered after reading its generation `g` is
//! current for as long as the generation is still `g`, whatever other
//! leagues write; a page outside the leagues follows every write. This
//! layer reads the generation for each request it may answer from memory
//! (one cheap query, shared by the requests for the same league that
//! arrive while it runs), and keeps each page it rendered under that
//! generation. Because the numbers live in the database, several app
//! servers sharing one Postgres see each other's writes on their next
//! request.
//!
//! Only the same-for-everyone pages are kept: a page its route says is
//! public ([`Public`], set by `Routes::kept`; never a page whose address
//! holds a token), asked by a `GET` without the session
//! cookie (signed-in pages differ per user), answered `200` with no
//! `Set-Cookie` and no `Cache-Control` of its own (a saved message's page
//! says `no-store`; the score pad and the static files say their own).
//! Pages showing "today" are kept at most [`FRESH_SECONDS`] whatever the
//! generation. Each kept page has an `ETag` (its body's hash), and a
//! browser that sends it back with `If-None-Match` gets `304 Not Modified`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::db::generation::{Follows, PageGenerations};
use crate::db::{Db, FixtureId};

/// Most memory the kept pages take; past it they are all let go.
const BUDGET: usize = 64 << 20;
/// A page larger than this is not kept.
const LARGEST: usize = 4 << 20;
/// Most leagues whose last generation read is remembered: addresses of
/// leagues that do not exist must not grow the map without end.
const MOST_LEAGUES: usize = 10_000;
/// Longest a page is kept, even when nothing was written: pages that show
/// today's matches change at midnight without a write.
pub const FRESH_SECONDS: u64 = 60;

/// One app server's kept pages. Cheap to clone.
#[derive(Clone)]
pub struct PageCache {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    /// The app, for the parts of a shared page that are a signed-in
    /// user's own (`web::personal`).
    app: super::AppState,
    viewers: super::viewer::Viewers,
    /// Per league (None: every page outside the leagues), the last
    /// generations read and when their read began.
    generations: Mutex<HashMap<Option<String>, Arc<LeagueReads>>>,
    pages: Mutex<Pages>,
    /// Pages being rendered again, so that the requests that find a page
    /// stale at once (after a write, each minute) wait for one rendering
    /// instead of all rendering it.
    rendering: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Most match pages of one league whose live generations each read takes
/// along (a night's matches, and some).
const MOST_FIXTURES: usize = 64;

/// One league's generations: the last read (when it began, what it read),
/// and the fixtures whose match pages have been asked for, which every read
/// asks about too, so one query serves all the league's pages.
#[derive(Default)]
struct LeagueReads {
    fixtures: Mutex<Vec<FixtureId>>,
    last: tokio::sync::Mutex<Option<(Instant, PageGenerations)>>,
}

#[derive(Default)]
struct Pages {
    map: HashMap<String, Arc<Kept>>,
    bytes: usize,
}

struct Kept {
    generation: i64,
    window: u64,
    etag: HeaderValue,
    headers: HeaderMap,
    body: Bytes,
}

impl PageCache {
    pub fn new(app: super::AppState, sessions: crate::db::sessions::Sessions) -> PageCache {
        PageCache {
            inner: Arc::new(Inner {
                db: app.db().clone(),
                app,
                viewers: super::viewer::Viewers::new(sessions),
                generations: Mutex::new(HashMap::new()),
                pages: Mutex::new(Pages::default()),
                rendering: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The generation of `league`'s pages as read by a query that began
    /// no earlier than `asked`, so every write committed before the request
    /// arrived is counted. Requests that arrive while a read runs share the
    /// next one: under load one query serves many requests.
    async fn generation(
        &self,
        league: Option<&str>,
        follows: Follows,
        asked: Instant,
    ) -> crate::db::Result<(i64, super::viewer::Generations)> {
        let reads = {
            let mut generations = self
                .inner
                .generations
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if generations.len() > MOST_LEAGUES {
                generations.clear();
            }
            generations
                .entry(league.map(str::to_owned))
                .or_default()
                .clone()
        };
        let fixtures = {
            let mut fixtures = reads
                .fixtures
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Follows::Fixture(f) = follows {
                if !fixtures.contains(&f) {
                    if fixtures.len() >= MOST_FIXTURES {
                        fixtures.remove(0);
                    }
                    fixtures.push(f);
                }
            }
            fixtures.clone()
        };
        let mut last = reads.last.lock().await;
        if let Some((began, generations)) = &*last {
            let answers = match follows {
                Follows::Fixture(f) => generations.fixtures.contains_key(&f),
                _ => true,
            };
            if *began >= asked && answers {
                return Ok((generations.of(follows), viewer_generations(generations)));
            }
        }
        let began = Instant::now();
        let generations = self.inner.db.page_generations(league, &fixtures).await?;
        let read = (generations.of(follows), viewer_generations(&generations));
        *last = Some((began, generations));
        Ok(read)
    }

    fn get(&self, key: &str) -> Option<Arc<Kept>> {
        self.pages().map.get(key).cloned()
    }

    /// The lock of the one rendering of `key` under way.
    fn rendering(&self, key: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut rendering = self
            .inner
            .rendering
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        rendering.entry(key.to_owned()).or_default().clone()
    }

    fn rendered(&self, key: &str, lock: &Arc<tokio::sync::Mutex<()>>) {
        let mut rendering = self
            .inner
            .rendering
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if rendering.get(key).is_some_and(|l| Arc::ptr_eq(l, lock)) {
            rendering.remove(key);
        }
    }

    fn keep(&self, key: String, page: Kept) -> Arc<Kept> {
        let page = Arc::new(page);
        let size = page.body.len() + key.len();
        let mut pages = self.pages();
        // A request that read the generation before a write may finish
        // after one that read it after: the newer page stays.
        if let Some(kept) = pages.map.get(&key) {
            if (kept.generation, kept.window) > (page.generation, page.window) {
                return page;
            }
        }
        if pages.bytes + size > BUDGET {
            pages.map.clear();
            pages.bytes = 0;
        }
        if let Some(old) = pages.map.insert(key.clone(), page.clone()) {
            pages.bytes -= old.body.len() + key.len();
        }
        pages.bytes += size;
        page
    }

    fn pages(&self) -> std::sync::MutexGuard<'_, Pages> {
        // A panic while holding the lock leaves the map whole: carry on.
        self.inner
            .pages
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Middleware: answers from the kept pages, or renders and keeps.
pub async fn layer(State(cache): State<PageCache>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    // A stream of live events is no page: nothing to keep, no generation to read.
    if request.method() != Method::GET || is_stream(path) {
        return next.run(request).await;
    }
    if let Some(cookie) = session_cookie(request.headers()) {
        // A signed-in page is the visitor's plus the user's own parts where
        // its route is shared; a request asking for a page made afresh
        // (`Cache-Control: no-cache`, a hard reload) gets one.
        if !super::routes::is_shared(path) || asks_afresh(request.headers()) {
            return next.run(request).await;
        }
        let cookie = cookie.to_owned();
        return shared(cache, cookie, request, next).await;
    }
    let generation = match cache
        .generation(league_of(path), follows_taps(path), Instant::now())
        .await
    {
        Ok((g, _)) => g,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the page generation; not caching");
            return next.run(request).await;
        }
    };
    let asked = request.headers().clone();
    match visitor_page(&cache, request, next, generation).await {
        Ok((page, how)) => answer(&page, &asked, how),
        Err(response) => response,
    }
}

/// The visitor's page for `request` under `generation`: kept, or rendered
/// by `next` and kept (and whether it was kept before). Err: the response
/// as rendered, not one to keep.
async fn visitor_page(
    cache: &PageCache,
    request: Request,
    next: Next,
    generation: i64,
) -> Result<(Arc<Kept>, &'static str), Response> {
    let window = window();
    let key = key(&request);
    let fresh = |page: &Kept| page.generation == generation && page.window == window;
    // A page kept before (so one worth keeping) but stale: one request
    // renders it again while the others wait for it. A page never kept
    // (an error, a page setting a cookie) is not waited for.
    let mut _turn = None;
    let mut lock = None;
    if let Some(page) = cache.get(&key) {
        if fresh(&page) {
            return Ok((page, HIT));
        }
        let l = cache.rendering(&key);
        _turn = Some(l.clone().lock_owned().await);
        if let Some(page) = cache.get(&key).filter(|p| fresh(p)) {
            return Ok((page, HIT));
        }
        lock = Some(l);
    }
    let response = next.run(request).await;
    if !storable(&response) {
        if let Some(lock) = &lock {
            cache.rendered(&key, lock);
        }
        return Err(response);
    }
    let (parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, LARGEST).await {
        Ok(body) => body,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read a page's body");
            return Err(StatusCode::INTERNAL_SERVER_ERROR.into_response());
        }
    };
    let page = cache.keep(
        key.clone(),
        Kept {
            generation,
            window,
            etag: etag(&body),
            headers: parts.headers,
            body,
        },
    );
    if let Some(lock) = &lock {
        cache.rendered(&key, lock);
    }
    Ok((page, MISS))
}

/// A shared page for a request with a session: the visitor's page (kept,
/// or rendered without the session and kept) with the user's own parts
/// filled in (`web::personal`). Whatever this cannot answer as the app
/// would (a saved message to show, a page not kept for visitors) goes the
/// whole way through the app.
async fn shared(cache: PageCache, cookie: String, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let (generation, now) = match cache
        .generation(league_of(&path), follows_taps(&path), Instant::now())
        .await
    {
        Ok(read) => read,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the page generation; not sharing");
            return next.run(request).await;
        }
    };
    let inner = &cache.inner;
    let user = match inner.viewers.see(&inner.db, &cookie, now, &path).await {
        super::viewer::Seen::Full => return next.run(request).await,
        super::viewer::Seen::Visitor => None,
        super::viewer::Seen::User(user) => Some(user),
    };
    let page = match visitor_page(&cache, as_visitor(&request), next.clone(), generation).await {
        Ok((page, how)) => (page, how),
        Err(_) => return next.run(request).await,
    };
    let (page, how) = page;
    let Some(user) = user else {
        return answer(&page, request.headers(), how);
    };
    let html = page
        .headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    let text = std::str::from_utf8(&page.body).ok().filter(|_| html);
    let body = match text {
        // Data (the API's JSON, a schema, a calendar) is the same for all.
        None => page.body.clone(),
        Some(text) => {
            let slots = super::personal::slots(text);
            let mut fills = Vec::with_capacity(slots.len());
            for slot in &slots {
                match super::personal::fill(&inner.app, &user, &path, slot).await {
                    Ok(fill) => fills.push(fill),
                    Err(e) => {
                        tracing::warn!(error = ?e, "a page's own part; rendering it whole");
                        return next.run(request).await;
                    }
                }
            }
            Bytes::from(super::personal::splice(text, &slots, &fills))
        }
    };
    crate::metrics::kept_page(how == HIT);
    let mut response = Response::new(Body::from(body));
    *response.headers_mut() = page.headers.clone();
    let headers = response.headers_mut();
    headers.remove(header::CONTENT_LENGTH);
    // One user's page: no shared cache keeps it, the browser asks each time.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
    headers.insert(CACHE_HEADER, HeaderValue::from_static(SHARED));
    response
}

/// What a session's reading follows, of the generations read.
fn viewer_generations(read: &PageGenerations) -> super::viewer::Generations {
    super::viewer::Generations {
        installation: read.installation,
        sessions: read.sessions,
    }
}

/// The request as a visitor would send it: without its cookies.
fn as_visitor(request: &Request) -> Request {
    let mut visitor = Request::new(Body::empty());
    *visitor.method_mut() = request.method().clone();
    *visitor.uri_mut() = request.uri().clone();
    *visitor.version_mut() = request.version();
    *visitor.headers_mut() = request.headers().clone();
    visitor.headers_mut().remove(header::COOKIE);
    *visitor.extensions_mut() = request.extensions().clone();
    visitor
}

/// `Cache-Control: no-cache` (or `no-store`) on the request: a page made afresh.
fn asks_afresh(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|d| matches!(d.trim(), "no-cache" | "no-store"))
}

/// Put on a response by the routes whose pages are the same for everyone
/// (`Routes::kept`): the cache keeps nothing without it, so a page nobody
/// thought about (a link's page that answers with its owner's name, say)
/// is never served to the next visitor.
#[derive(Debug, Clone, Copy)]
pub struct Public;

/// Marks a response of a kept route [`Public`].
pub async fn mark_public(mut response: Response) -> Response {
    response.extensions_mut().insert(Public);
    response
}

/// The API's resources follow the pages they serialise: its addresses
/// are the pages' under this prefix, as far as the generations go.
const API: &str = crate::addresses::api::ROOT;

/// The live scores' event streams (`web::pad::events`).
fn is_stream(path: &str) -> bool {
    path.ends_with("/events")
}

/// The request's session cookie: its pages may be its own.
fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    super::request_cookie(headers, super::SESSION_COOKIE)
}

#[cfg(test)]
fn has_session(headers: &HeaderMap) -> bool {
    session_cookie(headers).is_some()
}

/// The short name of the league a page belongs to: `/leagues/SHORT/...`.
/// The list of leagues itself, and pages outside the leagues, belong to
/// none and follow every write.
pub(super) fn league_of(path: &str) -> Option<&str> {
    let path = path.strip_prefix(API).unwrap_or(path);
    let rest = path.strip_prefix("/leagues/")?;
    let short = rest.split('/').next()?;
    (!short.is_empty()).then_some(short)
}

/// Which boards in play the page shows, so which pad taps it changes
/// with: the league's live page and screen every board's, a match's page
/// and screen its own boards'. The league's other pages show none, and stay
/// kept while the pads tap.
fn follows_taps(path: &str) -> Follows {
    let path = path.strip_prefix(API).unwrap_or(path);
    let Some(rest) = path.strip_prefix("/leagues/") else {
        return Follows::Records;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        [_, "live"] | [_, "screen"] | [_, "embed", "live"] => Follows::League,
        [_, "matches", id] | [_, "matches", id, "screen"] => id
            .parse()
            .map_or(Follows::Records, |id| Follows::Fixture(FixtureId(id))),
        _ => Follows::Records,
    }
}

/// The host (pages may hold absolute links) and the path with its query.
fn key(request: &Request) -> String {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .unwrap_or_default();
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    format!("{host}\n{path}")
}

/// Which [`FRESH_SECONDS`] the time now falls in.
fn window() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / FRESH_SECONDS)
}

/// A whole page the same for everyone, of a size worth keeping.
fn storable(response: &Response) -> bool {
    let headers = response.headers();
    response.status() == StatusCode::OK
        && response.extensions().get::<Public>().is_some()
        && !headers.contains_key(header::SET_COOKIE)
        && !headers.contains_key(header::CACHE_CONTROL)
        && !headers.contains_key(header::ETAG)
        && response
            .body()
            .size_hint()
            .upper()
            .is_some_and(|n| n <= LARGEST as u64)
}

fn etag(body: &[u8]) -> HeaderValue {
    let hash = Sha256::digest(body);
    let hex: String = hash[..12].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex digits are a header value")
}

/// The kept page, or `304` when the browser has it already.
/// The header saying whether a page came from memory or was rendered for
/// this request: for whoever runs the app, and the tests.
pub const CACHE_HEADER: &str = "x-boneyard-cache";
const HIT: &str = "hit";
const MISS: &str = "miss";
/// A signed-in user's page made of the visitor's kept page and their own parts.
const SHARED: &str = "shared";

fn answer(page: &Kept, asked: &HeaderMap, how: &'static str) -> Response {
    crate::metrics::kept_page(how == HIT);
    let mut response = if super::assets::unchanged(asked, &page.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Response::new(Body::from(page.body.clone()));
        *response.headers_mut() = page.headers.clone();
        response
    };
    let headers = response.headers_mut();
    headers.insert(header::ETAG, page.etag.clone());
    // Kept by the browser, but asked after each time (cheaply, by ETag).
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
    headers.insert(CACHE_HEADER, HeaderValue::from_static(how));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_session_cookie_counts() {
        let with = |cookie: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
            has_session(&h)
        };
        assert!(with("boneyard=abc"));
        assert!(with("theme=dark; boneyard=abc"));
        assert!(!with("theme=dark"));
        assert!(!with("boneyardx=1"));
        assert!(!has_session(&HeaderMap::new()));
    }

    #[test]
    fn a_page_belongs_to_the_league_in_its_address() {
        assert_eq!(league_of("/leagues/wessex"), Some("wessex"));
        assert_eq!(league_of("/leagues/wessex/2026-27/one"), Some("wessex"));
        assert_eq!(league_of("/leagues/"), None);
        assert_eq!(league_of("/leagues"), None);
        assert_eq!(league_of("/"), None);
        assert_eq!(league_of("/static/style.css"), None);
        assert_eq!(league_of("/api/v1/leagues/wessex/teams/3"), Some("wessex"));
        assert_eq!(league_of("/api/v1/leagues"), None);
    }

    #[test]
    fn only_the_live_pages_follow_the_taps() {
        let league = Follows::League;
        let twelve = Follows::Fixture(FixtureId(12));
        assert_eq!(follows_taps("/leagues/wessex/live"), league);
        assert_eq!(follows_taps("/leagues/wessex/screen"), league);
        assert_eq!(follows_taps("/leagues/wessex/embed/live"), league);
        assert_eq!(follows_taps("/leagues/wessex/matches/12"), twelve);
        assert_eq!(follows_taps("/leagues/wessex/matches/12/screen"), twelve);
        assert_eq!(follows_taps("/api/v1/leagues/wessex/live"), league);
        assert_eq!(follows_taps("/api/v1/leagues/wessex/matches/12"), twelve);
        for records in [
            "/leagues/wessex",
            "/leagues/wessex/2026-27/one",
            "/leagues/wessex/matches/12/history",
            "/leagues/wessex/matches/nonsense",
            "/leagues/wessex/teams/3",
            "/live",
        ] {
            assert_eq!(follows_taps(records), Follows::Records, "{records}");
        }
    }

    #[test]
    fn the_etag_follows_the_body() {
        assert_eq!(etag(b"a"), etag(b"a"));
        assert_ne!(etag(b"a"), etag(b"b"));
        assert!(etag(b"a").to_str().unwrap().starts_with('"'));
    }
}
