//! Live scores pushed to whoever follows them (issue 40): each tap that a
//! score pad saves becomes one event per league, rendered once by the
//! server that took it and handed to every follower of that league on
//! every app server, over server-sent events (`web::pad::events`).
//!
//! An event's id is the league's live page generation the tap raised
//! (`db::generation::live`): a number the database gives, rising with each
//! tap of the league and the same on every app server, so a follower that
//! reconnects to another server with `Last-Event-ID` is understood there
//! too. Each league keeps its last [`RING`] events, so a follower that lost
//! its connection for a while gets what it missed, and nothing twice; one
//! that missed more than that is told to read the page again (a `reset`).
//!
//! On SQLite the server that took the tap publishes it here after its
//! transaction commits, in the order of the commits. On Postgres the tap's
//! own transaction sends it (`NOTIFY`, delivered at commit, in commit
//! order) and one `LISTEN` connection per app server publishes what comes,
//! its own taps included, so every server's followers see every tap.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OnceCell, broadcast, watch};

use crate::db::{Db, FixtureId, LeagueId};

/// The Postgres channel the taps are sent on.
pub const CHANNEL: &str = "boneyard_live";
/// Events kept per league for followers that reconnect: a night's busiest
/// league (90 boards, a tap each every 2 s) makes about 45 a second, so a
/// follower may be away for several seconds and still catch up event by
/// event; away longer, it reads the page once instead.
pub const RING: usize = 512;
/// Most streams one server holds open, by default.
pub const MOST_STREAMS: usize = 4096;
/// Most streams one client address holds open, by default: a pub's screen
/// and a few phones behind one address, not a script opening thousands.
pub const MOST_PER_CLIENT: usize = 32;

/// One saved tap as its followers receive it.
#[derive(Debug)]
pub struct BoardEvent {
    /// The league's live generation after the tap (see the module's doc).
    pub id: i64,
    pub fixture: FixtureId,
    pub board: i64,
    /// The event's data as sent (JSON: the board's fragments and totals),
    /// shared by every follower.
    pub data: Arc<str>,
}

/// What a follower's stream receives.
#[derive(Debug, Clone)]
pub enum Pushed {
    Board(Arc<BoardEvent>),
    /// Events may have been missed (the follower fell behind, or the
    /// server's link to the database was lost for a moment): read the page
    /// again.
    Reset,
}

/// One league's events.
struct Channel {
    /// The league's live generation when this server began to follow it:
    /// every event after it reaches this channel.
    floor: OnceCell<i64>,
    ring: Mutex<Ring>,
    /// To the league's followers (the live page, the league's screen).
    sender: broadcast::Sender<Pushed>,
    /// To each match's followers (its page, its screen): they are woken by
    /// their own match's taps only, not by every tap of the league.
    fixtures: Mutex<HashMap<FixtureId, broadcast::Sender<Pushed>>>,
}

#[derive(Default)]
struct Ring {
    events: VecDeque<Arc<BoardEvent>>,
    /// The id of the newest event let go from the ring (0: none).
    evicted: i64,
}

impl Channel {
    fn new() -> Channel {
        Channel {
            floor: OnceCell::new(),
            ring: Mutex::new(Ring::default()),
            sender: broadcast::channel(RING).0,
            fixtures: Mutex::new(HashMap::new()),
        }
    }

    fn fixtures(&self) -> std::sync::MutexGuard<'_, HashMap<FixtureId, broadcast::Sender<Pushed>>> {
        self.fixtures
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A receiver of `fixture`'s events, or of the league's (None).
    fn subscribe(&self, fixture: Option<FixtureId>) -> broadcast::Receiver<Pushed> {
        let Some(fixture) = fixture else {
            return self.sender.subscribe();
        };
        let mut fixtures = self.fixtures();
        // Matches nobody follows any more are let go as others come.
        fixtures.retain(|_, sender| sender.receiver_count() > 0);
        fixtures
            .entry(fixture)
            .or_insert_with(|| broadcast::channel(RING).0)
            .subscribe()
    }

