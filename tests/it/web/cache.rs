//! Rendered public pages kept in memory (`src/web/cache.rs`): a second app
//! server on the same database sees a first server's approval at once; a
//! browser's copy is confirmed with `304 Not Modified`; signed-in pages and
//! saved messages are never kept or served to anyone else.

use axum::http::{StatusCode, header};
use boneyard::db::*;

use boneyard::web::cache::CACHE_HEADER;

use crate::harness::LeagueBuilder;
use crate::harness::client::{Client, Page, account};
use crate::harness::pages::slug;
use crate::support::on_both;
use crate::web::results::{client, setup, simulated_card, submit_card};

on_both!(
    a_second_server_sees_an_approval_at_once,
    a_kept_page_is_confirmed_by_its_etag,
    signed_in_pages_are_never_kept,
    every_write_raises_the_page_generation,
    a_write_in_one_league_leaves_the_others_pages_kept,
    visitors_finding_a_page_stale_together_all_get_the_new_one,
    a_tap_moves_the_live_pages_and_leaves_the_tables_kept,
);

async fn league_id(db: &Db) -> LeagueId {
    db.league_by_short_name("card").await.unwrap().id
}

/// The division table of the league `setup` builds.
async fn table_path(db: &Db) -> String {
    let league = db.league_by_short_name("card").await.unwrap();
    let season = db.seasons(league.id).await.unwrap().remove(0);
    let division = db.divisions(league.id, season.id).await.unwrap().remove(0);
    format!(
        "/leagues/card/{}/{}",
        slug(&season.name),
        slug(&division.name)
    )
}

/// The played column of the team named `team` in a table page.
fn played(body: &str, team: &str) -> String {
    let row = body
        .split("<tr")
        .find(|row| row.contains(&format!(">{team}<")) && row.contains("<td"))
        .unwrap_or_else(|| panic!("a row for {team} in {body}"));
    // The first number after the team's name.
    row.split(&format!(">{team}<"))
        .nth(1)
        .and_then(|rest| rest.split("<td").nth(1))
        .and_then(|cell| cell.split('>').nth(1))
        .and_then(|text| text.split('<').next())
        .unwrap_or_else(|| panic!("a played cell in {row}"))
        .trim()
        .to_owned()
}

async fn a_second_server_sees_an_approval_at_once(db: Db) {
    let m = setup(&db).await;
    let table = table_path(&db).await;
    // Two app servers over one database: each keeps its own pages.
    let mut sec = client(&db, "sec").await;
    let mut first = sec.stranger();
    let mut second = Client::new(&db).await;
    for visitor in [&mut first, &mut second] {
        for _ in 0..2 {
            let page = visitor.get(&table).await;
            assert_eq!(page.status, StatusCode::OK, "{}", page.body);
            assert_eq!(played(&page.body, "Crown"), "0", "{}", page.body);
            assert!(page.headers.contains_key(header::ETAG), "kept: {page:?}");
        }
    }
    let before = second.get(&table).await;
    // A team's record is its row of the table, read from the same kept
    // load of its division: it follows the approval too.
    let crown = db
        .teams(league_id(&db).await)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Crown")
        .unwrap()
        .id;
    let team_api = format!("/api/v1/leagues/card/teams/{}", crown.0);
    let record_played = |page: &Page| -> u64 {
        let v: serde_json::Value =
            serde_json::from_str(&page.body).unwrap_or_else(|e| panic!("{e}: {}", page.body));
        v["data"]["record"]["played"]
            .as_u64()
            .unwrap_or_else(|| panic!("a record in {v}"))
    };
    for visitor in [&mut first, &mut second] {
        assert_eq!(record_played(&visitor.get(&team_api).await), 0);
    }

    // A result entered and approved through the first server.
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 8);
    let saved = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    // Entered, not approved: the table does not count it yet.
    assert_eq!(played(&second.get(&table).await.body, "Crown"), "0");
    let page = sec.get(&m.path("")).await;
    let version = db
        .result(league_id(&db).await, m.fixture)
        .await
        .unwrap()
        .unwrap()
        .version;
    let approved = sec
        .post(
            &m.path("/approve"),
            &[
                ("csrf", &page.csrf()),
                ("version", &version.version.to_string()),
            ],
        )
        .await;
    assert_eq!(approved.status, StatusCode::SEE_OTHER, "{}", approved.body);
    let status = db
        .result(league_id(&db).await, m.fixture)
        .await
        .unwrap()
        .unwrap()
        .version
        .status;
    assert_eq!(status, ResultStatus::Approved);

    // The secretary's saved message is theirs alone, and never kept.
    let to = approved.location.clone().unwrap();
    let shown = sec.get(&to).await;
    assert!(shown.has("id=\"saved\""), "{}", shown.body);
    assert!(!shown.headers.contains_key(header::ETAG));
    let seen = first.get(&to).await;
    assert!(!seen.has("id=\"saved\""), "{}", seen.body);

    // The very next request to either server shows it.
    for visitor in [&mut second, &mut first] {
        let page = visitor.get(&table).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(played(&page.body, "Crown"), "1", "{}", page.body);
        assert_ne!(
            page.headers.get(header::ETAG),
            before.headers.get(header::ETAG),
            "a changed table has a new ETag"
        );
        assert_eq!(record_played(&visitor.get(&team_api).await), 1);
    }
}

