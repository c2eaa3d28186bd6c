//! Property tests of the engine: random records shaped like real ones (and
//! random garbage) against the invariants RULES.md promises.

use boneyard::rules::{
    EndRecord, Format, Game, GameRecord, HandRecord, PenaltyRecord, PlayRecord, Ruleset,
    parse_record, points, score, score_record,
};
use proptest::prelude::*;
use serde_json::{Value, json};

const NAMES: [&str; 4] = ["Ann", "Bob", "Cat", "Dan"];

/// One hand as random numbers, turned into a hand of any format.
#[derive(Debug, Clone)]
struct HandSpec {
    plays: Vec<(usize, usize)>,
    end: u8,
    pips: [i64; 4],
    out_by: usize,
    out_points: usize,
}

fn hand_spec() -> impl Strategy<Value = HandSpec> {
    (
        prop::collection::vec((0usize..4, 0usize..13), 0..6),
        0u8..10,
        [0i64..25, 0i64..25, 0i64..25, 0i64..25],
        0usize..4,
        0usize..7,
    )
        .prop_map(|(plays, end, pips, out_by, out_points)| HandSpec {
            plays,
            end,
            pips,
            out_by,
            out_points,
        })
}

#[derive(Debug, Clone)]
struct RecordSpec {
    format: Format,
    four: bool,
    draw: Option<[usize; 4]>,
    first: usize,
    options: u8,
    hands: Vec<HandSpec>,
    penalties: Vec<(usize, u8, usize, i64)>,
}

fn record_spec() -> impl Strategy<Value = RecordSpec> {
    (
        prop_oneof![
            Just(Format::FivesAndThrees),
            Just(Format::AllFives),
            Just(Format::HandsWon)
        ],
        any::<bool>(),
        prop::option::of(Just([0usize, 0, 0, 0]).prop_perturb(|_, mut rng| {
            // Four distinct tiles of the 28.
            let mut picked = [0usize; 4];
            let mut n = 0;
            while n < 4 {
                let t = rng.random_range(0..28);
                if !picked[..n].contains(&t) {
                    picked[n] = t;
                    n += 1;
                }
            }
            picked
        })),
        0usize..4,
        any::<u8>(),
        prop::collection::vec(hand_spec(), 0..40),
        prop::collection::vec((0usize..4, any::<u8>(), 0usize..45, 0i64..9), 0..4),
    )
        .prop_map(
            |(format, four, draw, first, options, hands, penalties)| RecordSpec {
                format,
                four: four || format == Format::HandsWon,
                draw,
                first,
                options,
                hands,
                penalties,
            },
        )
}

const FAT_POINTS: [i64; 6] = [1, 2, 3, 4, 6, 8];

