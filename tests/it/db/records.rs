//! Each record written and read back.

use boneyard::db::*;
use boneyard::league::refusal::Refusal;
use boneyard::rules::Format;
use chrono::{DateTime, Utc};

use crate::harness::LeagueBuilder;
use crate::support::on_both;

on_both!(
    leagues_seasons_and_divisions,
    venues_teams_players_and_captains,
    fixtures_and_their_changes,
    penalties_and_fines,
    users_and_roles,
    duplicates_are_unique_violations,
);

async fn leagues_seasons_and_divisions(db: Db) {
    let new = NewLeague {
        name: "Dorset Dominoes".into(),
        short_name: "dorset".into(),
        rules_summary: "Fives and threes, 61 up.".into(),
        contact: "sec@example.org".into(),
    };
    let league = db.create_league(&new).await.unwrap();
    assert_eq!(league.name, new.name);
    assert_eq!(db.league(league.id).await.unwrap(), league);
    assert_eq!(db.league_by_short_name("dorset").await.unwrap(), league);
    assert_eq!(db.leagues().await.unwrap(), vec![league.clone()]);
    let renamed = db
        .update_league(
            league.id,
            &NewLeague {
                name: "Dorset Dominoes League".into(),
                ..new
            },
            boneyard::league::time::Zone::LONDON,
            None,
        )
        .await
        .unwrap();
    assert_eq!(renamed.name, "Dorset Dominoes League");
    assert_eq!(renamed.created_at, league.created_at);
    assert_eq!(renamed.time_zone, league.time_zone);

    let options = serde_json::json!({"set_to": 7, "late_games": [[1, 1], [5, 2]]});
    let season = boneyard::app::seasons::create_season(
        &db,
        league.id,
        &NewSeason {
            name: "2026/27".into(),
            format: Format::HandsWon,
            options: options.as_object().unwrap().clone(),
            match_format: serde_json::json!({"sets": 3}),
        },
    )
    .await
    .unwrap();
    assert_eq!(season.format, Format::HandsWon);
    assert_eq!(season.ruleset().unwrap().set_to, 7);
    assert_eq!(db.season(league.id, season.id).await.unwrap(), season);
    assert_eq!(db.seasons(league.id).await.unwrap(), vec![season.clone()]);
    // Options that make no ruleset are refused.
    let bad = boneyard::app::seasons::create_season(
        &db,
        league.id,
        &NewSeason {
            name: "2027/28".into(),
            format: Format::HandsWon,
            options: serde_json::json!({"target": 61})
                .as_object()
                .unwrap()
                .clone(),
            match_format: serde_json::Value::Null,
        },
    )
    .await;
    assert!(
        matches!(bad, Err(DbError::Refused(Refusal::Rule(_)))),
        "{bad:?}"
    );

    let two = db
        .create_division(league.id, season.id, "Division Two", 2)
        .await
        .unwrap();
    let one = db
        .create_division(league.id, season.id, "Division One", 1)
        .await
        .unwrap();
    assert_eq!(db.division(league.id, one.id).await.unwrap(), one);
    assert_eq!(
        db.divisions(league.id, season.id).await.unwrap(),
        vec![one, two]
    );
}

