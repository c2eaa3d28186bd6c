//! Prometheus metrics (issue 28): requests by route and status with their
//! latency, score pad taps taken and refused, kept pages served from memory
//! or rendered, and mail waiting or failed. One registry for the process,
//! served on an address of its own (`--metrics-listen`), never on the
//! public one.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Router, extract::State};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::db::Db;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    /// The route's pattern (`/leagues/:league/matches/:fixture`), so a
    /// league's thousand matches are one series.
    route: String,
    method: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram>,
    taps: Family<Outcome, Counter>,
    kept: Family<Outcome, Counter>,
    mail: Family<Outcome, Gauge>,
    streams: Gauge,
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let mut registry = Registry::with_prefix("boneyard");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        // 0.25 ms to about 8 s.
        let latency = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.000_25, 2.0, 16))
        });
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request, by route",
            latency.clone(),
        );
        let taps = Family::<Outcome, Counter>::default();
        registry.register(
            "pad_taps",
            "Score pad taps taken into a board's log, or refused",
            taps.clone(),
        );
        let kept = Family::<Outcome, Counter>::default();
        registry.register(
            "kept_pages",
            "Pages answered from memory (hit) or rendered afresh (miss)",
            kept.clone(),
        );
        let mail = Family::<Outcome, Gauge>::default();
        registry.register(
            "mail_messages",
            "Outgoing messages waiting to be sent, or failed after their retries",
            mail.clone(),
        );
        let streams = Gauge::default();
        registry.register(
            "live_streams_open",
            "Live-score streams (server-sent events) open now",
            streams.clone(),
        );
        Metrics {
            streams,
            registry,
            requests,
            latency,
            taps,
            kept,
            mail,
        }
    })
}

/// Middleware: counts each request under its route's pattern and times it.
pub async fn track(request: Request, next: Next) -> Response {
    // `{league}` written `:league`: braces in a label value trip up some
    // scrapers' parsers.
    let route = request.extensions().get::<MatchedPath>().map_or_else(
        || "unmatched".to_owned(),
        |p| p.as_str().replace('{', ":").replace('}', ""),
    );
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let m = metrics();
    // A live stream lasts as long as its follower stays: its time is no
    // request's latency (the open streams have their own gauge).
    if !is_stream(&response) {
        m.latency
            .get_or_create(&RouteLabels {
                route: route.clone(),
            })
            .observe(started.elapsed().as_secs_f64());
    }
    m.requests
        .get_or_create(&RequestLabels {
            route,
            method,
            status: response.status().as_u16(),
        })
        .inc();
    response
}

/// A response that is a stream of server-sent events.
fn is_stream(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"))
}

/// A live stream opened.
pub fn stream_opened() {
    metrics().streams.inc();
}

/// A live stream closed.
pub fn stream_closed() {
    metrics().streams.dec();
}

/// `n` pad taps taken into a board's log.
pub fn taps_taken(n: usize) {
    metrics()
        .taps
        .get_or_create(&Outcome { outcome: "taken" })
        .inc_by(n as u64);
}

/// A pad tap refused (the rules, the line-up, a closed board).
pub fn tap_refused() {
    metrics()
        .taps
        .get_or_create(&Outcome { outcome: "refused" })
        .inc();
}

/// A page answered from memory (`hit`) or rendered (`miss`).
pub fn kept_page(hit: bool) {
    let outcome = if hit { "hit" } else { "miss" };
    metrics().kept.get_or_create(&Outcome { outcome }).inc();
}

/// The text a scrape reads, with the mail counts read from the database
/// now (a database that does not answer leaves them as last read).
pub async fn render(db: &Db) -> String {
    let m = metrics();
    if let Ok((waiting, failed)) = db.mail_counts().await {
        m.mail
            .get_or_create(&Outcome { outcome: "waiting" })
            .set(waiting);
        m.mail
            .get_or_create(&Outcome { outcome: "failed" })
            .set(failed);
    }
    let mut out = String::new();
    if let Err(e) = encode(&mut out, &m.registry) {
        tracing::warn!("metrics: {e}");
    }
    out
}

/// The metrics' own little app: `GET /metrics`.
pub fn router(db: Db) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(|State(db): State<Db>| async move {
                (
                    [(
                        header::CONTENT_TYPE,
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    )],
                    render(&db).await,
                )
                    .into_response()
            }),
        )
        .with_state(db)
}
