//! Foreign keys refuse orphans, and no query returns another league's rows.

use boneyard::db::*;

use crate::harness::LeagueBuilder;
use crate::harness::results::sample_result;
use crate::support::on_both;

on_both!(orphans_are_refused, no_query_returns_another_leagues_rows);

fn is_fk<T: std::fmt::Debug>(r: Result<T, DbError>) -> bool {
    matches!(r, Err(DbError::ForeignKey(_)))
}

async fn orphans_are_refused(db: Db) {
    let a = LeagueBuilder::home_and_away("oa").build(&db).await;
    let b = LeagueBuilder::home_and_away("ob").build(&db).await;
    let missing = LeagueId(999_999);

    assert!(is_fk(
        db.create_venue(
            missing,
            &NewVenue {
                name: "Nowhere".into(),
                address: String::new(),
                tables: 1,
            }
        )
        .await
    ));
    assert!(is_fk(
        db.create_team(a.id, "Ghosts", Some(VenueId(999_999))).await
    ));
    // Another league's venue is as good as none.
    assert!(is_fk(
        db.create_team(a.id, "Borrowers", Some(b.venue_id())).await
    ));
    assert!(is_fk(db.create_division(a.id, b.season, "Stolen", 0).await));
    // A team entered in another league's division, a player registered to
    // another league's team, a team not entered in the season.
    let unentered = db.create_team(a.id, "Unentered", None).await.unwrap().id;
    assert!(is_fk(
        db.enter_team(a.id, a.season, b.division, unentered).await
    ));
    assert!(is_fk(
        db.enter_team(a.id, b.season, b.division, unentered).await
    ));
    let newcomer = db.create_player(a.id, "Newcomer").await.unwrap().id;
    assert!(is_fk(
        boneyard::app::registrations::register_player(&db, a.id, a.season, b.home(), newcomer)
            .await
    ));
    assert!(is_fk(
        boneyard::app::registrations::register_player(&db, b.id, b.season, b.home(), newcomer)
            .await
    ));
    assert!(is_fk(
        boneyard::app::registrations::register_player(&db, a.id, a.season, unentered, newcomer)
            .await
    ));
    let fixture = db
        .create_fixture(
            a.id,
            &NewFixture {
                season_id: a.season,
                division_id: a.division,
                round: 1,
                starts_at: None,
                home_team_id: a.home(),
                away_team_id: unentered,
                venue_id: None,
            },
        )
        .await;
    assert!(is_fk(fixture));
    assert!(is_fk(
        boneyard::app::teams::add_captain(&db, a.id, a.season, a.home(), newcomer).await
    ));
    // Penalties must use the league's own kinds, teams, players, fixtures.
    let kind = db
        .add_penalty_kind(
            b.id,
            &NewPenaltyKind {
                code: "warn".into(),
                name: "Warning".into(),
                effect: PenaltyEffect::Warning,
                amount: 0,
            },
        )
        .await
        .unwrap();
    let mut penalty = NewPenalty {
        season_id: a.season,
        fixture_id: None,
        team_id: Some(a.home()),
        player_id: None,
        kind_id: kind.id,
        amount: 0,
        note: String::new(),
    };
    assert!(is_fk(
        boneyard::app::penalties::record(&db, a.id, &penalty, None).await
    ));
    let own_kind = db
        .add_penalty_kind(
            a.id,
            &NewPenaltyKind {
                code: "warn".into(),
                name: "Warning".into(),
                effect: PenaltyEffect::Warning,
                amount: 0,
            },
        )
        .await
        .unwrap();
    penalty.kind_id = own_kind.id;
    penalty.fixture_id = Some(b.fixture());
    assert!(is_fk(
        boneyard::app::penalties::record(&db, a.id, &penalty, None).await
    ));
    penalty.fixture_id = None;
    penalty.team_id = Some(b.home());
    assert!(is_fk(
        boneyard::app::penalties::record(&db, a.id, &penalty, None).await
    ));
    assert!(is_fk(
        boneyard::app::penalties::add_fine(
            &db,
            a.id,
            &NewFine {
                team_id: None,
                player_id: Some(b.home_players()[0]),
                penalty_id: None,
                amount_pence: 100,
                reason: String::new(),
            },
            None
        )
        .await
    ));
    assert!(is_fk(
        db.grant_role(&NewRole::secretary(UserId(999_999), a.id), None)
            .await
    ));
    let user = db.create_user("orphan-test", "h").await.unwrap().id;
    assert!(is_fk(
        db.grant_role(&NewRole::player(user, a.id, b.home_players()[0]), None)
            .await
    ));
    assert!(is_fk(
        db.grant_role(&NewRole::captain(user, a.id, a.season, b.home()), None)
            .await
    ));

    // A result for another league's fixture is not found, and nothing of
    // the kind was written.
    assert!(matches!(
        boneyard::app::results::write(&db, a.id, b.fixture(), &sample_result(&b), None).await,
        Err(DbError::NotFound(_))
    ));
    assert!(db.result(b.id, b.fixture()).await.unwrap().is_none());
}

