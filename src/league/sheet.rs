//! The printed score sheet, drawn from the match card's notation (`card.rs`)
//! so that the paper and the card are twins: the seats lettered as the card
//! letters them, a legend of the card's own lines, and, per hand, boxes for
//! what the card asks, in the card's order. Plain data; the web layer draws
//! it.

use crate::league::match_format::BoardKind;
use crate::rules::Format;
use crate::rules::ruleset::{PoseRule, Ruleset};

/// One seat of a board, as the card letters it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub letter: char,
    /// The card's label of the player chosen for the seat: "Home player",
    /// "Away player 2".
    pub side: String,
}

/// The seats of a board in order of play, fixed by team as the card fixes
/// them: singles A = home player, B = away player; pairs A = home 1,
/// B = away 1, C = home 2, D = away 2 (sides alternate; A and C partner).
pub fn seats(kind: BoardKind) -> Vec<Seat> {
    let n = kind.players_a_side();
    (0..n * 2)
        .map(|s| {
            let side = if s % 2 == 0 { "Home" } else { "Away" };
            Seat {
                letter: crate::league::card::seat_letter(s),
                side: if n == 1 {
                    format!("{side} player")
                } else {
                    format!("{side} player {}", s / 2 + 1)
                },
            }
        })
        .collect()
}

/// Which boxes a hand gets, left to right in the card's order, and how
/// many hand rows a game gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandBoxes {
    /// A box for a penalty, written on the card as its own line before the
    /// hand (`penalty B talking`). Fives and Threes has none in a game.
    pub penalty: bool,
    /// A box for the scoring plays (`A2 B8 C1x`). Hands-won has none.
    pub plays: bool,
    /// The headings of the running totals' boxes, home and away: points
    /// or games.
    pub totals: [&'static str; 2],
    /// Hand rows printed per game; more go on the back.
    pub rows: usize,
}

/// The boxes of the season's format. Rows: most games fit (in the demo's
/// simulated seasons Fives and Threes games last 6 hands on average and 11
/// at most; All Fives 10, 15 at most; hands-won sets 9, 13 at most), and a
/// nine-board Fives and Threes match prints on three A4 pages.
pub fn hand_boxes(format: Format) -> HandBoxes {
    match format {
        Format::FivesAndThrees => HandBoxes {
            penalty: false,
            plays: true,
            totals: ["Home", "Away"],
            rows: 12,
        },
        Format::AllFives => HandBoxes {
            penalty: true,
            plays: true,
            totals: ["Home", "Away"],
            rows: 12,
        },
        Format::HandsWon => HandBoxes {
            penalty: true,
            plays: false,
            totals: ["Home games", "Away games"],
            rows: 13,
        },
    }
}

/// A line of the card as the legend shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// Exactly as it is typed on the card.
    pub line: String,
    /// The seats of the board it is written for: 2 or 4.
    pub seats: usize,
    pub meaning: String,
}

fn example(line: &str, seats: usize, meaning: &str) -> Example {
    Example {
        line: line.to_owned(),
        seats,
        meaning: meaning.to_owned(),
    }
}

/// One example line of the card per kind of line, for the boards a season
/// plays: a draw line per kind of board, the rest for its largest board.
pub fn legend(ruleset: &Ruleset, kinds: &[BoardKind]) -> Vec<Example> {
    let singles = kinds.contains(&BoardKind::Singles);
    let pairs = kinds.contains(&BoardKind::Pairs);
    let n = if pairs { 4 } else { 2 };
    // Pairs boards write the longer lines; singles ones use A and B only.
    let pick = |four: &'static str, two: &'static str| if pairs { four } else { two };
    let mut lines = Vec::new();
    let first = "the tiles drawn, A first; the highest poses hand 1";
    match (singles, pairs) {
        (true, true) => {
            lines.push(example("draw 6-1 4-3", 2, &format!("singles: {first}")));
            lines.push(example("draw 6-1 4-3 2-2 5-0", 4, "pairs: A, B, C, D"));
        }
        (_, true) => lines.push(example("draw 6-1 4-3 2-2 5-0", 4, first)),
        _ => lines.push(example("draw 6-1 4-3", 2, first)),
    }
    let blocked = "blocked: every seat's pips left, A first";
    let last = format!(
        "the hand that reaches {}: stop at the winning play, no /",
        ruleset.target
    );
    let penalty = "a penalty: its own line, before the hand";
    match ruleset.format {
        Format::FivesAndThrees => {
            let (out, seat) = if pairs {
                ("A2 B8 C1x / out C", 'C')
            } else {
                ("A2 B8 A1x / out A", 'A')
            };
            lines.push(example(
                out,
                n,
                &format!("the scoring plays in order, then / and how it ended: {seat} played out"),
            ));
            if ruleset.pose == PoseRule::Winner {
                let line = pick("B3 A4 / blocked 9 4 11 7", "B3 A4 / blocked 9 4");
                lines.push(example(line, n, &format!("{blocked} (the winner poses)")));
            } else {
                lines.push(example("B3 A4 / blocked", n, "blocked: nobody played out"));
            }
            lines.push(example("A2 B8 A6", n, &last));
        }
        Format::AllFives => {
            lines.push(example(
                pick("A10 B5m / out A left 12 3", "A10 B5m / out A left 12"),
                n,
                "the scoring plays in order, then / and how it ended: A played out, left: the opponents' pips",
            ));
            lines.push(example(
                pick("A15 / blocked 9 4 11 7", "A15 / blocked 9 4"),
                n,
                blocked,
            ));
            lines.push(example(
                pick("penalty B talking", "penalty B exposed"),
                n,
                &format!("{penalty} (talking, exposed)"),
            ));
            lines.push(example("A20 B5", n, &last));
        }
        Format::HandsWon => {
            lines.push(example(
                "/ out A",
                n,
                "no plays in a set: / and how the hand ended, A played out",
            ));
            lines.push(example(
                pick("/ blocked 3 3 9 9", "/ blocked 3 9"),
                n,
                blocked,
            ));
            lines.push(example("/ abandoned", n, "abandoned after a violation"));
            lines.push(example(
                pick("penalty D late 5", "penalty B late 5"),
                n,
                &format!("{penalty}: late, with the minutes"),
            ));
            lines.push(example("penalty B violation", n, "a rules violation"));
        }
    }
    lines
}

