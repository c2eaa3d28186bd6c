//! The worked examples of RULES.md, each as a test, and the other rules the
//! page states in words.

use serde_json::json;

use crate::helpers::*;

/// Hands taking Ann (side 0) to `total` in singles without a win: plays of
/// 8 then one smaller play, at most six plays a hand, each hand blocked.
fn ann_to(total: u32) -> Vec<serde_json::Value> {
    let mut hands = Vec::new();
    let mut left = total;
    while left > 0 {
        let mut plays = Vec::new();
        while left > 0 && plays.len() < 6 {
            let p = [8, 6, 4, 3, 2, 1].into_iter().find(|&p| p <= left).unwrap();
            plays.push(p);
            left -= p;
        }
        hands.push(fat_hand("Ann", &plays));
    }
    hands
}

#[test]
fn example_1_at_58_a_four_is_disregarded_then_a_three_wins() {
    let mut hands = ann_to(58);
    hands.push(json!({"plays": [{"by": "Ann", "points": 4}, {"by": "Ann", "points": 3}]}));
    let o = ok(&fat_singles(json!(hands)));
    let last = o.hands.last().unwrap();
    assert_eq!(last.disregarded, vec![1]);
    assert_eq!(o.totals, [61, 0]);
    assert!(o.finished);
    assert_eq!(o.winner, Some(0));
}

#[test]
fn example_2_at_59_a_chip_out_making_three_is_disregarded() {
    let mut hands = ann_to(59);
    hands.push(json!({"plays": [{"by": "Ann", "points": 2, "out": true}], "end": {"out": "Ann"}}));
    let o = ok(&fat_singles(json!(hands)));
    assert_eq!(o.hands.last().unwrap().disregarded, vec![1]);
    assert_eq!(o.totals, [59, 0]);
    assert!(!o.finished);
    assert_eq!(o.winner, None);
}

#[test]
fn example_3_at_60_a_chip_out_scoring_nothing_wins_with_the_point() {
    let mut hands = ann_to(60);
    hands.push(json!({"plays": [{"by": "Ann", "points": 0, "out": true}], "end": {"out": "Ann"}}));
    let o = ok(&fat_singles(json!(hands)));
    assert_eq!(o.totals, [61, 0]);
    assert_eq!(o.winner, Some(0));
    assert!(o.hands.last().unwrap().disregarded.is_empty());
}

#[test]
fn example_4_all_fives_blocked_lower_side_scores_the_other_count_rounded() {
    let o = ok(&pairs(
        "all-fives",
        json!([{"plays": [], "end": blocked4([7, 4, 6, 12])}]),
    ));
    assert_eq!(o.totals, [15, 0]);
}

#[test]
fn example_5_all_fives_played_out_scores_opponents_pips_rounded() {
    let hand = json!({"plays": [], "end": {"out": "Ann", "left": {"Bob": 12, "Dan": 0}}});
    assert_eq!(ok(&pairs("all-fives", json!([hand]))).totals, [10, 0]);
}

fn out(name: &str) -> serde_json::Value {
    json!({"plays": [], "end": {"out": name}})
}

/// Ann 3 and Bob 3 share the lowest count: a tie.
fn tie() -> serde_json::Value {
    json!({"plays": [], "end": blocked4([3, 3, 9, 9])})
}

#[test]
fn example_6_hands_won_derby_worth_two_even_after_consecutive_ties() {
    let hands = json!([
        tie(),
        out("Cat"),
        tie(),
        tie(),
        out("Bob"),
        out("Ann"),
        out("Ann"),
        out("Cat")
    ]);
    let o = ok(&pairs("hands-won", hands));
    let worth: Vec<u32> = o.hands.iter().map(|h| h.worth).collect();
    assert_eq!(worth, [0, 2, 0, 0, 2, 1, 1, 1]);
    let winners: Vec<Option<usize>> = o.hands.iter().map(|h| h.winner).collect();
    assert_eq!(
        winners,
        [
            None,
            Some(0),
            None,
            None,
            Some(1),
            Some(0),
            Some(0),
            Some(0)
        ]
    );
    assert_eq!(o.totals, [5, 2]);
    assert!(!o.finished);
    // One more: the first pair to 6 wins.
    let hands = json!([
        tie(),
        out("Cat"),
        tie(),
        tie(),
        out("Bob"),
        out("Ann"),
        out("Ann"),
        out("Cat"),
        out("Cat")
    ]);
    let o = ok(&pairs("hands-won", hands));
    assert_eq!((o.totals, o.winner), ([6, 2], Some(0)));
}