    /// Hands `pushed` to the league's followers and, when it is about one
    /// match, to that match's (None: to every match's).
    fn send(&self, pushed: Pushed, fixture: Option<FixtureId>) {
        // No receiver is no error: nobody is following just now.
        let _ = self.sender.send(pushed.clone());
        let fixtures = self.fixtures();
        match fixture {
            Some(f) => {
                if let Some(sender) = fixtures.get(&f) {
                    let _ = sender.send(pushed);
                }
            }
            None => {
                for sender in fixtures.values() {
                    let _ = sender.send(pushed.clone());
                }
            }
        }
    }

    fn ring(&self) -> std::sync::MutexGuard<'_, Ring> {
        self.ring
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A follower's start: the events it missed, then whatever comes.
pub struct Subscription {
    pub missed: Vec<Pushed>,
    pub receiver: broadcast::Receiver<Pushed>,
    pub shutdown: watch::Receiver<bool>,
    /// Counts the stream as open until dropped.
    pub open: OpenStream,
}

/// Why a stream was refused: the script then reads the page every few
/// seconds instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// This client holds as many streams as it may (429).
    Client,
    /// The server holds as many as it may (503).
    Server,
    /// The server is shutting down (503).
    ShuttingDown,
}

/// The process's hub: every league's events, the open streams, and the
/// signal that ends them all on shutdown. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    leagues: Mutex<HashMap<LeagueId, Arc<Channel>>>,
    shutdown: watch::Sender<bool>,
    open: AtomicUsize,
    by_client: Mutex<HashMap<String, usize>>,
    most: AtomicUsize,
    most_per_client: AtomicUsize,
    /// SQLite: a commit and its publication are made under this lock, so
    /// events are published in the order of their commits.
    order: tokio::sync::Mutex<()>,
    /// Postgres: the `LISTEN` connection, started with the first follower.
    listening: OnceCell<()>,
}

impl Hub {
    pub fn new(db: Db) -> Hub {
        Hub {
            inner: Arc::new(Inner {
                db,
                leagues: Mutex::new(HashMap::new()),
                shutdown: watch::channel(false).0,
                open: AtomicUsize::new(0),
                by_client: Mutex::new(HashMap::new()),
                most: AtomicUsize::new(MOST_STREAMS),
                most_per_client: AtomicUsize::new(MOST_PER_CLIENT),
                order: tokio::sync::Mutex::new(()),
                listening: OnceCell::new(),
            }),
        }
    }

    /// Sets the bounds on open streams: on the server, and per client.
    pub fn set_limits(&self, most: usize, most_per_client: usize) {
        self.inner.most.store(most, Ordering::Relaxed);
        self.inner
            .most_per_client
            .store(most_per_client, Ordering::Relaxed);
    }

    /// Streams open on this server now.
    pub fn open_streams(&self) -> usize {
        self.inner.open.load(Ordering::Relaxed)
    }

    /// Ends every stream (graceful shutdown: a stream never ends by
    /// itself) and refuses new ones.
    pub fn shut_down(&self) {
        self.inner.shutdown.send_replace(true);
    }

    /// Whether events are published by the database (`NOTIFY`) rather
    /// than by the server that took the tap.
    pub fn by_database(&self) -> bool {
        matches!(self.inner.db, Db::Postgres(_))
    }

    /// The lock a SQLite tap holds from before its commit until its event
    /// is published.
    pub async fn in_order(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.inner.order.lock().await
    }

    fn channel(&self, league: LeagueId) -> Arc<Channel> {
        let mut leagues = self
            .inner
            .leagues
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        leagues
            .entry(league)
            .or_insert_with(|| Arc::new(Channel::new()))
            .clone()
    }

