//! A league night: the public pages read while every board of the night's
//! matches is being tapped on the score pads, beside the same pages read
//! with nobody tapping.
//!
//! Builds one Fives and Threes league with the demo (two divisions of ten
//! teams, a finished season and a half-played one; matches of 6 singles and
//! 3 pairs boards), in a fresh SQLite database in a temporary directory,
//! and moves one round of its unplayed fixtures (10 matches, 90 boards) to
//! tonight. Each board is a whole board played by the simulator (its own
//! seed) and kept through a score pad link, on its own keep-alive
//! connection: the phone opens the pad (a session and its form token) and
//! sends the board's whole log to the sync address at each tap, as the
//! pad's script does. Before the clock starts every board is brought to the
//! middle of its game in one sync (`BONEYARD_NIGHT_AT`), so that the pages
//! show a night in progress in both phases and the logs sent are of the
//! length a night's are.
//!
//! Meanwhile keep-alive connections without a session (visitors: the pages
//! may come from memory) read in rotation the first division's table, the
//! league's live page, one of the night's matches (each in turn) and the
//! league's home. First a quiet phase (readers only), then a tapping phase:
//! the readers go on and each board gets one tap every 2 s, the boards'
//! first taps spread over those 2 s, so about 45 taps a second in all.
//! Prints for each page its requests a second and p50/p99 in each phase and
//! the ratio tapping/quiet (the goal: 0.8x or better, and p99 under 10 ms
//! while tapping), and for the taps their number, p50/p99 and any reply
//! other than 200 or any conflict or refusal (the goal: p99 under 50 ms,
//! none refused). With each phase, how the cores were spent (this process,
//! server and clients; the Postgres server; anything else): a build running
//! beside the bench spoils its figures, and this shows it.
//!
//! Then the same on Postgres when `BONEYARD_TEST_POSTGRES` holds a server's
//! address: its database `boneyard_bench_night` is dropped and made afresh
//! on each run (and left behind for a look afterwards).
//!
//! `cargo bench --bench night`. Settings (environment):
//! `BONEYARD_NIGHT_MATCHES` (default 10), `BONEYARD_NIGHT_CLIENTS` (reading
//! connections, default 32), `BONEYARD_NIGHT_QUIET` (seconds of the quiet
//! phase, default 15), `BONEYARD_NIGHT_SECONDS` (seconds of the tapping
//! phase, default 25), `BONEYARD_NIGHT_TAP_MS` (between a board's taps,
//! default 2000), `BONEYARD_NIGHT_AT` (percent of each board's taps made
//! before the clock starts, default 50; 0 starts every board at its first
//! tap), `BONEYARD_NIGHT_DB` (`sqlite` or `postgres` for one of them only),
//! `BONEYARD_NIGHT_FOLLOWERS` (followers of the live scores over
//! server-sent events, default 0: a third on the league's stream, the
//! rest on the night's matches' streams in turn, as the live page, the
//! match pages and the pub screens hold them; each event's arrival is timed
//! from its tap's acknowledgement, and the process's memory is read before
//! and after they connect), `BONEYARD_NIGHT_FOLLOW` (`pushed`, the default;
//! `polling`: each follower fetches its page every 5 s instead, as the
//! pages did before the push, a tap counted as seen at the end of the
//! first fetch begun after its acknowledgement; `both`: polling, then
//! pushed, each on a night of its own, in one run), `BONEYARD_NIGHT_RENDERED` (1: the readers send a session cookie the
//! server does not know, so every page is rendered afresh: what the kept
//! pages save).

