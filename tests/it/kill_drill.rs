//! The kill drill: the real server binary on a SQLite file, driven through
//! HTTP with operations that write several records (a secretary's result:
//! the version, its approval, the fixture marked played; a fine: the
//! penalty and its ledger line), killed with SIGKILL at random moments,
//! restarted, and checked each time for an operation left half-done
//! (issue 12).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::simulate::Rng;
use std::process::{Child, Command};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::harness::{LeagueBuilder, PASSWORD};
use crate::web::results::{Match, simulated_card};

const ROUNDS: usize = 20;
const WORKERS: usize = 3;
const FIXTURES: usize = 250;

/// A folder removed at the end.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One HTTP/1.1 exchange over a fresh connection: the status, the
/// `Location`, the body; an error when the server died under it.
async fn exchange(
    port: u16,
    cookie: &Option<String>,
    method: &str,
    path: &str,
    form: Option<&[(String, String)]>,
) -> std::io::Result<(u16, Option<String>, Option<String>, String)> {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    let body = form
        .map(|f| serde_urlencoded::to_string(f).unwrap())
        .unwrap_or_default();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    if form.is_some() {
        head.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (headers, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no complete response"))?;
    let mut lines = headers.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let (mut location, mut set_cookie) = (None, None);
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            match name.to_ascii_lowercase().as_str() {
                "location" => location = Some(value.trim().to_owned()),
                "set-cookie" => {
                    set_cookie = Some(value.trim().split(';').next().unwrap().to_owned())
                }
                _ => {}
            }
        }
    }
    Ok((status, location, set_cookie, body.to_owned()))
}

fn csrf(body: &str) -> String {
    let marker = "name=\"csrf\" value=\"";
    let start = body.find(marker).expect("a form") + marker.len();
    body[start..].split('"').next().unwrap().to_owned()
}

struct Server {
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start(port: u16, database: &str) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database",
            database,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the boneyard binary starts");
    let begun = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            begun.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Server { child }
}

/// Signs the secretary in: the session cookie and its form token.
async fn sign_in(port: u16, username: &str) -> (Option<String>, String) {
    let (_, _, cookie, body) = exchange(port, &None, "GET", "/sign-in", None)
        .await
        .unwrap();
    let form = vec![
        ("csrf".to_owned(), csrf(&body)),
        ("username".to_owned(), username.to_owned()),
        ("password".to_owned(), PASSWORD.to_owned()),
    ];
    let (status, _, signed_in, _) = exchange(port, &cookie, "POST", "/sign-in", Some(&form))
        .await
        .unwrap();
    assert_eq!(status, 303, "sign in");
    let cookie = signed_in.or(cookie);
    let (_, _, _, body) = exchange(port, &cookie, "GET", "/", None).await.unwrap();
    (cookie, csrf(&body))
}

