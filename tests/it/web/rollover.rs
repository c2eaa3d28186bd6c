//! The end of a season: the final tables with the moves up and down, a
//! play-off settling a tie on every rule, the roll-over into the next
//! season (moves overridden, rosters toggled) and the season kept as it
//! was afterwards.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::refusal::Refusal;

use crate::harness::client::Client;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    the_roll_over_applies_promotion_and_relegation_with_overrides,
    a_playoff_settles_a_tie_at_the_relegation_place_without_points,
    a_rolled_over_season_is_kept_as_it_was,
    bad_roll_over_forms_are_refused_with_reasons,
    two_roll_overs_at_once_make_one_season,
    a_roll_over_keeps_the_squad_limit,
);

/// Two divisions of four: Premier (Anchor, Bell, Crown, Dolphin) and One
/// (Eagle, Fox, Goat, Hare), 2 players each; every fixture a walkover won
/// by the team listed first, so each table is in the order listed. With
/// `level_at_bottom`, Crown and Dolphin never meet: level on every rule.
pub(crate) struct Season2 {
    pub app: TestApp,
    pub premier: DivisionId,
    pub one: DivisionId,
    /// Team ids by name.
    pub teams: Vec<(String, TeamId)>,
    pub fixtures: Vec<FixtureId>,
}

impl Season2 {
    pub fn team(&self, name: &str) -> TeamId {
        self.teams.iter().find(|(n, _)| n == name).unwrap().1
    }

    pub fn end(&self) -> String {
        format!(
            "/leagues/{}/console/seasons/{}/end",
            self.app.league.short, self.app.league.season
        )
    }
}

async fn walkover(db: &Db, league: LeagueId, id: FixtureId) {
    let fixture = db.fixture(league, id).await.unwrap();
    let change = FixtureChange {
        status: FixtureStatus::Walkover,
        conceded_by: Some(Side::Away),
        ..FixtureChange::from(&fixture)
    };
    boneyard::app::fixtures::change(db, league, id, &change, None)
        .await
        .unwrap();
}

pub(crate) async fn season(db: &Db, short: &str, level_at_bottom: bool) -> Season2 {
    let app = TestApp::new(
        db,
        LeagueBuilder::new(short)
            .teams(&["Anchor", "Bell", "Crown", "Dolphin"])
            .division("Premier")
            .players(2)
            .fixtures(0),
    )
    .await;
    let l = &app.league;
    let one = db
        .create_division(l.id, l.season, "One", 1)
        .await
        .unwrap()
        .id;
    let mut teams: Vec<(String, TeamId)> = l.teams.iter().map(|t| (t.name.clone(), t.id)).collect();
    for name in ["Eagle", "Fox", "Goat", "Hare"] {
        let id = db.create_team(l.id, name, None).await.unwrap().id;
        db.enter_team(l.id, l.season, one, id).await.unwrap();
        for i in 0..2 {
            let p = db
                .create_player(l.id, &format!("{name} {i}"))
                .await
                .unwrap()
                .id;
            boneyard::app::registrations::register_player(db, l.id, l.season, id, p)
                .await
                .unwrap();
        }
        teams.push((name.to_owned(), id));
    }
    // Anchor's first player is its captain, named on the roster.
    let anchor = l.teams[0].clone();
    boneyard::app::teams::add_captain(db, l.id, l.season, anchor.id, anchor.players[0].0)
        .await
        .unwrap();
    let mut fixtures = Vec::new();
    let mut round = 0;
    for (division, names) in [
        (l.division, ["Anchor", "Bell", "Crown", "Dolphin"]),
        (one, ["Eagle", "Fox", "Goat", "Hare"]),
    ] {
        for i in 0..4 {
            for j in i + 1..4 {
                if level_at_bottom && names[i] == "Crown" && names[j] == "Dolphin" {
                    continue;
                }
                round += 1;
                let id = db
                    .create_fixture(
                        l.id,
                        &NewFixture {
                            season_id: l.season,
                            division_id: division,
                            round,
                            starts_at: Some(now() - chrono::Duration::days(30)),
                            home_team_id: teams.iter().find(|t| t.0 == names[i]).unwrap().1,
                            away_team_id: teams.iter().find(|t| t.0 == names[j]).unwrap().1,
                            venue_id: None,
                        },
                    )
                    .await
                    .unwrap()
                    .id;
                walkover(db, l.id, id).await;
                fixtures.push(id);
            }
        }
    }
    Season2 {
        premier: l.division,
        one,
        teams,
        fixtures,
        app,
    }
}

