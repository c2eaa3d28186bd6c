//! The result workflow through the real HTTP stack: every step acts on the
//! version its user saw, a secretary's approval goes to the secretary's
//! version only, and each step says what it saved (issues 11 and 12).

use axum::http::StatusCode;
use boneyard::db::*;

use super::results::{Match, client, setup, shown, simulated_card, submit_card};
use crate::harness::client::{Client, Page};
use crate::harness::{LeagueBuilder, PASSWORD};
use crate::support::on_both;

on_both!(
    the_workflow_refuses_a_result_the_match_format_forbids_however_it_arrives,
    the_review_page_counts_each_board_as_the_table_does,
    confirms_raced_by_a_resubmit_land_on_the_version_seen,
    approvals_raced_by_a_resubmit_land_on_the_version_seen,
    a_captains_submit_racing_a_secretarys_is_never_approved_as_the_secretarys,
    a_stale_confirm_gets_409_with_the_newer_version_to_act_on,
    the_confirming_captain_sees_what_was_submitted_and_each_step_says_so,
    a_result_more_than_a_day_ahead_is_refused_with_its_date,
    an_approval_of_a_version_disputed_since_the_page_was_shown_is_refused,
);

/// How many racing pairs each test sends.
const PAIRS: usize = 12;

/// The card's fields with the form token and `action=submit`.
fn card_form(csrf: &str, fields: &[(String, String)]) -> Vec<(String, String)> {
    let mut all = vec![
        ("csrf".to_owned(), csrf.to_owned()),
        ("action".to_owned(), "submit".to_owned()),
    ];
    all.extend(fields.iter().cloned());
    all
}

/// Posts from a task of its own, so two posts really run at once; gives
/// the client back with the page.
fn post(
    mut c: Client,
    path: String,
    fields: Vec<(String, String)>,
) -> tokio::task::JoinHandle<(Client, Page)> {
    tokio::spawn(async move {
        let f: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let page = c.post(&path, &f).await;
        (c, page)
    })
}

fn pairs(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

async fn confirms_raced_by_a_resubmit_land_on_the_version_seen(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    let card_token = home.get(&m.path("/card")).await.csrf();
    let mut confirmed_seen = Vec::new();
    let (mut landed, mut stale) = (0, 0);
    for round in 0..PAIRS {
        let (fields, _) = simulated_card(&m, 100 + round as u64);
        let entered = submit_card(&mut home, &m, &fields, "submit").await;
        assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.body);
        let history = away.get(&m.path("/history")).await;
        let seen = shown(&history);
        let (again, _) = simulated_card(&m, 200 + round as u64);
        let resubmit = post(home, m.path("/card"), card_form(&card_token, &again));
        let confirm = post(
            away,
            m.path("/confirm"),
            pairs(&[("csrf", &history.csrf()), ("version", &seen)]),
        );
        let (h, a) = (resubmit.await.unwrap(), confirm.await.unwrap());
        (home, away) = (h.0, a.0);
        assert_eq!(h.1.status, StatusCode::SEE_OTHER, "{}", h.1.body);
        match a.1.status {
            StatusCode::SEE_OTHER => {
                landed += 1;
                confirmed_seen.push(seen.parse::<i64>().unwrap());
            }
            StatusCode::CONFLICT => stale += 1,
            other => panic!("confirm: {other}: {}", a.1.body),
        }
    }
    let versions = db.result_versions(LeagueId(1), m.fixture).await.unwrap();
    let unseen: Vec<i64> = versions
        .iter()
        .filter(|v| v.status == ResultStatus::Confirmed && !confirmed_seen.contains(&v.version))
        .map(|v| v.version)
        .collect();
    eprintln!(
        "{PAIRS} confirms raced by a resubmit: {landed} confirmed the version seen, {stale} refused as stale, {} landed on an unseen version",
        unseen.len()
    );
    assert!(
        unseen.is_empty(),
        "confirmed without being seen: {unseen:?}"
    );
    // Every confirm that was answered 303 confirmed exactly the version seen.
    for n in &confirmed_seen {
        let v = versions.iter().find(|v| v.version == *n).unwrap();
        assert_eq!(v.status, ResultStatus::Confirmed, "version {n}");
    }
}

