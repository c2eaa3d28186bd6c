//! The secretary's week (issue 39): the console's counts are the records
//! (counted here from the records each test makes), every name on it is
//! the right person's, and each bulk action (remind, walkovers, postpone)
//! does what it says once, after one confirmation, refusing the fixtures
//! it may not act on.

use std::collections::HashMap;

use axum::http::StatusCode;
use boneyard::app::mail::{LinkKind, MailConfig, compose, link_message};
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::time::Zone;
use boneyard::league::workflow::Actor;
use chrono::{DateTime, Duration, NaiveTime, Utc};

use crate::harness::builder::simulated_result;
use crate::harness::client::{Client, Page};
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    the_consoles_counts_are_the_records,
    the_console_names_who_took_each_step,
    captains_are_reminded_once_after_one_confirmation,
    walkovers_are_recorded_in_bulk_after_one_confirmation,
    a_bulk_postponement_refuses_what_it_may_not_postpone,
);

/// What a test made of a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    /// No result, its night over.
    Missing,
    /// Missing, with a board tapped on the score pad.
    PadsLeft,
    /// Entered by the home captain.
    Entered,
    /// Entered by the home captain, confirmed by the away captain.
    Confirmed,
    /// Entered by the home captain, disputed by the away captain.
    Disputed,
    /// Entered by a secretary: approved.
    Approved,
    Walkover,
    Postponed,
    Void,
    /// Still to be played.
    Ahead,
    /// Today, a board already tapped: tonight, not left.
    Tonight,
}

/// Six teams of four, two singles boards and a pairs board, no fixture yet.
fn builder() -> LeagueBuilder {
    LeagueBuilder::new("week")
        .teams(&["Ace", "Bell", "Crown", "Dart", "Eagle", "Fox"])
        .players(4)
        .boards(MatchFormat::with_boards(2, 1, 1))
        .fixtures(0)
        .secretary("sec")
}

/// Another league, of two teams.
fn other_league() -> LeagueBuilder {
    LeagueBuilder::new("other")
        .teams(&["Other A", "Other B"])
        .players(4)
        .boards(MatchFormat::with_boards(2, 1, 1))
        .fixtures(0)
}

/// Noon (London) `days` days before today (after it, when negative).
fn noon(days: i64) -> DateTime<Utc> {
    let zone = Zone::LONDON;
    let today = zone.local(Utc::now()).date();
    zone.instant(
        today - Duration::days(days),
        NaiveTime::from_hms_opt(12, 0, 0).unwrap(),
    )
    .unwrap()
}

async fn user(db: &Db, name: &str) -> UserId {
    db.user_by_username(name).await.unwrap().id
}

/// A fixture between teams `h` and `a` at noon `days` days ago, made into
/// `made`.
async fn fixture(db: &Db, l: &Built, (h, a): (usize, usize), days: i64, made: Made) -> FixtureId {
    let id = db
        .create_fixture(
            l.id,
            &NewFixture {
                season_id: l.season,
                division_id: l.division,
                round: 1,
                starts_at: Some(noon(days)),
                home_team_id: l.teams[h].id,
                away_team_id: l.teams[a].id,
                venue_id: None,
            },
        )
        .await
        .unwrap()
        .id;
    let result = simulated_result(l.rules, &l.format, &l.teams[h], &l.teams[a], id.0 as u64);
    let home = Actor::captain(user(db, &l.teams[h].captain).await, Side::Home);
    let away = Actor::captain(user(db, &l.teams[a].captain).await, Side::Away);
    let sec = Actor::secretary(user(db, "sec").await);
    let r = boneyard::app::results::submit;
    match made {
        Made::Missing | Made::Ahead => {}
        Made::PadsLeft | Made::Tonight => {
            let tap = boneyard::league::pad::Tap::Players {
                home: vec![l.teams[h].players[0].0.0],
                away: vec![l.teams[a].players[0].0.0],
            };
            let summary = boneyard::league::pad::Summary::default();
            db.save_pad(l.id, id, 1, 0, &[tap], &summary, None)
                .await
                .unwrap();
        }
        Made::Entered => {
            r(db, l.id, id, &result, home).await.unwrap();
        }
        Made::Confirmed => {
            r(db, l.id, id, &result, home).await.unwrap();
            boneyard::app::results::confirm(db, l.id, id, 1, away)
                .await
                .unwrap();
        }
        Made::Disputed => {
            r(db, l.id, id, &result, home).await.unwrap();
            boneyard::app::results::dispute(db, l.id, id, 1, "board 2 was ours", away)
                .await
                .unwrap();
        }
        Made::Approved => {
            r(db, l.id, id, &result, sec).await.unwrap();
        }
        Made::Walkover => {
            boneyard::app::results::walkover(db, l.id, id, Side::Away, sec)
                .await
                .unwrap();
        }
        Made::Postponed => {
            boneyard::app::fixtures::reschedule(
                db,
                l.id,
                id,
                Some(noon(days)),
                FixtureStatus::Postponed,
                None,
            )
            .await
            .unwrap();
        }
        Made::Void => {
            boneyard::app::results::void(db, l.id, id, sec)
                .await
                .unwrap();
        }
    }
    id
}

