//! The pad's own scorer (static/pad-score.js: the pad scores offline)
//! against the engine: hundreds of simulated boards of every format, under
//! every option that changes a score, replayed through the pad's replay
//! (`league::pad::replay`) and through the script in chromium, compared
//! game by game and hand by hand. The page is opened once; the boards go
//! to the script in a few calls.

use std::time::Instant;

use boneyard::db::Db;
use boneyard::league::match_format::{BoardKind, MatchFormat};
use boneyard::league::pad::{Board, PadRules, PadRuleset, Tap, replay, taps_for_board};
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, Ruleset};
use serde::Deserialize;
use serde_json::{Value, json};

use super::pad::PASSWORD;
use super::{Browser, PHONE, Server, TempDir, run};
use crate::harness::LeagueBuilder;

/// A board as replayed: the same shape from the engine and from the script.
#[derive(Debug, PartialEq, Deserialize)]
struct Replayed {
    /// The index of a refused tap.
    refused: Option<usize>,
    games: Vec<GameSeen>,
    games_won: [u32; 2],
    winner: Option<usize>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct GameSeen {
    totals: [u32; 2],
    finished: bool,
    winner: Option<usize>,
    next_pose: usize,
    hands: Vec<HandSeen>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct HandSeen {
    posed_by: usize,
    totals: [u32; 2],
    disregarded: Vec<usize>,
}

fn engine(board: &Board) -> Replayed {
    Replayed {
        refused: None,
        games: board
            .games
            .iter()
            .map(|g| GameSeen {
                totals: g.outcome.totals,
                finished: g.outcome.finished,
                winner: g.outcome.winner,
                next_pose: g.outcome.next_pose,
                hands: g
                    .outcome
                    .hands
                    .iter()
                    .map(|h| HandSeen {
                        posed_by: h.posed_by,
                        totals: h.totals_after,
                        disregarded: h.disregarded.clone(),
                    })
                    .collect(),
            })
            .collect(),
        games_won: board.games_won,
        winner: board.winner,
    }
}

/// A ruleset, a kind of board and how many games it is the best of.
type Rules = (Ruleset, BoardKind, u32);

/// Every combination of the options that change a score, per format.
fn grid() -> Vec<Rules> {
    let parse = |format, options: Value| Ruleset::parse(format, options.as_object()).unwrap();
    let mut rules = Vec::new();
    let boards = [
        (BoardKind::Singles, 1),
        (BoardKind::Singles, 3),
        (BoardKind::Pairs, 1),
        (BoardKind::Pairs, 3),
    ];
    for pose in ["rotate", "winner"] {
        for (kind, best_of) in boards {
            for target in [61, 31, 121] {
                for exact in [true, false] {
                    let options = json!({"pose": pose, "target": target, "exact_finish": exact});
                    rules.push((parse(Format::FivesAndThrees, options), kind, best_of));
                }
            }
            for target in [250, 100] {
                for blocked in ["total", "difference"] {
                    for points in [50, 25] {
                        for to in ["opponents", "offender"] {
                            let options = json!({"pose": pose, "target": target,
                                "blocked_scores": blocked, "penalty_points": points,
                                "penalty_to": to});
                            rules.push((parse(Format::AllFives, options), kind, best_of));
                        }
                    }
                }
            }
            // Sets are played by pairs only.
            if kind == BoardKind::Singles {
                continue;
            }
            for set_to in [6, 3, 9] {
                for derby in ["capped", "growing"] {
                    let options = json!({"pose": pose, "set_to": set_to, "derby": derby});
                    rules.push((parse(Format::HandsWon, options), kind, best_of));
                }
            }
        }
    }
    rules
}

/// Boards simulated of each combination: clean, untidy (penalties,
/// muggins, void hands), and untidy with a nervous scorer's undos.
const SEEDS: u64 = 3;

/// Made-up sets of each hands-won combination (see [`tied_set`]).
const TIED_SETS: u64 = 5;

struct Case {
    rules: Rules,
    seed: u64,
    taps: Vec<Tap>,
}

fn simulated(rules: &Rules, seed: u64, home: &[(i64, String)], away: &[(i64, String)]) -> Case {
    let (ruleset, kind, best_of) = rules;
    let n = kind.players_a_side();
    let players: Vec<String> = (0..n)
        .flat_map(|j| [home[j].1.clone(), away[j].1.clone()])
        .collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
        .collect();
    let style = if seed % SEEDS == 0 {
        Style::clean()
    } else {
        Style {
            penalty_per_mille: 150,
            muggins_per_mille: 50,
        }
    };
    let mut rng = Rng::new(seed);
    let games = simulate_board(ruleset, &players, &sides, *best_of, &mut rng, &style);
    let ids = |r: &[(i64, String)]| r[..n].iter().map(|p| p.0).collect::<Vec<_>>();
    let mut taps = taps_for_board(&ids(home), &ids(away), &games);
    if seed % SEEDS == 2 {
        // Every 23rd tap taken back and made again.
        taps = taps
            .into_iter()
            .enumerate()
            .flat_map(|(i, t)| {
                if i % 23 == 22 {
                    vec![t.clone(), Tap::Undo, t]
                } else {
                    vec![t]
                }
            })
            .collect();
    }
    Case {
        rules: rules.clone(),
        seed,
        taps,
    }
}

/// A hands-won board made up tap by tap, blocked hands' counts drawn from
/// a few pips: dealt hands seldom tie, these tie often, twice in a row too,
/// and some hands are void after a violation.
fn tied_set(rules: &Rules, seed: u64, home: &[(i64, String)], away: &[(i64, String)]) -> Case {
    let (ruleset, kind, best_of) = rules;
    let pad = PadRules {
        ruleset,
        kind: *kind,
        best_of: *best_of,
        home,
        away,
    };
    let mut rng = Rng::new(seed);
    let mut taps = vec![
        Tap::Players {
            home: vec![home[0].0, home[1].0],
            away: vec![away[0].0, away[1].0],
        },
        Tap::Pose {
            seat: rng.below(4) as usize,
        },
    ];
    let seat = |rng: &mut Rng| rng.below(4) as usize;
    while replay(&pad, &taps).0.winner.is_none() {
        match rng.below(10) {
            0..=2 => taps.push(Tap::Out {
                seat: seat(&mut rng),
                points: 0,
                left: None,
            }),
            3 => taps.extend([
                Tap::Penalty {
                    seat: seat(&mut rng),
                    kind: "violation".into(),
                    minutes: None,
                },
                Tap::Abandoned,
            ]),
            _ => taps.push(Tap::Blocked {
                pips: (0..4).map(|_| rng.below(3)).collect(),
            }),
        }
    }
    Case {
        rules: rules.clone(),
        seed,
        taps,
    }
}

/// The page's data for a board of `rules`: the opened page's, with the
/// rules as the server writes them for such a league.
fn page_data(base: &Value, (ruleset, kind, best_of): &Rules) -> Value {
    let mut data = base.clone();
    data["format"] = ruleset.format.as_str().into();
    data["kind"] = kind.as_str().into();
    data["best_of"] = (*best_of).into();
    data["rules"] = serde_json::to_value(PadRuleset::from(ruleset)).unwrap();
    data["taps"] = json!([]);
    data
}

/// What the engine and the script made of the boards, and how many
/// hands of note they held: the grid must reach the rules it tests.
#[derive(Debug, Default)]
struct Reached {
    boards: usize,
    games: usize,
    taps: usize,
    disregarded: usize,
    past_target: usize,
    penalties: usize,
    derbies: usize,
    growing_derbies: usize,
    winner_poses: usize,
}

fn note(reached: &mut Reached, case: &Case, board: &Board) {
    let (ruleset, _, _) = &case.rules;
    reached.boards += 1;
    reached.games += board.games.len();
    reached.taps += case.taps.len();
    reached.penalties += case
        .taps
        .iter()
        .filter(|t| matches!(t, Tap::Penalty { .. }))
        .count();
    for g in &board.games {
        let hands = &g.outcome.hands;
        reached.disregarded += hands.iter().map(|h| h.disregarded.len()).sum::<usize>();
        if g.outcome.totals.iter().any(|&t| t > ruleset.target)
            && ruleset.format == Format::FivesAndThrees
        {
            reached.past_target += 1;
        }
        reached.derbies += hands.iter().filter(|h| h.worth >= 2).count();
        reached.growing_derbies += hands.iter().filter(|h| h.worth >= 3).count();
        let n = board.players.len();
        reached.winner_poses += hands
            .windows(2)
            .filter(|w| w[1].posed_by != (w[0].posed_by + 1) % n)
            .count();
    }
}

const BATCH: usize = 60;

async fn compare(
    b: &Browser,
    base: &Value,
    cases: &[Case],
    s: &Rosters,
) -> Result<Reached, String> {
    let mut reached = Reached::default();
    for batch in cases.chunks(BATCH) {
        let sent: Vec<Value> = batch
            .iter()
            .map(|c| json!({"data": page_data(base, &c.rules), "taps": c.taps}))
            .collect();
        let got = b
            .client
            .execute(
                "return arguments[0].map(function (c) { return BoneyardPad.replay(c.data, c.taps); });",
                vec![Value::Array(sent)],
            )
            .await
            .map_err(|e| format!("the script's replay: {e}"))?;
        let got: Vec<Replayed> = serde_json::from_value(got)
            .map_err(|e| format!("the script's replay does not read as boards: {e}"))?;
        for (case, script) in batch.iter().zip(got) {
            let (ruleset, kind, best_of) = &case.rules;
            let rules = PadRules {
                ruleset,
                kind: *kind,
                best_of: *best_of,
                home: &s.home,
                away: &s.away,
            };
            let (board, refused) = replay(&rules, &case.taps);
            let what = format!(
                "{} {kind} best of {best_of} {} seed {}",
                ruleset.format,
                Value::Object(ruleset.options()),
                case.seed
            );
            if let Some(r) = refused {
                return Err(format!("{what}: the engine refused a simulated tap: {r:?}"));
            }
            let engine = engine(&board);
            if script != engine {
                return Err(differs(&what, &script, &engine));
            }
            note(&mut reached, case, &board);
        }
    }
    Ok(reached)
}

/// Where the script and the engine part, in words.
fn differs(what: &str, script: &Replayed, engine: &Replayed) -> String {
    let games = script.games.iter().zip(&engine.games).enumerate();
    for (g, (ours, theirs)) in games {
        for (h, (a, b)) in ours.hands.iter().zip(&theirs.hands).enumerate() {
            if a != b {
                return format!(
                    "{what}: game {} hand {}: the script has {a:?}, the engine {b:?}",
                    g + 1,
                    h + 1
                );
            }
        }
        if ours != theirs {
            return format!(
                "{what}: game {}: the script has {ours:?}, the engine {theirs:?}",
                g + 1
            );
        }
    }
    format!("{what}: the script has {script:?}, the engine {engine:?}")
}

struct Rosters {
    home: Vec<(i64, String)>,
    away: Vec<(i64, String)>,
}

/// A hands-won league with options of its own: the page the script is
/// opened on, and the rules that page must carry.
const PAGE_OPTIONS: &str = r#"{"pose": "winner", "set_to": 7, "derby": "growing"}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pads_script_scores_every_format_and_option_as_the_engine() {
    let name = "pad_rules";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new(name);
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let options: Value = serde_json::from_str(PAGE_OPTIONS).unwrap();
    let db = Db::connect(&address).await.unwrap();
    let built = LeagueBuilder::new("rules")
        .rules(Format::HandsWon)
        .options(options.clone())
        .boards(MatchFormat::with_boards(0, 1, 1))
        .build(&db)
        .await;
    db.close().await;
    let roster = |t: usize| -> Vec<(i64, String)> {
        built.teams[t]
            .players
            .iter()
            .map(|(id, name)| (id.0, name.clone()))
            .collect()
    };
    let s = Rosters {
        home: roster(0),
        away: roster(1),
    };
    let started = Instant::now();
    let cases: Vec<Case> = grid()
        .iter()
        .flat_map(|rules| (0..SEEDS).map(|seed| simulated(rules, seed, &s.home, &s.away)))
        .chain(
            grid()
                .iter()
                .filter(|r| r.0.format == Format::HandsWon)
                .flat_map(|rules| {
                    (0..TIED_SETS).map(|seed| tied_set(rules, seed, &s.home, &s.away))
                }),
        )
        .collect();
    let made = started.elapsed();
    let server = Server::start(&address);
    let (server, s, built, cases) = (&server, &s, &built, &cases);
    run(name, PHONE, |b| async move {
        let outcome = async {
            b.sign_in(server, &built.teams[0].captain, PASSWORD).await?;
            b.goto(&server.url(&built.path("/pad/1"))).await?;
            let page = b
                .client
                .execute(
                    "return JSON.parse(document.getElementById('pad').getAttribute('data-pad'));",
                    vec![],
                )
                .await
                .map_err(|e| format!("reading the page's data: {e}"))?;
            // The page carries the league's rules whole, and no options
            // left for the script to fill in with defaults.
            let ruleset = Ruleset::parse(Format::HandsWon, options.as_object()).unwrap();
            let want = serde_json::to_value(PadRuleset::from(&ruleset)).unwrap();
            if page["rules"] != want || page.get("options").is_some() {
                return Err(format!("the page's data is {page}; its rules should be {want}"));
            }
            // Rules with one option missing or not understood: no scorer,
            // rather than a guess.
            let missing = b
                .client
                .execute(
                    "var d = arguments[0], out = [];
                     Object.keys(d.rules).forEach(function (k) {
                       var c = JSON.parse(JSON.stringify(d));
                       delete c.rules[k];
                       var w = JSON.parse(JSON.stringify(d));
                       w.rules[k] = 'guess';
                       if (BoneyardPad.scorer(c) !== null || BoneyardPad.scorer(w) !== null) out.push(k);
                     });
                     return [BoneyardPad.scorer(d) !== null, out];",
                    vec![page.clone()],
                )
                .await
                .map_err(|e| e.to_string())?;
            if missing != json!([true, []]) {
                return Err(format!("the script scores with rules incomplete: {missing}"));
            }
            let compared = Instant::now();
            let reached = compare(&b, &page, cases, s).await?;
            eprintln!(
                "{} option combinations, {reached:?}; simulated in {:.1} s, compared in {:.1} s",
                grid().len(),
                made.as_secs_f64(),
                compared.elapsed().as_secs_f64()
            );
            let thin = [
                ("plays disregarded past the target", reached.disregarded),
                ("games won past the target", reached.past_target),
                ("penalties", reached.penalties),
                ("hands after a derby", reached.derbies),
                ("growing derbies worth 3", reached.growing_derbies),
                ("hands posed by the last hand's winner", reached.winner_poses),
            ];
            for (what, count) in thin {
                if count == 0 {
                    return Err(format!("the boards compared hold no {what}: {reached:?}"));
                }
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