async fn approvals_raced_by_a_resubmit_land_on_the_version_seen(db: Db) {
    let m = setup(&db).await;
    let list = "/leagues/card/console/approvals";
    let mut home = client(&db, "home").await;
    let mut sec = client(&db, "sec").await;
    let card_token = home.get(&m.path("/card")).await.csrf();
    let (mut landed, mut stale) = (0, 0);
    for round in 0..PAIRS {
        let (fields, _) = simulated_card(&m, 300 + round as u64);
        let entered = submit_card(&mut home, &m, &fields, "submit").await;
        assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.body);
        let page = sec.get(list).await;
        let seen = shown(&page);
        let note = format!("seen as version {seen}");
        let (again, _) = simulated_card(&m, 400 + round as u64);
        let resubmit = post(home, m.path("/card"), card_form(&card_token, &again));
        let approve = post(
            sec,
            m.path("/approve"),
            pairs(&[
                ("csrf", &page.csrf()),
                ("version", &seen),
                ("note", &note),
                ("back", "approvals"),
            ]),
        );
        let (h, s) = (resubmit.await.unwrap(), approve.await.unwrap());
        (home, sec) = (h.0, s.0);
        assert_eq!(h.1.status, StatusCode::SEE_OTHER, "{}", h.1.body);
        match s.1.status {
            StatusCode::SEE_OTHER => landed += 1,
            StatusCode::CONFLICT => stale += 1,
            other => panic!("approve: {other}: {}", s.1.body),
        }
    }
    let versions = db.result_versions(LeagueId(1), m.fixture).await.unwrap();
    let unseen: Vec<(i64, String)> = versions
        .iter()
        .filter(|v| {
            v.status == ResultStatus::Approved
                && v.status_note != format!("seen as version {}", v.version)
        })
        .map(|v| (v.version, v.status_note.clone()))
        .collect();
    eprintln!(
        "{PAIRS} approvals raced by a resubmit: {landed} approved the version seen, {stale} refused as stale, {} landed on an unseen version",
        unseen.len()
    );
    assert!(unseen.is_empty(), "approved without being seen: {unseen:?}");
}

async fn a_captains_submit_racing_a_secretarys_is_never_approved_as_the_secretarys(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let mut sec = client(&db, "sec").await;
    let home_token = home.get(&m.path("/card")).await.csrf();
    let sec_token = sec.get(&m.path("/card")).await.csrf();
    let secretary = db.user_by_username("sec-card").await.unwrap().id;
    for round in 0..PAIRS {
        let (a, _) = simulated_card(&m, 500 + round as u64);
        let (b, _) = simulated_card(&m, 600 + round as u64);
        let captain = post(home, m.path("/card"), card_form(&home_token, &a));
        let secretarys = post(sec, m.path("/card"), card_form(&sec_token, &b));
        let (h, s) = (captain.await.unwrap(), secretarys.await.unwrap());
        (home, sec) = (h.0, s.0);
        assert_eq!(h.1.status, StatusCode::SEE_OTHER, "{}", h.1.body);
        assert_eq!(s.1.status, StatusCode::SEE_OTHER, "{}", s.1.body);
    }
    let versions = db.result_versions(LeagueId(1), m.fixture).await.unwrap();
    assert_eq!(versions.len(), 2 * PAIRS);
    let wrong: Vec<i64> = versions
        .iter()
        .filter(|v| v.status_note == "entered by a secretary" && v.created_by != Some(secretary))
        .map(|v| v.version)
        .collect();
    let approved_captains = versions
        .iter()
        .filter(|v| v.created_by != Some(secretary) && v.status == ResultStatus::Approved)
        .count();
    eprintln!(
        "{PAIRS} captain submits raced by a secretary's: {} captain versions marked approved \"entered by a secretary\"",
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "captain versions approved as the secretary's: {wrong:?}"
    );
    assert_eq!(approved_captains, 0);
    // And every secretary's version is approved as entered.
    for v in versions.iter().filter(|v| v.created_by == Some(secretary)) {
        assert_eq!(
            (v.status, v.status_note.as_str()),
            (ResultStatus::Approved, "entered by a secretary"),
            "version {}",
            v.version
        );
    }
    assert_eq!(
        db.fixture(LeagueId(1), m.fixture).await.unwrap().status,
        FixtureStatus::Played
    );
}