mod common;
use common::{encode, env_number, slug};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use axum::serve::ListenerExt;
use boneyard::db::{Db, FixtureChange, FixtureStatus, League, now};
use boneyard::demo::{DemoOptions, fill};
use boneyard::league::match_format::{BoardKind, MatchFormat};
use boneyard::league::pad::{Tap, taps_for_board};
use boneyard::rules::pose::first_poser;
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, Game, Ruleset};
use boneyard::web::{AppState, Settings, build_app};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// A response as the bench needs it: the status, the head as sent and
/// the body (empty unless asked for).
struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    /// The first value of header `name` (case-insensitive).
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// One keep-alive connection speaking just enough HTTP/1.1.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Conn {
        let stream = TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Conn {
            stream,
            buf: Vec::with_capacity(64 * 1024),
        }
    }

    /// Sends `request` (a whole request, head and body) and reads the whole
    /// response, keeping its body when `keep` says so.
    async fn send(&mut self, request: &[u8], keep: bool) -> Reply {
        self.stream.write_all(request).await.expect("write request");
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await;
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).into_owned();
        self.buf.drain(..head_end);
        let mut reply = Reply {
            status: head
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .expect("a status line"),
            head,
            body: Vec::new(),
        };
        let length = reply
            .header("content-length")
            .and_then(|v| v.parse::<usize>().ok());
        let chunked = reply
            .header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
        match length {
            Some(n) => {
                while self.buf.len() < n {
                    self.fill().await;
                }
                self.take(n, keep, &mut reply.body);
            }
            None if chunked => self.chunked(keep, &mut reply.body).await,
            None => {}
        }
        reply
    }

    /// Drops the first `n` bytes read, into `body` when `keep`.
    fn take(&mut self, n: usize, keep: bool, body: &mut Vec<u8>) {
        if keep {
            body.extend(self.buf.drain(..n));
        } else {
            self.buf.drain(..n);
        }
    }

    async fn chunked(&mut self, keep: bool, body: &mut Vec<u8>) {
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
            self.take(size, keep, body);
            self.buf.drain(..2);
            if size == 0 {
                return;
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

fn get(path: &str) -> Vec<u8> {
    get_with(path, "")
}

/// A GET with `extra` header lines (each ending `\r\n`).
fn get_with(path: &str, extra: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: bench\r\nUser-Agent: bench\r\n{extra}\r\n").into_bytes()
}

/// A session cookie no server made: the page is rendered afresh, not
/// answered from the kept pages, and is otherwise a visitor's.
const RENDERED: &str = "Cookie: boneyard=bench-not-a-session\r\n";

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// The `q` quantile of sorted times (zero when there are none).
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

/// The machine's CPU time so far (Linux's `/proc`, in clock ticks): busy,
/// in all, this process's own (server and clients alike) and the Postgres
/// server's processes'.
#[derive(Clone, Copy)]
struct Cpu {
    busy: u64,
    total: u64,
    ours: u64,
    postgres: u64,
}

/// A process's name and its user and system time, from its `stat`.
fn process_ticks(stat: &str) -> Option<(&str, u64)> {
    let (head, rest) = stat.rsplit_once(')')?;
    let name = head.split_once('(')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime, the 14th and 15th fields (the 12th and 13th after
    // the name).
    let time = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((name, time))
}

impl Cpu {
    fn now() -> Option<Cpu> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let ticks: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .take(8)
            .map(|v| v.parse().unwrap_or(0))
            .collect();
        // user nice system idle iowait irq softirq steal
        let idle = ticks.get(3)? + ticks.get(4)?;
        let total: u64 = ticks.iter().sum();
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        let ours = process_ticks(&own)?.1;
        let mut postgres = 0;
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            if let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) {
                if let Some(("postgres", time)) = process_ticks(&stat) {
                    postgres += time;
                }
            }
        }
        Some(Cpu {
            busy: total - idle,
            total,
            ours,
            postgres,
        })
    }

    /// How the cores were spent between two samples: this process, the
    /// Postgres server, every other process (a build...), idle.
    fn since(self, b: Cpu) -> String {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        let total = (self.total - b.total).max(1) as f64;
        let share = |ticks: u64| ticks as f64 / total * cores;
        let ours = share(self.ours - b.ours);
        // Backends that ended meanwhile take their time with them.
        let postgres = share(self.postgres.saturating_sub(b.postgres));
        let busy = share(self.busy - b.busy);
        format!(
            "cores used: this process {ours:.2}, postgres {postgres:.2}, \
             other processes {:.2}, idle {:.2}",
            (busy - ours - postgres).max(0.0),
            cores - busy
        )
    }
}

#[derive(Clone, Copy)]
struct Config {
    matches: usize,
    clients: usize,
    quiet: Duration,
    tapping: Duration,
    tap_every: Duration,
    at_percent: usize,
    rendered: bool,
    followers: usize,
    /// How the followers learn of the taps.
    follow: Follow,
}

/// How the followers learn of the taps: by the live events pushed to them
/// (server-sent events, as the pages do now), or by fetching their page
/// every [`POLL_EVERY`] (as the pages did before the push).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Follow {
    Pushed,
    Polling,
}

/// How often a polling follower fetched its page (`static/live.js` before
/// the push: the live page and the match page every 5 s).
const POLL_EVERY: Duration = Duration::from_secs(5);

/// The tap -> follower goal: p99 under a second; a follower's memory under
/// 64 KB.
const GOAL_FOLLOWER_P99: Duration = Duration::from_secs(1);
const GOAL_FOLLOWER_BYTES: usize = 64 * 1024;

