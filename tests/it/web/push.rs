//! Live scores pushed (issue 40), at the HTTP level: a tap saved through
//! the pad reaches the streams (server-sent events) of its league and its
//! match, not another match's; a follower that reconnects with
//! `Last-Event-ID` gets what it missed and nothing twice, or is told to
//! read the page again when that is older than the server knows; the
//! bounds refuse a stream (429, 503) rather than hold too many; the
//! metrics count the open streams and keep them out of the latency
//! histogram; and shutting down ends every stream.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use boneyard::addresses::at_short;
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::Tap;
use boneyard::web::{AppState, Settings, build_app};
use http_body_util::BodyExt;
use serde_json::json;
use tokio::sync::mpsc;
use tower::ServiceExt;

use crate::harness::client::Client;
use crate::harness::{Built, LeagueBuilder, PASSWORD, TestApp};
use crate::support::on_both;

on_both!(
    a_tap_reaches_its_leagues_and_its_matchs_followers_once_saved,
    a_follower_reconnecting_gets_what_it_missed_and_nothing_twice,
    streams_past_the_bounds_are_refused_and_shutdown_ends_them,
    the_metrics_count_open_streams_and_time_no_stream,
    a_match_made_void_tells_its_followers_at_once,
    a_tap_too_long_to_notify_is_saved_and_tells_which_board,
);

/// One server-sent event as read off a stream.
#[derive(Debug, Default, Clone)]
struct Sse {
    id: Option<String>,
    event: String,
    data: String,
}

impl Sse {
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.data).unwrap()
    }
}

/// A stream opened on `app`: its status, and its events as they come (the
/// receiver closes when the stream ends).
struct Stream {
    status: StatusCode,
    content_type: String,
    events: mpsc::UnboundedReceiver<Sse>,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for Stream {
    /// The connection closed, as a browser leaving closes it.
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Stream {
    async fn open(app: &Router, path: &str, last_event_id: Option<i64>) -> Stream {
        let mut req = Request::get(path);
        if let Some(id) = last_event_id {
            req = req.header("last-event-id", id.to_string());
        }
        let res = app
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let content_type = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let (tx, events) = mpsc::unbounded_channel();
        let mut body = res.into_body();
        let reader = tokio::spawn(async move {
            let mut text = String::new();
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(bytes) = frame.into_data() else {
                    continue;
                };
                text.push_str(&String::from_utf8_lossy(&bytes));
                while let Some(end) = text.find("\n\n") {
                    let block: String = text.drain(..end + 2).collect();
                    let mut e = Sse::default();
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("id:") {
                            e.id = Some(v.trim().to_owned());
                        } else if let Some(v) = line.strip_prefix("event:") {
                            e.event = v.trim().to_owned();
                        } else if let Some(v) = line.strip_prefix("data:") {
                            e.data.push_str(v.strip_prefix(' ').unwrap_or(v));
                        }
                    }
                    // Comments (the heartbeat, the opening) carry no event.
                    if (!e.event.is_empty() || !e.data.is_empty()) && tx.send(e).is_err() {
                        return;
                    }
                }
            }
        });
        Stream {
            status,
            content_type,
            events,
            reader,
        }
    }

    /// The next event within 5 s.
    async fn next(&mut self) -> Sse {
        tokio::time::timeout(Duration::from_secs(5), self.events.recv())
            .await
            .expect("an event within 5 s")
            .expect("the stream still open")
    }

    /// Nothing comes within `wait`.
    async fn quiet(&mut self, wait: Duration) -> Result<(), Sse> {
        match tokio::time::timeout(wait, self.events.recv()).await {
            Ok(Some(e)) => Err(e),
            _ => Ok(()),
        }
    }

    /// Whether the stream ends within 5 s.
    async fn ends(&mut self) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            match tokio::time::timeout(Duration::from_secs(5), self.events.recv()).await {
                Ok(None) => return true,
                Ok(Some(_)) => continue,
                Err(_) => return false,
            }
        }
        false
    }
}