async fn no_query_returns_another_leagues_rows(db: Db) {
    let a = LeagueBuilder::home_and_away("sa").build(&db).await;
    let b = LeagueBuilder::home_and_away("sb").build(&db).await;
    // Give both leagues one of everything.
    for l in [&a, &b] {
        boneyard::app::results::write(&db, l.id, l.fixture(), &sample_result(l), None)
            .await
            .unwrap();
        let kind = db
            .add_penalty_kind(
                l.id,
                &NewPenaltyKind {
                    code: "late".into(),
                    name: "Late".into(),
                    effect: PenaltyEffect::LeaguePoints,
                    amount: 1,
                },
            )
            .await
            .unwrap();
        boneyard::app::penalties::record(
            &db,
            l.id,
            &NewPenalty {
                season_id: l.season,
                fixture_id: Some(l.fixture()),
                team_id: Some(l.home()),
                player_id: None,
                kind_id: kind.id,
                amount: 1,
                note: String::new(),
            },
            None,
        )
        .await
        .unwrap();
        boneyard::app::penalties::add_fine(
            &db,
            l.id,
            &NewFine {
                team_id: Some(l.away()),
                player_id: None,
                penalty_id: None,
                amount_pence: 250,
                reason: String::new(),
            },
            None,
        )
        .await
        .unwrap();
        boneyard::app::teams::add_captain(&db, l.id, l.season, l.home(), l.home_players()[0])
            .await
            .unwrap();
        let user = db
            .create_user(&format!("{}-sec", l.id), "h")
            .await
            .unwrap()
            .id;
        db.grant_role(&NewRole::secretary(user, l.id), None)
            .await
            .unwrap();
        let change = FixtureChange::from(&db.fixture(l.id, l.fixture()).await.unwrap());
        boneyard::app::fixtures::change(&db, l.id, l.fixture(), &change, None)
            .await
            .unwrap();
    }
    let extra = b.add_fixture(&db, b.away(), b.home()).await;

    // Lists hold only the league's own rows.
    let l = a.id;
    assert!(
        db.seasons(l)
            .await
            .unwrap()
            .iter()
            .all(|s| s.league_id == l)
    );
    assert_eq!(db.seasons(l).await.unwrap().len(), 1);
    assert!(db.divisions(l, b.season).await.unwrap().is_empty());
    assert_eq!(db.venues(l).await.unwrap().len(), 1);
    assert!(db.teams(l).await.unwrap().iter().all(|t| t.league_id == l));
    assert!(db.team_entries(l, b.season).await.unwrap().is_empty());
    assert!(
        db.players(l)
            .await
            .unwrap()
            .iter()
            .all(|p| p.league_id == l)
    );
    assert_eq!(db.players(l).await.unwrap().len(), 8);
    assert!(db.registrations(l, b.season).await.unwrap().is_empty());
    assert!(
        db.team_players(l, b.season, b.home())
            .await
            .unwrap()
            .is_empty()
    );
    assert!(db.captains(l, b.season, b.home()).await.unwrap().is_empty());
    assert!(db.fixtures(l, b.season).await.unwrap().is_empty());
    assert!(
        db.division_fixtures(l, b.division)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(db.fixtures(l, a.season).await.unwrap().len(), 1);
    assert!(db.penalties(l, b.season).await.unwrap().is_empty());
    assert_eq!(db.penalty_kinds(l).await.unwrap().len(), 1);
    assert_eq!(db.fines(l).await.unwrap().len(), 1);
    assert!(db.fines(l).await.unwrap().iter().all(|f| f.league_id == l));
    assert!(
        db.league_roles(l)
            .await
            .unwrap()
            .iter()
            .all(|r| r.league_id == Some(l))
    );
    assert_eq!(db.league_roles(l).await.unwrap().len(), 1);
    assert!(
        db.audit_log(l, 100)
            .await
            .unwrap()
            .iter()
            .all(|e| e.league_id == Some(l))
    );
    assert!(
        db.audit_entries(l, "result", b.fixture().0)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        db.audit_entries(l, "fixture", b.fixture().0)
            .await
            .unwrap()
            .is_empty()
    );

    // Getters with another league's id find nothing.
    let nf = |r: Result<(), DbError>| matches!(r, Err(DbError::NotFound(_)));
    assert!(nf(db.season(l, b.season).await.map(drop)));
    assert!(nf(db.division(l, b.division).await.map(drop)));
    assert!(nf(db.venue(l, b.venue_id()).await.map(drop)));
    assert!(nf(db.team(l, b.home()).await.map(drop)));
    assert!(nf(db.player(l, b.home_players()[0]).await.map(drop)));
    assert!(nf(db.fixture(l, b.fixture()).await.map(drop)));
    assert!(nf(db.fixture(l, extra).await.map(drop)));
    let b_penalty = db.penalties(b.id, b.season).await.unwrap()[0].id;
    assert!(nf(db.penalty(l, b_penalty).await.map(drop)));
    assert!(db.result(l, b.fixture()).await.unwrap().is_none());
    assert!(db.result_versions(l, b.fixture()).await.unwrap().is_empty());
    assert!(nf(db.result_version(l, b.fixture(), 1).await.map(drop)));

    // Writers with another league's id change nothing.
    assert!(nf(db
        .update_team(l, b.home(), "Taken", None)
        .await
        .map(drop)));
    assert!(nf(db
        .rename_player(l, b.home_players()[0], "Taken")
        .await
        .map(drop)));
    assert!(nf(db
        .update_venue(
            l,
            b.venue_id(),
            &NewVenue {
                name: "Taken".into(),
                address: String::new(),
                tables: 1,
            }
        )
        .await
        .map(drop)));
    let change = FixtureChange::from(&db.fixture(b.id, b.fixture()).await.unwrap());
    assert!(nf(boneyard::app::fixtures::change(
        &db,
        l,
        b.fixture(),
        &change,
        None
    )
    .await
    .map(drop)));
    assert!(nf(db
        .void_penalty(l, b_penalty, true, None)
        .await
        .map(drop)));
    let b_fine = db.fines(b.id).await.unwrap()[0].id;
    assert!(nf(db.set_fine_paid(l, b_fine, None, None).await.map(drop)));
    assert!(nf(boneyard::app::results::set_status(
        &db,
        l,
        b.fixture(),
        ResultStatus::Approved,
        "",
        None
    )
    .await
    .map(drop)));
    assert!(nf(boneyard::app::results::restore_version(
        &db,
        l,
        b.fixture(),
        1,
        None
    )
    .await
    .map(drop)));
    assert!(matches!(
        boneyard::app::seasons::set_season_rules(
            &db,
            l,
            b.season,
            boneyard::rules::Format::AllFives,
            &Default::default(),
            &serde_json::Value::Null,
            None
        )
        .await,
        Err(DbError::NotFound(_))
    ));

    // And league B's records are as they were.
    assert_eq!(db.team(b.id, b.home()).await.unwrap().name, "sb Home");
    assert_eq!(
        db.result(b.id, b.fixture()).await.unwrap().unwrap().result,
        sample_result(&b)
    );
    assert!(
        db.penalty(b.id, b_penalty)
            .await
            .unwrap()
            .voided_at
            .is_none()
    );
}
