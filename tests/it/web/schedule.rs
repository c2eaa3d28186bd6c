//! A division's season generated from the web (a draft first, then saved
//! in one go, once), one fixture postponed alone, the iCalendar feeds read
//! back, and the printouts.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::refusal::Refusal;
use chrono::{DateTime, Utc};

use crate::harness::client::{Client, Page};
use crate::harness::forms::{error_beside, preview_then};
use crate::harness::pages::previewed;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    preview_saves_nothing_and_save_writes_the_season,
    a_second_save_is_refused_with_a_message,
    a_pub_shared_across_divisions_is_never_double_booked,
    only_the_league_secretary_may_generate_or_postpone,
    postponing_moves_one_fixture_and_no_other,
    postponing_onto_a_full_night_asks_first,
    calendars_parse_back_with_every_dated_fixture,
    a_postponement_is_a_change_a_subscribed_calendar_takes,
    printouts_show_the_boards_and_the_draw,
);

/// A team name an iCalendar feed must escape.
const AWKWARD: &str = "Crown, Anchor; Inn";

/// The sample league ("sched", `LeagueBuilder::home_and_away`), plus a
/// second division of five teams (one with an awkward name) without
/// fixtures, and its secretary signed in.
struct World {
    app: TestApp,
    division: DivisionId,
    teams: Vec<TeamId>,
    sec: Client,
}

impl World {
    fn l(&self) -> &Built {
        &self.app.league
    }
}

async fn world(db: &Db) -> World {
    let builder = LeagueBuilder::home_and_away("sched").secretary("secretary");
    let app = TestApp::new(db, builder).await;
    let l = &app.league;
    let other_venue = db
        .create_venue(
            l.id,
            &NewVenue {
                name: "The Bell, Lower Street".into(),
                address: "2 Lower Street".into(),
                tables: 1,
            },
        )
        .await
        .unwrap()
        .id;
    // Alternately at the league's venue and the Bell.
    let venues = [l.venue_id(), other_venue];
    let teams: Vec<(&str, Option<VenueId>)> = [AWKWARD, "Bell A", "Bell B", "Anchor", "Rose"]
        .into_iter()
        .enumerate()
        .map(|(i, name)| (name, Some(venues[i % 2])))
        .collect();
    let (division, teams) = l.add_division(db, "Second", 1, &teams).await;
    let sec = app.with_secretary().await;
    World {
        app,
        division,
        teams,
        sec,
    }
}

fn schedule_path(w: &World) -> String {
    format!("/leagues/sched/schedule/{}", w.division)
}

const FIELDS: [(&str, &str); 5] = [
    ("meetings", "2"),
    ("start", "2026-09-01"),
    ("weekday", "Thursday"),
    ("kick_off", "19:30"),
    ("skip", "2026-09-17\r\n\r\n"),
];

/// Sends the form with `FIELDS`: a preview, or a preview then a save of
/// what it showed.
async fn send(w: &mut World, action: &str) -> Page {
    let path = schedule_path(w);
    if action == "preview" {
        let mut fields = FIELDS.to_vec();
        fields.push(("action", "preview"));
        return w.sec.submit(&path, &path, &fields).await;
    }
    preview_then(&mut w.sec, &path, &FIELDS, action).await.1
}

/// The dates of the ten rounds: Thursdays from 3 September, 17 September
/// skipped.
const ROUND_DATES: [&str; 10] = [
    "2026-09-03",
    "2026-09-10",
    "2026-09-24",
    "2026-10-01",
    "2026-10-08",
    "2026-10-15",
    "2026-10-22",
    "2026-10-29",
    "2026-11-05",
    "2026-11-12",
];

