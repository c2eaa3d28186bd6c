//! Match results: read back identical, corrected as versions, restored.

use boneyard::db::*;
use boneyard::league::refusal::Refusal;
use serde_json::Value;

use crate::harness::results::{record, sample_result};
use crate::harness::{Built, LeagueBuilder};
use crate::support::on_both;

on_both!(
    match_result_reads_back_identical,
    correction_is_versioned_and_restorable,
    status_changes_are_audited,
    results_that_cannot_be_stored_are_refused_whole,
    season_rules_are_fixed_once_results_exist,
    season_results_and_player_games,
    kept_results_read_as_fresh_ones_after_a_rename_and_a_correction,
    kept_rated_games_read_as_fresh_ones_after_a_correction_a_new_date_and_a_void,
);

async fn match_result_reads_back_identical(db: Db) {
    let l = LeagueBuilder::home_and_away("rb").build(&db).await;
    assert!(db.result(l.id, l.fixture()).await.unwrap().is_none());
    let written = sample_result(&l);
    let version = boneyard::app::results::write(&db, l.id, l.fixture(), &written, None)
        .await
        .unwrap();
    assert_eq!(version.version, 1);
    assert_eq!(version.status, ResultStatus::Entered);
    assert_eq!(version.format, "fives-and-threes");
    assert_eq!(version.options["target"], 61);
    assert_eq!(version.restored_from, None);

    let stored = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(stored.version, version);
    assert_eq!(stored.result, written);
    // And through JSON, as the web app would export it.
    assert_eq!(
        serde_json::to_value(&stored.result).unwrap(),
        serde_json::to_value(&written).unwrap()
    );
}

/// A result with one board, whose one game scores `points` for home.
fn small_result(l: &Built, points: i64) -> MatchResult {
    let (h, a) = (&l.home_names()[0], &l.away_names()[0]);
    MatchResult {
        boards: vec![BoardResult {
            kind: BoardKind::Singles,
            home: vec![l.home_players()[0]],
            away: vec![l.away_players()[0]],
            games: vec![GameResult {
                record: record(serde_json::json!({
                    "format": "fives-and-threes",
                    "players": [h, a],
                    "sides": [[h], [a]],
                    "first_pose": h,
                    "hands": [{"plays": [{"by": h, "points": points}]}]
                })),
                outcome: None,
                score_only: false,
            }],
            conceded_by: None,
        }],
    }
}

