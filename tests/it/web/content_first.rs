//! Public pages content first (issue 39): a division's table before its
//! controls and its notes folded into one line, a team page opening on its
//! next match.

use boneyard::db::*;

use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(a_new_seasons_table_comes_first_with_its_notes_in_one_line_and_a_team_its_next_match);

async fn a_new_seasons_table_comes_first_with_its_notes_in_one_line_and_a_team_its_next_match(
    db: Db,
) {
    let builder = LeagueBuilder::new("first")
        .teams(&["Crown", "Anchor", "Dolphin", "Bell"])
        .fixtures(2)
        .without_accounts();
    let app = TestApp::new(&db, builder).await;
    let l = &app.league;
    let mut c = app.anonymous().await;

    // No match played: every team level with the next on every rule.
    let table = c.get("/leagues/first/2026-27/one").await;
    assert_eq!(table.status, axum::http::StatusCode::OK, "{}", table.body);
    let at = |s: &str| {
        table
            .body
            .find(s)
            .unwrap_or_else(|| panic!("no `{s}` in {}", table.body))
    };
    let first_row = at("<table class=\"standings\"");
    for control in [
        "<label for=\"after\">",
        "/data\">",
        "Subscribe to this calendar",
        "/fixtures\">",
    ] {
        assert!(first_row < at(control), "{control} before the table");
    }
    // One note for the four teams level, and a one-line summary of them.
    assert_eq!(
        table
            .body
            .matches("level on every rule and are listed by name")
            .count(),
        1,
        "{}",
        table.body
    );
    assert!(table.has(
        "<li>Anchor, Bell, Crown and Dolphin are level on every rule and are listed by name.</li>"
    ));
    let summary = &table.body[at("<summary>")..at("</summary>")];
    assert!(summary.contains("4 teams level on every rule"), "{summary}");

    // A team's page opens on its next match: Dolphin at home to Bell, in
    // round 2.
    let dolphin = &l.teams[2];
    let page = c.get(&format!("/leagues/first/teams/{}", dolphin.id)).await;
    let page = c.get(page.location.as_deref().unwrap()).await;
    let next = page
        .body
        .find("class=\"next-match\"")
        .expect("a next match");
    assert!(next < page.body.find("<h2>Players").unwrap());
    let section = &page.body[next..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("at home to"), "{section}");
    assert!(section.contains(">Bell</a>"), "{section}");
    assert!(section.contains(&format!("/leagues/first/matches/{}", l.fixtures[1])));
}
