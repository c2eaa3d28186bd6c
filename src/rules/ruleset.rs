//! A ruleset: one of the three formats plus the options of RULES.md.
//!
//! A season stores its ruleset as the format and the same options map a game
//! record carries, so both go through [`Ruleset::parse`].

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::{Map, Value};

/// The three rule families a league can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    FivesAndThrees,
    AllFives,
    HandsWon,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::FivesAndThrees, Format::AllFives, Format::HandsWon];

    /// The in-game penalties a record of this format may carry.
    pub fn penalty_kinds(self) -> &'static [&'static str] {
        match self {
            Format::FivesAndThrees => &[],
            Format::AllFives => &["talking", "exposed"],
            Format::HandsWon => &["violation", "late"],
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::FivesAndThrees => "fives-and-threes",
            Format::AllFives => "all-fives",
            Format::HandsWon => "hands-won",
        }
    }

    /// The name a person reads, e.g. on a season's page.
    pub fn title(self) -> &'static str {
        match self {
            Format::FivesAndThrees => "Fives and Threes",
            Format::AllFives => "All Fives",
            Format::HandsWon => "Partnership sets (hands won)",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                format!("unknown format `{s}` (expected fives-and-threes, all-fives or hands-won)")
            })
    }
}

/// Who poses the next hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PoseRule {
    /// The next player in order of play.
    Rotate,
    /// The winner of the last hand; rotate when it had no winner.
    Winner,
}

/// What the lower side scores when an `all-fives` hand is blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockedScores {
    Total,
    Difference,
}

/// Where `all-fives` penalty points go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PenaltyTo {
    Opponents,
    Offender,
}

/// How much the hand after a tied hand is worth in `hands-won`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Derby {
    Capped,
    Growing,
}

/// A format with every option resolved to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruleset {
    pub format: Format,
    pub pose: PoseRule,
    /// `fives-and-threes` and `all-fives`: the winning total.
    pub target: u32,
    pub exact_finish: bool,
    /// `fives-and-threes`: most scoring plays a player makes in a hand;
    /// `None` means 7 in singles and 6 in pairs.
    pub tiles_per_hand: Option<u32>,
    pub blocked_scores: BlockedScores,
    pub penalty_points: u32,
    pub penalty_to: PenaltyTo,
    pub set_to: u32,
    pub derby: Derby,
    /// From N minutes late, G penalty games; sorted by N.
    pub late_games: Vec<(u32, u32)>,
    pub late_forfeit_minutes: Option<u32>,
}

impl Ruleset {
    /// Whether a blocked hand must give every player's pips: always, but in
    /// `fives-and-threes` while the pose rotates (the counts change nothing).
    pub fn blocked_needs_counts(&self) -> bool {
        !(self.format == Format::FivesAndThrees && self.pose == PoseRule::Rotate)
    }

    /// The defaults of RULES.md for a format.
    pub fn new(format: Format) -> Ruleset {
        Ruleset {
            format,
            pose: PoseRule::Rotate,
            target: match format {
                Format::AllFives => 250,
                _ => 61,
            },
            exact_finish: true,
            tiles_per_hand: None,
            blocked_scores: BlockedScores::Total,
            penalty_points: 50,
            penalty_to: PenaltyTo::Opponents,
            set_to: 6,
            derby: Derby::Capped,
            late_games: vec![(1, 1), (5, 2)],
            late_forfeit_minutes: Some(6),
        }
    }

    /// A format and its options map; an unknown option or a value of the
    /// wrong kind is refused with the option's name.
    pub fn parse(format: Format, options: Option<&Map<String, Value>>) -> Result<Ruleset, String> {
        let mut r = Ruleset::new(format);
        for (key, value) in options.into_iter().flatten() {
            r.set(key, value)
                .map_err(|why| format!("option `{key}`: {why}"))?;
        }
        Ok(r)
    }

    fn set(&mut self, key: &str, v: &Value) -> Result<(), String> {
        use Format::*;
        match (self.format, key) {
            (_, "pose") => {
                self.pose = match v.as_str() {
                    Some("rotate") => PoseRule::Rotate,
                    Some("winner") => PoseRule::Winner,
                    _ => return Err(expected("\"rotate\" or \"winner\"", v)),
                }
            }
            (FivesAndThrees | AllFives, "target") => self.target = whole(v, 1)?,
            (FivesAndThrees, "exact_finish") => {
                self.exact_finish = v.as_bool().ok_or_else(|| expected("true or false", v))?
            }
            (FivesAndThrees, "tiles_per_hand") => {
                let n = whole(v, 5)?;
                if n > 9 {
                    return Err(format!("must be from 5 to 9, got {n}"));
                }
                self.tiles_per_hand = Some(n);
            }
            (AllFives, "blocked_scores") => {
                self.blocked_scores = match v.as_str() {
                    Some("total") => BlockedScores::Total,
                    Some("difference") => BlockedScores::Difference,
                    _ => return Err(expected("\"total\" or \"difference\"", v)),
                }
            }
            (AllFives, "penalty_points") => self.penalty_points = whole(v, 0)?,
            (AllFives, "penalty_to") => {
                self.penalty_to = match v.as_str() {
                    Some("opponents") => PenaltyTo::Opponents,
                    Some("offender") => PenaltyTo::Offender,
                    _ => return Err(expected("\"opponents\" or \"offender\"", v)),
                }
            }
            (HandsWon, "set_to") => self.set_to = whole(v, 2)?,
            (HandsWon, "derby") => {
                self.derby = match v.as_str() {
                    Some("capped") => Derby::Capped,
                    Some("growing") => Derby::Growing,
                    _ => return Err(expected("\"capped\" or \"growing\"", v)),
                }
            }
            (HandsWon, "late_games") => {
                let bad = || expected("a list of [minutes, games] pairs", v);
                let list = v.as_array().ok_or_else(bad)?;
                let mut pairs = Vec::with_capacity(list.len());
                for pair in list {
                    match pair.as_array().map(Vec::as_slice) {
                        Some([m, g]) => pairs.push((whole(m, 0)?, whole(g, 0)?)),
                        _ => return Err(bad()),
                    }
                }
                pairs.sort_unstable();
                self.late_games = pairs;
            }
            (HandsWon, "late_forfeit_minutes") => {
                self.late_forfeit_minutes = if v.is_null() {
                    None
                } else {
                    Some(whole(v, 0)?)
                }
            }
            (format, _) => return Err(format!("is not an option of {format}")),
        }
        Ok(())
    }

