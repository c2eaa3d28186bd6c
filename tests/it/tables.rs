//! Property (SQLite only): after any sequence of result entries,
//! corrections, approvals and other status changes, restores, and
//! league-points penalties recorded and voided, and cup ties between the
//! same teams played and approved, the division table as the page computes
//! it (the aggregate queries of `db::pages` and `standings::table`) equals
//! one computed from scratch here: every current approved league result's
//! game records re-scored by the engine and summed by hand, the cup's never.
//! The player table's sums of league games are checked the same way.

use std::collections::BTreeMap;

use boneyard::db::pages::{FixtureScope, deductions};
use boneyard::db::*;
use boneyard::league::match_format::{self, BoardSpec, MatchFormat};
use boneyard::league::match_score::{match_lines, scores_from_boards};
use boneyard::league::settings::SeasonSettings;
use boneyard::league::standings::{self, TieBreaker};
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, GameRecord, Ruleset, score_record};
use proptest::prelude::*;

use crate::harness::LeagueBuilder;
use crate::harness::builder::drawn_team_cup;
use crate::harness::client::Client;
use crate::harness::pages::slug;
use crate::support::{self, on_both};

const TEAMS: usize = 4;
const PLAYERS: usize = 4;
/// Round robin of four teams: three rounds of two fixtures.
const PAIRINGS: [(u32, usize, usize); 6] = [
    (1, 0, 1),
    (1, 2, 3),
    (2, 2, 0),
    (2, 3, 1),
    (3, 0, 3),
    (3, 1, 2),
];

#[derive(Debug, Clone)]
enum Op {
    /// Enter a result (a correction when there is one already).
    Write { fixture: usize, seed: u64 },
    /// Set the current version's status.
    Status { fixture: usize, status: u8 },
    /// Restore one of the fixture's earlier versions.
    Restore { fixture: usize, pick: usize },
    /// Deduct league points from a team, in a fixture or not.
    Penalty {
        team: usize,
        amount: i64,
        fixture: Option<usize>,
    },
    /// Void (or un-void) one of the penalties recorded so far.
    Void { pick: usize, void: bool },
    /// Set the season's tie-breakers to these, in this order.
    Order { rules: Vec<TieBreaker> },
    /// Play one of the cup's first-round ties, approved at once.
    Cup { tie: usize, seed: u64 },
}

fn op() -> impl Strategy<Value = Op> {
    let fixture = 0..PAIRINGS.len();
    prop_oneof![
        4 => (fixture.clone(), any::<u64>()).prop_map(|(fixture, seed)| Op::Write { fixture, seed }),
        4 => (fixture.clone(), 0u8..6).prop_map(|(fixture, status)| Op::Status { fixture, status }),
        2 => (fixture.clone(), 0usize..8).prop_map(|(fixture, pick)| Op::Restore { fixture, pick }),
        1 => (0..TEAMS, 1i64..4, prop::option::of(fixture))
            .prop_map(|(team, amount, fixture)| Op::Penalty { team, amount, fixture }),
        1 => (0usize..8, any::<bool>()).prop_map(|(pick, void)| Op::Void { pick, void }),
        2 => (0usize..2, any::<u64>()).prop_map(|(tie, seed)| Op::Cup { tie, seed }),
        1 => (Just(TieBreaker::ALL.to_vec()).prop_shuffle(), 1usize..=TieBreaker::ALL.len())
            .prop_map(|(mut rules, n)| {
                rules.truncate(n);
                Op::Order { rules }
            }),
    ]
}

/// A small match: singles best of 3, singles, pairs.
fn match_format() -> MatchFormat {
    let mut format = MatchFormat::default_for(Format::FivesAndThrees);
    format.boards = vec![
        BoardSpec {
            kind: match_format::BoardKind::Singles,
            best_of: 3,
        },
        BoardSpec {
            kind: match_format::BoardKind::Singles,
            best_of: 1,
        },
        BoardSpec {
            kind: match_format::BoardKind::Pairs,
            best_of: 1,
        },
    ];
    format
}