    fn existing(&self, league: LeagueId) -> Option<Arc<Channel>> {
        self.inner
            .leagues
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&league)
            .cloned()
    }

    /// Hands `event` to the league's followers and keeps it for those
    /// that reconnect. A league nobody on this server has followed yet has
    /// no channel, and the event goes nowhere: its followers' pages, read
    /// later, show it.
    pub fn publish(&self, league: LeagueId, event: BoardEvent) {
        let Some(channel) = self.existing(league) else {
            return;
        };
        let event = Arc::new(event);
        let mut ring = channel.ring();
        if ring.events.len() >= RING {
            if let Some(old) = ring.events.pop_front() {
                ring.evicted = ring.evicted.max(old.id);
            }
        }
        ring.events.push_back(event.clone());
        let fixture = event.fixture;
        channel.send(Pushed::Board(event), Some(fixture));
    }

    /// Every follower is told to read its page again: events may have been
    /// lost (the `LISTEN` connection was broken).
    pub fn reset_all(&self) {
        let channels: Vec<Arc<Channel>> = self
            .inner
            .leagues
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .values()
            .cloned()
            .collect();
        for channel in channels {
            let mut ring = channel.ring();
            if let Some(newest) = ring.events.back().map(|e| e.id) {
                ring.evicted = ring.evicted.max(newest);
            }
            ring.events.clear();
            channel.send(Pushed::Reset, None);
        }
    }

    /// A new follower of `league` (of one of its matches: `fixture`) from
    /// `client`, which last saw event `last` (from `Last-Event-ID`, or the
    /// page it reads): refused when the bounds are reached, else the
    /// events it missed and the receiver of those to come.
    pub async fn subscribe(
        &self,
        league: LeagueId,
        fixture: Option<FixtureId>,
        client: &str,
        last: Option<i64>,
    ) -> Result<Subscription, Refused> {
        if *self.inner.shutdown.borrow() {
            return Err(Refused::ShuttingDown);
        }
        let open = self.open(client)?;
        if self.by_database() {
            self.listen().await;
        }
        let channel = self.channel(league);
        // The league's live generation now: every later event reaches the
        // channel (which exists, and on Postgres is listened for, already).
        let db = self.inner.db.clone();
        let floor = channel
            .floor
            .get_or_init(|| async move { db.live_generation(league).await.unwrap_or(i64::MAX) })
            .await;
        let ring = channel.ring();
        let receiver = channel.subscribe(fixture);
        let missed = match last {
            None => Vec::new(),
            Some(last) if last >= *floor && last >= ring.evicted => ring
                .events
                .iter()
                .filter(|e| e.id > last && fixture.is_none_or(|f| f == e.fixture))
                .cloned()
                .map(Pushed::Board)
                .collect(),
            Some(_) => vec![Pushed::Reset],
        };
        drop(ring);
        Ok(Subscription {
            missed,
            receiver,
            shutdown: self.inner.shutdown.subscribe(),
            open,
        })
    }

    /// Counts one more stream, within the bounds.
    fn open(&self, client: &str) -> Result<OpenStream, Refused> {
        let inner = &self.inner;
        let mut by_client = inner
            .by_client
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mine = by_client.get(client).copied().unwrap_or(0);
        if mine >= inner.most_per_client.load(Ordering::Relaxed) {
            return Err(Refused::Client);
        }
        if inner.open.load(Ordering::Relaxed) >= inner.most.load(Ordering::Relaxed) {
            return Err(Refused::Server);
        }
        by_client.insert(client.to_owned(), mine + 1);
        inner.open.fetch_add(1, Ordering::Relaxed);
        crate::metrics::stream_opened();
        Ok(OpenStream {
            hub: self.clone(),
            client: client.to_owned(),
        })
    }

    /// Starts this server's `LISTEN` connection, once, and waits until it
    /// listens.
    async fn listen(&self) {
        let hub = self.clone();
        self.inner
            .listening
            .get_or_init(|| async move {
                let (ready, listening) = tokio::sync::oneshot::channel();
                tokio::spawn(listener(hub, ready));
                let _ = listening.await;
            })
            .await;
    }
}

