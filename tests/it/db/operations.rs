//! League operations that write several records, each one call and one
//! transaction: all of it is written, or (refused) none of it.

use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::settings::SeasonSettings;
use boneyard::league::workflow::{Actor, Refusal};
use boneyard::rules::Format;

use crate::harness::LeagueBuilder;
use crate::harness::results::sample_result;
use crate::support::on_both;

on_both!(
    a_secretarys_submit_is_approved_and_the_fixture_played_in_one_go,
    every_step_checks_the_version_inside_its_transaction,
    a_fine_is_recorded_with_its_ledger_line,
    a_season_form_is_saved_whole_or_not_at_all,
);

async fn secretary(db: &Db, l: LeagueId, name: &str) -> UserId {
    let user = db.create_user(name, "hash").await.unwrap().id;
    db.grant_role(&NewRole::secretary(user, l), None)
        .await
        .unwrap();
    user
}

async fn a_secretarys_submit_is_approved_and_the_fixture_played_in_one_go(db: Db) {
    // The match is `sample_result`'s shape: two singles boards and a pairs.
    let l = LeagueBuilder::home_and_away("op1")
        .boards(MatchFormat::with_boards(2, 1, 3))
        .build(&db)
        .await;
    let sec = secretary(&db, l.id, "op1-sec").await;
    let v = boneyard::app::results::submit(
        &db,
        l.id,
        l.fixture(),
        &sample_result(&l),
        Actor::secretary(sec),
    )
    .await
    .unwrap();
    assert_eq!(
        (v.version, v.status, v.status_note.as_str()),
        (1, ResultStatus::Approved, "entered by a secretary")
    );
    assert_eq!(
        db.fixture(l.id, l.fixture()).await.unwrap().status,
        FixtureStatus::Played
    );
    let fixture_audit = db
        .audit_entries(l.id, "fixture", l.fixture().0)
        .await
        .unwrap();
    assert_eq!(fixture_audit.len(), 1);
    assert_eq!(fixture_audit[0].user_id, Some(sec));
    // A correction of a played fixture leaves its status alone.
    boneyard::app::results::submit(
        &db,
        l.id,
        l.fixture(),
        &sample_result(&l),
        Actor::secretary(sec),
    )
    .await
    .unwrap();
    assert_eq!(
        db.audit_entries(l.id, "fixture", l.fixture().0)
            .await
            .unwrap()
            .len(),
        1
    );
}

async fn every_step_checks_the_version_inside_its_transaction(db: Db) {
    // The match is `sample_result`'s shape: two singles boards and a pairs.
    let l = LeagueBuilder::home_and_away("op2")
        .boards(MatchFormat::with_boards(2, 1, 3))
        .build(&db)
        .await;
    let sec = secretary(&db, l.id, "op2-sec").await;
    let home = db.create_user("op2-home", "hash").await.unwrap().id;
    let away = db.create_user("op2-away", "hash").await.unwrap().id;
    let home_captain = Actor::captain(home, Side::Home);
    let away_captain = Actor::captain(away, Side::Away);
    let result = sample_result(&l);
    boneyard::app::results::submit(&db, l.id, l.fixture(), &result, home_captain)
        .await
        .unwrap();
    boneyard::app::results::submit(&db, l.id, l.fixture(), &result, home_captain)
        .await
        .unwrap();
    let stale = |r: Result<ResultVersion>| {
        matches!(
            r,
            Err(DbError::Refused(Refusal::Stale {
                shown: 1,
                current: 2
            }))
        )
    };
    assert!(stale(
        boneyard::app::results::confirm(&db, l.id, l.fixture(), 1, away_captain).await
    ));
    assert!(stale(
        boneyard::app::results::dispute(&db, l.id, l.fixture(), 1, "no", away_captain).await
    ));
    assert!(stale(
        boneyard::app::results::approve(&db, l.id, l.fixture(), 1, None, "", Actor::secretary(sec))
            .await
    ));
    assert!(stale(
        boneyard::app::results::restore(&db, l.id, l.fixture(), 1, 1, Actor::secretary(sec)).await
    ));
    // Nothing was written by the refusals.
    let versions = db.result_versions(l.id, l.fixture()).await.unwrap();
    assert_eq!(versions.len(), 2);
    assert!(versions.iter().all(|v| v.status == ResultStatus::Entered));
    // The version seen is disputed, as the disputing captain's.
    let v = boneyard::app::results::dispute(&db, l.id, l.fixture(), 2, " wrong ", away_captain)
        .await
        .unwrap();
    assert_eq!(
        (v.version, v.status, v.status_note.as_str(), v.status_by),
        (2, ResultStatus::Disputed, "wrong", Some(away))
    );
    assert!(v.status_at.is_some());
    let v = boneyard::app::results::approve(
        &db,
        l.id,
        l.fixture(),
        2,
        None,
        "checked",
        Actor::secretary(sec),
    )
    .await
    .unwrap();
    assert_eq!((v.status, v.status_by), (ResultStatus::Approved, Some(sec)));
    let f =
        boneyard::app::results::walkover(&db, l.id, l.fixture(), Side::Away, Actor::secretary(sec))
            .await
            .unwrap();
    assert_eq!(
        (f.status, f.conceded_by),
        (FixtureStatus::Walkover, Some(Side::Away))
    );
    assert!(matches!(
        boneyard::app::results::void(&db, l.id, l.fixture(), home_captain).await,
        Err(DbError::Refused(Refusal::NotYours(_)))
    ));
    let f = boneyard::app::results::void(&db, l.id, l.fixture(), Actor::secretary(sec))
        .await
        .unwrap();
    assert_eq!((f.status, f.conceded_by), (FixtureStatus::Void, None));
}

