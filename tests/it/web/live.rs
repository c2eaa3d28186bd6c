//! What is live (`league::live`), on every page that follows the pads: a
//! board untouched since its fixture's night is on no live page, a match
//! none of whose boards is in play is not "in progress", and a board tapped
//! today is on every one of them.

use boneyard::db::sql;
use boneyard::db::*;
use boneyard::league::pad::{Summary, Tap};
use chrono::{DateTime, Duration, Utc};

use crate::harness::client::{Client, Page};
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    a_board_untouched_since_its_fixtures_night_is_on_no_live_page,
    a_board_tapped_today_is_live_until_its_result_is_in,
);

/// A board's pad after its first taps: players chosen, the first hand
/// under way (`won`: the board already won by the home side).
fn summary(won: bool) -> Summary {
    Summary {
        players: vec!["Home player".into(), "Away player".into()],
        game: 1,
        hand: 3,
        totals: [25, 20],
        games_won: if won { [1, 0] } else { [0, 0] },
        winner: won.then_some(0),
        ..Summary::default()
    }
}

/// Board 1 of `fixture` kept on its pad.
async fn tap(db: &Db, l: &Built, fixture: FixtureId, won: bool) {
    let f = db.fixture(l.id, fixture).await.unwrap();
    let first = |team: TeamId| {
        let t = l.teams.iter().find(|t| t.id == team).unwrap();
        t.players[0].0.0
    };
    let tap = Tap::Players {
        home: vec![first(f.home_team_id)],
        away: vec![first(f.away_team_id)],
    };
    let saved = db
        .save_pad(l.id, fixture, 1, 0, &[tap], &summary(won), None)
        .await
        .unwrap();
    assert_eq!(saved, boneyard::db::pad::PadSaved::Saved(1));
}

/// The pad's last tap moved back to `at`, as a pad left since then is.
async fn last_tapped(db: &Db, l: &Built, fixture: FixtureId, at: DateTime<Utc>) {
    let mut tx = db.write(l.id).await.unwrap();
    sql::query("UPDATE pad_boards SET updated_at = $1 WHERE league_id = $2 AND fixture_id = $3")
        .bind(at)
        .bind(l.id)
        .bind(fixture)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A fixture of round `round` (teams 0 v 1 in round 1, 2 v 3 in round 2),
/// starting at `at`.
async fn fixture_at(db: &Db, l: &Built, round: i64, at: DateTime<Utc>) -> FixtureId {
    let home = 2 * (round as usize - 1);
    db.create_fixture(
        l.id,
        &NewFixture {
            season_id: l.season,
            division_id: l.division,
            round,
            starts_at: Some(at),
            home_team_id: l.teams[home].id,
            away_team_id: l.teams[home + 1].id,
            venue_id: l.venue,
        },
    )
    .await
    .unwrap()
    .id
}

/// The part of a page the live script refreshes (its boards), or nothing
/// when it has none.
fn boards(page: &Page) -> &str {
    let body = page.body.as_str();
    let Some(start) = body.find("id=\"live-boards\"") else {
        return "";
    };
    let end = body[start..]
        .find("</div>")
        .map_or(body.len(), |e| start + e);
    &body[start..end]
}

/// What every live page of the league says about fixture `f`'s board:
/// whether the league's live page and screen list it, whether its match
/// page and its screen show it, and the league home's count.
struct Seen {
    live_page: bool,
    league_screen: bool,
    match_page: bool,
    match_screen: bool,
    in_progress: usize,
}

async fn seen(db: &Db, c: &mut Client, l: &Built, f: FixtureId) -> Seen {
    let base = format!("/leagues/{}", l.short);
    let link = format!("href=\"{base}/matches/{f}\"");
    let live = c.get(&format!("{base}/live")).await;
    let screen = c.get(&format!("{base}/screen")).await;
    let page = c.get(&format!("{base}/matches/{f}")).await;
    let match_screen = c.get(&format!("{base}/matches/{f}/screen")).await;
    let home = c.get(&base).await;
    for p in [&live, &screen, &page, &match_screen, &home] {
        assert_eq!(p.status, axum::http::StatusCode::OK, "{}", p.body);
    }
    let count = home
        .body
        .split("Matches in progress</a>")
        .nth(1)
        .and_then(|rest| rest.trim_start().strip_prefix('('))
        .and_then(|rest| rest.split(')').next())
        .map_or(0, |n| n.parse().unwrap());
    // The live page names each match's boards "Home v Away, board N" with
    // a link to the match; the screen names them the same way.
    let fixture = db.fixture(l.id, f).await.unwrap();
    let name = |team: TeamId| &l.teams.iter().find(|t| t.id == team).unwrap().name;
    let board = format!(
        "{} v {}, board 1",
        name(fixture.home_team_id),
        name(fixture.away_team_id)
    );
    Seen {
        live_page: boards(&live).contains(&link),
        league_screen: boards(&screen).contains(&board),
        match_page: boards(&page).contains("Board 1"),
        match_screen: boards(&match_screen).contains("Board 1"),
        in_progress: count,
    }
}

async fn a_board_untouched_since_its_fixtures_night_is_on_no_live_page(db: Db) {
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("stale")
            .teams(&["Crown", "Anchor", "Dolphin", "Bell"])
            .fixtures(0)
            .without_accounts(),
    )
    .await;
    let l = &app.league;
    // Five weeks ago: board 1 tapped on the night, never submitted.
    let weeks_ago = now() - Duration::days(35);
    let old = fixture_at(&db, l, 1, weeks_ago).await;
    tap(&db, l, old, false).await;
    last_tapped(&db, l, old, weeks_ago + Duration::hours(1)).await;
    // Tonight's match (Dolphin v Bell) with its only board won: no board
    // in play.
    let tonight = fixture_at(&db, l, 2, now()).await;
    tap(&db, l, tonight, true).await;

    let mut c = app.anonymous().await;
    let old_seen = seen(&db, &mut c, l, old).await;
    assert!(!old_seen.live_page, "the live page lists the old board");
    assert!(
        !old_seen.league_screen,
        "the pub screen shows the old board"
    );
    assert!(!old_seen.match_page, "its match page shows it live");
    assert!(!old_seen.match_screen, "its match's screen shows it");
    assert_eq!(old_seen.in_progress, 0, "the league home counts it");
    let live = c.get(&format!("/leagues/{}/live", l.short)).await;
    assert!(
        live.has("No match is in progress just now."),
        "{}",
        live.body
    );

    // Tonight's won board: its match is not in progress, so the league's
    // live pages leave it; its own page still shows the board as it ended.
    let won = seen(&db, &mut c, l, tonight).await;
    assert!(!won.live_page && !won.league_screen);
    assert_eq!(won.in_progress, 0);
    assert!(won.match_page && won.match_screen);
    let page = c
        .get(&format!("/leagues/{}/matches/{tonight}", l.short))
        .await;
    assert!(!page.has("Being played now"), "{}", page.body);
    assert!(page.has("On the score pads tonight"));
    assert!(
        page.has("Boards won so far: Dolphin 1–0 Bell."),
        "{}",
        page.body
    );

    // The query itself reads none of the old fixture's boards.
    let zone = db.league_by_short_name(&l.short).await.unwrap().time_zone;
    let night = boneyard::league::live::night_begins(zone, now());
    let read = db.live_boards(l.id, night).await.unwrap();
    assert!(read.iter().all(|b| b.fixture_id != old), "{read:?}");
}