async fn a_stale_confirm_gets_409_with_the_newer_version_to_act_on(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    let (fields, _) = simulated_card(&m, 21);
    submit_card(&mut home, &m, &fields, "submit").await;
    let seen = away.get(&m.path("/history")).await;
    assert_eq!(shown(&seen), "1");
    // A correction comes in while the away captain reads version 1.
    let (fields, _) = simulated_card(&m, 22);
    submit_card(&mut home, &m, &fields, "submit").await;
    let stale = away
        .post(
            &m.path("/confirm"),
            &[("csrf", &seen.csrf()), ("version", "1")],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    assert!(
        stale.has("version 2 of this result was entered after version 1"),
        "{}",
        stale.body
    );
    assert!(
        stale.has("Version 2: what is being confirmed"),
        "{}",
        stale.body
    );
    assert_eq!(shown(&stale), "2");
    let v = db
        .result(LeagueId(1), m.fixture)
        .await
        .unwrap()
        .unwrap()
        .version;
    assert_eq!((v.version, v.status), (2, ResultStatus::Entered));
    // A form without the version it acts on is refused outright.
    let blind = away
        .post(&m.path("/confirm"), &[("csrf", &stale.csrf())])
        .await;
    assert_eq!(blind.status, StatusCode::BAD_REQUEST);
    // The 409 page's own form confirms version 2.
    let done = away
        .post(
            &m.path("/confirm"),
            &[("csrf", &stale.csrf()), ("version", &shown(&stale))],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let v = db
        .result(LeagueId(1), m.fixture)
        .await
        .unwrap()
        .unwrap()
        .version;
    assert_eq!((v.version, v.status), (2, ResultStatus::Confirmed));
    // A restore names the current version it saw too.
    let mut sec = client(&db, "sec").await;
    let page = sec.get(&m.path("/history")).await;
    submit_card(&mut home, &m, &fields, "submit").await;
    let restore = sec
        .post(
            &m.path("/restore"),
            &[("csrf", &page.csrf()), ("version", "1"), ("current", "2")],
        )
        .await;
    assert_eq!(restore.status, StatusCode::CONFLICT, "{}", restore.body);
    assert_eq!(
        db.result_versions(LeagueId(1), m.fixture)
            .await
            .unwrap()
            .len(),
        3
    );
}

async fn the_confirming_captain_sees_what_was_submitted_and_each_step_says_so(db: Db) {
    let m: Match = setup(&db).await;
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    let mut sec = client(&db, "sec").await;
    let (fields, _) = simulated_card(&m, 31);
    let entered = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER);
    let to = entered.location.unwrap();
    let submitted = home.get(&to).await;
    assert!(
        submitted.has("Result submitted: version 1, waiting for Anchor to confirm."),
        "{}",
        submitted.body
    );
    // The confirming captain sees the same summary of version 1 as the
    // captain who submitted it: boards, players, games and scores, who
    // entered it.
    let page = away.get(&m.path("/history")).await;
    let summary = |p: &Page| {
        let start = p
            .body
            .find("<section id=\"current-version\">")
            .expect("a summary");
        let end = start + p.body[start..].find("</section>").unwrap();
        p.body[start..end].to_owned()
    };
    assert_eq!(summary(&page), summary(&submitted));
    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    let s = summary(&page);
    assert!(s.contains("Entered by cap0-card"), "{s}");
    for (i, board) in stored.result.boards.iter().enumerate() {
        assert!(
            s.contains(&format!("<td class=\"num\">{}<br><span", i + 1)),
            "{s}"
        );
        for id in board.home.iter().chain(&board.away) {
            let name = m
                .home
                .iter()
                .chain(&m.away)
                .find(|(p, _)| p == id)
                .unwrap()
                .1
                .split(" <")
                .next()
                .unwrap()
                .to_owned();
            assert!(s.contains(&name), "{name} in {s}");
        }
        for g in &board.games {
            let o = g.outcome.as_ref().unwrap();
            assert!(
                s.contains(&format!("{}-{}", o.totals[0], o.totals[1]))
                    || s.contains(&format!("{}-{}", o.totals[1], o.totals[0])),
                "{s}"
            );
        }
    }
    // A dispute stands beside the version it disputes, as the disputing
    // captain's; the card the home captain opens to correct it shows it.
    let disputed = away
        .post(
            &m.path("/dispute"),
            &[
                ("csrf", &page.csrf()),
                ("version", "1"),
                ("note", "Board 2 was 61-40"),
            ],
        )
        .await;
    assert_eq!(disputed.status, StatusCode::SEE_OTHER, "{}", disputed.body);
    let after = away.get(disputed.location.as_deref().unwrap()).await;
    assert!(after.has("Disputed version 1"), "{}", after.body);
    let card = home.get(&m.path("/card")).await;
    assert!(
        card.has("Version 1 is disputed by cap1-card"),
        "{}",
        card.body
    );
    assert!(card.has("Board 2 was 61-40"), "{}", card.body);
    let (fields, _) = simulated_card(&m, 32);
    submit_card(&mut home, &m, &fields, "submit").await;
    let history = sec.get(&m.path("/history")).await;
    let row = |p: &Page, n: i64| {
        let start = p.body.find(&format!("<tr id=\"version-{n}\">")).unwrap();
        let end = start + p.body[start..].find("</tr>").unwrap();
        p.body[start..end].to_owned()
    };
    let v1 = row(&history, 1);
    assert!(v1.contains("disputed by cap1-card"), "{v1}");
    assert!(v1.contains("Board 2 was 61-40"), "{v1}");
    assert!(!row(&history, 2).contains("Board 2 was 61-40"));
    // The correction is confirmed, then approved, each step saying so.
    let page = away.get(&m.path("/history")).await;
    let confirmed = away
        .post(
            &m.path("/confirm"),
            &[("csrf", &page.csrf()), ("version", &shown(&page))],
        )
        .await;
    let after = away.get(confirmed.location.as_deref().unwrap()).await;
    assert!(after.has("Confirmed version 2"), "{}", after.body);
    let page = sec.get(&m.path("/history")).await;
    let approved = sec
        .post(
            &m.path("/approve"),
            &[("csrf", &page.csrf()), ("version", "2"), ("note", "")],
        )
        .await;
    let after = sec.get(approved.location.as_deref().unwrap()).await;
    assert!(after.has("Approved version 2"), "{}", after.body);
    let v2 = row(&after, 2);
    assert!(v2.contains("approved by sec-card"), "{v2}");
    // A secretary's own submit says it is approved.
    let (fields, _) = simulated_card(&m, 33);
    let entered = submit_card(&mut sec, &m, &fields, "submit").await;
    let after = sec.get(entered.location.as_deref().unwrap()).await;
    assert!(
        after.has("Result submitted: version 3, approved (entered by a secretary)."),
        "{}",
        after.body
    );
}

async fn a_result_more_than_a_day_ahead_is_refused_with_its_date(db: Db) {
    let starts_at = boneyard::db::now() + chrono::Duration::days(3);
    let built = LeagueBuilder::new("ahead")
        .boards(boneyard::league::match_format::MatchFormat::with_boards(
            2, 1, 1,
        ))
        .teams(&["Crown", "Anchor"])
        .starting_at(starts_at)
        .build(&db)
        .await;
    let m = Match {
        short: built.short.clone(),
        fixture: built.fixtures[0],
        home: built.teams[0].players.clone(),
        away: built.teams[1].players.clone(),
        format: built.format.clone(),
    };
    let mut home = Client::new(&db).await;
    home.sign_in(&built.teams[0].captain, PASSWORD).await;
    let (fields, _) = simulated_card(&m, 41);
    let refused = submit_card(&mut home, &m, &fields, "submit").await;
    // Refused with the date, on the card as it was typed.
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    let typed = &fields.iter().find(|(k, _)| k == "b0.g0").unwrap().1;
    assert!(
        refused.has(typed.lines().nth(1).unwrap()),
        "{}",
        refused.body
    );
    let league = db.league_by_short_name("ahead").await.unwrap();
    let day = league
        .time_zone
        .local(starts_at)
        .format("%a %-d %b %Y")
        .to_string();
    assert!(refused.has(&day), "{day} in {}", refused.body);
    assert!(refused.has("can be entered from the day before"));
    assert!(db.result(built.id, m.fixture).await.unwrap().is_none());
    assert_eq!(
        db.fixture(built.id, m.fixture).await.unwrap().status,
        FixtureStatus::Scheduled
    );
}

/// The hidden fields of the form posting to `action` on `page`.
fn hidden_fields(page: &Page, action: &str) -> Vec<(String, String)> {
    let start = page
        .body
        .find(&format!("action=\"{action}\""))
        .expect("the form");
    let form = &page.body[start..start + page.body[start..].find("</form>").unwrap()];
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(at) = rest.find("type=\"hidden\" name=\"") {
        rest = &rest[at + "type=\"hidden\" name=\"".len()..];
        let name: String = rest.chars().take_while(|c| *c != '"').collect();
        let v = rest.find("value=\"").unwrap() + "value=\"".len();
        let value: String = rest[v..].chars().take_while(|c| *c != '"').collect();
        out.push((name, value));
    }
    out
}

async fn an_approval_of_a_version_disputed_since_the_page_was_shown_is_refused(db: Db) {
    let m = setup(&db).await;
    let (mut home, mut away, mut sec) = (
        client(&db, "home").await,
        client(&db, "away").await,
        client(&db, "sec").await,
    );
    let (fields, _) = simulated_card(&m, 21);
    let saved = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    // The secretary opens the history: version 1, entered.
    let seen = sec.get(&m.path("/history")).await;
    let approve = hidden_fields(&seen, &m.path("/approve"));
    assert!(
        approve.contains(&("status".to_owned(), "entered".to_owned())),
        "{approve:?}"
    );
    // Meanwhile the other captain disputes it.
    let page = away.get(&m.path("/history")).await;
    let disputed = away
        .post(
            &m.path("/dispute"),
            &[
                ("csrf", &page.csrf()),
                ("version", "1"),
                ("note", "Board 2 was 61-40"),
            ],
        )
        .await;
    assert_eq!(disputed.status, StatusCode::SEE_OTHER, "{}", disputed.body);
    // The approval as the page showed it: refused, saying what changed.
    let refs: Vec<(&str, &str)> = approve
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let refused = sec.post(&m.path("/approve"), &refs).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(
        refused.has("Version 1 was entered when the page was shown and is disputed now"),
        "{}",
        refused.body
    );
    let stored = db
        .result(m_league(&db).await, m.fixture)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version.status, ResultStatus::Disputed);
    // Shown again, the disputed version can be approved knowingly.
    let again = sec.get(&m.path("/history")).await;
    let approve = hidden_fields(&again, &m.path("/approve"));
    let refs: Vec<(&str, &str)> = approve
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let done = sec.post(&m.path("/approve"), &refs).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
}

