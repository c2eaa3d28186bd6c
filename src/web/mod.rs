//! The web app: axum routes, one module per group, over one [`AppState`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::serve::ListenerExt;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use tower_sessions::cookie::SameSite;
use tower_sessions::cookie::time::Duration as CookieDuration;
use tower_sessions::session_store::ExpiredDeletion;
use tower_sessions::{Expiry, SessionManagerLayer};

use crate::app::mail::MailConfig;
use crate::db::Db;

pub mod account;
mod admin;
pub mod api;
pub mod assets;
pub mod auth;
pub mod cache;
mod console;
mod csrf;
mod dates;
mod email;
pub mod embed;
mod error;
pub mod flash;
mod home;
mod invitations;
mod links;
mod my_matches;
mod pad;
mod page;
mod passwords;
pub mod penalties;
mod personal;
mod players_table;
pub(crate) mod public;
mod redirect;
mod results;
pub mod routes;
mod schedule;
pub mod schema;
mod team_sheet;
pub mod throttle;
mod viewer;
mod views;

pub use error::{AppError, Result};

/// Everything a handler needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    /// A hash checked against when a username is unknown, so that refusing
    /// it takes as long as refusing a wrong password.
    decoy_hash: String,
    /// Where links in emails point.
    mail: MailConfig,
    /// Each league's ratings, kept while its records stand.
    ratings: crate::app::ratings::RatingCache,
    /// The taps pushed to the live pages' followers.
    hub: crate::push::Hub,
    /// Each season's honours, kept while its league's records stand: they
    /// read every hand of the season.
    honours: crate::app::read::honours::KeptHonours,
    /// Each league's latest week with a result (the round-up's address),
    /// by the end of this week, kept while its records stand.
    latest_week: crate::app::read::round_up::KeptLatestWeek,
    /// Each week's round-up, kept while its league's records stand (and a
    /// minute at most while the week is not over): it reads every hand of
    /// the week.
    round_ups: crate::app::read::round_up::KeptRoundUps,
    /// Results assembled from their hands, by version: what the honours
    /// and the round-ups read of every match, read again only when new.
    results: crate::db::results::KeptResults,
    /// Each match's records, kept while its league's records stand: what
    /// its page reads again after every tap on its pads.
    matches: crate::app::read::match_view::KeptMatches,
    /// Each league's night of fixtures on its live page, kept while its
    /// records stand: what the page reads again after every tap.
    live_records: crate::app::read::live::KeptLiveRecords,
    divisions: crate::app::division_table::KeptDivisions,
}

impl AppState {
    pub fn new(db: Db) -> AppState {
        AppState::with_mail(
            db,
            MailConfig::new(&format!("http://{}", crate::cli::DEFAULT_LISTEN)),
        )
    }

    /// With the public address links in emails are built from.
    pub fn with_mail(db: Db, mail: MailConfig) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                hub: crate::push::Hub::new(db.clone()),
                db,
                decoy_hash: auth::decoy_hash(),
                mail,
                ratings: Default::default(),
                honours: Default::default(),
                latest_week: Default::default(),
                round_ups: Default::default(),
                results: Default::default(),
                // A played match's records hold every hand of its games
                // (tens of kilobytes): a night's matches, and some.
                matches: crate::app::by_generation::ByGeneration::with_most(256),
                live_records: Default::default(),
                divisions: Default::default(),
            }),
        }
    }

    pub fn mail(&self) -> &MailConfig {
        &self.inner.mail
    }

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// The live scores' followers (see [`crate::push`]).
    pub fn hub(&self) -> &crate::push::Hub {
        &self.inner.hub
    }

    /// The kept honours of each season (see `public::honours`).
    pub(crate) fn honours(&self) -> &crate::app::read::honours::KeptHonours {
        &self.inner.honours
    }

    /// The kept latest week of each league (see `public::round_up`).
    pub(crate) fn latest_week(&self) -> &crate::app::read::round_up::KeptLatestWeek {
        &self.inner.latest_week
    }

    /// The kept load of each division (its table, its teams' records).
    pub(crate) fn kept_divisions(&self) -> &crate::app::division_table::KeptDivisions {
        &self.inner.divisions
    }

    /// The kept records of each match (see `public::matches`).
    pub(crate) fn kept_matches(&self) -> &crate::app::read::match_view::KeptMatches {
        &self.inner.matches
    }

    /// The kept night of each league's live page (see `public::league`).
    pub(crate) fn kept_live_records(&self) -> &crate::app::read::live::KeptLiveRecords {
        &self.inner.live_records
    }

    /// The results kept by version (see `Db::current_results_kept`).
    pub(crate) fn kept_results(&self) -> &crate::db::results::KeptResults {
        &self.inner.results
    }

    /// The kept round-up of each week (see `public::round_up`).
    pub(crate) fn round_ups(&self) -> &crate::app::read::round_up::KeptRoundUps {
        &self.inner.round_ups
    }

    /// The kept ratings, for a use case that reads them only when it
    /// works its view out.
    pub(crate) fn rating_cache(&self) -> &crate::app::ratings::RatingCache {
        &self.inner.ratings
    }

    /// The ratings of `league` now (see [`crate::app::ratings`]).
    pub async fn ratings(
        &self,
        league: &crate::db::League,
    ) -> std::result::Result<std::sync::Arc<crate::app::ratings::LeagueRatings>, crate::db::DbError>
    {
        self.inner.ratings.of(&self.inner.db, league).await
    }

    /// The installation's rating list of `format` now, its top `most` lines.
    pub async fn installation_ratings(
        &self,
        format: crate::rules::Format,
        most: usize,
    ) -> std::result::Result<
        std::sync::Arc<crate::app::ratings::InstallationRatings>,
        crate::db::DbError,
    > {
        self.inner
            .ratings
            .installation(&self.inner.db, format, most)
            .await
    }
}