async fn a_board_tapped_today_is_live_until_its_result_is_in(db: Db) {
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("today").fixtures(0).without_accounts(),
    )
    .await;
    let l = &app.league;
    // A fixture of five weeks ago played at last, tapped today: live.
    let f = fixture_at(&db, l, 1, now() - Duration::days(35)).await;
    tap(&db, l, f, false).await;
    let mut c = app.anonymous().await;
    let s = seen(&db, &mut c, l, f).await;
    assert!(s.live_page && s.league_screen && s.match_page && s.match_screen);
    assert_eq!(s.in_progress, 1);
    let live = c.get(&format!("/leagues/{}/live", l.short)).await;
    assert!(live.has("1 match in progress."), "{}", live.body);
    let page = c.get(&format!("/leagues/{}/matches/{f}", l.short)).await;
    assert!(page.has("Being played now"), "{}", page.body);
    // The live page's fixtures are kept while the league's records stand
    // (taps leave them so): read once here, the result below must show.
    let pending = |body: &str| -> Vec<(i64, bool)> {
        let v: serde_json::Value = serde_json::from_str(body).expect("JSON");
        v["data"]["pending"]
            .as_array()
            .expect("a list of pending results")
            .iter()
            .map(|p| (p["id"].as_i64().expect("an id"), !p["score"].is_null()))
            .collect()
    };
    let api = format!("/api/v1/leagues/{}/live", l.short);
    assert_eq!(pending(&c.get(&api).await.body), vec![]);

    // Its result in: off every live page at once.
    boneyard::app::results::write(
        &db,
        l.id,
        f,
        &crate::web::public::one_board(l, l.home_players()[0], won_record(l)),
        None,
    )
    .await
    .unwrap();
    let s = seen(&db, &mut c, l, f).await;
    assert!(!s.live_page, "live page");
    assert!(!s.league_screen, "league screen");
    assert!(!s.match_page, "match page");
    assert!(!s.match_screen, "match screen");
    assert_eq!(s.in_progress, 0);
    // Awaiting approval, with its score, on the live page's list.
    assert_eq!(pending(&c.get(&api).await.body), vec![(f.0, true)]);
    let page = c.get(&format!("/leagues/{}/matches/{f}", l.short)).await;
    assert!(!page.has("Being played now"), "{}", page.body);
}

/// A game the home side's first player won.
fn won_record(l: &Built) -> boneyard::rules::GameRecord {
    crate::web::public::won_game(&l.home_names()[0], &l.away_names()[0])
}