async fn venues_teams_players_and_captains(db: Db) {
    let l = LeagueBuilder::home_and_away("vt").build(&db).await;
    let venue = db.venue(l.id, l.venue_id()).await.unwrap();
    assert_eq!(venue.tables, 2);
    let moved = db
        .update_venue(
            l.id,
            l.venue_id(),
            &NewVenue {
                name: venue.name.clone(),
                address: "2 Quay Road".into(),
                tables: 3,
            },
        )
        .await
        .unwrap();
    assert_eq!(moved.address, "2 Quay Road");
    assert_eq!(db.venues(l.id).await.unwrap(), vec![moved]);

    let team = db.team(l.id, l.home()).await.unwrap();
    assert_eq!(team.venue_id, Some(l.venue_id()));
    assert_eq!(db.teams(l.id).await.unwrap().len(), 2);
    let renamed = db
        .update_team(l.id, l.home(), "vt Home Stars", None)
        .await
        .unwrap();
    assert_eq!(renamed.venue_id, None);
    let entries = db.team_entries(l.id, l.season).await.unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e.division_id == l.division));

    let player = db.player(l.id, l.home_players()[0]).await.unwrap();
    assert_eq!(player.name, "vt player 00");
    assert_eq!(db.players(l.id).await.unwrap().len(), 8);
    let renamed = db
        .rename_player(l.id, player.id, "Ann Example")
        .await
        .unwrap();
    assert_eq!(renamed.created_at, player.created_at);
    let home = db.team_players(l.id, l.season, l.home()).await.unwrap();
    assert_eq!(home.len(), 4);
    assert_eq!(home[0].name, "Ann Example");
    let registrations = db.registrations(l.id, l.season).await.unwrap();
    assert_eq!(registrations.len(), 8);

    // Two captains at most, each a registered player of the team.
    boneyard::app::teams::add_captain(&db, l.id, l.season, l.home(), l.home_players()[0])
        .await
        .unwrap();
    boneyard::app::teams::add_captain(&db, l.id, l.season, l.home(), l.home_players()[1])
        .await
        .unwrap();
    let third =
        boneyard::app::teams::add_captain(&db, l.id, l.season, l.home(), l.home_players()[2]).await;
    assert!(
        matches!(
            third,
            Err(DbError::Refused(Refusal::CaptainsFull { max: 2 }))
        ),
        "{third:?}"
    );
    let not_ours =
        boneyard::app::teams::add_captain(&db, l.id, l.season, l.away(), l.home_players()[2]).await;
    assert!(
        matches!(not_ours, Err(DbError::ForeignKey(_))),
        "{not_ours:?}"
    );
    let captains = db.captains(l.id, l.season, l.home()).await.unwrap();
    assert_eq!(
        captains.iter().map(|p| p.id).collect::<Vec<_>>(),
        vec![l.home_players()[0], l.home_players()[1]]
    );
}

async fn fixtures_and_their_changes(db: Db) {
    let l = LeagueBuilder::home_and_away("fx").build(&db).await;
    let fixture = db.fixture(l.id, l.fixture()).await.unwrap();
    assert_eq!(fixture.status, FixtureStatus::Scheduled);
    assert_eq!(fixture.home_team_id, l.home());
    assert_eq!(
        fixture.starts_at,
        Some("2026-09-10T19:30:00Z".parse::<DateTime<Utc>>().unwrap())
    );
    assert_eq!(
        db.fixtures(l.id, l.season).await.unwrap(),
        vec![fixture.clone()]
    );
    assert_eq!(
        db.division_fixtures(l.id, l.division).await.unwrap(),
        vec![fixture.clone()]
    );

    let secretary = db.create_user("fx-sec", "hash").await.unwrap().id;
    let new_date: DateTime<Utc> = "2026-10-01T18:45:30.123456Z".parse().unwrap();
    let postponed = boneyard::app::fixtures::change(
        &db,
        l.id,
        l.fixture(),
        &FixtureChange {
            starts_at: Some(new_date),
            status: FixtureStatus::Postponed,
            ..FixtureChange::from(&fixture)
        },
        Some(secretary),
    )
    .await
    .unwrap();
    assert_eq!(postponed.starts_at, Some(new_date));
    assert_eq!(db.fixture(l.id, l.fixture()).await.unwrap(), postponed);
    let walkover = boneyard::app::fixtures::change(
        &db,
        l.id,
        l.fixture(),
        &FixtureChange {
            status: FixtureStatus::Walkover,
            conceded_by: Some(Side::Away),
            ..FixtureChange::from(&postponed)
        },
        None,
    )
    .await
    .unwrap();
    assert_eq!(walkover.conceded_by, Some(Side::Away));
    let bad = boneyard::app::fixtures::change(
        &db,
        l.id,
        l.fixture(),
        &FixtureChange {
            status: FixtureStatus::Played,
            ..FixtureChange::from(&walkover)
        },
        None,
    )
    .await;
    assert!(
        matches!(bad, Err(DbError::Refused(Refusal::WalkoverSide))),
        "{bad:?}"
    );

    let audit = db
        .audit_entries(l.id, "fixture", l.fixture().0)
        .await
        .unwrap();
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[0].user_id, Some(secretary));
    let before: Fixture = serde_json::from_str(audit[0].before.as_deref().unwrap()).unwrap();
    let after: Fixture = serde_json::from_str(audit[0].after.as_deref().unwrap()).unwrap();
    assert_eq!(before, fixture);
    assert_eq!(after, postponed);
    assert_eq!(db.audit_log(l.id, 10).await.unwrap()[0], audit[1]);

    // The same team on both sides is refused by the schema.
    let same = db
        .create_fixture(
            l.id,
            &NewFixture {
                season_id: l.season,
                division_id: l.division,
                round: 2,
                starts_at: None,
                home_team_id: l.home(),
                away_team_id: l.home(),
                venue_id: None,
            },
        )
        .await;
    assert!(matches!(same, Err(DbError::Check(_))), "{same:?}");
}