/// The number on the console's count `id`.
fn count(page: &Page, id: &str) -> String {
    let at = page
        .body
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no count {id}: {}", page.body));
    let rest = &page.body[at..];
    let start = rest.find("<strong>").unwrap() + "<strong>".len();
    rest[start..start + rest[start..].find("</strong>").unwrap()].to_owned()
}

/// The HTML of the console's section `id` (`id="{id}-list"`).
fn section<'a>(page: &'a Page, id: &str) -> &'a str {
    let start = page
        .body
        .find(&format!("id=\"{id}-list\""))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &page.body[start..];
    &rest[..rest.find("</section>").unwrap()]
}

/// How many fixtures a section lists.
fn listed(page: &Page, id: &str) -> usize {
    section(page, id).matches("<li").count()
}

/// Gives `name` the confirmed address `email`, as the link sent to it
/// would.
async fn confirmed_address(db: &Db, name: &str, email: &str) {
    let id = user(db, name).await;
    let mail = link_message(
        LinkKind::Verify,
        "http://example.org/verify".into(),
        &MailConfig::new("http://example.org"),
    )
    .to(None, "verify", name, email, None);
    let hash = format!("verify-{name}");
    db.change_email(id, email, &hash, Duration::hours(1), &mail)
        .await
        .unwrap();
    db.use_token(boneyard::db::mail::TokenPurpose::Verify, &hash, None)
        .await
        .unwrap()
        .unwrap();
}

/// The messages queued for the league, newest first, less the links
/// that verified addresses.
async fn messages(db: &Db, l: &Built) -> Vec<boneyard::db::mail::Mail> {
    db.recent_mail(Some(l.id), 500)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.topic != "verify")
        .collect()
}

/// The bulk form posted from the console: `action` on `fixtures`, with
/// `more` fields.
async fn bulk(
    sec: &mut Client,
    l: &Built,
    action: &str,
    fixtures: &[FixtureId],
    more: &[(String, String)],
) -> Page {
    let console = sec.get(&l.console("")).await;
    let ids: Vec<String> = fixtures.iter().map(ToString::to_string).collect();
    let mut fields: Vec<(&str, &str)> = vec![("csrf", ""), ("action", action)];
    let csrf = console.csrf();
    fields[0].1 = &csrf;
    for id in &ids {
        fields.push(("fixture", id));
    }
    for (k, v) in more {
        fields.push((k, v));
    }
    sec.post(&l.console("/week"), &fields).await
}

fn confirm() -> Vec<(String, String)> {
    vec![("confirm".into(), "yes".into())]
}

