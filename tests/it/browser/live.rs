//! A player following from home on a phone: the league's live page shows
//! a board as the pad scores it, and updates by itself, without a reload.

use boneyard::db::Db;
use boneyard::league::pad::{PadRules, replay};
use boneyard::rules::{Format, Ruleset};

use super::pad::{board_taps, setup};
use super::push::Phone;
use super::{PHONE, Server, TempDir, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_page_follows_a_board_without_a_reload() {
    if !super::available("the_live_page_follows_a_board_without_a_reload") {
        return;
    }
    let dir = TempDir::new("live");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let (_, taps) = board_taps(&s, 0, 3);
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let spec = s.format.boards[0];
    let rules = PadRules {
        ruleset: &ruleset,
        kind: spec.kind,
        best_of: spec.best_of,
        home: &s.home,
        away: &s.away,
    };
    // A phone at the table keeps the board through the server.
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let mut phone = Phone::open(&db, &s, server.port, 1).await;
    phone.send(&taps[..8]).await;
    assert_eq!(replay(&rules, &taps[..8]).1, None);
    let live = server.url("/leagues/pad/live");
    let match_page = server.url(&format!("/leagues/pad/matches/{}", s.fixture));
    let later = {
        let k = taps.len() - 2;
        let (board, _) = replay(&rules, &taps[..k]);
        (k, board.summary(true).totals)
    };
    let first = replay(&rules, &taps[..8]).0.summary(true).totals;
    run("live_page", PHONE, |b| async move {
        let outcome = async {
            b.goto(&live).await?;
            b.wait_text("#live-boards", "Crown v Anchor, board 1")
                .await?;
            b.wait_text("#live-boards .total", &first[0].to_string())
                .await?;
            if b.scrolls_sideways().await? {
                return Err("the live page scrolls sideways at phone size".into());
            }
            // A mark on this very page: a reload would wipe it.
            b.client
                .execute("window.stillHere = true;", vec![])
                .await
                .map_err(|e| e.to_string())?;
            // More hands are scored at the table; the page follows.
            phone.send(&taps[..later.0]).await;
            let want = [later.1[0].to_string(), later.1[1].to_string()];
            let start = std::time::Instant::now();
            loop {
                let shown = [
                    b.text("#live-boards tr:nth-child(1) .total").await?,
                    b.text("#live-boards tr:nth-child(2) .total").await?,
                ];
                if shown == want {
                    break;
                }
                if start.elapsed() > std::time::Duration::from_secs(15) {
                    return Err(format!(
                        "the live page shows {shown:?}, the board is at {want:?}"
                    ));
                }
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            let same_page = b
                .client
                .execute("return window.stillHere === true;", vec![])
                .await
                .map_err(|e| e.to_string())?;
            if same_page.as_bool() != Some(true) {
                return Err("the live page reloaded instead of updating in place".into());
            }
            // The match's own page shows the board too.
            b.goto(&match_page).await?;
            b.wait_text("main", "Being played now").await?;
            b.wait_text("#live-boards tr:nth-child(2) .total", &want[1])
                .await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pub_screen_shows_every_board_large_and_follows_the_pads() {
    let name = "the_pub_screen_shows_every_board_large_and_follows_the_pads";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("screen");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let (_, taps) = board_taps(&s, 0, 4);
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let spec = s.format.boards[0];
    let rules = PadRules {
        ruleset: &ruleset,
        kind: spec.kind,
        best_of: spec.best_of,
        home: &s.home,
        away: &s.away,
    };
    let server = Server::start(&address);
    let db = Db::connect(&address).await.unwrap();
    let mut phone = Phone::open(&db, &s, server.port, 1).await;
    phone.send(&taps[..6]).await;
    let screen = server.url(&format!("/leagues/pad/matches/{}/screen", s.fixture));
    let league_screen = server.url("/leagues/pad/screen");
    let later = save_later(&rules, &taps);
    // A television on the bar: no sign-in, no controls.
    run(name, (1280, 720), |b| async move {
        let outcome = async {
            b.goto(&screen).await?;
            b.wait_text("h1", "Crown v Anchor").await?;
            b.wait_text("#live-boards", "Board 1").await?;
            if b.count("main button, main input, main select, main form").await? != 0 {
                return Err("the pub screen has controls".into());
            }
            let size = b
                .client
                .execute(
                    "return parseFloat(getComputedStyle(document.querySelector('.screen-total')).fontSize);",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            if size.as_f64().unwrap_or(0.0) < 48.0 {
                return Err(format!("a board's total is {size} px high: too small to read across a room"));
            }
            b.client
                .execute("window.stillHere = true;", vec![])
                .await
                .map_err(|e| e.to_string())?;
            phone.send(&taps[..later]).await;
            let want = replay(&rules, &taps[..later]).0.summary(true).totals;
            let want = [want[0].to_string(), want[1].to_string()];
            let start = std::time::Instant::now();
            loop {
                let shown = [
                    b.text("#live-boards tr:nth-child(1) .screen-total").await?,
                    b.text("#live-boards tr:nth-child(2) .screen-total").await?,
                ];
                if shown == want {
                    break;
                }
                if start.elapsed() > std::time::Duration::from_secs(15) {
                    return Err(format!("the screen shows {shown:?}, the board is at {want:?}"));
                }
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            let same = b
                .client
                .execute("return window.stillHere === true;", vec![])
                .await
                .map_err(|e| e.to_string())?;
            if same.as_bool() != Some(true) {
                return Err("the screen reloaded instead of updating in place".into());
            }
            if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
                b.screenshot("pub-screen").await;
            }
            // The league's screen lists the board too; it fits a tablet.
            b.client.set_window_size(768, 1024).await.map_err(|e| e.to_string())?;
            b.goto(&league_screen).await?;
            b.wait_text("#live-boards", "Crown v Anchor, board 1").await?;
            if b.scrolls_sideways().await? {
                return Err("the league's screen scrolls sideways on a tablet".into());
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    db.close().await;
}

/// How many taps the screen test saves the second time.
fn save_later(rules: &PadRules, taps: &[boneyard::league::pad::Tap]) -> usize {
    // Far enough on that the totals have moved.
    let first = replay(rules, &taps[..6]).0.summary(true).totals;
    (7..taps.len())
        .find(|&k| replay(rules, &taps[..k]).0.summary(true).totals != first)
        .unwrap_or(taps.len() - 1)
}
