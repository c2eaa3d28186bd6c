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
