//! Results to write: game records from their JSON, and a sample match
//! result touching every kind of row a result is stored in.

use boneyard::db::*;

use super::Built;

/// A game record from its JSON, as RULES.md writes it.
pub fn record(json: serde_json::Value) -> boneyard::rules::GameRecord {
    serde_json::from_value(json).expect("a game record")
}

/// A result between the first two teams (of four players at least)
/// touching every kind of row: singles and pairs boards, a board of two
/// games, draws and first poses, every kind of hand end, muggins, in-game
/// penalties, options, and outcomes given or not.
pub fn sample_result(l: &Built) -> MatchResult {
    let (h, a) = (&l.home_names(), &l.away_names());
    let (hp, ap) = (l.home_players(), l.away_players());
    let board1 = BoardResult {
        kind: BoardKind::Singles,
        home: vec![hp[0]],
        away: vec![ap[0]],
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
        home: vec![hp[1]],
        away: vec![ap[1]],
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
        home: vec![hp[3], hp[2]],
        away: vec![ap[2], ap[3]],
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