async fn preview_saves_nothing_and_save_writes_the_season(db: Db) {
    let mut w = world(&db).await;
    let page = w.sec.get(&schedule_path(&w)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.has("Europe/London time: the same clock time"),
        "{}",
        page.body
    );
    assert!(!page.has("UTC"), "{}", page.body);

    let page = send(&mut w, "preview").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("10 rounds, 20 matches"), "{}", page.body);
    assert!(page.has("Round 1: Thu 3 Sep 2026, 19:30"), "{}", page.body);
    assert!(page.has("Round 3: Thu 24 Sep 2026"), "{}", page.body);
    assert!(page.has("Bye: "), "{}", page.body);
    assert!(page.has("Crown, Anchor; Inn"), "{}", page.body);
    assert!(page.has("Save these fixtures"));
    assert!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .is_empty(),
        "a preview saved fixtures"
    );

    // A save of a form changed since its preview shows the new draft and
    // saves nothing.
    let path = schedule_path(&w);
    let mut fields = FIELDS.to_vec();
    fields[0] = ("meetings", "1");
    let shown = previewed(&page);
    let token = page.csrf();
    fields.extend([
        ("action", "save"),
        ("previewed", shown.as_str()),
        ("csrf", token.as_str()),
    ]);
    let stale = w.sec.post(&path, &fields).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    assert!(stale.has("changed since the preview"), "{}", stale.body);
    assert!(stale.has("5 rounds, 10 matches"), "{}", stale.body);
    assert!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .is_empty(),
        "a stale save saved fixtures"
    );

    let page = send(&mut w, "save").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    assert_eq!(fixtures.len(), 20);
    let mut pairs: BTreeMap<(TeamId, TeamId), u32> = BTreeMap::new();
    for f in &fixtures {
        assert_ne!(f.home_team_id, f.away_team_id);
        assert!(w.teams.contains(&f.home_team_id) && w.teams.contains(&f.away_team_id));
        assert_eq!(f.status, FixtureStatus::Scheduled);
        assert_eq!(f.season_id, w.l().season);
        let key = (
            f.home_team_id.min(f.away_team_id),
            f.home_team_id.max(f.away_team_id),
        );
        *pairs.entry(key).or_default() += 1;
        // 19:30 in London: British Summer Time (18:30 UTC) until the
        // clocks go back on 25 October 2026, Greenwich Mean Time after.
        let date = ROUND_DATES[(f.round - 1) as usize];
        let hour = if date < "2026-10-25" { 18 } else { 19 };
        let expected: DateTime<Utc> = format!("{date}T{hour}:30:00Z").parse().unwrap();
        assert_eq!(f.starts_at, Some(expected), "round {}", f.round);
        let home = db.team(w.l().id, f.home_team_id).await.unwrap();
        assert_eq!(f.venue_id, home.venue_id);
    }
    assert_eq!(pairs.len(), 10);
    assert!(pairs.values().all(|n| *n == 2), "{pairs:?}");
    for round in 1..=10 {
        let playing: Vec<_> = fixtures.iter().filter(|f| f.round == round).collect();
        assert_eq!(playing.len(), 2, "round {round}");
    }
    // The other division is untouched, and the save is audited.
    assert_eq!(
        db.division_fixtures(w.l().id, w.l().division)
            .await
            .unwrap()
            .len(),
        1
    );
    let audit = db
        .audit_entries(w.l().id, "division", w.division.0)
        .await
        .unwrap();
    assert_eq!(audit.len(), 1);
    // The page now lists the saved fixtures.
    let page = w.sec.get(&schedule_path(&w)).await;
    assert!(page.has("20 fixtures are saved"), "{}", page.body);
}

/// A division of four: the first team at `venue`, the others without one.
async fn division_of_four(
    db: &Db,
    w: &World,
    name: &str,
    position: i64,
    teams: [&str; 4],
    venue: VenueId,
) -> DivisionId {
    let teams: Vec<(&str, Option<VenueId>)> = teams
        .into_iter()
        .enumerate()
        .map(|(i, team)| (team, (i == 0).then_some(venue)))
        .collect();
    w.l().add_division(db, name, position, &teams).await.0
}

/// Previews a division's season with `FIELDS`, then saves what it showed;
/// returns the preview.
async fn preview_and_save(w: &mut World, division: DivisionId) -> Page {
    let path = format!("/leagues/sched/schedule/{division}");
    let (preview, saved) = preview_then(&mut w.sec, &path, &FIELDS, "save").await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    preview
}

