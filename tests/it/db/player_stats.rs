//! The player table's sums (`player_stat_lines`, `game_penalty_lines`)
//! against a recount from the stored game records: every counted game's
//! record re-scored by the engine and every figure added up here. The
//! results go through corrections, restores, statuses that do not count,
//! void and walkover fixtures and an unfinished game, in a
//! fives-and-threes season (eights, chip-outs), an all-fives one (its
//! penalties are not the player table's) and a hands-won one (6-0 sets,
//! late and violation penalties), beside another league's results.

use std::collections::BTreeMap;

use boneyard::db::stats::{GamePenaltyLine, PlayerStatLine};
use boneyard::db::*;
use boneyard::league::match_format::{BoardSpec, MatchFormat};
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, GameRecord, Ruleset, score_record};

use crate::harness::results::record;
use crate::support::on_both;

on_both!(player_sums_equal_a_recount_from_the_game_records);

const TEAMS: usize = 4;
const PLAYERS: usize = 4;
/// Round robin of four teams.
const PAIRINGS: [(usize, usize); 6] = [(0, 1), (2, 3), (2, 0), (3, 1), (0, 3), (1, 2)];

/// Singles best of 3, singles, pairs; hands-won: two pairs sets.
fn match_format(format: Format) -> MatchFormat {
    let board = |kind, best_of| BoardSpec { kind, best_of };
    let mut mf = MatchFormat::default_for(format);
    mf.boards = match format {
        Format::HandsWon => vec![board(BoardKind::Pairs, 1), board(BoardKind::Pairs, 1)],
        _ => vec![
            board(BoardKind::Singles, 3),
            board(BoardKind::Singles, 1),
            board(BoardKind::Pairs, 1),
        ],
    };
    mf
}

struct Season {
    league: LeagueId,
    season: SeasonId,
    format: Format,
    /// Per team: its id and its players' ids and names.
    teams: Vec<(TeamId, Vec<(PlayerId, String)>)>,
    fixtures: Vec<FixtureId>,
}

/// A league with one season per format, the same four teams of four
/// players registered in each, and a round robin in each.
async fn setup(db: &Db, short_name: &str, formats: &[Format]) -> Vec<Season> {
    let league = db
        .create_league(&NewLeague {
            name: format!("{short_name} league"),
            short_name: short_name.into(),
            rules_summary: String::new(),
            contact: String::new(),
        })
        .await
        .unwrap()
        .id;
    let mut teams = Vec::new();
    for t in 0..TEAMS {
        let team = db
            .create_team(league, &format!("Team {t}"), None)
            .await
            .unwrap()
            .id;
        let mut players = Vec::new();
        for i in 0..PLAYERS {
            let name = format!("Player {t}{i}");
            players.push((db.create_player(league, &name).await.unwrap().id, name));
        }
        teams.push((team, players));
    }
    let mut seasons = Vec::new();
    for (n, &format) in formats.iter().enumerate() {
        let season = boneyard::app::seasons::create_season(
            db,
            league,
            &NewSeason {
                name: format!("202{n}/2{}", n + 1),
                format,
                options: serde_json::Map::new(),
                match_format: serde_json::to_value(match_format(format)).unwrap(),
            },
        )
        .await
        .unwrap()
        .id;
        let division = db
            .create_division(league, season, "Premier", 0)
            .await
            .unwrap()
            .id;
        for (team, players) in &teams {
            db.enter_team(league, season, division, *team)
                .await
                .unwrap();
            for (p, _) in players {
                boneyard::app::registrations::register_player(db, league, season, *team, *p)
                    .await
                    .unwrap();
            }
        }
        let mut fixtures = Vec::new();
        for (round, (home, away)) in PAIRINGS.into_iter().enumerate() {
            let fixture = db
                .create_fixture(
                    league,
                    &NewFixture {
                        season_id: season,
                        division_id: division,
                        round: i64::try_from(round).unwrap() / 2 + 1,
                        starts_at: None,
                        home_team_id: teams[home].0,
                        away_team_id: teams[away].0,
                        venue_id: None,
                    },
                )
                .await
                .unwrap()
                .id;
            fixtures.push(fixture);
        }
        seasons.push(Season {
            league,
            season,
            format,
            teams: teams.clone(),
            fixtures,
        });
    }
    seasons
}

/// A game as stored: the record with the engine's outcome.
fn game(record: GameRecord) -> GameResult {
    let o = score_record(&record).expect("a good record");
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
}

