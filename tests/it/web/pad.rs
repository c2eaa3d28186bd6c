//! The score pad over HTTP: a match kept tap by tap with plain forms (no
//! script) and submitted in one go, the links that open one board without
//! an account, and two phones keeping one board.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::{Tap, taps_for_board};
use boneyard::league::workflow;
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, GameRecord, Ruleset, score_record};
use serde_json::json;

use crate::harness::client::{Client, Page};
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    a_match_kept_on_the_pads_without_a_script_submits_as_boneyard_score,
    a_pad_link_keeps_only_its_board_on_its_night,
    two_phones_on_one_board_never_mix_their_taps,
    a_play_past_61_is_shown_as_disregarded,
    a_played_match_keeps_its_pads_closed,
    a_submission_never_stores_a_board_changed_since_the_review,
    the_pad_and_its_links_refuse_a_player_already_on_a_board_of_that_kind,
    the_card_lists_every_line_up_clash,
    a_stored_result_breaking_the_line_up_is_shown_to_the_secretary,
    a_postponement_racing_a_result_never_leaves_a_played_fixture_postponed,
    the_metrics_count_requests_pad_taps_and_kept_pages,
);

/// Two singles boards and a pairs board, one game each.
fn board_league() -> LeagueBuilder {
    LeagueBuilder::new("card").boards(MatchFormat::with_boards(2, 1, 1))
}

/// The board's games as the simulator plays them, and the taps that record
/// them.
pub(crate) fn simulated(m: &Built, board: usize, seed: u64) -> (Vec<GameRecord>, Vec<Tap>) {
    let spec = m.format.boards[board];
    let n = spec.kind.players_a_side();
    let home: Vec<&(PlayerId, String)> = m.teams[0].players.iter().skip(board).take(n).collect();
    let away: Vec<&(PlayerId, String)> = m.teams[1].players.iter().skip(board).take(n).collect();
    let players: Vec<String> = (0..n)
        .flat_map(|j| [home[j].1.clone(), away[j].1.clone()])
        .collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
        .collect();
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let games = simulate_board(
        &ruleset,
        &players,
        &sides,
        spec.best_of,
        &mut Rng::new(seed),
        &Style::clean(),
    );
    let ids = |ps: &[&(PlayerId, String)]| ps.iter().map(|p| p.0.0).collect::<Vec<_>>();
    let taps = taps_for_board(&ids(&home), &ids(&away), &games);
    (games, taps)
}

/// A tap as the pad's plain form sends it.
fn form_fields(tap: &Tap) -> Vec<(String, String)> {
    let mut f = Vec::new();
    let mut put = |k: &str, v: String| f.push((k.to_owned(), v));
    match tap {
        Tap::Players { home, away } => {
            put("t", "players".into());
            for (i, id) in home.iter().enumerate() {
                put(&format!("home{i}"), id.to_string());
            }
            for (i, id) in away.iter().enumerate() {
                put(&format!("away{i}"), id.to_string());
            }
        }
        Tap::Draw { tiles } => {
            put("t", "draw".into());
            for (i, t) in tiles.iter().enumerate() {
                put(&format!("tile{i}"), t.clone());
            }
        }
        Tap::Pose { seat } => {
            put("t", "pose".into());
            put("seat", seat.to_string());
        }
        Tap::Play { seat, points } => {
            put("t", "play".into());
            put("seat", seat.to_string());
            put("points", points.to_string());
        }
        Tap::Out { seat, points, .. } => {
            put("t", "out".into());
            put("seat", seat.to_string());
            put("points", points.to_string());
        }
        Tap::Blocked { pips } => {
            put("t", "blocked".into());
            for (i, p) in pips.iter().enumerate() {
                put(&format!("pips{i}"), p.to_string());
            }
        }
        other => panic!("no form for {other:?} in a fives-and-threes test"),
    }
    f
}