/// The process's resident memory, in bytes (Linux).
fn resident() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: usize = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// One follower's stream: the events that came while tapping, each as
/// (board key, revision, when it arrived).
async fn follow(
    addr: SocketAddr,
    path: String,
    phase: Arc<AtomicU8>,
    connected: Arc<tokio::sync::Semaphore>,
) -> Vec<(String, i64, Instant)> {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("write request");
    // As little work per event as a phone's browser would spend on this
    // machine's cores: the bytes are scanned, never copied into text.
    let mut buf = vec![0u8; 4 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let mut seen = Vec::new();
    let mut answered = false;
    loop {
        let n = match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buf)).await
        {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => n,
            Err(_) if phase.load(Ordering::Relaxed) == DONE => break,
            Err(_) => continue,
        };
        let arrived = Instant::now();
        pending.extend_from_slice(&buf[..n]);
        if !answered {
            if find(&pending, b"\r\n\r\n").is_none() {
                continue;
            }
            answered = true;
            assert!(
                pending.starts_with(b"HTTP/1.1 200"),
                "a stream refused: {}",
                String::from_utf8_lossy(&pending)
            );
            connected.add_permits(1);
        }
        let tapping = phase.load(Ordering::Relaxed) == TAPPING;
        // The key and the revision lead each event's data.
        let mut used = 0;
        while let Some(end) = find(&pending[used..], b"\n\n") {
            let block = &pending[used..used + end];
            used += end + 2;
            if !tapping {
                continue;
            }
            let Some(key) =
                after(block, b"\"key\":\"").and_then(|r| r.split(|b| *b == b'"').next())
            else {
                continue;
            };
            let revision = after(block, b"\"revision\":")
                .and_then(|r| r.split(|b| *b == b',').next())
                .and_then(|r| std::str::from_utf8(r).ok()?.parse().ok())
                .unwrap_or(0);
            seen.push((String::from_utf8_lossy(key).into_owned(), revision, arrived));
        }
        pending.drain(..used);
    }
    seen
}

/// A polling follower's fetches: when each began and ended.
type Polls = Vec<(Instant, Instant)>;

/// One polling follower: fetches `path` every [`POLL_EVERY`] (the first
/// after `offset`, so the followers' fetches are spread), keeping when
/// each fetch of the tapping phase began and ended.
async fn poll(
    addr: SocketAddr,
    path: String,
    offset: Duration,
    phase: Arc<AtomicU8>,
    connected: Arc<tokio::sync::Semaphore>,
) -> Polls {
    let mut conn = Conn::open(addr).await;
    let request = get_with(&path, "");
    let mut polls = Vec::new();
    let mut first = true;
    let mut at = Instant::now() + offset;
    loop {
        tokio::time::sleep_until(at).await;
        let now_in = phase.load(Ordering::Relaxed);
        if now_in == DONE {
            break;
        }
        let began = Instant::now();
        let reply = conn.send(&request, false).await;
        assert_eq!(reply.status, 200, "GET {path}");
        if first {
            first = false;
            connected.add_permits(1);
        }
        if now_in == TAPPING {
            polls.push((began, Instant::now()));
        }
        at += POLL_EVERY;
    }
    polls
}

/// What follows the first `marker` in `block`.
fn after<'a>(block: &'a [u8], marker: &[u8]) -> Option<&'a [u8]> {
    find(block, marker).map(|i| &block[i + marker.len()..])
}

/// Reading before the quiet phase starts, not counted: connections, kept
/// pages, the database's caches.
const WARM_UP: Duration = Duration::from_secs(2);

/// Every page at least this share of its own quiet requests a second while
/// tapping, with p99 under [`GOAL_PAGE_P99`]; taps' p99 under
/// [`GOAL_TAP_P99`].
const GOAL_RATIO: f64 = 0.8;
const GOAL_PAGE_P99: Duration = Duration::from_millis(10);
const GOAL_TAP_P99: Duration = Duration::from_millis(50);

/// The pages the visitors read, in their rotation.
const PAGES: [&str; 4] = ["division table", "live", "match", "league home"];

/// One board of tonight: who keeps it (its pad link) and every tap of it.
struct Board {
    fixture: i64,
    number: usize,
    token: String,
    taps: Vec<Tap>,
}

/// What the bench needs of the league it built.
struct Night {
    short: String,
    table: String,
    fixtures: Vec<i64>,
    boards: Vec<Board>,
}