async fn correction_is_versioned_and_restorable(db: Db) {
    let l = LeagueBuilder::home_and_away("cv").build(&db).await;
    let secretary = db.create_user("sec", "hash").await.unwrap().id;
    let first = sample_result(&l);
    let corrected = small_result(&l, 8);

    boneyard::app::results::write(&db, l.id, l.fixture(), &first, None)
        .await
        .unwrap();
    let v2 = boneyard::app::results::write(&db, l.id, l.fixture(), &corrected, Some(secretary))
        .await
        .unwrap();
    assert_eq!(v2.version, 2);
    assert_eq!(v2.created_by, Some(secretary));

    // Reads give the correction; the first entry is still there.
    let current = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(current.version.version, 2);
    assert_eq!(current.result, corrected);
    let old = db.result_version(l.id, l.fixture(), 1).await.unwrap();
    assert_eq!(old.result, first);

    // The audit says who, when, before and after.
    let audit = db
        .audit_entries(l.id, "result", l.fixture().0)
        .await
        .unwrap();
    assert_eq!(
        audit.iter().map(|a| a.action.as_str()).collect::<Vec<_>>(),
        ["enter", "correct"]
    );
    assert!(audit[0].before.is_none());
    let correction = &audit[1];
    assert_eq!(correction.user_id, Some(secretary));
    assert!(correction.at >= v2.created_at - chrono::Duration::seconds(5));
    let before: StoredResult = serde_json::from_str(correction.before.as_deref().unwrap()).unwrap();
    let after: StoredResult = serde_json::from_str(correction.after.as_deref().unwrap()).unwrap();
    assert_eq!(before.version.version, 1);
    assert_eq!(before.result, first);
    assert_eq!(after.version, v2);
    assert_eq!(after.result, corrected);

    // Restore version 1: a new version 3 copying it.
    let v3 = boneyard::app::results::restore_version(&db, l.id, l.fixture(), 1, Some(secretary))
        .await
        .unwrap();
    assert_eq!(v3.version, 3);
    assert_eq!(v3.restored_from, Some(1));
    let current = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(current.version, v3);
    assert_eq!(current.result, first);
    let versions = db.result_versions(l.id, l.fixture()).await.unwrap();
    assert_eq!(
        versions.iter().map(|v| v.version).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    // Every version keeps its rows.
    assert_eq!(
        db.result_version(l.id, l.fixture(), 2)
            .await
            .unwrap()
            .result,
        corrected
    );
    let audit = db
        .audit_entries(l.id, "result", l.fixture().0)
        .await
        .unwrap();
    let restore = audit.last().unwrap();
    assert_eq!(restore.action, "restore");
    let after: Value = serde_json::from_str(restore.after.as_deref().unwrap()).unwrap();
    assert_eq!(after["version"]["restored_from"], 1);

    // A version that does not exist cannot be restored.
    assert!(matches!(
        boneyard::app::results::restore_version(&db, l.id, l.fixture(), 9, None).await,
        Err(DbError::NotFound(_))
    ));
}

async fn status_changes_are_audited(db: Db) {
    let l = LeagueBuilder::home_and_away("st").build(&db).await;
    assert!(matches!(
        boneyard::app::results::set_status(
            &db,
            l.id,
            l.fixture(),
            ResultStatus::Approved,
            "",
            None
        )
        .await,
        Err(DbError::NotFound(_))
    ));
    boneyard::app::results::write(&db, l.id, l.fixture(), &small_result(&l, 2), None)
        .await
        .unwrap();
    let disputed = boneyard::app::results::set_status(
        &db,
        l.id,
        l.fixture(),
        ResultStatus::Disputed,
        "board 1 was 3-0",
        None,
    )
    .await
    .unwrap();
    assert_eq!(disputed.status, ResultStatus::Disputed);
    assert_eq!(disputed.status_note, "board 1 was 3-0");
    let approved = boneyard::app::results::set_status(
        &db,
        l.id,
        l.fixture(),
        ResultStatus::Approved,
        "",
        None,
    )
    .await
    .unwrap();
    assert_eq!(approved.version, 1);
    let current = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(current.version.status, ResultStatus::Approved);

    // A correction starts again as entered; restoring v1 brings back its
    // approval.
    let v2 = boneyard::app::results::write(&db, l.id, l.fixture(), &small_result(&l, 4), None)
        .await
        .unwrap();
    assert_eq!(v2.status, ResultStatus::Entered);
    let v3 = boneyard::app::results::restore_version(&db, l.id, l.fixture(), 1, None)
        .await
        .unwrap();
    assert_eq!(v3.status, ResultStatus::Approved);

    let actions: Vec<String> = db
        .audit_entries(l.id, "result", l.fixture().0)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.action)
        .collect();
    assert_eq!(actions, ["enter", "status", "status", "correct", "restore"]);
}

async fn results_that_cannot_be_stored_are_refused_whole(db: Db) {
    let l = LeagueBuilder::home_and_away("rf").build(&db).await;
    let other = db.create_player(l.id, "Unregistered").await.unwrap();
    let good = sample_result(&l);

    let mut unregistered = good.clone();
    unregistered.boards[2].home[0] = other.id;
    let mut wrong_side = good.clone();
    wrong_side.boards[0].home = vec![l.away_players()[3]];
    let mut wrong_count = good.clone();
    wrong_count.boards[0].home.push(l.home_players()[3]);
    let mut not_on_board = good.clone();
    not_on_board.boards[1].games[0].record.hands[0].plays[0].by = l.home_names()[0].clone();
    let mut bad_end = good.clone();
    bad_end.boards[0].games[0].record.hands[1].end = Some(boneyard::rules::EndRecord {
        abandoned: true,
        out: Some(l.home_names()[0].clone()),
        ..Default::default()
    });
    let mut no_side = good.clone();
    no_side.boards[2].games[0].record.sides[0].pop();

    // Written once good, so a refused correction must leave version 1.
    boneyard::app::results::write(&db, l.id, l.fixture(), &good, None)
        .await
        .unwrap();
    for (what, bad) in [
        ("unregistered", unregistered),
        ("wrong side", wrong_side),
        ("wrong count", wrong_count),
        ("not on board", not_on_board),
        ("bad end", bad_end),
        ("no side", no_side),
    ] {
        let err = boneyard::app::results::write(&db, l.id, l.fixture(), &bad, None).await;
        assert!(
            matches!(
                err,
                Err(DbError::Refused(
                    Refusal::Board { .. } | Refusal::Game { .. }
                ))
            ),
            "{what}: {err:?}"
        );
    }
    let current = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(current.version.version, 1);
    assert_eq!(current.result, good);
    assert_eq!(
        db.audit_entries(l.id, "result", l.fixture().0)
            .await
            .unwrap()
            .len(),
        1
    );
}

