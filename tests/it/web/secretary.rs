//! The secretary's way round the league: the console's home of what needs
//! doing, the roster pasted in one go, a generated season thrown away and
//! made again, the list of leagues and the header's console link.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::workflow::{Actor, Role};

use crate::harness::client::Page;
use crate::harness::forms::error_beside;
use crate::harness::pages::previewed;
use crate::harness::results::sample_result;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    the_console_home_lists_what_needs_doing,
    a_roster_is_pasted_checked_then_saved_in_one_go,
    a_generated_season_is_thrown_away_until_a_result_is_recorded,
    the_leagues_are_listed_and_the_header_leads_a_secretary_to_the_console,
    teams_and_players_are_imported_from_a_csv_file,
);

/// The test league, "home" (`LeagueBuilder::home_and_away`), with its
/// secretary's account, "sec".
/// Two singles boards and a pairs board: the shape of `sample_result`,
/// which the tests submit as a whole match.
fn home_league() -> LeagueBuilder {
    LeagueBuilder::home_and_away("home")
        .secretary("sec")
        .boards(MatchFormat::with_boards(2, 1, 3))
}

/// The text of the section with heading id `id` on the console's home.
fn section(page: &Page, id: &str) -> String {
    let start = page
        .body
        .find(&format!("id=\"{id}-list\""))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &page.body[start..];
    rest[..rest.find("</section>").unwrap()].to_owned()
}

async fn the_console_home_lists_what_needs_doing(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let home = "/leagues/home/console";
    // The fixture's date (10 September 2026) has passed with no result:
    // it is missing, with a link to enter it.
    let page = sec.get(home).await;
    assert_eq!(page.status, StatusCode::OK);
    let missing = section(&page, "missing");
    assert!(missing.contains("Results missing (1)"), "{missing}");
    assert!(missing.contains("home Home v home Away"), "{missing}");
    assert!(
        missing.contains(&format!("/leagues/home/matches/{}/card", l.fixture())),
        "{missing}"
    );
    assert!(section(&page, "approvals").contains("(0)"));
    assert!(page.has("No fine is unpaid."));
    // Entered by a captain: no longer missing, awaiting approval instead.
    let user = db.user_by_username("sec").await.unwrap().id;
    boneyard::app::results::submit(
        &db,
        l.id,
        l.fixture(),
        &sample_result(l),
        Actor {
            user,
            role: Role::Captain(Side::Home),
        },
    )
    .await
    .unwrap();
    boneyard::app::penalties::add_fine(
        &db,
        l.id,
        &NewFine {
            team_id: Some(l.home()),
            player_id: None,
            penalty_id: None,
            amount_pence: 550,
            reason: "late card".into(),
        },
        None,
    )
    .await
    .unwrap();
    let page = sec.get(home).await;
    assert!(section(&page, "missing").contains("Results missing (0)"));
    let approvals = section(&page, "approvals");
    assert!(
        approvals.contains("Results awaiting approval (1)"),
        "{approvals}"
    );
    assert!(
        approvals.contains("version 1 entered by sec"),
        "{approvals}"
    );
    assert!(page.has("1 unpaid, £5.50 in all."), "{}", page.body);
    // Disputed: listed as a dispute, with its note.
    let (_, away_user) = app.with_account("away").await;
    boneyard::app::results::dispute(
        &db,
        l.id,
        l.fixture(),
        1,
        "board 2 was ours",
        Actor {
            user: away_user,
            role: Role::Captain(Side::Away),
        },
    )
    .await
    .unwrap();
    let page = sec.get(home).await;
    let disputes = section(&page, "disputes");
    assert!(disputes.contains("Disputed results (1)"), "{disputes}");
    assert!(disputes.contains("board 2 was ours"), "{disputes}");
    assert!(section(&page, "approvals").contains("(0)"));
    // Other leagues' fixtures are not listed.
    LeagueBuilder::home_and_away("other").build(&db).await;
    let page = sec.get(home).await;
    assert!(!page.has("other Home"), "{}", page.body);
}

