//! The score card notation: a game typed as lines of text, fast from the
//! keyboard and readable on paper, turned into a RULES.md game record.
//!
//! Players are seat letters in order of play (`A`, `B`, `C`, `D`; sides
//! alternate, so A and C are partners). One line per hand:
//!
//! ```text
//! draw 6-1 4-3 2-2 5-0        the board's first game: drawn tiles, A first
//! A2 B8 C1x / out C           plays (x: chipped out), then how it ended
//! B3 A4 / blocked 9 4 11 7    every seat's pips, A first
//! B3 A4 / blocked             fives-and-threes: the pips may be left out
//! A10 B5m / out A left 12 3   all-fives: m = muggins; the opponents' pips
//! / abandoned                 hands-won: void after a violation
//! penalty B late 5            before the next hand (talking, exposed, violation)
//! A2 B8 C3                    a last hand won mid-way has no end
//! ```

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::rules::{
    EndRecord, Format, GameRecord, HandRecord, PenaltyRecord, PlayRecord, RecordError,
};

/// A mistake on a line of the card (1-based), said in the card's terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CardError {
    pub line: usize,
    pub message: String,
}

/// What the card needs to know besides its text.
#[derive(Debug, Clone)]
pub struct CardGame<'a> {
    pub format: Format,
    pub options: &'a Map<String, Value>,
    /// Names in order of play: seat A first.
    pub players: &'a [String],
    /// Who poses hand 1 when the text has no draw: the previous game's
    /// next pose, for a board's later games.
    pub carried_pose: Option<&'a str>,
}

const SEATS: [char; 4] = ['A', 'B', 'C', 'D'];

/// The seat letter of a player index.
pub fn seat_letter(seat: usize) -> char {
    SEATS[seat]
}

impl CardGame<'_> {
    fn seat(&self, token: &str) -> Option<usize> {
        let mut chars = token.chars();
        let c = chars.next()?.to_ascii_uppercase();
        if chars.next().is_some() {
            return None;
        }
        SEATS[..self.players.len()].iter().position(|&s| s == c)
    }

    fn name(&self, seat: usize) -> String {
        self.players[seat].clone()
    }

    /// Sides alternate in order of play: A and C, B and D.
    fn sides(&self) -> Vec<Vec<String>> {
        (0..2)
            .map(|s| self.players.iter().skip(s).step_by(2).cloned().collect())
            .collect()
    }
}

/// Reads a game's text into a record, and says which line each hand came
/// from so an engine refusal can point at the line. A text with mistakes
/// gets every one of them, in line order.
pub fn parse_game(text: &str, game: &CardGame) -> Result<(GameRecord, LineMap), Vec<CardError>> {
    let mut record = GameRecord {
        format: game.format.as_str().to_owned(),
        players: game.players.to_vec(),
        sides: game.sides(),
        draw: None,
        first_pose: game.carried_pose.map(str::to_owned),
        hands: Vec::new(),
        options: (!game.options.is_empty()).then(|| game.options.clone()),
        penalties: Vec::new(),
    };
    let mut lines = LineMap::default();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if let Err(e) = parse_line(raw, line, game, &mut record, &mut lines) {
            errors.push(e);
        }
    }
    // A mistyped draw has its own error already.
    let tried_opening = text.lines().any(|l| {
        let l = l.trim().to_ascii_lowercase();
        l.starts_with("draw") || l.starts_with("pose")
    });
    if record.draw.is_none() && record.first_pose.is_none() && !tried_opening {
        errors.insert(
            0,
            CardError {
                line: 1,
                message:
                    "start the board's first game with the draw, like `draw 6-1 4-3`, or `pose A`"
                        .into(),
            },
        );
    }
    if errors.is_empty() {
        Ok((record, lines))
    } else {
        Err(errors)
    }
}

