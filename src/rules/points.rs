//! What a single play can score, by format: the arithmetic of the line of
//! play that both the engine (to refuse impossible plays) and the game
//! simulator (to score the tiles it lays) rely on.

/// Fives and Threes: one point per 5 and one per 3 dividing the ends total.
pub fn fives_and_threes(ends_total: u32) -> u32 {
    if ends_total == 0 {
        return 0;
    }
    let fives = if ends_total % 5 == 0 {
        ends_total / 5
    } else {
        0
    };
    let threes = if ends_total % 3 == 0 {
        ends_total / 3
    } else {
        0
    };
    fives + threes
}

/// Whether a Fives and Threes play's own score (without the chipping-out
/// point) is one some ends total can give: 1, 2, 3, 4, 6 or 8.
pub fn fives_and_threes_possible(points: u32) -> bool {
    matches!(points, 1 | 2 | 3 | 4 | 6 | 8)
}

/// All Fives: the ends total itself when it is a multiple of 5.
pub fn all_fives(ends_total: u32) -> u32 {
    if ends_total % 5 == 0 { ends_total } else { 0 }
}

/// Whether an All Fives play's score is possible: a multiple of 5 from 5
/// to 60, the range RULES.md fixes.
pub fn all_fives_possible(points: u32) -> bool {
    points % 5 == 0 && (5..=60).contains(&points)
}

/// Fives and Threes: a side's total after a score, or `None` when the
/// score is disregarded because it would take the side past an exact
/// target. Passing the target is allowed when the finish need not be exact.
pub fn fives_and_threes_counted(total: u32, score: u32, target: u32, exact: bool) -> Option<u32> {
    let new = total.saturating_add(score);
    if exact && new > target {
        None
    } else {
        Some(new)
    }
}

/// All Fives rounding of a pip count to the nearest 5: a remainder of 0-2
/// rounds down, 3-4 up.
pub fn round_to_five(pips: u32) -> u32 {
    (pips + 2) / 5 * 5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fives_and_threes_table_of_rules_md() {
        let table = [
            (3, 1),
            (5, 1),
            (6, 2),
            (9, 3),
            (10, 2),
            (12, 4),
            (15, 8),
            (18, 6),
            (20, 4),
        ];
        for (total, points) in table {
            assert_eq!(fives_and_threes(total), points, "ends {total}");
        }
        for total in [0, 1, 2, 4, 7, 8, 11, 13, 14, 16, 17, 19, 22] {
            assert_eq!(fives_and_threes(total), 0, "ends {total}");
        }
    }

    #[test]
    fn every_reachable_ends_total_scores_a_possible_play() {
        // Two open ends, each a half (0-6) or a double (0-12 even), or the
        // first tile alone (its pips).
        let end_values: Vec<u32> = (0..=6).chain((0..=6).map(|h| 2 * h)).collect();
        for &a in &end_values {
            for &b in &end_values {
                let p = fives_and_threes(a + b);
                assert!(p == 0 || fives_and_threes_possible(p), "{a}+{b}");
            }
        }
    }

    #[test]
    fn rounding_to_five() {
        for (pips, rounded) in [
            (0, 0),
            (2, 0),
            (3, 5),
            (12, 10),
            (13, 15),
            (16, 15),
            (17, 15),
            (18, 20),
        ] {
            assert_eq!(round_to_five(pips), rounded, "{pips}");
        }
    }

    #[test]
    fn all_fives_plays() {
        assert_eq!(all_fives(5), 5);
        assert_eq!(all_fives(7), 0);
        assert!(all_fives_possible(60) && !all_fives_possible(65) && !all_fives_possible(0));
    }
}
