//! A league's time zone: kick-offs typed in the league's clock time are
//! stored as the right instants across summer time, every page and
//! printout shows them as typed, and the calendar feeds give the instants
//! in UTC. A time the clocks skip is refused; a zone name nobody knows is
//! a field error.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::ical::unfold;
use boneyard::league::time::Zone;
use chrono::{DateTime, Utc};

use crate::harness::client::{Client, Page};
use crate::harness::forms::{error_beside, preview_then, value_of};
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    london_kick_offs_keep_their_clock_time_across_the_october_change,
    a_kick_off_the_clocks_skip_is_refused,
    a_new_york_league_shows_its_own_times,
    unknown_zone_names_are_field_errors,
);

/// The sample league (`LeagueBuilder::home_and_away`, Europe/London, the
/// default) with a second division of four teams and no fixtures yet, its
/// secretary ("SHORT-sec") and the administrator signed in.
struct World {
    app: TestApp,
    division: DivisionId,
    teams: Vec<TeamId>,
    admin: Client,
    sec: Client,
}

impl World {
    fn l(&self) -> &Built {
        &self.app.league
    }
}

async fn world(db: &Db, short: &str) -> World {
    let builder = LeagueBuilder::home_and_away(short).secretary(&format!("{short}-sec"));
    let app = TestApp::new(db, builder).await;
    let admin = app.with_admin().await;
    let venue = Some(app.league.venue_id());
    let teams = ["Swan", "Plough", "Vine", "Lamb"].map(|name| (name, venue));
    let (division, teams) = app.league.add_division(db, "Second", 1, &teams).await;
    let sec = app.with_secretary().await;
    World {
        app,
        division,
        teams,
        admin,
        sec,
    }
}

/// Four teams once each: three rounds at 19:30 on Thursdays, pushed by the
/// dates skipped to 10 September and 22 October (summer time) and
/// 3 December (winter time).
const FIELDS: [(&str, &str); 5] = [
    ("meetings", "1"),
    ("start", "2026-09-10"),
    ("weekday", "Thursday"),
    ("kick_off", "19:30"),
    (
        "skip",
        "2026-09-17\n2026-09-24\n2026-10-01\n2026-10-08\n2026-10-15\n\
         2026-10-29\n2026-11-05\n2026-11-12\n2026-11-19\n2026-11-26",
    ),
];

fn schedule_path(w: &World) -> String {
    format!("/leagues/{}/schedule/{}", w.l().short, w.division)
}

/// The form with `FIELDS` previewed; the preview page.
async fn preview(w: &mut World) -> Page {
    let path = schedule_path(w);
    let mut fields = FIELDS.to_vec();
    fields.push(("action", "preview"));
    w.sec.submit(&path, &path, &fields).await
}

/// The form with `FIELDS` previewed, then what it showed saved.
async fn generate(w: &mut World) {
    let path = schedule_path(w);
    let (preview, saved) = preview_then(&mut w.sec, &path, &FIELDS, "save").await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
}

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

/// The division's fixtures by round: (round, kick-off, one fixture's id).
async fn rounds(db: &Db, w: &World) -> Vec<(i64, Option<DateTime<Utc>>, FixtureId)> {
    let mut fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    fixtures.sort_by_key(|f| (f.round, f.id));
    let mut out: Vec<(i64, Option<DateTime<Utc>>, FixtureId)> = Vec::new();
    for f in fixtures {
        match out.last() {
            Some(last) if last.0 == f.round => assert_eq!(last.1, f.starts_at),
            _ => out.push((f.round, f.starts_at, f.id)),
        }
    }
    out
}