/// Sends one tap through the pad's form, as a phone without the script.
async fn form_tap(c: &mut Client, pad: &str, tap: &Tap) -> String {
    let page = c.get(pad).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let base = {
        let marker = "name=\"base\" value=\"";
        let start = page.body.find(marker).unwrap() + marker.len();
        page.body[start..].split('"').next().unwrap().to_owned()
    };
    let mut fields = vec![("csrf".to_owned(), page.csrf()), ("base".to_owned(), base)];
    fields.extend(form_fields(tap));
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let done = c.post(pad, &refs).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{tap:?}: {}", done.body);
    let after = c.get(done.location.as_deref().unwrap()).await;
    assert!(after.has("Saved on the server:"), "{}", after.body);
    after.body
}

async fn a_match_kept_on_the_pads_without_a_script_submits_as_boneyard_score(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    let mut expected = Vec::new();
    for board in 0..m.format.boards.len() {
        let (games, taps) = simulated(m, board, 40 + board as u64);
        let pad = m.path(&format!("/pad/{}", board + 1));
        let mut last = String::new();
        for tap in &taps {
            last = form_tap(&mut home, &pad, tap).await;
        }
        assert!(last.contains("won the board"), "{last}");
        expected.push(games);
    }
    // The card starts from the pads, reading without a problem.
    let card = home.get(&m.path("/card")).await;
    assert!(card.has("Filled in from the score pads"), "{}", card.body);
    assert!(card.has("draw "), "the first game's draw is on the card");
    assert!(!card.has("aria-invalid=\"true\""), "{}", card.body);
    let review = home.get(&m.path("/pad")).await;
    assert!(review.has("Every board is decided"), "{}", review.body);
    let done = submit_review(&mut home, m, &review).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let history = home.get(done.location.as_deref().unwrap()).await;
    assert!(history.has("Saved: the result from the score pads, as version 1"));

    let league = db.league_by_short_name(&m.short).await.unwrap();
    let stored = db.result(league.id, m.fixtures[0]).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Entered);
    assert_eq!(stored.result.boards.len(), expected.len());
    for (board, games) in stored.result.boards.iter().zip(&expected) {
        assert_eq!(board.games.len(), games.len());
        for (g, sim) in board.games.iter().zip(games) {
            let theirs = score_record(sim).unwrap();
            let ours = score_record(&g.record).unwrap();
            assert_eq!(ours.totals, theirs.totals);
            assert_eq!(ours.winner, theirs.winner);
            assert_eq!(ours.next_pose, theirs.next_pose);
            assert_eq!(ours.hands.len(), theirs.hands.len());
        }
    }
    let fixture = db.fixture(league.id, m.fixtures[0]).await.unwrap();
    assert_eq!(fixture.status, FixtureStatus::Played);
    // The pads are closed now: a tap is refused with the reason.
    let pad = m.path("/pad/1");
    let page = home.get(&pad).await;
    assert!(page.has("its pads are closed"));
}

