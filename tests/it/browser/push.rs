//! Live scores pushed (issue 40), in a real browser on the real binary: a
//! tap kept on one phone shows on a follower's match page, the live page
//! and the pub screen within a second, without a reload; a follower whose
//! connection is cut for 10 s catches up on reconnecting with every board
//! right; and, on Postgres, a tap taken by one app server reaches a
//! follower connected to another.
//!
//! The phone here is the test itself, keeping its boards through pad links
//! as the pad's script does (the page's form token, the whole log sent to
//! the sync address at each tap), so the server takes each tap as a phone's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use boneyard::addresses::at_short;
use boneyard::db::{Db, now};
use boneyard::league::pad::{PadRules, Tap, replay};
use boneyard::rules::{Format, Ruleset};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::watch;

use super::pad::{Setup, board_taps, setup, setup_starting};
use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};

/// A phone keeping one board through a pad link, over plain HTTP.
pub(super) struct Phone {
    http: HttpClient<HttpConnector, Full<Bytes>>,
    base: String,
    cookie: String,
    csrf: String,
    sync: String,
    /// The board's pad, with the link's key: what a second phone opens.
    pub pad: String,
}

impl Phone {
    /// Opens board `board` of `s`'s fixture at `server`, by a link made in
    /// `db` (a phone given the link's QR code).
    pub async fn open(db: &Db, s: &Setup, port: u16, board: i64) -> Phone {
        let league = db.league_by_short_name(&s.short).await.unwrap().id;
        let token = format!("livepushlink{board:0>4}{:0>16}", s.fixture.0);
        db.create_pad_link(
            league,
            s.fixture,
            board,
            &token,
            now() + chrono::Duration::days(1),
            None,
        )
        .await
        .unwrap();
        let game = at_short(&s.short).match_page(s.fixture);
        let mut phone = Phone {
            http: HttpClient::builder(TokioExecutor::new()).build_http(),
            base: format!("http://127.0.0.1:{port}"),
            cookie: String::new(),
            csrf: String::new(),
            sync: format!("{}?key={token}", game.pad_sync(board)),
            pad: format!("{}?key={token}", game.pad_board(board)),
        };
        let (status, page) = phone
            .request(
                "GET",
                &format!("{}?key={token}", game.pad_board(board)),
                None,
            )
            .await;
        assert_eq!(status, 200, "{page}");
        let marker = "name=\"csrf\" value=\"";
        let start = page.find(marker).expect("the pad's form token") + marker.len();
        phone.csrf = page[start..].split('"').next().unwrap().to_owned();
        phone
    }

    async fn request(&mut self, method: &str, path: &str, json: Option<String>) -> (u16, String) {
        let mut req = http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if !self.cookie.is_empty() {
            req = req.header("cookie", &self.cookie);
        }
        if json.is_some() {
            req = req
                .header("content-type", "application/json")
                .header("x-csrf-token", &self.csrf);
        }
        let req = req
            .body(Full::new(Bytes::from(json.unwrap_or_default())))
            .unwrap();
        let res = self.http.request(req).await.expect("the server answers");
        if let Some(set) = res.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            if pair.starts_with("boneyard=") {
                self.cookie = pair.to_owned();
            }
        }
        let status = res.status().as_u16();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// Sends the board's whole log, as the pad's script does at each tap;
    /// returns once the server has answered (the tap's acknowledgement).
    pub async fn send(&mut self, taps: &[Tap]) {
        let body = serde_json::json!({ "taps": taps }).to_string();
        let sync = self.sync.clone();
        let (status, reply) = self.request("POST", &sync, Some(body)).await;
        assert_eq!(status, 200, "{reply}");
        let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(reply["taps"].as_array().map(Vec::len), Some(taps.len()));
    }
}

/// Board `board`'s taps and, for each count of them, the totals its pad
/// shows.
pub(super) struct Played {
    pub taps: Vec<Tap>,
    pub totals: Vec<[u32; 2]>,
}

