//! Limits: a card longer than any real match is refused at once, with a
//! message that says what and where, and nothing is stored.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use boneyard::db::*;

use crate::support::on_both;
use crate::web::results::{Match, client, setup};

on_both!(
    a_card_of_a_thousand_hands_is_refused_at_once,
    a_megabyte_card_is_refused_before_it_is_read,
);

/// The first board's players, and its first game typed as `hands` hands
/// that score nothing (blocked, the pips only saying who poses next): a
/// Fives and Threes game that never ends.
fn endless_card(m: &Match, hands: usize) -> Vec<(String, String)> {
    let mut text = String::from("draw 6-6 1-0\n");
    for _ in 0..hands {
        text.push_str("/ blocked 3 4\n");
    }
    vec![
        ("b0.home0".into(), m.home[0].0.to_string()),
        ("b0.away0".into(), m.away[0].0.to_string()),
        ("b0.g0".into(), text),
    ]
}

/// Posts `fields` as the home captain's card; the page and how long the
/// post took.
async fn post_card(
    db: &Db,
    m: &Match,
    fields: &[(String, String)],
) -> (crate::harness::client::Page, Duration) {
    let mut home = client(db, "home").await;
    let token = home.get(&m.path("/card")).await.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", token.as_str()), ("action", "submit")];
    all.extend(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let started = Instant::now();
    let page = home.post(&m.path("/card"), &all).await;
    (page, started.elapsed())
}

async fn a_card_of_a_thousand_hands_is_refused_at_once(db: Db) {
    let m = setup(&db).await;
    let fields = endless_card(&m, 1000);
    let (page, took) = post_card(&db, &m, &fields).await;
    eprintln!(
        "a card of 1000 hands ({} bytes): {} in {took:?}",
        fields[2].1.len(),
        page.status
    );
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(
        page.has("more than 200: no real game is that long"),
        "{}",
        page.body
    );
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(db.result(LeagueId(1), m.fixture).await.unwrap().is_none());
}

async fn a_megabyte_card_is_refused_before_it_is_read(db: Db) {
    let m = setup(&db).await;
    // The size of the card that held the writer for 26 s: 1.2 MB.
    let fields = endless_card(&m, 90_000);
    assert!(fields[2].1.len() > 1_200_000);
    let (page, took) = post_card(&db, &m, &fields).await;
    eprintln!(
        "a card of {} bytes: {} in {took:?}",
        fields[2].1.len(),
        page.status
    );
    assert_eq!(page.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", page.body);
    assert!(page.has("<h1>Too large</h1>"), "{}", page.body);
    assert!(page.has("larger than 256 KB"), "{}", page.body);
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(db.result(LeagueId(1), m.fixture).await.unwrap().is_none());
}
