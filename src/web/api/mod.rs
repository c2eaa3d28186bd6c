//! The read-only JSON API at `/api/v1`, for league websites, local papers
//! and whoever builds on a league's records: the leagues, their seasons,
//! each division's table and fixtures, matches board by board and hand by
//! hand, teams, players, cups and the live boards.
//!
//! Each resource serialises the very view its public page renders
//! (`app::read`), so the API cannot say what the page does not. Records are
//! named by their stable ids; every answer is `{ "data": ..., "links": ...}`
//! with the addresses of the resources it names, and lists that grow come a
//! page at a time (`?page=2&per_page=50`, with `page`). Answers carry an
//! `ETag` from the kept pages (`web::cache`), so `If-None-Match` gets a
//! `304`; anyone may read them from a browser on another site (CORS for
//! `GET`); errors are RFC 9457 problem details; each client is rate
//! limited ([`limit`]). The OpenAPI 3.1 document at
//! `/api/v1/openapi.json` is generated from these handlers and the view
//! types ([`docs`]).

use std::collections::BTreeMap;
use std::time::Instant;

use axum::extract::{FromRequestParts, Path, RawQuery, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use super::AppState;
use super::auth::ClientAddr;
use super::routes::Routes;
use crate::addresses::api as at;
use crate::app::read::{MOST_PER_PAGE, PER_PAGE, PageInfo};
use crate::db::League;

pub mod docs;
mod guide;
mod leagues;
pub mod limit;
mod matches;
pub mod problem;
mod teams;

pub use problem::{ApiError, ApiResult, PROBLEM_JSON, Problem};

pub fn router() -> Routes {
    Routes::new()
        .route("/api", get(guide::page))
        .route(at::ROOT, get(leagues::index))
        .route("/api/v1/openapi.json", get(docs::openapi))
        .route("/api/v1/leagues", get(leagues::leagues))
        .route("/api/v1/leagues/{league}", get(leagues::league))
        .route(
            "/api/v1/leagues/{league}/seasons/{season}",
            get(leagues::season),
        )
        .route(
            "/api/v1/leagues/{league}/seasons/{season}/honours",
            get(leagues::honours),
        )
        .route(
            "/api/v1/leagues/{league}/divisions/{division}",
            get(leagues::division),
        )
        .route(
            "/api/v1/leagues/{league}/divisions/{division}/fixtures",
            get(leagues::fixtures),
        )
        .route(
            "/api/v1/leagues/{league}/matches/{fixture}",
            get(matches::fixture),
        )
        .route("/api/v1/leagues/{league}/teams", get(teams::teams))
        .route("/api/v1/leagues/{league}/teams/{team}", get(teams::team))
        .route("/api/v1/leagues/{league}/players", get(teams::players))
        .route(
            "/api/v1/leagues/{league}/players/{player}",
            get(teams::player),
        )
        .route("/api/v1/leagues/{league}/cups/{cup}", get(matches::cup))
        .route("/api/v1/leagues/{league}/live", get(matches::live))
        // Any other address under the API is a problem, not an HTML page.
        .route("/api/v1/{*rest}", get(unknown))
}

/// The addresses of the resources an answer names, by relation (`self`,
/// `html`, `table`, ...).
pub type Links = BTreeMap<String, String>;

fn links<const N: usize>(pairs: [(&str, String); N]) -> Links {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// An answer: the view, and the links from it.
fn answer<T: Serialize>(data: T, links: Links) -> Response {
    #[derive(Serialize)]
    struct Answer<T> {
        data: T,
        links: Links,
    }
    json(&Answer { data, links })
}

/// A page of a list, with where it stands and the links to the others.
fn paged<T: Serialize + Clone>(
    all: &[T],
    q: &PageQuery,
    base: &str,
    mut more: Links,
) -> ApiResult<Response> {
    #[derive(Serialize)]
    struct Paged<T> {
        data: Vec<T>,
        page: PageInfo,
        links: Links,
    }
    let page = PageInfo::new(q.page, q.per_page, all.len())
        .ok_or_else(|| ApiError::NotFound(format!("There is no page {} of this list.", q.page)))?;
    let to = |n: u32| format!("{base}?page={n}&per_page={}", page.per_page);
    more.insert("self".into(), to(page.page));
    more.insert("first".into(), to(1));
    more.insert("last".into(), to(page.total_pages.max(1)));
    if page.page > 1 {
        more.insert("prev".into(), to(page.page - 1));
    }
    if page.page < page.total_pages {
        more.insert("next".into(), to(page.page + 1));
    }
    Ok(json(&Paged {
        data: page.slice(all),
        page,
        links: more,
    }))
}

fn json<T: Serialize>(value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
        Err(e) => ApiError::Internal(format!("serialising an answer: {e}")).into_response(),
    }
}

async fn unknown(RawQuery(_): RawQuery, request: Request) -> ApiError {
    ApiError::NotFound(format!(
        "The API has no address `{}`: see {} for the ones it has.",
        request.uri().path(),
        at::openapi()
    ))
}

// ---------------------------------------------------------------------------
// Reading a request

/// Path parameters; one that cannot be read names nothing here: a 404
/// problem, never axum's plain-text rejection.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(t)| ApiPath(t))
            .map_err(|_| ApiError::NotFound(format!("Nothing is at `{}`.", parts.uri.path())))
    }
}

