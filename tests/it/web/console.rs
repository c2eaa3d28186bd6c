//! The secretary's console: every page shows for a secretary of the league;
//! every form saves what is good, shows what is bad again with the reason
//! beside its field and what was typed kept, and says "already exists" for
//! a duplicate; and no one else may see or change anything
//! (`every_route_checks_the_role`).

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::rules::Format;

use crate::harness::client::Page;
use crate::harness::forms::{PASSWORD, error_beside, no_error_beside, value_of};
use crate::harness::pages::{redirected, refused};
use crate::harness::results::sample_result;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    console_pages_show_for_the_secretary,
    league_details_are_edited,
    seasons_are_created_and_edited,
    the_season_form_sets_the_team_sheets_rules,
    season_rules_are_fixed_once_there_are_results,
    season_settings_change_with_results_and_the_pages_follow,
    divisions_are_created_and_edited,
    names_without_an_address_of_their_own_are_refused,
    venues_are_created_and_edited,
    teams_are_created_edited_and_entered,
    players_are_created_renamed_and_registered,
    captains_are_named_and_removed,
    penalty_kinds_are_created_edited_and_defaulted,
    the_penalty_kinds_are_one_list,
    users_are_given_roles_and_accounts,
    every_route_checks_the_role,
    every_console_and_admin_route_of_the_table_checks_the_role,
    nothing_typed_yields_a_500,
);

/// The field with the cursor.
fn focused(page: &Page) -> String {
    let at = page
        .body
        .find(" autofocus")
        .expect("a field with autofocus");
    let tag_start = page.body[..at].rfind('<').unwrap();
    let tag = &page.body[tag_start..at];
    let id = tag.split("id=\"").nth(1).unwrap();
    id.split('"').next().unwrap().to_owned()
}

/// The test league, "home" (`LeagueBuilder::home_and_away`), with its
/// secretary's account, "sec".
fn home_league() -> LeagueBuilder {
    LeagueBuilder::home_and_away("home").secretary("sec")
}

async fn console_pages_show_for_the_secretary(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let kind = l.late_card(&db).await;
    let pages = [
        (String::new(), "home league: console"),
        ("/league".into(), "League details"),
        ("/seasons".into(), "2026/27"),
        ("/seasons/new".into(), "New season"),
        (format!("/seasons/{}", l.season), "Season 2026/27"),
        (format!("/seasons/{}/divisions", l.season), "Premier"),
        (
            format!("/seasons/{}/divisions/{}", l.season, l.division),
            "Premier, 2026/27",
        ),
        ("/venues".into(), "The home Arms"),
        (format!("/venues/{}", l.venue_id()), "The home Arms"),
        ("/teams".into(), "home Home"),
        (format!("/teams/{}", l.home()), "home Home"),
        (
            format!("/teams/{}/seasons/{}", l.home(), l.season),
            "home player 00",
        ),
        ("/players".into(), "home player 10"),
        (
            format!("/players/{}", l.home_players()[0]),
            "home player 00",
        ),
        ("/penalty-kinds".into(), "Result card late"),
        (format!("/penalty-kinds/{}", kind.id), "Result card late"),
        ("/users".into(), "sec"),
    ];
    for (path, text) in pages {
        let page = sec.get(&l.console(&path)).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        assert!(page.has(text), "{path} lacks {text}: {}", page.body);
        assert!(
            page.has("<a href=\"/leagues/home/console\">Console</a>"),
            "{path} has no Console link"
        );
        // Every field has its label.
        for chunk in page.body.split("<input id=\"").skip(1) {
            let id = chunk.split('"').next().unwrap();
            assert!(
                page.has(&format!("<label for=\"{id}\">")),
                "{path}: `{id}` has no label"
            );
        }
    }
    // The cursor starts in the first field of the page's form.
    let page = sec.get(&l.console("/venues")).await;
    assert_eq!(focused(&page), "name");
    let page = sec.get(&l.console("/seasons/new")).await;
    assert_eq!(focused(&page), "name");
    // Records of another league are not found through this one.
    let other = LeagueBuilder::home_and_away("away").build(&db).await;
    for path in [
        format!("/seasons/{}", other.season),
        format!("/venues/{}", other.venue_id()),
        format!("/teams/{}", other.home()),
        format!("/players/{}", other.home_players()[0]),
        format!("/teams/{}/seasons/{}", other.home(), other.season),
        format!("/seasons/{}/divisions/{}", l.season, other.division),
    ] {
        let page = sec.get(&l.console(&path)).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
    }
}

async fn league_details_are_edited(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let form = l.console("/league");
    let page = sec
        .submit(
            &form,
            &form,
            &[
                ("name", "  "),
                ("rules_summary", "To 61"),
                ("contact", "<ann@example.org>"),
            ],
        )
        .await;
    refused(&page);
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    assert_eq!(value_of(&page, "contact"), "<ann@example.org>");
    assert_eq!(value_of(&page, "rules_summary"), "To 61");
    assert!(!page.has("<ann@"), "escaped");
    assert_eq!(focused(&page), "name");
    let page = sec
        .submit(
            &form,
            &form,
            &[
                ("name", "Home League"),
                ("rules_summary", "To 61"),
                ("contact", "ann@example.org"),
            ],
        )
        .await;
    redirected(&page, "/leagues/home/console");
    let league = db.league(l.id).await.unwrap();
    assert_eq!(league.name, "Home League");
    assert_eq!(league.contact, "ann@example.org");
    assert_eq!(
        league.short_name, "home",
        "the short name is the administrator's"
    );
}

/// A season's fields, all formats' options given: a form posts only the
/// shown format's, the rest are ignored.
fn season_fields<'a>(name: &'a str, format: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("name", name),
        ("format", format),
        ("shown", format),
        ("pose", "rotate"),
        ("target", "121"),
        ("exact_finish", "false"),
        ("tiles_per_hand", ""),
        ("blocked_scores", "difference"),
        ("penalty_points", "25"),
        ("penalty_to", "offender"),
        ("set_to", "7"),
        ("derby", "growing"),
        ("late_games", "2:1, 10:3"),
        ("late_forfeit_minutes", ""),
        ("singles", "4"),
        ("pairs", "2"),
        ("best_of", "3"),
        ("points_board", "1"),
        ("points_win", "3"),
        ("points_draw", "1"),
        ("points_loss", "0"),
        ("losing_bonus", "1"),
        ("pairings", "secretary"),
        ("tie_breaker_1", "points"),
        ("tie_breaker_2", "board_difference"),
        ("tie_breaker_3", "boards_won"),
        ("tie_breaker_4", "head_to_head"),
        ("tie_breaker_5", "pegs_difference"),
        ("tie_breaker_6", ""),
        ("min_games", "3"),
        ("approval", "secretary"),
    ]
}

fn with<'a>(
    mut fields: Vec<(&'a str, &'a str)>,
    changes: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    for (k, v) in changes {
        match fields.iter_mut().find(|(f, _)| f == k) {
            Some(field) => field.1 = v,
            None => fields.push((k, v)),
        }
    }
    fields
}

