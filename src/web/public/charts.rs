//! Pictures drawn on the server, for people who would rather look than
//! read: a team's position after each round, a player's rating by week. Each is inline SVG written by
//! its template (so every name in it is escaped like the rest of the page),
//! with `role="img"`, a title and a description, and the same numbers in a
//! table beside it; no script.

use chrono::{DateTime, Datelike, Duration, NaiveDate};

use crate::league::ratings::{Rating, Step};
use crate::league::time::Zone;

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
    /// The chart of a team placed `places` (round, position) among
    /// `teams`, as the team's view gives them.
    pub fn of_places(places: &[(u32, usize)], teams: usize, name: &str) -> Option<PositionChart> {
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

/// Width of a rating chart's plot, and its height.
const RATING_WIDTH: usize = 320;
const RATING_HEIGHT: usize = 140;

/// One week's point of a rating chart.
pub struct WeekDot {
    pub x: usize,
    pub y: usize,
    /// "w/c 6 Oct 2026".
    pub week: String,
    pub rating: String,
    pub uncertainty: String,
    pub games: u32,
}

/// A player's rating at the end of each week they played, left to right,
/// with a band of one uncertainty either side.
pub struct RatingChart {
    /// Unique on the page: the ids its labels point at.
    pub id: String,
    /// "Fives and Threes rating by week".
    pub title: String,
    pub width: usize,
    pub height: usize,
    pub left: usize,
    pub right: usize,
    pub bottom: usize,
    pub points: String,
    /// The band's outline: the upper edge left to right, then the lower
    /// edge back.
    pub band: String,
    pub dots: Vec<WeekDot>,
    pub levels: Vec<Tick>,
    pub weeks: Vec<Tick>,
    pub words: String,
}

impl RatingChart {
    /// The chart of `course` (a player's steps in one rule family), weeks
    /// taken in the league's zone; `None` before any dated game.
    pub fn new(id: &str, title: &str, course: &[Step], zone: Zone) -> Option<RatingChart> {
        // The last rating of each week (Monday to Sunday, local dates).
        let mut weeks: Vec<(NaiveDate, Rating)> = Vec::new();
        for step in course {
            let Some(at) = DateTime::from_timestamp(step.key.played_at, 0) else {
                continue;
            };
            let day = zone.local(at).date();
            let monday = day - Duration::days(i64::from(day.weekday().num_days_from_monday()));
            match weeks.last_mut() {
                Some((w, r)) if *w == monday => *r = step.after,
                _ => weeks.push((monday, step.after)),
            }
        }
        let (first, last) = (weeks.first()?.0, weeks.last()?.0);
        let span = ((last - first).num_days() / 7).max(1) as f64;
        let lo = weeks
            .iter()
            .map(|(_, r)| r.rating - r.uncertainty)
            .fold(f64::INFINITY, f64::min)
            .floor();
        let hi = weeks
            .iter()
            .map(|(_, r)| r.rating + r.uncertainty)
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .max(lo + 1.0);
        let right = LEFT + RATING_WIDTH;
        let bottom = TOP + RATING_HEIGHT;
        let x = |w: NaiveDate| {
            LEFT + (((w - first).num_days() / 7) as f64 / span * RATING_WIDTH as f64).round()
                as usize
        };
        let y = |v: f64| {
            TOP + (((hi - v) / (hi - lo)) * RATING_HEIGHT as f64)
                .round()
                .max(0.0) as usize
        };
        let dots: Vec<WeekDot> = weeks
            .iter()
            .map(|(w, r)| WeekDot {
                x: x(*w),
                y: y(r.rating),
                week: format!("w/c {}", w.format("%-d %b %Y")),
                rating: format!("{:.1}", r.rating),
                uncertainty: format!("{:.1}", r.uncertainty),
                games: r.games,
            })
            .collect();
        let points = dots
            .iter()
            .map(|d| format!("{},{}", d.x, d.y))
            .collect::<Vec<_>>()
            .join(" ");
        let upper = weeks
            .iter()
            .map(|(w, r)| format!("{},{}", x(*w), y(r.rating + r.uncertainty)));
        let lower = weeks
            .iter()
            .rev()
            .map(|(w, r)| format!("{},{}", x(*w), y(r.rating - r.uncertainty)));
        let band = upper.chain(lower).collect::<Vec<_>>().join(" ");
        let step = ((hi - lo) / 4.0).ceil().max(1.0);
        let mut levels = Vec::new();
        let mut v = lo;
        while v <= hi {
            levels.push(Tick {
                at: y(v),
                text: format!("{v:.0}"),
            });
            v += step;
        }
        let mut ticks = vec![Tick {
            at: x(first),
            text: first.format("%-d %b").to_string(),
        }];
        if last != first {
            ticks.push(Tick {
                at: x(last),
                text: last.format("%-d %b").to_string(),
            });
        }
        let (start, end) = (&weeks[0].1, &weeks[weeks.len() - 1].1);
        Some(RatingChart {
            id: id.to_owned(),
            title: title.to_owned(),
            width: right + RIGHT + 24,
            height: bottom + BOTTOM,
            left: LEFT,
            right,
            bottom,
            points,
            band,
            levels,
            weeks: ticks,
            words: format!(
                "From {:.1} after the week of {} to {:.1} (plus or minus {:.1}) after the week of {}, over {} week{}.",
                start.rating,
                first.format("%-d %B %Y"),
                end.rating,
                end.uncertainty,
                last.format("%-d %B %Y"),
                weeks.len(),
                if weeks.len() == 1 { "" } else { "s" }
            ),
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
