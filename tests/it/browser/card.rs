//! A secretary types up a paper sheet on the match card at desktop size:
//! the card checks each game as it is typed (the script posts to the
//! card's own address) and shows the engine's totals in place.

use super::pad::{PASSWORD, setup};
use super::{DESKTOP, Server, TempDir, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_checks_a_game_as_it_is_typed() {
    if !super::available("the_card_checks_a_game_as_it_is_typed") {
        return;
    }
    let dir = TempDir::new("card");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let card = server.url(&format!("/leagues/{}/matches/{}/card", s.short, s.fixture));
    let (home, away) = (s.home[0].0.to_string(), s.away[0].0.to_string());
    let secretary = s.secretary.clone();
    run("card_live_check", DESKTOP, |b| async move {
        let outcome = async {
            b.sign_in(&server, &secretary, PASSWORD).await?;
            b.goto(&card).await?;
            b.select("[id='b0.home0']", &home).await?;
            b.select("[id='b0.away0']", &away).await?;
            b.fill(
                "[id='b0.g0']",
                "draw 6-6 1-0\nA8 B3 / blocked\nB6 A4 / blocked",
            )
            .await?;
            // No button pressed: the script's check fills in the totals.
            b.wait_text("[id='b0.g0-result']", "In progress, 12–9")
                .await?;
            let url = b.client.current_url().await.map_err(|e| e.to_string())?;
            if url.as_str() != card {
                return Err(format!("the page moved to {url}"));
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}

/// On a 360 px phone, a checked game's hands fit the screen with their
/// running totals in view: no sideways scrolling (it was 551 px wide).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checked_card_fits_a_phone_with_its_totals_in_view() {
    if !super::available("a_checked_card_fits_a_phone_with_its_totals_in_view") {
        return;
    }
    let dir = TempDir::new("card-phone");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let s = setup(&address).await;
    let server = Server::start(&address);
    let card = server.url(&format!("/leagues/{}/matches/{}/card", s.short, s.fixture));
    let (home, away) = (s.home[0].0.to_string(), s.away[0].0.to_string());
    let secretary = s.secretary.clone();
    run("card_phone", (360, 800), |b| async move {
        let outcome = async {
            b.sign_in(&server, &secretary, PASSWORD).await?;
            b.goto(&card).await?;
            let title = b.client.title().await.map_err(|e| e.to_string())?;
            if title.contains('<') || !title.starts_with("Card: ") {
                return Err(format!("the tab's title is `{title}`"));
            }
            b.select("[id='b0.home0']", &home).await?;
            b.select("[id='b0.away0']", &away).await?;
            b.fill(
                "[id='b0.g0']",
                "draw 6-6 1-0\nA8 B3 A4 B6 A2 B2 A3 B4 / blocked\nB6 A4 B8 A8 B2 A3 B4 A1x / out A\nB8 A8 B3 A4 B2 A3 B6 A2 / blocked\nA2 B3 A2 B1x / out B",
            )
            .await?;
            b.wait_text("[id='b0.g0-result']", "In progress").await?;
            if b.scrolls_sideways().await? {
                return Err("the checked card scrolls sideways at 360 px".into());
            }
            let right = b
                .client
                .execute(
                    "var t = document.querySelectorAll('.card-hands .total'); \
                     var last = t[t.length - 1]; \
                     return t.length > 0 && last.getBoundingClientRect().right <= window.innerWidth;",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            if right.as_bool() != Some(true) {
                return Err("the running totals are off the screen".into());
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