/// The fields of the roll-over form for `places`, every team where the
/// page proposes and its roster carried, then `changes` on top.
async fn roll_over_fields(
    sec: &mut Client,
    s: &Season2,
    name: &str,
    changes: &[(&str, &str)],
) -> Vec<(String, String)> {
    let page = sec.get(&s.end()).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let mut fields = vec![
        ("csrf".to_owned(), page.csrf()),
        ("name".to_owned(), name.to_owned()),
        ("places".to_owned(), "1".to_owned()),
    ];
    for (team, id) in &s.teams {
        let key = format!("to_{id}");
        // The option the page selected for the team.
        let at = page.body.find(&format!("name=\"{key}\"")).unwrap();
        let rest = &page.body[at..];
        let sel = rest.find(" selected>").unwrap();
        let before = &rest[..sel];
        let value = &before[before.rfind("value=\"").unwrap() + 7..];
        let value = &value[..value.find('"').unwrap()];
        let value = changes
            .iter()
            .find(|(t, _)| t == team)
            .map_or(value.to_owned(), |(_, v)| (*v).to_owned());
        fields.push((key, value));
        fields.push((format!("players_{id}"), "1".to_owned()));
    }
    fields
}

async fn post(
    sec: &mut Client,
    path: &str,
    fields: &[(String, String)],
) -> crate::harness::client::Page {
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    sec.post(path, &refs).await
}