async fn seasons_are_created_and_edited(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let new = l.console("/seasons/new");
    // The form opens with the format's defaults.
    let page = sec.get(&format!("{new}?format=all-fives")).await;
    assert_eq!(value_of(&page, "format"), "all-fives");
    assert_eq!(value_of(&page, "target"), "250");
    assert_eq!(value_of(&page, "penalty_points"), "50");
    assert_eq!(value_of(&page, "singles"), "4");
    assert_eq!(value_of(&page, "best_of"), "3");
    let page = sec.get(&new).await;
    assert_eq!(value_of(&page, "target"), "61");
    assert_eq!(value_of(&page, "exact_finish"), "true");
    assert_eq!(value_of(&page, "singles"), "6");
    assert_eq!(value_of(&page, "pairs"), "3");

    // Bad: each reason beside its field, everything typed kept.
    let fields = with(
        season_fields("2027/28", "all-fives"),
        &[
            ("target", "lots"),
            ("best_of", "2"),
            ("penalty_to", "nobody"),
            ("points_win", "-1"),
        ],
    );
    let page = sec.submit(&new, &new, &fields).await;
    refused(&page);
    assert!(error_beside(&page, "target").contains("whole number"));
    assert!(error_beside(&page, "best_of").contains("best of 3, 5, 7 or 9"));
    assert_eq!(
        error_beside(&page, "penalty_to"),
        "Choose one of the options."
    );
    assert!(error_beside(&page, "points_win").contains("from 0 to 100"));
    no_error_beside(&page, "name");
    assert_eq!(value_of(&page, "name"), "2027/28");
    assert_eq!(value_of(&page, "target"), "lots");
    assert_eq!(value_of(&page, "blocked_scores"), "difference");
    assert_eq!(value_of(&page, "singles"), "4");
    assert_eq!(focused(&page), "target");
    let page = sec
        .submit(
            &new,
            &new,
            &with(
                season_fields("", "hands-won"),
                &[("singles", "0"), ("pairs", "0"), ("late_games", "1 minute")],
            ),
        )
        .await;
    refused(&page);
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    assert!(error_beside(&page, "singles").contains("1 to 24 boards"));
    assert!(error_beside(&page, "late_games").contains("minutes:games"));
    assert_eq!(value_of(&page, "late_games"), "1 minute");
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1, "nothing saved");

    // Another format picked: its options come back with their defaults.
    let page = sec
        .submit(
            &new,
            &new,
            &with(
                season_fields("2027/28", "hands-won"),
                &[("shown", "fives-and-threes")],
            ),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("Now showing the options"));
    assert_eq!(value_of(&page, "name"), "2027/28");
    assert_eq!(value_of(&page, "set_to"), "6");
    assert_eq!(value_of(&page, "late_games"), "1:1, 5:2");
    assert_eq!(value_of(&page, "late_forfeit_minutes"), "6");
    assert!(
        !page.has("id=\"target\""),
        "fives-and-threes options are gone"
    );
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1, "nothing saved");

    // Good.
    let page = sec
        .submit(&new, &new, &season_fields("2027/28", "all-fives"))
        .await;
    let season = db
        .seasons(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.name == "2027/28")
        .expect("the season was created");
    redirected(
        &page,
        &format!("/leagues/home/console/seasons/{}/divisions", season.id),
    );
    assert_eq!(season.format, Format::AllFives);
    assert_eq!(
        serde_json::Value::Object(season.options.clone()),
        serde_json::json!({"target": 121, "blocked_scores": "difference",
                           "penalty_points": 25, "penalty_to": "offender"})
    );
    let mf =
        boneyard::league::match_format::MatchFormat::parse(season.format, &season.match_format)
            .unwrap();
    assert_eq!(mf.describe(), "4 singles + 2 pairs, best of 3");
    assert_eq!((mf.points.win, mf.points.losing_bonus), (3, 1));
    assert_eq!(
        mf.pairings,
        boneyard::league::match_format::Pairings::Secretary
    );

    // Duplicate.
    let page = sec
        .submit(&new, &new, &season_fields("2026/27", "fives-and-threes"))
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));

    // Edit: the stored values are shown, then changed.
    let edit = l.console(&format!("/seasons/{}", season.id));
    let page = sec.get(&edit).await;
    assert_eq!(value_of(&page, "name"), "2027/28");
    assert_eq!(value_of(&page, "target"), "121");
    assert_eq!(value_of(&page, "penalty_to"), "offender");
    assert_eq!(value_of(&page, "pairings"), "secretary");
    let page = sec
        .submit(
            &edit,
            &edit,
            &with(
                season_fields("2027/28 winter", "hands-won"),
                &[("late_forfeit_minutes", "")],
            ),
        )
        .await;
    redirected(&page, "/leagues/home/console/seasons");
    let season = db.season(l.id, season.id).await.unwrap();
    assert_eq!(season.name, "2027/28 winter");
    assert_eq!(season.format, Format::HandsWon);
    let ruleset = season.ruleset().unwrap();
    assert_eq!(ruleset.set_to, 7);
    assert_eq!(ruleset.late_games, vec![(2, 1), (10, 3)]);
    assert_eq!(ruleset.late_forfeit_minutes, None);
    // A duplicate name on edit.
    let page = sec
        .submit(&edit, &edit, &season_fields("2026/27", "hands-won"))
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    assert_eq!(db.season(l.id, season.id).await.unwrap(), season);
}

/// The team sheet's season fields (issue 42): a walkover's board score,
/// drawn pairings, when the other side sees a line-up and when the draw is
/// made; each refused beside its field when it cannot be.
async fn the_season_form_sets_the_team_sheets_rules(db: Db) {
    use boneyard::league::match_format::{MatchFormat, Pairings, Walkover};
    use boneyard::league::team_sheet::{DrawAt, LineUpShown};
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let new = l.console("/seasons/new");
    let page = sec.get(&new).await;
    assert_eq!(value_of(&page, "walkover_score"), "");
    assert_eq!(value_of(&page, "line_up_shown"), "at_start");
    assert_eq!(value_of(&page, "draw_at"), "line_ups");

    // Four singles and two pairs: six boards, so 5-4 cannot be a score.
    let bad = with(
        season_fields("2027/28", "all-fives"),
        &[("walkover_score", "five"), ("draw_at", "tomorrow")],
    );
    let page = sec.submit(&new, &new, &bad).await;
    refused(&page);
    assert!(error_beside(&page, "walkover_score").contains("e.g. 5-4"));
    assert_eq!(error_beside(&page, "draw_at"), "Choose one of the options.");
    let page = sec
        .submit(
            &new,
            &new,
            &with(
                season_fields("2027/28", "all-fives"),
                &[("walkover_score", "5-4")],
            ),
        )
        .await;
    refused(&page);
    assert!(
        error_beside(&page, "walkover_score").starts_with("Not possible"),
        "{}",
        page.body
    );
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1, "nothing saved");

    let good = with(
        season_fields("2027/28", "all-fives"),
        &[
            ("walkover_score", "4-2"),
            ("pairings", "drawn"),
            ("line_up_shown", "at_once"),
            ("draw_at", "start"),
        ],
    );
    let page = sec.submit(&new, &new, &good).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let season = db
        .seasons(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.name == "2027/28")
        .expect("the season was created");
    let mf = MatchFormat::parse(season.format, &season.match_format).unwrap();
    assert_eq!(mf.walkover, Walkover::Score { won: 4, lost: 2 });
    assert_eq!(mf.pairings, Pairings::Drawn);
    let settings = season.settings().unwrap();
    assert_eq!(settings.line_up_shown, LineUpShown::AtOnce);
    assert_eq!(settings.draw_at, DrawAt::Start);
    // The edit form shows them as stored.
    let page = sec
        .get(&l.console(&format!("/seasons/{}", season.id)))
        .await;
    assert_eq!(value_of(&page, "walkover_score"), "4-2");
    assert_eq!(value_of(&page, "pairings"), "drawn");
    assert_eq!(value_of(&page, "line_up_shown"), "at_once");
    assert_eq!(value_of(&page, "draw_at"), "start");
}

