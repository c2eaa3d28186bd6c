//! The secretary's set-up of a league (issue 39): a spreadsheet's rows
//! pasted, each column understood and said so before anything is saved.

use axum::http::StatusCode;
use boneyard::addresses::at_short;
use boneyard::db::*;

use crate::harness::pages::rows;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(a_pasted_row_with_a_phone_number_makes_a_player_of_the_name,);

/// The names of the home team's players this season.
async fn team_names(db: &Db, l: &crate::harness::Built) -> Vec<String> {
    db.team_players(l.id, l.season, l.home())
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect()
}

/// A tab (a spreadsheet's cells copied) or a comma between the name and
/// a phone number: the name alone makes the player, and the preview says
/// which column became what, on a team's roster and on the season's
/// set-up page.
async fn a_pasted_row_with_a_phone_number_makes_a_player_of_the_name(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("home").secretary("sec")).await;
    let (mut sec, l) = (app.with_secretary().await, &app.league);
    let roster = at_short("home")
        .console()
        .team(l.home())
        .season(l.season)
        .to_string();
    let paste = at_short("home")
        .console()
        .team(l.home())
        .season(l.season)
        .roster();
    for (names, made) in [
        (
            "Ann Smith\t07700 900001\nBob Jones\t+44 7700 900002\n",
            ["Ann Smith", "Bob Jones"],
        ),
        (
            "Cat Brown, 07700 900003\nDee Green, (01632) 960 004\n",
            ["Cat Brown", "Dee Green"],
        ),
    ] {
        let checked = sec
            .submit(&roster, &paste, &[("names", names), ("action", "check")])
            .await;
        assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
        let plan: Vec<String> = rows(&checked, "<table id=\"plan\"")
            .into_iter()
            .map(|r| r[1].clone())
            .collect();
        assert_eq!(plan, made, "{}", checked.body);
        let columns = rows(&checked, "<table id=\"columns\"");
        assert_eq!(
            columns,
            vec![
                vec!["1".to_owned(), "the player's name".to_owned()],
                vec!["2".to_owned(), "a phone number: not kept".to_owned()],
            ],
            "{}",
            checked.body
        );
        let before: Vec<String> = team_names(&db, l).await;
        let saved = sec
            .submit(&roster, &paste, &[("names", names), ("action", "save")])
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        let mut added: Vec<String> = team_names(&db, l)
            .await
            .into_iter()
            .filter(|n| !before.contains(n))
            .collect();
        added.sort();
        assert_eq!(added, made, "the players made: no phone number in a name");
    }
    // The season's set-up page reads a spreadsheet's rows the same way.
    let form = at_short("home").console().season(l.season).import();
    for (text, team, player) in [
        (
            "Team\tPlayer\tPhone\nSwan\tEve Swan\t07700 900005\n",
            "Swan",
            "Eve Swan",
        ),
        (
            "Team,Player,Phone\nLamb,Fay Lamb,07700 900006\n",
            "Lamb",
            "Fay Lamb",
        ),
    ] {
        let checked = sec
            .submit(&form, &form, &[("csv", text), ("action", "check")])
            .await;
        assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
        assert_eq!(
            rows(&checked, "<table id=\"columns\""),
            [
                ["1", "Team", "the team"],
                ["2", "Player", "the player's name"],
                ["3", "Phone", "a phone number: not kept"],
            ],
            "{}",
            checked.body
        );
        let saved = sec
            .submit(&form, &form, &[("csv", text), ("action", "save")])
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        let made = db
            .teams(l.id)
            .await
            .unwrap()
            .into_iter()
            .find(|t| t.name == team)
            .expect("the team made");
        let players: Vec<String> = db
            .team_players(l.id, l.season, made.id)
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(players, [player]);
    }
}
