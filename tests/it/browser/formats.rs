//! The pad in All Fives and in hands-won sets, at phone size: the pad's own
//! arithmetic (it scores offline too) must agree with the engine tap by
//! tap, penalties, blocked counts and played-out hands included. And a
//! Fives and Threes board over a slow connection: taps made while the last
//! ones are on their way to the server are all kept.

use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::Tap;
use boneyard::rules::Format;
use boneyard::rules::simulate::Style;

use super::pad::{PASSWORD, Setup, board_taps_styled, expected, setup_with, tap};
use super::{Browser, PHONE, Server, TempDir, run};

/// A simulated board with at least one in-game penalty among its taps.
fn eventful_board(s: &Setup) -> Vec<Tap> {
    board_with(s, |t| matches!(t, Tap::Penalty { .. }))
}

/// A simulated board with a tap that `wanted` picks.
fn board_with(s: &Setup, wanted: impl Fn(&Tap) -> bool) -> Vec<Tap> {
    let style = Style {
        penalty_per_mille: 120,
        muggins_per_mille: 30,
    };
    (0..500)
        .map(|seed| board_taps_styled(s, 0, seed, &style).1)
        .find(|taps| taps.iter().any(&wanted))
        .expect("a simulated board with the tap wanted")
}

/// Every request the page makes waits this long first: the sync of one
/// tap is still on its way when the next is taken.
const SLOW_FETCH: &str = "const f = window.fetch; \
    window.fetch = (...a) => new Promise(r => setTimeout(r, 400)).then(() => f(...a));";

async fn keep_board(
    b: &Browser,
    server: &Server,
    s: &Setup,
    taps: &[Tap],
    slow: bool,
) -> Result<(), String> {
    b.sign_in(server, &s.home_captain, PASSWORD).await?;
    b.goto(&server.url(&format!("/leagues/{}/matches/{}/pad/1", s.short, s.fixture)))
        .await?;
    if slow {
        b.client
            .execute(SLOW_FETCH, vec![])
            .await
            .map_err(|e| format!("slowing the connection: {e}"))?;
    }
    let names: Vec<String> = {
        let n = s.format.boards[0].kind.players_a_side();
        (0..n)
            .flat_map(|j| [s.home[j].1.clone(), s.away[j].1.clone()])
            .collect()
    };
    for (k, t) in taps.iter().enumerate() {
        tap(b, &names, t).await?;
        let want = expected(s, 0, &taps[..=k]);
        let got = [
            b.text("[data-bind=total0]").await?,
            b.text("[data-bind=total1]").await?,
        ];
        if got != [want[0].to_string(), want[1].to_string()] {
            return Err(format!(
                "tap {k} ({t:?}): the pad shows {got:?}, the engine {want:?}"
            ));
        }
    }
    b.wait_text("[data-bind=verdict]", "won the board").await?;
    b.wait_text("#pad-sync", "Saved on the server").await?;
    // Once the server has answered every sync, nothing taken was lost.
    let want = expected(s, 0, taps);
    let got = [
        b.text("[data-bind=total0]").await?,
        b.text("[data-bind=total1]").await?,
    ];
    if got != [want[0].to_string(), want[1].to_string()] {
        return Err(format!(
            "after the last sync the pad shows {got:?}, the engine {want:?}"
        ));
    }
    Ok(())
}

async fn format_journey(name: &str, rules: Format, format: MatchFormat) {
    journey(name, rules, format, eventful_board, false).await;
}

async fn journey(
    name: &str,
    rules: Format,
    format: MatchFormat,
    board: fn(&Setup) -> Vec<Tap>,
    slow: bool,
) {
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new(name);
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup_with(&address, rules, format).await;
    let taps = board(&s);
    let server = Server::start(&address);
    let (s_ref, taps_ref, server_ref) = (&s, &taps, &server);
    run(name, PHONE, |b| async move {
        let outcome = keep_board(&b, server_ref, s_ref, taps_ref, slow).await;
        (b, outcome)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_all_fives_board_on_the_pad_scores_as_the_engine() {
    format_journey(
        "all_fives_pad",
        Format::AllFives,
        MatchFormat::with_boards(1, 0, 1),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hands_won_set_on_the_pad_scores_as_the_engine() {
    format_journey(
        "hands_won_pad",
        Format::HandsWon,
        MatchFormat::with_boards(0, 1, 1),
    )
    .await;
}

/// A blocked Fives and Threes hand has no counts: the server keeps it
/// without them. The pad once took the server's words for it as a change
/// made elsewhere and dropped the taps made while a sync was on its way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_connection_loses_no_tap_after_a_blocked_hand() {
    journey(
        "slow_pad",
        Format::FivesAndThrees,
        MatchFormat::with_boards(1, 0, 1),
        |s| board_with(s, |t| matches!(t, Tap::Blocked { .. })),
        true,
    )
    .await;
}