async fn season_rules_are_fixed_once_there_are_results(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    boneyard::app::results::write(&db, l.id, l.fixture(), &sample_result(l), None)
        .await
        .unwrap();
    let before = db.season(l.id, l.season).await.unwrap();
    let edit = l.console(&format!("/seasons/{}", l.season));
    let page = sec.get(&edit).await;
    assert!(page.has("This season has results"), "{}", page.body);
    let page = sec
        .submit(&edit, &edit, &season_fields("2026/27", "all-fives"))
        .await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.body);
    assert!(
        page.has("its ruleset and match format are fixed"),
        "{}",
        page.body
    );
    assert_eq!(value_of(&page, "target"), "121", "what was typed is kept");
    assert_eq!(db.season(l.id, l.season).await.unwrap(), before);
    // Its name can still change: the rules shown are the stored ones.
    let page = sec.get(&edit).await;
    let mut fields: Vec<(String, String)> = [
        "format",
        "pose",
        "target",
        "exact_finish",
        "tiles_per_hand",
        "singles",
        "pairs",
        "best_of",
        "points_board",
        "points_win",
        "points_draw",
        "points_loss",
        "losing_bonus",
        "pairings",
        "tie_breaker_1",
        "tie_breaker_2",
        "tie_breaker_3",
        "tie_breaker_4",
        "tie_breaker_5",
        "tie_breaker_6",
        "min_games",
        "approval",
    ]
    .into_iter()
    .map(|f| (f.to_owned(), value_of(&page, f)))
    .collect();
    fields.push(("shown".into(), value_of(&page, "format")));
    fields.push(("name".into(), "2026/27 (old)".into()));
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let page = sec.submit(&edit, &edit, &fields).await;
    redirected(&page, "/leagues/home/console/seasons");
    let after = db.season(l.id, l.season).await.unwrap();
    assert_eq!(after.name, "2026/27 (old)");
    assert_eq!(
        (after.format, after.options),
        (before.format, before.options)
    );
}

/// Every field of the season form, as the page shows it.
fn season_form_values(page: &Page) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = season_fields("", "")
        .into_iter()
        .map(|(f, _)| f)
        .filter(|f| *f != "shown" && tag_of_exists(page, f))
        .map(|f| (f.to_owned(), value_of(page, f)))
        .collect();
    fields.push(("shown".into(), value_of(page, "format")));
    fields
}

fn tag_of_exists(page: &Page, field: &str) -> bool {
    page.body.contains(&format!("name=\"{field}\""))
}

async fn season_settings_change_with_results_and_the_pages_follow(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    boneyard::app::results::write(&db, l.id, l.fixture(), &sample_result(l), None)
        .await
        .unwrap();
    let edit = l.console(&format!("/seasons/{}", l.season));
    let page = sec.get(&edit).await;
    assert!(page.has("This season has results"), "{}", page.body);
    // The defaults are shown: LEAGUE.md's order, 3 games, the secretary.
    assert_eq!(value_of(&page, "tie_breaker_1"), "points");
    assert_eq!(value_of(&page, "tie_breaker_4"), "head_to_head");
    assert_eq!(value_of(&page, "tie_breaker_6"), "");
    assert_eq!(value_of(&page, "min_games"), "3");
    assert_eq!(value_of(&page, "approval"), "secretary");
    let stored = season_form_values(&page);
    let stored: Vec<(&str, &str)> = stored
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let before = db.season(l.id, l.season).await.unwrap();

    // Refused, each beside its field, and nothing written.
    for (changes, field, says) in [
        (
            vec![("tie_breaker_2", "points")],
            "tie_breaker_2",
            "already in the list",
        ),
        (
            vec![("tie_breaker_3", ""), ("tie_breaker_4", "games_difference")],
            "tie_breaker_4",
            "would never be used",
        ),
        (
            vec![("tie_breaker_1", "coin_toss")],
            "tie_breaker_1",
            "Choose one of the rules",
        ),
        (vec![("min_games", "lots")], "min_games", "whole number"),
        (vec![("min_games", "1001")], "min_games", "whole number"),
        (
            vec![("approval", "whoever")],
            "approval",
            "Choose one of the options",
        ),
    ] {
        let page = sec
            .submit(&edit, &edit, &with(stored.clone(), &changes))
            .await;
        refused(&page);
        assert!(
            error_beside(&page, field).contains(says),
            "{changes:?}: {}",
            error_beside(&page, field)
        );
        assert_eq!(db.season(l.id, l.season).await.unwrap(), before);
    }

    // Changed although the season has results: the ruleset stays.
    let changes = [
        ("tie_breaker_2", "pegs_difference"),
        ("tie_breaker_3", "head_to_head"),
        ("tie_breaker_4", ""),
        ("tie_breaker_5", ""),
        ("min_games", "1"),
        ("approval", "confirmation"),
        ("detail", "scores"),
    ];
    let page = sec.submit(&edit, &edit, &with(stored, &changes)).await;
    redirected(&page, "/leagues/home/console/seasons");
    let after = db.season(l.id, l.season).await.unwrap();
    let settings = after.settings().unwrap();
    use boneyard::league::standings::TieBreaker;
    assert_eq!(
        settings.tie_breakers,
        [
            TieBreaker::Points,
            TieBreaker::PegsDifference,
            TieBreaker::HeadToHead
        ]
    );
    assert_eq!(settings.min_games, 1);
    assert!(settings.approve_on_confirmation);
    assert!(
        settings.final_scores,
        "a game may now be entered by its final score"
    );
    assert_eq!(
        (after.format, &after.options, &after.match_format),
        (before.format, &before.options, &before.match_format)
    );
    let audit = db.audit_entries(l.id, "season", l.season.0).await.unwrap();
    let last = audit.last().expect("the change is audited");
    assert_eq!(last.action, "settings");

    // The pages follow.
    let mut visitor = sec.stranger();
    let table = visitor.get("/leagues/home/2026-27/premier").await;
    assert!(
        table.has(
            "Teams are ordered by points; teams level on points are separated by \
             pegs difference, then head-to-head."
        ),
        "{}",
        table.body
    );
    let players = visitor
        .get(&format!("/leagues/home/players-table/{}", l.season))
        .await;
    assert!(
        players.has("ranks players with at least 1 game."),
        "{}",
        players.body
    );
    let players = visitor
        .get(&format!("/leagues/home/players-table/{}?min=4", l.season))
        .await;
    assert!(players.has("this view uses 4"), "{}", players.body);
}

async fn names_without_an_address_of_their_own_are_refused(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let new = l.console("/seasons/new");
    let seasons = db.seasons(l.id).await.unwrap();
    for (name, says) in [
        ("Live", "belongs to another page"),
        ("Players-Table", "belongs to another page"),
        ("2026-27", "2026/27 already has the address …/2026-27"),
        ("//", "letter or digit"),
    ] {
        let page = sec
            .submit(&new, &new, &season_fields(name, "fives-and-threes"))
            .await;
        refused(&page);
        assert!(
            error_beside(&page, "name").contains(says),
            "{name}: {}",
            error_beside(&page, "name")
        );
    }
    assert_eq!(db.seasons(l.id).await.unwrap(), seasons);
    // A season renamed onto another's address is refused too.
    let page = sec
        .submit(&new, &new, &season_fields("2027/28", "fives-and-threes"))
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let later = db.seasons(l.id).await.unwrap()[0].clone();
    let edit = l.console(&format!("/seasons/{}", later.id));
    let page = sec
        .submit(&edit, &edit, &season_fields("2026 27", "fives-and-threes"))
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already has the address"));
    assert_eq!(db.season(l.id, later.id).await.unwrap().name, "2027/28");

    // Divisions of a season: the same.
    let list = l.console(&format!("/seasons/{}/divisions", l.season));
    for (name, says) in [
        ("PREMIER!", "Premier already has the address …/premier"),
        ("--", "letter or digit"),
    ] {
        let page = sec
            .submit(&list, &list, &[("name", name), ("position", "1")])
            .await;
        refused(&page);
        assert!(error_beside(&page, "name").contains(says), "{name}");
    }
    assert_eq!(db.divisions(l.id, l.season).await.unwrap().len(), 1);
    // A division may be called Live: its address is under its season's.
    let page = sec
        .submit(&list, &list, &[("name", "Live"), ("position", "1")])
        .await;
    redirected(&page, &list);
}