async fn a_pad_link_keeps_only_its_board_on_its_night(db: Db) {
    let past = "2026-09-10T19:30:00Z".parse().unwrap();
    let app = TestApp::new(&db, board_league().starting_at(past)).await;
    let m = &app.league;
    let league = db.league_by_short_name(&m.short).await.unwrap();
    // Made by a captain on the review page: the fixture's night is in the
    // past here, so making one is refused with the reason.
    let mut home = app.with_captain(0).await;
    let refused = link_action(&mut home, m, 2, "create").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.has("day has passed"));
    // Move the match to tomorrow night and make it again.
    let mut f = db.fixture(league.id, m.fixtures[0]).await.unwrap();
    f.starts_at = Some(now() + chrono::Duration::days(1));
    boneyard::app::fixtures::change(
        &db,
        league.id,
        m.fixtures[0],
        &FixtureChange::from(&f),
        None,
    )
    .await
    .unwrap();
    let made = link_action(&mut home, m, 2, "create").await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let review = home.get(made.location.as_deref().unwrap()).await;
    assert!(review.has("Saved: a new link for board 2"));
    assert!(review.has("<svg"), "the link's QR code is on the page");
    let link = db
        .pad_links(league.id, m.fixtures[0])
        .await
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(link.board, 2);

    let mut holder = home.stranger();
    let own = holder
        .get(&m.path(&format!("/pad/2?key={}", link.token)))
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.body);
    assert!(own.has("Who plays this board?"));
    // A tap through the link is saved.
    let tap = Tap::Players {
        home: vec![m.teams[0].players[2].0.0],
        away: vec![m.teams[1].players[2].0.0],
    };
    let page_path = m.path(&format!("/pad/2?key={}", link.token));
    form_tap(&mut holder, &page_path, &tap).await;

    let other_board = holder
        .get(&m.path(&format!("/pad/1?key={}", link.token)))
        .await;
    assert_eq!(other_board.status, StatusCode::FORBIDDEN);
    assert!(other_board.has("for board 2, not board 1"));
    let other = new_fixture_like(&db, &league, m).await;
    let other_fixture = holder
        .get(&format!(
            "/leagues/{}/matches/{other}/pad/2?key={}",
            m.short, link.token
        ))
        .await;
    assert_eq!(other_fixture.status, StatusCode::FORBIDDEN);
    assert!(other_fixture.has("another match"));
    let unknown = holder.get(&m.path("/pad/2?key=nonsense")).await;
    assert_eq!(unknown.status, StatusCode::FORBIDDEN);
    let bare = holder.get(&m.path("/pad/2")).await;
    assert_eq!(
        bare.status,
        StatusCode::SEE_OTHER,
        "no key, no account: sign in"
    );
    // The link holder cannot submit or make links; nor can anyone else
    // without an account; the secretary can.
    let submit = holder.get(&m.path("/pad")).await;
    assert_eq!(submit.status, StatusCode::SEE_OTHER);
    let submit = app.anonymous().await.get(&m.path("/pad")).await;
    assert_eq!(submit.status, StatusCode::SEE_OTHER);
    let secretary = app.with_secretary().await.get(&m.path("/pad")).await;
    assert_eq!(secretary.status, StatusCode::OK);
    assert_eq!(submit.status, StatusCode::SEE_OTHER);

    // Revoked: refused at once.
    let revoked = link_action(&mut home, m, 2, "revoke").await;
    assert_eq!(revoked.status, StatusCode::SEE_OTHER);
    let after = holder.get(&page_path).await;
    assert_eq!(after.status, StatusCode::FORBIDDEN);
    assert!(after.has("revoked"));

    // Links for every board at once: the revoked board 2 and the others.
    let all = link_action(&mut home, m, 1, "create_all").await;
    assert_eq!(all.status, StatusCode::SEE_OTHER);
    let boards: Vec<i64> = db
        .pad_links(league.id, m.fixtures[0])
        .await
        .unwrap()
        .iter()
        .map(|l| l.board)
        .collect();
    assert_eq!(boards, vec![1, 2, 3]);

    // Expired: after the fixture's night.
    db.create_pad_link(
        league.id,
        m.fixtures[0],
        2,
        "expiredexpiredexpiredexpired0000",
        now() - chrono::Duration::hours(1),
        None,
    )
    .await
    .unwrap();
    let expired = holder
        .get(&m.path("/pad/2?key=expiredexpiredexpiredexpired0000"))
        .await;
    assert_eq!(expired.status, StatusCode::FORBIDDEN);
    assert!(expired.has("expired"));
}

/// Presses a button of the review page's link forms for `board`.
async fn link_action(c: &mut Client, m: &Built, board: i64, action: &str) -> Page {
    let review = c.get(&m.path("/pad")).await;
    let board = board.to_string();
    c.post(
        &m.path("/pad/links"),
        &[
            ("csrf", &review.csrf()),
            ("board", &board),
            ("action", action),
        ],
    )
    .await
}