async fn the_consoles_counts_are_the_records(db: Db) {
    let app = TestApp::new(&db, builder()).await;
    let l = &app.league;
    // Every state a fixture can be in, on nights from a month ago to next
    // week: the days before today, and what was made of it.
    let plan: [(i64, Made); 17] = [
        (30, Made::Missing),
        (29, Made::Missing),
        (23, Made::Missing),
        (16, Made::Confirmed),
        (15, Made::Entered),
        (14, Made::Disputed),
        (13, Made::Void),
        (12, Made::Postponed),
        (11, Made::Walkover),
        (10, Made::Missing),
        (9, Made::PadsLeft),
        (8, Made::Approved),
        (3, Made::Entered),
        (2, Made::Missing),
        (1, Made::PadsLeft),
        (0, Made::Tonight),
        (-2, Made::Ahead),
    ];
    let pairs = [(0, 1), (2, 3), (4, 5), (1, 2), (3, 4), (5, 0)];
    let mut made = Vec::new();
    for (i, (days, what)) in plan.iter().enumerate() {
        let id = fixture(&db, l, pairs[i % pairs.len()], *days, *what).await;
        made.push((id, *days, *what));
    }
    // A late-result rule of 7 days, one late fixture already penalised.
    let kind = l.late_card(&db).await;
    db.set_late_result_rule(
        l.id,
        Some(boneyard::league::late_results::LateResultRule {
            days: 7,
            kind: kind.id,
        }),
        None,
    )
    .await
    .unwrap();
    let penalised = made[0].0;
    boneyard::app::penalties::apply_late_result(&db, l.id, penalised, kind.id, None, Utc::now())
        .await
        .unwrap();
    // Three players' invitations, one taken up (a secretary's invitation is
    // the administrator's, never the league's to wait on).
    for (i, (token, name)) in [("tok-a", "new-a"), ("tok-b", "new-b"), ("tok-c", "new-c")]
        .into_iter()
        .enumerate()
    {
        db.invite(
            &boneyard::db::invitations::NewInvitation {
                token: token.into(),
                username: name.into(),
                league: l.id,
                role: boneyard::db::invitations::Invited::Player {
                    player: l.teams[0].players[i].0,
                },
                email: None,
            },
            None,
            None,
        )
        .await
        .unwrap();
    }
    boneyard::app::invitations::accept(&db, "tok-b", "new-b", "not a real hash")
        .await
        .unwrap();
    // Another league's records count nowhere here.
    let other = other_league().build(&db).await;
    fixture(&db, &other, (0, 1), 5, Made::Missing).await;

    let is = |w: &[Made]| made.iter().filter(|(_, _, m)| w.contains(m)).count();
    let missing = is(&[Made::Missing, Made::PadsLeft]);
    let late = made
        .iter()
        .filter(|(id, days, m)| {
            matches!(m, Made::Missing | Made::PadsLeft) && *days >= 7 && *id != penalised
        })
        .count();
    let expected = [
        ("count-approve", is(&[Made::Entered, Made::Confirmed])),
        ("count-disputed", is(&[Made::Disputed])),
        ("count-missing", missing),
        ("count-late", late),
        ("count-pads", is(&[Made::PadsLeft])),
        ("count-invitations", 2),
    ];
    let mut sec = app.with_secretary().await;
    let page = sec.get(&l.console("")).await;
    assert_eq!(page.status, StatusCode::OK);
    for (id, n) in expected {
        assert_eq!(count(&page, id), n.to_string(), "{id}");
    }
    // Each count heads its list.
    assert_eq!(listed(&page, "approvals"), expected[0].1);
    assert_eq!(listed(&page, "disputes"), expected[1].1);
    assert_eq!(listed(&page, "pads"), expected[4].1);
    assert!(section(&page, "missing").contains(&format!("Results missing ({missing})")));
    // Missing from this week are in this week's list, the rest by week,
    // folded: together, every missing fixture once.
    let (from, _) = boneyard::league::week::this_week(Zone::LONDON, Utc::now());
    let this_week = section(&page, "week");
    let older = section(&page, "missing");
    for (id, days, what) in &made {
        let card = format!("/leagues/week/matches/{id}/card\"");
        let pads = format!("/leagues/week/matches/{id}/pad\"");
        let shown_in = |html: &str| html.contains(&card) || html.contains(&pads);
        let missing = matches!(what, Made::Missing | Made::PadsLeft);
        if missing && noon(*days) >= from {
            assert!(shown_in(this_week), "{id} ({days} days) this week");
        }
        assert_eq!(
            shown_in(older),
            missing && noon(*days) < from,
            "{id} ({days} days) among the older missing"
        );
    }
    assert!(older.contains("<details class=\"missing-week\"><summary>Week of"));
    assert!(!older.contains("<details open"), "older weeks are folded");
    // This week starts with its counts, before any list.
    let tiles = page.body.find("id=\"count-approve\"").unwrap();
    for list in ["week-list", "approvals-list", "missing-list"] {
        assert!(page.body.find(&format!("id=\"{list}\"")).unwrap() > tiles);
    }
    // Tonight's tapped board is no pad left behind; the one a night ago is.
    let left = section(&page, "pads");
    for (id, _, what) in &made {
        let listed = left.contains(&format!("/leagues/week/matches/{id}/pad\""));
        assert_eq!(
            listed,
            *what == Made::PadsLeft,
            "{id} {what:?} among the pads"
        );
    }
    assert!(!page.has("Other A"), "another league's fixture is listed");
}

