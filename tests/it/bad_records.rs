//! Every way RULES.md makes a record bad: each is refused whole, with a
//! message naming the hand and play where it applies and what is wrong.

use serde_json::{Value, json};

use crate::helpers::*;

fn out_hand(name: &str) -> Value {
    json!({"plays": [], "end": {"out": name}})
}

/// Asserts the refusal names `place` (e.g. "hand 2, play 1:") and says
/// `why`.
fn assert_refused(record: &Value, place: &str, why: &str) {
    let e = refused(record);
    assert!(e.starts_with(place), "expected `{place}` in: {e}");
    assert!(e.contains(why), "expected `{why}` in: {e}");
}

#[test]
fn unknown_format() {
    let mut g = fat_singles(json!([]));
    g["format"] = json!("fives-and-sevens");
    assert_refused(&g, "unknown format", "fives-and-sevens");
}

#[test]
fn wrong_number_of_players() {
    let mut g = fat_singles(json!([]));
    g["players"] = json!(["Ann", "Bob", "Cat"]);
    assert_refused(&g, "a game has 2 or 4 players", "3");
    let mut g = fat_singles(json!([]));
    g["format"] = json!("hands-won");
    assert_refused(&g, "hands-won is played by 4", "lists 2");
}

#[test]
fn players_named_twice_or_not_at_all() {
    let mut g = fat_singles(json!([]));
    g["players"] = json!(["Ann", "Ann"]);
    assert_refused(&g, "`Ann` is listed twice", "");
    g["players"] = json!(["Ann", " "]);
    assert_refused(&g, "player 2 has no name", "");
}

#[test]
fn sides_that_do_not_match_the_players() {
    let mut g = fat_singles(json!([]));
    g["sides"] = json!([["Ann"], ["Zed"]]);
    assert_refused(&g, "side 2 names `Zed`", "not in players");
    g["sides"] = json!([["Ann"], ["Ann"]]);
    assert_refused(&g, "`Ann` is on a side twice", "");
    g["sides"] = json!([["Ann", "Bob"]]);
    assert_refused(&g, "sides must list exactly 2", "");
    let mut g = pairs("fives-and-threes", json!([]));
    g["sides"] = json!([["Ann", "Bob"], ["Cat", "Dan"]]);
    assert_refused(&g, "partners must not sit next to each other", "alternate");
}

#[test]
fn draw_problems() {
    let mut g = fat_singles(json!([]));
    g["draw"] = json!({"Ann": "6-1", "Bob": "1-6"});
    assert_refused(&g, "give either `draw` or `first_pose`", "");
    g.as_object_mut().unwrap().remove("first_pose");
    assert_refused(&g, "draw: Ann and Bob both drew 6-1", "");
    g["draw"] = json!({"Ann": "6-1", "Bob": "7-1"});
    assert_refused(&g, "draw: Bob: `7-1` is not a double-six tile", "");
    g["draw"] = json!({"Ann": "6-1"});
    assert_refused(&g, "draw: `Bob` has no drawn tile", "");
    g["draw"] = json!({"Ann": "6-1", "Bob": "2-2", "Zed": "3-3"});
    assert_refused(&g, "draw: `Zed` is not one of the players", "");
    g.as_object_mut().unwrap().remove("draw");
    assert_refused(&g, "say who poses hand 1", "");
    g["first_pose"] = json!("Zed");
    assert_refused(&g, "first_pose `Zed`", "not one of the players");
}

#[test]
fn unknown_or_mistyped_options() {
    let mut g = fat_singles(json!([]));
    g["options"] = json!({"derby": "growing"});
    assert_refused(&g, "option `derby`", "not an option of fives-and-threes");
    g["options"] = json!({"target": "61"});
    assert_refused(&g, "option `target`", "whole number");
    g["options"] = json!({"tiles_per_hand": 4});
    assert_refused(&g, "option `tiles_per_hand`", "at least 5");
}

#[test]
fn impossible_plays_name_their_hand_and_play() {
    let g = fat_singles(json!([fat_hand("Ann", &[3]), fat_hand("Ann", &[2, 5])]));
    assert_refused(&g, "hand 2, play 2:", "not 5");
    let g = fat_singles(json!([fat_hand("Ann", &[7])]));
    assert_refused(&g, "hand 1, play 1:", "not 7");
    let g = fat_singles(json!([{"plays": [{"by": "Ann", "points": 0}], "end": blocked2(1, 1)}]));
    assert_refused(&g, "hand 1, play 1:", "0 only when chipping out");
    let g = fat_singles(json!([{"plays": [{"by": "Ann", "points": -3}], "end": blocked2(1, 1)}]));
    assert_refused(&g, "hand 1, play 1:", "0 or more");
    let g = fat_singles(json!([{"plays": [{"by": "Zed", "points": 3}], "end": blocked2(1, 1)}]));
    assert_refused(&g, "hand 1, play 1:", "`Zed` is not one of the players");
    let g = pairs(
        "all-fives",
        json!([{"plays": [{"by": "Bob", "points": 12}], "end": blocked4([1, 1, 1, 1])}]),
    );
    assert_refused(&g, "hand 1, play 1:", "multiple of 5");
    let g = pairs(
        "all-fives",
        json!([{"plays": [{"by": "Bob", "points": 65}], "end": blocked4([1, 1, 1, 1])}]),
    );
    assert_refused(&g, "hand 1, play 1:", "from 5 to 60");
    let g = pairs(
        "hands-won",
        json!([{"plays": [{"by": "Bob", "points": 1}], "end": {"out": "Bob"}}]),
    );
    assert_refused(&g, "hand 1:", "`plays` must be empty");
}