/// A whole match played by the simulator (penalties and all); with an odd
/// seed the away players sit on side 0 of the records.
fn simulated(s: &Season, fixture: usize, seed: u64) -> MatchResult {
    let (home, away) = PAIRINGS[fixture];
    let mut rng = Rng::new(seed);
    let ruleset = Ruleset::new(s.format);
    let style = Style {
        penalty_per_mille: 150,
        ..Style::default()
    };
    let swap = seed % 2 == 1;
    let mut result = MatchResult::default();
    let mut next = 0;
    for spec in &match_format(s.format).boards {
        let n = spec.kind.players_a_side();
        let h = &s.teams[home].1[next..next + n];
        let a = &s.teams[away].1[next..next + n];
        next += n;
        let (first, second) = if swap { (a, h) } else { (h, a) };
        let players: Vec<String> = (0..n)
            .flat_map(|j| [first[j].1.clone(), second[j].1.clone()])
            .collect();
        let sides: Vec<Vec<String>> = [first, second]
            .iter()
            .map(|side| side.iter().map(|p| p.1.clone()).collect())
            .collect();
        let records = simulate_board(&ruleset, &players, &sides, spec.best_of, &mut rng, &style);
        result.boards.push(BoardResult {
            kind: spec.kind,
            home: h.iter().map(|p| p.0).collect(),
            away: a.iter().map(|p| p.0).collect(),
            games: records.into_iter().map(game).collect(),
            conceded_by: None,
        });
    }
    result
}

/// The first game of the first board cut to its first two hands: a game
/// not finished, whose plays must not count.
fn unfinished(mut result: MatchResult) -> MatchResult {
    let record = &mut result.boards[0].games[0].record;
    record.hands.truncate(2);
    record.penalties.retain(|p| p.before_hand <= 2);
    result.boards[0].games[0] = game(record.clone());
    result
}

/// hands-won: the first set replaced by one the home pair wins 6-0, with
/// a late arrival and a violation (penalties never change the set score).
fn six_nil(s: &Season, fixture: usize, mut result: MatchResult) -> MatchResult {
    let (home, away) = PAIRINGS[fixture];
    let [h0, h1] = [&s.teams[home].1[0].1, &s.teams[home].1[1].1];
    let [a0, a1] = [&s.teams[away].1[0].1, &s.teams[away].1[1].1];
    let out = |who: &String| serde_json::json!({"plays": [], "end": {"out": who}});
    let set = record(serde_json::json!({
        "format": "hands-won",
        "players": [h0, a0, h1, a1],
        "sides": [[h0, h1], [a0, a1]],
        "first_pose": h0,
        "penalties": [
            {"player": a1, "kind": "late", "before_hand": 1, "minutes": 2},
            {"player": h1, "kind": "violation", "before_hand": 3}
        ],
        "hands": [out(h0), out(h1), out(h0), out(h0), out(h1), out(h1)]
    }));
    result.boards[0].games = vec![game(set)];
    result
}

/// The results of a season: what counts and what does not.
async fn play(db: &Db, s: &Season, seed: u64) {
    let (l, f) = (s.league, &s.fixtures);
    let approve = |fixture: FixtureId| async move {
        boneyard::app::results::set_status(db, l, fixture, ResultStatus::Approved, "", None)
            .await
            .unwrap();
    };
    let write = |fixture: usize, result: MatchResult| async move {
        boneyard::app::results::write(db, l, f[fixture], &result, None)
            .await
            .unwrap();
    };
    let first = if s.format == Format::HandsWon {
        six_nil(s, 0, simulated(s, 0, seed))
    } else {
        unfinished(simulated(s, 0, seed))
    };
    // 0: approved.
    write(0, first).await;
    approve(f[0]).await;
    // 1: approved, corrected, the correction approved.
    write(1, simulated(s, 1, seed + 1)).await;
    approve(f[1]).await;
    write(1, simulated(s, 1, seed + 2)).await;
    approve(f[1]).await;
    // 2: approved, then a correction only entered: nothing counts.
    write(2, simulated(s, 2, seed + 3)).await;
    approve(f[2]).await;
    write(2, simulated(s, 2, seed + 4)).await;
    // 3: approved, corrected and approved, then the first version restored
    // (a new version, approved as the first was): the first's games count.
    write(3, simulated(s, 3, seed + 5)).await;
    approve(f[3]).await;
    write(3, simulated(s, 3, seed + 6)).await;
    approve(f[3]).await;
    boneyard::app::results::restore_version(db, l, f[3], 1, None)
        .await
        .unwrap();
    // 4: approved, then the fixture made void.
    write(4, simulated(s, 4, seed + 7)).await;
    approve(f[4]).await;
    let fixture = db.fixture(l, f[4]).await.unwrap();
    boneyard::app::fixtures::change(
        db,
        l,
        f[4],
        &FixtureChange {
            status: FixtureStatus::Void,
            ..FixtureChange::from(&fixture)
        },
        None,
    )
    .await
    .unwrap();
    // 5: approved, then a walkover.
    write(5, simulated(s, 5, seed + 8)).await;
    approve(f[5]).await;
    let fixture = db.fixture(l, f[5]).await.unwrap();
    boneyard::app::fixtures::change(
        db,
        l,
        f[5],
        &FixtureChange {
            status: FixtureStatus::Walkover,
            conceded_by: Some(Side::Away),
            ..FixtureChange::from(&fixture)
        },
        None,
    )
    .await
    .unwrap();
}