async fn the_console_names_who_took_each_step(db: Db) {
    let app = TestApp::new(&db, builder()).await;
    let l = &app.league;
    let confirmed = fixture(&db, l, (0, 1), 3, Made::Confirmed).await;
    let disputed = fixture(&db, l, (2, 3), 3, Made::Disputed).await;
    let mut sec = app.with_secretary().await;
    let page = sec.get(&l.console("")).await;
    let approvals = section(&page, "approvals");
    let (cap0, cap1) = (&l.teams[0].captain, &l.teams[1].captain);
    assert!(
        approvals.contains(&format!("version 1 entered by {cap0}; confirmed by {cap1}")),
        "{approvals}"
    );
    // The captain who entered it did not confirm it.
    assert!(
        !approvals.contains(&format!("confirmed by {cap0}")),
        "{approvals}"
    );
    let disputes = section(&page, "disputes");
    let (cap2, cap3) = (&l.teams[2].captain, &l.teams[3].captain);
    assert!(
        disputes.contains(&format!(
            "version 1 entered by {cap2}; disputed by {cap3}: \u{201c}board 2 was ours\u{201d}"
        )),
        "{disputes}"
    );
    for id in [confirmed, disputed] {
        assert!(page.has(&format!("/leagues/week/matches/{id}/history")));
    }
    // The approvals page names both steps too.
    let list = sec.get(&l.console("/approvals")).await;
    assert!(list.has(&format!("by {cap0}")), "{}", list.body);
    assert!(list.has(&format!("confirmed by {cap1}")), "{}", list.body);
}

