//! A captain's match night over HTTP: tonight's match first on the home
//! page with its pads one tap away, the board's end offering the next
//! board and the match, the review's match score, points and results in
//! words, then the other captain asked to confirm while the submitter is
//! never offered it; and error pages that keep the signed-in header and a
//! way back.

use axum::http::StatusCode;
use boneyard::addresses::{Address, MatchAt, at_short};
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::time::Zone;
use boneyard::rules::score_record;
use chrono::{DateTime, NaiveTime, Utc};

use super::pad::{play_all_boards, simulated, submit_review};
use crate::harness::client::Page;
use crate::harness::pages::unescape;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    tonights_match_is_first_on_the_captains_home_page_a_tap_from_its_pads,
    the_submitter_waits_and_the_other_captain_is_asked_to_confirm,
    a_board_over_offers_the_next_board_and_the_match_with_its_score,
    the_review_gives_the_match_score_the_points_and_each_board_in_words,
    an_error_page_keeps_the_signed_in_header_and_a_way_back,
);

/// Today at 19:30 in London (the builder's leagues' zone): tonight's match,
/// whenever the test runs.
pub(crate) fn tonight() -> DateTime<Utc> {
    let zone = Zone::LONDON;
    let today = zone.local(Utc::now()).date();
    zone.instant(today, NaiveTime::from_hms_opt(19, 30, 0).unwrap())
        .unwrap()
}

/// Two singles boards and a pairs board tonight, and next week's match.
fn tonights_league() -> LeagueBuilder {
    LeagueBuilder::new("night")
        .boards(MatchFormat::with_boards(2, 1, 1))
        .fixtures(2)
        .starting_at(tonight())
}

fn at(m: &Built) -> Address<MatchAt> {
    at_short(&m.short).match_page(m.fixture())
}

/// The `href` of every link or form button with class `class`, in the
/// order the page gives them.
fn hrefs_of(page: &Page, class: &str) -> Vec<String> {
    let marker = format!("class=\"{class}\" href=\"");
    page.body
        .match_indices(&marker)
        .map(|(i, _)| {
            page.body[i + marker.len()..]
                .split('"')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// The text of `main`, from its start to `until`.
fn before<'a>(page: &'a Page, until: &str) -> &'a str {
    let main = page.body.find("<main").expect("a main");
    let end = page.body[main..]
        .find(until)
        .map_or(page.body.len(), |i| main + i);
    &page.body[main..end]
}

async fn tonights_match_is_first_on_the_captains_home_page_a_tap_from_its_pads(db: Db) {
    let app = TestApp::new(&db, tonights_league()).await;
    let m = &app.league;
    for team in [0, 1] {
        let mut captain = app.with_captain(team).await;
        let home = captain.get("/").await;
        assert_eq!(home.status, StatusCode::OK);
        // One big button, before anything else the page lists: tonight's
        // pads.
        assert_eq!(
            hrefs_of(&home, "button big"),
            vec![at(m).pad()],
            "{}",
            home.body
        );
        let top = before(&home, "class=\"button big\"");
        assert!(top.contains("Tonight, 19:30"), "{top}");
        assert!(top.contains("<h3>Crown v Anchor</h3>"), "{top}");
        for later in ["Needs you", "Coming up", "Waiting on others", "Leagues"] {
            assert!(
                !top.contains(later),
                "`{later}` comes before tonight's match"
            );
        }
        // The card stays a small link away; next week's match is coming up.
        assert!(home.has(&format!(
            "href=\"{}\">Or enter the result on the match card",
            at(m).card()
        )));
        assert!(home.has("<h3>Coming up</h3>"), "{}", home.body);
        // The button leads to the pads, where each board is opened.
        let pads = captain.get(&at(m).pad()).await;
        assert_eq!(pads.status, StatusCode::OK);
        assert!(pads.has("Open board 1&#39;s pad") || pads.has("Open board 1's pad"));
    }
    // Tomorrow's match is no one's tonight.
    let other = TestApp::new(
        &db,
        LeagueBuilder::new("later")
            .boards(MatchFormat::with_boards(1, 0, 1))
            .starting_at(Utc::now() + chrono::Duration::days(2)),
    )
    .await;
    let page = other.with_captain(0).await.get("/").await;
    assert!(hrefs_of(&page, "button big").is_empty(), "{}", page.body);
    assert!(!page.has("Tonight,"), "{}", page.body);
}

async fn the_submitter_waits_and_the_other_captain_is_asked_to_confirm(db: Db) {
    let app = TestApp::new(&db, tonights_league()).await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    let mut away = app.with_captain(1).await;
    play_all_boards(&mut home, m, m.fixture(), 70).await;
    let review = home.get(&at(m).pad()).await;
    let done = submit_review(&mut home, m, &review).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);

    // The submitter: told who confirms, never offered to confirm it.
    let history = home.get(done.location.as_deref().unwrap()).await;
    assert!(
        history.has("Saved: the result from the score pads, as version 1, entered."),
        "{}",
        history.body
    );
    assert!(
        history.has("Waiting for the other captain (Anchor) to confirm or dispute version 1"),
        "{}",
        history.body
    );
    assert!(!history.has(&format!("action=\"{}\"", at(m).confirm())));
    assert!(!history.has(&format!("action=\"{}\"", at(m).dispute())));
    assert!(!history.has("Confirm version 1"), "{}", history.body);
    let page = home.get("/").await;
    assert!(
        page.has("entered: waiting for the other captain (Anchor) to confirm"),
        "{}",
        page.body
    );
    assert!(!page.has("Confirm or dispute"), "{}", page.body);
    assert!(hrefs_of(&page, "button big").is_empty(), "{}", page.body);

    // Should they send a confirmation anyway (an old tab): refused, on a
    // page that keeps them signed in and leads back to the match.
    let refused = home
        .post(
            &at(m).confirm(),
            &[("csrf", &history.csrf()), ("version", "1")],
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(
        refused.has("Your team entered this result"),
        "{}",
        refused.body
    );
    signed_in_as(&refused, &m.teams[0].captain);
    assert!(
        refused.has(&format!("href=\"{}\">Back to the match", at(m))),
        "{}",
        refused.body
    );

    // The other captain: the first thing on their home page.
    let page = away.get("/").await;
    assert_eq!(
        hrefs_of(&page, "button big"),
        vec![at(m).history()],
        "{}",
        page.body
    );
    let top = before(&page, "class=\"button big\"");
    assert!(top.contains("entered by Crown: check it"), "{top}");
    assert!(page.has(&format!("href=\"{}\">Confirm or dispute", at(m).history())));
    let history = away.get(&at(m).history()).await;
    assert!(history.has("Confirm version 1"), "{}", history.body);
    assert!(history.has("Dispute version 1"), "{}", history.body);
    assert!(!history.has("id=\"waiting\""), "{}", history.body);
    let confirmed = away
        .post(
            &at(m).confirm(),
            &[("csrf", &history.csrf()), ("version", "1")],
        )
        .await;
    assert_eq!(
        confirmed.status,
        StatusCode::SEE_OTHER,
        "{}",
        confirmed.body
    );
    let stored = db.result(m.id, m.fixture()).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Confirmed);
    // Now both wait on the secretary, and neither is asked to confirm;
    // the other captain may still dispute it until it is approved.
    for (c, may_dispute) in [(&mut home, false), (&mut away, true)] {
        let page = c.get("/").await;
        assert!(
            page.has("confirmed: the secretary approves"),
            "{}",
            page.body
        );
        assert!(hrefs_of(&page, "button big").is_empty(), "{}", page.body);
        let history = c.get(&at(m).history()).await;
        assert!(!history.has("Confirm version 1"), "{}", history.body);
        assert!(
            history.has("Version 1 is confirmed: a secretary approves it next."),
            "{}",
            history.body
        );
        assert_eq!(
            history.has(&format!("action=\"{}\"", at(m).dispute())),
            may_dispute,
            "{}",
            history.body
        );
    }
}