async fn season_rules_are_fixed_once_results_exist(db: Db) {
    let l = LeagueBuilder::home_and_away("sr").build(&db).await;
    let options = serde_json::json!({"target": 121})
        .as_object()
        .unwrap()
        .clone();
    let format = boneyard::rules::Format::FivesAndThrees;
    let changed = boneyard::app::seasons::set_season_rules(
        &db,
        l.id,
        l.season,
        format,
        &options,
        &Value::Null,
        None,
    )
    .await
    .unwrap();
    assert_eq!(changed.options["target"], 121);
    assert_eq!(changed.ruleset().unwrap().target, 121);
    let bad = serde_json::json!({"derby": "capped"})
        .as_object()
        .unwrap()
        .clone();
    assert!(matches!(
        boneyard::app::seasons::set_season_rules(
            &db,
            l.id,
            l.season,
            format,
            &bad,
            &Value::Null,
            None
        )
        .await,
        Err(DbError::Refused(Refusal::Rule(_)))
    ));

    boneyard::app::results::write(&db, l.id, l.fixture(), &small_result(&l, 2), None)
        .await
        .unwrap();
    // The result keeps the ruleset it was scored under...
    let stored = db.result(l.id, l.fixture()).await.unwrap().unwrap();
    assert_eq!(stored.version.options["target"], 121);
    // ...and the season's can no longer change.
    assert!(matches!(
        boneyard::app::seasons::set_season_rules(
            &db,
            l.id,
            l.season,
            format,
            &options,
            &Value::Null,
            None
        )
        .await,
        Err(DbError::Refused(Refusal::RulesFixed { .. }))
    ));
    assert_eq!(
        db.audit_entries(l.id, "season", l.season.0)
            .await
            .unwrap()
            .len(),
        1
    );
}