/// What the legend's lines need said besides, in a sentence each.
pub fn notes(ruleset: &Ruleset, kinds: &[BoardKind]) -> Vec<String> {
    let mut notes = Vec::new();
    match ruleset.format {
        Format::FivesAndThrees => {
            let seat = if kinds.contains(&BoardKind::Pairs) {
                'C'
            } else {
                'A'
            };
            notes.push(format!(
                "x marks the chip-out play: write the play's own points ({seat}0x when the last \
                 tile scored nothing); the x adds the chip-out point."
            ));
            notes.push(
                "Fives and Threes has no penalties within a game: note a match penalty for the \
                 secretary."
                    .into(),
            );
        }
        Format::AllFives => notes.push(
            "m marks muggins: points an opponent did not call, written to the seat that claimed \
             them."
                .into(),
        ),
        Format::HandsWon => {}
    }
    notes.push(
        "Home and Away: the running totals after each hand, to help you count (the card works \
         them out)."
            .into(),
    );
    notes.push(
        "More hands: continue on the back, one line per hand (board, game, then the line as \
         above)."
            .into(),
    );
    notes
}

/// How the pose goes after hand 1, said once on the sheet.
pub fn pose_note(ruleset: &Ruleset) -> &'static str {
    match ruleset.pose {
        PoseRule::Winner => "then the winner of a hand poses the next (no winner: the next seat).",
        PoseRule::Rotate => "then the pose passes to the next seat every hand.",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::league::card::{CardGame, parse_game};

    const NAMES: [&str; 4] = ["Ann", "Bob", "Cat", "Dan"];

    #[test]
    fn seats_are_the_cards() {
        let letters = |k| {
            seats(k)
                .into_iter()
                .map(|s| format!("{}={}", s.letter, s.side))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            letters(BoardKind::Singles),
            ["A=Home player", "B=Away player"]
        );
        assert_eq!(
            letters(BoardKind::Pairs),
            [
                "A=Home player 1",
                "B=Away player 1",
                "C=Home player 2",
                "D=Away player 2"
            ]
        );
    }

    #[test]
    fn every_legend_line_is_read_by_the_card() {
        for format in Format::ALL {
            for pose in ["rotate", "winner"] {
                let options = Map::from_iter([("pose".to_owned(), pose.into())]);
                let ruleset = Ruleset::parse(format, Some(&options)).unwrap();
                for kinds in [
                    &[BoardKind::Singles][..],
                    &[BoardKind::Pairs],
                    &[BoardKind::Singles, BoardKind::Pairs],
                ] {
                    for e in legend(&ruleset, kinds) {
                        let players: Vec<String> =
                            NAMES[..e.seats].iter().map(|s| s.to_string()).collect();
                        let draw = e.line.starts_with("draw");
                        let game = CardGame {
                            format,
                            options: &options,
                            players: &players,
                            carried_pose: (!draw).then_some("Ann"),
                        };
                        parse_game(&e.line, &game)
                            .unwrap_or_else(|err| panic!("{format:?} {pose}: {e:?}: {err:?}"));
                    }
                }
            }
        }
    }
}