#[test]
fn example_7_derby_worth_one_when_a_pair_has_five() {
    let mut hands: Vec<_> = (0..5).map(|_| out("Ann")).collect();
    hands.extend((0..3).map(|_| out("Bob")));
    hands.push(tie());
    hands.push(out("Dan"));
    let o = ok(&pairs("hands-won", json!(hands)));
    assert_eq!(o.hands.last().unwrap().worth, 1);
    assert_eq!(o.totals, [5, 4]);
}

#[test]
fn example_8_draw_then_rotation() {
    let mut game = pairs(
        "hands-won",
        json!([out("Ann"), out("Bob"), out("Cat"), out("Dan")]),
    );
    game.as_object_mut().unwrap().remove("first_pose");
    game["draw"] = json!({"Ann": "6-1", "Bob": "4-3", "Cat": "5-2", "Dan": "3-3"});
    let o = ok(&game);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!(posers, [0, 1, 2, 3]);
    assert_eq!(o.next_pose, 0, "Ann poses hand 5");
}

#[test]
fn a_tie_between_partners_is_no_tie() {
    let o = ok(&pairs(
        "hands-won",
        json!([{"plays": [], "end": blocked4([3, 9, 3, 9])}]),
    ));
    assert_eq!((o.hands[0].winner, o.hands[0].worth), (Some(0), 1));
}

#[test]
fn growing_derby_adds_a_game_per_tie() {
    let mut g = pairs("hands-won", json!([tie(), tie(), out("Bob")]));
    g["options"] = json!({"derby": "growing"});
    assert_eq!(ok(&g).hands[2].worth, 3);
}

#[test]
fn a_void_hand_is_worth_nothing_and_the_pose_still_rotates() {
    let mut g = pairs(
        "hands-won",
        json!([{"plays": [], "end": {"abandoned": true}}, out("Ann")]),
    );
    g["penalties"] = json!([{"player": "Bob", "kind": "violation", "before_hand": 2}]);
    let o = ok(&g);
    assert_eq!(o.hands[0].worth, 0);
    assert_eq!(o.hands[1].posed_by, 1);
    assert_eq!(o.totals, [1, 0]);
    assert_eq!(o.players[1].penalty_games, 1);
    assert_eq!(o.players[3].penalty_games, 0, "the partner loses nothing");
}

#[test]
fn late_arrival_by_thresholds_and_forfeit() {
    let hands: Vec<_> = (0..6).map(|_| out("Bob")).collect();
    let mut g = pairs("hands-won", json!(hands));
    g["penalties"] = json!([
        {"player": "Ann", "kind": "late", "minutes": 1, "before_hand": 1},
        {"player": "Bob", "kind": "late", "minutes": 5, "before_hand": 1},
        {"player": "Cat", "kind": "late", "minutes": 6, "before_hand": 1},
        {"player": "Dan", "kind": "late", "minutes": 0, "before_hand": 1}
    ]);
    let o = ok(&g);
    assert_eq!(o.totals, [0, 6], "penalties never change the set score");
    let tally: Vec<_> = o
        .players
        .iter()
        .map(|p| (p.penalty_games, p.forfeited, p.games_won, p.games_lost))
        .collect();
    assert_eq!(
        tally,
        [
            (1, false, 0, 6),
            (2, false, 6, 0),
            (0, true, 0, 6),
            (0, false, 6, 0)
        ]
    );
}

#[test]
fn all_fives_penalty_to_opponents_can_win_the_game() {
    let mut g = pairs(
        "all-fives",
        json!([{"plays": [{"by": "Bob", "points": 60}], "end": blocked4([1, 20, 1, 20])}]),
    );
    g["options"] = json!({"target": 100});
    g["penalties"] = json!([{"player": "Dan", "kind": "talking", "before_hand": 2}]);
    let o = ok(&g);
    // 60 for side 1 in play; the block gives side 0 40; then 50 to side 0 wins.
    assert_eq!(o.totals, [90, 60]);
    assert!(!o.finished);
    g["penalties"] = json!([
        {"player": "Dan", "kind": "talking", "before_hand": 2},
        {"player": "Bob", "kind": "exposed", "before_hand": 2}
    ]);
    let o = ok(&g);
    assert_eq!((o.totals, o.winner), ([140, 60], Some(0)));
    // A third penalty after the win is a record that goes on.
    g["penalties"]
        .as_array_mut()
        .unwrap()
        .push(json!({"player": "Ann", "kind": "talking", "before_hand": 2}));
    assert!(refused(&g).contains("already won"));
}