async fn a_roster_is_pasted_checked_then_saved_in_one_go(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let roster = format!(
        "/leagues/home/console/teams/{}/seasons/{}",
        l.home(),
        l.season
    );
    let paste = format!("{roster}/roster");
    let before = db.players(l.id).await.unwrap().len();
    // A player of the other team is refused; nothing is written.
    let names = format!(
        "1. Zoe New\n{}\n\n  {}  \nzoe NEW\n",
        l.away_names()[0],
        l.home_names()[0].to_uppercase()
    );
    let page = sec
        .submit(&roster, &paste, &[("names", &names), ("action", "save")])
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(error_beside(&page, "names").contains("1 line is refused"));
    assert!(page.has("refused: registered to home Away this season"));
    assert_eq!(db.players(l.id).await.unwrap().len(), before);
    // Checked: each line says what saving will do; still nothing written.
    let names = format!(
        "1. Zoe New\n- Yan Other\n  {}  \nzoe NEW\n",
        l.home_names()[0].to_uppercase()
    );
    let page = sec
        .submit(&roster, &paste, &[("names", &names), ("action", "check")])
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("new player: added and registered"));
    assert!(page.has("registered already: nothing to do"));
    assert!(page.has("the same name as line 1: skipped"));
    assert!(page.has("Save: register these players"));
    assert_eq!(db.players(l.id).await.unwrap().len(), before);
    // Saved: two made and registered, in one go, and the page says so.
    let page = sec
        .submit(&roster, &paste, &[("names", &names), ("action", "save")])
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(page.location.as_deref(), Some(roster.as_str()));
    let page = sec.get(&roster).await;
    assert!(
        page.has("Roster of home Home saved: 2 registered (2 new players, 0 existing), 2 lines left as they were."),
        "{}",
        page.body
    );
    let team = db.team_players(l.id, l.season, l.home()).await.unwrap();
    let names: Vec<&str> = team.iter().map(|p| p.name.as_str()).collect();
    assert!(
        names.contains(&"Zoe New") && names.contains(&"Yan Other"),
        "{names:?}"
    );
    assert_eq!(team.len(), l.home_players().len() + 2);
    // An existing player with no team this season is matched, not copied.
    db.create_player(l.id, "Xia Free").await.unwrap();
    let page = sec
        .submit(
            &roster,
            &paste,
            &[("names", "xia  free"), ("action", "save")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let xia: Vec<_> = db
        .players(l.id)
        .await
        .unwrap()
        .into_iter()
        .filter(|p| p.name.to_lowercase().contains("xia"))
        .collect();
    assert_eq!(xia.len(), 1);
    assert!(
        db.team_players(l.id, l.season, l.home())
            .await
            .unwrap()
            .iter()
            .any(|p| p.id == xia[0].id)
    );
    // An empty paste is refused with a reason.
    let page = sec
        .submit(&roster, &paste, &[("names", "\n \n"), ("action", "save")])
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "names").contains("a name a line"));
}

async fn a_generated_season_is_thrown_away_until_a_result_is_recorded(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let schedule = format!("/leagues/home/schedule/{}", l.division);
    let discard = format!("{schedule}/discard");
    // The console's divisions page leads here.
    let divisions = sec
        .get(&format!(
            "/leagues/home/console/seasons/{}/divisions",
            l.season
        ))
        .await;
    assert!(divisions.has(&format!("href=\"{schedule}\"")));
    let page = sec.get(&schedule).await;
    assert!(page.has("Throw these 1 fixtures away"), "{}", page.body);
    // Thrown away, and made again.
    let page = sec.submit(&schedule, &discard, &[]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert!(db.fixtures(l.id, l.season).await.unwrap().is_empty());
    let page = sec.get(&schedule).await;
    assert!(
        page.has("1 fixtures of Premier thrown away"),
        "{}",
        page.body
    );
    let form = [
        ("meetings", "2"),
        ("start", "2026-01-05"),
        ("weekday", "Thursday"),
        ("kick_off", "19:30"),
        ("skip", ""),
        ("previewed", ""),
        ("action", "preview"),
    ];
    let preview = sec.submit(&schedule, &schedule, &form).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let shown = previewed(&preview);
    let mut save = form.to_vec();
    save.retain(|(k, _)| *k != "previewed" && *k != "action");
    save.push(("previewed", &shown));
    save.push(("action", "save"));
    let page = sec.submit(&schedule, &schedule, &save).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let made = db.fixtures(l.id, l.season).await.unwrap();
    assert_eq!(made.len(), 2);
    // Once a result is recorded, the season stays.
    let user = db.user_by_username("sec").await.unwrap().id;
    boneyard::app::results::submit(
        &db,
        l.id,
        made[0].id,
        &sample_result(l),
        Actor::secretary(user),
    )
    .await
    .unwrap();
    let page = sec.get(&schedule).await;
    assert!(!page.has("Throw these"), "{}", page.body);
    let page = sec.submit(&schedule, &discard, &[]).await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.body);
    assert!(page.has("Nothing was thrown away"));
    assert_eq!(db.fixtures(l.id, l.season).await.unwrap().len(), 2);
}