/// How the app is reached: behind https (Secure cookies) or not.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    pub secure_cookies: bool,
    /// Requests come through a proxy (a load balancer) that appends the
    /// client's address to `X-Forwarded-For`: the sign-in throttle counts
    /// by that address, not the proxy's.
    pub behind_proxy: bool,
    /// The app serves https itself: browsers are told to come back only
    /// over https (`Strict-Transport-Security`).
    pub hsts: bool,
}

/// The session cookie's name.
const SESSION_COOKIE: &str = "boneyard";

/// The value of the request's cookie `name`, if it sent one.
pub(crate) fn request_cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value)
}

/// Largest request body accepted: a whole match's game records fit easily.
const BODY_LIMIT: usize = 2 * 1024 * 1024;
/// Signed-in sessions end after this long without a request.
const SESSION_IDLE_DAYS: i64 = 14;

/// The whole app, sessions and security headers included; tests call this
/// and send requests to the router directly.
pub async fn build_app(state: AppState, settings: Settings) -> Result<Router> {
    let sessions = state.db().sessions().await?;
    let cache = cache::PageCache::new(state.clone(), sessions.clone());
    let session_layer = SessionManagerLayer::new(sessions)
        .with_name(SESSION_COOKIE)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(settings.secure_cookies)
        .with_expiry(Expiry::OnInactivity(CookieDuration::days(
            SESSION_IDLE_DAYS,
        )));
    let app = routes::table()
        .into_router()
        .nest("/static", assets::router())
        .fallback(error::not_found)
        .with_state(state.clone())
        .layer(axum::Extension(settings))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::framed,
        ))
        .layer(axum::middleware::from_fn(flash::keep))
        .layer(session_layer)
        .layer(axum::middleware::from_fn_with_state(cache, cache::layer))
        // Outside the kept pages: an API answer from memory, or a 304, is
        // rate limited and carries CORS too.
        .layer(axum::middleware::from_fn_with_state(
            api::limit::Limiter::default(),
            api::edge,
        ))
        .layer(axum::middleware::from_fn_with_state(state, public_origin))
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(always(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::X_FRAME_OPTIONS, "DENY"))
        .layer(always(header::REFERRER_POLICY, "same-origin"))
        // Outside the headers above: the widgets alone may be framed.
        .layer(axum::middleware::from_fn(embed::framing))
        .layer(axum::middleware::from_fn(crate::metrics::track))
        .layer(TraceLayer::new_for_http());
    let app = if settings.hsts {
        // A year, the value browsers' preload lists ask for at least.
        app.layer(always(
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000",
        ))
    } else {
        app
    };
    Ok(if settings.behind_proxy {
        app.layer(axum::Extension(auth::BehindProxy))
    } else {
        app
    })
}

/// A header every response carries unless its handler set its own.
/// With `--public-url`, every request is read as reaching that origin, so
/// the absolute links pages build (QR codes, calendar feeds, invitations)
/// and the kept pages' keys follow it, never a Host header a client sent.
async fn public_origin(
    axum::extract::State(state): axum::extract::State<AppState>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if let Some((scheme, host)) = state.mail().origin()
        && let (Ok(host), Ok(scheme)) = (HeaderValue::from_str(host), HeaderValue::from_str(scheme))
    {
        let headers = request.headers_mut();
        headers.insert(header::HOST, host);
        headers.insert("x-forwarded-proto", scheme);
    }
    next.run(request).await
}

fn always(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// Scripts and styles only from this site; no framing; forms post here only.
const CSP: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Sends each response as soon as it is written: with Nagle's algorithm a
/// response written in two parts waits for the client's delayed
/// acknowledgement, about 40 ms, before its second part goes.
pub fn no_delay(stream: &mut tokio::net::TcpStream) {
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!("cannot set TCP_NODELAY: {e}");
    }
}