/// Builds a record from the spec: always well formed, though the game may
/// go on after it was won (see [`fit`]).
fn build(spec: &RecordSpec) -> GameRecord {
    let n = if spec.four { 4 } else { 2 };
    let players: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
        .collect();
    let side_of = |seat: usize| seat % 2;
    let tiles: Vec<_> = boneyard::rules::Tile::set().collect();
    let o = spec.options;
    let options = match spec.format {
        Format::FivesAndThrees => json!({
            "pose": if o & 1 == 1 { "winner" } else { "rotate" },
            "target": if o & 2 == 2 { 121 } else { 61 },
            "exact_finish": o & 4 == 0,
        }),
        Format::AllFives => json!({
            "pose": if o & 1 == 1 { "winner" } else { "rotate" },
            "target": if o & 2 == 2 { 150 } else { 250 },
            "blocked_scores": if o & 4 == 4 { "difference" } else { "total" },
            "penalty_to": if o & 8 == 8 { "offender" } else { "opponents" },
        }),
        Format::HandsWon => json!({
            "pose": if o & 1 == 1 { "winner" } else { "rotate" },
            "set_to": if o & 2 == 2 { 4 } else { 6 },
            "derby": if o & 4 == 4 { "growing" } else { "capped" },
        }),
    };
    let mut penalties = Vec::new();
    let mut hands = Vec::new();
    for (h, hs) in spec.hands.iter().enumerate() {
        let name = |seat: usize| players[seat % n].clone();
        let mut plays: Vec<PlayRecord> = match spec.format {
            Format::HandsWon => Vec::new(),
            Format::FivesAndThrees => hs
                .plays
                .iter()
                .map(|&(by, p)| PlayRecord::new(&name(by), FAT_POINTS[p % 6]))
                .collect(),
            Format::AllFives => hs
                .plays
                .iter()
                .map(|&(by, p)| PlayRecord {
                    by: name(by),
                    points: 5 * (p as i64 % 12 + 1),
                    out: false,
                    muggins: p == 12,
                })
                .collect(),
        };
        let pips =
            |seats: &mut dyn Iterator<Item = usize>| seats.map(|s| (name(s), hs.pips[s])).collect();
        let out_by = hs.out_by % n;
        let end = match (spec.format, hs.end) {
            (_, 0..=3) => {
                if spec.format == Format::FivesAndThrees {
                    let pts = [0, 1, 2, 3, 4, 6, 8][hs.out_points];
                    plays.push(PlayRecord {
                        out: true,
                        ..PlayRecord::new(&name(out_by), pts)
                    });
                }
                let left = (spec.format == Format::AllFives)
                    .then(|| pips(&mut (0..n).filter(|&s| side_of(s) != side_of(out_by))));
                EndRecord {
                    left,
                    ..EndRecord::out(&name(out_by))
                }
            }
            (Format::HandsWon, 9) => {
                penalties.push(PenaltyRecord {
                    player: name(out_by),
                    kind: "violation".into(),
                    before_hand: h as i64 + 2,
                    minutes: None,
                });
                EndRecord {
                    abandoned: true,
                    ..Default::default()
                }
            }
            _ => EndRecord {
                blocked: Some(pips(&mut (0..n))),
                ..Default::default()
            },
        };
        hands.push(HandRecord {
            plays,
            end: Some(end),
        });
    }
    for &(player, kind, before, minutes) in &spec.penalties {
        let (kind, minutes) = match spec.format {
            Format::FivesAndThrees => continue,
            Format::AllFives => (if kind % 2 == 0 { "talking" } else { "exposed" }, None),
            Format::HandsWon if kind % 2 == 0 => ("late", Some(minutes)),
            Format::HandsWon => ("violation", None),
        };
        penalties.push(PenaltyRecord {
            player: players[player % n].clone(),
            kind: kind.into(),
            before_hand: (before % (hands.len() + 1)) as i64 + 1,
            minutes,
        });
    }
    GameRecord {
        format: spec.format.as_str().into(),
        players: players.clone(),
        sides,
        draw: spec.draw.map(|d| {
            (0..n)
                .map(|s| (players[s].clone(), tiles[d[s]].to_string()))
                .collect()
        }),
        first_pose: spec.draw.is_none().then(|| players[spec.first % n].clone()),
        hands,
        options: options.as_object().cloned(),
        penalties,
    }
}

/// Cuts a record where the engine says the game was already won, as a
/// scorer would stop writing: the result is a record the engine accepts.
fn fit(mut record: GameRecord) -> GameRecord {
    for _ in 0..200 {
        let err = match score_record(&record) {
            Ok(_) => return record,
            Err(e) => e,
        };
        assert!(
            err.message.contains("already won"),
            "generator made a bad record: {err}\n{record:?}"
        );
        match (err.hand, err.play) {
            (Some(h), Some(p)) => {
                record.hands.truncate(h);
                let hand = &mut record.hands[h - 1];
                hand.plays.truncate(p - 1);
                hand.end = None;
            }
            (Some(h), None) => record.hands.truncate(h - 1),
            (None, _) => {
                let k: usize = err.message["penalty ".len()..]
                    .split(':')
                    .next()
                    .and_then(|k| k.parse().ok())
                    .expect("a penalty's number");
                record.penalties.remove(k - 1);
            }
        }
        let len = record.hands.len() as i64;
        record.penalties.retain(|p| p.before_hand <= len + 1);
    }
    panic!("could not fit the record");
}