/// The page is framed for `username`: their name and sign-out in the
/// header, no sign-in link.
fn signed_in_as(page: &Page, username: &str) {
    let header = &page.body[..page.body.find("</header>").expect("a header")];
    assert!(header.contains(username), "{header}");
    assert!(header.contains("Sign out"), "{header}");
    assert!(!header.contains("href=\"/sign-in\""), "{header}");
}

/// Board `board` (0-based) of the first fixture as the simulator plays it
/// with `seed`: the side that won it (0 home).
fn winner(m: &Built, board: usize, seed: u64) -> usize {
    let (games, _) = simulated(m, board, seed);
    let mut won = [0, 0];
    for g in &games {
        won[score_record(g).unwrap().winner.unwrap()] += 1;
    }
    usize::from(won[1] > won[0])
}

async fn a_board_over_offers_the_next_board_and_the_match_with_its_score(db: Db) {
    let app = TestApp::new(&db, tonights_league()).await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    let csrf = home.get(&at(m).pad_board(1)).await.csrf();
    // Board 1 played out: the next board and the match are offered.
    let (_, taps) = simulated(m, 0, 80);
    let synced = home
        .post_json(
            &at(m).pad_sync(1),
            &serde_json::json!({ "taps": taps }),
            &csrf,
        )
        .await;
    assert_eq!(synced.status, StatusCode::OK, "{}", synced.body);
    let page = home.get(&at(m).pad_board(1)).await;
    let over = &page.body[page.body.find("data-phase=\"over\"").unwrap()..];
    let over = &over[..over.find("</section>").unwrap()];
    assert!(!over.contains(" hidden"), "{over}");
    assert!(over.contains("Board 1 is over"), "{over}");
    let mut score = [0, 0];
    score[winner(m, 0, 80)] += 1;
    assert!(
        over.contains(&format!(
            "Crown <span data-bind=\"match0\">{}</span>–<span data-bind=\"match1\">{}</span> Anchor",
            score[0], score[1]
        )),
        "{over}"
    );
    assert!(over.contains("2 boards to play"), "{over}");
    assert!(
        over.contains(&format!(
            "href=\"{}\">Next board: board 2</a>",
            at(m).pad_board(2)
        )),
        "{over}"
    );
    assert!(
        over.contains(&format!(
            "href=\"{}\">The match: every board</a>",
            at(m).pad()
        )),
        "{over}"
    );
    // The script is given the other boards' score (none yet) to add this
    // board's to.
    assert!(
        unescape(&page.body).contains("\"won\":[0,0]"),
        "{}",
        page.body
    );

    // Every board played: the last board's end offers the review only.
    for board in 1..m.format.boards.len() {
        let (_, taps) = simulated(m, board, 80 + board as u64);
        let r = home
            .post_json(
                &at(m).pad_sync(board as i64 + 1),
                &serde_json::json!({ "taps": taps }),
                &csrf,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        score[winner(m, board, 80 + board as u64)] += 1;
    }
    let page = home.get(&at(m).pad_board(3)).await;
    let over = &page.body[page.body.find("data-phase=\"over\"").unwrap()..];
    let over = &over[..over.find("</section>").unwrap()];
    assert!(over.contains("every board is decided"), "{over}");
    assert!(!over.contains("Next board"), "{over}");
    assert!(
        over.contains(&format!(
            "href=\"{}\">Review and submit the match</a>",
            at(m).pad()
        )),
        "{over}"
    );
    assert!(
        over.contains(&format!(
            "<span data-bind=\"match0\">{}</span>–<span data-bind=\"match1\">{}</span>",
            score[0], score[1]
        )),
        "{over}"
    );
}

async fn the_review_gives_the_match_score_the_points_and_each_board_in_words(db: Db) {
    // Best of three, so that a board has several games' scores.
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("words")
            .boards(MatchFormat::with_boards(2, 1, 3))
            .starting_at(tonight()),
    )
    .await;
    let m = &app.league;
    let mut home = app.with_captain(0).await;
    play_all_boards(&mut home, m, m.fixture(), 90).await;
    let review = home.get(&at(m).pad()).await;
    assert_eq!(review.status, StatusCode::OK);
    let text = unescape(&review.body);
    let mut score = [0u32, 0];
    for board in 0..m.format.boards.len() {
        let (games, _) = simulated(m, board, 90 + board as u64);
        let names: Vec<String> = (0..2).map(|s| games[0].sides[s].join(" & ")).collect();
        let mut won = [0, 0];
        let mut each = Vec::new();
        for g in &games {
            let o = score_record(g).unwrap();
            let w = o.winner.unwrap();
            won[w] += 1;
            each.push(format!("{} {}–{}", names[w], o.totals[w], o.totals[1 - w]));
        }
        let w = usize::from(won[1] > won[0]);
        score[w] += 1;
        let team = ["Crown", "Anchor"][w];
        let line = format!(
            "<strong>{team} won</strong>: {} beat {} {} games to {}: {}.",
            names[w],
            names[1 - w],
            won[w],
            won[1 - w],
            each.join(", ")
        );
        assert!(text.contains(&line), "board {}: {line}\n{text}", board + 1);
    }
    let (h, a) = m.format.match_points(score[0], score[1]);
    assert!(
        review.has(&format!("{}–{}</strong>", score[0], score[1])),
        "{}",
        review.body
    );
    assert!(
        review.has(&format!("Points: Crown {h}, Anchor {a}.")),
        "{}",
        review.body
    );
    // The score and the points come before the button that submits them.
    let submit = review.body.find("Submit the result</button>").unwrap();
    assert!(review.body.find("Points: Crown").unwrap() < submit);
    assert!(
        !review.has("games 6"),
        "a game's score read as a count of games"
    );
}