#[test]
fn all_fives_penalty_deducted_from_offender_never_below_zero() {
    let mut g = pairs(
        "all-fives",
        json!([{"plays": [{"by": "Ann", "points": 20}], "end": blocked4([5, 5, 5, 5])}]),
    );
    g["options"] = json!({"penalty_to": "offender", "penalty_points": 30});
    g["penalties"] = json!([{"player": "Cat", "kind": "exposed", "before_hand": 2}]);
    assert_eq!(ok(&g).totals, [0, 0]);
}

#[test]
fn all_fives_blocked_difference_option_and_equal_counts() {
    let mut g = pairs(
        "all-fives",
        json!([{"plays": [], "end": blocked4([7, 4, 6, 12])}]),
    );
    g["options"] = json!({"blocked_scores": "difference"});
    assert_eq!(ok(&g).totals, [5, 0], "16 - 13 = 3 rounds to 5");
    let g = pairs(
        "all-fives",
        json!([{"plays": [], "end": blocked4([8, 4, 6, 10])}]),
    );
    assert_eq!(ok(&g).totals, [0, 0], "equal counts: nobody scores");
}

#[test]
fn all_fives_muggins_goes_to_the_claimant_and_250_wins_at_once() {
    let plays: Vec<_> = (0..4)
        .flat_map(|_| {
            [
                json!({"by": "Ann", "points": 60}),
                json!({"by": "Bob", "points": 5, "muggins": true}),
            ]
        })
        .collect();
    let mut hands = vec![json!({"plays": plays[..6].to_vec(), "end": blocked4([1, 1, 1, 1])})];
    hands.push(json!({"plays": [{"by": "Cat", "points": 60}, {"by": "Cat", "points": 10}]}));
    let o = ok(&pairs("all-fives", json!(hands)));
    assert_eq!((o.totals, o.winner), ([250, 15], Some(0)));
}

#[test]
fn fives_and_threes_without_exact_finish_passing_wins() {
    let mut hands = ann_to(58);
    hands.push(json!({"plays": [{"by": "Ann", "points": 4}]}));
    let mut g = fat_singles(json!(hands));
    g["options"] = json!({"exact_finish": false});
    assert_eq!(ok(&g).totals, [62, 0]);
}

#[test]
fn fives_and_threes_other_target() {
    let mut hands = ann_to(118);
    hands.push(json!({"plays": [{"by": "Ann", "points": 3}]}));
    let mut g = fat_singles(json!(hands));
    g["options"] = json!({"target": 121});
    assert_eq!(ok(&g).winner, Some(0));
}

#[test]
fn next_pose_carries_on_once_the_game_is_won() {
    // Singles alternate the pose; the game is won in its last hand and the
    // next game opens with the player after that hand's poser.
    let mut hands = ann_to(55);
    hands.push(json!({"plays": [{"by": "Ann", "points": 6}]}));
    let o = ok(&fat_singles(json!(hands)));
    let n = o.hands.len();
    assert_eq!(o.hands[n - 1].posed_by, (n - 1) % 2);
    assert_eq!(o.next_pose, n % 2);
}

#[test]
fn winner_poses_option() {
    let mut g = pairs(
        "hands-won",
        json!([out("Cat"), tie(), {"plays": [], "end": blocked4([9, 9, 2, 5])}, out("Dan")]),
    );
    g["options"] = json!({"pose": "winner"});
    let o = ok(&g);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    // Cat won hand 1 and poses 2; hand 2 tied so the pose rotates to Dan;
    // Cat held the lowest count in hand 3 and poses 4; Dan won hand 4.
    assert_eq!(posers, [0, 2, 3, 2]);
    assert_eq!(o.next_pose, 3);
}

/// A fives-and-threes blocked hand recorded without the counts.
fn blocked_uncounted() -> serde_json::Value {
    json!({"plays": [], "end": {"blocked": {}}})
}

/// `{"blocked": {}}` read and written back through the engine's game.
fn canonical(record: &serde_json::Value) -> serde_json::Value {
    let record = boneyard::rules::parse_record(&record.to_string()).unwrap();
    let game = boneyard::rules::Game::from_record(&record).unwrap();
    serde_json::to_value(game.to_record()).unwrap()
}

#[test]
fn fives_and_threes_blocked_without_counts_singles() {
    let g = fat_singles(json!([
        {"plays": [{"by": "Ann", "points": 8}, {"by": "Bob", "points": 3}], "end": {"blocked": {}}},
        blocked_uncounted(),
        {"plays": [{"by": "Bob", "points": 2}], "end": blocked2(4, 9)}
    ]));
    let o = ok(&g);
    assert_eq!(o.totals, [8, 5], "the counts change nothing");
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!(
        posers,
        [0, 1, 0],
        "the pose rotates after a count-less block"
    );
    assert_eq!(o.next_pose, 1);
    let back = canonical(&g);
    assert_eq!(back["hands"][0]["end"], json!({"blocked": {}}));
    assert_eq!(back["hands"][1]["end"], json!({"blocked": {}}));
    assert_eq!(back["hands"][2]["end"], blocked2(4, 9));
    assert_eq!(ok(&back), o);
}