async fn the_leagues_are_listed_and_the_header_leads_a_secretary_to_the_console(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let mut sec = app.with_secretary().await;
    let anyone = sec.stranger().get("/leagues").await;
    assert_eq!(anyone.status, StatusCode::OK);
    assert!(anyone.has("href=\"/leagues/home\""), "{}", anyone.body);
    assert!(!anyone.has("/console"));
    // The secretary's every page links the console; a player's does not.
    let page = sec.get("/leagues/home").await;
    assert!(
        page.has("<a href=\"/leagues/home/console\">Console</a>"),
        "{}",
        page.body
    );
    let (mut other, _) = app.with_account("other").await;
    assert!(!other.get("/leagues/home").await.has("/console"));
    // The public table shows the fixtures link to the secretary only.
    let table = "/leagues/home/2026-27/premier";
    let shown = sec.get(table).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert!(shown.has("/schedule/"), "{}", shown.body);
    assert!(!other.get(table).await.has("/schedule/"));
}

async fn teams_and_players_are_imported_from_a_csv_file(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let form = format!("/leagues/home/console/seasons/{}/import", l.season);
    let token = sec.get(&form).await.csrf();
    let teams_before = db.teams(l.id).await.unwrap().len();
    let venues_before = db.venues(l.id).await.unwrap().len();
    // Mistakes are each named with their row, and nothing is written (not
    // even the venue a good row names).
    let bad = format!(
        "team,player,division,venue\nNew Crown,Ann New,Honours,\nPlough,{},Premier,The Moon\nSwan,Cy,Premier,The Swan\n",
        l.away_names()[0]
    );
    let page = sec
        .post_multipart(
            &form,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("teams.csv"), bad.as_bytes()),
                ("action", None, b"save"),
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
        page.has("Row 2: the division `Honours`: The address …/honours belongs to another page"),
        "{}",
        page.body
    );
    assert!(
        page.has(&format!(
            "Row 3: {} is registered to home Away this season",
            l.away_names()[0]
        )),
        "{}",
        page.body
    );
    assert_eq!(db.teams(l.id).await.unwrap().len(), teams_before);
    assert_eq!(db.venues(l.id).await.unwrap().len(), venues_before);
    // A good file: checked, then saved in one go; a venue and a division
    // it names that the league lacks are made.
    let good = format!(
        "Team,Player,Venue,Division\nNew Crown,Ann New,The home Arms,\nnew crown,Bob New,,\nhome home,{},,\nhome Home,Cy New,,\nSwan,Di New,The Swan,Division Two\n",
        l.home_names()[0]
    );
    let check = sec
        .post_multipart(
            &form,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("teams.csv"), good.as_bytes()),
                ("action", None, b"check"),
            ],
        )
        .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    assert!(
        check.has("1 new venues, 1 new divisions, 2 new teams, 2 teams entered in a division, 4 new players, 4 registrations,"),
        "{}",
        check.body
    );
    assert_eq!(db.teams(l.id).await.unwrap().len(), teams_before);
    let page = sec
        .post_multipart(
            &form,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("teams.csv"), good.as_bytes()),
                ("action", None, b"save"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let divisions = format!("/leagues/home/console/seasons/{}/divisions", l.season);
    assert_eq!(page.location.as_deref(), Some(divisions.as_str()));
    assert!(
        sec.get(&divisions)
            .await
            .has("Set up in 2026/27: 1 new venue, 1 new division, 2 new teams (2 entered in a division), 4 new players (4 registered), 0 captains named.")
    );
    let teams = db.teams(l.id).await.unwrap();
    let crown = teams.iter().find(|t| t.name == "New Crown").expect("made");
    assert_eq!(crown.venue_id, Some(l.venue_id()));
    let entries = db.team_entries(l.id, l.season).await.unwrap();
    assert!(
        entries
            .iter()
            .any(|e| e.team_id == crown.id && e.division_id == l.division)
    );
    let crown_players = db.team_players(l.id, l.season, crown.id).await.unwrap();
    assert_eq!(crown_players.len(), 2);
    let home = db.team_players(l.id, l.season, l.home()).await.unwrap();
    assert_eq!(home.len(), l.home_players().len() + 1);
    let swan = teams.iter().find(|t| t.name == "Swan").expect("made");
    let venue = db
        .venue(l.id, swan.venue_id.expect("a venue"))
        .await
        .unwrap();
    assert_eq!(venue.name, "The Swan");
    let two = db
        .divisions(l.id, l.season)
        .await
        .unwrap()
        .into_iter()
        .find(|d| d.name == "Division Two")
        .expect("made");
    assert!(
        entries
            .iter()
            .any(|e| e.team_id == swan.id && e.division_id == two.id)
    );
}