fn record() -> impl Strategy<Value = GameRecord> {
    record_spec().prop_map(|s| fit(build(&s)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn exact_target_is_never_passed(record in record()) {
        let game = Game::from_record(&record).unwrap();
        let o = score(&game).unwrap();
        let r = &game.ruleset;
        if r.format == Format::FivesAndThrees && r.exact_finish {
            for h in &o.hands {
                prop_assert!(h.totals_after.iter().all(|&t| t <= r.target));
            }
            prop_assert_eq!(o.finished, o.totals.contains(&r.target));
            if let Some(w) = o.winner {
                prop_assert_eq!(o.totals[w], r.target);
            }
        }
    }

    #[test]
    fn totals_are_counted_plays_plus_hand_ends_plus_penalties(record in record()) {
        let game = Game::from_record(&record).unwrap();
        let o = score(&game).unwrap();
        prop_assert_eq!(o.totals, recount(&game, &o));
    }

    #[test]
    fn pose_rotates_through_the_order_of_play(record in record()) {
        let game = Game::from_record(&record).unwrap();
        let o = score(&game).unwrap();
        let n = game.players.len();
        let first = boneyard::rules::pose::first_poser(&game);
        for (i, h) in o.hands.iter().enumerate() {
            let expected = match (game.ruleset.pose, i.checked_sub(1)) {
                (boneyard::rules::ruleset::PoseRule::Winner, Some(prev)) => {
                    match &game.hands[prev].end {
                        Some(boneyard::rules::End::Out { player, .. }) => *player,
                        Some(boneyard::rules::End::Abandoned) => (o.hands[prev].posed_by + 1) % n,
                        _ => h.posed_by, // blocked: checked by the worked examples
                    }
                }
                (_, _) if i == 0 => first,
                _ => (first + i) % n,
            };
            prop_assert_eq!(h.posed_by, expected, "hand {}", i + 1);
        }
        if game.ruleset.pose == boneyard::rules::ruleset::PoseRule::Rotate {
            prop_assert_eq!(o.next_pose, (first + o.hands.len()) % n);
        }
    }

    #[test]
    fn a_record_reserialised_scores_the_same(record in record()) {
        let before = score_record(&record).unwrap();
        let text = serde_json::to_string(&record).unwrap();
        let again = parse_record(&text).unwrap();
        prop_assert_eq!(&again, &record);
        prop_assert_eq!(score_record(&again).unwrap(), before.clone());
        // The canonical form the database writes back scores the same too.
        let canonical = Game::from_record(&record).unwrap().to_record();
        prop_assert_eq!(score_record(&canonical).unwrap(), before);
    }

    #[test]
    fn mutated_records_never_panic(record in record(), edits in prop::collection::vec((any::<u64>(), arb_json()), 1..6)) {
        let mut v = serde_json::to_value(&record).unwrap();
        for (at, replacement) in edits {
            mutate(&mut v, at, replacement);
        }
        if let Ok(r) = parse_record(&v.to_string()) {
            let _ = score_record(&r);
        }
    }

    #[test]
    fn arbitrary_json_never_panics(v in arb_json()) {
        let _ = parse_record(&v.to_string()).map(|r| score_record(&r));
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,200}") {
        let _ = parse_record(&s).map(|r| score_record(&r));
    }
}

/// The totals recomputed from the record by a second route: counted plays,
/// then each hand's end score, then penalties, all by the rules' text.
fn recount(game: &Game, o: &boneyard::rules::Outcome) -> [u32; 2] {
    let r: &Ruleset = &game.ruleset;
    let mut totals = [0u32; 2];
    match r.format {
        Format::FivesAndThrees => {
            for (hand, ho) in game.hands.iter().zip(&o.hands) {
                for (p, play) in hand.plays.iter().enumerate() {
                    if !ho.disregarded.contains(&(p + 1)) {
                        totals[game.side_of[play.by]] += play.points + u32::from(play.out);
                    }
                }
            }
        }
        Format::AllFives => {
            let won_at = o.won_at.map(|w| (w.hand, w.play.is_some()));
            for (h, hand) in game.hands.iter().enumerate() {
                for play in &hand.plays {
                    totals[game.side_of[play.by]] += play.points;
                }
                if won_at == Some((h, true)) {
                    continue; // won during the hand: its end scores nothing
                }
                match &hand.end {
                    Some(boneyard::rules::End::Out { player, left }) => {
                        totals[game.side_of[*player]] += points::round_to_five(left.iter().sum());
                    }
                    Some(boneyard::rules::End::Blocked { pips: Some(pips) }) => {
                        let c = [game.side_pips(pips, 0), game.side_pips(pips, 1)];
                        if c[0] != c[1] {
                            let low = if c[0] < c[1] { 0 } else { 1 };
                            let s = match r.blocked_scores {
                                boneyard::rules::ruleset::BlockedScores::Total => c[1 - low],
                                boneyard::rules::ruleset::BlockedScores::Difference => {
                                    c[1 - low] - c[low]
                                }
                            };
                            totals[low] += points::round_to_five(s);
                        }
                    }
                    _ => {}
                }
            }
            // Penalties: with points to the opponents they simply add; an
            // offender's deduction interleaves with play (floor at 0), so
            // it is only checked to never raise a total.
            let mut with_penalties = totals;
            for p in &game.penalties {
                if r.penalty_to == boneyard::rules::ruleset::PenaltyTo::Opponents {
                    with_penalties[1 - game.side_of[p.player]] += r.penalty_points;
                }
            }
            if r.penalty_to == boneyard::rules::ruleset::PenaltyTo::Offender {
                return [o.totals[0].min(totals[0]), o.totals[1].min(totals[1])];
            }
            totals = with_penalties;
        }
        Format::HandsWon => {
            for h in &o.hands {
                if let Some(side) = h.winner {
                    totals[side] += h.worth;
                }
            }
        }
    }
    totals
}

/// Arbitrary JSON, biased towards the shapes a record has.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-5i64..70).prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::from)),
        prop_oneof![
            Just("Ann"),
            Just("Bob"),
            Just("Zed"),
            Just(""),
            Just("6-6"),
            Just("7-1"),
            Just("fives-and-threes"),
            Just("all-fives"),
            Just("hands-won"),
            Just("late")
        ]
        .prop_map(Value::from),
        ".{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("format".to_string()),
                        Just("players".to_string()),
                        Just("sides".to_string()),
                        Just("hands".to_string()),
                        Just("plays".to_string()),
                        Just("end".to_string()),
                        Just("by".to_string()),
                        Just("points".to_string()),
                        Just("out".to_string()),
                        Just("blocked".to_string()),
                        Just("first_pose".to_string()),
                        ".{0,6}".prop_map(String::from)
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Replaces one node of `v`, picked by `at`, with `replacement` (or removes
/// an object's key when the replacement is null and `at` is odd).
fn mutate(v: &mut Value, at: u64, replacement: Value) {
    let mut count = 0u64;
    fn nodes(v: &Value, count: &mut u64) {
        *count += 1;
        match v {
            Value::Array(a) => a.iter().for_each(|x| nodes(x, count)),
            Value::Object(o) => o.values().for_each(|x| nodes(x, count)),
            _ => {}
        }
    }
    nodes(v, &mut count);
    let mut target = at % count;
    fn walk(v: &mut Value, target: &mut u64, replacement: &mut Option<Value>, remove: bool) {
        if *target == 0 {
            if let Some(r) = replacement.take() {
                *v = r;
            }
            return;
        }
        *target -= 1;
        match v {
            Value::Array(a) => {
                for x in a.iter_mut() {
                    walk(x, target, replacement, remove);
                }
            }
            Value::Object(o) => {
                let keys: Vec<String> = o.keys().cloned().collect();
                for k in keys {
                    if *target == 0 && remove && replacement.as_ref().is_some_and(Value::is_null) {
                        o.remove(&k);
                        replacement.take();
                        return;
                    }
                    walk(o.get_mut(&k).unwrap(), target, replacement, remove);
                }
            }
            _ => {}
        }
    }
    walk(v, &mut target, &mut Some(replacement), at % 2 == 1);
}