async fn penalties_and_fines(db: Db) {
    let l = LeagueBuilder::home_and_away("pf").build(&db).await;
    let late_card = l.late_card(&db).await;
    let fine_kind = db
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
    assert_eq!(
        db.penalty_kinds(l.id).await.unwrap(),
        vec![fine_kind.clone(), late_card.clone()]
    );

    let secretary = db.create_user("pf-sec", "hash").await.unwrap().id;
    let penalty = boneyard::app::penalties::record(
        &db,
        l.id,
        &NewPenalty {
            season_id: l.season,
            fixture_id: Some(l.fixture()),
            team_id: Some(l.away()),
            player_id: None,
            kind_id: late_card.id,
            amount: 2,
            note: "card a week late".into(),
        },
        Some(secretary),
    )
    .await
    .unwrap();
    assert_eq!(penalty.recorded_by, Some(secretary));
    assert_eq!(penalty.voided_at, None);
    assert_eq!(db.penalty(l.id, penalty.id).await.unwrap(), penalty);
    let on_player = boneyard::app::penalties::record(
        &db,
        l.id,
        &NewPenalty {
            season_id: l.season,
            fixture_id: None,
            team_id: None,
            player_id: Some(l.home_players()[1]),
            kind_id: fine_kind.id,
            amount: 500,
            note: String::new(),
        },
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        db.penalties(l.id, l.season).await.unwrap(),
        vec![penalty.clone(), on_player.clone()]
    );
    let both = boneyard::app::penalties::record(
        &db,
        l.id,
        &NewPenalty {
            season_id: l.season,
            fixture_id: None,
            team_id: Some(l.home()),
            player_id: Some(l.home_players()[1]),
            kind_id: fine_kind.id,
            amount: 1,
            note: String::new(),
        },
        None,
    )
    .await;
    assert!(
        matches!(both, Err(DbError::Refused(Refusal::PenaltyTarget))),
        "{both:?}"
    );

    // Withdrawn, then reinstated: never deleted, each step audited.
    let voided = db
        .void_penalty(l.id, penalty.id, true, Some(secretary))
        .await
        .unwrap();
    assert!(voided.voided_at.is_some());
    let back = db
        .void_penalty(l.id, penalty.id, false, None)
        .await
        .unwrap();
    assert_eq!(back, penalty);
    let audit = db
        .audit_entries(l.id, "penalty", penalty.id.0)
        .await
        .unwrap();
    assert_eq!(
        audit.iter().map(|a| a.action.as_str()).collect::<Vec<_>>(),
        ["record", "void", "reinstate"]
    );

    // The fines ledger, in pence: a fine-type penalty wrote its line with
    // it, in the same transaction; other lines are added on their own.
    let ledger = db.fines(l.id).await.unwrap();
    assert_eq!(ledger.len(), 1, "{ledger:?}");
    let line = &ledger[0];
    assert_eq!(
        (
            line.penalty_id,
            line.player_id,
            line.amount_pence,
            line.reason.as_str()
        ),
        (Some(on_player.id), Some(l.home_players()[1]), 500, "Fine")
    );
    let fine = boneyard::app::penalties::add_fine(
        &db,
        l.id,
        &NewFine {
            team_id: None,
            player_id: Some(l.home_players()[1]),
            penalty_id: None,
            amount_pence: 500,
            reason: "phone at the table".into(),
        },
        None,
    )
    .await
    .unwrap();
    assert_eq!(fine.paid_at, None);
    let paid_at: DateTime<Utc> = "2026-11-02T20:00:00Z".parse().unwrap();
    let paid = db
        .set_fine_paid(l.id, fine.id, Some(paid_at), None)
        .await
        .unwrap();
    assert_eq!(paid.paid_at, Some(paid_at));
    assert_eq!(db.fines(l.id).await.unwrap(), vec![line.clone(), paid]);
    assert_eq!(
        db.audit_entries(l.id, "fine", fine.id.0)
            .await
            .unwrap()
            .len(),
        2
    );
}

