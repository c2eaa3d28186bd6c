//! How long the server takes to accept a tap from the score pad: the pad's
//! script sends the board's whole log each time, the server replays it
//! through the engine and saves it. Plays whole simulated Fives and Threes
//! games tap by tap through the real app (in process, SQLite on a file with
//! its full durability), and prints the time per tap and per hand.
//!
//! `cargo bench --bench pad`. `BONEYARD_BENCH_GAMES` (default 20): how many
//! boards, each played from its first tap.

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::{Tap, taps_for_board};
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, Ruleset};
use boneyard::web::{AppState, Settings, build_app};
use http_body_util::BodyExt;
use tower::ServiceExt;

struct Session {
    cookie: String,
    csrf: String,
}

async fn send(app: &Router, req: Request<Body>) -> (u16, Option<String>, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    let cookie = res
        .headers()
        .get(header::SET_COOKIE)
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_owned());
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, cookie, String::from_utf8_lossy(&body).into_owned())
}

/// Opens a board's pad through its link, as a phone would: a session and
/// its form token.
async fn open(app: &Router, path: &str) -> Session {
    let (status, cookie, body) = send(app, Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let marker = "name=\"csrf\" value=\"";
    let start = body.find(marker).unwrap() + marker.len();
    Session {
        cookie: cookie.expect("a session cookie"),
        csrf: body[start..].split('"').next().unwrap().to_owned(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let boards: usize = std::env::var("BONEYARD_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let dir = std::env::temp_dir().join(format!("boneyard-bench-pad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let address = format!("sqlite://{}", dir.join("pad.db").display());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let db = Db::connect(&address).await.unwrap();
        let league = db
            .create_league(&NewLeague {
                name: "Bench".into(),
                short_name: "bench".into(),
                ..NewLeague::default()
            })
            .await
            .unwrap()
            .id;
        let format = MatchFormat::with_boards(boards, 0, 1);
        let season = boneyard::app::seasons::create_season(&db,
                league,
                &NewSeason {
                    name: "2026/27".into(),
                    format: Format::FivesAndThrees,
                    options: Default::default(),
                    match_format: format.to_value(),
                },
            )
            .await
            .unwrap()
            .id;
        let division = db.create_division(league, season, "One", 0).await.unwrap().id;
        let mut rosters = Vec::new();
        let mut teams = Vec::new();
        for name in ["Home", "Away"] {
            let team = db.create_team(league, name, None).await.unwrap().id;
            db.enter_team(league, season, division, team).await.unwrap();
            let mut roster = Vec::new();
            for i in 0..boards {
                let p = db.create_player(league, &format!("{name} {i}")).await.unwrap();
                boneyard::app::registrations::register_player(&db, league, season, team, p.id).await.unwrap();
                roster.push((p.id.0, p.name));
            }
            rosters.push(roster);
            teams.push(team);
        }
        let fixture = db
            .create_fixture(
                league,
                &NewFixture {
                    season_id: season,
                    division_id: division,
                    round: 1,
                    starts_at: Some(now() + chrono::Duration::hours(2)),
                    home_team_id: teams[0],
                    away_team_id: teams[1],
                    venue_id: None,
                },
            )
            .await
            .unwrap()
            .id;
        let app = build_app(AppState::new(db.clone()), Settings::default())
            .await
            .unwrap();
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (mut per_tap, mut per_hand) = (Vec::new(), Vec::new());
        for (b, (home, away)) in rosters[0].iter().zip(&rosters[1]).enumerate() {
            let token = format!("benchtoken{b:022}");
            db.create_pad_link(
                league,
                fixture,
                b as i64 + 1,
                &token,
                now() + chrono::Duration::days(1),
                None,
            )
            .await
            .unwrap();
            let base = format!("/leagues/bench/matches/{fixture}/pad/{}", b + 1);
            let session = open(&app, &format!("{base}?key={token}")).await;
            let players = vec![home.1.clone(), away.1.clone()];
            let sides = vec![vec![home.1.clone()], vec![away.1.clone()]];
            let games = simulate_board(
                &ruleset,
                &players,
                &sides,
                1,
                &mut Rng::new(b as u64),
                &Style::clean(),
            );
            let taps = taps_for_board(&[home.0], &[away.0], &games);
            let mut hand = Duration::ZERO;
            for k in 1..=taps.len() {
                let body = serde_json::json!({ "taps": &taps[..k] }).to_string();
                let req = Request::post(format!("{base}/sync?key={token}"))
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::COOKIE, &session.cookie)
                    .header("x-csrf-token", &session.csrf)
                    .body(Body::from(body))
                    .unwrap();
                let start = Instant::now();
                let (status, _, reply) = send(&app, req).await;
                let took = start.elapsed();
                assert_eq!(status, 200, "tap {k}: {reply}");
                per_tap.push(took);
                hand += took;
                if matches!(taps[k - 1], Tap::Out { .. } | Tap::Blocked { .. }) {
                    per_hand.push(hand);
                    hand = Duration::ZERO;
                }
            }
        }
        per_tap.sort();
        per_hand.sort();
        println!(
            "score pad sync, {boards} Fives and Threes games, {} taps, {} hands (SQLite, synchronous=FULL):",
            per_tap.len(),
            per_hand.len()
        );
        println!(
            "  per tap:  p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            percentile(&per_tap, 0.5).as_secs_f64() * 1e3,
            percentile(&per_tap, 0.99).as_secs_f64() * 1e3,
            per_tap.last().unwrap().as_secs_f64() * 1e3
        );
        println!(
            "  per hand (all its taps): p50 {:.2} ms, p99 {:.2} ms",
            percentile(&per_hand, 0.5).as_secs_f64() * 1e3,
            percentile(&per_hand, 0.99).as_secs_f64() * 1e3
        );
        db.close().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