/// A league of one singles board per match, its first two fixtures.
fn league() -> LeagueBuilder {
    LeagueBuilder::new("push")
        .teams(&["Crown", "Anchor", "Dolphin", "Bell"])
        .boards(MatchFormat::with_boards(1, 0, 1))
        .fixtures(2)
}

/// The first board's opening taps: its players, who poses.
fn opening(l: &Built, fixture: usize) -> Vec<Tap> {
    let (home, away) = if fixture == 0 { (0, 1) } else { (2, 3) };
    vec![
        Tap::Players {
            home: vec![l.teams[home].players[0].0.0],
            away: vec![l.teams[away].players[0].0.0],
        },
        Tap::Pose { seat: 0 },
    ]
}

/// A captain's phone keeping board 1 of fixture `fixture` (0 or 1) on
/// `app`, through the pad's sync as its script sends it.
struct Phone {
    client: Client,
    csrf: String,
    sync: String,
}

impl Phone {
    async fn new(app: &Router, l: &Built, fixture: usize) -> Phone {
        let mut client = Client::on(app.clone());
        let team = if fixture == 0 { 0 } else { 2 };
        client.sign_in(&l.teams[team].captain, PASSWORD).await;
        let game = at_short(&l.short).match_page(l.fixtures[fixture]);
        let page = client.get(&game.pad_board(1)).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        Phone {
            csrf: page.csrf(),
            client,
            sync: game.pad_sync(1),
        }
    }

