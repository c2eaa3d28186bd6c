//! How fast the public pages are served under concurrent load, beside a
//! trivial route of the same server (a static file) as the ceiling.
//!
//! Builds a SQLite demo database like `boneyard demo --leagues 50` in a
//! temporary directory (or opens the one at `BONEYARD_BENCH_DB`, filling it
//! first if it is new), serves the real app in-process on 127.0.0.1, and
//! drives it with concurrent keep-alive HTTP/1.1 clients over plain TCP.
//! Prints requests per second and p50/p99 latency for each route, and each
//! page's requests a second as a share of the stylesheet's in the same run
//! (the goal: 0.5x or better, p99 under 10 ms), for each page four times:
//! as a visitor gets it (kept in memory while nothing it shows changes);
//! signed in as a player of the league (a real session: the visitor's kept
//! page with the player's own parts filled in; goal 0.2x or better with p99
//! under 20 ms, and 0.5x for the league's home, a division's table and a
//! match); rendered whole for every request (a session the server does not
//! know: what one rendering costs, same goal as signed in); and signed in
//! for the whole of `BONEYARD_BENCH_SECONDS` while the league's records
//! change four times a second (`BONEYARD_BENCH_CHANGE_MS`):
//! each change drops the kept page, its first request renders the page
//! again and the requests that arrive meanwhile wait for that rendering,
//! as after a result is entered (same goal as signed in; and the same p99
//! goal for the requests that met a change, the first after it and those
//! that waited for it, which are too few to show in the pass's own p99).
//!
//! Then the same on Postgres when an address is given: `BONEYARD_BENCH_POSTGRES`
//! (a database, filled with the demo first if it has no league), or else
//! `BONEYARD_TEST_POSTGRES` (a server: its database `boneyard_bench_demo`
//! is made and filled once, and kept for the next run).
//!
//! `cargo bench --bench pages`. Settings (environment):
//! `BONEYARD_BENCH_DB` (a file path), `BONEYARD_BENCH_CLIENTS` (default 32),
//! `BONEYARD_BENCH_REQUESTS` (per route, default 100000),
//! `BONEYARD_BENCH_SECONDS` (most a route is driven for, default 15),
//! `BONEYARD_BENCH_ONLY` (only the routes holding this text),
//! `BONEYARD_BENCH_LEAGUES` (leagues in a new demo database, default 50),
//! `BONEYARD_BENCH_CHANGE_MS` (between two changes in the "changing" pass,
//! default 250).

mod common;
use common::{encode, env_number, slug};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::serve::ListenerExt;
use boneyard::db::{Db, FixtureStatus, LeagueId};
use boneyard::demo::{DemoOptions, fill};
use boneyard::web::{AppState, Settings, build_app};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One keep-alive connection speaking just enough HTTP/1.1.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    request: Vec<u8>,
}

impl Conn {
    async fn open(addr: std::net::SocketAddr, path: &str, extra: &str) -> Conn {
        // `extra`: header lines, each ending in CRLF.
        let stream = TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Conn {
            stream,
            buf: Vec::with_capacity(64 * 1024),
            request: format!(
                "GET {path} HTTP/1.1\r\nHost: bench\r\nUser-Agent: bench\r\n{extra}\r\n"
            )
            .into_bytes(),
        }
    }

