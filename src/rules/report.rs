//! The result JSON of RULES.md: the engine's outcome with names put back.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::game::Game;
use super::score::{Outcome, PlayerTally};

#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub format: &'static str,
    pub totals: [u32; 2],
    pub finished: bool,
    pub winner: Option<usize>,
    pub next_pose: &'a str,
    pub hands: Vec<HandReport<'a>>,
    pub players: Players<'a>,
}

#[derive(Debug, Serialize)]
pub struct HandReport<'a> {
    pub posed_by: &'a str,
    pub worth: u32,
    pub totals_after: [u32; 2],
    pub disregarded: &'a [usize],
    pub winner: Option<usize>,
}

/// Players keyed by name, in order of play.
#[derive(Debug)]
pub struct Players<'a>(Vec<(&'a str, PlayerTally)>);

#[derive(Serialize)]
struct TallyReport {
    games_won: u32,
    games_lost: u32,
    penalty_games: u32,
    forfeited: bool,
}

impl Serialize for Players<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, t) in &self.0 {
            let t = TallyReport {
                games_won: t.games_won,
                games_lost: t.games_lost,
                penalty_games: t.penalty_games,
                forfeited: t.forfeited,
            };
            map.serialize_entry(name, &t)?;
        }
        map.end()
    }
}

impl<'a> Report<'a> {
    pub fn new(game: &'a Game, outcome: &'a Outcome) -> Report<'a> {
        let name = |seat: usize| game.players[seat].as_str();
        Report {
            format: game.ruleset.format.as_str(),
            totals: outcome.totals,
            finished: outcome.finished,
            winner: outcome.winner,
            next_pose: name(outcome.next_pose),
            hands: outcome
                .hands
                .iter()
                .map(|h| HandReport {
                    posed_by: name(h.posed_by),
                    worth: h.worth,
                    totals_after: h.totals_after,
                    disregarded: &h.disregarded,
                    winner: h.winner,
                })
                .collect(),
            players: Players(
                outcome
                    .players
                    .iter()
                    .enumerate()
                    .map(|(seat, t)| (name(seat), *t))
                    .collect(),
            ),
        }
    }
}