/// One line of a game's text, added to `record`.
fn parse_line(
    raw: &str,
    line: usize,
    game: &CardGame,
    record: &mut GameRecord,
    lines: &mut LineMap,
) -> Result<(), CardError> {
    let n = game.players.len();
    let err = |message: String| CardError { line, message };
    let text = raw.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(());
    }
    let lower = text.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("draw") {
        if !record.hands.is_empty() || record.draw.is_some() {
            return Err(err("the draw comes first, once".into()));
        }
        if game.carried_pose.is_some() {
            return Err(err(
                "only a board's first game has a draw; later games are posed by the player after the last poser".into(),
            ));
        }
        let tiles: Vec<&str> = rest.split_whitespace().collect();
        if tiles.len() != n {
            return Err(err(format!(
                "the draw needs {n} tiles, one a seat from A, like `draw 6-1 4-3`"
            )));
        }
        record.draw = Some(
            tiles
                .iter()
                .enumerate()
                .map(|(s, t)| (game.name(s), (*t).to_owned()))
                .collect(),
        );
        return Ok(());
    }
    if let Some(rest) = lower.strip_prefix("pose") {
        if !record.hands.is_empty() || record.draw.is_some() || game.carried_pose.is_some() {
            return Err(err(
                "`pose` names the first poser of a board's first game, before any hand".into(),
            ));
        }
        let seat = game
            .seat(rest.trim())
            .ok_or_else(|| err(format!("`pose` takes a seat letter, A to {}", SEATS[n - 1])))?;
        record.first_pose = Some(game.name(seat));
        return Ok(());
    }
    if let Some(rest) = lower.strip_prefix("penalty") {
        record
            .penalties
            .push(parse_penalty(rest, game, record.hands.len() + 1).map_err(err)?);
        lines.penalties.push(line);
        return Ok(());
    }
    record.hands.push(parse_hand(text, game).map_err(err)?);
    lines.hands.push(line);
    Ok(())
}

fn parse_penalty(rest: &str, game: &CardGame, before_hand: usize) -> Result<PenaltyRecord, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let usage = "write a penalty as `penalty B talking`, `penalty B exposed`, `penalty B violation` or `penalty B late 5`";
    let (who, kind, minutes) = match words.as_slice() {
        [who, "late", m] => (
            who,
            "late",
            Some(
                m.parse::<i64>()
                    .map_err(|_| format!("`{m}` is not a number of minutes"))?,
            ),
        ),
        [who, kind] => (who, *kind, None),
        _ => return Err(usage.into()),
    };
    let seat = game
        .seat(who)
        .ok_or_else(|| format!("`{who}` is not a seat letter; {usage}"))?;
    Ok(PenaltyRecord {
        player: game.name(seat),
        kind: kind.to_owned(),
        before_hand: before_hand as i64,
        minutes,
    })
}

fn parse_hand(text: &str, game: &CardGame) -> Result<HandRecord, String> {
    let (plays_text, end_text) = match text.split_once('/') {
        Some((p, e)) => (p, Some(e)),
        None => (text, None),
    };
    let mut plays = Vec::new();
    for token in plays_text.split_whitespace() {
        let mut chars = token.chars();
        let seat = chars
            .next()
            .and_then(|c| game.seat(&c.to_string()))
            .ok_or_else(|| {
                format!("`{token}`: a play is a seat letter and points, like `A6` or `C1x`")
            })?;
        let rest: String = chars.collect();
        let lower = rest.to_ascii_lowercase();
        let (digits, flag) = match lower.trim_end_matches(['x', 'm']).len() {
            l if l < lower.len() => (&lower[..l], &lower[l..]),
            _ => (lower.as_str(), ""),
        };
        let points: i64 = digits.parse().map_err(|_| {
            format!("`{token}`: a play is a seat letter and points, like `A6` or `C1x`")
        })?;
        plays.push(PlayRecord {
            by: game.name(seat),
            points,
            out: flag.contains('x'),
            muggins: flag.contains('m'),
        });
    }
    let end = match end_text {
        None => None,
        Some(e) => Some(parse_end(e.trim(), game)?),
    };
    Ok(HandRecord { plays, end })
}