async fn an_error_page_keeps_the_signed_in_header_and_a_way_back(db: Db) {
    let app = TestApp::new(
        &db,
        tonights_league().teams(&["Crown", "Anchor", "Bell", "Dock"]),
    )
    .await;
    let m = &app.league;
    // The captain of a team not in the match.
    let mut bell = app.with_captain(2).await;
    let page = bell.get(&at(m).history()).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.has("<h1>Not allowed</h1>"), "{}", page.body);
    signed_in_as(&page, &m.teams[2].captain);
    assert!(
        page.has(&format!("href=\"{}\">Back to the match", at(m))),
        "{}",
        page.body
    );
    // A match the league does not have: back to the league, by name.
    let missing = at_short(&m.short).match_page(FixtureId(9999)).history();
    let page = bell.get(&missing).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    signed_in_as(&page, &m.teams[2].captain);
    assert!(
        page.has(&format!(
            "href=\"{}\">Back to night League",
            at_short(&m.short)
        )),
        "{}",
        page.body
    );
    // Someone signed out, at an address nobody knows: the leagues.
    let page = app.anonymous().await.get("/no-such-page").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.has("href=\"/sign-in\""), "{}", page.body);
    assert!(page.has("href=\"/\">Back to the leagues"), "{}", page.body);
}