/// An open stream, counted until dropped.
pub struct OpenStream {
    hub: Hub,
    client: String,
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        let inner = &self.hub.inner;
        inner.open.fetch_sub(1, Ordering::Relaxed);
        crate::metrics::stream_closed();
        let mut by_client = inner
            .by_client
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(n) = by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                by_client.remove(&self.client);
            }
        }
    }
}

/// A tap's notification as sent: `league:id:fixture:board:data`.
pub fn notification(league: LeagueId, id: i64, rest: &str) -> String {
    format!("{}:{id}:{rest}", league.0)
}

/// The part of a notification after the league and the id, which the tap's
/// transaction writes before the id is known: `fixture:board:data`.
pub fn notification_rest(fixture: FixtureId, board: i64, data: &str) -> String {
    format!("{}:{board}:{data}", fixture.0)
}

/// Reads a notification back.
pub fn parse_notification(payload: &str) -> Option<(LeagueId, BoardEvent)> {
    let mut parts = payload.splitn(5, ':');
    let league = LeagueId(parts.next()?.parse().ok()?);
    let id = parts.next()?.parse().ok()?;
    let fixture = FixtureId(parts.next()?.parse().ok()?);
    let board = parts.next()?.parse().ok()?;
    let data = parts.next()?;
    Some((
        league,
        BoardEvent {
            id,
            fixture,
            board,
            data: Arc::from(data),
        },
    ))
}

/// The `LISTEN` loop: one connection per server, of its own (not one of
/// the app's pool, which may then close without waiting for it). A
/// connection lost (and made again by sqlx) may have lost notifications,
/// so every follower is then told to read its page again. Ends when the
/// hub is dropped or shut down.
async fn listener(hub: Hub, ready: tokio::sync::oneshot::Sender<()>) {
    let options = match &hub.inner.db {
        Db::Postgres(pg) => (*pg.connect_options()).clone(),
        Db::Sqlite(_) => {
            let _ = ready.send(());
            return;
        }
    };
    let weak = Arc::downgrade(&hub.inner);
    let mut shutdown = hub.inner.shutdown.subscribe();
    drop(hub);
    let mut ready = Some(ready);
    loop {
        let listener = async {
            let pool = sqlx::postgres::PgPoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await?;
            let mut l = sqlx::postgres::PgListener::connect_with(&pool).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        }
        .await;
        if let Some(r) = ready.take() {
            let _ = r.send(());
        }
        let mut listener = match listener {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("live scores: cannot listen for taps: {e}");
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
                if weak.strong_count() == 0 || *shutdown.borrow() {
                    return;
                }
                continue;
            }
        };
        loop {
            let got = tokio::select! {
                _ = shutdown.wait_for(|down| *down) => return,
                got = listener.try_recv() => got,
            };
            let Some(inner) = weak.upgrade() else {
                return;
            };
            let hub = Hub { inner };
            match got {
                Ok(Some(n)) => match parse_notification(n.payload()) {
                    Some((league, event)) => hub.publish(league, event),
                    None => tracing::warn!("live scores: a notification not understood"),
                },
                // The connection was lost; sqlx makes it again on the next
                // call, but what came meanwhile is gone.
                Ok(None) => hub.reset_all(),
                Err(e) => {
                    tracing::warn!("live scores: listening: {e}");
                    hub.reset_all();
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_reads_back_whole() {
        let rest = notification_rest(FixtureId(12), 3, r#"{"a":"x:y"}"#);
        let sent = notification(LeagueId(7), 41, &rest);
        let (league, e) = parse_notification(&sent).unwrap();
        assert_eq!(league, LeagueId(7));
        assert_eq!((e.id, e.fixture, e.board), (41, FixtureId(12), 3));
        assert_eq!(&*e.data, r#"{"a":"x:y"}"#);
        assert!(parse_notification("7:x:12:3:{}").is_none());
    }
}