fn parse_end(text: &str, game: &CardGame) -> Result<EndRecord, String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let n = game.players.len();
    let pips = |nums: &[String], what: &str| -> Result<Vec<i64>, String> {
        nums.iter()
            .map(|w| {
                w.parse::<i64>()
                    .map_err(|_| format!("{what}: `{w}` is not a pip count"))
            })
            .collect()
    };
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["abandoned"] => Ok(EndRecord {
            abandoned: true,
            ..Default::default()
        }),
        ["out", who] | ["out", who, "left", ..] => {
            let seat = game
                .seat(who)
                .ok_or_else(|| format!("`out {who}`: name the seat letter of who played out"))?;
            let mut end = EndRecord::out(&game.name(seat));
            if words.len() > 2 {
                let opponents: Vec<usize> = (0..n).filter(|s| s % 2 != seat % 2).collect();
                let counts = pips(&words[3..], "left")?;
                if counts.len() != opponents.len() {
                    return Err(format!(
                        "`left` needs {} pip counts, the opponents' in seat order",
                        opponents.len()
                    ));
                }
                end.left = Some(
                    opponents
                        .iter()
                        .zip(counts)
                        .map(|(&s, c)| (game.name(s), c))
                        .collect(),
                );
            }
            Ok(end)
        }
        ["blocked"] if game.format == Format::FivesAndThrees => Ok(EndRecord {
            blocked: Some(Default::default()),
            ..Default::default()
        }),
        ["blocked", ..] => {
            let counts = pips(&words[1..], "blocked")?;
            if counts.len() != n {
                return Err(format!(
                    "`blocked` needs {n} pip counts, one a seat from A{}",
                    if game.format == Format::FivesAndThrees {
                        ", or none"
                    } else {
                        ""
                    }
                ));
            }
            Ok(EndRecord {
                blocked: Some(
                    counts
                        .into_iter()
                        .enumerate()
                        .map(|(s, c)| (game.name(s), c))
                        .collect(),
                ),
                ..Default::default()
            })
        }
        _ => Err(format!(
            "`{text}`: end a hand with `out C`, `blocked 9 4 11 7`{} or `abandoned`",
            if game.format == Format::AllFives {
                ", `out A left 12 3`"
            } else {
                ""
            }
        )),
    }
}

/// Where each hand and penalty of a game came from on the card (1-based
/// lines), so an engine refusal can point at its line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMap {
    pub hands: Vec<usize>,
    pub penalties: Vec<usize>,
}

/// An engine refusal pointed at the card's line and said in the card's
/// terms: the play as it was typed, `x` rather than the record's fields.
pub fn locate(err: &RecordError, lines: &LineMap, record: &GameRecord) -> CardError {
    let mut message = in_card_terms(&err.message);
    let mut line = err.hand.and_then(|h| lines.hands.get(h - 1).copied());
    // A penalty's refusal names it by number: point at its line.
    if let Some((n, why)) = message
        .strip_prefix("penalty ")
        .and_then(|rest| rest.split_once(": "))
        .and_then(|(n, why)| Some((n.parse::<usize>().ok()?, why.to_owned())))
    {
        line = line.or_else(|| lines.penalties.get(n - 1).copied());
        message = format!("this penalty: {why}");
    }
    if let (Some(h), Some(p)) = (err.hand, err.play) {
        let play = record
            .hands
            .get(h - 1)
            .and_then(|hand| hand.plays.get(p - 1));
        if let Some(play) = play {
            let seat = record
                .players
                .iter()
                .position(|name| *name == play.by)
                .map_or('?', seat_letter);
            message = format!(
                "`{seat}{}{}{}`: {message}",
                play.points,
                if play.out { "x" } else { "" },
                if play.muggins { "m" } else { "" }
            );
        }
    }
    CardError {
        line: line.unwrap_or(1),
        message,
    }
}

/// The engine speaks of game records (RULES.md); the card of lines typed.
fn in_card_terms(message: &str) -> String {
    const PHRASES: [(&str, &str); 12] = [
        (
            "the hand has no `end`, and the game was not won during it",
            "this hand has no end and the game was not won in it: finish the line with / and how the hand ended, like `/ out C` or `/ blocked`",
        ),
        (
            "; a record stops at the winning play",
            ": the card stops at the winning play, so this line should not be there",
        ),
        (
            "; nothing may follow the winning play",
            ": nothing may follow the winning play",
        ),
        (
            "marked `\"out\": true` (with points 0 if the tile scored nothing)",
            "with an x, like `C1x` (`C0x` if the tile itself scored nothing)",
        ),
        (
            "marked as chipping out, but the hand's end is not `out`",
            "the x marks chipping out, but the line does not end with `/ out` and that seat",
        ),
        (
            "a chipping-out play ends the hand, but more plays follow it",
            "the x marks chipping out, which ends the hand, but more plays follow it",
        ),
        (
            "a hands-won hand has no scoring plays: `plays` must be empty",
            "a hands-won hand has no scoring plays: write only how it ended, like `/ out A`",
        ),
        (
            "`out` marks chipping out in fives-and-threes; in all-fives the hand's end says who played out",
            "x marks chipping out in Fives and Threes; in All Fives write who played out after the /, like `/ out A left 12 3`",
        ),
        (
            "(a penalty with before_hand equal to this hand or the next)",
            "(add a line like `penalty B violation` before this hand or the next)",
        ),
        (
            "an all-fives hand played out needs `left`:",
            "an All Fives hand played out needs `left` and the opponents' pips, like `/ out A left 12 3`:",
        ),
        ("fives-and-threes", "Fives and Threes"),
        ("all-fives", "All Fives"),
    ];
    PHRASES
        .iter()
        .fold(message.to_owned(), |m, (from, to)| m.replace(from, to))
}