struct Setup {
    league: LeagueId,
    season: SeasonId,
    division: DivisionId,
    teams: Vec<TeamId>,
    /// Per team: (id, name) of its players.
    players: Vec<Vec<(PlayerId, String)>>,
    fixtures: Vec<(FixtureId, usize, usize)>,
    kind: PenaltyKindId,
    /// The first round of a team cup of the four teams: its ties' matches.
    cup: Vec<(FixtureId, usize, usize)>,
}

async fn setup(db: &Db) -> Setup {
    let names: Vec<String> = (0..TEAMS).map(|t| format!("Team {t}")).collect();
    let built = LeagueBuilder::new("tables")
        .name("Tables league")
        .rules_summary("Fives and threes to 61.")
        .contact("secretary@example.org")
        .boards(match_format())
        .division("Premier")
        .teams(&names.iter().map(String::as_str).collect::<Vec<_>>())
        .players(PLAYERS)
        .player_names(|_, t, i| format!("Player {t}{i}"))
        .fixtures(0)
        .without_accounts()
        .build(db)
        .await;
    let (league, season, division) = (built.id, built.season, built.division);
    let teams: Vec<TeamId> = built.teams.iter().map(|t| t.id).collect();
    let players: Vec<Vec<(PlayerId, String)>> =
        built.teams.iter().map(|t| t.players.clone()).collect();
    let mut fixtures = Vec::new();
    for (round, home, away) in PAIRINGS {
        let id = db
            .create_fixture(
                league,
                &NewFixture {
                    season_id: season,
                    division_id: division,
                    round: i64::from(round),
                    starts_at: None,
                    home_team_id: teams[home],
                    away_team_id: teams[away],
                    venue_id: None,
                },
            )
            .await
            .unwrap()
            .id;
        fixtures.push((id, home, away));
    }
    let kind = db
        .add_penalty_kind(
            league,
            &NewPenaltyKind {
                code: "points".into(),
                name: "Points deduction".into(),
                effect: PenaltyEffect::LeaguePoints,
                amount: 1,
            },
        )
        .await
        .unwrap()
        .id;
    let cup = drawn_team_cup(db, league, season, &teams, 14).await;
    let index = |t: TeamId| teams.iter().position(|x| *x == t).unwrap();
    let cup = db
        .fixture_lines(league, &FixtureScope::Cup(cup))
        .await
        .unwrap()
        .iter()
        .map(|f| (f.id, index(f.home_team_id), index(f.away_team_id)))
        .collect();
    Setup {
        league,
        season,
        division,
        teams,
        players,
        fixtures,
        kind,
        cup,
    }
}

/// A whole match played by the simulator; with an odd seed the away
/// players sit on side 0 of the records.
fn simulated(s: &Setup, home: usize, away: usize, seed: u64) -> MatchResult {
    let mut rng = Rng::new(seed);
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let swap = seed % 2 == 1;
    let mut result = MatchResult::default();
    let mut next = 0;
    for spec in &match_format().boards {
        let n = spec.kind.players_a_side();
        let h: Vec<&(PlayerId, String)> = (0..n).map(|j| &s.players[home][next + j]).collect();
        let a: Vec<&(PlayerId, String)> = (0..n).map(|j| &s.players[away][next + j]).collect();
        next += n;
        let (first, second) = if swap { (&a, &h) } else { (&h, &a) };
        let players: Vec<String> = (0..n)
            .flat_map(|j| [first[j].1.clone(), second[j].1.clone()])
            .collect();
        let sides: Vec<Vec<String>> = [first, second]
            .iter()
            .map(|side| side.iter().map(|p| p.1.clone()).collect())
            .collect();
        let records = simulate_board(
            &ruleset,
            &players,
            &sides,
            spec.best_of,
            &mut rng,
            &Style::default(),
        );
        result.boards.push(BoardResult {
            kind: match spec.kind {
                match_format::BoardKind::Singles => BoardKind::Singles,
                match_format::BoardKind::Pairs => BoardKind::Pairs,
            },
            home: h.iter().map(|p| p.0).collect(),
            away: a.iter().map(|p| p.0).collect(),
            games: records
                .into_iter()
                .map(|record| {
                    let o = score_record(&record).expect("the simulator plays by the rules");
                    GameResult {
                        outcome: Some(GameOutcome {
                            totals: [i64::from(o.totals[0]), i64::from(o.totals[1])],
                            winner: o.winner,
                            finished: o.finished,
                            next_pose: record.players.get(o.next_pose).cloned(),
                        }),
                        record,
                        score_only: false,
                    }
                })
                .collect(),
            conceded_by: None,
        });
    }
    result
}