async fn divisions_are_created_and_edited(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let list = l.console(&format!("/seasons/{}/divisions", l.season));
    let page = sec.get(&list).await;
    assert_eq!(value_of(&page, "position"), "1", "after the one there is");
    let page = sec
        .submit(
            &list,
            &list,
            &[("name", "Division One"), ("position", "first")],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "position").contains("whole number"));
    assert_eq!(value_of(&page, "name"), "Division One");
    assert_eq!(value_of(&page, "position"), "first");
    let page = sec
        .submit(&list, &list, &[("name", "Division One"), ("position", "1")])
        .await;
    redirected(&page, &list);
    let divisions = db.divisions(l.id, l.season).await.unwrap();
    assert_eq!(divisions.len(), 2);
    assert_eq!(
        (divisions[1].name.as_str(), divisions[1].position),
        ("Division One", 1)
    );
    let page = sec
        .submit(&list, &list, &[("name", "Premier"), ("position", "2")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    // Edit.
    let edit = format!("{list}/{}", divisions[1].id);
    let page = sec
        .submit(&edit, &edit, &[("name", "Premier"), ("position", "1")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    let page = sec
        .submit(&edit, &edit, &[("name", "Championship"), ("position", "0")])
        .await;
    redirected(&page, &list);
    let d = db.division(l.id, divisions[1].id).await.unwrap();
    assert_eq!((d.name.as_str(), d.position), ("Championship", 0));
}

async fn venues_are_created_and_edited(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let list = l.console("/venues");
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("name", "The Swan"),
                ("address", "2 Mill Lane"),
                ("tables", "0"),
            ],
        )
        .await;
    refused(&page);
    assert_eq!(
        error_beside(&page, "tables"),
        "Give a whole number from 1 to 50."
    );
    assert_eq!(value_of(&page, "name"), "The Swan");
    assert_eq!(value_of(&page, "address"), "2 Mill Lane");
    assert_eq!(value_of(&page, "tables"), "0");
    assert_eq!(focused(&page), "tables");
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("name", "The Swan"),
                ("address", "2 Mill Lane"),
                ("tables", "3"),
            ],
        )
        .await;
    redirected(&page, &list);
    let swan = db
        .venues(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "The Swan")
        .unwrap();
    assert_eq!((swan.address.as_str(), swan.tables), ("2 Mill Lane", 3));
    let page = sec
        .submit(&list, &list, &[("name", "The home Arms"), ("tables", "1")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    // Edit.
    let edit = l.console(&format!("/venues/{}", swan.id));
    assert_eq!(value_of(&sec.get(&edit).await, "tables"), "3");
    let page = sec
        .submit(&edit, &edit, &[("name", "The home Arms"), ("tables", "3")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    let page = sec
        .submit(
            &edit,
            &edit,
            &[("name", "The Black Swan"), ("address", ""), ("tables", "2")],
        )
        .await;
    redirected(&page, &list);
    let swan = db.venue(l.id, swan.id).await.unwrap();
    assert_eq!(
        (swan.name.as_str(), swan.address.as_str(), swan.tables),
        ("The Black Swan", "", 2)
    );
}

async fn teams_are_created_edited_and_entered(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let other = LeagueBuilder::home_and_away("away").build(&db).await;
    let list = l.console("/teams");
    let venue = l.venue_id().to_string();
    let foreign_venue = other.venue_id().to_string();
    let page = sec
        .submit(
            &list,
            &list,
            &[("name", "Dragons"), ("venue", &foreign_venue)],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "venue").contains("the league's venues"));
    assert_eq!(value_of(&page, "name"), "Dragons");
    let page = sec
        .submit(&list, &list, &[("name", "Dragons"), ("venue", &venue)])
        .await;
    let dragons = db
        .teams(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Dragons")
        .unwrap();
    redirected(&page, &l.console(&format!("/teams/{}", dragons.id)));
    assert_eq!(dragons.venue_id, Some(l.venue_id()));
    let page = sec
        .submit(&list, &list, &[("name", "home Home"), ("venue", "")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    // Edit.
    let edit = l.console(&format!("/teams/{}", dragons.id));
    let page = sec.get(&edit).await;
    assert_eq!(value_of(&page, "venue"), venue);
    let page = sec
        .submit(&edit, &edit, &[("name", ""), ("venue", &venue)])
        .await;
    refused(&page);
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    assert_eq!(value_of(&page, "venue"), venue);
    let page = sec
        .submit(&edit, &edit, &[("name", "Red Dragons"), ("venue", "")])
        .await;
    redirected(&page, &list);
    let dragons = db.team(l.id, dragons.id).await.unwrap();
    assert_eq!(
        (dragons.name.as_str(), dragons.venue_id),
        ("Red Dragons", None)
    );
    // Entered in a division; a second division that season is refused.
    let enter = format!("{edit}/entries");
    let page = sec
        .submit(&edit, &enter, &[("division", &other.division.to_string())])
        .await;
    refused(&page);
    assert!(error_beside(&page, "division").contains("the league's divisions"));
    let division = l.division.to_string();
    let page = sec.submit(&edit, &enter, &[("division", &division)]).await;
    redirected(
        &page,
        &l.console(&format!("/teams/{}/seasons/{}", dragons.id, l.season)),
    );
    let entries = db.team_entries(l.id, l.season).await.unwrap();
    assert!(
        entries
            .iter()
            .any(|e| e.team_id == dragons.id && e.division_id == l.division)
    );
    let second = db
        .create_division(l.id, l.season, "Division One", 1)
        .await
        .unwrap();
    let page = sec
        .submit(&edit, &enter, &[("division", &second.id.to_string())])
        .await;
    refused(&page);
    assert!(error_beside(&page, "division").contains("already exists"));
    assert_eq!(value_of(&page, "division"), second.id.to_string());
    let page = sec.get(&edit).await;
    assert!(page.has("2026/27: Premier"), "{}", page.body);
}

async fn players_are_created_renamed_and_registered(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let list = l.console("/players");
    let page = sec.submit(&list, &list, &[("name", "")]).await;
    refused(&page);
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    let long = "x".repeat(81);
    let page = sec.submit(&list, &list, &[("name", &long)]).await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("at most 80"));
    assert_eq!(value_of(&page, "name"), long);
    let page = sec.submit(&list, &list, &[("name", "Ann Jones")]).await;
    redirected(&page, &list);
    let ann = db
        .players(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == "Ann Jones")
        .unwrap();
    let page = sec
        .submit(&list, &list, &[("name", "home player 00")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    assert_eq!(value_of(&page, "name"), "home player 00");
    // Rename.
    let edit = l.console(&format!("/players/{}", ann.id));
    let page = sec
        .submit(&edit, &edit, &[("name", "home player 10")])
        .await;
    refused(&page);
    assert!(error_beside(&page, "name").contains("already exists"));
    let page = sec.submit(&edit, &edit, &[("name", "Ann Smith")]).await;
    redirected(&page, &list);
    assert_eq!(db.player(l.id, ann.id).await.unwrap().name, "Ann Smith");
    // Registered to a team for the season...
    let roster = l.console(&format!("/teams/{}/seasons/{}", l.home(), l.season));
    let register = format!("{roster}/players");
    let page = sec.submit(&roster, &register, &[("player", "")]).await;
    refused(&page);
    assert!(error_beside(&page, "player").contains("Choose"));
    let page = sec
        .submit(&roster, &register, &[("player", &ann.id.to_string())])
        .await;
    redirected(&page, &roster);
    let home = db.team_players(l.id, l.season, l.home()).await.unwrap();
    assert!(home.iter().any(|p| p.id == ann.id));
    assert!(sec.get(&edit).await.has("2026/27: <a"));
    // ...and not to a second team that season: beside the field, with the team.
    let away = l.console(&format!("/teams/{}/seasons/{}", l.away(), l.season));
    let page = sec
        .submit(
            &away,
            &format!("{away}/players"),
            &[("player", &ann.id.to_string())],
        )
        .await;
    refused(&page);
    let why = error_beside(&page, "player");
    assert!(
        why.contains("already exists") && why.contains("home Home"),
        "{why}"
    );
    assert_eq!(value_of(&page, "player"), ann.id.to_string());
    let away_players = db.team_players(l.id, l.season, l.away()).await.unwrap();
    assert!(!away_players.iter().any(|p| p.id == ann.id));
}

async fn captains_are_named_and_removed(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let (_, cap) = app.with_account("cap").await;
    let roster = l.console(&format!("/teams/{}/seasons/{}", l.home(), l.season));
    let name = format!("{roster}/captains");
    let p = |i: usize| l.home_players()[i].to_string();
    // Not registered to the team, a username no account could have:
    // refused beside each.
    let page = sec
        .submit(
            &roster,
            &name,
            &[
                ("captain", &l.away_players()[0].to_string()),
                ("username", "no body"),
            ],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "captain").contains("registered players"));
    assert!(error_beside(&page, "username").contains("Use letters"));
    assert_eq!(value_of(&page, "username"), "no body");
    // Good, with the captain's account.
    let page = sec
        .submit(&roster, &name, &[("captain", &p(0)), ("username", "cap")])
        .await;
    redirected(&page, &roster);
    let captains = db.captains(l.id, l.season, l.home()).await.unwrap();
    assert_eq!(
        captains.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![l.home_players()[0]]
    );
    let roles = db.user_roles(cap).await.unwrap();
    assert_eq!(roles.len(), 1);
    assert_eq!(
        (roles[0].kind, roles[0].season_id, roles[0].team_id),
        (RoleKind::Captain, Some(l.season), Some(l.home()))
    );
    // A second, with no account yet: in the same step, an invitation whose
    // one-time link makes the account with the captain's own password.
    let page = sec
        .submit(
            &roster,
            &name,
            &[("captain", &p(1)), ("username", "newcap")],
        )
        .await;
    redirected(&page, &roster);
    let page = sec.get(&roster).await;
    assert!(page.has("is now a captain of"), "{}", page.body);
    // It stays listed, by the player's name, until it is taken up.
    let invitations = &page.body[page.body.find("id=\"invitations-list\"").expect("listed")..];
    assert!(invitations.contains(&l.home_names()[1]), "{invitations}");
    let link = super::admin::invitation_path(&page.body);
    let mut newcap = sec.stranger();
    let invite = newcap.get(&link).await;
    assert!(invite.has("captain of"), "{}", invite.body);
    let page = newcap
        .submit(
            &link,
            &link,
            &[
                ("username", "newcap"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let newcap_id = db.user_by_username("newcap").await.unwrap().id;
    let roles = db.user_roles(newcap_id).await.unwrap();
    assert_eq!(
        (roles[0].kind, roles[0].season_id, roles[0].team_id),
        (RoleKind::Captain, Some(l.season), Some(l.home()))
    );
    assert!(newcap.get("/").await.has("Welcome, newcap"));
    // A third is one too many.
    let page = sec.submit(&roster, &name, &[("captain", &p(2))]).await;
    refused(&page);
    assert!(error_beside(&page, "captain").contains("already has 2 captains"));
    // Removed.
    let remove = format!("{roster}/captains/{}/remove", l.home_players()[0]);
    let page = sec.submit(&roster, &remove, &[]).await;
    redirected(&page, &roster);
    let captains = db.captains(l.id, l.season, l.home()).await.unwrap();
    assert_eq!(
        captains.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![l.home_players()[1]]
    );
    // The page lists the captain.
    let page = sec.get(&roster).await;
    assert!(page.has("No longer captain: home player 01"));
}

async fn penalty_kinds_are_created_edited_and_defaulted(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let list = l.console("/penalty-kinds");
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("code", "Late Card"),
                ("name", "Result card late"),
                ("effect", "points"),
                ("amount", "x"),
            ],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "code").contains("lowercase"));
    assert_eq!(error_beside(&page, "effect"), "Choose one of the effects.");
    assert!(error_beside(&page, "amount").contains("whole number"));
    assert_eq!(value_of(&page, "code"), "Late Card");
    assert_eq!(value_of(&page, "name"), "Result card late");
    // A kind's amount is held to its effect's limit, as a penalty of the
    // kind is (a kind of 5000 league points could not be given as typed).
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("code", "late-card"),
                ("name", "Result card late"),
                ("effect", "league_points"),
                ("amount", "5000"),
            ],
        )
        .await;
    refused(&page);
    assert!(
        error_beside(&page, "amount").contains("from 0 to 1000"),
        "{}",
        page.body
    );
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("code", "late-card"),
                ("name", "Result card late"),
                ("effect", "league_points"),
                ("amount", "2"),
            ],
        )
        .await;
    redirected(&page, &list);
    let kinds = db.penalty_kinds(l.id).await.unwrap();
    assert_eq!(kinds.len(), 1);
    assert_eq!(
        (kinds[0].code.as_str(), kinds[0].effect, kinds[0].amount),
        ("late-card", PenaltyEffect::LeaguePoints, 2)
    );
    let page = sec
        .submit(
            &list,
            &list,
            &[
                ("code", "late-card"),
                ("name", "Again"),
                ("effect", "fine"),
                ("amount", "500"),
            ],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "code").contains("already exists"));
    // The usual kinds, once each.
    let defaults = format!("{list}/defaults");
    redirected(&sec.submit(&list, &defaults, &[]).await, &list);
    redirected(&sec.submit(&list, &defaults, &[]).await, &list);
    let kinds = db.penalty_kinds(l.id).await.unwrap();
    assert_eq!(kinds.len(), 10, "nine more, late-card kept as it was");
    let talking = kinds.iter().find(|k| k.code == "talking").unwrap();
    assert_eq!(
        (talking.effect, talking.amount),
        (PenaltyEffect::GamePoints, 50)
    );
    assert_eq!(
        kinds.iter().find(|k| k.code == "late-card").unwrap().amount,
        2
    );
    assert!(!sec.get(&list).await.has("Add the usual kinds"));
    // Edit, audited.
    let edit = l.console(&format!("/penalty-kinds/{}", talking.id));
    assert_eq!(value_of(&sec.get(&edit).await, "effect"), "game_points");
    let page = sec
        .submit(
            &edit,
            &edit,
            &[
                ("code", "late-card"),
                ("name", "Talking"),
                ("effect", "game_points"),
                ("amount", "50"),
            ],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "code").contains("already exists"));
    let page = sec
        .submit(
            &edit,
            &edit,
            &[
                ("code", "talking"),
                ("name", "Talking to partner"),
                ("effect", "game_points"),
                ("amount", "25"),
            ],
        )
        .await;
    redirected(&page, &list);
    let kind = db.penalty_kind(l.id, talking.id).await.unwrap();
    assert_eq!(kind.amount, 25);
    let log = db.audit_log(l.id, 10).await.unwrap();
    assert!(
        log.iter()
            .any(|e| e.entity == "penalty_kind" && e.entity_id == talking.id.0)
    );
}