    /// Sends the request and reads the whole response; returns the status
    /// and the body's length.
    async fn get(&mut self) -> (u16, usize) {
        self.stream
            .write_all(&self.request)
            .await
            .expect("write request");
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await;
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).to_ascii_lowercase();
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let length = head.lines().find_map(|l| {
            l.strip_prefix("content-length:")
                .and_then(|v| v.trim().parse::<usize>().ok())
        });
        self.buf.drain(..head_end);
        let body = match length {
            Some(n) => {
                while self.buf.len() < n {
                    self.fill().await;
                }
                self.buf.drain(..n);
                n
            }
            None if head.contains("transfer-encoding: chunked") => self.chunked().await,
            None => 0,
        };
        (status, body)
    }

    async fn chunked(&mut self) -> usize {
        let mut total = 0;
        loop {
            let line_end = loop {
                if let Some(i) = find(&self.buf, b"\r\n") {
                    break i;
                }
                self.fill().await;
            };
            let size_text = String::from_utf8_lossy(&self.buf[..line_end]).to_string();
            let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16)
                .expect("a chunk size");
            self.buf.drain(..line_end + 2);
            while self.buf.len() < size + 2 {
                self.fill().await;
            }
            self.buf.drain(..size + 2);
            total += size;
            if size == 0 {
                return total;
            }
        }
    }

    async fn fill(&mut self) {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk).await.expect("read");
        assert!(n > 0, "the server closed the connection");
        self.buf.extend_from_slice(&chunk[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

struct Figures {
    /// Each request's start and how long it took, in start order.
    each: Vec<(Instant, Duration)>,
    /// Their times, all together.
    times: Times,
    elapsed: Duration,
    bytes: usize,
}

/// `requests` GETs of `path` spread over `clients` connections, or as many
/// as fit in `budget`.
async fn run(
    addr: std::net::SocketAddr,
    path: &str,
    extra: &str,
    clients: usize,
    requests: usize,
    budget: Duration,
) -> Figures {
    let left = Arc::new(AtomicUsize::new(requests));
    let started = Instant::now();
    let deadline = started + budget;
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let left = left.clone();
        let path = path.to_owned();
        let extra = extra.to_owned();
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(addr, &path, &extra).await;
            let mut each = Vec::new();
            let mut bytes = 0;
            while Instant::now() < deadline
                && left
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_ok()
            {
                let t = Instant::now();
                let (status, body) = conn.get().await;
                each.push((t, t.elapsed()));
                assert_eq!(status, 200, "GET {path}");
                bytes = body;
            }
            (each, bytes)
        }));
    }
    let mut each = Vec::with_capacity(requests.min(1 << 20));
    let mut bytes = 0;
    for t in tasks {
        let (mut ours, b) = t.await.expect("a client");
        each.append(&mut ours);
        bytes = bytes.max(b);
    }
    let elapsed = started.elapsed();
    each.sort_by_key(|(at, _)| *at);
    let times = Times::of(each.iter().map(|(_, t)| *t).collect()).expect("a request answered");
    Figures {
        each,
        times,
        elapsed,
        bytes,
    }
}

/// The requests that met a change: for each change made while they ran,
/// those begun after it and before the first of them had its answer (the
/// one that rendered the page again, and those that waited for it). Their
/// times are what a rendering just after a change costs its readers.
fn after_changes(each: &[(Instant, Duration)], changes: &[Instant]) -> Option<(Times, Times)> {
    let first = each.first()?.0;
    let mut times = Vec::new();
    let mut renderings = Vec::new();
    for &change in changes.iter().filter(|&&c| c >= first) {
        let from = each.partition_point(|(at, _)| *at < change);
        let Some(&(start, took)) = each.get(from) else {
            continue;
        };
        let rendered = start + took;
        renderings.push(took);
        times.extend(
            each[from..]
                .iter()
                .take_while(|(at, _)| *at < rendered)
                .map(|(_, t)| *t),
        );
    }
    Some((Times::of(times)?, Times::of(renderings)?))
}