#[test]
fn fives_and_threes_blocked_without_counts_pairs() {
    let g = pairs(
        "fives-and-threes",
        json!([
            {"plays": [{"by": "Bob", "points": 6}], "end": {"blocked": {}}},
            blocked_uncounted(),
            {"plays": [{"by": "Cat", "points": 4}], "end": blocked4([9, 4, 11, 7])},
            blocked_uncounted()
        ]),
    );
    let o = ok(&g);
    assert_eq!(o.totals, [4, 6]);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!(posers, [0, 1, 2, 3]);
    assert_eq!(o.next_pose, 0);
    let back = canonical(&g);
    assert_eq!(back["hands"][3]["end"], json!({"blocked": {}}));
    assert_eq!(back["hands"][2]["end"], blocked4([9, 4, 11, 7]));
}

#[test]
fn winner_poses_fives_and_threes_lowest_count_of_all_players() {
    let fat_out =
        |by: &str| json!({"plays": [{"by": by, "points": 3, "out": true}], "end": {"out": by}});
    let mut g = pairs(
        "fives-and-threes",
        json!([
            // Dan holds the lowest count: Dan poses next.
            {"plays": [], "end": blocked4([9, 9, 9, 2])},
            // Partners Bob and Dan share it: the first of them counting
            // from the poser, Dan himself.
            {"plays": [], "end": blocked4([9, 4, 9, 4])},
            // Ann and Bob share it across the sides: the pose rotates.
            {"plays": [], "end": blocked4([3, 3, 9, 9])},
            {"plays": [], "end": blocked4([9, 9, 1, 9])},
            // Ann and Cat share it; from Cat, Cat comes first.
            {"plays": [], "end": blocked4([4, 9, 4, 9])},
            fat_out("Bob")
        ]),
    );
    g["options"] = json!({"pose": "winner"});
    let o = ok(&g);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!(posers, [0, 3, 3, 0, 2, 2]);
    assert_eq!(o.next_pose, 1, "Bob chipped out");
    // Singles: the lower count poses; equal counts rotate.
    let mut g = fat_singles(json!([
        {"plays": [], "end": blocked2(8, 3)},
        {"plays": [], "end": blocked2(5, 5)},
        {"plays": [], "end": blocked2(2, 6)}
    ]));
    g["options"] = json!({"pose": "winner"});
    let o = ok(&g);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!((posers, o.next_pose), (vec![0, 1, 0], 0));
}

#[test]
fn winner_poses_all_fives_lowest_count_of_the_side_that_scored_the_block() {
    let mut g = pairs(
        "all-fives",
        json!([
            // Side 1 (10 against 21) scores; Ann holds the lowest count of
            // all, but Dan the lowest of side 1: Dan poses next.
            {"plays": [], "end": blocked4([1, 6, 20, 4])},
            // Side 1 scores again; partners Bob and Dan share its lowest:
            // counting from the poser Dan, Dan.
            {"plays": [], "end": blocked4([9, 5, 9, 5])},
            // Equal counts, 10 each: nobody scores, the pose rotates.
            {"plays": [], "end": blocked4([1, 5, 9, 5])},
            {"plays": [], "end": {"out": "Cat", "left": {"Bob": 3, "Dan": 2}}}
        ]),
    );
    g["options"] = json!({"pose": "winner"});
    let o = ok(&g);
    assert_eq!(o.totals, [5, 40]);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    assert_eq!(posers, [0, 3, 3, 0]);
    assert_eq!(o.next_pose, 2, "Cat played out");
}

#[test]
fn winner_poses_hands_won_partners_tie_and_void_hand() {
    let mut g = pairs(
        "hands-won",
        json!([
            out("Cat"),
            // Ann and Cat share the lowest count; counting from Cat, Cat.
            {"plays": [], "end": blocked4([2, 9, 2, 9])},
            {"plays": [], "end": {"abandoned": true}},
            out("Bob")
        ]),
    );
    g["options"] = json!({"pose": "winner"});
    g["penalties"] = json!([{"player": "Bob", "kind": "violation", "before_hand": 3}]);
    let o = ok(&g);
    let posers: Vec<usize> = o.hands.iter().map(|h| h.posed_by).collect();
    // Cat won hands 1 and 2; hand 3 was void, so the pose rotates to Dan.
    assert_eq!(posers, [0, 2, 2, 3]);
    assert_eq!(o.next_pose, 1, "Bob won hand 4");
}