    /// The options map that gives this ruleset: only what differs from the
    /// defaults, so a record stays as short as its league's rules allow.
    pub fn options(&self) -> Map<String, Value> {
        let d = Ruleset::new(self.format);
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_owned(), v);
        };
        if self.pose != d.pose {
            put("pose", "winner".into());
        }
        match self.format {
            Format::FivesAndThrees | Format::AllFives if self.target != d.target => {
                put("target", self.target.into())
            }
            _ => {}
        }
        match self.format {
            Format::FivesAndThrees => {
                if !self.exact_finish {
                    put("exact_finish", false.into());
                }
                if let Some(n) = self.tiles_per_hand {
                    put("tiles_per_hand", n.into());
                }
            }
            Format::AllFives => {
                if self.blocked_scores != d.blocked_scores {
                    put("blocked_scores", "difference".into());
                }
                if self.penalty_points != d.penalty_points {
                    put("penalty_points", self.penalty_points.into());
                }
                if self.penalty_to != d.penalty_to {
                    put("penalty_to", "offender".into());
                }
            }
            Format::HandsWon => {
                if self.set_to != d.set_to {
                    put("set_to", self.set_to.into());
                }
                if self.derby != d.derby {
                    put("derby", "growing".into());
                }
                if self.late_games != d.late_games {
                    let pairs = self
                        .late_games
                        .iter()
                        .map(|&(m, g)| Value::from(vec![m, g]));
                    put("late_games", Value::Array(pairs.collect()));
                }
                if self.late_forfeit_minutes != d.late_forfeit_minutes {
                    put("late_forfeit_minutes", self.late_forfeit_minutes.into());
                }
            }
        }
        m
    }

    /// Penalty games for arriving `minutes` late, and whether the player
    /// forfeits the set.
    pub fn late_penalty(&self, minutes: u32) -> (u32, bool) {
        if self.late_forfeit_minutes.is_some_and(|f| minutes >= f) {
            return (0, true);
        }
        let games = self
            .late_games
            .iter()
            .filter(|&&(from, _)| minutes >= from)
            .map(|&(_, g)| g)
            .next_back()
            .unwrap_or(0);
        (games, false)
    }
}

fn whole(v: &Value, min: u32) -> Result<u32, String> {
    match v.as_u64() {
        Some(n) if n >= u64::from(min) => u32::try_from(n).map_err(|_| format!("{n} is too large")),
        Some(n) => Err(format!("must be at least {min}, got {n}")),
        None => Err(expected("a whole number", v)),
    }
}

fn expected(what: &str, got: &Value) -> String {
    format!("expected {what}, got {got}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(format: Format, v: Value) -> Result<Ruleset, String> {
        Ruleset::parse(format, v.as_object())
    }

    #[test]
    fn defaults_round_trip_to_an_empty_map() {
        for f in Format::ALL {
            assert!(Ruleset::new(f).options().is_empty());
        }
    }

    #[test]
    fn options_round_trip() {
        let r = parse(
            Format::HandsWon,
            json!({"pose": "winner", "set_to": 7, "derby": "growing",
                   "late_games": [[10, 3], [2, 1]], "late_forfeit_minutes": null}),
        )
        .unwrap();
        assert_eq!(r.late_games, vec![(2, 1), (10, 3)]);
        assert_eq!(
            parse(Format::HandsWon, Value::Object(r.options())).unwrap(),
            r
        );
    }

    #[test]
    fn unknown_and_mistyped_options_are_refused() {
        let e = parse(Format::FivesAndThrees, json!({"set_to": 6})).unwrap_err();
        assert!(e.contains("`set_to`") && e.contains("not an option"), "{e}");
        let e = parse(Format::AllFives, json!({"target": "250"})).unwrap_err();
        assert!(e.contains("whole number"), "{e}");
        assert!(parse(Format::FivesAndThrees, json!({"tiles_per_hand": 10})).is_err());
        assert!(parse(Format::HandsWon, json!({"set_to": 1})).is_err());
    }

    #[test]
    fn late_arrival_by_default_thresholds() {
        let r = Ruleset::new(Format::HandsWon);
        assert_eq!(r.late_penalty(0), (0, false));
        assert_eq!(r.late_penalty(1), (1, false));
        assert_eq!(r.late_penalty(4), (1, false));
        assert_eq!(r.late_penalty(5), (2, false));
        assert_eq!(r.late_penalty(6), (0, true));
    }
}