async fn london_kick_offs_keep_their_clock_time_across_the_october_change(db: Db) {
    let mut w = world(&db, "tzlon").await;

    // The form says which clock the kick-off is typed in; the draft shows
    // the time typed on every date and says whose time it is.
    let page = w.sec.get(&schedule_path(&w)).await;
    assert!(
        page.has("Europe/London time: the same clock time"),
        "{}",
        page.body
    );
    let page = preview(&mut w).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("Times are Europe/London time."), "{}", page.body);
    for round in [
        "Round 1: Thu 10 Sep 2026, 19:30",
        "Round 2: Thu 22 Oct 2026, 19:30",
        "Round 3: Thu 3 Dec 2026, 19:30",
    ] {
        assert!(page.has(round), "{round}: {}", page.body);
    }
    assert!(!page.has("UTC"), "{}", page.body);

    // Saved as the instants those clock times are: an hour ahead of UTC in
    // summer, UTC itself after the clocks go back on 25 October.
    generate(&mut w).await;
    let rounds = rounds(&db, &w).await;
    let starts: Vec<_> = rounds.iter().map(|r| r.1).collect();
    assert_eq!(
        starts,
        [
            Some(at("2026-09-10T18:30:00Z")),
            Some(at("2026-10-22T18:30:00Z")),
            Some(at("2026-12-03T19:30:00Z")),
        ]
    );
    let (september, december) = (rounds[0].2, rounds[2].2);

    // Every page shows 19:30: the secretary's list, the public fixtures,
    // a match, the team's fixture card and the score sheet.
    let mut anyone = w.sec.stranger();
    let page = w.sec.get(&schedule_path(&w)).await;
    assert!(page.has("Times are Europe/London time."), "{}", page.body);
    let fixtures = anyone
        .get(&format!("/leagues/{}/2026-27/second/fixtures", w.l().short))
        .await;
    assert_eq!(fixtures.status, StatusCode::OK, "{}", fixtures.body);
    let card = anyone
        .get(&format!(
            "/leagues/{}/print/team/{}",
            w.l().short,
            w.teams[0]
        ))
        .await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    assert!(card.has("Times are Europe/London time."), "{}", card.body);
    for page in [&page, &fixtures, &card] {
        assert!(page.has("Thu 10 Sep 2026, 19:30"), "{}", page.body);
        assert!(page.has("Thu 22 Oct 2026, 19:30"), "{}", page.body);
        assert!(page.has("Thu 3 Dec 2026, 19:30"), "{}", page.body);
        assert!(!page.has("18:30"), "{}", page.body);
        assert!(!page.has("UTC"), "{}", page.body);
    }
    for (fixture, shown, iso) in [
        (
            september,
            "Thu 10 Sep 2026, 19:30",
            "2026-09-10T19:30:00+01:00",
        ),
        (
            december,
            "Thu 3 Dec 2026, 19:30",
            "2026-12-03T19:30:00+00:00",
        ),
    ] {
        let page = anyone
            .get(&format!("/leagues/{}/matches/{fixture}", w.l().short))
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(
            page.has(&format!("<time datetime=\"{iso}\">{shown}</time>")),
            "{}",
            page.body
        );
        let sheet = anyone
            .get(&format!("/leagues/{}/print/fixture/{fixture}", w.l().short))
            .await;
        assert_eq!(sheet.status, StatusCode::OK, "{}", sheet.body);
        assert!(
            sheet.has(&format!("{shown} (Europe/London time)")),
            "{}",
            sheet.body
        );
    }

    // The team's calendar gives the instants in UTC: 18:30Z in September,
    // 19:30Z in December; its description gives the league's clock time.
    let ics = anyone
        .get(&format!(
            "/leagues/{}/calendar/team/{}.ics",
            w.l().short,
            w.teams[0]
        ))
        .await;
    assert_eq!(ics.status, StatusCode::OK, "{}", ics.body);
    let lines = unfold(&ics.body);
    let has = |line: &str| lines.iter().any(|l| l == line);
    assert!(has("DTSTART:20260910T183000Z"), "{}", ics.body);
    assert!(has("DTSTART:20261022T183000Z"), "{}", ics.body);
    assert!(has("DTSTART:20261203T193000Z"), "{}", ics.body);
    assert!(
        lines
            .iter()
            .any(|l| l.contains(r"Kick-off: Thu 3 Dec 2026\, 19:30 (Europe/London time)")),
        "{}",
        ics.body
    );
    assert!(!ics.body.contains("UTC"), "{}", ics.body);
}