async fn the_roll_over_applies_promotion_and_relegation_with_overrides(db: Db) {
    let s = season(&db, "roll", false).await;
    let l = &s.app.league;
    let mut sec = s.app.with_secretary().await;
    boneyard::app::seasons::set_season_settings(
        &db,
        l.id,
        l.season,
        &boneyard::league::settings::SeasonSettings {
            promotion_places: 1,
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    let page = sec.get(&s.end()).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("2027/28"), "the next season's name is proposed");
    assert!(!page.has("id=\"unfinished\""), "every fixture counted");
    assert!(page.has("2 players; captain Anchor Ann"), "{}", page.body);
    // The plan: Dolphin (last of Premier) down, Eagle (top of One) up.
    let premier = s.premier.to_string();
    let one = s.one.to_string();
    let dolphin = s.team("Dolphin");
    let eagle = s.team("Eagle");
    // Override: Crown goes down too, and Hare is left out; Fox's roster is
    // not carried.
    let mut fields = roll_over_fields(
        &mut sec,
        &s,
        "2027/28",
        &[("Crown", one.as_str()), ("Hare", "out")],
    )
    .await;
    fields.retain(|(k, _)| *k != format!("players_{}", s.team("Fox")));
    let to = |fields: &[(String, String)], id: TeamId| {
        fields
            .iter()
            .find(|(k, _)| *k == format!("to_{id}"))
            .unwrap()
            .1
            .clone()
    };
    assert_eq!(to(&fields, dolphin), one, "Dolphin is relegated");
    assert_eq!(to(&fields, eagle), premier, "Eagle is promoted");
    let saved = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let next = &db.seasons(l.id).await.unwrap()[0];
    assert_eq!(next.name, "2027/28");
    let flash = sec.get(saved.location.as_deref().unwrap()).await;
    assert!(
        flash.has(
            "Season 2027/28 started from 2026/27: 2 divisions, 7 teams (1 up, 2 down, 1 left out)"
        ),
        "{}",
        flash.body
    );
    assert!(flash.has("2 moves were changed by hand"), "{}", flash.body);
    // Same ruleset and match format; the setting kept.
    let old = db.season(l.id, l.season).await.unwrap();
    assert_eq!(
        (next.format, &next.options, &next.match_format),
        (old.format, &old.options, &old.match_format)
    );
    assert_eq!(next.settings().unwrap().promotion_places, 1);
    assert!(old.is_closed() && !next.is_closed());
    // The new divisions and who is where.
    let divisions = db.divisions(l.id, next.id).await.unwrap();
    assert_eq!(
        divisions
            .iter()
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>(),
        ["Premier", "One"]
    );
    let entries = db.entry_lines(l.id, next.id).await.unwrap();
    let in_division = |name: &str| {
        let mut teams: Vec<&str> = entries
            .iter()
            .filter(|e| e.division_name == name)
            .map(|e| e.team_name.as_str())
            .collect();
        teams.sort();
        teams
    };
    assert_eq!(in_division("Premier"), ["Anchor", "Bell", "Eagle"]);
    assert_eq!(in_division("One"), ["Crown", "Dolphin", "Fox", "Goat"]);
    // Rosters: every carried team's players but Fox's; Anchor's captain,
    // and the captains' accounts keep their role for the new season.
    let regs = db.registrations(l.id, next.id).await.unwrap();
    // Anchor, Bell, Crown, Dolphin, Eagle and Goat: 2 players each.
    assert_eq!(regs.len(), 6 * 2);
    assert!(regs.iter().all(|r| r.team_id != s.team("Fox")));
    let captains = db.captains(l.id, next.id, s.team("Anchor")).await.unwrap();
    assert_eq!(captains.len(), 1);
    let user = db.user_by_username(&l.teams[0].captain).await.unwrap();
    let held = db.user_roles(user.id).await.unwrap();
    assert!(
        held.iter()
            .any(|r| r.season_id == Some(next.id) && r.team_id == Some(s.team("Anchor"))),
        "{held:?}"
    );
}

async fn a_playoff_settles_a_tie_at_the_relegation_place_without_points(db: Db) {
    let s = season(&db, "tie", true).await;
    let l = &s.app.league;
    let mut sec = s.app.with_secretary().await;
    // 2 places by default: of 4 teams, 2 go down; Crown and Dolphin are
    // both below the line. With 1 place, the line falls between them.
    boneyard::app::seasons::set_season_settings(
        &db,
        l.id,
        l.season,
        &boneyard::league::settings::SeasonSettings {
            promotion_places: 1,
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    let table = format!("/leagues/{}/2026-27/premier", l.short);
    let page = sec.get(&table).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.has("Crown and Dolphin are level on every rule for a relegation place"),
        "{}",
        page.body
    );
    assert!(page.has("add a play-off on the season"), "{}", page.body);
    let end = sec.get(&s.end()).await;
    assert!(end.has("Premier: Crown and Dolphin are level on every rule for a relegation place."));
    // The play-off: Crown at home to Dolphin.
    let fields = [
        ("division", s.premier.to_string()),
        ("home", s.team("Crown").to_string()),
        ("away", s.team("Dolphin").to_string()),
        ("date", "2027-05-20".to_owned()),
        ("time", "19:30".to_owned()),
    ];
    let refs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let playoffs = format!("/leagues/{}/console/seasons/{}/playoffs", l.short, l.season);
    let saved = sec.submit(&s.end(), &playoffs, &refs).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let flash = sec.get(saved.location.as_deref().unwrap()).await;
    assert!(
        flash.has("Play-off added in Premier: Crown v Dolphin"),
        "{}",
        flash.body
    );
    let lines = db
        .fixture_lines(
            l.id,
            &boneyard::db::pages::FixtureScope::Division(s.premier),
        )
        .await
        .unwrap();
    let playoff = lines.iter().find(|f| f.playoff).unwrap();
    assert_eq!(playoff.round, 6, "after the division's last round");
    // Crown wins it (Dolphin concedes): Crown above, points unchanged.
    let before = sec.get(&table).await;
    walkover(&db, l.id, playoff.id).await;
    let page = sec.get(&table).await;
    assert!(
        page.has("Crown and Dolphin are level on every rule; Crown is placed higher by winning their play-off."),
        "{}",
        page.body
    );
    assert!(!page.has("level on every rule for a relegation place"));
    let points = |p: &crate::harness::client::Page| {
        let strong: Vec<String> = p
            .body
            .match_indices("<td class=\"num\"><strong>")
            .map(|(i, _)| {
                let rest = &p.body[i + 24..];
                rest[..rest.find('<').unwrap()].to_owned()
            })
            .collect();
        strong
    };
    assert_eq!(points(&before), points(&page), "a play-off earns no points");
    let crown = page.body.find(">Crown</a>").unwrap();
    let dolphin = page.body.find(">Dolphin</a>").unwrap();
    assert!(crown < dolphin);
    // The fixtures page names it.
    let fixtures = sec.get(&format!("{table}/fixtures")).await;
    assert!(fixtures.has("Play-off (round 6)"), "{}", fixtures.body);
    // The roll-over relegates Dolphin.
    let end = sec.get(&s.end()).await;
    let row = &end.body[end.body.find(">Dolphin</th>").unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains("<td>relegated</td>"), "{row}");
    // A play-off between teams not in the division is refused, with why.
    let bad = [
        ("division", s.premier.to_string()),
        ("home", s.team("Eagle").to_string()),
        ("away", s.team("Crown").to_string()),
    ];
    let refs: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let refused = sec.submit(&s.end(), &playoffs, &refs).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.has("Both teams of a play-off must be in the division"));
}

async fn a_rolled_over_season_is_kept_as_it_was(db: Db) {
    let s = season(&db, "kept", false).await;
    let l = &s.app.league;
    let mut sec = s.app.with_secretary().await;
    // A rematch never played: the tables are not final, and its result
    // is missing until the season is rolled over.
    db.create_fixture(
        l.id,
        &NewFixture {
            season_id: l.season,
            division_id: s.premier,
            round: 20,
            starts_at: Some(now() - chrono::Duration::days(3)),
            home_team_id: s.team("Bell"),
            away_team_id: s.team("Anchor"),
            venue_id: None,
        },
    )
    .await
    .unwrap();
    let end = sec.get(&s.end()).await;
    assert!(
        end.has("1 fixture has no approved result yet"),
        "{}",
        end.body
    );
    let console = format!("/leagues/{}/console", l.short);
    assert!(sec.get(&console).await.has("Results missing (1)"));
    let fields = roll_over_fields(&mut sec, &s, "2027/28", &[]).await;
    let saved = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    // The places used are kept with the old season, whose default was 2.
    let old = db.season(l.id, l.season).await.unwrap();
    assert_eq!(old.settings().unwrap().promotion_places, 1);
    assert!(sec.get(&console).await.has("Results missing (0)"));
    // Its rules and settings stay as they were; a new name is fine.
    let mut settings = old.settings().unwrap();
    settings.min_games = 7;
    let refused =
        boneyard::app::seasons::set_season_settings(&db, l.id, l.season, &settings, None).await;
    assert!(
        matches!(
            &refused,
            Err(DbError::Refused(Refusal::SeasonArchived { .. }))
        ),
        "{refused:?}"
    );
    let update = SeasonUpdate {
        name: Some("2026/27 (old)".into()),
        rules: None,
        settings: Some(old.settings().unwrap()),
    };
    boneyard::app::seasons::update_season(&db, l.id, l.season, &update, None)
        .await
        .unwrap();
    db.rename_season(l.id, l.season, "2026/27").await.unwrap();
    // Rolled over once only.
    let again = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.has("was rolled over already"), "{}", again.body);
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 2);
    let end = sec.get(&s.end()).await;
    assert!(end.has("id=\"closed\""));
    assert!(!end.has("Start season"));
    // The league's page lists it among the past seasons, one click away;
    // its page says it is over.
    let mut anyone = s.app.anonymous().await;
    let home = anyone.get(&format!("/leagues/{}", l.short)).await;
    assert!(home.has("Past seasons"), "{}", home.body);
    let href = format!("/leagues/{}/2026-27", l.short);
    assert!(home.has(&format!("href=\"{href}\"")), "{}", home.body);
    let past = anyone.get(&href).await;
    assert!(past.has("This season is over"), "{}", past.body);
    let table = anyone.get(&format!("{href}/premier")).await;
    assert_eq!(table.status, StatusCode::OK);
    // A captain can no longer enter a result of it; a secretary still can.
    let card = format!("/leagues/{}/matches/{}/card", l.short, s.fixtures[0]);
    let mut cap = s.app.with_captain(0).await;
    let refused = cap.get(&card).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.has("is over"), "{}", refused.body);
    assert_eq!(sec.get(&card).await.status, StatusCode::OK);
    // Nor keep its score on the pad.
    let pad = format!("/leagues/{}/matches/{}/pad/1", l.short, s.fixtures[0]);
    assert_eq!(cap.get(&pad).await.status, StatusCode::FORBIDDEN);
}

