//! A captain's match night on a 390 px phone, counting the taps: from
//! signing in on match day, tonight's pads in one tap; each board's end
//! offering the next board and the match with its score; the submission in
//! two taps from the last board's end; the other captain confirming in two
//! taps from their home page; the submitter never offered to confirm. And
//! the pad on a signal that takes connections and never answers (a proxy
//! in the test, not a stopped server): reloaded, and the browser
//! restarted, it opens from the phone's copy within 5 s with every tap.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use boneyard::addresses::at_short;
use boneyard::db::Db;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::Tap;
use boneyard::rules::{Format, score_record};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

use super::pad::{PASSWORD, Setup, board_taps, expected, setup, tap};
use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};
use crate::harness::LeagueBuilder;

/// Taps, counted as the captain makes them: each link followed and each
/// button pressed that leads to another page.
struct Taps<'a> {
    b: &'a Browser,
    count: u32,
}

impl Taps<'_> {
    async fn mark(&self) -> Result<(), String> {
        self.b
            .client
            .execute("window.__boneyard_old = true;", vec![])
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    async fn arrived(&self) -> Result<(), String> {
        let start = Instant::now();
        loop {
            let v = self
                .b
                .client
                .execute(
                    "return !window.__boneyard_old && document.readyState === 'complete';",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            if v.as_bool() == Some(true) {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err("the next page did not come".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Taps the link or button named `text` in `main`, and waits for the
    /// page it leads to.
    async fn tap(&mut self, text: &str) -> Result<(), String> {
        self.mark().await?;
        self.b.click_named("main", text).await?;
        self.arrived().await?;
        self.count += 1;
        Ok(())
    }
}

/// The first control in `main`, by its text: what the page starts with.
async fn first_control(b: &Browser) -> Result<String, String> {
    let v = b
        .client
        .execute(
            "const c = document.querySelector('main a.button, main button'); \
             return c ? c.textContent.trim() : '';",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// Leaves a screenshot for a person to look at, when asked to.
async fn shot(b: &Browser, name: &str) {
    if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
        b.screenshot(name).await;
    }
}

/// The page at the phone's width and at a desk's, when asked to.
async fn shots(b: &Browser, name: &str) -> Result<(), String> {
    if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_none() {
        return Ok(());
    }
    b.screenshot(name).await;
    let size = |(w, h): (u32, u32)| b.client.set_window_size(w, h);
    size(DESKTOP).await.map_err(|e| e.to_string())?;
    b.screenshot(&format!("{name}-desktop")).await;
    size(PHONE).await.map_err(|e| e.to_string())
}

/// The pad's league with its match tonight: two singles boards, one game
/// each.
async fn tonights_setup(address: &str) -> Setup {
    let db = Db::connect(address).await.unwrap();
    let built = LeagueBuilder::new("pad")
        .boards(MatchFormat::with_boards(2, 0, 1))
        .players(6)
        .starting_at(crate::web::night::tonight())
        .build(&db)
        .await;
    db.close().await;
    let roster = |t: usize| -> Vec<(i64, String)> {
        built.teams[t]
            .players
            .iter()
            .map(|(id, name)| (id.0, name.clone()))
            .collect()
    };
    Setup {
        short: built.short.clone(),
        fixture: built.fixtures[0],
        format: built.format.clone(),
        home: roster(0),
        away: roster(1),
        rules: Format::FivesAndThrees,
        home_captain: built.teams[0].captain.clone(),
        away_captain: built.teams[1].captain.clone(),
        secretary: built.secretary.clone(),
    }
}

/// Taps a whole board on its pad, as the captain would.
async fn play(
    b: &Browser,
    games: &[boneyard::rules::GameRecord],
    taps: &[Tap],
) -> Result<(), String> {
    let names = games[0].players.clone();
    for t in taps {
        tap(b, &names, t).await?;
    }
    b.wait_text("[data-bind=verdict]", "won the board").await?;
    b.wait_text("#pad-sync", "Saved on the server").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_captains_match_night_takes_the_fewest_taps() {
    let name = "a_captains_match_night_takes_the_fewest_taps";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("night");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = tonights_setup(&address).await;
    let server = Server::start(&address);
    let boards: Vec<_> = (0..2).map(|i| board_taps(&s, i, 31 + i as u64)).collect();
    // The boards each side won and the points, as the engine scores the
    // games.
    let mut won = [0u32, 0];
    for (games, _) in &boards {
        won[score_record(&games[0]).unwrap().winner.unwrap()] += 1;
    }
    let points = s.format.match_points(won[0], won[1]);
    // Two error pages to look at: a match the league does not have, and a
    // captain at the secretary's console.
    let missing = at_short(&s.short)
        .match_page(boneyard::db::FixtureId(9999))
        .history();
    let console = at_short(&s.short).console().to_string();
    let (server, s, boards, missing, console) = (&server, &s, &boards, &missing, &console);
    run(name, PHONE, |b| async move {
        let outcome = async {
            let mut u = Taps { b: &b, count: 0 };
            // Signing in on match day lands on the home page, which starts
            // with tonight's match and its pads.
            b.sign_in(server, &s.home_captain, PASSWORD).await?;
            b.wait_text("main", "Tonight, 19:30").await?;
            let first = first_control(&b).await?;
            if first != "Open the score pads" {
                return Err(format!("the home page starts with `{first}`"));
            }
            shots(&b, "night-1-home-tonight").await?;
            u.tap("Open the score pads").await?;
            b.wait_text("h1", "Score pads: Crown v Anchor").await?;
            if u.count != 1 {
                return Err(format!("tonight's pads took {} taps", u.count));
            }
            shots(&b, "night-2-pads").await?;

            // Board 1, then its end: the next board and the match, with the
            // match so far.
            u.tap("Open board 1's pad").await?;
            play(&b, &boards[0].0, &boards[0].1).await?;
            let one = usize::from(score_record(&boards[0].0[0]).unwrap().winner == Some(1));
            let so_far = if one == 0 {
                "Crown 1–0 Anchor"
            } else {
                "Crown 0–1 Anchor"
            };
            b.wait_text("section[data-phase=over]", "Board 1 is over")
                .await?;
            b.wait_text("section[data-phase=over]", so_far).await?;
            b.wait_text("section[data-phase=over]", "1 board to play")
                .await?;
            shots(&b, "night-3-board-over").await?;
            u.tap("Next board: board 2").await?;
            b.wait_text("h1", "Board 2").await?;
            play(&b, &boards[1].0, &boards[1].1).await?;
            let score = format!("Crown {}–{} Anchor", won[0], won[1]);
            b.wait_text("section[data-phase=over]", &score).await?;
            b.wait_text("section[data-phase=over]", "every board is decided")
                .await?;
            shots(&b, "night-4-last-board-over").await?;

            // From the last board's end: the review, then the submission.
            let from = u.count;
            u.tap("Review and submit the match").await?;
            b.wait_text("main", &format!("{}–{}", won[0], won[1]))
                .await?;
            b.wait_text(
                "main",
                &format!("Points: Crown {}, Anchor {}.", points.0, points.1),
            )
            .await?;
            shots(&b, "night-5-review").await?;
            u.tap("Submit the result").await?;
            b.wait_text("main", "Saved: the result from the score pads")
                .await?;
            let submission = u.count - from;
            if submission > 2 {
                return Err(format!("the submission took {submission} taps"));
            }
            // The submitter is told who confirms, and never offered to.
            b.wait_text("#waiting", "Waiting for the other captain (Anchor)")
                .await?;
            shots(&b, "night-6-submitted").await?;
            if b.count("main form[action$='/confirm']").await? != 0 {
                return Err("the submitter is offered to confirm their own result".into());
            }
            b.goto(&server.url("/")).await?;
            b.wait_text("main", "waiting for the other captain (Anchor)")
                .await?;
            if b.text("main").await?.contains("Confirm or dispute") {
                return Err("the submitter's home page offers to confirm".into());
            }
            shots(&b, "night-7-submitter-home").await?;

            // The other captain: the home page starts with it; two taps.
            b.sign_out().await?;
            b.sign_in(server, &s.away_captain, PASSWORD).await?;
            let first = first_control(&b).await?;
            if first != "Confirm or dispute" {
                return Err(format!(
                    "the other captain's home page starts with `{first}`"
                ));
            }
            shots(&b, "night-8-other-home").await?;
            let from = u.count;
            u.tap("Confirm or dispute").await?;
            shots(&b, "night-9-confirm").await?;
            u.tap("Confirm version 1").await?;
            b.wait_text("main", "Confirmed version 1").await?;
            let confirming = u.count - from;
            if confirming > 2 {
                return Err(format!("confirming took {confirming} taps"));
            }
            shots(&b, "night-10-confirmed").await?;
            // Error pages, in the frame of the captain signed in.
            b.goto(&server.url(console)).await?;
            shots(&b, "night-11-not-allowed").await?;
            b.goto(&server.url(missing)).await?;
            shots(&b, "night-12-not-found").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}

/// A pub's weak signal between the phone and the server: it passes
/// everything through until it hangs; then it takes every connection and
/// every request and never answers (a stopped server refuses at once, which
/// a browser notices; this it does not).
struct Signal {
    port: u16,
    hang: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

impl Signal {
    async fn start(server_port: u16) -> Signal {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let hang = Arc::new(AtomicBool::new(false));
        let hanging = hang.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, server_port, hanging.clone()));
            }
        });
        Signal { port, hang, task }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hang(&self, hang: bool) {
        self.hang.store(hang, Ordering::SeqCst);
    }
}

impl Drop for Signal {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One connection through the signal.
async fn relay(client: TcpStream, server_port: u16, hang: Arc<AtomicBool>) {
    if hang.load(Ordering::SeqCst) {
        let (from, _to) = client.into_split();
        swallow(from).await;
        return;
    }
    let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)).await else {
        return;
    };
    let (client_in, client_out) = client.into_split();
    let (server_in, server_out) = server.into_split();
    tokio::join!(
        pipe(client_in, server_out, hang.clone()),
        pipe(server_in, client_out, hang)
    );
}

/// Copies `from` to `to` until either closes; while the signal hangs what
/// comes is read and dropped, so a connection already open goes silent too.
async fn pipe(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, hang: Arc<AtomicBool>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if hang.load(Ordering::SeqCst) {
            continue;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// Reads a connection's requests and never answers them.
async fn swallow(mut from: OwnedReadHalf) {
    let mut buf = vec![0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 {
            break;
        }
    }
}

/// Signs in at `signal`'s address, as [`Browser::sign_in`] does at the
/// server's.
async fn sign_in_at(b: &Browser, signal: &Signal, user: &str) -> Result<(), String> {
    b.goto(&signal.url("/sign-in")).await?;
    b.fill("input[name=username]", user).await?;
    b.fill("input[name=password]", PASSWORD).await?;
    b.click("form[action='/sign-in'] button[type=submit]")
        .await?;
    b.wait_text("header.site", "Sign out").await
}

/// A page load given up after 30 s, so a pad that never opens fails the
/// test rather than waiting the browser's five minutes.
async fn patient(b: &Browser) -> Result<(), String> {
    b.client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            None,
            Some(Duration::from_secs(30)),
            None,
        ))
        .await
        .map_err(|e| e.to_string())
}

/// What the pad shows as the two sides' totals.
async fn totals(b: &Browser) -> Result<[u32; 2], String> {
    let read = |t: String| {
        t.trim()
            .parse::<u32>()
            .map_err(|e| format!("total `{t}`: {e}"))
    };
    Ok([
        read(b.text("[data-bind=total0]").await?)?,
        read(b.text("[data-bind=total1]").await?)?,
    ])
}

/// Waits, from `start`, until the pad is shown with `kept` taps kept on
/// the phone and its sync line says it opens without signal; the time it
/// took.
async fn opened_offline(b: &Browser, start: Instant, kept: usize) -> Result<Duration, String> {
    let want = format!("{kept} taps kept on this phone only");
    loop {
        let title = b.text("h1").await.unwrap_or_default();
        let line = b.text("#pad-sync").await.unwrap_or_default();
        if title.contains("Board 1")
            && line.contains(&want)
            && line.contains("This pad opens on this phone without signal")
        {
            return Ok(start.elapsed());
        }
        if start.elapsed() > Duration::from_secs(30) {
            return Err(format!(
                "after 30 s the page is `{title}`, its sync line `{line}`"
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until chromium has left the profile folder, so that a browser
/// started again in it is a new one rather than a window of the old.
async fn left(profile: &Path) {
    let start = Instant::now();
    while profile.join("SingletonLock").symlink_metadata().is_ok()
        && start.elapsed() < Duration::from_secs(15)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pad_opens_from_the_phones_copy_when_the_signal_never_answers() {
    let name = "a_pad_opens_from_the_phones_copy_when_the_signal_never_answers";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("weak");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let signal = Signal::start(server.port).await;
    let (games, taps) = board_taps(&s, 0, 5);
    let names = games[0].players.clone();
    let pad = signal.url(&at_short(&s.short).match_page(s.fixture).pad_board(1));
    let profile = TempDir::new("weak-phone");
    let b = Browser::start_in(PHONE, &profile.0).await;
    let outcome = async {
        patient(&b).await?;
        sign_in_at(&b, &signal, &s.home_captain).await?;
        b.goto(&pad).await?;
        b.wait_text("#pad-sync", "This pad opens on this phone without signal")
            .await?;
        for t in &taps[..6] {
            tap(&b, &names, t).await?;
        }
        b.wait_text("#pad-sync", "Saved on the server").await?;

        // The signal goes weak: three taps, kept on the phone.
        signal.hang(true);
        for t in &taps[6..9] {
            tap(&b, &names, t).await?;
        }
        b.wait_text("#pad-sync", "3 taps kept on this phone only")
            .await?;

        // Reloaded: the phone's copy, with every tap, within 5 s.
        let start = Instant::now();
        b.client
            .refresh()
            .await
            .map_err(|e| format!("reloading on a weak signal: {e}"))?;
        let took = opened_offline(&b, start, 3).await?;
        eprintln!("reloaded on a weak signal, the pad opened in {took:?}");
        shot(&b, "weak-signal-reloaded").await;
        if took > Duration::from_secs(5) {
            return Err(format!("reloaded, the pad took {took:?} to open"));
        }
        let (want, got) = (expected(&s, 0, &taps[..9]), totals(&b).await?);
        if got != want {
            return Err(format!(
                "reloaded, the pad shows {got:?}, the engine {want:?}"
            ));
        }
        Ok::<(), String>(())
    }
    .await;
    if let Err(why) = outcome {
        let shot = b.screenshot(name).await;
        b.close().await;
        panic!("{name}: {why}\nscreenshot: {}", shot.display());
    }

    // The browser closed and opened again, the signal still weak.
    b.close().await;
    left(&profile.0).await;
    let b = Browser::start_in(PHONE, &profile.0).await;
    let outcome = async {
        patient(&b).await?;
        let start = Instant::now();
        b.goto(&pad)
            .await
            .map_err(|e| format!("opening the pad after a restart: {e}"))?;
        let took = opened_offline(&b, start, 3).await?;
        eprintln!("after a restart on a weak signal, the pad opened in {took:?}");
        if took > Duration::from_secs(5) {
            return Err(format!("after a restart, the pad took {took:?} to open"));
        }
        let (want, got) = (expected(&s, 0, &taps[..9]), totals(&b).await?);
        if got != want {
            return Err(format!(
                "after a restart, the pad shows {got:?}, the engine {want:?}"
            ));
        }
        // The signal answers again: the kept taps reach the server.
        signal.hang(false);
        let back = Instant::now();
        loop {
            let line = b.text("#pad-sync").await.unwrap_or_default();
            if line.contains("Saved on the server") {
                break;
            }
            if back.elapsed() > Duration::from_secs(40) {
                return Err(format!(
                    "40 s after the signal's return the pad says `{line}`"
                ));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Ok::<(), String>(())
    }
    .await;
    if let Err(why) = outcome {
        let shot = b.screenshot(name).await;
        b.close().await;
        panic!("{name}: {why}\nscreenshot: {}", shot.display());
    }
    b.close().await;
    let db = Db::connect(&address).await.unwrap();
    let league = db.league_by_short_name(&s.short).await.unwrap().id;
    let stored = db.pad_board(league, s.fixture, 1).await.unwrap();
    db.close().await;
    let plain = |taps: &[Tap]| -> Vec<Tap> {
        taps.iter()
            .map(|t| match t {
                Tap::Blocked { .. } => Tap::Blocked { pips: Vec::new() },
                other => other.clone(),
            })
            .collect()
    };
    assert_eq!(
        plain(&stored.map(|p| p.taps).unwrap_or_default()),
        plain(&taps[..9])
    );
}