/// What the test remembers of each penalty: team index, amount, voided.
struct PenaltyModel {
    id: PenaltyId,
    team: usize,
    amount: i64,
    voided: bool,
}

/// Applies `ops`, reading the division's JSON through the served app (and
/// so its kept pages) after each one, as visitors would between writes.
async fn apply(db: &Db, s: &Setup, ops: &[Op], visitor: &mut Client) -> Vec<PenaltyModel> {
    let json = json_path(db, s).await;
    let mut penalties: Vec<PenaltyModel> = Vec::new();
    for op in ops {
        let seen = visitor.get(&json).await;
        assert_eq!(seen.status, axum::http::StatusCode::OK, "{}", seen.body);
        match *op {
            Op::Order { ref rules } => {
                let settings = SeasonSettings {
                    tie_breakers: rules.clone(),
                    ..SeasonSettings::default()
                };
                boneyard::app::seasons::set_season_settings(
                    db, s.league, s.season, &settings, None,
                )
                .await
                .unwrap();
            }
            Op::Cup { tie, seed } => {
                let (id, home, away) = s.cup[tie];
                boneyard::app::results::write(
                    db,
                    s.league,
                    id,
                    &simulated(s, home, away, seed),
                    None,
                )
                .await
                .unwrap();
                boneyard::app::results::set_status(
                    db,
                    s.league,
                    id,
                    ResultStatus::Approved,
                    "",
                    None,
                )
                .await
                .unwrap();
            }
            Op::Write { fixture, seed } => {
                let (id, home, away) = s.fixtures[fixture];
                boneyard::app::results::write(
                    db,
                    s.league,
                    id,
                    &simulated(s, home, away, seed),
                    None,
                )
                .await
                .unwrap();
            }
            Op::Status { fixture, status } => {
                let status = match status {
                    0 => ResultStatus::Entered,
                    1 => ResultStatus::Confirmed,
                    2 => ResultStatus::Disputed,
                    _ => ResultStatus::Approved,
                };
                // Refused without a result yet: nothing to change.
                let _ = boneyard::app::results::set_status(
                    db,
                    s.league,
                    s.fixtures[fixture].0,
                    status,
                    "",
                    None,
                )
                .await;
            }
            Op::Restore { fixture, pick } => {
                let id = s.fixtures[fixture].0;
                let versions = db.result_versions(s.league, id).await.unwrap();
                if !versions.is_empty() {
                    let version = versions[pick % versions.len()].version;
                    boneyard::app::results::restore_version(db, s.league, id, version, None)
                        .await
                        .unwrap();
                }
            }
            Op::Penalty {
                team,
                amount,
                fixture,
            } => {
                // A fixture penalty is given to one of that fixture's teams.
                let (fixture_id, team) = match fixture {
                    Some(f) => {
                        let (id, home, away) = s.fixtures[f];
                        (Some(id), if team % 2 == 0 { home } else { away })
                    }
                    None => (None, team),
                };
                let p = boneyard::app::penalties::record(
                    db,
                    s.league,
                    &NewPenalty {
                        season_id: s.season,
                        fixture_id,
                        team_id: Some(s.teams[team]),
                        player_id: None,
                        kind_id: s.kind,
                        amount,
                        note: String::new(),
                    },
                    None,
                )
                .await
                .unwrap();
                penalties.push(PenaltyModel {
                    id: p.id,
                    team,
                    amount,
                    voided: false,
                });
            }
            Op::Void { pick, void } => {
                if !penalties.is_empty() {
                    let p = pick % penalties.len();
                    if db
                        .void_penalty(s.league, penalties[p].id, void, None)
                        .await
                        .is_ok()
                    {
                        penalties[p].voided = void;
                    }
                }
            }
        }
    }
    penalties
}

