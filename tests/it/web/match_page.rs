//! A match's page, content first: its score in the heading, its boards in
//! one table at the top; a captain of the match (or a secretary) sees what
//! they may do, on the night a large "Score this match" button to the pads;
//! a visitor sees none of it, and neither does the page kept for visitors.

use boneyard::db::*;
use boneyard::web::cache::CACHE_HEADER;
use chrono::Duration;

use crate::harness::pages::rows;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    a_captain_of_the_match_scores_it_from_its_page_on_the_night,
    a_match_page_opens_on_its_score_and_its_boards,
);

const BUTTON: &str = "Score this match</a>";

async fn a_captain_of_the_match_scores_it_from_its_page_on_the_night(db: Db) {
    // Kick-off at 8 p.m. of the match night under way, whatever the hour.
    let zone = boneyard::league::time::Zone::LONDON;
    let tonight = boneyard::league::live::night_begins(zone, now()) + Duration::hours(15);
    let builder = LeagueBuilder::new("night")
        .teams(&["Crown", "Anchor", "Dolphin", "Bell"])
        .fixtures(2)
        .starting_at(tonight);
    let app = TestApp::new(&db, builder).await;
    let l = &app.league;
    // Fixture 1: Crown v Anchor tonight; fixture 2: Dolphin v Bell a week on.
    let (tonight_page, later_page) = (
        format!("/leagues/night/matches/{}", l.fixtures[0]),
        format!("/leagues/night/matches/{}", l.fixtures[1]),
    );
    let pads = format!("{tonight_page}/pad");

    // A visitor: no actions, no "Captains and secretaries" line; the page is
    // kept as it is for every visitor.
    let mut visitor = app.anonymous().await;
    for _ in 0..2 {
        let page = visitor.get(&tonight_page).await;
        assert!(!page.has(BUTTON), "{}", page.body);
        assert!(!page.has("Captains and secretaries"));
        assert!(!page.has(&format!("href=\"{pads}\"")));
        assert!(!page.has(&format!("href=\"{tonight_page}/card\"")));
    }

    // The home captain: the large button to the pads, and the card.
    let mut home = app.with_captain(0).await;
    let page = home.get(&tonight_page).await;
    assert!(
        page.has(&format!("<a class=\"button big\" href=\"{pads}\">{BUTTON}")),
        "{}",
        page.body
    );
    assert!(page.has(&format!("href=\"{tonight_page}/card\"")));
    // The visitor's kept page with the captain's own actions filled in,
    // kept for nobody else.
    assert_eq!(page.headers.get(CACHE_HEADER).unwrap(), "shared");
    assert!(!page.headers.contains_key(axum::http::header::ETAG));
    // The button leads to the match's pads.
    let review = home.get(&pads).await;
    assert_eq!(review.status, axum::http::StatusCode::OK, "{}", review.body);
    // The away captain and the secretary too.
    let page = app.with_captain(1).await.get(&tonight_page).await;
    assert!(page.has(BUTTON), "{}", page.body);
    let page = app.with_secretary().await.get(&tonight_page).await;
    assert!(page.has(BUTTON), "{}", page.body);
    // Another team's captain: nothing to do here.
    let mut other = app.with_captain(2).await;
    let page = other.get(&tonight_page).await;
    assert!(
        !page.has(BUTTON) && !page.has(&format!("href=\"{pads}\"")),
        "{}",
        page.body
    );
    // Their own match a week on: not yet (a result comes in from the day
    // before), so no button and no card.
    let page = other.get(&later_page).await;
    assert!(!page.has(BUTTON), "{}", page.body);
    assert!(!page.has(&format!("href=\"{later_page}/card\"")));

    // The visitors' kept page never took a captain's buttons.
    let page = visitor.get(&tonight_page).await;
    assert!(!page.has(BUTTON), "{}", page.body);
    assert_eq!(page.headers.get(CACHE_HEADER).unwrap(), "hit");
}

async fn a_match_page_opens_on_its_score_and_its_boards(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("score")).await;
    let l = &app.league;
    let home = l.home_names()[0].clone();
    let away = l.away_names()[0].clone();
    let record = crate::web::public::won_game(&home, &away);
    let result = crate::web::public::one_board(l, l.home_players()[0], record);
    boneyard::app::results::write(&db, l.id, l.fixture(), &result, None)
        .await
        .unwrap();
    let page = app
        .anonymous()
        .await
        .get(&format!("/leagues/score/matches/{}", l.fixture()))
        .await;
    // The heading: home, the boards won, away.
    let h1 = &page.body[page.body.find("<h1").unwrap()..page.body.find("</h1>").unwrap()];
    assert!(
        h1.contains("<span class=\"match-score\">1–0</span>"),
        "{h1}"
    );
    assert!(
        page.has("<title>score Home 1–0 score Away"),
        "{}",
        page.body
    );
    // Board by board, before the totals and the hands.
    let summary = rows(&page, "<table class=\"board-summary\"");
    assert_eq!(summary.len(), result.boards.len());
    assert_eq!(summary[0][0], "1");
    // The side that took the board is marked, in words too.
    assert!(summary[0][1].starts_with(&home), "{:?}", summary[0]);
    assert!(
        summary[0][1].ends_with("✓(took the board)"),
        "{:?}",
        summary[0]
    );
    assert_eq!(summary[0][2], "1–0");
    assert_eq!(summary[0][3], away);
    let at = |s: &str| page.body.find(s).unwrap();
    assert!(at("board-summary") < at("Match totals") && at("Match totals") < at("class=\"hands\""));
}