impl Played {
    pub fn new(s: &Setup, board: usize, seed: u64) -> Played {
        let (_, taps) = board_taps(s, board, seed);
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let spec = s.format.boards[board];
        let rules = PadRules {
            ruleset: &ruleset,
            kind: spec.kind,
            best_of: spec.best_of,
            home: &s.home,
            away: &s.away,
        };
        let totals = (0..=taps.len())
            .map(|k| replay(&rules, &taps[..k]).0.summary(true).totals)
            .collect();
        Played { taps, totals }
    }

    /// The first count of taps past `from` whose totals differ from
    /// those after `from` taps, and the game not yet won (a won board
    /// changes the page's shape, which is read again rather than pushed).
    pub fn next_change(&self, from: usize) -> usize {
        (from + 1..self.taps.len())
            .find(|&k| {
                self.totals[k] != self.totals[from] && self.totals[k].iter().all(|t| *t < 61)
            })
            .expect("a later tap moves the totals")
    }
}

/// The totals a page shows for the board marked `key`, home first.
async fn shown(b: &Browser, key: &str, screen: bool) -> Result<[String; 2], String> {
    let class = if screen { ".screen-total" } else { ".total" };
    let v = b
        .client
        .execute(
            &format!(
                "var i = document.querySelector('#live-boards [data-board=\"{key}\"]'); \
                 if (!i) return []; \
                 return Array.prototype.map.call(i.querySelectorAll('{class}'), function (t) {{ return t.textContent.trim(); }});"
            ),
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let list: Vec<String> = serde_json::from_value(v).unwrap_or_default();
    Ok([
        list.first().cloned().unwrap_or_default(),
        list.get(1).cloned().unwrap_or_default(),
    ])
}

/// How long after `since` the page shows `want` for board `key` (up to
/// `limit`, else an error naming what it shows).
async fn shows_within(
    b: &Browser,
    key: &str,
    screen: bool,
    want: [u32; 2],
    since: Instant,
    limit: Duration,
) -> Result<Duration, String> {
    let want = [want[0].to_string(), want[1].to_string()];
    loop {
        let now = shown(b, key, screen).await?;
        if now == want {
            return Ok(since.elapsed());
        }
        if since.elapsed() > limit {
            return Err(format!(
                "board {key} shows {now:?} {:.1} s after the tap; the pad is at {want:?}",
                since.elapsed().as_secs_f64()
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Marks the page, so a reload (which wipes the mark) is noticed.
async fn mark(b: &Browser) -> Result<(), String> {
    b.client
        .execute("window.__boneyard_same = true;", vec![])
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

async fn not_reloaded(b: &Browser, page: &str) -> Result<(), String> {
    let same = b
        .client
        .execute("return window.__boneyard_same === true;", vec![])
        .await
        .map_err(|e| e.to_string())?;
    if same.as_bool() != Some(true) {
        return Err(format!("the {page} reloaded instead of updating in place"));
    }
    Ok(())
}

/// Waits until the page's stream is open (its status says "live").
async fn live(b: &Browser) -> Result<(), String> {
    b.wait_text("#live-status", "live").await?;
    let state = b.text("#live-status").await?;
    if state != "live" {
        return Err(format!("the page says `{state}`"));
    }
    Ok(())
}

/// Follows the pages one after the other, each with its taps (the slowest
/// of two taps each): every page shows the tap within 1 s, in place.
async fn follow_each_page(
    b: &Browser,
    urls: [(&str, String, bool); 3],
    phone: &mut Phone,
    played: &Played,
    at: &mut usize,
    key: &str,
) -> Result<Vec<(String, Duration)>, String> {
    let mut figures = Vec::new();
    for (page, url, screen) in urls {
        b.goto(&url).await?;
        shows_within(
            b,
            key,
            screen,
            played.totals[*at],
            Instant::now(),
            Duration::from_secs(10),
        )
        .await?;
        live(b).await?;
        mark(b).await?;
        let mut slowest = Duration::ZERO;
        for _ in 0..2 {
            let next = played.next_change(*at);
            phone.send(&played.taps[..next]).await;
            let acknowledged = Instant::now();
            *at = next;
            let took = shows_within(
                b,
                key,
                screen,
                played.totals[next],
                acknowledged,
                Duration::from_secs(1),
            )
            .await
            .map_err(|e| format!("the {page}: {e}"))?;
            slowest = slowest.max(took);
        }
        not_reloaded(b, page).await?;
        // A changed total is announced to screen readers.
        let said = b.text("#live-say").await.unwrap_or_default();
        let t = played.totals[*at];
        if !said.contains(&format!("{}", t[0])) || !said.contains(&format!("{}", t[1])) {
            return Err(format!(
                "the {page} announced `{said}`, the board is at {t:?}"
            ));
        }
        figures.push((page.to_owned(), slowest));
    }
    Ok(figures)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tap_shows_on_the_match_page_live_page_and_pub_screen_within_a_second() {
    let name = "a_tap_shows_on_the_match_page_live_page_and_pub_screen_within_a_second";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("push");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let played = Played::new(&s, 0, 11);
    let mut phone = Phone::open(&db, &s, server.port, 1).await;
    let mut at = 8;
    phone.send(&played.taps[..at]).await;
    let key = format!("{}-1", s.fixture);
    let site = at_short(&s.short);
    let game = site.match_page(s.fixture);
    let urls = [
        ("match page", server.url(&game.to_string()), false),
        ("live page", server.url(&site.live()), false),
        ("pub screen", server.url(&game.screen()), true),
    ];
    run(name, PHONE, |b| async move {
        let outcome = async {
            let figures = follow_each_page(&b, urls, &mut phone, &played, &mut at, &key).await?;
            for (page, took) in &figures {
                eprintln!(
                    "tap -> {page}: slowest of 2 {:.0} ms",
                    took.as_secs_f64() * 1000.0
                );
            }
            // The league's screen, on a television.
            b.client
                .set_window_size(DESKTOP.0, DESKTOP.1)
                .await
                .map_err(|e| e.to_string())?;
            b.goto(&server.url(&site.screen())).await?;
            live(&b).await?;
            let next = played.next_change(at);
            phone.send(&played.taps[..next]).await;
            let took = shows_within(
                &b,
                &key,
                true,
                played.totals[next],
                Instant::now(),
                Duration::from_secs(1),
            )
            .await
            .map_err(|e| format!("the league's screen: {e}"))?;
            eprintln!(
                "tap -> league screen: {:.0} ms",
                took.as_secs_f64() * 1000.0
            );
            if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
                b.screenshot("push-league-screen").await;
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}

/// A follower who opens tonight's match page before any board is tapped:
/// the page says so and follows the match's stream from the start, so the
/// first tap shows within a second, in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_page_opened_before_the_first_tap_shows_it_within_a_second() {
    let name = "a_match_page_opened_before_the_first_tap_shows_it_within_a_second";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("push-first");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    // Tonight's match, begun ten minutes ago.
    let s = setup_starting(&address, now() - chrono::Duration::minutes(10)).await;
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let played = Played::new(&s, 0, 11);
    let mut phone = Phone::open(&db, &s, server.port, 1).await;
    let key = format!("{}-1", s.fixture);
    let url = server.url(&at_short(&s.short).match_page(s.fixture).to_string());
    run(name, PHONE, |b| async move {
        let outcome = async {
            b.goto(&url).await?;
            b.wait_text("#live-boards", "No board has started").await?;
            live(&b).await?;
            if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
                b.screenshot("push-match-before-first-tap").await;
            }
            mark(&b).await?;
            let first = played.next_change(0);
            phone.send(&played.taps[..first]).await;
            let took = shows_within(
                &b,
                &key,
                false,
                played.totals[first],
                Instant::now(),
                Duration::from_secs(1),
            )
            .await
            .map_err(|e| format!("the match page before the first tap: {e}"))?;
            not_reloaded(&b, "match page").await?;
            eprintln!(
                "first tap -> match page opened before it: {:.0} ms",
                took.as_secs_f64() * 1000.0
            );
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}

/// A connection between the follower's browser and the server that can be
/// cut: every connection through it closed at once, and new ones closed as
/// they come, until it is restored.
struct Cable {
    port: u16,
    cut: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Cable {
    async fn start(server_port: u16) -> Cable {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (cut, watching) = watch::channel(false);
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let watching = watching.clone();
                if *watching.borrow() {
                    drop(client);
                    continue;
                }
                tokio::spawn(relay(client, server_port, watching));
            }
        });
        Cable { port, cut, task }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn cut(&self, cut: bool) {
        self.cut.send_replace(cut);
    }
}

impl Drop for Cable {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn relay(mut client: TcpStream, server_port: u16, mut cut: watch::Receiver<bool>) {
    let Ok(mut server) = TcpStream::connect(("127.0.0.1", server_port)).await else {
        return;
    };
    let (mut a, mut b) = (vec![0u8; 16 * 1024], vec![0u8; 16 * 1024]);
    loop {
        tokio::select! {
            _ = async { let _ = cut.wait_for(|c| *c).await; } => return,
            n = client.read(&mut a) => match n {
                Ok(0) | Err(_) => return,
                Ok(n) => if server.write_all(&a[..n]).await.is_err() { return },
            },
            n = server.read(&mut b) => match n {
                Ok(0) | Err(_) => return,
                Ok(n) => if client.write_all(&b[..n]).await.is_err() { return },
            },
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_cut_off_for_ten_seconds_catches_up_with_every_board() {
    let name = "a_follower_cut_off_for_ten_seconds_catches_up_with_every_board";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("push-cut");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let cable = Arc::new(Cable::start(server.port).await);
    // Both boards of the match under way.
    let boards = [Played::new(&s, 0, 21), Played::new(&s, 1, 22)];
    let mut phones = [
        Phone::open(&db, &s, server.port, 1).await,
        Phone::open(&db, &s, server.port, 2).await,
    ];
    let mut at = [8, 8];
    for i in 0..2 {
        phones[i].send(&boards[i].taps[..at[i]]).await;
    }
    let keys = [format!("{}-1", s.fixture), format!("{}-2", s.fixture)];
    let live_page = cable.url(&at_short(&s.short).live());
    run(name, PHONE, |b| async move {
        let outcome = async {
            b.goto(&live_page).await?;
            live(&b).await?;
            for i in 0..2 {
                shows_within(&b, &keys[i], false, boards[i].totals[at[i]], Instant::now(), Duration::from_secs(5)).await?;
            }
            mark(&b).await?;
            // The signal goes for 10 s; the boards are tapped meanwhile.
            cable.cut(true);
            b.wait_text("#live-status", "reconnecting").await?;
            let cut_at = Instant::now();
            let mut tapped = 0;
            while cut_at.elapsed() < Duration::from_secs(10) {
                for i in 0..2 {
                    let next = boards[i].next_change(at[i]);
                    phones[i].send(&boards[i].taps[..next]).await;
                    at[i] = next;
                    tapped += 1;
                }
                tokio::time::sleep(Duration::from_millis(3000)).await;
            }
            // Nothing reached the page while it was cut off.
            let stale = shown(&b, &keys[0], false).await?;
            if stale == [boards[0].totals[at[0]][0].to_string(), boards[0].totals[at[0]][1].to_string()] {
                return Err("the page was not cut off".into());
            }
            cable.cut(false);
            let back = Instant::now();
            for i in 0..2 {
                let took = shows_within(&b, &keys[i], false, boards[i].totals[at[i]], back, Duration::from_secs(5))
                    .await
                    .map_err(|e| format!("after the cut: {e}"))?;
                eprintln!("board {}: caught up {:.1} s after the signal came back ({tapped} taps missed in all)", i + 1, took.as_secs_f64());
            }
            live(&b).await?;
            not_reloaded(&b, "live page").await?;
            // And it follows on as before.
            let next = boards[0].next_change(at[0]);
            phones[0].send(&boards[0].taps[..next]).await;
            shows_within(&b, &keys[0], false, boards[0].totals[next], Instant::now(), Duration::from_secs(1)).await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}

/// A fresh Postgres database for one test, dropped afterwards; None
/// without `BONEYARD_TEST_POSTGRES`.
struct PgDatabase {
    admin: sqlx::PgPool,
    name: String,
    pub address: String,
}

impl PgDatabase {
    async fn new(test: &str) -> Option<PgDatabase> {
        let Ok(server) = std::env::var("BONEYARD_TEST_POSTGRES") else {
            eprintln!("browser test {test} skipped: set BONEYARD_TEST_POSTGRES");
            return None;
        };
        let admin = sqlx::PgPool::connect(&server).await.unwrap();
        let name = format!(
            "boneyard_push_{}_{}",
            std::process::id(),
            super::free_port()
        );
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&admin)
            .await
            .unwrap();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b);
        Some(PgDatabase {
            admin,
            address: format!("{base}/{name}"),
            name,
        })
    }

    async fn drop_it(self) {
        let _ = sqlx::query(&format!("DROP DATABASE \"{}\" WITH (FORCE)", self.name))
            .execute(&self.admin)
            .await;
        self.admin.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tap_on_one_app_server_reaches_a_follower_on_another() {
    let name = "a_tap_on_one_app_server_reaches_a_follower_on_another";
    if !super::available(name) {
        return;
    }
    let Some(pg) = PgDatabase::new(name).await else {
        return;
    };
    let s = setup(&pg.address).await;
    // Two app servers on the one database: the phone taps on A, the
    // follower reads from B.
    let a = Server::start(&pg.address);
    let b_server = Server::start(&pg.address);
    let db = Db::connect(&pg.address).await.unwrap();
    let played = Played::new(&s, 0, 31);
    let mut phone = Phone::open(&db, &s, a.port, 1).await;
    let mut at = 8;
    phone.send(&played.taps[..at]).await;
    let key = format!("{}-1", s.fixture);
    let site = at_short(&s.short);
    let game = site.match_page(s.fixture);
    let urls = [
        (
            "match page on the other server",
            b_server.url(&game.to_string()),
            false,
        ),
        (
            "live page on the other server",
            b_server.url(&site.live()),
            false,
        ),
        (
            "pub screen on the other server",
            b_server.url(&game.screen()),
            true,
        ),
    ];
    run(name, PHONE, |b| async move {
        let outcome = async {
            let figures = follow_each_page(&b, urls, &mut phone, &played, &mut at, &key).await?;
            for (page, took) in &figures {
                eprintln!(
                    "tap on A -> {page}: slowest of 2 {:.0} ms",
                    took.as_secs_f64() * 1000.0
                );
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
    drop(a);
    drop(b_server);
    pg.drop_it().await;
}

/// The pad's totals as a phone's browser shows them.
async fn pad_totals(b: &Browser) -> Result<[String; 2], String> {
    Ok([
        b.text("[data-bind=total0]").await?.trim().to_owned(),
        b.text("[data-bind=total1]").await?.trim().to_owned(),
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pad_open_on_a_second_phone_follows_the_first_phones_taps() {
    let name = "a_pad_open_on_a_second_phone_follows_the_first_phones_taps";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("push-pad");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let played = Played::new(&s, 0, 41);
    let mut phone = Phone::open(&db, &s, server.port, 1).await;
    let mut at = 8;
    phone.send(&played.taps[..at]).await;
    let pad = server.url(&phone.pad);
    run(name, PHONE, |b| async move {
        let outcome = async {
            b.goto(&pad).await?;
            let want = |k: usize| [played.totals[k][0].to_string(), played.totals[k][1].to_string()];
            let start = Instant::now();
            while pad_totals(&b).await? != want(at) {
                if start.elapsed() > Duration::from_secs(10) {
                    return Err(format!("the pad shows {:?}, not {:?}", pad_totals(&b).await?, want(at)));
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Let its stream open, then the first phone taps twice.
            tokio::time::sleep(Duration::from_millis(500)).await;
            mark(&b).await?;
            for _ in 0..2 {
                let next = played.next_change(at);
                phone.send(&played.taps[..next]).await;
                let acknowledged = Instant::now();
                at = next;
                while pad_totals(&b).await? != want(at) {
                    if acknowledged.elapsed() > Duration::from_secs(1) {
                        return Err(format!(
                            "the second phone shows {:?} a second after the tap; the board is at {:?}",
                            pad_totals(&b).await?,
                            want(at)
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                eprintln!("tap -> second phone's pad: {:.0} ms", acknowledged.elapsed().as_secs_f64() * 1000.0);
            }
            not_reloaded(&b, "second phone's pad").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}