async fn a_kept_page_is_confirmed_by_its_etag(db: Db) {
    setup(&db).await;
    let table = table_path(&db).await;
    let mut visitor = Client::new(&db).await;
    let page = visitor.get(&table).await;
    assert_eq!(page.status, StatusCode::OK);
    let etag = page.headers[header::ETAG].to_str().unwrap().to_owned();
    assert_eq!(page.headers[header::CACHE_CONTROL], "no-cache");
    assert_eq!(page.headers[header::VARY], "Cookie");
    // The security headers are there on a kept page as on any other.
    let again = visitor.get(&table).await;
    assert_eq!(again.body, page.body);
    assert_eq!(again.headers[header::X_FRAME_OPTIONS], "DENY");
    assert!(again.headers.contains_key(header::CONTENT_SECURITY_POLICY));
    assert!(
        again.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );

    let unchanged = visitor
        .get_with(&table, &[(header::IF_NONE_MATCH.as_str(), &etag)])
        .await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);
    assert!(unchanged.body.is_empty());
    assert_eq!(unchanged.headers[header::ETAG], etag.as_str());

    let other = visitor
        .get_with(
            &table,
            &[(header::IF_NONE_MATCH.as_str(), "\"not-this-one\"")],
        )
        .await;
    assert_eq!(other.status, StatusCode::OK);
    assert_eq!(other.body, page.body);

    // A page that is not there is not kept.
    let missing = visitor.get("/leagues/card/no-such-season").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(!missing.headers.contains_key(header::ETAG));
}

async fn signed_in_pages_are_never_kept(db: Db) {
    setup(&db).await;
    let table = table_path(&db).await;
    let mut sec = client(&db, "sec").await;
    let mut visitor = sec.stranger();
    // The secretary's page, with their name, form token and console link,
    // is rendered for them and kept for nobody.
    let page = sec.get(&table).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("Sign out"), "{}", page.body);
    assert!(!page.headers.contains_key(header::ETAG), "{page:?}");
    let seen = visitor.get(&table).await;
    assert!(seen.headers.contains_key(header::ETAG), "{seen:?}");
    assert!(!seen.has("Sign out"), "{}", seen.body);
    assert!(!seen.has("sec-card"), "{}", seen.body);
    assert!(!seen.has("name=\"csrf\""), "{}", seen.body);
    // Nor is the visitor's kept page served to the secretary.
    let again = sec.get(&table).await;
    assert!(again.has("Sign out"), "{}", again.body);
    assert!(!again.headers.contains_key(header::ETAG));
}

async fn every_write_raises_the_page_generation(db: Db) {
    setup(&db).await;
    LeagueBuilder::new("other").build(&db).await;
    let generations = || async {
        (
            db.page_generation(Some("card"), boneyard::db::generation::Follows::Records)
                .await
                .unwrap(),
            db.page_generation(Some("other"), boneyard::db::generation::Follows::Records)
                .await
                .unwrap(),
            db.page_generation(None, boneyard::db::generation::Follows::Records)
                .await
                .unwrap(),
        )
    };
    let (card, other, all) = generations().await;
    db.create_player(league_id(&db).await, "Someone New")
        .await
        .unwrap();
    let after = generations().await;
    assert!(
        after.0 > card,
        "the league written to: {card} -> {}",
        after.0
    );
    assert_eq!(after.1, other, "another league's pages stay current");
    assert!(
        after.2 > all,
        "pages outside the leagues follow every write"
    );
    // A failed write leaves them as they were.
    let _ = db.create_player(LeagueId(9999), "Nobody's").await;
    assert_eq!(generations().await, after);
    // A write any page may show (an account) raises every league's.
    account(&db, "someone", "a password of theirs").await;
    let last = generations().await;
    assert!(last.0 > after.0 && last.1 > after.1 && last.2 > after.2);
}