/// A team's line: played, won, drawn, lost, boards, games, pegs (for and
/// against), deducted, points.
type Line = [i64; 12];

/// The address of the division's table as JSON.
async fn json_path(db: &Db, s: &Setup) -> String {
    let season = db.season(s.league, s.season).await.unwrap();
    let division = db.divisions(s.league, s.season).await.unwrap().remove(0);
    format!(
        "/leagues/tables/{}/{}/data.json",
        slug(&season.name),
        slug(&division.name)
    )
}

/// The table as a visitor is served it (from the app's kept pages when
/// nothing has changed since it was last rendered), in its order.
async fn served_table(db: &Db, s: &Setup, visitor: &mut Client) -> Vec<(TeamId, Line)> {
    let page = visitor.get(&json_path(db, s).await).await;
    assert_eq!(page.status, axum::http::StatusCode::OK, "{}", page.body);
    let json: serde_json::Value = serde_json::from_str(&page.body).unwrap();
    let n = |row: &serde_json::Value, key: &str| row[key].as_i64().unwrap();
    json["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let line = support::TABLE_JSON_KEYS.map(|key| n(row, key));
            (TeamId(n(&row["team"], "id")), line)
        })
        .collect()
}

/// The table as the division page computes it.
async fn page_table(db: &Db, s: &Setup) -> Vec<(TeamId, Line)> {
    let format = match_format();
    let scope = FixtureScope::Division(s.division);
    let fixtures = db.fixture_lines(s.league, &scope).await.unwrap();
    let boards = db.board_lines(s.league, &scope, true).await.unwrap();
    let scores = scores_from_boards(&boards, &format);
    let lines = match_lines(&fixtures, &scores, &format);
    let deduction_lines = db.deduction_lines(s.league, s.season).await.unwrap();
    let names: Vec<(i64, String)> = s
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.0, format!("Team {i}")))
        .collect();
    let teams: Vec<(i64, &str)> = names.iter().map(|(t, n)| (*t, n.as_str())).collect();
    let season = db.season(s.league, s.season).await.unwrap();
    standings::table(
        &teams,
        &lines,
        &deductions(&deduction_lines),
        &format,
        &season.settings().unwrap().tie_breakers,
        None,
    )
    .into_iter()
    .map(|r| {
        (
            TeamId(r.team),
            [
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.boards_for,
                r.boards_against,
                r.games_for,
                r.games_against,
                r.pegs_for,
                r.pegs_against,
                r.deducted,
            ]
            .map(i64::from)
            .into_iter()
            .chain([r.points])
            .collect::<Vec<_>>()
            .try_into()
            .unwrap(),
        )
    })
    .collect()
}

/// Which side of a record a player sits on.
fn side_of(record: &GameRecord, name: &str) -> usize {
    record
        .sides
        .iter()
        .position(|side| side.iter().any(|n| n == name))
        .expect("the player is in the record")
}

/// Per player: played, won, pegs, eights, chip-outs.
type PlayerSums = BTreeMap<PlayerId, [i64; 5]>;