async fn bad_roll_over_forms_are_refused_with_reasons(db: Db) {
    let s = season(&db, "bad", false).await;
    let l = &s.app.league;
    let mut sec = s.app.with_secretary().await;
    // The season's own name: taken.
    let fields = roll_over_fields(&mut sec, &s, "2026/27", &[]).await;
    let page = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.has("a season with this name already"), "{}", page.body);
    // A destination that is no division of the season.
    let fields = roll_over_fields(&mut sec, &s, "2027/28", &[("Bell", "999999")]).await;
    let page = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.has("Choose where Bell plays next season"),
        "{}",
        page.body
    );
    // Too many places.
    let mut fields = roll_over_fields(&mut sec, &s, "2027/28", &[]).await;
    fields.retain(|(k, _)| k != "places");
    fields.push(("places".into(), "50".into()));
    let page = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.body.contains("places-error"), "{}", page.body);
    assert!(page.has("value=\"50\""), "what was typed is kept");
    // Nothing was saved.
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1);
    assert!(!db.season(l.id, l.season).await.unwrap().is_closed());
    // Showing the moves for another number saves nothing either.
    let mut fields = roll_over_fields(&mut sec, &s, "2027/28", &[]).await;
    fields.retain(|(k, _)| k != "places");
    fields.push(("places".into(), "2".into()));
    fields.push(("action".into(), "preview".into()));
    let page = post(&mut sec, &s.end(), &fields).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1);
    // A captain cannot see the page at all.
    let mut cap = s.app.with_captain(0).await;
    assert_eq!(cap.get(&s.end()).await.status, StatusCode::FORBIDDEN);
}