/// Whether the page was answered from memory.
fn kept(page: &Page) -> bool {
    page.headers[CACHE_HEADER] == "hit"
}

async fn a_write_in_one_league_leaves_the_others_pages_kept(db: Db) {
    setup(&db).await;
    LeagueBuilder::new("other").build(&db).await;
    let card = table_path(&db).await;
    let other = "/leagues/other";
    let mut visitor = Client::new(&db).await;
    for path in [card.as_str(), other] {
        assert!(!kept(&visitor.get(path).await), "{path} first rendered");
        assert!(kept(&visitor.get(path).await), "{path} then kept");
    }
    // A result in the card league: its table is rendered again, the other
    // league's home is still the one kept.
    db.create_player(league_id(&db).await, "Someone New")
        .await
        .unwrap();
    assert!(!kept(&visitor.get(&card).await));
    assert!(kept(&visitor.get(other).await));
    // An account, which any page may name: both rendered again.
    account(&db, "someone", "a password of theirs").await;
    assert!(!kept(&visitor.get(&card).await));
    assert!(!kept(&visitor.get(other).await));
}

async fn visitors_finding_a_page_stale_together_all_get_the_new_one(db: Db) {
    setup(&db).await;
    let table = table_path(&db).await;
    let league = league_id(&db).await;
    let visitor = Client::new(&db).await;
    let mut first = visitor.stranger();
    assert!(first.get(&table).await.has("Card League"));
    let l = db.league(league).await.unwrap();
    let renamed = NewLeague {
        name: "Card League Renamed".into(),
        short_name: l.short_name.clone(),
        rules_summary: l.rules_summary.clone(),
        contact: l.contact.clone(),
    };
    db.update_league(league, &renamed, l.time_zone, None)
        .await
        .unwrap();
    // Sixteen at once: one renders the page again, the rest wait for it
    // (or render it themselves); every one gets the new page.
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let mut c = visitor.stranger();
            let table = table.clone();
            tokio::spawn(async move { c.get(&table).await })
        })
        .collect();
    for task in tasks {
        let page = task.await.unwrap();
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.has("Card League Renamed"), "{}", page.body);
    }
}

async fn a_tap_moves_the_live_pages_and_leaves_the_tables_kept(db: Db) {
    let m = setup(&db).await;
    let league = league_id(&db).await;
    let table = table_path(&db).await;
    let home = "/leagues/card".to_owned();
    // Another match of the league, on the same night.
    let f = db.fixture(league, m.fixture).await.unwrap();
    let other = db
        .create_fixture(
            league,
            &NewFixture {
                season_id: f.season_id,
                division_id: f.division_id.unwrap(),
                round: 2,
                starts_at: f.starts_at,
                home_team_id: f.away_team_id,
                away_team_id: f.home_team_id,
                venue_id: None,
            },
        )
        .await
        .unwrap()
        .id;
    let other_match = format!("/leagues/card/matches/{other}");
    let followers = [
        "/leagues/card/live".to_owned(),
        m.path(""),
        m.path("/screen"),
        "/leagues/card/screen".to_owned(),
    ];
    let mut visitor = Client::new(&db).await;
    for path in followers.iter().chain([&table, &home, &other_match]) {
        visitor.get(path).await;
        assert!(kept(&visitor.get(path).await), "{path} kept");
    }
    let tap = boneyard::league::pad::Tap::Players {
        home: vec![m.home[0].0.0],
        away: vec![m.away[0].0.0],
    };
    let summary = boneyard::league::pad::Summary::default();
    let saved = db
        .save_pad(league, m.fixture, 1, 0, &[tap], &summary, None)
        .await
        .unwrap();
    assert_eq!(saved, boneyard::db::pad::PadSaved::Saved(1));
    // The tables, fixtures and home do not show taps: still kept.
    assert!(kept(&visitor.get(&table).await), "the table stays kept");
    assert!(
        kept(&visitor.get(&home).await),
        "the league home stays kept"
    );
    // The pages that show boards in play are rendered again, once.
    for path in &followers {
        assert!(!kept(&visitor.get(path).await), "{path} follows the tap");
        assert!(kept(&visitor.get(path).await), "{path} then kept again");
    }
}