async fn users_and_roles(db: Db) {
    let l = LeagueBuilder::home_and_away("ur").build(&db).await;
    let user = db
        .create_user("Ann", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")
        .await
        .unwrap();
    assert_eq!(db.user(user.id).await.unwrap(), user);
    assert_eq!(db.user_by_username("ann").await.unwrap(), user);
    assert!(!format!("{user:?}").contains("argon2"));
    db.set_password_hash(user.id, "new").await.unwrap();
    assert_eq!(db.user(user.id).await.unwrap().password_hash, "new");
    assert!(matches!(
        db.user_by_username("nobody").await,
        Err(DbError::NotFound(_))
    ));

    let admin = db
        .grant_role(&NewRole::administrator(user.id), None)
        .await
        .unwrap();
    let secretary = db
        .grant_role(&NewRole::secretary(user.id, l.id), Some(user.id))
        .await
        .unwrap();
    let captain = db
        .grant_role(
            &NewRole::captain(user.id, l.id, l.season, l.home()),
            Some(user.id),
        )
        .await
        .unwrap();
    let player = db
        .grant_role(
            &NewRole::player(user.id, l.id, l.home_players()[0]),
            Some(user.id),
        )
        .await
        .unwrap();
    assert_eq!(admin.kind, RoleKind::Administrator);
    assert_eq!(captain.team_id, Some(l.home()));
    assert_eq!(
        db.user_roles(user.id).await.unwrap(),
        vec![
            admin.clone(),
            secretary.clone(),
            captain.clone(),
            player.clone()
        ]
    );
    assert_eq!(
        db.league_roles(l.id).await.unwrap(),
        vec![secretary.clone(), captain.clone(), player]
    );
    // The same role twice is a unique violation; a role missing its league
    // breaks the schema's checks.
    assert!(matches!(
        db.grant_role(&NewRole::secretary(user.id, l.id), None)
            .await,
        Err(DbError::Unique(_))
    ));
    let no_league = NewRole {
        league_id: None,
        ..NewRole::secretary(user.id, l.id)
    };
    assert!(matches!(
        db.grant_role(&no_league, None).await,
        Err(DbError::Check(_))
    ));

    let other = db
        .create_league(&NewLeague {
            name: "Other".into(),
            short_name: "ur-other".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(matches!(
        db.revoke_role(Some(other.id), captain.id, None).await,
        Err(DbError::NotFound(_))
    ));
    assert!(matches!(
        db.revoke_role(None, captain.id, None).await,
        Err(DbError::NotFound(_))
    ));
    db.revoke_role(Some(l.id), captain.id, Some(user.id))
        .await
        .unwrap();
    assert_eq!(db.user_roles(user.id).await.unwrap().len(), 3);
    let audit = db.audit_entries(l.id, "role", captain.id.0).await.unwrap();
    assert_eq!(
        audit.iter().map(|a| a.action.as_str()).collect::<Vec<_>>(),
        ["grant", "revoke"]
    );
}

async fn duplicates_are_unique_violations(db: Db) {
    let l = LeagueBuilder::home_and_away("du").build(&db).await;
    let again = db
        .create_league(&NewLeague {
            name: "Another".into(),
            short_name: "du".into(),
            ..Default::default()
        })
        .await;
    assert!(matches!(again, Err(DbError::Unique(_))), "{again:?}");
    assert!(matches!(
        db.create_user("ANN", "h")
            .await
            .and(db.create_user("ann", "h").await),
        Err(DbError::Unique(_))
    ));
    assert!(matches!(
        db.create_player(l.id, "du player 00").await,
        Err(DbError::Unique(_))
    ));
    // A player cannot play for two teams in one season.
    let twice = boneyard::app::registrations::register_player(
        &db,
        l.id,
        l.season,
        l.away(),
        l.home_players()[0],
    )
    .await;
    assert!(matches!(twice, Err(DbError::Unique(_))), "{twice:?}");
}