/// Makes the demo league, moves one round of its unplayed fixtures to
/// tonight, plays their boards with the simulator and makes their pad links.
async fn build_night(db: &Db, config: &Config) -> Night {
    // Two divisions, each's last round half of the night's matches.
    let teams = (config.matches.div_ceil(2) * 2).clamp(4, 30);
    let options = DemoOptions {
        leagues: 1,
        teams: teams as u32,
        seasons: 2,
        divisions: Some(2),
        seed: 1,
    };
    let started = std::time::Instant::now();
    let summary = fill(db, &options).await.expect("the demo league");
    let leagues = db.leagues().await.expect("leagues");
    let league: &League = &leagues[0];
    let seasons = db.seasons(league.id).await.expect("seasons");
    let season = seasons.iter().max_by_key(|s| s.id).expect("a season");
    assert_eq!(
        season.format,
        Format::FivesAndThrees,
        "the demo's first league"
    );
    let format = MatchFormat::parse(season.format, &season.match_format).expect("its format");
    let divisions = db.divisions(league.id, season.id).await.expect("divisions");
    let mut tonight = Vec::new();
    for division in &divisions {
        let fixtures = db
            .division_fixtures(league.id, division.id)
            .await
            .expect("fixtures");
        let last = fixtures.iter().map(|f| f.round).max().unwrap_or(0);
        for f in fixtures {
            if f.round != last || f.status != FixtureStatus::Scheduled {
                continue;
            }
            let result = db.result(league.id, f.id).await.expect("a result");
            let pads = db.pad_boards(league.id, f.id).await.expect("pads");
            if result.is_none() && pads.is_empty() {
                tonight.push(f);
            }
        }
    }
    tonight.truncate(config.matches);
    assert_eq!(
        tonight.len(),
        config.matches,
        "the demo's last rounds have too few unplayed fixtures"
    );
    // Kicked off three quarters of an hour ago, or at midnight if later:
    // today in the league's time zone either way.
    let (midnight, _) = league.time_zone.today(now());
    let kick_off = (now() - chrono::Duration::minutes(45)).max(midnight);
    let ruleset = Ruleset::new(season.format);
    let mut boards = Vec::new();
    for (m, fixture) in tonight.iter().enumerate() {
        let change = FixtureChange {
            starts_at: Some(kick_off),
            ..FixtureChange::from(fixture)
        };
        boneyard::app::fixtures::change(db, league.id, fixture.id, &change, None)
            .await
            .expect("move the fixture to tonight");
        let roster = |team| async move {
            db.team_players(league.id, season.id, team)
                .await
                .expect("a roster")
                .into_iter()
                .map(|p| (p.id.0, p.name))
                .collect::<Vec<_>>()
        };
        let home = roster(fixture.home_team_id).await;
        let away = roster(fixture.away_team_id).await;
        let (mut singles, mut pairs) = (0, 0);
        for (b, spec) in format.boards.iter().enumerate() {
            // The k-th singles board the teams' k-th players, the j-th
            // pairs board their players 2j and 2j + 1.
            let seats = match spec.kind {
                BoardKind::Singles => {
                    singles += 1;
                    vec![singles - 1]
                }
                BoardKind::Pairs => {
                    pairs += 1;
                    vec![2 * pairs - 2, 2 * pairs - 1]
                }
            };
            let pick = |team: &[(i64, String)]| -> Vec<(i64, String)> {
                seats
                    .iter()
                    .map(|&i| team[i % team.len()].clone())
                    .collect()
            };
            let (h, a) = (pick(&home), pick(&away));
            let players: Vec<String> = h
                .iter()
                .zip(&a)
                .flat_map(|(x, y)| [x.1.clone(), y.1.clone()])
                .collect();
            let sides = vec![
                h.iter().map(|p| p.1.clone()).collect(),
                a.iter().map(|p| p.1.clone()).collect(),
            ];
            let games = simulate_board(
                &ruleset,
                &players,
                &sides,
                spec.best_of,
                &mut Rng::new(1000 + (m * format.boards.len() + b) as u64),
                &Style::clean(),
            );
            let ids = |side: &[(i64, String)]| side.iter().map(|p| p.0).collect::<Vec<_>>();
            let mut taps = taps_for_board(&ids(&h), &ids(&a), &games);
            // Who poses first is tapped, as on the pad, not the draw.
            let game = Game::from_record(&games[0]).expect("a simulated game");
            taps[1] = Tap::Pose {
                seat: first_poser(&game),
            };
            let token = format!("night{:06}board{:02}{:016}", fixture.id.0, b + 1, m);
            db.create_pad_link(
                league.id,
                fixture.id,
                b as i64 + 1,
                &token,
                now() + chrono::Duration::days(1),
                None,
            )
            .await
            .expect("a pad link");
            boards.push(Board {
                fixture: fixture.id.0,
                number: b + 1,
                token,
                taps,
            });
        }
    }
    let division = &divisions[0];
    let short = encode(&league.short_name);
    let lengths: Vec<usize> = boards.iter().map(|b| b.taps.len()).collect();
    println!(
        "{}: built in {:.1} s: one league ({} teams, {} fixtures, {} results, {} hands); \
         tonight {} matches of {} boards = {} boards, {}..{} taps each (mean {})",
        db.backend(),
        started.elapsed().as_secs_f64(),
        summary.teams,
        summary.fixtures,
        summary.results,
        summary.hands,
        tonight.len(),
        format.boards.len(),
        boards.len(),
        lengths.iter().min().unwrap_or(&0),
        lengths.iter().max().unwrap_or(&0),
        lengths.iter().sum::<usize>() / lengths.len().max(1),
    );
    Night {
        table: format!(
            "/leagues/{short}/{}/{}",
            slug(&season.name),
            slug(&division.name)
        ),
        short,
        fixtures: tonight.iter().map(|f| f.id.0).collect(),
        boards,
    }
}

/// A phone keeping one board: its connection, session and form token.
struct Phone {
    conn: Conn,
    cookie: String,
    csrf: String,
    sync: String,
}

impl Phone {
    /// Opens the board's pad through its link, as a phone does.
    async fn open(addr: SocketAddr, short: &str, board: &Board) -> Phone {
        let mut conn = Conn::open(addr).await;
        let base = format!(
            "/leagues/{short}/matches/{}/pad/{}",
            board.fixture, board.number
        );
        let reply = conn
            .send(&get(&format!("{base}?key={}", board.token)), true)
            .await;
        assert_eq!(reply.status, 200, "the pad of {base}");
        let cookie = reply
            .header("set-cookie")
            .and_then(|c| c.split(';').next())
            .expect("a session cookie")
            .to_owned();
        let body = String::from_utf8_lossy(&reply.body);
        let marker = "name=\"csrf\" value=\"";
        let start = body.find(marker).expect("the form token") + marker.len();
        let csrf = body[start..].split('"').next().unwrap().to_owned();
        Phone {
            conn,
            cookie,
            csrf,
            sync: format!("{base}/sync?key={}", board.token),
        }
    }