async fn users_are_given_roles_and_accounts(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    // The installation has its administrator too.
    app.with_admin().await;
    let (_, ann) = app.with_account("ann").await;
    let list = l.console("/users");
    let team = format!("{}-{}", l.season, l.home());
    let player = l.home_players()[0].to_string();
    // A username no account could have; a player not chosen.
    let page = sec
        .submit(
            &list,
            &list,
            &[("username", "b o b"), ("role", "captain"), ("team", &team)],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "username").contains("Use letters"));
    assert_eq!(value_of(&page, "team"), team);
    let page = sec
        .submit(
            &list,
            &list,
            &[("username", "ann"), ("role", "player"), ("player", "")],
        )
        .await;
    refused(&page);
    assert!(error_beside(&page, "player").contains("Choose"));
    assert_eq!(value_of(&page, "role"), "player");
    // A username nobody has: an invitation, whose link makes the account
    // with the captain's own password; the secretary never chooses it.
    let page = sec
        .submit(
            &list,
            &list,
            &[("username", "bob"), ("role", "captain"), ("team", &team)],
        )
        .await;
    redirected(&page, &list);
    assert_eq!(db.user_count().await.unwrap(), 3, "admin, sec, ann");
    let page = sec.get(&list).await;
    let link = super::admin::invitation_path(&page.body);
    let mut b = sec.stranger();
    let page = b
        .submit(
            &link,
            &link,
            &[
                ("username", "bob"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let bob = db.user_by_username("bob").await.unwrap();
    let roles = db.user_roles(bob.id).await.unwrap();
    assert_eq!(
        (roles[0].kind, roles[0].season_id, roles[0].team_id),
        (RoleKind::Captain, Some(l.season), Some(l.home()))
    );
    // Bob can sign in with it.
    let mut b = sec.stranger();
    let page = b
        .submit(
            "/sign-in",
            "/sign-in",
            &[("username", "bob"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    // An existing account as a player; twice is a duplicate.
    let fields = [
        ("username", "ann"),
        ("role", "player"),
        ("player", player.as_str()),
    ];
    redirected(&sec.submit(&list, &list, &fields).await, &list);
    let page = sec.submit(&list, &list, &fields).await;
    refused(&page);
    assert!(error_beside(&page, "username").contains("already exists"));
    let roles = db.user_roles(ann).await.unwrap();
    assert_eq!(roles.len(), 1);
    assert_eq!(
        (roles[0].kind, roles[0].player_id),
        (RoleKind::Player, Some(l.home_players()[0]))
    );
    let page = sec.get(&list).await;
    assert!(
        page.has("home player 00") && page.has("2026/27 · home Home"),
        "{}",
        page.body
    );
    // Taken away again, audited; a secretary's role is not the console's.
    let revoke = format!("{list}/roles/{}/revoke", roles[0].id);
    redirected(&sec.submit(&list, &revoke, &[]).await, &list);
    assert!(db.user_roles(ann).await.unwrap().is_empty());
    assert!(
        db.audit_log(l.id, 20)
            .await
            .unwrap()
            .iter()
            .any(|e| e.entity == "role" && e.action == "revoke")
    );
    let sec_role = db
        .league_roles(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.kind == RoleKind::Secretary)
        .unwrap();
    let page = sec
        .submit(&list, &format!("{list}/roles/{}/revoke", sec_role.id), &[])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert_eq!(
        db.league_roles(l.id)
            .await
            .unwrap()
            .iter()
            .filter(|r| r.kind == RoleKind::Secretary)
            .count(),
        1
    );
}

/// Everything a console or administrator's page could change, to compare.
async fn snapshot(db: &Db) -> String {
    let mut out = format!(
        "{:?}\n{}\n",
        db.leagues().await.unwrap(),
        db.user_count().await.unwrap()
    );
    for league in db.leagues().await.unwrap() {
        let id = league.id;
        out += &format!("{:?}\n", db.venues(id).await.unwrap());
        out += &format!("{:?}\n", db.teams(id).await.unwrap());
        out += &format!("{:?}\n", db.players(id).await.unwrap());
        out += &format!("{:?}\n", db.penalty_kinds(id).await.unwrap());
        out += &format!("{:?}\n", db.league_roles(id).await.unwrap());
        for season in db.seasons(id).await.unwrap() {
            out += &format!("{season:?}\n");
            out += &format!("{:?}\n", db.divisions(id, season.id).await.unwrap());
            out += &format!("{:?}\n", db.registrations(id, season.id).await.unwrap());
            for entry in db.team_entries(id, season.id).await.unwrap() {
                out += &format!("{entry:?}\n");
                out += &format!(
                    "{:?}\n",
                    db.captains(id, season.id, entry.team_id).await.unwrap()
                );
            }
        }
    }
    out
}

/// Every console and administrator's route, GET and POST: anonymous is
/// sent to sign in; a plain user, a captain, a secretary of another league
/// and (in the console of a league they are not secretary of) the
/// administrator are refused with 403 and nothing changes; the secretary
/// and (on the administrator's pages) the administrator are let through.
async fn every_route_checks_the_role(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let l = &app.league;
    let mut admin = app.with_admin().await;
    let other = LeagueBuilder::home_and_away("away").build(&db).await;
    let mut sec = app.with_secretary().await;
    let home_sec = db
        .league_roles(l.id)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.kind == RoleKind::Secretary)
        .unwrap();
    let other_sec = app.with_secretary_of(&other, "othersec").await;
    let (plain, plain_id) = app.with_account("plain").await;
    let (captain, cap_id) = app.with_account("cap").await;
    let cap_role = db
        .grant_role(&NewRole::captain(cap_id, l.id, l.season, l.home()), None)
        .await
        .unwrap();
    boneyard::app::teams::add_captain(&db, l.id, l.season, l.home(), l.home_players()[0])
        .await
        .unwrap();
    let kind = l.late_card(&db).await;
    let spare = db.create_team(l.id, "Spare", None).await.unwrap().id;
    let free = db.create_player(l.id, "Free agent").await.unwrap().id;
    let _ = plain_id;

    let (s, d, t) = (l.season, l.division, l.home());
    let (v, p) = (l.venue_id(), l.home_players()[0]);
    let c = |path: &str| l.console(path);
    let gets = vec![
        "/admin".to_owned(),
        "/admin/leagues/home/secretaries".into(),
        c(""),
        c("/approvals"),
        c("/league"),
        c("/seasons"),
        c("/seasons/new"),
        c(&format!("/seasons/{s}")),
        c(&format!("/seasons/{s}/divisions")),
        c(&format!("/seasons/{s}/divisions/{d}")),
        c("/venues"),
        c(&format!("/venues/{v}")),
        c("/teams"),
        c(&format!("/teams/{t}")),
        c(&format!("/teams/{t}/seasons/{s}")),
        c("/players"),
        c(&format!("/players/{p}")),
        c("/penalty-kinds"),
        c(&format!("/penalty-kinds/{}", kind.id)),
        c("/users"),
    ];
    let season = season_fields("2030/31", "fives-and-threes");
    let renamed_season = season_fields("Renamed", "fives-and-threes");
    let (d_s, free_s, p1_s, p_s) = (
        d.to_string(),
        free.to_string(),
        l.home_players()[1].to_string(),
        p.to_string(),
    );
    let posts: Vec<(String, Vec<(&str, &str)>)> = vec![
        (
            "/admin".into(),
            vec![("name", "Hacked"), ("short_name", "hacked")],
        ),
        (
            "/admin/leagues/home/secretaries".into(),
            vec![("username", "plain")],
        ),
        (
            format!("/admin/leagues/home/secretaries/{}/remove", home_sec.id),
            vec![],
        ),
        (c("/league"), vec![("name", "Hacked")]),
        (c("/seasons/new"), season),
        (c(&format!("/seasons/{s}")), renamed_season),
        (
            c(&format!("/seasons/{s}/divisions")),
            vec![("name", "Hacked"), ("position", "5")],
        ),
        (
            c(&format!("/seasons/{s}/divisions/{d}")),
            vec![("name", "Hacked division"), ("position", "5")],
        ),
        (c("/venues"), vec![("name", "Hacked"), ("tables", "1")]),
        (
            c(&format!("/venues/{v}")),
            vec![("name", "Hacked arms"), ("tables", "1")],
        ),
        (c("/teams"), vec![("name", "Hacked")]),
        (c(&format!("/teams/{t}")), vec![("name", "Hacked team")]),
        (
            c(&format!("/teams/{spare}/entries")),
            vec![("division", &d_s)],
        ),
        (
            c(&format!("/teams/{t}/seasons/{s}/players")),
            vec![("player", &free_s)],
        ),
        (
            c(&format!("/teams/{t}/seasons/{s}/captains")),
            vec![("captain", &p1_s)],
        ),
        (
            c(&format!("/teams/{t}/seasons/{s}/captains/{p}/remove")),
            vec![],
        ),
        (c("/players"), vec![("name", "Hacked")]),
        (c(&format!("/players/{p}")), vec![("name", "Hacked player")]),
        (
            c("/penalty-kinds"),
            vec![
                ("code", "hacked"),
                ("name", "Hacked"),
                ("effect", "fine"),
                ("amount", "1"),
            ],
        ),
        (
            c(&format!("/penalty-kinds/{}", kind.id)),
            vec![
                ("code", "hacked-2"),
                ("name", "Hacked"),
                ("effect", "fine"),
                ("amount", "1"),
            ],
        ),
        (c("/penalty-kinds/defaults"), vec![]),
        (
            c("/users"),
            vec![("username", "plain"), ("role", "player"), ("player", &p_s)],
        ),
        (c(&format!("/users/roles/{}/revoke", cap_role.id)), vec![]),
    ];
    let is_admin_route = |path: &str| path.starts_with("/admin");

    // Anonymous: sent to sign in, coming back here after.
    let mut anonymous = admin.stranger();
    let before = snapshot(&db).await;
    for path in &gets {
        let page = anonymous.get(path).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "GET {path}");
        let to = page.location.unwrap();
        assert!(to.starts_with("/sign-in?next="), "GET {path}: {to}");
    }
    for (path, fields) in &posts {
        let page = anonymous.post(path, fields).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "POST {path}");
        assert!(
            page.location.unwrap().starts_with("/sign-in?next="),
            "POST {path}"
        );
    }
    assert_eq!(snapshot(&db).await, before, "anonymous changed something");

    // Signed in without the role: 403, with a good form token, and nothing changes.
    for (who, mut client) in [
        ("plain", plain),
        ("captain", captain),
        ("secretary of another league", other_sec),
    ] {
        let token = client.get("/").await.csrf();
        for path in &gets {
            let page = client.get(path).await;
            assert_eq!(page.status, StatusCode::FORBIDDEN, "{who}: GET {path}");
        }
        for (path, fields) in &posts {
            let mut all = vec![("csrf", token.as_str())];
            all.extend_from_slice(fields);
            let page = client.post(path, &all).await;
            assert_eq!(
                page.status,
                StatusCode::FORBIDDEN,
                "{who}: POST {path}: {}",
                page.body
            );
        }
        assert_eq!(snapshot(&db).await, before, "{who} changed something");
    }

    // The administrator: their own pages, not the console of a league
    // they are not secretary of.
    let token = admin.get("/").await.csrf();
    for path in &gets {
        let page = admin.get(path).await;
        let expected = if is_admin_route(path) {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(page.status, expected, "administrator: GET {path}");
    }
    for (path, fields) in posts.iter().filter(|(p, _)| !is_admin_route(p)) {
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        let page = admin.post(path, &all).await;
        assert_eq!(
            page.status,
            StatusCode::FORBIDDEN,
            "administrator: POST {path}"
        );
    }
    assert_eq!(
        snapshot(&db).await,
        before,
        "the administrator changed the console's records"
    );

    // The secretary: every console page, and every form goes through.
    let token = sec.get("/").await.csrf();
    for path in &gets {
        let page = sec.get(path).await;
        let expected = if is_admin_route(path) {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::OK
        };
        assert_eq!(page.status, expected, "secretary: GET {path}");
    }
    for (path, fields) in &posts {
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        let page = sec.post(path, &all).await;
        let expected = if is_admin_route(path) {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::SEE_OTHER
        };
        assert_eq!(
            page.status, expected,
            "secretary: POST {path}: {}",
            page.body
        );
    }
    // And the administrator's forms go through for the administrator.
    let token = admin.get("/").await.csrf();
    for (path, fields) in posts.iter().filter(|(p, _)| is_admin_route(p)) {
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        let page = admin.post(path, &all).await;
        assert_eq!(
            page.status,
            StatusCode::SEE_OTHER,
            "administrator: POST {path}: {}",
            page.body
        );
    }
    assert!(db.league_by_short_name("hacked").await.is_ok());
}

/// Whatever is typed into any console or administrator's form, and
/// whatever an address holds, the answer is never a 500: stray bytes,
/// numbers too large for any column, markup, fields left out.
async fn nothing_typed_yields_a_500(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let l = &app.league;
    let mut admin = app.with_admin().await;
    let mut sec = app.with_secretary().await;
    db.grant_role(
        &NewRole::secretary(db.user_by_username("admin").await.unwrap().id, l.id),
        None,
    )
    .await
    .unwrap();
    let kind = db
        .add_penalty_kind(
            l.id,
            &NewPenaltyKind {
                code: "fine".into(),
                name: "Fine".into(),
                effect: PenaltyEffect::Fine,
                amount: 500,
            },
        )
        .await
        .unwrap();
    let (s, d, t) = (l.season, l.division, l.home());
    let (v, p) = (l.venue_id(), l.home_players()[0]);
    let c = |path: &str| l.console(path);
    let posts = [
        "/admin".to_owned(),
        "/admin/leagues/home/secretaries".into(),
        "/admin/leagues/home/secretaries/99999999999999999999/remove".into(),
        "/admin/leagues/%00/secretaries".into(),
        c("/league"),
        c("/seasons/new"),
        c(&format!("/seasons/{s}")),
        c(&format!("/seasons/{s}/divisions")),
        c(&format!("/seasons/{s}/divisions/{d}")),
        c("/venues"),
        c(&format!("/venues/{v}")),
        c("/teams"),
        c(&format!("/teams/{t}")),
        c(&format!("/teams/{t}/entries")),
        c(&format!("/teams/{t}/seasons/{s}/players")),
        c(&format!("/teams/{t}/seasons/{s}/captains")),
        c(&format!("/teams/{t}/seasons/{s}/captains/{p}/remove")),
        c(&format!("/teams/{t}/seasons/{s}/roster")),
        c(&format!("/seasons/{s}/import")),
        format!("/leagues/home/schedule/{d}/discard"),
        format!("/invitations/{}", "ab".repeat(32)),
        "/invitations/%00".into(),
        c("/players"),
        c(&format!("/players/{p}")),
        c("/penalty-kinds"),
        c(&format!("/penalty-kinds/{}", kind.id)),
        c("/users"),
        c("/users/roles/-1/revoke"),
        c("/venues/abc"),
        c("/seasons/99999999999999999999"),
    ];
    let fields = [
        "name",
        "short_name",
        "rules_summary",
        "contact",
        "username",
        "password",
        "format",
        "shown",
        "pose",
        "target",
        "exact_finish",
        "tiles_per_hand",
        "blocked_scores",
        "penalty_points",
        "penalty_to",
        "set_to",
        "derby",
        "late_games",
        "late_forfeit_minutes",
        "singles",
        "pairs",
        "best_of",
        "points_board",
        "points_win",
        "points_draw",
        "points_loss",
        "losing_bonus",
        "pairings",
        "position",
        "address",
        "tables",
        "venue",
        "division",
        "player",
        "captain",
        "code",
        "effect",
        "amount",
        "role",
        "team",
        "names",
        "csv",
        "file",
        "action",
        "confirm",
    ];
    let junk = [
        "a\0b\u{1}",
        "99999999999999999999",
        "-1",
        "<script>alert(1)</script>",
        "",
        "1-2-3",
    ];
    for value in junk {
        for (client, who) in [(&mut sec, "secretary"), (&mut admin, "administrator")] {
            let token = client.get("/").await.csrf();
            let mut all = vec![("csrf", token.as_str())];
            all.extend(fields.iter().map(|f| (*f, value)));
            for path in &posts {
                let page = client.post(path, &all).await;
                assert!(
                    page.status.as_u16() < 500,
                    "{who}: POST {path} with {value:?}: {}",
                    page.body
                );
                assert!(!page.has("<script>alert"), "{path}: markup shown unescaped");
            }
            // Nothing at all but the token.
            for path in &posts {
                let page = client.post(path, &[("csrf", token.as_str())]).await;
                assert!(
                    page.status.as_u16() < 500,
                    "{who}: POST {path} empty: {}",
                    page.body
                );
            }
        }
    }
    for path in [
        c("/venues/abc"),
        c("/seasons/1/divisions/x"),
        c("/teams/1/seasons/99999999999999999999"),
        "/admin/leagues/%00/secretaries".into(),
        "/admin/leagues/Nowhere/secretaries".into(),
    ] {
        let page = admin.get(&path).await;
        assert!(page.status.as_u16() < 500, "GET {path}: {}", page.body);
    }
}

/// The kinds a demo league starts with are the console's defaults, word for
/// word: one list, not two that drift apart.
async fn the_penalty_kinds_are_one_list(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let list = l.console("/penalty-kinds");
    redirected(
        &sec.submit(&list, &format!("{list}/defaults"), &[]).await,
        &list,
    );
    let key = |k: &PenaltyKind| (k.code.clone(), k.name.clone(), k.effect, k.amount);
    let defaults: Vec<_> = db
        .penalty_kinds(l.id)
        .await
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let options = boneyard::demo::DemoOptions {
        leagues: 3,
        teams: 4,
        seasons: 1,
        divisions: Some(1),
        seed: 3,
    };
    boneyard::demo::fill(&db, &options).await.unwrap();
    let mut formats = std::collections::HashSet::new();
    for league in db.leagues().await.unwrap() {
        if league.id == l.id {
            continue;
        }
        let kinds = db.penalty_kinds(league.id).await.unwrap();
        assert!(kinds.len() >= 5, "{}", league.short_name);
        for k in &kinds {
            assert!(
                defaults.contains(&key(k)),
                "{}: {:?} is not among the console's defaults",
                league.short_name,
                key(k)
            );
        }
        formats.insert(db.seasons(league.id).await.unwrap()[0].format);
    }
    assert_eq!(formats.len(), 3, "the demo's leagues play every format");
}

/// Walks the app's route table (not a list kept here): every console and
/// administrator address, with each parameter filled in, is refused to
/// someone not signed in (sent to sign in), to a signed-in player and to
/// another league's secretary, whether read or posted to with a good form
/// token; the league's own secretary can read each one that reads.
async fn every_console_and_admin_route_of_the_table_checks_the_role(db: Db) {
    let app = TestApp::new(&db, home_league()).await;
    let l = &app.league;
    let mut admin = app.with_admin().await;
    let other = LeagueBuilder::home_and_away("away").build(&db).await;
    let mut sec = app.with_secretary().await;
    let mut other_sec = app.with_secretary_of(&other, "othersec").await;
    let (mut plain, _) = app.with_account("plain").await;
    let mut anonymous = app.anonymous().await;
    let role = db.league_roles(l.id).await.unwrap()[0].id;
    let kind = l.late_card(&db).await;
    let fill = |path: &str| {
        path.replace("{league}", "home")
            .replace("{season}", &l.season.to_string())
            .replace("{division}", &l.division.to_string())
            .replace("{venue}", &l.venue_id().to_string())
            .replace("{team}", &l.home().to_string())
            .replace("{player}", &l.home_players()[0].to_string())
            .replace("{kind}", &kind.id.to_string())
            .replace("{role}", &role.to_string())
            .replace("{cup}", "1")
            .replace("{entrant}", "1")
            .replace("{request}", "1")
            .replace("{invitation}", "1")
            .replace("{fixture}", &l.fixture().to_string())
    };
    let restricted: Vec<String> = boneyard::web::routes::paths()
        .iter()
        .filter(|p| p.starts_with("/leagues/{league}/console") || p.starts_with("/admin"))
        .map(|p| fill(p))
        .collect();
    assert!(restricted.len() > 30, "{restricted:?}");
    for path in &restricted {
        assert!(!path.contains('{'), "a parameter left to fill: {path}");
        // Not signed in: sent to sign in, for a read and for a post.
        let csrf = anonymous.get("/sign-in").await.csrf();
        for page in [
            anonymous.get(path).await,
            anonymous.post(path, &[("csrf", &csrf)]).await,
        ] {
            let refused = page.status == StatusCode::METHOD_NOT_ALLOWED
                || page
                    .location
                    .as_deref()
                    .is_some_and(|l| l.starts_with("/sign-in"));
            assert!(refused, "{path} not refused to a visitor: {}", page.status);
        }
        // Signed in, but not this league's secretary (nor the
        // administrator): refused.
        for c in [&mut plain, &mut other_sec] {
            let csrf = c.get("/").await.csrf();
            for page in [c.get(path).await, c.post(path, &[("csrf", &csrf)]).await] {
                assert!(
                    matches!(
                        page.status,
                        StatusCode::FORBIDDEN | StatusCode::METHOD_NOT_ALLOWED
                    ),
                    "{path} not refused: {} {}",
                    page.status,
                    page.body
                );
            }
        }
        // The secretary reads every console page that reads (the
        // administrator's pages are not theirs).
        if path.starts_with("/leagues/") {
            let page = sec.get(path).await;
            assert!(
                !matches!(page.status, StatusCode::FORBIDDEN) && !page.status.is_server_error(),
                "{path} to its secretary: {}",
                page.status
            );
        }
    }
    let page = admin.get("/admin").await;
    assert_eq!(page.status, StatusCode::OK);
}
