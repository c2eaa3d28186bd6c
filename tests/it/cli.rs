//! `boneyard score` as a user runs it: the examples, standard input, and
//! one clear message with exit code 2 for anything it cannot score.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn boneyard(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run boneyard");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.unwrap_or_default())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn score(file: &str) -> Value {
    let out = boneyard(&["score", file], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The expected results beside the examples were checked against an
/// independent recount when the examples were made; the facts each
/// example exists to show are asserted here in words too.
#[test]
fn every_example_scores_as_its_result_file_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !name.ends_with(".json") || name.ends_with(".result.json") {
            continue;
        }
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(name.replace(".json", ".result.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(score(&format!("examples/{name}")), expected, "{name}");
        seen += 1;
    }
    assert!(seen >= 3, "an example per format");
}

#[test]
fn fives_and_threes_pairs_example_wins_at_exactly_61_after_a_disregarded_play() {
    let o = score("examples/fives-and-threes-pairs.json");
    assert_eq!(o["totals"], serde_json::json!([59, 61]));
    assert_eq!(o["winner"], 1);
    assert_eq!(o["hands"][3]["disregarded"], serde_json::json!([8]));
    assert_eq!(
        o["hands"][0]["posed_by"], "Bob",
        "6-4 beats 5-5 in the draw"
    );
}

#[test]
fn all_fives_example_passes_250_with_a_block_and_a_penalty() {
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string("examples/all-fives-pairs.json").unwrap())
            .unwrap();
    assert!(
        record["penalties"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    );
    assert!(
        record["hands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["end"]["blocked"].is_object())
    );
    let o = score("examples/all-fives-pairs.json");
    assert_eq!(o["winner"], 0);
    assert!(o["totals"][0].as_u64().unwrap() >= 250);
}

#[test]
fn hands_won_example_has_a_derby_and_a_late_arrival() {
    let o = score("examples/hands-won-set.json");
    let worth: Vec<u64> = o["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["worth"].as_u64().unwrap())
        .collect();
    assert!(worth.contains(&0) && worth.contains(&2), "{worth:?}");
    assert_eq!(o["totals"][1], 6);
    assert_eq!(o["players"]["Dan"]["penalty_games"], 2, "5 minutes late");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let text = std::fs::read("examples/hands-won-set.json").unwrap();
    let out = boneyard(&["score", "-"], Some(&text));
    assert!(out.status.success());
    let o: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(o, score("examples/hands-won-set.json"));
}

#[test]
fn a_bad_record_gets_one_line_on_stderr_and_exit_2() {
    let mut record: Value = serde_json::from_str(
        &std::fs::read_to_string("examples/fives-and-threes-pairs.json").unwrap(),
    )
    .unwrap();
    record["hands"][1]["plays"][2]["points"] = 5.into();
    let out = boneyard(&["score", "-"], Some(record.to_string().as_bytes()));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("hand 2, play 3") && err.contains("not 5"),
        "{err}"
    );
}

#[test]
fn unreadable_input_is_refused_without_a_panic() {
    for (args, stdin, says) in [
        (vec!["score", "no/such/file.json"], None, "cannot read"),
        (vec!["score", "-"], Some(&b"\xff\xfe"[..]), "not UTF-8"),
        (vec!["score", "-"], Some(&b""[..]), "not a game record"),
        (
            vec!["score", "-"],
            Some(&b"[1, 2, 3]"[..]),
            "not a game record",
        ),
        (
            vec!["score", "-"],
            Some(&b"{\"format\": 1e999}"[..]),
            "`format`: number out of range at line 1",
        ),
        (
            vec!["score", "-"],
            Some(&b"{\"format\": \"all-fives\""[..]),
            "EOF",
        ),
    ] {
        let out = boneyard(&args, stdin);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn simulate_prints_a_record_that_scores() {
    let out = boneyard(&["simulate", "--format", "all-fives", "--seed", "7"], None);
    assert!(out.status.success());
    let scored = boneyard(&["score", "-"], Some(&out.stdout));
    assert!(
        scored.status.success(),
        "{}",
        String::from_utf8_lossy(&scored.stderr)
    );
    let o: Value = serde_json::from_slice(&scored.stdout).unwrap();
    assert_eq!(o["finished"], true);
}

#[test]
fn backup_copies_a_sqlite_database_and_refuses_to_overwrite() {
    let dir = std::env::temp_dir().join(format!("boneyard-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let live = format!("sqlite://{}", dir.join("live.db").display());
    let copy = dir.join("copy.db");
    let copy_name = copy.to_str().unwrap();
    let added = boneyard(
        &["user", "add", "alice", "--admin", "--database", &live],
        Some(b"a long enough password\n"),
    );
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );

    let out = boneyard(&["backup", "--database", &live, copy_name], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The copy is a database of its own with what the original held.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let users = runtime.block_on(async {
        let db = boneyard::db::Db::connect(&format!("sqlite://{copy_name}"))
            .await
            .unwrap();
        db.user_by_username("alice").await.map(|u| u.username)
    });
    assert_eq!(users.unwrap(), "alice");

    // A second backup to the same file is refused and leaves it as it was.
    let before = std::fs::read(&copy).unwrap();
    let again = boneyard(&["backup", "--database", &live, copy_name], None);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success());
    assert!(err.contains("exists already"), "{err}");
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `boneyard score FILE | head`: the reader goes before the answer is
/// written. The command ends quietly, as other programs do, with no panic
/// on standard error.
#[test]
fn a_reader_that_stops_reading_ends_the_command_quietly() {
    for args in [
        &["score", "examples/all-fives-pairs.json"][..],
        &["simulate", "--format", "all-fives", "--seed", "7"][..],
    ] {
        // A pipe whose reading end is closed before the command starts, so
        // its first write meets the broken pipe every time.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_boneyard"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
    }
}
