//! Runs each test body on a fresh SQLite file always, and on a fresh
//! Postgres database when `BONEYARD_TEST_POSTGRES` holds a server address;
//! and builds the small league most tests start from.

use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use boneyard::db::*;
use sqlx::Executor;

use crate::harness::LeagueBuilder;

/// Declares each named body as two tests, `sqlite::NAME` and
/// `postgres::NAME`.
macro_rules! on_both {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_sqlite(stringify!($name), super::$name).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $crate::support::on_postgres(stringify!($name), super::$name).await;
                }
            )+
        }
    };
}

pub(crate) use on_both;

static UNIQUE: AtomicUsize = AtomicUsize::new(0);

fn unique(name: &str) -> String {
    let mut name: String = name.chars().take(28).collect();
    name.push_str(&format!(
        "_{}_{}",
        std::process::id(),
        UNIQUE.fetch_add(1, Ordering::Relaxed)
    ));
    name
}

/// Runs `body` to completion and cleans up, then passes on its panic.
async fn run<F, Fut>(db: Db, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let outcome = tokio::spawn(body(db.clone())).await;
    db.close().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub async fn on_sqlite<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = TempDir(std::env::temp_dir().join(format!("boneyard-{}", unique(name))));
    std::fs::create_dir_all(&dir.0).unwrap();
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.expect("open SQLite");
    assert_eq!(db.backend(), "sqlite");
    run(db, body).await;
}

pub async fn on_postgres<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    static SKIPPED: Once = Once::new();
    let Ok(server) = std::env::var("BONEYARD_TEST_POSTGRES") else {
        // Straight to the stream: the test harness captures `eprintln!`.
        SKIPPED.call_once(|| {
            let _ = writeln!(
                std::io::stderr(),
                "Postgres half skipped: set BONEYARD_TEST_POSTGRES"
            );
        });
        return;
    };
    let database = format!("boneyard_{}", unique(name));
    let admin = sqlx::PgPool::connect(&server)
        .await
        .expect("connect to BONEYARD_TEST_POSTGRES");
    admin
        .execute(format!("CREATE DATABASE \"{database}\"").as_str())
        .await
        .expect("create the test database");
    let db = Db::connect(&with_database(&server, &database))
        .await
        .expect("open Postgres");
    assert_eq!(db.backend(), "postgres");
    run(db, body).await;
    admin
        .execute(format!("DROP DATABASE \"{database}\" WITH (FORCE)").as_str())
        .await
        .expect("drop the test database");
    admin.close().await;
}