    /// Sends the board's log so far; returns the reply and how long it took.
    async fn sync(&mut self, taps: &[Tap]) -> (Reply, Duration) {
        let body = serde_json::json!({ "taps": taps }).to_string();
        let request = format!(
            "POST {} HTTP/1.1\r\nHost: bench\r\nUser-Agent: bench\r\n\
             Content-Type: application/json\r\nCookie: {}\r\nX-CSRF-Token: {}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.sync,
            self.cookie,
            self.csrf,
            body.len()
        );
        let started = Instant::now();
        let reply = self.conn.send(request.as_bytes(), true).await;
        (reply, started.elapsed())
    }
}

/// What one sync's reply said.
#[derive(Default)]
struct TapOutcome {
    not_ok: usize,
    conflicts: usize,
    refused: usize,
    /// Replies holding another number of taps than were sent.
    short: usize,
    first_problem: Option<String>,
}

impl TapOutcome {
    fn check(&mut self, reply: &Reply, sent: usize) {
        let text = String::from_utf8_lossy(&reply.body);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let conflict = !json["conflict"].is_null();
        let refused = !json["refused"].is_null();
        let held = json["taps"].as_array().map_or(0, Vec::len);
        self.not_ok += usize::from(reply.status != 200);
        self.conflicts += usize::from(conflict);
        self.refused += usize::from(refused);
        self.short += usize::from(held != sent);
        if (reply.status != 200 || conflict || refused || held != sent)
            && self.first_problem.is_none()
        {
            let text: String = text.chars().take(300).collect();
            self.first_problem = Some(format!("{} with {sent} taps sent: {text}", reply.status));
        }
    }

    fn add(&mut self, other: TapOutcome) {
        self.not_ok += other.not_ok;
        self.conflicts += other.conflicts;
        self.refused += other.refused;
        self.short += other.short;
        if self.first_problem.is_none() {
            self.first_problem = other.first_problem;
        }
    }
}

/// Phases, as the readers see them.
const WARMING: u8 = 0;
const QUIET: u8 = 1;
const TAPPING: u8 = 2;
const DONE: u8 = 3;

/// One reading connection's requests: (phase, page, time, status 200).
type Reads = Vec<(u8, u8, Duration, bool)>;