/// The table from scratch: the current version of each fixture's result,
/// when approved, re-scored game by game, and everything summed here.
async fn scratch_table(
    db: &Db,
    s: &Setup,
    penalties: &[PenaltyModel],
) -> (BTreeMap<TeamId, Line>, PlayerSums) {
    let format = match_format();
    let names: BTreeMap<PlayerId, &str> = s
        .players
        .iter()
        .flatten()
        .map(|(id, name)| (*id, name.as_str()))
        .collect();
    let mut table: BTreeMap<TeamId, Line> = s.teams.iter().map(|t| (*t, [0; 12])).collect();
    let mut players = PlayerSums::new();
    for &(fixture, home, away) in &s.fixtures {
        let Some(stored) = db.result(s.league, fixture).await.unwrap() else {
            continue;
        };
        if stored.version.status != ResultStatus::Approved {
            continue;
        }
        let (mut boards, mut games, mut pegs) = ([0i64; 2], [0i64; 2], [0i64; 2]);
        for (b, board) in stored.result.boards.iter().enumerate() {
            let mut won = [0i64; 2];
            for game in &board.games {
                let o = score_record(&game.record).unwrap();
                let home_side = side_of(&game.record, names[&board.home[0]]);
                let sides = [home_side, 1 - home_side];
                for t in 0..2 {
                    if o.winner == Some(sides[t]) {
                        won[t] += 1;
                    }
                    pegs[t] += i64::from(o.totals[sides[t]]);
                }
                if !o.finished {
                    continue;
                }
                for name in &game.record.players {
                    let id = *names.iter().find(|(_, n)| **n == name.as_str()).unwrap().0;
                    let side = side_of(&game.record, name);
                    let sums = players.entry(id).or_default();
                    sums[0] += 1;
                    sums[1] += i64::from(o.winner == Some(side));
                    sums[2] += i64::from(o.totals[side]);
                    for hand in &game.record.hands {
                        for play in hand.plays.iter().filter(|pl| pl.by == *name) {
                            sums[3] += i64::from(play.points == 8);
                            sums[4] += i64::from(play.out);
                        }
                    }
                }
            }
            let need = i64::from(format.boards[b].best_of / 2 + 1);
            for t in 0..2 {
                if won[t] >= need && won[t] > won[1 - t] {
                    boards[t] += 1;
                }
                games[t] += won[t];
            }
        }
        let (home_points, away_points) = format.match_points(
            u32::try_from(boards[0]).unwrap(),
            u32::try_from(boards[1]).unwrap(),
        );
        for (t, team, points) in [(0, home, home_points), (1, away, away_points)] {
            let line = table.get_mut(&s.teams[team]).unwrap();
            let o = 1 - t;
            line[0] += 1;
            match boards[t].cmp(&boards[o]) {
                std::cmp::Ordering::Greater => line[1] += 1,
                std::cmp::Ordering::Equal => line[2] += 1,
                std::cmp::Ordering::Less => line[3] += 1,
            }
            line[4] += boards[t];
            line[5] += boards[o];
            line[6] += games[t];
            line[7] += games[o];
            line[8] += pegs[t];
            line[9] += pegs[o];
            line[11] += i64::from(points);
        }
    }
    for p in penalties.iter().filter(|p| !p.voided) {
        let line = table.get_mut(&s.teams[p.team]).unwrap();
        line[10] += p.amount;
        line[11] -= p.amount;
    }
    (table, players)
}