async fn a_pub_shared_across_divisions_is_never_double_booked(db: Db) {
    let mut w = world(&db).await;
    let crown = db
        .create_venue(
            w.l().id,
            &NewVenue {
                name: "The Crown".into(),
                address: "3 Market Square".into(),
                tables: 1,
            },
        )
        .await
        .unwrap()
        .id;
    let third = division_of_four(
        &db,
        &w,
        "Third",
        2,
        ["Crown A", "Fox", "Hare", "Owl"],
        crown,
    )
    .await;
    let fourth = division_of_four(
        &db,
        &w,
        "Fourth",
        3,
        ["Crown B", "Stag", "Swan", "Wren"],
        crown,
    )
    .await;
    preview_and_save(&mut w, third).await;
    // The second division knows the Crown's nights from the first.
    let preview = preview_and_save(&mut w, fourth).await;
    assert!(
        preview.has("No venue has more home matches on a night than it has tables."),
        "{}",
        preview.body
    );
    let mut nights: BTreeMap<String, u32> = BTreeMap::new();
    for division in [third, fourth] {
        for f in db.division_fixtures(w.l().id, division).await.unwrap() {
            if f.venue_id == Some(crown) {
                *nights.entry(f.starts_at.unwrap().to_string()).or_default() += 1;
            }
        }
    }
    // Crown A and Crown B are at home three times each, never together.
    assert_eq!(nights.len(), 6, "{nights:?}");
    assert!(nights.values().all(|n| *n == 1), "{nights:?}");

    // A third Crown team finds every night taken: the clashes are named.
    let fifth = division_of_four(
        &db,
        &w,
        "Fifth",
        4,
        ["Crown C", "Lamb", "Mole", "Vole"],
        crown,
    )
    .await;
    let path = format!("/leagues/sched/schedule/{fifth}");
    let mut fields = FIELDS.to_vec();
    fields.push(("action", "preview"));
    let preview = w.sec.submit(&path, &path, &fields).await;
    assert!(
        preview.has("The Crown has Crown C at home, and a match of another division, but 1 table."),
        "{}",
        preview.body
    );
}

async fn a_second_save_is_refused_with_a_message(db: Db) {
    let mut w = world(&db).await;
    // A bad date is refused beside its field.
    let path = schedule_path(&w);
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("meetings", "2"),
                ("start", "next week"),
                ("weekday", "Thursday"),
                ("kick_off", "19:30"),
                ("skip", "2026-13-01"),
                ("action", "preview"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "start").contains("YYYY-MM-DD"));
    assert!(error_beside(&page, "skip").contains("Line 1"));
    let path = schedule_path(&w);
    let first = send(&mut w, "preview").await;
    let mut fields = FIELDS.to_vec();
    let shown = previewed(&first);
    let token = first.csrf();
    fields.extend([
        ("action", "save"),
        ("previewed", shown.as_str()),
        ("csrf", token.as_str()),
    ]);
    assert_eq!(
        w.sec.post(&path, &fields).await.status,
        StatusCode::SEE_OTHER
    );
    let page = w.sec.post(&path, &fields).await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.body);
    assert!(page.has("already has 20 fixtures"), "{}", page.body);
    assert_eq!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .len(),
        20
    );
    // A division with fixtures already (the sample one) is refused too.
    let path = format!("/leagues/sched/schedule/{}", w.l().division);
    let mut fields = FIELDS.to_vec();
    fields.push(("action", "save"));
    let page = w.sec.submit(&path, &path, &fields).await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.body);
    assert!(page.has("already has 1 fixture:"), "{}", page.body);
    // The database refuses it too, whoever asks, and writes nothing.
    let again = NewFixture {
        season_id: w.l().season,
        division_id: w.division,
        round: 99,
        starts_at: None,
        home_team_id: w.teams[0],
        away_team_id: w.teams[1],
        venue_id: None,
    };
    match boneyard::app::schedule::create_fixtures(&db, w.l().id, &[again], None).await {
        Err(DbError::Refused(Refusal::DivisionScheduled { fixtures })) => assert_eq!(fixtures, 20),
        other => panic!("a second season was not refused: {other:?}"),
    }
    assert_eq!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .len(),
        20
    );
}

