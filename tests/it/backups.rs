//! Backups by themselves (issue 28): copies taken on a schedule while
//! writes go on, the newest N kept, each passing SQLite's own integrity
//! check and holding the league; Postgres is sent to pg_dump.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use boneyard::backups::{Schedule, take};
use boneyard::db::*;
use sqlx::Connection;

use crate::harness::LeagueBuilder;
use crate::support::on_both;

on_both!(scheduled_backups_keep_the_newest_sound_copies_while_writes_go_on);

async fn scheduled_backups_keep_the_newest_sound_copies_while_writes_go_on(db: Db) {
    let built = LeagueBuilder::new("kept").build(&db).await;
    // Named by the database too: the Postgres half, run beside this one,
    // clears its own folder, and league ids of the two may be equal (it
    // once deleted this folder while a copy was being written into it).
    let dir = std::env::temp_dir().join(format!(
        "boneyard-backups-{}-{}-{}",
        db.backend(),
        std::process::id(),
        built.id
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let schedule = Schedule {
        every: std::time::Duration::from_secs(3600),
        keep: 3,
        dir: dir.clone(),
    };
    if matches!(db, Db::Postgres(_)) {
        let refused = take(&db, &schedule, chrono::Utc::now()).await.unwrap_err();
        assert!(refused.contains("pg_dump"), "{refused}");
        return;
    }
    // A writer adding players all the while.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (db, stop, league) = (db.clone(), stop.clone(), built.id);
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                db.create_player(league, &format!("Player {n}"))
                    .await
                    .unwrap();
                n += 1;
            }
            n
        })
    };
    let start: chrono::DateTime<chrono::Utc> = "2026-11-20T09:00:00Z".parse().unwrap();
    let mut taken = Vec::new();
    for day in 0..5 {
        let at = start + chrono::Duration::days(day);
        taken.push(take(&db, &schedule, at).await.unwrap());
    }
    stop.store(true, Ordering::Relaxed);
    let written = writer.await.unwrap();
    assert!(written > 0, "writes went on during the copies");
    // The newest three are kept, and only they.
    let mut kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    kept.sort();
    assert_eq!(kept, taken[2..].to_vec());
    // A file of another name in the folder is never touched.
    let other = dir.join("notes.txt");
    std::fs::write(&other, "mine").unwrap();
    take(&db, &schedule, start + chrono::Duration::days(9))
        .await
        .unwrap();
    assert!(other.exists());
    // Each copy passes SQLite's integrity check and holds the league.
    let mut players = Vec::new();
    for path in &taken[3..] {
        let url = format!("sqlite://{}?mode=ro", path.display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let check: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&mut c)
            .await
            .unwrap();
        assert_eq!(check, "ok", "{}", path.display());
        let leagues: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM leagues WHERE short_name = 'kept'")
                .fetch_one(&mut c)
                .await
                .unwrap();
        assert_eq!(leagues, 1);
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players")
            .fetch_one(&mut c)
            .await
            .unwrap();
        players.push(n);
    }
    assert!(
        players.windows(2).all(|w| w[0] <= w[1]),
        "later copies hold at least as much: {players:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `boneyard restore`'s checks: a sound copy goes in place (the old file
/// kept beside it) and opens with its records; a damaged copy, one made by
/// a newer binary, and a file that is not a Boneyard database are refused,
/// leaving the database as it was.
#[tokio::test]
async fn restore_puts_a_sound_copy_in_place_and_refuses_a_damaged_or_newer_one() {
    use boneyard::db::backup::{check_copy, restore};
    let dir = std::env::temp_dir().join(format!("boneyard-restore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join("live.db");
    let db = Db::connect(&format!("sqlite://{}", live.display()))
        .await
        .unwrap();
    LeagueBuilder::new("before").build(&db).await;
    let copy = dir.join("copy.db");
    db.backup_to(&copy).await.unwrap();
    assert!(check_copy(&copy).await.unwrap() >= 24);

    // Damaged: a page in the middle overwritten.
    let damaged = dir.join("damaged.db");
    let mut bytes = std::fs::read(&copy).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle..middle + 4096].fill(0xA5);
    std::fs::write(&damaged, &bytes).unwrap();
    let why = check_copy(&damaged).await.unwrap_err();
    assert!(
        why.contains("damaged") || why.contains("cannot be opened"),
        "{why}"
    );

    // Too new: a migration this binary does not know.
    let newer = dir.join("newer.db");
    std::fs::copy(&copy, &newer).unwrap();
    {
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{}", newer.display()))
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, installed_on, success, checksum, execution_time) \
             VALUES (9999, 'from the future', '2030-01-01', TRUE, x'00', 0)",
        )
        .execute(&mut c)
        .await
        .unwrap();
    }
    let why = check_copy(&newer).await.unwrap_err();
    assert!(why.contains("newer Boneyard (migration 9999)"), "{why}");

    // Not ours at all.
    let stranger = dir.join("stranger.db");
    {
        let mut c =
            sqlx::SqliteConnection::connect(&format!("sqlite://{}?mode=rwc", stranger.display()))
                .await
                .unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&mut c)
            .await
            .unwrap();
    }
    assert!(
        check_copy(&stranger)
            .await
            .unwrap_err()
            .contains("not a Boneyard database")
    );

    // A refused restore leaves the live file alone; a sound one replaces it.
    LeagueBuilder::new("after").build(&db).await;
    db.close().await;
    assert!(restore(&newer, &live).await.is_err());
    assert!(live.exists() && !dir.join("live.db.before-restore").exists());
    let kept = restore(&copy, &live).await.unwrap();
    assert_eq!(kept, Some(dir.join("live.db.before-restore")));
    let back = Db::connect(&format!("sqlite://{}", live.display()))
        .await
        .unwrap();
    let names: Vec<String> = back
        .leagues()
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.short_name)
        .collect();
    assert_eq!(names, ["before"], "the copy's records, not the later ones");
    let _ = std::fs::remove_dir_all(&dir);
}