/// The query's pairs; one that cannot be read is a 400 problem.
pub struct ApiQuery(pub Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for ApiQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        serde_urlencoded::from_str(query)
            .map(ApiQuery)
            .map_err(|e| ApiError::BadRequest(format!("The query cannot be read: {e}.")))
    }
}

impl ApiQuery {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// A whole number from 1 to `most` named `name`, if given.
    fn number(&self, name: &str, most: u32) -> ApiResult<Option<u32>> {
        let Some(text) = self.get(name) else {
            return Ok(None);
        };
        match text.parse::<u32>() {
            Ok(n) if (1..=most).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::BadRequest(format!(
                "`{name}` must be a whole number from 1 to {most}, not `{text}`."
            ))),
        }
    }

    fn page(&self) -> ApiResult<PageQuery> {
        Ok(PageQuery {
            page: self.number("page", u32::MAX)?.unwrap_or(1),
            per_page: self.number("per_page", MOST_PER_PAGE)?.unwrap_or(PER_PAGE),
        })
    }
}

pub struct PageQuery {
    page: u32,
    per_page: u32,
}

/// A record's id in the path: a positive whole number, or nothing here.
fn id(text: &str, what: &str) -> ApiResult<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ApiError::NotFound(format!("There is no {what} `{text}`.")))
}

/// The league a path names by its short name.
async fn find_league(state: &AppState, short: &str) -> ApiResult<League> {
    super::auth::league_named(state.db(), short)
        .await
        .map_err(|e| match e {
            super::AppError::NotFound(_) => {
                ApiError::NotFound(format!("There is no league `{short}`."))
            }
            other => ApiError::Internal(other.to_string()),
        })
}

// ---------------------------------------------------------------------------
// At the edge: rate limit and CORS

/// Middleware for every `/api/` address, outside the kept pages (so an
/// answer from memory and a `304` are limited and carry CORS too): a
/// client past its rate limit gets a 429 problem; any site may read the
/// answers (`Access-Control-Allow-Origin: *`, no credentials); a browser's
/// preflight is answered here.
pub async fn edge(
    State(limiter): State<limit::Limiter>,
    client: ClientAddr,
    request: Request,
    next: Next,
) -> Response {
    if !request.uri().path().starts_with("/api/") {
        return next.run(request).await;
    }
    let mut response = if request.method() == Method::OPTIONS {
        preflight()
    } else if let Err(after) = limiter.take(&client.0, Instant::now()) {
        ApiError::TooMany(after).into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag, Retry-After"),
    );
    response
}

fn preflight() -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, HEAD, OPTIONS"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("If-None-Match"),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    response
}

/// The API's own front door: where to start.
#[derive(Serialize, ToSchema)]
pub struct IndexDoc {
    pub links: Links,
}