/// How long some requests took.
struct Times {
    requests: usize,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

impl Times {
    fn of(mut times: Vec<Duration>) -> Option<Times> {
        if times.is_empty() {
            return None;
        }
        times.sort();
        let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
        Some(Times {
            requests: times.len(),
            p50: at(0.5),
            p99: at(0.99),
            max: *times.last()?,
        })
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

struct TempDir(Option<PathBuf>);

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Some(dir) = &self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

async fn sqlite_database() -> (Db, TempDir) {
    let (path, temp) = match std::env::var("BONEYARD_BENCH_DB") {
        Ok(path) => (PathBuf::from(path), TempDir(None)),
        Err(_) => {
            let dir = std::env::temp_dir().join(format!("boneyard-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a temporary directory");
            (dir.join("demo.db"), TempDir(Some(dir)))
        }
    };
    let db = Db::connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("open the database");
    filled(&db, &path.display().to_string()).await;
    (db, temp)
}

/// The Postgres database to measure, if an address is given.
async fn postgres_database() -> Option<Db> {
    let address = match std::env::var("BONEYARD_BENCH_POSTGRES") {
        Ok(address) => address,
        Err(_) => {
            let server = std::env::var("BONEYARD_TEST_POSTGRES").ok()?;
            let admin = sqlx::PgPool::connect(&server)
                .await
                .expect("connect to BONEYARD_TEST_POSTGRES");
            let exists: Option<i32> =
                sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
                    .bind(BENCH_DATABASE)
                    .fetch_optional(&admin)
                    .await
                    .expect("list databases");
            if exists.is_none() {
                sqlx::query(&format!("CREATE DATABASE {BENCH_DATABASE}"))
                    .execute(&admin)
                    .await
                    .expect("create the bench database");
            }
            admin.close().await;
            with_database(&server, BENCH_DATABASE)
        }
    };
    let db = Db::connect(&address).await.expect("open Postgres");
    filled(&db, &address).await;
    Some(db)
}

/// Kept between runs on the test server: filling it takes minutes.
const BENCH_DATABASE: &str = "boneyard_bench_demo";

/// The server address with its database name replaced.
fn with_database(server: &str, database: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (server, String::new()),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let base = match base[after_scheme..].rfind('/') {
        Some(i) => &base[..after_scheme + i],
        None => base,
    };
    format!("{base}/{database}{query}")
}

/// Fills `db` with the demo leagues unless it has leagues already.
async fn filled(db: &Db, shown_as: &str) {
    if db.leagues().await.expect("list leagues").is_empty() {
        let options = DemoOptions {
            leagues: env_number("BONEYARD_BENCH_LEAGUES", 50) as u32,
            ..DemoOptions::default()
        };
        let started = Instant::now();
        println!(
            "building the demo database (--leagues {}) at {shown_as}",
            options.leagues
        );
        let summary = fill(db, &options).await.expect("the demo leagues");
        println!("{summary}");
        println!("built in {:.1} s", started.elapsed().as_secs_f64());
    } else {
        println!("reusing {shown_as}");
    }
}

/// The public pages of the current season of a league in the middle of
/// the list: its home, the season, a division's table (with every column,
/// and as JSON) and fixtures, a team, a player, a played match, the player
/// table, matches in progress, and the round-up of a week (page and text).
/// With them, the pages held to [`GOAL_RATIO`] signed in and rendered
/// whole too: the league's home, a division's table and a match.
async fn page_paths(db: &Db) -> (Vec<String>, Vec<String>, LeagueId) {
    let leagues = db.leagues().await.expect("leagues");
    let league = &leagues[leagues.len() / 2];
    let seasons = db.seasons(league.id).await.expect("seasons");
    let season = seasons.iter().max_by_key(|s| s.id).expect("a season");
    let divisions = db.divisions(league.id, season.id).await.expect("divisions");
    let division = divisions.first().expect("a division");
    let team = &db.teams(league.id).await.expect("teams")[0];
    let player = &db.players(league.id).await.expect("players")[0];
    let played = db
        .division_fixtures(league.id, division.id)
        .await
        .expect("fixtures")
        .into_iter()
        .find(|f| f.status == FixtureStatus::Played)
        .expect("a played fixture");
    let base = format!("/leagues/{}", encode(&league.short_name));
    let table = format!("{base}/{}/{}", slug(&season.name), slug(&division.name));
    // The round-up of the played match's week.
    let kick_off = played.starts_at.expect("a played fixture has a date");
    let (monday, _, _) = league
        .time_zone
        .week(league.time_zone.local(kick_off).date());
    let round_up = format!("{base}/round-up/{monday}");
    let cups = db.cups(league.id, season.id).await.expect("cups");
    let cup = cups.first().expect("the demo's leagues each have cups");
    let busiest = vec![
        base.clone(),
        table.clone(),
        format!("{base}/matches/{}", played.id),
    ];
    let all = vec![
        base.clone(),
        format!("{base}/{}", slug(&season.name)),
        table.clone(),
        format!("{table}?cols=all"),
        format!("{table}/fixtures"),
        format!("{table}/data.json"),
        format!("{base}/teams/{}-{}", team.id, slug(&team.name)),
        format!("{base}/players/{}-{}", player.id, slug(&player.name)),
        format!("{base}/matches/{}", played.id),
        format!("{base}/players-table/{}", season.id),
        format!("{base}/players-table/{}?sort=rating", season.id),
        format!("{base}/ratings/{}", season.format.as_str()),
        format!("/ratings/{}", season.format.as_str()),
        format!("{base}/live"),
        format!("{base}/{}/honours", slug(&season.name)),
        round_up.clone(),
        format!("{round_up}.txt"),
        format!("{base}/cups/{}-{}", cup.id, slug(&cup.name)),
        format!("{base}/calendar/team/{}.ics", team.id),
        format!("{base}/calendar/player/{}.ics", player.id),
    ];
    (all, busiest, league.id)
}

/// The goal of a page as a visitor gets it: this share of the
/// stylesheet's requests a second at least, and p99 under [`GOAL_P99`].
const GOAL_RATIO: f64 = 0.5;
const GOAL_P99: Duration = Duration::from_millis(10);
/// The goal of a page signed in, or rendered whole: this share at least
/// (the league's home, a division's table and a match: [`GOAL_RATIO`]),
/// p99 under [`GOAL_P99_RENDERED`].
const GOAL_RATIO_RENDERED: f64 = 0.2;
const GOAL_P99_RENDERED: Duration = Duration::from_millis(20);

struct Load {
    clients: usize,
    requests: usize,
    budget: Duration,
    /// Between two changes of the league's records in the "changing" pass.
    change_every: Duration,
}

/// The bench's player account, made (or its password set) in `db`: a
/// registered player of the first team of the league measured, so its
/// team page has the player's answer box.
async fn bench_player(db: &Db) -> (String, String) {
    const USERNAME: &str = "bench-player";
    const PASSWORD: &str = "bench-player-password-1";
    let leagues = db.leagues().await.expect("leagues");
    let league = &leagues[leagues.len() / 2];
    let team = &db.teams(league.id).await.expect("teams")[0];
    let mut player = None;
    for p in db.players(league.id).await.expect("players") {
        let seasons = db
            .player_seasons(league.id, p.id)
            .await
            .expect("registrations");
        if seasons.first().is_some_and(|r| r.team_id == team.id) {
            player = Some(p.id);
            break;
        }
    }
    let player = player.expect("a registered player of the team");
    let hash = boneyard::web::auth::hash_password(PASSWORD.to_owned())
        .await
        .expect("a password hash");
    let user = match db.user_by_username(USERNAME).await {
        Ok(user) => {
            db.set_password_hash(user.id, &hash)
                .await
                .expect("password");
            user
        }
        Err(_) => db.create_user(USERNAME, &hash).await.expect("an account"),
    };
    let role = boneyard::db::NewRole::player(user.id, league.id, player);
    // Held already when the database is reused.
    let _ = db.grant_role(&role, None).await;
    (USERNAME.to_owned(), PASSWORD.to_owned())
}

/// One request on a connection of its own: the response's head and body.
async fn once(addr: std::net::SocketAddr, request: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("write request");
    let mut response = Vec::new();
    stream
        .read_to_end(&mut response)
        .await
        .expect("read response");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head");
    (head.to_owned(), body.to_owned())
}

/// The session cookie a response sets.
fn session_cookie(head: &str) -> String {
    head.lines()
        .filter_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("set-cookie")
                .then_some(value.trim())
        })
        .find_map(|v| v.strip_prefix("boneyard="))
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_owned()
}

/// Signs in through the sign-in form as a browser does: the session
/// cookie of the signed-in session.
async fn sign_in(addr: std::net::SocketAddr, username: &str, password: &str) -> String {
    let (head, body) = once(
        addr,
        "GET /sign-in HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n",
    )
    .await;
    let cookie = session_cookie(&head);
    let csrf = body
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the sign-in form's token");
    let form = format!(
        "csrf={csrf}&next=&username={}&password={}",
        encode(username),
        encode(password)
    );
    let (head, _) = once(
        addr,
        &format!(
            "POST /sign-in HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nCookie: boneyard={cookie}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        ),
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 303"), "signed in: {head}");
    session_cookie(&head)
}

/// Serves the app over `db` and measures each route; the first route is
/// the stylesheet every other is compared with.
async fn measure(db: &Db, load: &Load) {
    let mut paths = vec![STYLESHEET.to_owned()];
    let (pages, busiest, league) = page_paths(db).await;
    paths.extend(pages);
    // BONEYARD_BENCH_ONLY: only the routes holding this text.
    if let Ok(only) = std::env::var("BONEYARD_BENCH_ONLY") {
        paths.retain(|p| p == STYLESHEET || p.contains(&only));
    }
    let (username, password) = bench_player(db).await;
    let app = build_app(AppState::new(db.clone()), Settings::default())
        .await
        .expect("the app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listen");
    let addr = listener.local_addr().expect("an address");
    let listener = listener.tap_io(boneyard::web::no_delay);
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.expect("serve");
    });
    let signed_in = format!(
        "Cookie: boneyard={}\r\n",
        sign_in(addr, &username, &password).await
    );
    println!(
        "{}: {} cores, {} clients, {} requests a route",
        db.backend(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load.clients,
        load.requests
    );
    println!(
        "kept: as a visitor gets a page (from memory while nothing it shows has changed); \
         signed in: as the player {username} gets it (a real session); rendered: made whole \
         for each request (a session cookie the server does not know bypasses the kept \
         pages): what one rendering costs; changing: signed in while the league's records \
         change every {} ms, so each change's first request renders the page again (as \
         after a result is entered) and those arriving meanwhile wait for it",
        load.change_every.as_millis()
    );
    println!(
        "{:<52} {:<9} {:>8} {:>9} {:>7} {:>9} {:>9} {:>9} {:>8}  goal",
        "route", "how", "requests", "req/s", "ratio", "p50", "p99", "max", "bytes"
    );
    let mut ceiling = None;
    let mut met = [0; 4];
    for path in paths.iter().map(String::as_str) {
        let passes: Vec<(&str, &str)> = if path == STYLESHEET {
            vec![("static", "")]
        } else {
            vec![
                ("kept", ""),
                ("signed in", signed_in.as_str()),
                ("rendered", RENDERED),
                ("changing", signed_in.as_str()),
            ]
        };
        for (pass, (how, extra)) in passes.into_iter().enumerate() {
            // The league's records change every `change_every` while the
            // page is read: each change drops its kept page (and every
            // view kept under the generation), as a result entered does.
            let changed_at = Arc::new(std::sync::Mutex::new(Vec::new()));
            let changer = (how == "changing").then(|| {
                let db = db.clone();
                let changed_at = changed_at.clone();
                let every = load.change_every;
                tokio::spawn(async move {
                    let mut tick = tokio::time::interval(every);
                    tick.tick().await;
                    loop {
                        tick.tick().await;
                        let tx = db.write(league).await.expect("a write");
                        tx.commit().await.expect("a change");
                        changed_at.lock().unwrap().push(Instant::now());
                    }
                })
            });
            // Warm up: connections, caches, the database's pages.
            run(
                addr,
                path,
                extra,
                load.clients,
                load.requests / 10 + load.clients,
                load.budget / 5,
            )
            .await;
            // Changing: the whole budget, so that every pass sees as many changes.
            let requests = if changer.is_some() {
                usize::MAX
            } else {
                load.requests
            };
            let f = run(addr, path, extra, load.clients, requests, load.budget).await;
            if let Some(changer) = changer {
                changer.abort();
            }
            let changes = changed_at.lock().unwrap().clone();
            let after = after_changes(&f.each, &changes);
            let rate = f.times.requests as f64 / f.elapsed.as_secs_f64();
            let ratio = rate / *ceiling.get_or_insert(rate);
            let (goal_ratio, goal_p99) = match how {
                "kept" => (GOAL_RATIO, GOAL_P99),
                _ if busiest.iter().any(|b| b == path) => (GOAL_RATIO, GOAL_P99_RENDERED),
                _ => (GOAL_RATIO_RENDERED, GOAL_P99_RENDERED),
            };
            let goal = if path == STYLESHEET {
                "(the ceiling)"
            } else if ratio >= goal_ratio
                && f.times.p99 < goal_p99
                && after.as_ref().is_none_or(|(a, _)| a.p99 < goal_p99)
            {
                met[pass] += 1;
                "met"
            } else {
                "MISSED"
            };
            let changed = match (changes.len(), &after) {
                (0, _) => String::new(),
                (n, None) => format!(" ({n} changes)"),
                (n, Some((a, r))) => format!(
                    " ({n} changes; just after one: {} requests, p50 {}, p99 {}, max {}; \
                     the first after each: p50 {}, max {})",
                    a.requests,
                    ms(a.p50),
                    ms(a.p99),
                    ms(a.max),
                    ms(r.p50),
                    ms(r.max)
                ),
            };
            println!(
                "{:<52} {:<9} {:>8} {:>9.0} {:>6.2}x {:>9} {:>9} {:>9} {:>8}  {}{}",
                path,
                how,
                f.times.requests,
                rate,
                ratio,
                ms(f.times.p50),
                ms(f.times.p99),
                ms(f.times.max),
                f.bytes,
                goal,
                changed
            );
        }
    }
    let pages = paths.len() - 1;
    println!(
        "{}: goals met: kept {} of {pages} (0.5x, p99 {} ms); signed in {} of {pages}, \
         rendered {} of {pages}, changing {} of {pages} ({GOAL_RATIO_RENDERED}x, or 0.5x \
         for the home, tables and matches; p99 {} ms)",
        db.backend(),
        met[0],
        GOAL_P99.as_millis(),
        met[1],
        met[2],
        met[3],
        GOAL_P99_RENDERED.as_millis()
    );
    println!();
    server.abort();
}

const STYLESHEET: &str = "/static/style.css";
/// A session cookie no server made: the request is rendered, not answered
/// from the kept pages, and is otherwise a visitor's.
const RENDERED: &str = "Cookie: boneyard=bench-not-a-session\r\n";

fn main() {
    let load = Load {
        clients: env_number("BONEYARD_BENCH_CLIENTS", 32),
        requests: env_number("BONEYARD_BENCH_REQUESTS", 100_000),
        budget: Duration::from_secs(env_number("BONEYARD_BENCH_SECONDS", 15) as u64),
        change_every: Duration::from_millis(env_number("BONEYARD_BENCH_CHANGE_MS", 250) as u64),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let (db, _temp) = sqlite_database().await;
        measure(&db, &load).await;
        db.close().await;
        if let Some(db) = postgres_database().await {
            measure(&db, &load).await;
            db.close().await;
        } else {
            println!(
                "Postgres not measured: set BONEYARD_BENCH_POSTGRES (a database) \
                 or BONEYARD_TEST_POSTGRES (a server)"
            );
        }
    });
}