async fn captains_are_reminded_once_after_one_confirmation(db: Db) {
    let app = TestApp::new(&db, builder()).await;
    let l = &app.league;
    let missing = fixture(&db, l, (0, 1), 2, Made::Missing).await;
    let entered = fixture(&db, l, (2, 3), 3, Made::Entered).await;
    let ahead = fixture(&db, l, (0, 2), -2, Made::Ahead).await;
    let unreachable = fixture(&db, l, (4, 5), 2, Made::Missing).await;
    for t in 0..4 {
        let name = &l.teams[t].captain;
        confirmed_address(&db, name, &format!("{name}@example.org")).await;
    }
    let before = messages(&db, l).await.len();
    let mut sec = app.with_secretary().await;
    // The confirmation says what will be done and what is left alone.
    let page = bulk(
        &mut sec,
        l,
        "remind",
        &[missing, entered, ahead, unreachable],
        &[],
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.has("Remind the captains of 2 matches?"),
        "{}",
        page.body
    );
    assert!(page.has("Ace v Bell") && page.has("Crown v Dart"));
    assert!(page.has("Ace v Crown</strong>: it has not been played yet"));
    assert!(page.has("Eagle v Fox</strong>: no captain it is for has a confirmed email address"));
    assert!(page.has(&format!(
        "To: {} and {}",
        l.teams[0].captain, l.teams[1].captain
    )));
    assert_eq!(
        messages(&db, l).await.len(),
        before,
        "nothing sent before confirming"
    );
    // Confirming one that may not be reminded does nothing at all.
    let refused = bulk(&mut sec, l, "remind", &[missing, ahead], &confirm()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.has("Nothing was done: Ace v Crown: it has not been played yet"));
    assert_eq!(messages(&db, l).await.len(), before);
    // One confirmation: the captains of each, once.
    let done = bulk(&mut sec, l, "remind", &[missing, entered], &confirm()).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let console = sec.get(&l.console("")).await;
    assert!(
        console
            .has("Reminders sent for Ace v Bell and Crown v Dart: 4 messages to their captains."),
        "{}",
        console.body
    );
    let sent: Vec<_> = messages(&db, l).await;
    let sent = &sent[..sent.len() - before];
    let mut to: HashMap<&str, Vec<&str>> = HashMap::new();
    for m in sent {
        to.entry(m.subject.as_str())
            .or_default()
            .push(m.to_name.as_str());
    }
    let mut ace_bell = to["No result yet for Ace v Bell"].clone();
    ace_bell.sort_unstable();
    assert_eq!(
        ace_bell,
        [l.teams[0].captain.as_str(), l.teams[1].captain.as_str()]
    );
    assert_eq!(
        to["The result of Crown v Dart is not confirmed yet"].len(),
        2
    );
    assert_eq!(sent.len(), 4, "{to:?}");
    assert!(sent.iter().all(|m| m.topic == "reminder"));
    assert_eq!(
        db.audit_entries(l.id, "reminder", missing.0)
            .await
            .unwrap()
            .len(),
        1
    );
    // The console says when; the same again is refused, and sends nothing.
    assert!(
        section(&console, "week").contains("(reminded "),
        "{}",
        console.body
    );
    let again = bulk(&mut sec, l, "remind", &[missing, entered], &confirm()).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(
        again.has("reminded less than 12 hours ago"),
        "{}",
        again.body
    );
    assert_eq!(messages(&db, l).await.len(), before + 4);
    // A captain cannot.
    let mut captain = app.with_captain(0).await;
    let page = captain.get(&l.console("")).await;
    assert_ne!(page.status, StatusCode::OK);
}

async fn walkovers_are_recorded_in_bulk_after_one_confirmation(db: Db) {
    let app = TestApp::new(&db, builder()).await;
    let l = &app.league;
    let pairs = [(0, 1), (2, 3), (4, 5), (1, 2), (3, 4)];
    let mut five = Vec::new();
    for (i, pair) in pairs.iter().enumerate() {
        five.push(fixture(&db, l, *pair, 9 + i as i64, Made::Missing).await);
    }
    let approved = fixture(&db, l, (5, 0), 9, Made::Approved).await;
    for t in 0..6 {
        let name = &l.teams[t].captain;
        confirmed_address(&db, name, &format!("{name}@example.org")).await;
    }
    let mut sec = app.with_secretary().await;
    let mut ticked = five.clone();
    ticked.push(approved);
    let page = bulk(&mut sec, l, "walkover", &ticked, &[]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("Record 5 walkovers?"), "{}", page.body);
    assert!(
        page.has("Fox v Ace</strong>: it is played already"),
        "{}",
        page.body
    );
    assert_eq!(page.body.matches("type=\"radio\"").count(), 10);
    // Without a side for each, nothing.
    let sides = |n: usize| -> Vec<(String, String)> {
        let mut f = confirm();
        for (i, id) in five.iter().take(n).enumerate() {
            let side = if i % 2 == 0 { "home" } else { "away" };
            f.push((format!("side-{id}"), side.into()));
        }
        f
    };
    let short = bulk(&mut sec, l, "walkover", &five, &sides(4)).await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(short.has("Say which team conceded"));
    assert!(
        db.fixture(l.id, five[0]).await.unwrap().status == FixtureStatus::Scheduled,
        "nothing recorded"
    );
    // One confirmation records the five, each with its side, audited.
    let done = bulk(&mut sec, l, "walkover", &five, &sides(5)).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    for (i, id) in five.iter().enumerate() {
        let f = db.fixture(l.id, *id).await.unwrap();
        assert_eq!(f.status, FixtureStatus::Walkover);
        let side = if i % 2 == 0 { Side::Home } else { Side::Away };
        assert_eq!(f.conceded_by, Some(side));
        assert_eq!(
            db.audit_entries(l.id, "fixture", id.0).await.unwrap().len(),
            1
        );
    }
    let console = sec.get(&l.console("")).await;
    assert!(console.has("Walkovers recorded: "), "{}", console.body);
    assert!(console.has("Ace v Bell (Ace conceded)"), "{}", console.body);
    assert!(
        console.has("Crown v Dart (Dart conceded)"),
        "{}",
        console.body
    );
    assert_eq!(count(&console, "count-missing"), "0");
    // Told as a single walkover is: both captains of each.
    let config = MailConfig::new("http://example.org");
    db.notify_pending(100, &|h| compose(h, &config))
        .await
        .unwrap();
    let told: Vec<_> = messages(&db, l)
        .await
        .into_iter()
        .filter(|m| m.subject.ends_with(": a walkover"))
        .collect();
    assert_eq!(told.len(), 10, "{told:?}");
    // Sent again, it is refused: they are walkovers already.
    let again = bulk(&mut sec, l, "walkover", &five, &sides(5)).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.has("it is walkover already"), "{}", again.body);
    assert_eq!(
        db.audit_entries(l.id, "fixture", five[0].0)
            .await
            .unwrap()
            .len(),
        1
    );
    // Another league's fixture is not found through this one.
    let other = other_league().build(&db).await;
    let foreign = fixture(&db, &other, (0, 1), 9, Made::Missing).await;
    let mut f = confirm();
    f.push((format!("side-{foreign}"), "home".into()));
    let page = bulk(&mut sec, l, "walkover", &[foreign], &f).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert_eq!(
        db.fixture(other.id, foreign).await.unwrap().status,
        FixtureStatus::Scheduled
    );
}