/// Another fixture of the same league and teams.
async fn new_fixture_like(db: &Db, league: &League, m: &Built) -> FixtureId {
    let f = db.fixture(league.id, m.fixtures[0]).await.unwrap();
    db.create_fixture(
        league.id,
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
    .id
}

async fn two_phones_on_one_board_never_mix_their_taps(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let (_, taps) = simulated(m, 0, 7);
    let sync = m.path("/pad/1/sync");
    let mut a = app.with_captain(0).await;
    let mut b = app.with_captain(1).await;
    let csrf_a = a.get(&m.path("/pad/1")).await.csrf();
    let csrf_b = b.get(&m.path("/pad/1")).await.csrf();
    let as_json = |t: &[Tap]| json!({ "taps": t });

    // Without the form token: refused.
    let no_token = a.post_json(&sync, &as_json(&taps[..3]), "").await;
    assert_eq!(no_token.status, StatusCode::FORBIDDEN);

    // Phone A sends its first taps, then more (a resend is harmless).
    let r = a.post_json(&sync, &as_json(&taps[..3]), &csrf_a).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = a.post_json(&sync, &as_json(&taps[..5]), &csrf_a).await;
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["taps"].as_array().unwrap().len(), 5);
    assert_eq!(body["revision"], 2);

    // Phone B went another way after tap 3: refused whole, with the
    // server's taps to show.
    let mut theirs = taps[..3].to_vec();
    theirs.push(Tap::Play { seat: 1, points: 8 });
    let r = b.post_json(&sync, &as_json(&theirs), &csrf_b).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert!(body["conflict"].as_str().unwrap().contains("Another phone"));
    assert_eq!(body["taps"].as_array().unwrap().len(), 5);

    // A tap the engine refuses comes back with its reason; the ones
    // before it are kept.
    let mut bad = taps[..5].to_vec();
    bad.push(Tap::Play { seat: 0, points: 4 });
    bad.push(Tap::Play { seat: 0, points: 5 });
    let r = a.post_json(&sync, &as_json(&bad), &csrf_a).await;
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["refused"]["index"], 6, "{}", r.body);
    assert!(
        body["refused"]["reason"]
            .as_str()
            .unwrap()
            .contains("not 5")
    );
    assert_eq!(body["taps"].as_array().unwrap().len(), 6);

    // A plain form based on an old page is refused too, not mixed in.
    let league = db.league_by_short_name(&m.short).await.unwrap();
    let stored = db
        .pad_board(league.id, m.fixtures[0], 1)
        .await
        .unwrap()
        .unwrap();
    let stale = b
        .post(
            &m.path("/pad/1"),
            &[
                ("csrf", csrf_b.as_str()),
                ("base", "1"),
                ("t", "play"),
                ("seat", "1"),
                ("points", "2"),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert!(stale.has("changed on another phone"));
    let after = db
        .pad_board(league.id, m.fixtures[0], 1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.taps, stored.taps);
}

async fn a_play_past_61_is_shown_as_disregarded(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    let pad = m.path("/pad/1");
    let mut taps = vec![
        Tap::Players {
            home: vec![m.teams[0].players[0].0.0],
            away: vec![m.teams[1].players[0].0.0],
        },
        Tap::Pose { seat: 0 },
    ];
    for _ in 0..7 {
        taps.push(Tap::Play { seat: 0, points: 8 });
        taps.push(Tap::Blocked { pips: vec![] });
    }
    taps.push(Tap::Play { seat: 0, points: 2 });
    for tap in &taps {
        let page = form_tap(&mut home, &pad, tap).await;
        assert!(!page.contains("Disregarded"));
    }
    let page = form_tap(&mut home, &pad, &Tap::Play { seat: 0, points: 4 }).await;
    assert!(
        page.contains("Disregarded: it would take the side past 61"),
        "{page}"
    );
    assert!(page.contains(">58<"), "the total stays 58: {page}");
    let page = form_tap(&mut home, &pad, &Tap::Play { seat: 0, points: 3 }).await;
    assert!(page.contains("won the board 1–0"), "{page}");
}

async fn a_played_match_keeps_its_pads_closed(db: Db) {
    let builder = LeagueBuilder::new("done")
        .boards(MatchFormat::with_boards(1, 0, 1))
        .played(1);
    let app = TestApp::new(&db, builder).await;
    let m = &app.league;
    let stored = db.result(m.id, m.fixtures[0]).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Approved);
    let mut captain = app.with_captain(0).await;
    let page = captain.get(&m.path("/pad/1")).await;
    assert!(page.has("its pads are closed"), "{}", page.body);
    let refused = captain
        .post(
            &m.path("/pad/1"),
            &[("csrf", &page.csrf()), ("base", "0"), ("t", "undo")],
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.has("the pad is closed"));
    let review = captain.get(&m.path("/pad")).await;
    assert!(review.has("This match&#39;s result is in") || review.has("This match's result is in"));
}