/// A record written back as card text, for editing a stored result.
pub fn game_text(record: &GameRecord, first_game: bool) -> String {
    let seat = |name: &str| {
        record
            .players
            .iter()
            .position(|p| p == name)
            .map_or('?', seat_letter)
    };
    let mut out = String::new();
    if first_game {
        if let Some(draw) = &record.draw {
            let tiles: Vec<&str> = record
                .players
                .iter()
                .map(|p| draw.get(p).map_or("?", String::as_str))
                .collect();
            let _ = writeln!(out, "draw {}", tiles.join(" "));
        } else if let Some(p) = &record.first_pose {
            let _ = writeln!(out, "pose {}", seat(p));
        }
    }
    for (h, hand) in record.hands.iter().enumerate() {
        for p in record
            .penalties
            .iter()
            .filter(|p| p.before_hand == h as i64 + 1)
        {
            let _ = writeln!(out, "{}", penalty_text(p, seat(&p.player)));
        }
        let plays: Vec<String> = hand
            .plays
            .iter()
            .map(|p| {
                format!(
                    "{}{}{}{}",
                    seat(&p.by),
                    p.points,
                    if p.out { "x" } else { "" },
                    if p.muggins { "m" } else { "" }
                )
            })
            .collect();
        out.push_str(&plays.join(" "));
        if let Some(end) = &hand.end {
            out.push_str(if plays.is_empty() { "/ " } else { " / " });
            if end.abandoned {
                out.push_str("abandoned");
            } else if let Some(p) = &end.out {
                let _ = write!(out, "out {}", seat(p));
                if let Some(left) = &end.left {
                    let mut counts: Vec<(usize, i64)> = left
                        .iter()
                        .map(|(name, c)| {
                            (
                                record.players.iter().position(|x| x == name).unwrap_or(0),
                                *c,
                            )
                        })
                        .collect();
                    counts.sort();
                    let nums: Vec<String> = counts.iter().map(|(_, c)| c.to_string()).collect();
                    let _ = write!(out, " left {}", nums.join(" "));
                }
            } else if let Some(b) = &end.blocked {
                out.push_str("blocked");
                // `{}`: a fives-and-threes hand blocked without the counts.
                if !b.is_empty() {
                    let nums: Vec<String> = record
                        .players
                        .iter()
                        .map(|p| b.get(p).map_or("0".into(), |c| c.to_string()))
                        .collect();
                    let _ = write!(out, " {}", nums.join(" "));
                }
            }
        }
        out.push('\n');
    }
    let after = record.hands.len() as i64 + 1;
    for p in record.penalties.iter().filter(|p| p.before_hand >= after) {
        let _ = writeln!(out, "{}", penalty_text(p, seat(&p.player)));
    }
    out
}

