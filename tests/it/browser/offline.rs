//! The score pad as a pub's signal treats it: the connection cut by the
//! browser's own offline mode (the server keeps running), the pad opened
//! for the first time and then reloaded with no signal, taps made offline
//! kept through a reload and a server restart, and two phones keeping one
//! board until their logs part: the second phone's taps are shown and put
//! back, never dropped.

use boneyard::db::Db;
use boneyard::league::pad::Tap;

use super::pad::{PASSWORD, Setup, board_taps, expected, setup, tap};
use super::{Browser, PHONE, Server, TempDir, run};

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

/// Taps `taps[from..to]` of board 1 on the pad, checking after each that
/// the pad shows what the engine scores.
async fn tap_range(
    b: &Browser,
    s: &Setup,
    names: &[String],
    taps: &[Tap],
    from: usize,
    to: usize,
) -> Result<(), String> {
    for k in from..to {
        tap(b, names, &taps[k]).await?;
        if k >= 2 {
            let (want, got) = (expected(s, 0, &taps[..=k]), totals(b).await?);
            if got != want {
                return Err(format!(
                    "after tap {k} ({:?}) the pad shows {got:?}, the engine {want:?}",
                    taps[k]
                ));
            }
        }
    }
    Ok(())
}

/// Waits (a while) until the pad says it has kept itself on the phone for
/// a reload with no signal, as its sync line tells the person holding it.
/// Whether it really did is for the offline reload to show.
async fn wait_offline_ready(b: &Browser) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
        let line = b.text("#pad-sync").await.unwrap_or_default();
        if line.contains("opens on this phone without signal") {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The board's taps as the server holds them.
async fn stored(address: &str, s: &Setup) -> Vec<Tap> {
    let db = Db::connect(address).await.unwrap();
    let league = db.league_by_short_name(&s.short).await.unwrap().id;
    let pad = db.pad_board(league, s.fixture, 1).await.unwrap();
    db.close().await;
    pad.map(|p| p.taps).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pad_opened_once_reopens_offline_and_keeps_every_tap() {
    let name = "a_pad_opened_once_reopens_offline_and_keeps_every_tap";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("offline");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let mut server = Server::start(&address);
    let (games, taps) = board_taps(&s, 0, 5);
    let names = games[0].players.clone();
    assert!(taps.len() > 14, "a board long enough to cut in three");
    let pad = format!("/leagues/{}/matches/{}/pad/1", s.short, s.fixture);
    let (server_ref, s_ref, taps_ref) = (&mut server, &s, &taps);
    run(name, PHONE, |b| async move {
        let outcome = async {
            let (s, taps) = (s_ref, taps_ref);
            b.sign_in(server_ref, &s.home_captain, PASSWORD).await?;
            // The first time this phone opens the pad.
            b.goto(&server_ref.url(&pad)).await?;
            b.wait_text("h1", "Board 1").await?;
            wait_offline_ready(&b).await;
            tap_range(&b, s, &names, taps, 0, 6).await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;

            // The signal goes: three taps, then the page is reloaded.
            b.network(Some(0)).await?;
            tap_range(&b, s, &names, taps, 6, 9).await?;
            b.wait_text("#pad-sync", "3 taps kept on this phone only")
                .await?;
            b.client
                .refresh()
                .await
                .map_err(|e| format!("reload offline: {e}"))?;
            b.wait_text("h1", "Board 1").await?;
            b.wait_text("#pad-sync", "kept on this phone only").await?;
            let (want, got) = (expected(s, 0, &taps[..9]), totals(&b).await?);
            if got != want {
                return Err(format!(
                    "reloaded offline, the pad shows {got:?}; the engine {want:?}"
                ));
            }
            if b.text("#pad-sync").await?.contains("Saved on the server") {
                return Err("offline, the pad claims its taps are saved on the server".into());
            }
            // The server restarts meanwhile; still offline, more taps and
            // another reload.
            server_ref.restart();
            tap_range(&b, s, &names, taps, 9, 12).await?;
            b.client
                .refresh()
                .await
                .map_err(|e| format!("second reload offline: {e}"))?;
            b.wait_text("#pad-sync", "6 taps kept on this phone only")
                .await?;
            let (want, got) = (expected(s, 0, &taps[..12]), totals(&b).await?);
            if got != want {
                return Err(format!(
                    "after the second reload the pad shows {got:?}; the engine {want:?}"
                ));
            }
            // The signal returns: everything reaches the server, then the
            // board is played out online.
            b.network(None).await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;
            tap_range(&b, s, &names, taps, 12, taps.len()).await?;
            b.wait_text("[data-bind=verdict]", "won the board").await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;
            if b.count("#pad-aside").await? != 0 {
                return Err("taps were kept aside though only one phone kept the board".into());
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    // The server holds every tap, as the simulator's board has them (a
    // blocked hand of Fives and Threes is tapped without counts).
    assert_eq!(plain(stored(&address, &s).await), plain(taps));
}

/// The taps, with a blocked hand's counts left out.
fn plain(taps: Vec<Tap>) -> Vec<Tap> {
    taps.into_iter()
        .map(|t| match t {
            Tap::Blocked { .. } => Tap::Blocked { pips: Vec::new() },
            other => other,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_phones_unsent_taps_are_shown_and_put_back() {
    let name = "a_second_phones_unsent_taps_are_shown_and_put_back";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("two-phones");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let (games, simulated) = board_taps(&s, 0, 9);
    let names = games[0].players.clone();
    // The players, who poses, then plays of the first hand: the first
    // phone's two (made offline) and the second phone's two.
    let play = |seat, points| Tap::Play { seat, points };
    let mut taps = simulated[..2].to_vec();
    taps.extend([
        play(0, 2),
        play(1, 3),
        play(0, 6),
        play(1, 4),
        play(1, 2),
        play(0, 1),
    ]);
    let pad = format!("/leagues/{}/matches/{}/pad/1", s.short, s.fixture);
    // The captain's phone, then the secretary's beside it.
    let other = Browser::start(PHONE).await;
    let (server_ref, s_ref, taps_ref, other_ref) = (&server, &s, &taps, &other);
    run(name, PHONE, |b| async move {
        let outcome = async {
            let (s, taps, other) = (s_ref, taps_ref, other_ref);
            b.sign_in(server_ref, &s.home_captain, PASSWORD).await?;
            b.goto(&server_ref.url(&pad)).await?;
            wait_offline_ready(&b).await;
            tap_range(&b, s, &names, taps, 0, 4).await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;
            // The first phone loses its signal and taps on.
            b.network(Some(0)).await?;
            tap_range(&b, s, &names, taps, 4, 6).await?;
            // Meanwhile the second phone, online, taps two different plays.
            other.sign_in(server_ref, &s.secretary, PASSWORD).await?;
            other.goto(&server_ref.url(&pad)).await?;
            other.wait_text("#pad-sync", "Saved on the server").await?;
            let theirs = [taps[6].clone(), taps[7].clone()];
            tap(other, &names, &theirs[0]).await?;
            tap(other, &names, &theirs[1]).await?;
            other.wait_text("#pad-sync", "Saved on the server").await?;
            // The first phone's signal returns: its two taps are shown, not
            // lost, and put back after the second phone's.
            b.network(None).await?;
            b.wait_text("#pad-aside", "2 taps the server did not take")
                .await?;
            let listed = b.text("#pad-aside").await?;
            if !listed.contains(&format!("{} 6", names[0]))
                || !listed.contains(&format!("{} 4", names[1]))
            {
                return Err(format!(
                    "the taps kept aside are not named as they were: {listed}"
                ));
            }
            b.wait_text("#pad-sync", "Saved on the server").await?;
            if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
                let _ = b
                    .client
                    .execute(
                        "document.getElementById('pad-aside').scrollIntoView();",
                        vec![],
                    )
                    .await;
                b.screenshot("pad-taps-kept-aside").await;
            }
            if b.scrolls_sideways().await? {
                return Err("the taps kept aside push the pad wider than the phone".into());
            }
            b.click_named("#pad-aside", "Put them back").await?;
            b.wait_text("#pad-messages", "Put back 2 taps").await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;
            if b.count("#pad-aside").await? != 0 {
                return Err("the taps put back are still shown as kept aside".into());
            }
            let mut want_log = taps[..4].to_vec();
            want_log.extend(theirs.iter().cloned());
            want_log.extend(taps[4..6].iter().cloned());
            let (want, got) = (expected(s, 0, &want_log), totals(&b).await?);
            if got != want {
                return Err(format!(
                    "after putting back, the pad shows {got:?}; the engine {want:?}"
                ));
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    other.close().await;
    let mut want_log = taps[..4].to_vec();
    want_log.extend([taps[6].clone(), taps[7].clone()]);
    want_log.extend(taps[4..6].iter().cloned());
    assert_eq!(stored(&address, &s).await, want_log);
}

/// A pub's signal that takes a request and leaves its answer hanging: the
/// pad gives the request up (after 10 s), says its tap is kept on the
/// phone, and sends it again as soon as the signal answers, rather than
/// waiting on the hung request (a minute here) with every later tap held
/// behind it; the server ends with the taps once each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_the_signal_leaves_hanging_is_given_up_and_sent_again() {
    let name = "a_request_the_signal_leaves_hanging_is_given_up_and_sent_again";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("hanging");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let mut server = Server::start(&address);
    let (games, taps) = board_taps(&s, 0, 6);
    let names = games[0].players.clone();
    let pad = format!("/leagues/{}/matches/{}/pad/1", s.short, s.fixture);
    let (server_ref, s_ref, taps_ref) = (&mut server, &s, &taps);
    run(name, PHONE, |b| async move {
        let outcome = async {
            let (s, taps) = (s_ref, taps_ref);
            b.sign_in(server_ref, &s.home_captain, PASSWORD).await?;
            b.goto(&server_ref.url(&pad)).await?;
            b.wait_text("h1", "Board 1").await?;
            tap_range(&b, s, &names, taps, 0, 4).await?;
            b.wait_text("#pad-sync", "Saved on the server").await?;

            // Every request now waits a minute for its answer.
            b.network(Some(60_000)).await?;
            tap_range(&b, s, &names, taps, 4, 5).await?;
            b.wait_text("#pad-sync", "Sending: 1 tap kept on this phone only")
                .await?;
            // Given up after 10 s: the pad says so, and the tap is kept.
            b.wait_text("#pad-sync", "No connection: 1 tap kept on this phone only")
                .await?;
            // The signal answers again: the pad has the server's word for
            // its tap within seconds, not when the hung request would have
            // had its answer. (Chrome's emulated delay holds the answer, not
            // the request: the server may hold the tap already, and taking
            // the same log again changes nothing.)
            b.network(None).await?;
            let back = std::time::Instant::now();
            loop {
                let line = b.text("#pad-sync").await.unwrap_or_default();
                if line.contains("Saved on the server") {
                    break;
                }
                if back.elapsed() > std::time::Duration::from_secs(15) {
                    return Err(format!(
                        "15 s after the signal's return the pad says `{line}`"
                    ));
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
    assert_eq!(plain(stored(&address, &s).await), plain(taps[..5].to_vec()));
}