/// The review page's hidden fields: each board's pad revision as shown.
pub(crate) fn shown_revisions(review: &Page) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = review.body.as_str();
    while let Some(at) = rest.find("name=\"revision") {
        rest = &rest[at + "name=\"".len()..];
        let name: String = rest.chars().take_while(|c| *c != '"').collect();
        let value_at = rest.find("value=\"").expect("a value") + "value=\"".len();
        let value: String = rest[value_at..].chars().take_while(|c| *c != '"').collect();
        out.push((name, value));
    }
    out
}

/// Submits the match from the review page as it was shown.
pub(crate) async fn submit_review(c: &mut Client, m: &Built, review: &Page) -> Page {
    submit_review_at(c, &m.path("/pad"), review).await
}

async fn submit_review_at(c: &mut Client, action: &str, review: &Page) -> Page {
    let shown = shown_revisions(review);
    let csrf = review.csrf();
    let mut fields: Vec<(&str, &str)> = vec![("csrf", &csrf)];
    fields.extend(shown.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    c.post(action, &fields).await
}

/// Keeps every board of fixture `fixture` to its end through the sync, as
/// the home captain's phone; returns each board's taps.
pub(crate) async fn play_all_boards(
    c: &mut Client,
    m: &Built,
    fixture: FixtureId,
    seed: u64,
) -> Vec<Vec<Tap>> {
    let at = |rest: &str| format!("/leagues/{}/matches/{}{rest}", m.short, fixture);
    let csrf = c.get(&at("/pad/1")).await.csrf();
    let mut all = Vec::new();
    for board in 0..m.format.boards.len() {
        let (_, taps) = simulated(m, board, seed + board as u64);
        let r = c
            .post_json(
                &at(&format!("/pad/{}/sync", board + 1)),
                &json!({ "taps": taps }),
                &csrf,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        all.push(taps);
    }
    all
}

async fn a_submission_never_stores_a_board_changed_since_the_review(db: Db) {
    const ROUNDS: usize = 8;
    // Weekly fixtures, the last of them tomorrow: each may take a result.
    let first = chrono::Utc::now() - chrono::Duration::days(7 * ROUNDS as i64 - 1);
    let app = TestApp::new(&db, board_league().fixtures(ROUNDS + 1).starting_at(first)).await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    let mut away = app.with_captain(1).await;
    let at = |f: FixtureId, rest: &str| format!("/leagues/{}/matches/{}{rest}", m.short, f);

    // Shown, then an undo on board 1, then submitted as shown: refused,
    // with the review shown again as the pads stand, and nothing stored.
    let f = m.fixtures[0];
    let boards = play_all_boards(&mut home, m, f, 60).await;
    let review = home.get(&at(f, "/pad")).await;
    assert!(review.has("Every board is decided"), "{}", review.body);
    let csrf = away.get(&at(f, "/pad/1")).await.csrf();
    let mut undone = boards[0].clone();
    undone.push(Tap::Undo);
    let r = away
        .post_json(&at(f, "/pad/1/sync"), &json!({ "taps": undone }), &csrf)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let refused = submit_review_at(&mut home, &at(f, "/pad"), &review).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(
        refused.has("board 1 changed on the score pad"),
        "{}",
        refused.body
    );
    assert!(
        refused.has("Not every board is decided yet (board 1)"),
        "{}",
        refused.body
    );
    assert!(db.result(m.id, f).await.unwrap().is_none());

    // The same raced: the submission and the undo sent at once. Either the
    // result is stored and the undo refused (the pad closed), or the undo
    // is taken and the submission refused; never a result with board 1 as
    // it was while its pad ends with the undo.
    let (mut stored, mut undone_first) = (0, 0);
    for (round, &f) in m.fixtures[1..].iter().enumerate() {
        let boards = play_all_boards(&mut home, m, f, 100 + 10 * round as u64).await;
        let review = home.get(&at(f, "/pad")).await;
        let csrf = away.get(&at(f, "/pad/1")).await.csrf();
        let mut undone = boards[0].clone();
        undone.push(Tap::Undo);
        let sync = at(f, "/pad/1/sync");
        let undo_body = json!({ "taps": undone });
        let action = at(f, "/pad");
        let (submitted, undo) = tokio::join!(
            submit_review_at(&mut home, &action, &review),
            away.post_json(&sync, &undo_body, &csrf)
        );
        let result = db.result(m.id, f).await.unwrap();
        let pad = db.pad_board(m.id, f, 1).await.unwrap().unwrap();
        let pad_undone = pad.taps.last() == Some(&Tap::Undo);
        match result {
            Some(_) => {
                stored += 1;
                assert_eq!(
                    submitted.status,
                    StatusCode::SEE_OTHER,
                    "{}",
                    submitted.body
                );
                assert!(
                    !pad_undone,
                    "round {round}: a result stored while board 1's pad was undone"
                );
                assert_eq!(undo.status, StatusCode::CONFLICT, "{}", undo.body);
                assert!(undo.body.contains("the pad is closed"), "{}", undo.body);
            }
            None => {
                undone_first += 1;
                assert!(
                    pad_undone,
                    "round {round}: neither the result nor the undo was kept"
                );
                assert_eq!(submitted.status, StatusCode::CONFLICT, "{}", submitted.body);
            }
        }
    }
    assert_eq!(stored + undone_first, ROUNDS);
}

async fn the_pad_and_its_links_refuse_a_player_already_on_a_board_of_that_kind(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let (home_p, away_p) = (&m.teams[0].players, &m.teams[1].players);
    let players = |h: &[usize], a: &[usize]| Tap::Players {
        home: h.iter().map(|&i| home_p[i].0.0).collect(),
        away: a.iter().map(|&i| away_p[i].0.0).collect(),
    };
    let mut captain = app.with_captain(0).await;
    let csrf = captain.get(&m.path("/pad/1")).await.csrf();
    // Board 1 (singles): home player 0 against away player 0.
    let r = captain
        .post_json(
            &m.path("/pad/1/sync"),
            &json!({ "taps": [players(&[0], &[0])] }),
            &csrf,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // The script's sync on board 2 (singles) with home player 0 again:
    // refused, naming board 1, and nothing saved.
    let r = captain
        .post_json(
            &m.path("/pad/2/sync"),
            &json!({ "taps": [players(&[0], &[1])] }),
            &csrf,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    let why = body["refused"]["reason"].as_str().unwrap_or_default();
    assert!(
        why.contains(&format!("{} already plays singles board 1", home_p[0].1)),
        "{}",
        r.body
    );
    assert_eq!(body["taps"].as_array().map(Vec::len), Some(0));
    assert!(
        db.pad_board(m.id, m.fixtures[0], 2)
            .await
            .unwrap()
            .is_none()
    );

    // The plain form on board 2, through a board link (no account): the
    // same refusal, in words on the page.
    let made = link_action(&mut captain, m, 2, "create").await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let link = db
        .pad_links(m.id, m.fixtures[0])
        .await
        .unwrap()
        .pop()
        .unwrap();
    let mut holder = captain.stranger();
    let pad = m.path(&format!("/pad/2?key={}", link.token));
    let page = holder.get(&pad).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let mut fields = vec![
        ("csrf".to_owned(), page.csrf()),
        ("base".to_owned(), "0".to_owned()),
    ];
    fields.extend(form_fields(&players(&[1], &[0])));
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let refused = holder.post(&pad, &refs).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(
        refused.has("already plays singles board 1"),
        "{}",
        refused.body
    );
    // Others are free, and a singles player may still play one pairs board.
    form_tap(&mut holder, &pad, &players(&[1], &[1])).await;
    let r = captain
        .post_json(
            &m.path("/pad/3/sync"),
            &json!({ "taps": [players(&[0, 2], &[0, 2])] }),
            &csrf,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

async fn the_card_lists_every_line_up_clash(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let mut captain = app.with_captain(0).await;
    let card = captain.get(&m.path("/card")).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    // Both singles boards with the same two players; board 3 conceded.
    let (h, a) = (
        m.teams[0].players[0].0.0.to_string(),
        m.teams[1].players[0].0.0.to_string(),
    );
    let csrf = card.csrf();
    let fields: Vec<(&str, &str)> = vec![
        ("csrf", &csrf),
        ("action", "check"),
        ("b0.home0", &h),
        ("b0.away0", &a),
        ("b0.g0", "6-6 A"),
        ("b1.home0", &h),
        ("b1.away0", &a),
        ("b1.g0", "6-6 B"),
    ];
    let checked = captain.post(&m.path("/card"), &fields).await;
    assert_eq!(
        checked.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        checked.body
    );
    for p in [&m.teams[0].players[0].1, &m.teams[1].players[0].1] {
        assert!(
            checked.has(&format!("{p} is on singles boards 1 and 2 (2); a player plays at most 1 singles board a match.")),
            "{p}: {}",
            checked.body
        );
    }
}

async fn a_stored_result_breaking_the_line_up_is_shown_to_the_secretary(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    // Stored as a league had it before the rule: one player on both
    // singles boards.
    let mut result =
        crate::harness::builder::simulated_result(m.rules, &m.format, &m.teams[0], &m.teams[1], 5);
    result.boards[1] = result.boards[0].clone();
    boneyard::app::results::write(&db, m.id, m.fixtures[0], &result, None)
        .await
        .unwrap();
    let mut secretary = app.with_secretary().await;
    let page = secretary.get(&m.path("/history")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.has("This result breaks the line-up rule"),
        "{}",
        page.body
    );
    let name = &m.teams[0].players[0].1;
    assert!(
        page.has(&format!("{name} is on singles boards 1 and 2")),
        "{}",
        page.body
    );
    // Shown, not changed.
    let stored = db.result(m.id, m.fixtures[0]).await.unwrap().unwrap();
    assert_eq!(stored.result.boards[1].home, result.boards[0].home);
    // The captains' history says nothing of it.
    let mut captain = app.with_captain(1).await;
    assert!(!captain.get(&m.path("/history")).await.has("line-up rule"));
}

async fn a_postponement_racing_a_result_never_leaves_a_played_fixture_postponed(db: Db) {
    const ROUNDS: usize = 12;
    let first = chrono::Utc::now() - chrono::Duration::days(7 * ROUNDS as i64);
    let app = TestApp::new(&db, board_league().fixtures(ROUNDS).starting_at(first)).await;
    let m = &app.league;
    let mut secretary = app.with_secretary().await;
    let sec_id = db.user_by_username(&m.secretary).await.unwrap().id;
    let (mut played, mut postponed) = (0, 0);
    for (round, &f) in m.fixtures.iter().enumerate() {
        let fixture = db.fixture(m.id, f).await.unwrap();
        let (home, away) = if fixture.home_team_id == m.teams[0].id {
            (0, 1)
        } else {
            (1, 0)
        };
        let result = crate::harness::builder::simulated_result(
            m.rules,
            &m.format,
            &m.teams[home],
            &m.teams[away],
            300 + round as u64,
        );
        let path = format!("/leagues/{}/fixtures/{f}/postpone", m.short);
        let form = secretary.get(&path).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.body);
        let csrf = form.csrf();
        let fields = [
            ("csrf", csrf.as_str()),
            ("status", "postponed"),
            ("date", ""),
            ("time", ""),
        ];
        let (moved, stored) = tokio::join!(
            secretary.post(&path, &fields),
            boneyard::app::results::submit(
                &db,
                m.id,
                f,
                &result,
                workflow::Actor::secretary(sec_id)
            )
        );
        stored.unwrap();
        let now = db.fixture(m.id, f).await.unwrap();
        // The result is in either way: the fixture is played, whichever
        // came first; a postponement that came second is refused, saying why.
        assert_eq!(
            now.status,
            FixtureStatus::Played,
            "round {round}: {}",
            moved.body
        );
        if moved.status == StatusCode::CONFLICT {
            assert!(moved.has("This fixture is played"), "{}", moved.body);
            played += 1;
        } else {
            assert_eq!(moved.status, StatusCode::SEE_OTHER, "{}", moved.body);
            postponed += 1;
        }
    }
    assert_eq!(played + postponed, ROUNDS);
}

/// Every sample of a scrape, read by a Prometheus text parser.
async fn scrape(db: &Db) -> Vec<prometheus_parse::Sample> {
    let text = boneyard::metrics::render(db).await;
    prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned())))
        .expect("Prometheus text")
        .samples
}

/// The sum of the samples named `metric` whose labels hold all of `with`.
fn total(samples: &[prometheus_parse::Sample], metric: &str, with: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|s| s.metric == metric)
        .filter(|s| with.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum()
}

/// Issue 28: the counters move with requests, pad taps and kept pages
/// (other tests run alongside, so each is checked to rise by at least what
/// this test did), and `/metrics` is served by its own router only.
async fn the_metrics_count_requests_pad_taps_and_kept_pages(db: Db) {
    let app = TestApp::new(&db, board_league()).await;
    let m = &app.league;
    let before = scrape(&db).await;
    let home = "/leagues/:league";
    let mut visitor = app.anonymous().await;
    for _ in 0..2 {
        let page = visitor.get("/leagues/card").await;
        assert_eq!(page.status, StatusCode::OK);
    }
    let (_, taps) = simulated(m, 0, 3);
    let mut captain = app.with_captain(0).await;
    let sync = m.path("/pad/1/sync");
    let csrf = captain.get(&m.path("/pad/1")).await.csrf();
    let r = captain
        .post_json(&sync, &json!({ "taps": &taps[..5] }), &csrf)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // A sixth tap no rule allows: refused.
    let mut bad = taps[..5].to_vec();
    bad.push(Tap::Play {
        seat: 99,
        points: 5,
    });
    let r = captain
        .post_json(&sync, &json!({ "taps": bad }), &csrf)
        .await;
    assert!(r.status.is_client_error(), "{}", r.body);
    let after = scrape(&db).await;
    let rose = |metric: &str, with: &[(&str, &str)]| {
        total(&after, metric, with) - total(&before, metric, with)
    };
    let ok = [("route", home), ("method", "GET"), ("status", "200")];
    assert!(
        rose("boneyard_http_requests_total", &ok) >= 2.0,
        "{after:?}"
    );
    assert!(
        rose(
            "boneyard_http_request_duration_seconds_count",
            &[("route", home)]
        ) >= 2.0
    );
    assert!(rose("boneyard_pad_taps_total", &[("outcome", "taken")]) >= 5.0);
    assert!(rose("boneyard_pad_taps_total", &[("outcome", "refused")]) >= 1.0);
    assert!(rose("boneyard_kept_pages_total", &[("outcome", "miss")]) >= 1.0);
    assert!(rose("boneyard_kept_pages_total", &[("outcome", "hit")]) >= 1.0);
    assert!(
        after
            .iter()
            .any(|s| s.metric == "boneyard_mail_messages"
                && s.labels.get("outcome") == Some("waiting")),
        "{after:?}"
    );
    // Not on the public address; on the metrics router, as text.
    assert_eq!(visitor.get("/metrics").await.status, StatusCode::NOT_FOUND);
    use tower::ServiceExt;
    let response = boneyard::metrics::router(db.clone())
        .oneshot(
            axum::http::Request::get("/metrics")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
}