async fn a_kick_off_the_clocks_skip_is_refused(db: Db) {
    let mut w = world(&db, "tzgap").await;
    // The sample fixture is at 19:30 UTC on 10 September: 20:30 in London,
    // and the form offers it as such.
    let path = format!(
        "/leagues/{}/fixtures/{}/postpone",
        w.l().short,
        w.l().fixture()
    );
    let page = w.sec.get(&path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(value_of(&page, "date"), "2026-09-10");
    assert_eq!(value_of(&page, "time"), "20:30");
    assert!(page.has("Thu 10 Sep 2026, 20:30"), "{}", page.body);
    assert!(page.has("Times are Europe/London time."), "{}", page.body);

    // 01:30 on 28 March 2027 does not happen in London: the clocks go from
    // 01:00 straight to 02:00. Refused beside the time; nothing moves.
    let before = db.fixture(w.l().id, w.l().fixture()).await.unwrap();
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2027-03-28"),
                ("time", "01:30"),
            ],
        )
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    let why = error_beside(&page, "time");
    assert!(
        why.contains("01:30 on Sun 28 Mar 2027 does not exist in Europe/London"),
        "{why}"
    );
    assert!(why.contains("from 01:00 to 02:00"), "{why}");
    assert_eq!(value_of(&page, "date"), "2027-03-28");
    assert_eq!(value_of(&page, "time"), "01:30");
    assert_eq!(db.fixture(w.l().id, w.l().fixture()).await.unwrap(), before);
    assert!(
        db.audit_entries(w.l().id, "fixture", w.l().fixture().0)
            .await
            .unwrap()
            .is_empty()
    );

    // The same night at a time that exists is summer time already.
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2027-03-28"),
                ("time", "19:30"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let f = db.fixture(w.l().id, w.l().fixture()).await.unwrap();
    assert_eq!(f.starts_at, Some(at("2027-03-28T18:30:00Z")));

    // 01:30 on 25 October 2026 happens twice: the first is taken.
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2026-10-25"),
                ("time", "01:30"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let f = db.fixture(w.l().id, w.l().fixture()).await.unwrap();
    assert_eq!(f.starts_at, Some(at("2026-10-25T00:30:00Z")));

    // A season whose kick-off the clocks skip on one of its dates is not
    // generated: 01:30 on Sundays from 21 March 2027 meets 28 March.
    let path = schedule_path(&w);
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("meetings", "1"),
                ("start", "2027-03-21"),
                ("weekday", "Sunday"),
                ("kick_off", "01:30"),
                ("skip", ""),
                ("action", "preview"),
            ],
        )
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(
        error_beside(&page, "kick_off").contains("does not exist in Europe/London"),
        "{}",
        page.body
    );
    assert_eq!(value_of(&page, "kick_off"), "01:30");
    assert!(!page.has("Save these fixtures"), "{}", page.body);
    assert!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_new_york_league_shows_its_own_times(db: Db) {
    let mut w = world(&db, "tzny").await;
    // The secretary moves the league to New York: the form shows the zone.
    let form = format!("/leagues/{}/console/league", w.l().short);
    let page = w.sec.get(&form).await;
    assert_eq!(value_of(&page, "time_zone"), "Europe/London");
    let page = w
        .sec
        .submit(
            &form,
            &form,
            &[
                ("name", "New York Dominoes"),
                ("rules_summary", ""),
                ("contact", ""),
                ("time_zone", " America/New_York "),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let league = db.league(w.l().id).await.unwrap();
    assert_eq!(league.time_zone.name(), "America/New_York");
    assert_eq!(
        value_of(&w.sec.get(&form).await, "time_zone"),
        "America/New_York"
    );

    // The sample fixture's instant (19:30 UTC, 10 September) is 15:30 in
    // New York, and its pages say so.
    let mut anyone = w.sec.stranger();
    let page = anyone
        .get(&format!(
            "/leagues/{}/matches/{}",
            w.l().short,
            w.l().fixture()
        ))
        .await;
    assert!(
        page.has("<time datetime=\"2026-09-10T15:30:00-04:00\">Thu 10 Sep 2026, 15:30</time>"),
        "{}",
        page.body
    );

    // A season typed at 19:30 is 19:30 in New York: 23:30Z in summer, and
    // 00:30Z the next day in winter.
    generate(&mut w).await;
    let starts: Vec<_> = rounds(&db, &w).await.iter().map(|r| r.1).collect();
    assert_eq!(
        starts,
        [
            Some(at("2026-09-10T23:30:00Z")),
            Some(at("2026-10-22T23:30:00Z")),
            Some(at("2026-12-04T00:30:00Z")),
        ]
    );
    let fixtures = anyone
        .get(&format!("/leagues/{}/2026-27/second/fixtures", w.l().short))
        .await;
    let card = anyone
        .get(&format!(
            "/leagues/{}/print/team/{}",
            w.l().short,
            w.teams[1]
        ))
        .await;
    for page in [&fixtures, &card] {
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(page.has("Thu 10 Sep 2026, 19:30"), "{}", page.body);
        assert!(page.has("Thu 3 Dec 2026, 19:30"), "{}", page.body);
        assert!(!page.has("Fri 4 Dec"), "{}", page.body);
    }
    assert!(
        card.has("Times are America/New_York time."),
        "{}",
        card.body
    );
    let ics = anyone
        .get(&format!(
            "/leagues/{}/calendar/team/{}.ics",
            w.l().short,
            w.teams[1]
        ))
        .await;
    let lines = unfold(&ics.body);
    assert!(
        lines.iter().any(|l| l == "DTSTART:20260910T233000Z"),
        "{}",
        ics.body
    );
    assert!(
        lines.iter().any(|l| l == "DTSTART:20261204T003000Z"),
        "{}",
        ics.body
    );

    // The administrator makes a league in New York from the start.
    let page = w
        .admin
        .submit(
            "/admin",
            "/admin",
            &[
                ("name", "Queens League"),
                ("short_name", "queens"),
                ("rules_summary", ""),
                ("contact", ""),
                ("time_zone", "America/New_York"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let queens = db.league_by_short_name("queens").await.unwrap();
    assert_eq!(queens.time_zone.name(), "America/New_York");
    assert!(w.admin.get("/admin").await.has("<td>America/New_York</td>"));
}

async fn unknown_zone_names_are_field_errors(db: Db) {
    let mut w = world(&db, "tzbad").await;
    // The administrator's form offers London first and the usual zones.
    let page = w.admin.get("/admin").await;
    assert_eq!(value_of(&page, "time_zone"), "Europe/London");
    assert!(
        page.has("<option value=\"America/New_York\">"),
        "{}",
        page.body
    );
    assert!(page.has("list=\"time-zones\""), "{}", page.body);

    for (typed, why) in [
        ("Europe/Londn", "`Europe/Londn` is not a time zone"),
        ("  ", "Fill this in"),
        ("<b>Mars</b>", "is not a time zone"),
    ] {
        let page = w
            .admin
            .submit(
                "/admin",
                "/admin",
                &[
                    ("name", "Nowhere League"),
                    ("short_name", "nowhere"),
                    ("rules_summary", "To 61"),
                    ("contact", ""),
                    ("time_zone", typed),
                ],
            )
            .await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{typed}: {}",
            page.body
        );
        assert!(error_beside(&page, "time_zone").contains(why), "{typed}");
        assert_eq!(value_of(&page, "time_zone"), typed);
        assert_eq!(value_of(&page, "short_name"), "nowhere");
        assert!(!page.has("<b>Mars"), "escaped: {}", page.body);
    }
    assert!(db.league_by_short_name("nowhere").await.is_err());

    // The secretary's form too; the league keeps its zone.
    let form = format!("/leagues/{}/console/league", w.l().short);
    let page = w
        .sec
        .submit(
            &form,
            &form,
            &[
                ("name", "Bad zone"),
                ("rules_summary", ""),
                ("contact", ""),
                ("time_zone", "Atlantis/Capital"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "time_zone").contains("not a time zone"));
    assert_eq!(value_of(&page, "time_zone"), "Atlantis/Capital");
    assert_eq!(value_of(&page, "name"), "Bad zone");
    let league = db.league(w.l().id).await.unwrap();
    assert_eq!(league.time_zone.name(), "Europe/London");
    assert_eq!(league.name, "tzbad league");

    // The database takes a zone already read (`Zone`), never a name: a
    // misspelt or empty one cannot reach it from anywhere else either.
    for name in ["Europe/Londn", ""] {
        assert!(Zone::parse(name).is_err(), "{name:?} read as a zone");
    }
    let new = NewLeague {
        name: "Direct".into(),
        short_name: "direct".into(),
        ..NewLeague::default()
    };
    let made = db.create_league(&new).await.unwrap();
    assert_eq!(made.time_zone.name(), "Europe/London");
}