/// Queues the weekly round-up for its subscribers each Monday morning
/// (the mail worker sends it), checking `every` so often.
async fn round_ups(state: AppState, every: Duration) {
    loop {
        if let Err(e) = queue_round_ups(&state, chrono::Utc::now()).await {
            tracing::warn!("round-up by email: {e}");
        }
        tokio::time::sleep(every).await;
    }
}

/// One check of [`round_ups`] as at `now`: the number of messages queued.
pub async fn queue_round_ups(state: &AppState, now: chrono::DateTime<chrono::Utc>) -> Result<u64> {
    public::round_up_list::queue_due(state, now).await
}

/// The addresses the app answers on.
#[derive(Debug, Clone)]
pub struct Listeners {
    /// Plain http: the app itself, or only redirects once https is on.
    pub http: SocketAddr,
    pub https: Option<crate::https::Https>,
    /// Prometheus metrics, on an address of their own.
    pub metrics: Option<SocketAddr>,
}

/// The bounds on the live streams (see [`crate::push`]).
#[derive(Debug, Clone, Copy)]
pub struct StreamLimits {
    /// On the server.
    pub most: usize,
    /// Per client address.
    pub per_client: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            most: crate::push::MOST_STREAMS,
            per_client: crate::push::MOST_PER_CLIENT,
        }
    }
}

/// Serves the app until Ctrl-C, deleting expired sessions as it goes.
pub async fn serve(
    db: Db,
    listeners: Listeners,
    settings: Settings,
    mail: MailConfig,
    worker: crate::mail::Worker,
    streams: StreamLimits,
) -> Result<()> {
    let sessions = db.sessions().await?;
    let cleaner = tokio::spawn(async move {
        let _ = sessions
            .continuously_delete_expired(Duration::from_secs(3600))
            .await;
    });
    // Ctrl-C or SIGTERM: the server stops taking requests and the mail
    // worker finishes the message in hand and hands back the rest.
    let (stopping, stop) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stopping.send(true);
    });
    let mailer = tokio::spawn(worker.run(Duration::from_secs(5), stop.clone()));
    // The metrics on an address of their own, never the public one.
    let metrics = match listeners.metrics {
        Some(at) => {
            let listener = bind(at).await?;
            tracing::info!("metrics at http://{at}/metrics");
            let app = crate::metrics::router(db.clone());
            Some(tokio::spawn(async move {
                let _ = axum::serve(listener, app).await;
            }))
        }
        None => None,
    };
    let public_url = mail.url("");
    let state = AppState::with_mail(db, mail);
    state.hub().set_limits(streams.most, streams.per_client);
    let hub = state.hub().clone();
    let round_ups = tokio::spawn(round_ups(state.clone(), Duration::from_secs(60)));
    let app = build_app(state, settings).await?;
    let listen = listeners.http;
    let listener = bind(listen).await?.tap_io(no_delay);
    match listeners.https {
        None => {
            tracing::info!("Boneyard is serving http://{listen}");
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown({
                let stopping = stopped(stop.clone());
                async move {
                    stopping.await;
                    // The live streams never end by themselves: ended here,
                    // so that the server's shutdown does not wait for them.
                    hub.shut_down();
                }
            })
            .await
            .map_err(|e| AppError::Internal(format!("serving: {e}")))?;
        }
        Some(https) => {
            let redirects = crate::https::redirect_router(&public_url);
            let plain = tokio::spawn(async move {
                let _ = axum::serve(listener, redirects).await;
            });
            let handle = axum_server::Handle::new();
            let handle_stop = handle.clone();
            let signal = stopped(stop.clone());
            tokio::spawn(async move {
                signal.await;
                hub.shut_down();
                handle_stop.graceful_shutdown(Some(Duration::from_secs(10)));
            });
            tracing::info!(
                "Boneyard is serving https://{} as {public_url}; http://{listen} redirects there",
                https.listen
            );
            let served = crate::https::serve(https, app, handle).await;
            plain.abort();
            served.map_err(AppError::Internal)?;
        }
    }
    cleaner.abort();
    // A message half sent when the process ends would be sent again by the
    // next server: the worker is let finish it, for a while.
    if tokio::time::timeout(Duration::from_secs(30), mailer)
        .await
        .is_err()
    {
        tracing::warn!("the mail worker did not stop within 30 s");
    }
    round_ups.abort();
    if let Some(m) = metrics {
        m.abort();
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM (what a service manager sends to stop a program).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Resolves once `stop` says `true` (or its sender is gone).
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

async fn bind(at: SocketAddr) -> Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(at)
        .await
        .map_err(|e| AppError::Internal(format!("cannot listen on {at}: {e}")))
}