async fn a_fine_is_recorded_with_its_ledger_line(db: Db) {
    let l = LeagueBuilder::home_and_away("op3").build(&db).await;
    let fine = db
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
    let warning = db
        .add_penalty_kind(
            l.id,
            &NewPenaltyKind {
                code: "warn".into(),
                name: "Warning".into(),
                effect: PenaltyEffect::Warning,
                amount: 0,
            },
        )
        .await
        .unwrap();
    let new = |kind: PenaltyKindId, amount| NewPenalty {
        season_id: l.season,
        fixture_id: Some(l.fixture()),
        team_id: Some(l.home()),
        player_id: None,
        kind_id: kind,
        amount,
        note: "late again".into(),
    };
    let p = boneyard::app::penalties::record(&db, l.id, &new(fine.id, 750), None)
        .await
        .unwrap();
    boneyard::app::penalties::record(&db, l.id, &new(warning.id, 0), None)
        .await
        .unwrap();
    let ledger = db.fines(l.id).await.unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(
        (
            ledger[0].penalty_id,
            ledger[0].team_id,
            ledger[0].amount_pence,
            ledger[0].reason.as_str()
        ),
        (Some(p.id), Some(l.home()), 750, "Fine: late again")
    );
    // A refused penalty writes no line either.
    let mut both = new(fine.id, 100);
    both.player_id = Some(l.home_players()[0]);
    assert!(
        boneyard::app::penalties::record(&db, l.id, &both, None)
            .await
            .is_err()
    );
    assert_eq!(db.fines(l.id).await.unwrap().len(), 1);
}

async fn a_season_form_is_saved_whole_or_not_at_all(db: Db) {
    let l = LeagueBuilder::home_and_away("op4").build(&db).await;
    let before = db.season(l.id, l.season).await.unwrap();
    let settings = SeasonSettings {
        approve_on_confirmation: true,
        ..Default::default()
    };
    // With a result in, new rules are refused: the new name and settings
    // that came with them are not saved either.
    boneyard::app::results::write(&db, l.id, l.fixture(), &sample_result(&l), None)
        .await
        .unwrap();
    let update = SeasonUpdate {
        name: Some("Renamed".into()),
        rules: Some((
            Format::AllFives,
            Default::default(),
            serde_json::json!({"singles": 4}),
        )),
        settings: Some(settings.clone()),
    };
    let refused = boneyard::app::seasons::update_season(&db, l.id, l.season, &update, None).await;
    assert!(
        matches!(refused, Err(DbError::Refused(Refusal::RulesFixed { .. }))),
        "{refused:?}"
    );
    assert_eq!(db.season(l.id, l.season).await.unwrap(), before);
    // Without the rules, name and settings are saved together.
    let update = SeasonUpdate {
        rules: None,
        ..update
    };
    let after = boneyard::app::seasons::update_season(&db, l.id, l.season, &update, None)
        .await
        .unwrap();
    assert_eq!(after.name, "Renamed");
    assert_eq!(after.settings, settings.to_value());
    assert_eq!(db.season(l.id, l.season).await.unwrap(), after);
    let actions: Vec<String> = db
        .audit_entries(l.id, "season", l.season.0)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.action)
        .collect();
    assert_eq!(actions, ["settings", "rename"]);
}