    async fn send(&mut self, taps: &[Tap]) {
        let r = self
            .client
            .post_json(&self.sync, &json!({ "taps": taps }), &self.csrf)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
}

async fn app_of(db: &Db) -> (AppState, Router) {
    let state = AppState::new(db.clone());
    let app = build_app(state.clone(), Settings::default()).await.unwrap();
    (state, app)
}

async fn a_tap_reaches_its_leagues_and_its_matchs_followers_once_saved(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let (_, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let mut phone = Phone::new(&app, l, 0).await;
    let taps = opening(l, 0);

    // The live page names the stream from the taps it read.
    let mut visitor = Client::on(app.clone());
    let live = visitor.get(&at.live()).await;
    let since = db.live_generation(l.id).await.unwrap();
    let stream = format!("{}?since={since}", at.live_events());
    assert!(
        live.has(&format!("data-live-events=\"{stream}\"")),
        "{}",
        live.body
    );

    let mut league_stream = Stream::open(&app, &stream, None).await;
    assert_eq!(league_stream.status, StatusCode::OK);
    assert!(league_stream.content_type.starts_with("text/event-stream"));
    let mut match_stream = Stream::open(&app, &at.match_page(l.fixtures[0]).events(), None).await;
    let mut other_match = Stream::open(&app, &at.match_page(l.fixtures[1]).events(), None).await;

    phone.send(&taps[..1]).await;
    for stream in [&mut league_stream, &mut match_stream] {
        let e = stream.next().await;
        assert_eq!(e.event, "board");
        assert_eq!(e.id, Some((since + 1).to_string()));
        let data = e.json();
        assert_eq!(data["key"], format!("{}-1", l.fixtures[0]));
        assert_eq!(data["revision"], 1);
        assert_eq!(data["totals"], json!([0, 0]));
        assert_eq!(data["over"], false);
        // The board rendered, as the pages render it.
        let name = &l.teams[0].players[0].1;
        assert!(data["line"].as_str().unwrap().contains(name), "{data}");
        assert!(
            data["line"]
                .as_str()
                .unwrap()
                .contains("class=\"num total\"")
        );
        assert!(
            data["screen"]
                .as_str()
                .unwrap()
                .contains("class=\"screen-total\"")
        );
    }
    // Another match's followers hear nothing of it.
    assert!(other_match.quiet(Duration::from_millis(300)).await.is_ok());

    // The next tap, the next id; the other match's tap reaches the league's
    // stream and its own, not this match's.
    phone.send(&taps[..2]).await;
    assert_eq!(league_stream.next().await.id, Some((since + 2).to_string()));
    assert_eq!(match_stream.next().await.json()["revision"], 2);
    let mut other = Phone::new(&app, l, 1).await;
    other.send(&opening(l, 1)[..1]).await;
    let e = league_stream.next().await;
    assert_eq!(e.json()["key"], format!("{}-1", l.fixtures[1]));
    assert_eq!(other_match.next().await.id, e.id);
    assert!(match_stream.quiet(Duration::from_millis(300)).await.is_ok());

    // A tap not saved (a stale resend changes nothing) is no event.
    phone.send(&taps[..1]).await;
    assert!(
        league_stream
            .quiet(Duration::from_millis(300))
            .await
            .is_ok()
    );

    // The pages rendered since carry each board's revision and the stream
    // from then on.
    let page = visitor.get(&at.match_page(l.fixtures[0]).to_string()).await;
    assert!(
        page.has(&format!(
            "data-board=\"{}-1\" data-rev=\"2\"",
            l.fixtures[0]
        )),
        "{}",
        page.body
    );
    let now = db.live_generation(l.id).await.unwrap();
    assert_eq!(now, since + 3);
    assert!(page.has(&format!(
        "{}?since={now}",
        at.match_page(l.fixtures[0]).events()
    )));
}

async fn a_follower_reconnecting_gets_what_it_missed_and_nothing_twice(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let (_, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let events = at.live_events();
    let mut phone = Phone::new(&app, l, 0).await;
    let taps = opening(l, 0);
    // A tap before anyone follows the league on this server.
    phone.send(&taps[..1]).await;
    let first = db.live_generation(l.id).await.unwrap();

    // A follower from then on, and the next tap.
    let mut follower = Stream::open(&app, &format!("{events}?since={first}"), None).await;
    phone.send(&taps[..2]).await;
    let second = follower.next().await;
    assert_eq!(second.id, Some((first + 1).to_string()));
    drop(follower);

    // Reconnecting having seen the first tap: the second, once.
    let mut back = Stream::open(&app, &events, Some(first)).await;
    let again = back.next().await;
    assert_eq!(again.id, second.id);
    assert_eq!(again.data, second.data);
    assert!(back.quiet(Duration::from_millis(300)).await.is_ok());
    // Having seen both: nothing, then the next tap.
    let mut current = Stream::open(&app, &events, Some(first + 1)).await;
    assert!(current.quiet(Duration::from_millis(300)).await.is_ok());
    // `Last-Event-ID` wins over the page's `since`.
    let mut both = Stream::open(&app, &format!("{events}?since=0"), Some(first + 1)).await;
    assert!(both.quiet(Duration::from_millis(100)).await.is_ok());

    // Older than this server knows of: read the page again.
    let mut lost = Stream::open(&app, &events, Some(first - 1)).await;
    assert_eq!(lost.next().await.event, "reset");

    // The streams still open each get the next tap once.
    let mut more = taps.clone();
    more.push(Tap::Play { seat: 0, points: 0 });
    let r = phone
        .client
        .post_json(&phone.sync, &json!({ "taps": more }), &phone.csrf)
        .await;
    // Whatever the engine made of the tap, the board's revision moved or not;
    // a tap refused changes nothing and is no event.
    if r.status == StatusCode::OK
        && serde_json::from_str::<serde_json::Value>(&r.body).unwrap()["revision"] == 3
    {
        for s in [&mut back, &mut current, &mut both, &mut lost] {
            let e = s.next().await;
            assert_eq!(e.id, Some((first + 2).to_string()));
            assert!(s.quiet(Duration::from_millis(100)).await.is_ok());
        }
    }
}

async fn streams_past_the_bounds_are_refused_and_shutdown_ends_them(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let (state, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let events = at.live_events();
    state.hub().set_limits(3, 2);

    // Two from one client (the tests' requests come from "local"); the
    // third from it is refused with 429.
    let mut a = Stream::open(&app, &events, None).await;
    let b = Stream::open(&app, &at.match_page(l.fixtures[0]).events(), None).await;
    assert_eq!((a.status, b.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!(state.hub().open_streams(), 2);
    let refused = Stream::open(&app, &events, None).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    // One closed frees its place.
    drop(b);
    wait_until(|| state.hub().open_streams() == 1).await;
    let mut b = Stream::open(&app, &events, None).await;
    assert_eq!(b.status, StatusCode::OK);

    // The server's own bound: 503 whoever asks.
    state.hub().set_limits(2, 10);
    let full = Stream::open(&app, &events, None).await;
    assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    // An unknown league or match is no stream.
    let none = Stream::open(&app, "/leagues/nowhere/live/events", None).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
    let no_match = Stream::open(&app, &at.match_page(FixtureId(999_999)).events(), None).await;
    assert_eq!(no_match.status, StatusCode::NOT_FOUND);

    // Shutting down ends them, and refuses new ones.
    state.hub().shut_down();
    assert!(a.ends().await, "a stream outlived the shutdown");
    assert!(b.ends().await, "a stream outlived the shutdown");
    wait_until(|| state.hub().open_streams() == 0).await;
    let late = Stream::open(&app, &events, None).await;
    assert_eq!(late.status, StatusCode::SERVICE_UNAVAILABLE);
}

/// `boneyard_live_streams_open` as `/metrics` says it, and the scrape.
async fn scrape(db: &Db) -> (f64, String) {
    let text = boneyard::metrics::render(db).await;
    let samples = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned())))
        .expect("Prometheus text")
        .samples;
    let open = samples
        .iter()
        .filter(|s| s.metric == "boneyard_live_streams_open")
        .map(|s| match s.value {
            prometheus_parse::Value::Gauge(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum();
    (open, text)
}

/// The metrics show the open streams (other tests' streams may be open in
/// this process too: these at least), and a stream, however long, is no
/// request's latency: the stream routes are counted, never timed.
async fn the_metrics_count_open_streams_and_time_no_stream(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let (_, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let mut open = Vec::new();
    for path in [at.live_events(), at.match_page(l.fixtures[0]).events()] {
        for _ in 0..4 {
            let s = Stream::open(&app, &path, None).await;
            assert_eq!(s.status, StatusCode::OK);
            open.push(s);
        }
    }
    // A page too, which is timed.
    let mut visitor = Client::on(app.clone());
    assert_eq!(visitor.get(&at.live()).await.status, StatusCode::OK);
    let (streams, text) = scrape(&db).await;
    assert!(
        streams >= 8.0,
        "{streams} streams open, 8 at least expected"
    );
    // The number on the line that starts `prefix` (0: none).
    let value = |prefix: &str| -> f64 {
        text.lines()
            .filter(|l| l.starts_with(prefix))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    for route in [
        "/leagues/:league/live/events",
        "/leagues/:league/matches/:fixture/events",
    ] {
        let counted = |status: &str| {
            value(&format!(
                "boneyard_http_requests_total{{route=\"{route}\",method=\"GET\",status=\"{status}\"}}"
            ))
        };
        let streams = counted("200");
        let refused = ["404", "429", "503"].map(counted).iter().sum::<f64>();
        let timed = value(&format!(
            "boneyard_http_request_duration_seconds_count{{route=\"{route}\"}}"
        ));
        assert!(streams >= 4.0, "{route}: {streams} streams counted\n{text}");
        // Refusals (other tests') are answers, and timed; streams never
        // (a little leeway for a refusal timed but not yet counted).
        assert!(
            timed <= refused + 2.0,
            "{route}: {timed} timed, {refused} refused, {streams} streams\n{text}"
        );
    }
    assert!(
        value("boneyard_http_request_duration_seconds_count{route=\"/leagues/:league/live\"}")
            >= 1.0
    );
    drop(open);
}

async fn wait_until(mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(5), "not within 5 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A change to a match that is not a tap (here a secretary making it void;
/// a result coming in goes the same way) reaches its followers at once, as
/// an event for no board that their pages answer by reading themselves
/// again: the match's boards leave the live page then, not at the slow
/// re-read a minute later.
async fn a_match_made_void_tells_its_followers_at_once(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let (_, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let f = l.fixtures[0];
    let game = at.match_page(f);
    let mut phone = Phone::new(&app, l, 0).await;
    phone.send(&opening(l, 0)).await;
    let mut visitor = Client::on(app.clone());
    let board = format!("data-board=\"{}-1\"", f.0);
    assert!(
        visitor.get(&at.live()).await.has(&board),
        "on the live page"
    );

    let mut match_stream = Stream::open(&app, &game.events(), None).await;
    let mut league_stream = Stream::open(&app, &at.live_events(), None).await;
    let mut other_match = Stream::open(&app, &at.match_page(l.fixtures[1]).events(), None).await;
    let mut sec = Client::on(app.clone());
    sec.sign_in(&l.secretary, PASSWORD).await;
    let history = sec.get(&game.history()).await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.body);
    let voided = sec.post(&game.void(), &[("csrf", &history.csrf())]).await;
    assert_eq!(voided.status, StatusCode::SEE_OTHER, "{}", voided.body);
    for stream in [&mut match_stream, &mut league_stream] {
        let e = stream.next().await;
        assert_eq!(e.event, "board");
        let data = e.json();
        assert_eq!(data["fixture"], f.0);
        assert_eq!(data["board"], 0);
        assert_eq!(data["changed"], true);
        assert!(data.get("line").is_none(), "no board to swap in: {data}");
    }
    assert!(
        other_match.quiet(Duration::from_millis(300)).await.is_ok(),
        "another match's followers hear nothing"
    );
    // Read again, as the pages do on that event: the board is gone.
    assert!(
        !visitor.get(&at.live()).await.has(&board),
        "off the live page"
    );
}

/// A tap whose event is longer than Postgres lets a notification be (8000
/// bytes: here, players named at great length, as records kept from before
/// names were bounded may be) is still saved, and its followers still hear
/// of it: on Postgres told only which board changed and its revision, so
/// that they read the page; on SQLite, where nothing is notified, given the
/// whole event.
async fn a_tap_too_long_to_notify_is_saved_and_tells_which_board(db: Db) {
    let t = TestApp::new(&db, league()).await;
    let l = &t.league;
    let long = |c: &str| format!("{c} {}", "&\"<>".repeat(750));
    for (team, c) in [(0, "Home"), (1, "Away")] {
        let (id, _) = &l.teams[team].players[0];
        db.rename_player(l.id, *id, &long(c)).await.unwrap();
    }
    let (_, app) = app_of(&db).await;
    let at = at_short(&l.short);
    let mut stream = Stream::open(&app, &at.match_page(l.fixtures[0]).events(), None).await;
    let mut phone = Phone::new(&app, l, 0).await;

    phone.send(&opening(l, 0)[..1]).await;
    let saved = db
        .pad_board(l.id, l.fixtures[0], 1)
        .await
        .unwrap()
        .expect("the tap saved");
    assert_eq!(saved.revision, 1);
    let e = stream.next().await;
    assert_eq!(e.event, "board");
    let data = e.json();
    assert_eq!(data["key"], format!("{}-1", l.fixtures[0]));
    assert_eq!(data["revision"], 1);
    match db {
        Db::Postgres(_) => assert!(
            data.get("line").is_none() && e.data.len() < 8000,
            "a short event: {}",
            e.data
        ),
        Db::Sqlite(_) => assert!(
            data["line"].as_str().unwrap().contains("Home "),
            "the whole event: {}",
            e.data
        ),
    }
}