async fn two_roll_overs_at_once_make_one_season(db: Db) {
    let s = season(&db, "twice", false).await;
    let l = &s.app.league;
    let next = |name: &str| boneyard::app::rollover::RollOver {
        name: name.into(),
        settings: Default::default(),
        teams: s
            .teams
            .iter()
            .take(4)
            .map(|(_, id)| boneyard::app::rollover::CarriedTeam {
                team: *id,
                division: s.premier,
                players: true,
            })
            .collect(),
    };
    let (a, b) = (next("2027/28"), next("2027/28 again"));
    let (one, two) = tokio::join!(
        boneyard::app::rollover::roll_over(&db, l.id, l.season, &a, None),
        boneyard::app::rollover::roll_over(&db, l.id, l.season, &b, None)
    );
    let refused = match (&one, &two) {
        (Ok(_), Err(e)) | (Err(e), Ok(_)) => e,
        other => panic!("expected one roll-over and one refusal: {other:?}"),
    };
    assert!(
        matches!(refused, DbError::Refused(Refusal::RolledOverAlready { .. })),
        "{refused:?}"
    );
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 2);
    let done = one.or(two).unwrap();
    assert_eq!((done.teams, done.registrations), (4, 8));
}

async fn a_roll_over_keeps_the_squad_limit(db: Db) {
    let s = season(&db, "squad", false).await;
    let l = &s.app.league;
    let next = boneyard::app::rollover::RollOver {
        name: "2027/28".into(),
        settings: boneyard::league::settings::SeasonSettings {
            squad_limit: Some(1),
            ..Default::default()
        },
        teams: vec![boneyard::app::rollover::CarriedTeam {
            team: s.team("Anchor"),
            division: s.premier,
            players: true,
        }],
    };
    let refused = boneyard::app::rollover::roll_over(&db, l.id, l.season, &next, None).await;
    assert!(
        matches!(&refused, Err(DbError::Refused(r @ Refusal::SquadFull { .. })) if r.to_string().contains("Anchor would have 2 players")),
        "{refused:?}"
    );
    // Nothing was saved: no new season, the old one still open.
    assert_eq!(db.seasons(l.id).await.unwrap().len(), 1);
    assert!(!db.season(l.id, l.season).await.unwrap().is_closed());
}