#[test]
fn more_scoring_plays_than_tiles() {
    // Pairs: 6 tiles each by default.
    let mut hand = fat_hand("Ann", &[1, 1, 1, 1, 1, 1, 1]);
    hand["end"] = blocked4([1, 2, 3, 4]);
    let mut g = pairs("fives-and-threes", json!([hand]));
    assert_refused(&g, "hand 1, play 7:", "more than 6 scoring plays");
    g["options"] = json!({"tiles_per_hand": 7});
    ok(&g);
}

#[test]
fn chipping_out_marks_must_match_the_end() {
    let g = fat_singles(
        json!([{"plays": [{"by": "Ann", "points": 2, "out": true}, {"by": "Bob", "points": 3}], "end": {"out": "Ann"}}]),
    );
    assert_refused(&g, "hand 1, play 1:", "more plays follow");
    let g = fat_singles(json!([{"plays": [{"by": "Ann", "points": 2}], "end": {"out": "Ann"}}]));
    assert_refused(&g, "hand 1:", "last play must be Ann's");
    let g = fat_singles(
        json!([{"plays": [{"by": "Bob", "points": 2, "out": true}], "end": {"out": "Ann"}}]),
    );
    assert_refused(&g, "hand 1:", "last play must be Ann's");
    let g = fat_singles(
        json!([{"plays": [{"by": "Ann", "points": 2, "out": true}], "end": blocked2(3, 4)}]),
    );
    assert_refused(&g, "hand 1, play 1:", "end is not `out`");
    let g = pairs(
        "all-fives",
        json!([{"plays": [{"by": "Ann", "points": 5, "out": true}], "end": blocked4([1, 1, 1, 1])}]),
    );
    assert_refused(&g, "hand 1, play 1:", "`out` marks chipping out");
    let g = fat_singles(
        json!([{"plays": [{"by": "Ann", "points": 5, "muggins": true}], "end": blocked2(1, 1)}]),
    );
    assert_refused(&g, "hand 1, play 1:", "muggins");
}

#[test]
fn ends_that_make_no_sense() {
    let g = fat_singles(json!([{"plays": [], "end": {}}]));
    assert_refused(&g, "hand 1:", "exactly one of");
    let g = fat_singles(json!([{"plays": [], "end": {"blocked": {"Ann": 3}}}]));
    assert_refused(&g, "hand 1:", "`Bob`'s pips are missing");
    let g = fat_singles(json!([{"plays": [], "end": {"blocked": {"Ann": 3, "Bob": -1}}}]));
    assert_refused(&g, "hand 1:", "Bob holds -1 pips");
    let g = fat_singles(json!([{"plays": [], "end": {"blocked": {"Ann": 100, "Bob": 100}}}]));
    assert_refused(&g, "hand 1:", "more than a double-six set holds");
    let g = fat_singles(json!([{"plays": [], "end": {"blocked": {"Ann": 3, "Bob": 4, "Zed": 1}}}]));
    assert_refused(&g, "hand 1:", "`Zed` is not one of the players");
    let g = fat_singles(json!([{"plays": [], "end": {"abandoned": true}}, fat_hand("Ann", &[1])]));
    assert_refused(&g, "hand 1:", "only a hands-won hand can be abandoned");
    let g = pairs("all-fives", json!([out_hand("Ann")]));
    assert_refused(&g, "hand 1:", "needs `left`");
    let g = pairs(
        "all-fives",
        json!([{"plays": [], "end": {"out": "Ann", "left": {"Bob": 3, "Cat": 4}}}]),
    );
    assert_refused(&g, "hand 1:", "`Dan`'s pips are missing");
    let g = pairs(
        "hands-won",
        json!([{"plays": [], "end": {"out": "Ann", "left": {"Bob": 3, "Dan": 4}}}]),
    );
    assert_refused(&g, "hand 1:", "`left`");
    let g = pairs(
        "hands-won",
        json!([{"plays": [], "end": {"abandoned": true}}, out_hand("Ann")]),
    );
    assert_refused(&g, "hand 1:", "no violation penalty");
}

#[test]
fn a_hand_without_an_end() {
    let g = fat_singles(json!([{"plays": [{"by": "Ann", "points": 3}]}, fat_hand("Ann", &[1])]));
    // Not won in hand 1: the missing end is hand 1's, whatever follows.
    assert_refused(&g, "hand 1:", "the game was not won during it");
    let g = fat_singles(json!([{"plays": [{"by": "Ann", "points": 3}]}]));
    assert_refused(&g, "hand 1:", "the game was not won during it");
}