async fn m_league(db: &Db) -> LeagueId {
    db.league_by_short_name("card").await.unwrap().id
}

/// The workflow's rules hold whoever calls it (the card, the pads, an
/// import, a script), not only the card's form: a result that leaves a
/// board out, or puts one player on two singles boards, is refused; a
/// legal one is stored; and once the season is rolled over a captain can
/// no longer submit, confirm or dispute, while its secretary still can.
async fn the_workflow_refuses_a_result_the_match_format_forbids_however_it_arrives(db: Db) {
    use boneyard::app::results as workflow;
    use boneyard::league::match_format::MatchFormat;
    use boneyard::league::refusal::Refusal;
    use boneyard::league::workflow::Actor;

    let app = crate::harness::TestApp::new(
        &db,
        LeagueBuilder::new("rules")
            .boards(MatchFormat::with_boards(2, 1, 1))
            .players(4)
            .fixtures(2)
            .starting_at(chrono::Utc::now() - chrono::Duration::days(8)),
    )
    .await;
    let l = &app.league;
    let (home, away) = (&l.teams[0], &l.teams[1]);
    let home_user = db.user_by_username(&home.captain).await.unwrap().id;
    let away_user = db.user_by_username(&away.captain).await.unwrap().id;
    let home_captain = Actor::captain(home_user, Side::Home);
    let away_captain = Actor::captain(away_user, Side::Away);
    let legal = crate::harness::builder::simulated_result(l.rules, &l.format, home, away, 5);

    // A board left out.
    let mut short = legal.clone();
    short.boards.pop();
    let refused = workflow::submit(&db, l.id, l.fixtures[0], &short, home_captain).await;
    assert!(
        matches!(&refused, Err(DbError::Refused(Refusal::BoardsMissing { boards })) if boards == &[3]),
        "{refused:?}"
    );
    // One player on both singles boards.
    let mut twice = legal.clone();
    twice.boards[1].home = twice.boards[0].home.clone();
    let refused = workflow::submit(&db, l.id, l.fixtures[0], &twice, home_captain).await;
    match &refused {
        Err(DbError::Refused(Refusal::LineUp(words))) => {
            assert!(words.contains(&home.players[0].1), "{words}")
        }
        other => panic!("a line-up clash was not refused: {other:?}"),
    }
    assert!(db.result(l.id, l.fixtures[0]).await.unwrap().is_none());

    // The legal result is stored, entered by the home captain.
    let entered = workflow::submit(&db, l.id, l.fixtures[0], &legal, home_captain)
        .await
        .unwrap();
    assert_eq!(entered.status, ResultStatus::Entered);

    // The season is rolled over: captains' steps are refused.
    let next = boneyard::app::rollover::RollOver {
        name: "Next".into(),
        settings: Default::default(),
        teams: Vec::new(),
    };
    boneyard::app::rollover::roll_over(&db, l.id, l.season, &next, None)
        .await
        .unwrap();
    let closed = |r: &Result<ResultVersion, DbError>| {
        matches!(r, Err(DbError::Refused(Refusal::SeasonClosed)))
    };
    let confirm = workflow::confirm(&db, l.id, l.fixtures[0], 1, away_captain).await;
    assert!(closed(&confirm), "{confirm:?}");
    let dispute = workflow::dispute(&db, l.id, l.fixtures[0], 1, "wrong", away_captain).await;
    assert!(closed(&dispute), "{dispute:?}");
    let late = workflow::submit(&db, l.id, l.fixtures[1], &legal, home_captain).await;
    assert!(closed(&late), "{late:?}");
    // Its secretary still corrects it.
    let secretary = Actor::secretary(db.user_by_username(&l.secretary).await.unwrap().id);
    let approved = workflow::approve(&db, l.id, l.fixtures[0], 1, None, "", secretary)
        .await
        .unwrap();
    assert_eq!(approved.status, ResultStatus::Approved);
}