/// The server address with its database name replaced.
fn with_database(server: &str, database: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (server, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    format!("{base}/{database}{query}")
}

/// A league with one season, one division, two teams at one venue, four
/// registered players a team and one fixture between them.
pub struct League {
    pub league: LeagueId,
    pub season: SeasonId,
    pub division: DivisionId,
    pub venue: VenueId,
    pub home: TeamId,
    pub away: TeamId,
    pub home_players: Vec<PlayerId>,
    pub away_players: Vec<PlayerId>,
    pub home_names: Vec<String>,
    pub away_names: Vec<String>,
    pub fixture: FixtureId,
}

pub async fn league(db: &Db, short_name: &str) -> League {
    let home = format!("{short_name} Home");
    let away = format!("{short_name} Away");
    let built = LeagueBuilder::new(short_name)
        .name(&format!("{short_name} league"))
        .rules_summary("Fives and threes to 61.")
        .contact("secretary@example.org")
        .options(serde_json::json!({"target": 61}))
        .division("Premier")
        .venue(&format!("The {short_name} Arms"), 2)
        .teams(&[&home, &away])
        .players(4)
        // "{short} player {team}{i}": the short name is the team's first word.
        .player_names(|team, t, i| {
            let short = team.rsplit_once(' ').map_or(team, |(s, _)| s);
            format!("{short} player {t}{i}")
        })
        .without_accounts()
        .starting_at("2026-09-10T19:30:00Z".parse().unwrap())
        .build(db)
        .await;
    let team = |t: usize| &built.teams[t];
    let ids = |t: usize| team(t).players.iter().map(|p| p.0).collect();
    let names = |t: usize| team(t).players.iter().map(|p| p.1.clone()).collect();
    League {
        league: built.id,
        season: built.season,
        division: built.division,
        venue: built.venue.expect("a venue was asked for"),
        home: team(0).id,
        away: team(1).id,
        home_players: ids(0),
        away_players: ids(1),
        home_names: names(0),
        away_names: names(1),
        fixture: built.fixtures[0],
    }
}

pub async fn new_fixture(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    division: DivisionId,
    home: TeamId,
    away: TeamId,
    venue: VenueId,
) -> FixtureId {
    db.create_fixture(
        league,
        &NewFixture {
            season_id: season,
            division_id: division,
            round: 1,
            starts_at: Some("2026-09-10T19:30:00Z".parse().unwrap()),
            home_team_id: home,
            away_team_id: away,
            venue_id: Some(venue),
        },
    )
    .await
    .unwrap()
    .id
}

/// A game record from its JSON, as RULES.md writes it.
pub fn record(json: serde_json::Value) -> boneyard::rules::GameRecord {
    serde_json::from_value(json).expect("a game record")
}

/// A result touching every kind of row: singles and pairs boards, a board
/// of two games, draws and first poses, every kind of hand end, muggins,
/// in-game penalties, options, and outcomes given or not.
pub fn sample_result(l: &League) -> MatchResult {
    let (h, a) = (&l.home_names, &l.away_names);
    let board1 = BoardResult {
        kind: BoardKind::Singles,
        home: vec![l.home_players[0]],
        away: vec![l.away_players[0]],
        games: vec![
            GameResult {
                record: record(serde_json::json!({
                    "format": "fives-and-threes",
                    "players": [h[0], a[0]],
                    "sides": [[h[0]], [a[0]]],
                    "draw": {h[0].as_str(): "6-1", a[0].as_str(): "4-3"},
                    "hands": [
                        {"plays": [{"by": h[0], "points": 2}, {"by": a[0], "points": 8},
                                   {"by": h[0], "points": 1, "out": true}],
                         "end": {"out": h[0]}},
                        {"plays": [], "end": {"blocked": {h[0].as_str(): 9, a[0].as_str(): 4}}},
                        {"plays": [{"by": a[0], "points": 4}]}
                    ]
                })),
                outcome: Some(GameOutcome {
                    totals: [3, 12],
                    winner: None,
                    finished: false,
                    next_pose: Some(a[0].clone()),
                }),
                score_only: false,
            },
            GameResult {
                record: record(serde_json::json!({
                    "format": "fives-and-threes",
                    "players": [a[0], h[0]],
                    "sides": [[a[0]], [h[0]]],
                    "first_pose": a[0],
                    "options": {"target": 61, "exact_finish": true},
                    "hands": []
                })),
                outcome: None,
                score_only: false,
            },
        ],
        conceded_by: None,
    };
    let board2 = BoardResult {
        kind: BoardKind::Singles,
        home: vec![l.home_players[1]],
        away: vec![l.away_players[1]],
        games: vec![GameResult {
            record: record(serde_json::json!({
                "format": "all-fives",
                "players": [h[1], a[1]],
                "sides": [[h[1]], [a[1]]],
                "draw": {},
                "options": {"penalty_to": "offender", "penalty_points": 50},
                "penalties": [
                    {"player": a[1], "kind": "talking", "before_hand": 2},
                    {"player": h[1], "kind": "exposed", "before_hand": 1}
                ],
                "hands": [
                    {"plays": [{"by": h[1], "points": 10, "muggins": true},
                               {"by": a[1], "points": 15}],
                     "end": {"out": a[1], "left": {h[1].as_str(): 12}}},
                    {"plays": [], "end": {"out": h[1]}},
                    {"plays": [{"by": h[1], "points": 5}], "end": {"blocked": {}}}
                ]
            })),
            outcome: Some(GameOutcome {
                totals: [250, 80],
                winner: Some(0),
                finished: true,
                next_pose: None,
            }),
            score_only: false,
        }],
        conceded_by: None,
    };
    let board3 = BoardResult {
        kind: BoardKind::Pairs,
        home: vec![l.home_players[3], l.home_players[2]],
        away: vec![l.away_players[2], l.away_players[3]],
        games: vec![GameResult {
            record: record(serde_json::json!({
                "format": "hands-won",
                "players": [h[2], a[2], h[3], a[3]],
                "sides": [[a[3], a[2]], [h[2], h[3]]],
                "draw": {h[2].as_str(): "6-6", a[2].as_str(): "0-0", h[3].as_str(): "1-6"},
                "penalties": [{"player": h[3], "kind": "late", "before_hand": 1, "minutes": 3}],
                "hands": [
                    {"plays": [], "end": {"out": a[2]}},
                    {"plays": [], "end": {"abandoned": true}},
                    {"plays": [], "end": {"blocked": {h[2].as_str(): 3, a[2].as_str(): 3,
                                                       h[3].as_str(): 10, a[3].as_str(): 0}}}
                ]
            })),
            outcome: Some(GameOutcome {
                totals: [3, 0],
                winner: None,
                finished: false,
                next_pose: Some(h[2].clone()),
            }),
            score_only: false,
        }],
        conceded_by: None,
    };
    MatchResult {
        boards: vec![board1, board2, board3],
    }
}

/// A division JSON table row's numbers, in the order of a table line.
pub const TABLE_JSON_KEYS: [&str; 12] = [
    "played",
    "won",
    "drawn",
    "lost",
    "boards_for",
    "boards_against",
    "games_for",
    "games_against",
    "pegs_for",
    "pegs_against",
    "points_deducted",
    "points",
];