async fn only_the_league_secretary_may_generate_or_postpone(db: Db) {
    let mut w = world(&db).await;
    let other = LeagueBuilder::home_and_away("other").build(&db).await;
    let mut stranger_sec = w.app.with_secretary_of(&other, "othersec").await;
    let path = schedule_path(&w);
    let postpone = format!("/leagues/sched/fixtures/{}/postpone", w.l().fixture());

    let mut anonymous = w.sec.stranger();
    for p in [&path, &postpone] {
        let page = anonymous.get(p).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{p}");
        assert!(page.location.unwrap().starts_with("/sign-in"));
        let page = anonymous
            .post(p, &[("action", "save"), ("status", "postponed")])
            .await;
        assert!(
            page.status == StatusCode::SEE_OTHER || page.status == StatusCode::FORBIDDEN,
            "{p}: {}",
            page.status
        );
        assert_eq!(
            stranger_sec.get(p).await.status,
            StatusCode::FORBIDDEN,
            "{p}"
        );
    }
    // With a good token of their own session, the other secretary is still
    // refused.
    let token = stranger_sec.get("/leagues/other/console").await.csrf();
    let mut fields = FIELDS.to_vec();
    fields.push(("action", "save"));
    fields.push(("csrf", &token));
    let page = stranger_sec.post(&path, &fields).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    let page = stranger_sec
        .post(
            &postpone,
            &[("csrf", &token), ("status", "postponed"), ("date", "")],
        )
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    // Nor may they reach this league's fixture through their own league.
    let page = stranger_sec
        .get(&format!(
            "/leagues/other/fixtures/{}/postpone",
            w.l().fixture()
        ))
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);

    assert!(
        db.division_fixtures(w.l().id, w.division)
            .await
            .unwrap()
            .is_empty()
    );
    let f = db.fixture(w.l().id, w.l().fixture()).await.unwrap();
    assert_eq!(f.status, FixtureStatus::Scheduled);
    // The secretary of this league may.
    assert_eq!(w.sec.get(&path).await.status, StatusCode::OK);
}

async fn postponing_onto_a_full_night_asks_first(db: Db) {
    let mut w = world(&db).await;
    assert_eq!(send(&mut w, "save").await.status, StatusCode::SEE_OTHER);
    let fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    // Two nights the one-table Bell hosts a match.
    let bell = db.team(w.l().id, w.teams[1]).await.unwrap().venue_id;
    let at_bell: Vec<&Fixture> = fixtures.iter().filter(|f| f.venue_id == bell).collect();
    let (moved, taken) = (at_bell[0], at_bell[1]);
    assert_ne!(moved.starts_at, taken.starts_at);
    let night = taken.starts_at.unwrap().format("%Y-%m-%d").to_string();
    let path = format!("/leagues/sched/fixtures/{}/postpone", moved.id);
    let fields = [
        ("status", "scheduled"),
        ("date", night.as_str()),
        ("time", "20:00"),
    ];
    let page = w.sec.submit(&path, &path, &fields).await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    let why = error_beside(&page, "clash_ok");
    let home = db.team(w.l().id, taken.home_team_id).await.unwrap().name;
    assert!(why.contains("The Bell, Lower Street already has"), "{why}");
    assert!(why.contains(&home) && why.contains("1 table."), "{why}");
    assert_eq!(db.fixture(w.l().id, moved.id).await.unwrap(), *moved);
    // Asked again, the date is kept.
    let mut fields = fields.to_vec();
    fields.push(("clash_ok", "yes"));
    let page = w.sec.submit(&path, &path, &fields).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let after = db.fixture(w.l().id, moved.id).await.unwrap();
    assert_eq!(
        after.starts_at.unwrap().format("%Y-%m-%d").to_string(),
        night
    );
}