/// Which side of a record a player sits on.
fn side_of(record: &GameRecord, name: &str) -> usize {
    record
        .sides
        .iter()
        .position(|side| side.iter().any(|n| n == name))
        .expect("the player is in the record")
}

/// What the recount found besides the lines, so the test can tell it
/// covered what it meant to.
#[derive(Default)]
struct Seen {
    /// 8-point plays and chip-outs in games that are not counted.
    uncounted_scoring_plays: i64,
    /// Penalties of other kinds than `late` and `violation` in counted
    /// games.
    other_penalties: usize,
}

/// The season's lines from scratch: the current version of each fixture's
/// result, when approved and the fixture is neither void nor a walkover,
/// each finished game re-scored by the engine. Penalty lines come with
/// their game numbered by order of storage (1, 2, ...).
async fn recount(db: &Db, s: &Season) -> (Vec<PlayerStatLine>, Vec<GamePenaltyLine>, Seen) {
    let mut players: BTreeMap<String, (PlayerId, TeamId, String)> = BTreeMap::new();
    for (t, (team, roster)) in s.teams.iter().enumerate() {
        for (id, name) in roster {
            players.insert(name.clone(), (*id, *team, format!("Team {t}")));
        }
    }
    let mut lines: BTreeMap<PlayerId, PlayerStatLine> = BTreeMap::new();
    // (version id, board, game): the order the rows were stored in.
    let mut penalties: BTreeMap<(ResultVersionId, usize, usize), Vec<GamePenaltyLine>> =
        BTreeMap::new();
    let mut seen = Seen::default();
    for &fixture in &s.fixtures {
        let Some(stored) = db.result(s.league, fixture).await.unwrap() else {
            continue;
        };
        let status = db.fixture(s.league, fixture).await.unwrap().status;
        let counted = stored.version.status == ResultStatus::Approved
            && !matches!(status, FixtureStatus::Void | FixtureStatus::Walkover);
        for (b, board) in stored.result.boards.iter().enumerate() {
            for (g, game) in board.games.iter().enumerate() {
                let record = &game.record;
                let o = score_record(record).unwrap();
                let scoring = |name: &str| {
                    let plays = record.hands.iter().flat_map(|h| &h.plays);
                    let ours: Vec<_> = plays.filter(|pl| pl.by == name).collect();
                    let eights = ours.iter().filter(|pl| pl.points == 8).count();
                    let outs = ours.iter().filter(|pl| pl.out).count();
                    (i64::try_from(eights).unwrap(), i64::try_from(outs).unwrap())
                };
                if !counted || !o.finished {
                    for name in &record.players {
                        let (eights, outs) = scoring(name);
                        seen.uncounted_scoring_plays += eights + outs;
                    }
                    continue;
                }
                let hands_won = record.format == "hands-won";
                let facts = |name: &str| {
                    let side = side_of(record, name);
                    let won = o.winner == Some(side);
                    let lost = o.winner == Some(1 - side);
                    let (ours, theirs) = (o.totals[side], o.totals[1 - side]);
                    (
                        i64::from(won),
                        i64::from(ours),
                        i64::from(hands_won && won && theirs == 0),
                        i64::from(hands_won && lost && ours == 0),
                    )
                };
                for name in &record.players {
                    let (id, team, team_name) = players[name].clone();
                    let line = lines.entry(id).or_insert_with(|| PlayerStatLine {
                        player_id: id,
                        name: name.clone(),
                        team_id: Some(team),
                        team_name: Some(team_name),
                        played: 0,
                        won: 0,
                        pegs: 0,
                        eights: 0,
                        chip_outs: 0,
                        sets_won_6_0: 0,
                        sets_lost_6_0: 0,
                        score_only: 0,
                    });
                    let (won, pegs, set_won, set_lost) = facts(name);
                    let (eights, outs) = scoring(name);
                    line.played += 1;
                    line.won += won;
                    line.pegs += pegs;
                    line.eights += eights;
                    line.chip_outs += outs;
                    line.sets_won_6_0 += set_won;
                    line.sets_lost_6_0 += set_lost;
                }
                for p in &record.penalties {
                    if p.kind != "late" && p.kind != "violation" {
                        seen.other_penalties += 1;
                        continue;
                    }
                    let (won, pegs, set_won_6_0, set_lost_6_0) = facts(&p.player);
                    penalties
                        .entry((stored.version.id, b, g))
                        .or_default()
                        .push(GamePenaltyLine {
                            player_id: players[&p.player].0,
                            game_id: 0,
                            kind: p.kind.clone(),
                            minutes: p.minutes,
                            won,
                            pegs,
                            set_won_6_0,
                            set_lost_6_0,
                        });
                }
            }
        }
    }
    let penalties = penalties
        .into_values()
        .zip(1..)
        .flat_map(|(lines, n)| {
            lines
                .into_iter()
                .map(move |l| GamePenaltyLine { game_id: n, ..l })
        })
        .collect();
    (lines.into_values().collect(), penalties, seen)
}

