//! Writers at once: nothing lost, no "database is locked".

use boneyard::db::*;

use crate::harness::results::sample_result;
use crate::harness::{Built, LeagueBuilder};
use crate::support::on_both;

on_both!(concurrent_writers_lose_nothing);

const ROUNDS: usize = 8;

async fn concurrent_writers_lose_nothing(db: Db) {
    let l = LeagueBuilder::home_and_away("cw").build(&db).await;
    // Each task has fixtures of its own, and both correct the shared one.
    let mut own = Vec::new();
    for _ in 0..2 {
        let mut fixtures = Vec::new();
        for _ in 0..ROUNDS {
            fixtures.push(l.add_fixture(&db, l.home(), l.away()).await);
        }
        own.push(fixtures);
    }
    let l = std::sync::Arc::new(l);
    let result = sample_result(&l);

    let writer = |fixtures: Vec<FixtureId>| {
        let (db, l, result) = (db.clone(), l.clone(), result.clone());
        tokio::spawn(async move {
            for fixture in fixtures {
                boneyard::app::results::write(&db, l.id, fixture, &result, None).await?;
                boneyard::app::results::write(&db, l.id, l.fixture(), &result, None).await?;
                // A reader in between, on the pool the writers do not use.
                db.result(l.id, l.fixture()).await?;
            }
            Ok::<_, DbError>(())
        })
    };
    let tasks: Vec<_> = own.iter().cloned().map(writer).collect();
    for task in tasks {
        if let Err(e) = task.await.unwrap() {
            panic!("a writer failed: {e}");
        }
    }

    let check = |l: &Built| l.fixture();
    let versions = db.result_versions(l.id, check(&l)).await.unwrap();
    assert_eq!(
        versions.iter().map(|v| v.version).collect::<Vec<_>>(),
        (1..=2 * ROUNDS as i64).collect::<Vec<_>>()
    );
    for fixture in own.into_iter().flatten() {
        let stored = db.result(l.id, fixture).await.unwrap().unwrap();
        assert_eq!(stored.version.version, 1);
        assert_eq!(stored.result, result);
    }
    assert_eq!(
        db.audit_entries(l.id, "result", l.fixture().0)
            .await
            .unwrap()
            .len(),
        2 * ROUNDS
    );
}