async fn postponing_moves_one_fixture_and_no_other(db: Db) {
    let mut w = world(&db).await;
    assert_eq!(send(&mut w, "save").await.status, StatusCode::SEE_OTHER);
    let before = db.division_fixtures(w.l().id, w.division).await.unwrap();
    let moved = before[3].clone();
    let path = format!("/leagues/sched/fixtures/{}/postpone", moved.id);

    let page = w.sec.get(&path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2026-12-03"),
                ("time", "20:00"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let after = db.division_fixtures(w.l().id, w.division).await.unwrap();
    assert_eq!(after.len(), before.len());
    for f in &after {
        let old = before.iter().find(|b| b.id == f.id).unwrap();
        if f.id == moved.id {
            assert_eq!(f.starts_at, Some("2026-12-03T20:00:00Z".parse().unwrap()));
            assert_eq!(f.status, FixtureStatus::Scheduled);
            assert_eq!(f.round, old.round);
            assert_eq!(f.venue_id, old.venue_id);
        } else {
            assert_eq!(f, old, "another fixture moved");
        }
    }
    let audit = db
        .audit_entries(w.l().id, "fixture", moved.id.0)
        .await
        .unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].action, "change");

    // Postponed with no date yet.
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[("status", "postponed"), ("date", ""), ("time", "")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let f = db.fixture(w.l().id, moved.id).await.unwrap();
    assert_eq!(f.status, FixtureStatus::Postponed);
    assert_eq!(f.starts_at, None);

    // Scheduled needs a date; a bad time is refused; nothing changes.
    let page = w
        .sec
        .submit(&path, &path, &[("status", "scheduled"), ("date", "")])
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "date").contains("needs a date"));
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2026-12-10"),
                ("time", "8pm"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "time").contains("HH:MM"));
    assert_eq!(db.fixture(w.l().id, moved.id).await.unwrap(), f);

    // A void fixture is not moved from here: 409 with the reason.
    let void = before[5].clone();
    let void = boneyard::app::fixtures::change(
        &db,
        w.l().id,
        void.id,
        &FixtureChange {
            status: FixtureStatus::Void,
            ..FixtureChange::from(&void)
        },
        None,
    )
    .await
    .unwrap();
    let void_path = format!("/leagues/sched/fixtures/{}/postpone", void.id);
    assert_eq!(w.sec.get(&void_path).await.status, StatusCode::CONFLICT);
    let token = w.sec.get(&path).await.csrf();
    let page = w
        .sec
        .post(
            &void_path,
            &[
                ("csrf", &token),
                ("status", "scheduled"),
                ("date", "2027-01-07"),
                ("time", "19:30"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.body);
    assert!(page.has("This fixture is void"), "{}", page.body);
    assert_eq!(db.fixture(w.l().id, void.id).await.unwrap(), void);
    assert_eq!(
        db.audit_entries(w.l().id, "fixture", moved.id.0)
            .await
            .unwrap()
            .len(),
        2
    );
}

/// One event of a feed: its properties by name, values unescaped.
type Props = BTreeMap<String, String>;

/// Reads a feed back as RFC 5545 writes it: CRLF lines of at most 75
/// octets, folds undone, each VEVENT's properties split at the first colon
/// and unescaped.
fn parse_calendar(text: &str) -> (Props, Vec<Props>) {
    assert!(text.ends_with("\r\n"));
    let mut lines: Vec<String> = Vec::new();
    for raw in text.split("\r\n") {
        assert!(raw.len() <= 75, "a line of {} octets: {raw}", raw.len());
        assert!(!raw.contains('\n') && !raw.contains('\r'));
        if let Some(rest) = raw.strip_prefix(' ') {
            lines.last_mut().expect("a fold first").push_str(rest);
        } else if !raw.is_empty() {
            lines.push(raw.to_owned());
        }
    }
    assert_eq!(lines.first().map(String::as_str), Some("BEGIN:VCALENDAR"));
    assert_eq!(lines.last().map(String::as_str), Some("END:VCALENDAR"));
    let mut calendar = Props::new();
    let mut events = Vec::new();
    let mut current: Option<Props> = None;
    for line in &lines[1..lines.len() - 1] {
        match line.as_str() {
            "BEGIN:VEVENT" => current = Some(Props::new()),
            "END:VEVENT" => events.push(current.take().expect("an event open")),
            _ => {
                let (name, value) = line.split_once(':').expect("NAME:value");
                let mut out = String::new();
                let mut chars = value.chars();
                while let Some(c) = chars.next() {
                    if c == '\\' {
                        match chars.next().expect("an escape") {
                            'n' | 'N' => out.push('\n'),
                            c @ ('\\' | ';' | ',') => out.push(c),
                            c => panic!("unknown escape \\{c} in {line}"),
                        }
                    } else {
                        assert!(
                            c != ';' && c != ',' || name != "SUMMARY",
                            "unescaped: {line}"
                        );
                        out.push(c);
                    }
                }
                let props = current.as_mut().unwrap_or(&mut calendar);
                props.insert(name.to_owned(), out);
            }
        }
    }
    assert!(current.is_none());
    (calendar, events)
}

fn utc(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

async fn calendars_parse_back_with_every_dated_fixture(db: Db) {
    let mut w = world(&db).await;
    assert_eq!(send(&mut w, "save").await.status, StatusCode::SEE_OTHER);
    let fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    // One fixture loses its date, one is void.
    let undated = fixtures
        .iter()
        .find(|f| f.home_team_id == w.teams[0] || f.away_team_id == w.teams[0])
        .unwrap()
        .clone();
    boneyard::app::fixtures::change(
        &db,
        w.l().id,
        undated.id,
        &FixtureChange {
            starts_at: None,
            status: FixtureStatus::Postponed,
            ..FixtureChange::from(&undated)
        },
        None,
    )
    .await
    .unwrap();
    let void = fixtures
        .iter()
        .find(|f| f.id != undated.id && f.home_team_id == w.teams[0])
        .unwrap()
        .clone();
    boneyard::app::fixtures::change(
        &db,
        w.l().id,
        void.id,
        &FixtureChange {
            status: FixtureStatus::Void,
            ..FixtureChange::from(&void)
        },
        None,
    )
    .await
    .unwrap();
    let fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    let names: BTreeMap<TeamId, String> = db
        .teams(w.l().id)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let venues: BTreeMap<VenueId, String> = db
        .venues(w.l().id)
        .await
        .unwrap()
        .into_iter()
        .map(|v| (v.id, v.name))
        .collect();

    let mut anonymous = w.app.anonymous().await;
    for (path, wanted) in [
        (
            format!("/leagues/sched/calendar/division/{}.ics", w.division),
            fixtures.clone(),
        ),
        (
            format!("/leagues/sched/calendar/team/{}.ics", w.teams[0]),
            fixtures
                .iter()
                .filter(|f| f.home_team_id == w.teams[0] || f.away_team_id == w.teams[0])
                .cloned()
                .collect(),
        ),
    ] {
        let page = anonymous.get(&path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        assert_eq!(page.headers["content-type"], "text/calendar; charset=utf-8");
        let (calendar, events) = parse_calendar(&page.body);
        assert_eq!(calendar["VERSION"], "2.0");
        assert!(calendar.contains_key("PRODID"));
        let dated: Vec<&Fixture> = wanted.iter().filter(|f| f.starts_at.is_some()).collect();
        // The fixture postponed to no date yet stays, cancelled on the date
        // it was to be played, so subscribed calendars drop it from there.
        assert_eq!(events.len(), dated.len() + 1, "{path}");
        assert!(dated.len() < wanted.len());
        let e = events
            .iter()
            .find(|e| e["UID"] == format!("fixture-{}@sched.boneyard", undated.id))
            .expect("the postponed fixture's event");
        assert_eq!(e["STATUS"], "CANCELLED");
        assert_eq!(e["DTSTART"], utc(undated.starts_at.unwrap()));
        assert!(e["SUMMARY"].starts_with("Postponed: "), "{}", e["SUMMARY"]);
        assert_eq!(e["SEQUENCE"], "1");
        let mut uids: Vec<&String> = events.iter().map(|e| &e["UID"]).collect();
        uids.sort();
        uids.dedup();
        assert_eq!(uids.len(), events.len(), "UIDs are unique");
        for f in dated {
            let uid = format!("fixture-{}@sched.boneyard", f.id);
            let e = events
                .iter()
                .find(|e| e["UID"] == uid)
                .unwrap_or_else(|| panic!("{path}: no event for fixture {}", f.id));
            let start = f.starts_at.unwrap();
            assert_eq!(e["DTSTART"], utc(start));
            assert!(e["DTEND"].ends_with('Z') && e["DTEND"] > e["DTSTART"]);
            assert!(e["DTSTAMP"].ends_with('Z'));
            assert_eq!(
                e["SUMMARY"],
                format!("{} v {}", names[&f.home_team_id], names[&f.away_team_id])
            );
            assert_eq!(e["LOCATION"], venues[&f.venue_id.unwrap()]);
            assert!(e["DESCRIPTION"].contains(&format!("round {}", f.round)));
            assert!(e["DESCRIPTION"].contains(f.status.as_str()));
            let (status, sequence) = if f.status == FixtureStatus::Void {
                ("CANCELLED", "1")
            } else {
                ("CONFIRMED", "0")
            };
            assert_eq!(e["STATUS"], status);
            assert_eq!(
                e["SEQUENCE"], sequence,
                "one recorded change for the void one"
            );
        }
        // The awkward name is escaped on the wire.
        assert!(page.has(r"Crown\, Anchor\; Inn"), "{}", page.body);
    }
    // The same feed twice gives the same UIDs.
    let path = format!("/leagues/sched/calendar/team/{}.ics", w.teams[0]);
    let a = parse_calendar(&anonymous.get(&path).await.body).1;
    let b = parse_calendar(&anonymous.get(&path).await.body).1;
    let uids = |e: &Vec<Props>| e.iter().map(|p| p["UID"].clone()).collect::<Vec<_>>();
    assert_eq!(uids(&a), uids(&b));
    // Unknown or foreign calendars are not found.
    for bad in [
        "/leagues/sched/calendar/team/999999.ics".to_owned(),
        "/leagues/sched/calendar/team/abc.ics".to_owned(),
        format!("/leagues/sched/calendar/team/{}", w.teams[0]),
        format!("/leagues/other/calendar/division/{}.ics", w.division),
    ] {
        assert_eq!(
            anonymous.get(&bad).await.status,
            StatusCode::NOT_FOUND,
            "{bad}"
        );
    }
}

/// A feed's events as a real iCalendar parser reads them, by UID: (status,
/// sequence, start, summary, description).
fn parsed_events(text: &str) -> BTreeMap<String, (String, u32, DateTime<Utc>, String, String)> {
    use icalendar::{Calendar, CalendarComponent, CalendarDateTime, Component, DatePerhapsTime};
    let calendar: Calendar = text.parse().expect("an iCalendar parser reads the feed");
    calendar
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .map(|e| {
            let start = match e.get_start() {
                Some(DatePerhapsTime::DateTime(CalendarDateTime::Utc(t))) => t,
                other => panic!("a start in UTC, not {other:?}"),
            };
            let status = e
                .property_value("STATUS")
                .expect("every event has a status")
                .to_owned();
            (
                e.get_uid().expect("a uid").to_owned(),
                (
                    status,
                    e.get_sequence().expect("every event has a sequence"),
                    start,
                    e.get_summary().unwrap_or_default().to_owned(),
                    e.get_description().unwrap_or_default().to_owned(),
                ),
            )
        })
        .collect()
}

async fn a_postponement_is_a_change_a_subscribed_calendar_takes(db: Db) {
    let mut w = world(&db).await;
    assert_eq!(send(&mut w, "save").await.status, StatusCode::SEE_OTHER);
    let fixtures = db.division_fixtures(w.l().id, w.division).await.unwrap();
    let moved = fixtures[2].clone();
    let uid = format!("fixture-{}@sched.boneyard", moved.id);
    let feed = format!("/leagues/sched/calendar/division/{}.ics", w.division);
    let mut phone = w.app.anonymous().await;
    let first = parsed_events(&phone.get(&feed).await.body);
    assert_eq!(first.len(), fixtures.len());
    let (status, sequence, start, _, _) = &first[&uid];
    assert_eq!((status.as_str(), *sequence), ("CONFIRMED", 0));
    assert_eq!(Some(*start), moved.starts_at);

    // Postponed on the night, no new date yet: the same event, cancelled on
    // its date, with a higher sequence, so a subscribed calendar takes it.
    let path = format!("/leagues/sched/fixtures/{}/postpone", moved.id);
    // The date and time as the league's secretary types them: its clock.
    let zone = db.league(w.l().id).await.unwrap().time_zone;
    let old = moved.starts_at.unwrap();
    let date = |t: DateTime<Utc>| zone.local(t).format("%Y-%m-%d").to_string();
    let time = |t: DateTime<Utc>| zone.local(t).format("%H:%M").to_string();
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "postponed"),
                ("date", &date(old)),
                ("time", &time(old)),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(
        db.fixture(w.l().id, moved.id).await.unwrap().starts_at,
        Some(old),
        "the date kept"
    );
    let second = parsed_events(&phone.get(&feed).await.body);
    let (status, sequence, start, summary, _) = &second[&uid];
    assert_eq!((status.as_str(), *start), ("CANCELLED", old));
    assert!(*sequence > first[&uid].1, "the sequence rises");
    assert!(summary.starts_with("Postponed: "), "{summary}");

    // Given a new date: moved there, the sequence higher again, and the
    // description says where it came from.
    let page = w
        .sec
        .submit(
            &path,
            &path,
            &[
                ("status", "scheduled"),
                ("date", "2027-01-14"),
                ("time", "19:30"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let third = parsed_events(&phone.get(&feed).await.body);
    let (status, sequence, start, _, description) = &third[&uid];
    assert_eq!(status, "CONFIRMED");
    let new = zone
        .instant("2027-01-14".parse().unwrap(), "19:30:00".parse().unwrap())
        .unwrap();
    assert_eq!(*start, new);
    assert!(*sequence > second[&uid].1, "the sequence rises again");
    assert!(description.contains("postponed from"), "{description}");
    // Every other fixture's event is as it was.
    for (other, event) in &third {
        if *other != uid {
            assert_eq!(event, &first[other], "{other} did not change");
        }
    }
}

async fn printouts_show_the_boards_and_the_draw(db: Db) {
    let mut w = world(&db).await;
    assert_eq!(send(&mut w, "save").await.status, StatusCode::SEE_OTHER);
    let mut anonymous = w.app.anonymous().await;

    let page = anonymous
        .get(&format!("/leagues/sched/print/team/{}", w.teams[0]))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("fixture card"));
    for name in ["Bell A", "Bell B", "Anchor", "Rose"] {
        assert!(page.has(name), "{name}: {}", page.body);
    }
    // Home or away, then the opponent, in one cell (a phone's width).
    assert_eq!(page.body.matches("<td>Home: ").count(), 4);
    assert_eq!(page.body.matches("<td>Away: ").count(), 4);
    assert!(page.has("Thu 3 Sep 2026") || page.has("Thu 10 Sep 2026"));

    // The sample season's format: 6 singles and 3 pairs boards.
    let page = anonymous
        .get(&format!("/leagues/sched/print/fixture/{}", w.l().fixture()))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("sched Home v sched Away"), "{}", page.body);
    assert!(page.has("The sched Arms"));
    assert!(page.has("Premier, 2026/27"));
    assert!(page.has("Board 1 · Singles"));
    assert!(page.has("Board 9 · Pairs"));
    assert!(!page.has("Board 10"));
    assert_eq!(
        page.body.matches("class=\"draw-box\"").count(),
        6 * 2 + 3 * 4
    );
    let rows = boneyard::league::sheet::hand_boxes(boneyard::rules::Format::FivesAndThrees).rows;
    assert_eq!(page.body.matches("<tr class=\"hand\">").count(), 9 * rows);
    // The seats are the card's, fixed by team: the draw only says who poses.
    assert!(page.has(
        "<th scope=\"row\" class=\"seat-letter\">D</th><td class=\"seat-side\">Away player 2</td>"
    ));

    // A fixture of another league is not found through this one.
    let other = LeagueBuilder::home_and_away("other").build(&db).await;
    let page = anonymous
        .get(&format!("/leagues/sched/print/fixture/{}", other.fixture()))
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
}