fn penalty_text(p: &PenaltyRecord, seat: char) -> String {
    match p.minutes {
        Some(m) => format!("penalty {seat} {} {m}", p.kind),
        None => format!("penalty {seat} {}", p.kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::score_record;

    fn names(n: usize) -> Vec<String> {
        ["Ann", "Bob", "Cat", "Dan"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn a_card_reads_as_the_record_and_back() {
        let players = names(4);
        let options = Map::new();
        let g = CardGame {
            format: Format::FivesAndThrees,
            options: &options,
            players: &players,
            carried_pose: None,
        };
        let text = "draw 6-1 4-3 2-2 5-0\nA2 B8 C1x / out C\n/ blocked 9 4 11 7\n";
        let (record, lines) = parse_game(text, &g).unwrap();
        assert_eq!(lines.hands, [2, 3]);
        assert_eq!(
            record.sides,
            vec![
                vec!["Ann".to_string(), "Cat".into()],
                vec!["Bob".into(), "Dan".into()]
            ]
        );
        let o = score_record(&record).unwrap();
        assert_eq!(o.totals, [4, 8]);
        assert_eq!(game_text(&record, true), text);
    }

    #[test]
    fn all_fives_and_hands_won_notation() {
        let players = names(4);
        let options = Map::new();
        let g = CardGame {
            format: Format::AllFives,
            options: &options,
            players: &players,
            carried_pose: Some("Bob"),
        };
        let text = "penalty B talking\nA10 B5m / out A left 12 3\nC15\n";
        let (record, _) = parse_game(text, &g).unwrap();
        assert_eq!(record.first_pose.as_deref(), Some("Bob"));
        assert_eq!(record.penalties[0].before_hand, 1);
        assert!(record.hands[0].plays[1].muggins);
        assert_eq!(game_text(&record, false), text);
        let g = CardGame {
            format: Format::HandsWon,
            ..g
        };
        let text =
            "penalty D late 5\n/ out A\n/ abandoned\npenalty B violation\n/ blocked 3 3 9 9\n";
        let (record, _) = parse_game(text, &g).unwrap();
        assert_eq!(record.penalties[1].before_hand, 3);
        assert!(score_record(&record).is_ok());
        assert_eq!(game_text(&record, false), text);
    }

    #[test]
    fn fives_and_threes_blocked_without_counts() {
        let players = names(4);
        let options = Map::new();
        let g = CardGame {
            format: Format::FivesAndThrees,
            options: &options,
            players: &players,
            carried_pose: None,
        };
        let text = "draw 6-1 4-3 2-2 5-0\nB6 / blocked\n/ blocked 9 4 11 7\nA3 C1 / BLOCKED\n";
        let (record, _) = parse_game(text, &g).unwrap();
        let ends: Vec<_> = record
            .hands
            .iter()
            .map(|h| h.end.clone().unwrap())
            .collect();
        assert_eq!(ends[0].blocked, Some(Default::default()));
        assert_eq!(ends[1].blocked.as_ref().map(|b| b.len()), Some(4));
        assert_eq!(ends[2].blocked, Some(Default::default()));
        let o = score_record(&record).unwrap();
        assert_eq!((o.totals, o.next_pose), ([4, 6], 3));
        assert_eq!(
            game_text(&record, true),
            text.replace("BLOCKED", "blocked"),
            "written back as `/ blocked`"
        );
        // Some counts but not all is a mistake of the card.
        let e = &parse_game("draw 6-1 4-3 2-2 5-0\n/ blocked 9 4\n", &g).unwrap_err()[0];
        assert!(e.message.contains("needs 4 pip counts") && e.message.contains("or none"));
        // With the winner posing, the engine needs the counts: its refusal
        // points at the line.
        let winner = Map::from_iter([("pose".to_owned(), Value::from("winner"))]);
        let g = CardGame {
            options: &winner,
            ..g
        };
        let (record, lines) = parse_game("draw 6-1 4-3 2-2 5-0\nB6 / blocked\n", &g).unwrap();
        let e = locate(&score_record(&record).unwrap_err(), &lines, &record);
        assert_eq!(e.line, 2);
        assert!(e.message.contains("`pose` option `winner`"), "{e}");
        // The other formats always need them.
        for format in [Format::AllFives, Format::HandsWon] {
            let g = CardGame {
                format,
                carried_pose: Some("Ann"),
                ..g.clone()
            };
            let e = &parse_game("/ blocked\n", &g).unwrap_err()[0];
            assert!(
                e.message.contains("needs 4 pip counts") && !e.message.contains("none"),
                "{e}"
            );
        }
    }

    #[test]
    fn mistakes_name_their_line() {
        let players = names(2);
        let options = Map::new();
        let g = CardGame {
            format: Format::FivesAndThrees,
            options: &options,
            players: &players,
            carried_pose: None,
        };
        let e = &parse_game("draw 6-1 4-3\nA2 Z8\n", &g).unwrap_err()[0];
        assert_eq!(e.line, 2);
        assert!(e.message.contains("`Z8`"));
        let e = &parse_game("draw 6-1\n", &g).unwrap_err()[0];
        assert!(e.message.contains("needs 2 tiles"));
        let e = &parse_game("A2 / out A\n", &g).unwrap_err()[0];
        assert!(e.message.contains("draw"));
        let e = &parse_game("draw 6-1 4-3\nA2 / sideways\n", &g).unwrap_err()[0];
        assert!(e.message.contains("end a hand with"));
        // An engine refusal points at the hand's line.
        let (record, lines) =
            parse_game("draw 6-1 4-3\n\nA2 / blocked 1 1\nA5 / blocked 1 1\n", &g).unwrap();
        let err = score_record(&record).unwrap_err();
        assert_eq!(locate(&err, &lines, &record).line, 4);
    }
}