/// The lines' game ids renumbered 1, 2, ... in the order they come.
fn renumbered(lines: Vec<GamePenaltyLine>) -> Vec<GamePenaltyLine> {
    let mut numbers: BTreeMap<i64, i64> = BTreeMap::new();
    lines
        .into_iter()
        .map(|l| {
            let next = i64::try_from(numbers.len()).unwrap() + 1;
            let n = *numbers.entry(l.game_id).or_insert(next);
            GamePenaltyLine { game_id: n, ..l }
        })
        .collect()
}

async fn player_sums_equal_a_recount_from_the_game_records(db: Db) {
    let formats = [Format::FivesAndThrees, Format::AllFives, Format::HandsWon];
    let seasons = setup(&db, "sums", &formats).await;
    // Another league, same names, results approved: never counted here.
    let other = setup(&db, "other", &[Format::FivesAndThrees]).await;
    play(&db, &other[0], 100).await;
    for (s, seed) in seasons.iter().zip([1, 20, 40]) {
        play(&db, s, seed).await;
    }

    for s in &seasons {
        let (lines, penalties, seen) = recount(&db, s).await;
        let stored = db
            .player_stat_lines(s.league, s.season, Counted::League)
            .await
            .unwrap();
        assert_eq!(stored, lines, "{:?} season: player sums", s.format);
        let stored = db
            .game_penalty_lines(s.league, s.season, Counted::League)
            .await
            .unwrap();
        assert_eq!(
            renumbered(stored),
            penalties,
            "{:?} season: penalty lines",
            s.format
        );

        // The recount saw what the test is about.
        assert_eq!(lines.len(), 16, "every player played a counted game");
        let sum = |f: fn(&PlayerStatLine) -> i64| lines.iter().map(f).sum::<i64>();
        match s.format {
            Format::FivesAndThrees => {
                assert!(sum(|l| l.eights) > 0 && sum(|l| l.chip_outs) > 0);
                assert!(
                    seen.uncounted_scoring_plays > 0,
                    "plays that must not count"
                );
            }
            Format::AllFives => {
                assert!(seen.other_penalties > 0, "talking or exposed");
                assert!(penalties.is_empty());
            }
            Format::HandsWon => {
                assert!(sum(|l| l.sets_won_6_0) >= 2 && sum(|l| l.sets_lost_6_0) >= 2);
                for kind in ["late", "violation"] {
                    assert!(penalties.iter().any(|p| p.kind == kind), "a {kind} penalty");
                }
                let games: std::collections::BTreeSet<i64> =
                    penalties.iter().map(|p| p.game_id).collect();
                assert!(games.len() >= 2, "penalties in several games");
            }
        }
    }
}
