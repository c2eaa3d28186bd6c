//! Pictures drawn on the server, for people who would rather look than
//! read: a team's position after each round. Each is inline SVG written by
//! its template (so every name in it is escaped like the rest of the page),
//! with `role="img"`, a title and a description, and the same numbers in a
//! table beside it; no script.

use super::division::DivisionData;
use crate::db::TeamId;

/// Left margin (position labels), top, right and bottom (round labels).
const LEFT: usize = 28;
const TOP: usize = 10;
const RIGHT: usize = 10;
const BOTTOM: usize = 26;
/// Distance between rounds and between positions.
const ROUND_STEP: usize = 28;
const PLACE_STEP: usize = 18;

/// One round's point of the line.
pub struct Dot {
    pub x: usize,
    pub y: usize,
    pub round: u32,
    pub position: usize,
}

/// A label on an axis.
pub struct Tick {
    pub at: usize,
    pub text: String,
}

/// A team's position after each round, as a line from left (round 1) to
/// right, first place at the top.
pub struct PositionChart {
    /// The team's name, for the title.
    pub team: String,
    pub teams: usize,
    pub width: usize,
    pub height: usize,
    /// The plot's edges, for its grid lines.
    pub left: usize,
    pub right: usize,
    pub bottom: usize,
    /// The polyline's points: `x,y x,y ...`.
    pub points: String,
    pub dots: Vec<Dot>,
    pub places: Vec<Tick>,
    pub rounds: Vec<Tick>,
    /// The description: "After round 1: 3rd of 8; after round 2: 1st of 8".
    pub words: String,
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, ...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl PositionChart {
    /// The chart of `team` in `data`'s division, or `None` before any
    /// counted result. One table is computed a round, all from the one load.
    pub fn new(data: &DivisionData, team: TeamId, name: &str) -> Option<PositionChart> {
        let rounds = data.positions_by_round();
        let teams = rounds.first().map_or(0, |(_, order)| order.len());
        let places: Vec<(u32, usize)> = rounds
            .iter()
            .filter_map(|(round, order)| {
                let at = order.iter().position(|t| *t == team.0)?;
                Some((*round, at + 1))
            })
            .collect();
        if places.is_empty() || teams == 0 {
            return None;
        }
        let last_round = places.last().map_or(1, |p| p.0) as usize;
        let right = LEFT + (last_round.max(2) - 1) * ROUND_STEP;
        let bottom = TOP + (teams.max(2) - 1) * PLACE_STEP;
        let x = |round: u32| LEFT + (round as usize - 1) * ROUND_STEP;
        let y = |place: usize| TOP + (place - 1) * PLACE_STEP;
        let dots: Vec<Dot> = places
            .iter()
            .map(|&(round, position)| Dot {
                x: x(round),
                y: y(position),
                round,
                position,
            })
            .collect();
        let points = dots
            .iter()
            .map(|d| format!("{},{}", d.x, d.y))
            .collect::<Vec<_>>()
            .join(" ");
        let words = places
            .iter()
            .map(|(round, place)| format!("after round {round}: {} of {teams}", ordinal(*place)))
            .collect::<Vec<_>>()
            .join("; ");
        Some(PositionChart {
            team: name.to_owned(),
            teams,
            width: right + RIGHT,
            height: bottom + BOTTOM,
            left: LEFT,
            right,
            bottom,
            points,
            places: (1..=teams)
                .map(|p| Tick {
                    at: y(p),
                    text: p.to_string(),
                })
                .collect(),
            rounds: (1..=last_round as u32)
                .map(|r| Tick {
                    at: x(r),
                    text: r.to_string(),
                })
                .collect(),
            words: format!("{}{}.", words[..1].to_uppercase(), &words[1..]),
            dots,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }
}