async fn check(db: Db, ops: Vec<Op>) {
    let s = setup(&db).await;
    let mut visitor = Client::new(&db).await;
    let penalties = apply(&db, &s, &ops, &mut visitor).await;
    let shown = page_table(&db, &s).await;
    // What a visitor is served, through the kept pages that saw every
    // step, is the table as computed now.
    assert_eq!(
        served_table(&db, &s, &mut visitor).await,
        shown,
        "served after {ops:?}"
    );
    let (expected, expected_players) = scratch_table(&db, &s, &penalties).await;

    let shown_by_team: BTreeMap<TeamId, Line> = shown.iter().copied().collect();
    assert_eq!(shown_by_team, expected, "after {ops:?}");
    // Each team is above the next by the first of the season's rules they
    // differ on, as far as rules other than head-to-head decide it.
    let rules = match ops.iter().rev().find_map(|op| match op {
        Op::Order { rules } => Some(rules.clone()),
        _ => None,
    }) {
        Some(rules) => rules,
        None => TieBreaker::DEFAULT.to_vec(),
    };
    for pair in shown.windows(2) {
        let (above, below) = (expected[&pair[0].0], expected[&pair[1].0]);
        for rule in &rules {
            let value = |l: Line| match rule {
                TieBreaker::Points => l[11],
                TieBreaker::BoardDifference => l[4] - l[5],
                TieBreaker::BoardsWon => l[4],
                TieBreaker::GamesDifference => l[6] - l[7],
                TieBreaker::PegsDifference => l[8] - l[9],
                TieBreaker::HeadToHead => 0,
            };
            if *rule == TieBreaker::HeadToHead {
                break;
            }
            assert!(
                value(above) >= value(below),
                "{rule:?} orders {above:?} above {below:?}, rules {rules:?}, after {ops:?}"
            );
            if value(above) > value(below) {
                break;
            }
        }
    }

    let stats = db
        .player_stat_lines(s.league, s.season, Counted::League)
        .await
        .unwrap();
    let stats: PlayerSums = stats
        .into_iter()
        .map(|l| {
            (
                l.player_id,
                [l.played, l.won, l.pegs, l.eights, l.chip_outs],
            )
        })
        .collect();
    assert_eq!(stats, expected_players, "player sums after {ops:?}");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 12,
        failure_persistence: None,
        max_shrink_iters: 16,
        ..ProptestConfig::default()
    })]

    #[test]
    fn sqlite_division_table_equals_one_computed_from_scratch(
        ops in prop::collection::vec(op(), 1..24)
    ) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(support::on_sqlite("tables_property", move |db| check(db, ops)));
    }
}

async fn the_player_table_page_ranks_players_and_lists_the_rest(db: Db) {
    let s = setup(&db).await;
    let (fixture, home, away) = s.fixtures[0];
    boneyard::app::results::write(&db, s.league, fixture, &simulated(&s, home, away, 4), None)
        .await
        .unwrap();
    boneyard::app::results::set_status(&db, s.league, fixture, ResultStatus::Approved, "", None)
        .await
        .unwrap();
    // Entered but not approved: not counted.
    let (other, home2, away2) = s.fixtures[1];
    boneyard::app::results::write(&db, s.league, other, &simulated(&s, home2, away2, 5), None)
        .await
        .unwrap();

    let mut c = Client::new(&db).await;
    let path = format!("/leagues/tables/players-table/{}", s.season);
    let page = c.get(&format!("{path}?min=1")).await;
    assert_eq!(page.status, axum::http::StatusCode::OK, "{}", page.body);
    assert!(page.has("<caption>Ranked players: at least 1 game,"));
    // A column a phone shows on demand (`opt`).
    assert!(page.has("<th scope=\"col\" class=\"num opt\">Fifteens (8-point plays)</th>"));
    assert!(page.has(&s.players[home][0].1));
    assert!(
        !page.has(&s.players[home2][0].1),
        "unapproved results do not count"
    );

    let stats = db
        .player_stat_lines(s.league, s.season, Counted::League)
        .await
        .unwrap();
    assert_eq!(stats.len(), 8, "four players a team played");
    assert!(
        db.game_penalty_lines(s.league, s.season, Counted::League)
            .await
            .unwrap()
            .is_empty()
    );

    let default = c.get(&path).await;
    assert!(default.has("at least 3 games"));
    assert!(default.has("Not ranked yet"), "boards 2 and 3 are one game");
    let nobody = c.get(&format!("{path}?min=99")).await;
    assert!(nobody.has("Nobody has played enough games to be ranked yet."));

    let bad = c.get(&format!("{path}?min=lots")).await;
    assert_eq!(bad.status, axum::http::StatusCode::BAD_REQUEST);
    let missing = c.get("/leagues/tables/players-table/9999").await;
    assert_eq!(missing.status, axum::http::StatusCode::NOT_FOUND);
}

on_both!(the_player_table_page_ranks_players_and_lists_the_rest);