async fn season_results_and_player_games(db: Db) {
    let l = LeagueBuilder::home_and_away("sg").build(&db).await;
    let second = l.add_fixture(&db, l.away(), l.home()).await;
    let result = sample_result(&l);
    boneyard::app::results::write(&db, l.id, l.fixture(), &small_result(&l, 2), None)
        .await
        .unwrap();
    boneyard::app::results::write(&db, l.id, l.fixture(), &result, None)
        .await
        .unwrap();
    // Provisional results are there, but count for nothing yet.
    let all = db.season_results(l.id, l.season, false).await.unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].version.version, 2);
    assert_eq!(all[0].result, result);
    assert!(
        db.season_results(l.id, l.season, true)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(db.player_games(l.id, l.season).await.unwrap().is_empty());

    boneyard::app::results::set_status(&db, l.id, l.fixture(), ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let approved = db.season_results(l.id, l.season, true).await.unwrap();
    assert_eq!(approved.len(), 1);
    assert_eq!(approved[0].version.fixture_id, l.fixture());
    assert_ne!(approved[0].version.fixture_id, second);
    // Only board 2's game is finished: won by side 0, the home player.
    assert_eq!(
        db.player_games(l.id, l.season).await.unwrap(),
        vec![
            PlayerGames {
                player_id: l.home_players()[1],
                played: 1,
                won: 1
            },
            PlayerGames {
                player_id: l.away_players()[1],
                played: 1,
                won: 0
            },
        ]
    );
}

/// [`Db::current_results_kept`], each shared result copied out, to compare
/// with [`Db::current_results`].
async fn kept_read(
    db: &Db,
    kept: &boneyard::db::results::KeptResults,
    league: LeagueId,
    fixtures: &[FixtureId],
) -> (
    Vec<StoredResult>,
    std::collections::HashMap<PlayerId, String>,
) {
    let (results, names) = db
        .current_results_kept(kept, league, fixtures)
        .await
        .unwrap();
    let results = results
        .into_iter()
        .map(|r| StoredResult {
            version: r.version,
            result: (*r.result).clone(),
        })
        .collect();
    (results, names)
}

/// The results the honours and round-ups keep by version are the ones the
/// database gives, whatever changed since they were kept: a player's name
/// (written into every game's record) or a correction (a new version).
/// The correction comes first: a result names its players as they are.
async fn kept_results_read_as_fresh_ones_after_a_rename_and_a_correction(db: Db) {
    let l = LeagueBuilder::home_and_away("kr").build(&db).await;
    let kept = boneyard::db::results::KeptResults::default();
    let fixtures = [l.fixture()];
    boneyard::app::results::write(&db, l.id, l.fixture(), &sample_result(&l), None)
        .await
        .unwrap();
    let fresh = db.current_results(l.id, &fixtures).await.unwrap();
    assert_eq!(fresh.0.len(), 1);
    assert_eq!(kept_read(&db, &kept, l.id, &fixtures).await, fresh);
    // Read again from what is kept: the same.
    assert_eq!(kept_read(&db, &kept, l.id, &fixtures).await, fresh);

    boneyard::app::results::write(&db, l.id, l.fixture(), &small_result(&l, 8), None)
        .await
        .unwrap();
    let corrected = db.current_results(l.id, &fixtures).await.unwrap();
    assert_eq!(corrected.0[0].version.version, 2);
    assert_eq!(kept_read(&db, &kept, l.id, &fixtures).await, corrected);
    let player = l.home_players()[0];
    db.rename_player(l.id, player, "Renamed Rowe")
        .await
        .unwrap();
    let renamed = db.current_results(l.id, &fixtures).await.unwrap();
    let sides = &renamed.0[0].result.boards[0].games[0].record.sides;
    assert!(
        sides.iter().flatten().any(|n| n == "Renamed Rowe"),
        "the record names the player as renamed: {sides:?}"
    );
    assert_eq!(kept_read(&db, &kept, l.id, &fixtures).await, renamed);
}

/// The ratings read a league's games by result version, each version's
/// games read once and kept: what they read is what the database gives,
/// after a correction (entered, then approved), a played fixture moved to
/// another date (the games' order) and a fixture made void.
async fn kept_rated_games_read_as_fresh_ones_after_a_correction_a_new_date_and_a_void(db: Db) {
    use boneyard::league::ratings::RatedGame;
    let l = LeagueBuilder::home_and_away("kg")
        .fixtures(4)
        .played(3)
        .build(&db)
        .await;
    let kept = boneyard::db::ratings::KeptGames::default();
    let sorted = |mut games: Vec<RatedGame>| {
        games.sort_by_key(|g| g.key);
        games
    };
    let check = async |step: &str| {
        let fresh = sorted(db.rated_games(&[l.id]).await.unwrap());
        let read = sorted(db.rated_games_kept(&kept, &[l.id]).await.unwrap());
        assert_eq!(read, fresh, "{step}");
        fresh
    };
    let first = check("first read").await;
    assert!(!first.is_empty(), "the played fixtures' games are rated");
    assert_eq!(check("read again from what is kept").await, first);

    let corrected = l.fixtures[0];
    let replayed =
        crate::harness::builder::simulated_result(l.rules, &l.format, &l.teams[0], &l.teams[1], 99);
    boneyard::app::results::write(&db, l.id, corrected, &replayed, None)
        .await
        .unwrap();
    let entered = check("a correction entered, not approved").await;
    assert!(
        entered.len() < first.len(),
        "an entered version is not counted"
    );
    boneyard::app::results::set_status(&db, l.id, corrected, ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let approved = check("the correction approved").await;
    assert!(approved.iter().any(|g| g.key.fixture == corrected.0));

    let moved = l.fixtures[1];
    let fixture = db.fixture(l.id, moved).await.unwrap();
    let later = fixture.starts_at.unwrap() + chrono::Duration::days(60);
    let change = FixtureChange {
        starts_at: Some(later),
        ..FixtureChange::from(&fixture)
    };
    boneyard::app::fixtures::change(&db, l.id, moved, &change, None)
        .await
        .unwrap();
    let dated = check("a played fixture moved").await;
    assert!(
        dated
            .iter()
            .filter(|g| g.key.fixture == moved.0)
            .all(|g| g.key.played_at == later.timestamp())
    );

    let void = l.fixtures[2];
    let fixture = db.fixture(l.id, void).await.unwrap();
    let change = FixtureChange {
        status: FixtureStatus::Void,
        ..FixtureChange::from(&fixture)
    };
    boneyard::app::fixtures::change(&db, l.id, void, &change, None)
        .await
        .unwrap();
    let voided = check("a fixture made void").await;
    assert!(voided.iter().all(|g| g.key.fixture != void.0));
}