/// Serves the app over `db`, builds the night and measures it.
async fn measure(db: &Db, config: &Config) {
    let night = build_night(db, config).await;
    let state = AppState::new(db.clone());
    // The followers all come from this one address.
    state
        .hub()
        .set_limits(config.followers + 64, config.followers + 64);
    let app = build_app(state, Settings::default())
        .await
        .expect("the app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listen");
    let addr = listener.local_addr().expect("an address");
    let listener = listener.tap_io(boneyard::web::no_delay);
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .expect("serve");
    });

    // Every phone opens its pad, and brings its board to where the night
    // is when the clock starts.
    let mut phones = Vec::new();
    let mut starts = Vec::new();
    let mut setup = TapOutcome::default();
    let needed = (config.tapping.as_millis() / config.tap_every.as_millis().max(1)) as usize + 2;
    for board in &night.boards {
        let mut phone = Phone::open(addr, &night.short, board).await;
        let start = (board.taps.len() * config.at_percent / 100)
            .min(board.taps.len().saturating_sub(needed))
            .max(usize::from(config.at_percent > 0));
        if start > 0 {
            let (reply, _) = phone.sync(&board.taps[..start]).await;
            setup.check(&reply, start);
        }
        phones.push(phone);
        starts.push(start);
    }
    if let Some(problem) = &setup.first_problem {
        println!("  PROBLEM bringing the boards to the middle of the night: {problem}");
    }

    // The visitors' pages: the table, live, the night's matches in turn,
    // the league's home.
    let base = format!("/leagues/{}", night.short);
    let extra = if config.rendered { RENDERED } else { "" };
    let get = |path: &str| get_with(path, extra);
    let table = get(&night.table);
    let live = get(&format!("{base}/live"));
    let matches: Vec<Vec<u8>> = night
        .fixtures
        .iter()
        .map(|f| get(&format!("{base}/matches/{f}")))
        .collect();
    let home = get(&base);
    let requests = Arc::new((table, live, matches, home));
    println!(
        "{}: {} cores; {} reading connections, {}, reading in turn {}, {base}/live, \
         {base}/matches/{{each of the night's {}}}, {base}; {} boards each tapped every {} ms \
         from {}% of its taps",
        db.backend(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        config.clients,
        if config.rendered {
            "each page rendered afresh (BONEYARD_NIGHT_RENDERED: an unknown session cookie)"
        } else {
            "no session (pages may come from memory)"
        },
        night.table,
        night.fixtures.len(),
        phones.len(),
        config.tap_every.as_millis(),
        config.at_percent,
    );

    let phase = Arc::new(AtomicU8::new(WARMING));
    // The followers, connected before the readers start.
    let before_followers = resident();
    let connected = Arc::new(tokio::sync::Semaphore::new(0));
    let mut followers = Vec::new();
    let mut pollers = Vec::new();
    for i in 0..config.followers {
        // A third on the league's live page, the rest on the matches' pages.
        let fixture = (i % 3 != 0).then(|| night.fixtures[i % night.fixtures.len()]);
        let page = match fixture {
            None => format!("{base}/live"),
            Some(f) => format!("{base}/matches/{f}"),
        };
        match config.follow {
            Follow::Pushed => followers.push(tokio::spawn(follow(
                addr,
                format!("{page}/events"),
                phase.clone(),
                connected.clone(),
            ))),
            Follow::Polling => {
                let offset = POLL_EVERY * i as u32 / config.followers as u32;
                let polls =
                    tokio::spawn(poll(addr, page, offset, phase.clone(), connected.clone()));
                pollers.push((fixture, polls));
            }
        }
    }
    if config.followers > 0 {
        let all = u32::try_from(config.followers).unwrap_or(u32::MAX);
        let _ = connected
            .acquire_many(all)
            .await
            .expect("the followers connect");
        let per = resident()
            .zip(before_followers)
            .map_or(0, |(after, before)| {
                after.saturating_sub(before) / config.followers
            });
        println!(
            "{} followers {} (a third on the league's live page, the rest on the matches'): \
             {:.1} KB of this process's memory each, server and client sides together  \
             goal (< {} KB): {}",
            config.followers,
            match config.follow {
                Follow::Pushed => "connected to the live events",
                Follow::Polling => "polling their page every 5 s",
            },
            per as f64 / 1024.0,
            GOAL_FOLLOWER_BYTES / 1024,
            if per < GOAL_FOLLOWER_BYTES {
                "met"
            } else {
                "MISSED"
            }
        );
    }
    let mut readers = Vec::new();
    for c in 0..config.clients {
        let (phase, requests) = (phase.clone(), requests.clone());
        readers.push(tokio::spawn(async move {
            let mut conn = Conn::open(addr).await;
            let mut reads: Reads = Vec::with_capacity(1 << 16);
            let mut i = c;
            loop {
                let now_in = phase.load(Ordering::Relaxed);
                if now_in == DONE {
                    break;
                }
                let (table, live, matches, home) = &*requests;
                let page = i % 4;
                let request = match page {
                    0 => table,
                    1 => live,
                    2 => &matches[(i / 4) % matches.len()],
                    _ => home,
                };
                let started = Instant::now();
                let reply = conn.send(request, false).await;
                reads.push((now_in, page as u8, started.elapsed(), reply.status == 200));
                i += 1;
            }
            reads
        }));
    }
    tokio::time::sleep(WARM_UP).await;
    phase.store(QUIET, Ordering::Relaxed);
    let quiet_started = Instant::now();
    let quiet_cpu = Cpu::now();
    tokio::time::sleep(config.quiet).await;

    phase.store(TAPPING, Ordering::Relaxed);
    let tapping_started = Instant::now();
    let tapping_cpu = Cpu::now();
    let deadline = tapping_started + config.tapping;
    let count = phones.len();
    let mut tappers = Vec::new();
    for (k, (mut phone, start)) in phones.into_iter().zip(starts).enumerate() {
        let taps = night.boards[k].taps.clone();
        let key = format!("{}-{}", night.boards[k].fixture, night.boards[k].number);
        let every = config.tap_every;
        tappers.push(tokio::spawn(async move {
            let mut acks = Vec::new();
            let mut times = Vec::new();
            let mut outcome = TapOutcome::default();
            let mut late = Duration::ZERO;
            let mut at = tapping_started + every * k as u32 / count as u32;
            let mut sent = start;
            while at < deadline && sent < taps.len() {
                tokio::time::sleep_until(at).await;
                late = late.max(at.elapsed());
                sent += 1;
                let (reply, took) = phone.sync(&taps[..sent]).await;
                let acknowledged = Instant::now();
                let revision = serde_json::from_slice::<serde_json::Value>(&reply.body)
                    .ok()
                    .and_then(|v| v["revision"].as_i64());
                if let Some(revision) = revision {
                    acks.push(((key.clone(), revision), acknowledged));
                }
                times.push(took);
                outcome.check(&reply, sent);
                at += every;
            }
            (times, outcome, late, sent == taps.len(), acks)
        }));
    }
    let mut tap_times = Vec::new();
    let mut taps = TapOutcome::default();
    let (mut late, mut finished) = (Duration::ZERO, 0);
    let mut acks: std::collections::HashMap<(String, i64), Instant> = Default::default();
    for t in tappers {
        let (mut times, outcome, l, done, a) = t.await.expect("a phone");
        acks.extend(a);
        tap_times.append(&mut times);
        taps.add(outcome);
        late = late.max(l);
        finished += usize::from(done);
    }
    let tapping_took = tapping_started.elapsed();
    let done_cpu = Cpu::now();
    phase.store(DONE, Ordering::Relaxed);
    let quiet_took = tapping_started - quiet_started;
    // Each event's arrival at each follower, from its tap's acknowledgement
    // (an event may come before the phone has its reply: 0).
    let mut delivered = Vec::new();
    let mut unmatched = 0usize;
    for f in followers {
        for (key, revision, arrived) in f.await.expect("a follower") {
            match acks.get(&(key, revision)) {
                Some(acked) => delivered.push(arrived.saturating_duration_since(*acked)),
                None => unmatched += 1,
            }
        }
    }
    // A polling follower sees a tap with its first fetch begun after the
    // tap was acknowledged (the page reads the generation as it is asked
    // for): from the acknowledgement to that fetch's end. Each tap's key
    // leads with its fixture.
    let mut polled: Vec<(Option<i64>, Polls)> = Vec::new();
    for (fixture, polls) in pollers {
        polled.push((fixture, polls.await.expect("a polling follower")));
    }
    for ((key, _), acked) in &acks {
        let fixture: Option<i64> = key.split('-').next().and_then(|f| f.parse().ok());
        for (follows, polls) in &polled {
            if follows.is_some() && *follows != fixture {
                continue;
            }
            let next = polls.partition_point(|(began, _)| began < acked);
            match polls.get(next) {
                Some((_, ended)) => delivered.push(ended.saturating_duration_since(*acked)),
                None => unmatched += 1,
            }
        }
    }
    delivered.sort();

    // (phase, page) -> times; and requests other than 200.
    let mut times: BTreeMap<(u8, u8), Vec<Duration>> = BTreeMap::new();
    let mut failed = [0usize; 4];
    for r in readers {
        for (p, page, took, ok) in r.await.expect("a reader") {
            if p == QUIET || p == TAPPING {
                times.entry((p, page)).or_default().push(took);
                failed[page as usize] += usize::from(!ok);
            }
        }
    }
    server.abort();

    let cpu = |from: Option<Cpu>, to: Option<Cpu>| match (from, to) {
        (Some(from), Some(to)) => to.since(from),
        _ => "CPU not known".into(),
    };
    println!(
        "quiet {:.1} s ({}); tapping {:.1} s, the last reply included ({})",
        quiet_took.as_secs_f64(),
        cpu(quiet_cpu, tapping_cpu),
        tapping_took.as_secs_f64(),
        cpu(tapping_cpu, done_cpu)
    );
    println!(
        "{:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7}  goal (>= {GOAL_RATIO}x, p99 < {} ms)",
        "page",
        "quiet r/s",
        "p50",
        "p99",
        "tap r/s",
        "p50",
        "p99",
        "ratio",
        GOAL_PAGE_P99.as_millis()
    );
    let mut met = 0;
    let (mut all_quiet, mut all_tapping) = (0, 0);
    for (page, name) in PAGES.iter().enumerate() {
        let mut figures = |p: u8, took: Duration| {
            let mut t = times.remove(&(p, page as u8)).unwrap_or_default();
            t.sort();
            let rate = t.len() as f64 / took.as_secs_f64();
            (t.len(), rate, quantile(&t, 0.5), quantile(&t, 0.99))
        };
        let (qn, q_rate, q50, q99) = figures(QUIET, quiet_took);
        let (tn, t_rate, t50, t99) = figures(TAPPING, tapping_took);
        all_quiet += qn;
        all_tapping += tn;
        let ratio = t_rate / q_rate.max(f64::MIN_POSITIVE);
        let goal = if ratio >= GOAL_RATIO && t99 < GOAL_PAGE_P99 && failed[page] == 0 {
            met += 1;
            "met"
        } else {
            "MISSED"
        };
        let failures = if failed[page] > 0 {
            format!(" ({} replies not 200)", failed[page])
        } else {
            String::new()
        };
        println!(
            "{:<15} {:>9.0} {:>9} {:>9} {:>9.0} {:>9} {:>9} {:>6.2}x  {goal}{failures}",
            name,
            q_rate,
            ms(q50),
            ms(q99),
            t_rate,
            ms(t50),
            ms(t99),
            ratio
        );
    }
    println!(
        "{:<15} {:>9.0} {:>9} {:>9} {:>9.0}",
        "all pages",
        all_quiet as f64 / quiet_took.as_secs_f64(),
        "",
        "",
        all_tapping as f64 / tapping_took.as_secs_f64()
    );
    tap_times.sort();
    let tap_goal = if quantile(&tap_times, 0.99) < GOAL_TAP_P99
        && taps.not_ok + taps.conflicts + taps.refused + taps.short == 0
    {
        "met"
    } else {
        "MISSED"
    };
    println!(
        "taps: {} ({:.1}/s) from {} boards ({} finished their board), p50 {}, p99 {}, max {}, \
         sent at most {} late; {} replies not 200, {} conflicts, {} refused, {} not holding \
         every tap sent  goal (p99 < {} ms, none refused): {tap_goal}",
        tap_times.len(),
        tap_times.len() as f64 / tapping_took.as_secs_f64(),
        count,
        finished,
        ms(quantile(&tap_times, 0.5)),
        ms(quantile(&tap_times, 0.99)),
        ms(tap_times.last().copied().unwrap_or_default()),
        ms(late),
        taps.not_ok,
        taps.conflicts,
        taps.refused,
        taps.short,
        GOAL_TAP_P99.as_millis()
    );
    if let Some(problem) = &taps.first_problem {
        println!("  the first: {problem}");
    }
    if config.followers > 0 {
        let goal = if !delivered.is_empty() && quantile(&delivered, 0.99) < GOAL_FOLLOWER_P99 {
            "met"
        } else {
            "MISSED"
        };
        println!(
            "tap -> follower ({}): {} delivered ({unmatched} not matched), p50 {}, \
             p99 {}, max {}  goal (p99 < {} ms): {goal}",
            match config.follow {
                Follow::Pushed => "pushed: events",
                Follow::Polling => "polling: taps seen by a follower's next fetch",
            },
            delivered.len(),
            ms(quantile(&delivered, 0.5)),
            ms(quantile(&delivered, 0.99)),
            ms(delivered.last().copied().unwrap_or_default()),
            GOAL_FOLLOWER_P99.as_millis()
        );
    }
    println!(
        "{}: {met} of {} pages at {GOAL_RATIO}x their quiet rate or better with p99 under {} ms \
         while tapping; taps {tap_goal}",
        db.backend(),
        PAGES.len(),
        GOAL_PAGE_P99.as_millis()
    );
    println!();
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The bench's own database on the test server, made afresh.
const NIGHT_DATABASE: &str = "boneyard_bench_night";

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

/// A fresh Postgres database on the test server, if one is given.
async fn postgres_database() -> Option<Db> {
    let server = std::env::var("BONEYARD_TEST_POSTGRES").ok()?;
    let admin = sqlx::PgPool::connect(&server)
        .await
        .expect("connect to BONEYARD_TEST_POSTGRES");
    for sql in [
        format!("DROP DATABASE IF EXISTS {NIGHT_DATABASE} WITH (FORCE)"),
        format!("CREATE DATABASE {NIGHT_DATABASE}"),
    ] {
        sqlx::query(&sql)
            .execute(&admin)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    admin.close().await;
    Some(
        Db::connect(&with_database(&server, NIGHT_DATABASE))
            .await
            .expect("open Postgres"),
    )
}

fn main() {
    let seconds = |name, default| Duration::from_secs(env_number(name, default) as u64);
    let config = Config {
        matches: env_number("BONEYARD_NIGHT_MATCHES", 10).max(1),
        clients: env_number("BONEYARD_NIGHT_CLIENTS", 32).max(1),
        quiet: seconds("BONEYARD_NIGHT_QUIET", 15),
        tapping: seconds("BONEYARD_NIGHT_SECONDS", 25),
        tap_every: Duration::from_millis(env_number("BONEYARD_NIGHT_TAP_MS", 2000).max(1) as u64),
        at_percent: env_number("BONEYARD_NIGHT_AT", 50).min(100),
        rendered: env_number("BONEYARD_NIGHT_RENDERED", 0) != 0,
        followers: env_number("BONEYARD_NIGHT_FOLLOWERS", 0),
        follow: Follow::Pushed,
    };
    // BONEYARD_NIGHT_FOLLOW: `pushed` (the default), `polling`, or `both`
    // (polling first, then pushed, each on a night of its own).
    let follows = match std::env::var("BONEYARD_NIGHT_FOLLOW").as_deref() {
        Ok("polling") => vec![Follow::Polling],
        Ok("both") => vec![Follow::Polling, Follow::Pushed],
        _ => vec![Follow::Pushed],
    };
    let only = std::env::var("BONEYARD_NIGHT_DB").unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        for follow in follows {
            let config = Config { follow, ..config };
            if config.followers > 0 {
                println!("followers: {follow:?}");
            }
            night(&only, &config).await;
        }
    });
}

/// The night on SQLite, then on Postgres (`only`: one of them).
async fn night(only: &str, config: &Config) {
    if only != "postgres" {
        let dir =
            TempDir(std::env::temp_dir().join(format!("boneyard-night-{}", std::process::id())));
        std::fs::create_dir_all(&dir.0).expect("a temporary directory");
        let db = Db::connect(&format!("sqlite://{}", dir.0.join("night.db").display()))
            .await
            .expect("open the database");
        measure(&db, config).await;
        db.close().await;
    }
    if only != "sqlite" {
        match postgres_database().await {
            Some(db) => {
                measure(&db, config).await;
                db.close().await;
            }
            None => println!("Postgres not measured: set BONEYARD_TEST_POSTGRES (a server)"),
        }
    }
}