#[test]
fn a_record_that_goes_on_after_the_game_was_won() {
    let eights = fat_hand("Ann", &[8, 8, 8, 8, 8, 8]);
    let win = json!({"plays": [{"by": "Ann", "points": 8}, {"by": "Ann", "points": 4}, {"by": "Ann", "points": 1}, {"by": "Bob", "points": 2}]});
    let g = fat_singles(json!([eights, win]));
    assert_refused(&g, "hand 2, play 4:", "already won at hand 2, play 3");
    let win = json!({"plays": [{"by": "Ann", "points": 8}, {"by": "Ann", "points": 4}, {"by": "Ann", "points": 1}], "end": blocked2(0, 5)});
    let g = fat_singles(json!([eights, win, fat_hand("Bob", &[3])]));
    assert_refused(&g, "hand 3:", "already won at hand 2, play 3");
    let hands: Vec<_> = (0..7).map(|_| out_hand("Bob")).collect();
    assert_refused(
        &pairs("hands-won", json!(hands)),
        "hand 7:",
        "already won at hand 6",
    );
}

#[test]
fn penalties_that_do_not_belong() {
    let mut g = fat_singles(json!([fat_hand("Ann", &[1])]));
    g["penalties"] = json!([{"player": "Ann", "kind": "talking", "before_hand": 1}]);
    assert_refused(
        &g,
        "penalty 1:",
        "fives-and-threes has no in-game penalties",
    );
    let mut g = pairs("all-fives", json!([]));
    g["penalties"] = json!([{"player": "Ann", "kind": "violation", "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "not an all-fives penalty");
    let mut g = pairs("hands-won", json!([]));
    g["penalties"] = json!([{"player": "Ann", "kind": "late", "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "needs `minutes`");
    g["penalties"] = json!([{"player": "Ann", "kind": "talking", "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "not a hands-won penalty");
    g["penalties"] = json!([{"player": "Ann", "kind": "violation", "before_hand": 2}]);
    assert_refused(&g, "penalty 1:", "from 1 to 1");
    g["penalties"] =
        json!([{"player": "Ann", "kind": "violation", "minutes": 3, "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "only a late arrival");
    g["penalties"] = json!([{"player": "Zed", "kind": "violation", "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "`Zed` is not one of the players");
    g["penalties"] = json!([{"player": "Ann", "kind": "singing", "before_hand": 1}]);
    assert_refused(&g, "penalty 1:", "unknown kind `singing`");
}

#[test]
fn malformed_json_names_the_place() {
    let mut g = fat_singles(json!([fat_hand("Ann", &[3]), fat_hand("Ann", &[3])]));
    g["hands"][1]["plays"][0]["points"] = json!("3");
    assert_refused(&g, "hand 2, play 1:", "hands[1].plays[0].points");
    let mut g = fat_singles(json!([fat_hand("Ann", &[3])]));
    g["hands"][0]["ends"] = json!({});
    assert_refused(&g, "hand 1:", "unknown field `ends`");
    let mut g = fat_singles(json!([]));
    g.as_object_mut().unwrap().remove("hands");
    assert_refused(&g, "not a game record", "missing field `hands`");
    let e = boneyard::rules::parse_record("{\"format\": ").unwrap_err();
    assert!(e.to_string().contains("EOF"), "{e}");
}

#[test]
fn a_blocked_hand_without_counts_where_they_are_needed() {
    let uncounted = json!({"plays": [], "end": {"blocked": {}}});
    // fives-and-threes with the winner posing: the lowest count poses next.
    let mut g = fat_singles(json!([fat_hand("Ann", &[3]), uncounted]));
    g["options"] = json!({"pose": "winner"});
    assert_refused(&g, "hand 2:", "blocked without pip counts");
    assert_refused(&g, "hand 2:", "`pose` option `winner`");
    let mut g = pairs("fives-and-threes", json!([uncounted]));
    g["options"] = json!({"pose": "winner"});
    assert_refused(&g, "hand 1:", "`pose` option `winner`");
    // all-fives and hands-won score the block from the counts.
    let g = pairs("all-fives", json!([uncounted]));
    assert_refused(&g, "hand 1:", "blocked without pip counts");
    assert_refused(&g, "hand 1:", "all-fives");
    let mut g = fat_singles(json!([uncounted]));
    g["format"] = json!("all-fives");
    assert_refused(&g, "hand 1:", "blocked without pip counts");
    let g = pairs("hands-won", json!([out_hand("Ann"), uncounted]));
    assert_refused(&g, "hand 2:", "blocked without pip counts");
    assert_refused(&g, "hand 2:", "hands-won");
    // Some counts but not all is still a mistake in fives-and-threes.
    let g = pairs(
        "fives-and-threes",
        json!([{"plays": [], "end": {"blocked": {"Ann": 3, "Bob": 4}}}]),
    );
    assert_refused(&g, "hand 1:", "`Cat`'s pips are missing");
}