/// The page a result is confirmed and approved from gives each board to
/// the side the table gives it to: a conceded board with the games that
/// win it, a board whose games are not all played to no one (it gave a
/// best-of-three board 1-0 to the side ahead, and a conceded one 1-0).
async fn the_review_page_counts_each_board_as_the_table_does(db: Db) {
    use boneyard::app::results as workflow;
    use boneyard::db::pages::FixtureScope;
    use boneyard::league::match_format::MatchFormat;
    use boneyard::league::match_score::scores_from_boards;
    use boneyard::league::workflow::Actor;

    let app = crate::harness::TestApp::new(
        &db,
        LeagueBuilder::new("tally")
            .boards(MatchFormat::with_boards(2, 1, 3))
            .players(4)
            .starting_at(chrono::Utc::now() - chrono::Duration::days(8)),
    )
    .await;
    let l = &app.league;
    let mut result =
        crate::harness::builder::simulated_result(l.rules, &l.format, &l.teams[0], &l.teams[1], 7);
    // Board 1 stops after its first game; board 2 the home side concedes.
    result.boards[0].games.truncate(1);
    let board = &mut result.boards[1];
    (board.games, board.home, board.away) = (Vec::new(), Vec::new(), Vec::new());
    board.conceded_by = Some(Side::Home);
    let secretary = Actor::secretary(db.user_by_username(&l.secretary).await.unwrap().id);
    workflow::submit(&db, l.id, l.fixtures[0], &result, secretary)
        .await
        .unwrap();
    let lines = db
        .board_lines(l.id, &FixtureScope::One(l.fixtures[0]), true)
        .await
        .unwrap();
    let score = scores_from_boards(&lines, &l.format)[&l.fixtures[0]];

    let page = app.with_secretary().await.get(&l.path("/history")).await;
    let boards = format!(
        "Boards {}-{} (home first)",
        score.boards[0], score.boards[1]
    );
    assert!(page.has(&boards), "not `{boards}`: {}", page.body);
    // Board 1 is nobody's yet; board 2 is the away side's, two games to none.
    assert!(page.has(r#"<span class="num">0-2</span>"#), "{}", page.body);
    let first = page.body.split("<tbody>").nth(1).unwrap_or_default();
    let row = first.split("</tr>").next().unwrap_or_default();
    assert!(!row.contains("<strong>"), "board 1 is shown won: {row}");
}