/// What the drill found half-done in the database: secretaries' results
/// not approved, results whose fixture is not marked played, fines
/// without their ledger line.
async fn half_done(
    database: &str,
    league: LeagueId,
    season: SeasonId,
    fine_kind: PenaltyKindId,
    secretary: UserId,
) -> Vec<String> {
    let db = Db::connect(database).await.unwrap();
    let mut found = Vec::new();
    for f in db.fixtures(league, season).await.unwrap() {
        let versions = db.result_versions(league, f.id).await.unwrap();
        if !versions.is_empty() && f.status == FixtureStatus::Scheduled {
            found.push(format!(
                "fixture {} has a result but is still scheduled",
                f.id
            ));
        }
        for v in versions.iter().filter(|v| v.created_by == Some(secretary)) {
            if (v.status, v.status_note.as_str())
                != (ResultStatus::Approved, "entered by a secretary")
            {
                found.push(format!(
                    "fixture {} version {}: a secretary's result left {}",
                    f.id, v.version, v.status
                ));
            }
        }
    }
    let fines = db.fines(league).await.unwrap();
    for p in db.penalties(league, season).await.unwrap() {
        if p.kind_id == fine_kind && !fines.iter().any(|f| f.penalty_id == Some(p.id)) {
            found.push(format!(
                "penalty {} is a fine with no line in the ledger",
                p.id
            ));
        }
    }
    db.close().await;
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killed_at_random_the_server_leaves_nothing_half_done() {
    let dir = TempDir(std::env::temp_dir().join(format!("boneyard-drill-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let database = format!("sqlite://{}", dir.0.join("drill.db").display());

    // A league whose fixtures are all in the past, and a fine to record.
    let db = Db::connect(&database).await.unwrap();
    let format = MatchFormat::with_boards(2, 1, 1);
    let built = LeagueBuilder::new("drill")
        .boards(format.clone())
        .teams(&["Crown", "Anchor"])
        .fixtures(FIXTURES)
        .starting_at(now() - chrono::Duration::weeks(FIXTURES as i64 + 2))
        .build(&db)
        .await;
    let fine_kind = db
        .add_penalty_kind(
            built.id,
            &NewPenaltyKind {
                code: "drill-fine".into(),
                name: "Fine".into(),
                effect: PenaltyEffect::Fine,
                amount: 500,
            },
        )
        .await
        .unwrap()
        .id;
    let secretary = db.user_by_username(&built.secretary).await.unwrap().id;
    db.close().await;
    let cards: Vec<Vec<(String, String)>> = (0..4)
        .map(|seed| {
            let m = Match {
                short: built.short.clone(),
                fixture: built.fixtures[0],
                home: built.teams[0].players.clone(),
                away: built.teams[1].players.clone(),
                format: format.clone(),
            };
            simulated_card(&m, 900 + seed).0
        })
        .collect();
    let cards = Arc::new(cards);
    let built = Arc::new(built);

    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let next_fixture = Arc::new(AtomicUsize::new(0));
    let (started, answered, interrupted) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
    );
    let mut rng = Rng::new(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    );
    let begun = Instant::now();
    let mut found_total: Vec<(usize, String)> = Vec::new();
    for round in 0..ROUNDS {
        let mut server = start(port, &database).await;
        let (cookie, token) = sign_in(port, &built.secretary).await;
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (cookie, token, built, cards) =
                    (cookie.clone(), token.clone(), built.clone(), cards.clone());
                let (next_fixture, started, answered, interrupted) = (
                    next_fixture.clone(),
                    started.clone(),
                    answered.clone(),
                    interrupted.clone(),
                );
                tokio::spawn(async move {
                    for n in 0.. {
                        let (path, form) = if (w + n) % 3 == 2 {
                            let form = vec![
                                ("csrf".to_owned(), token.clone()),
                                ("season".to_owned(), built.season.to_string()),
                                ("kind".to_owned(), fine_kind.to_string()),
                                (
                                    "against".to_owned(),
                                    format!("team:{}", built.teams[n % 2].id),
                                ),
                                ("fixture".to_owned(), String::new()),
                                ("amount".to_owned(), String::new()),
                                ("note".to_owned(), format!("drill round {round}")),
                            ];
                            (format!("/leagues/{}/penalties", built.short), form)
                        } else {
                            let f = next_fixture.fetch_add(1, Ordering::Relaxed) % FIXTURES;
                            let mut form = vec![
                                ("csrf".to_owned(), token.clone()),
                                ("action".to_owned(), "submit".to_owned()),
                            ];
                            form.extend(cards[(w + n) % cards.len()].iter().cloned());
                            (
                                format!(
                                    "/leagues/{}/matches/{}/card",
                                    built.short, built.fixtures[f]
                                ),
                                form,
                            )
                        };
                        started.fetch_add(1, Ordering::Relaxed);
                        match exchange(port, &cookie, "POST", &path, Some(&form)).await {
                            Ok((status, _, _, body)) => {
                                assert_eq!(status, 303, "{path}: {body}");
                                answered.fetch_add(1, Ordering::Relaxed);
                            }
                            // Killed before the request reached it: nothing
                            // was started.
                            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                                started.fetch_sub(1, Ordering::Relaxed);
                                return;
                            }
                            Err(_) => {
                                interrupted.fetch_add(1, Ordering::Relaxed);
                                return;
                            }
                        }
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(40 + u64::from(rng.below(400)))).await;
        server.child.kill().unwrap(); // SIGKILL on Unix
        server.child.wait().unwrap();
        for w in workers {
            w.await.unwrap();
        }
        // Each record left half-done counts once, in the round that left it.
        for f in half_done(&database, built.id, built.season, fine_kind, secretary).await {
            if !found_total.iter().any(|(_, seen)| *seen == f) {
                found_total.push((round, f));
            }
        }
    }
    eprintln!(
        "kill drill: {ROUNDS} rounds in {:.1} s, {} operations started, {} answered, {} interrupted by SIGKILL; {} records found half-done",
        begun.elapsed().as_secs_f64(),
        started.load(Ordering::Relaxed),
        answered.load(Ordering::Relaxed),
        interrupted.load(Ordering::Relaxed),
        found_total.len()
    );
    assert!(
        interrupted.load(Ordering::Relaxed) > 0,
        "no operation was interrupted: the drill proved nothing"
    );
    assert!(
        found_total.is_empty(),
        "half-done after a kill: {found_total:#?}"
    );
}