async fn a_bulk_postponement_refuses_what_it_may_not_postpone(db: Db) {
    let app = TestApp::new(&db, builder()).await;
    let l = &app.league;
    let ahead = fixture(&db, l, (0, 1), -3, Made::Ahead).await;
    let missing = fixture(&db, l, (2, 3), 4, Made::Missing).await;
    let postponed = fixture(&db, l, (4, 5), 5, Made::Postponed).await;
    let entered = fixture(&db, l, (1, 2), 5, Made::Entered).await;
    let mut sec = app.with_secretary().await;
    let page = bulk(
        &mut sec,
        l,
        "postpone",
        &[ahead, missing, postponed, entered],
        &[],
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("Postpone 2 matches?"), "{}", page.body);
    assert!(page.has("Eagle v Fox</strong>: it is postponed already"));
    assert!(
        page.has("Bell v Crown</strong>: it is played already"),
        "{}",
        page.body
    );
    // Nothing ticked: said, and nothing done.
    let none = bulk(&mut sec, l, "postpone", &[], &confirm()).await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(none.has("No fixture was ticked"));
    // Confirmed with one it may not postpone: none is.
    let refused = bulk(&mut sec, l, "postpone", &[ahead, postponed], &confirm()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(
        db.fixture(l.id, ahead).await.unwrap().status,
        FixtureStatus::Scheduled
    );
    let done = bulk(&mut sec, l, "postpone", &[ahead, missing], &confirm()).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    for (id, days) in [(ahead, -3), (missing, 4)] {
        let f = db.fixture(l.id, id).await.unwrap();
        assert_eq!(f.status, FixtureStatus::Postponed);
        assert_eq!(f.starts_at, Some(noon(days)), "its date is kept");
        let audit = db.audit_entries(l.id, "fixture", id.0).await.unwrap();
        assert_eq!(audit.len(), 1);
        assert_eq!(audit[0].user_id, Some(user(&db, "sec").await));
    }
    let console = sec.get(&l.console("")).await;
    // Said in order of play.
    assert!(
        console.has("Postponed: Crown v Dart and Ace v Bell."),
        "{}",
        console.body
    );
}
