//! The player table of a season (LEAGUE.md, "Tables"): games played and
//! won and the win rate for every format, plus the format's own columns
//! (`fives-and-threes`: pegs per game, 8-point plays or "fifteens",
//! chip-outs; `all-fives`: points per game; `hands-won`: games won by the
//! player's pairs, penalty games, net, 6-0 sets). Players with at least
//! `min_games` games are ranked by win rate, then games won; the rest are
//! listed below them, unranked. Pure: the facts come in, rows go out.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::rules::{Format, Ruleset};

/// What one player did in one finished game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Whether the player's side won the game.
    pub won: bool,
    /// Their side's total: pegs (`fives-and-threes`), points (`all-fives`),
    /// games in the set (`hands-won`).
    pub pegs: u32,
    /// Plays of theirs scoring 8 (a "fifteen").
    pub eights: u32,
    /// Plays of theirs that chipped out.
    pub chip_outs: u32,
    /// Individual penalty games (`hands-won`).
    pub penalty_games: u32,
    /// `hands-won`: forfeited the set (late): it counts for them as 0 won,
    /// 6 lost, whatever their partner did.
    pub forfeited: bool,
    /// `hands-won`: their pair won the set 6-0.
    pub set_6_0_won: bool,
    /// `hands-won`: their pair lost the set 0-6.
    pub set_6_0_lost: bool,
}

/// A player's sums over a season.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub played: u32,
    pub won: u32,
    pub pegs: u32,
    pub eights: u32,
    pub chip_outs: u32,
    pub penalty_games: u32,
    pub forfeits: u32,
    pub sets_6_0_won: u32,
    pub sets_6_0_lost: u32,
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, g: &GameFacts) {
        self.played += 1;
        self.eights += g.eights;
        self.chip_outs += g.chip_outs;
        self.penalty_games += g.penalty_games;
        if g.forfeited {
            self.forfeits += 1;
            return;
        }
        self.won += u32::from(g.won);
        self.pegs += g.pegs;
        self.sets_6_0_won += u32::from(g.set_6_0_won);
        self.sets_6_0_lost += u32::from(g.set_6_0_lost);
    }

    /// Takes back what a game already added as played normally, when the
    /// player turns out to have forfeited it: what their pair won no
    /// longer counts for them.
    pub fn forfeit(&mut self, g: &GameFacts) {
        self.won = self.won.saturating_sub(u32::from(g.won));
        self.pegs = self.pegs.saturating_sub(g.pegs);
        self.sets_6_0_won = self.sets_6_0_won.saturating_sub(u32::from(g.set_6_0_won));
        self.sets_6_0_lost = self.sets_6_0_lost.saturating_sub(u32::from(g.set_6_0_lost));
        self.forfeits += 1;
    }

    /// Games won as a share of games played, 0 with none played.
    pub fn win_rate(&self) -> f64 {
        ratio(self.won, self.played)
    }

    /// The win rate in whole percent ([`win_percent`]).
    pub fn win_percent(&self) -> Option<u32> {
        win_percent(self.won.into(), self.played.into())
    }

    /// Pegs (or points) per game, 0 with none played.
    pub fn pegs_per_game(&self) -> f64 {
        ratio(self.pegs, self.played)
    }

    /// `hands-won`: games won by the player's pairs minus penalty games.
    pub fn net(&self) -> i64 {
        i64::from(self.pegs) - i64::from(self.penalty_games)
    }

    /// Higher win rate first (compared exactly), then more games won.
    fn rank_cmp(&self, other: &Tally) -> Ordering {
        let ours = u64::from(self.won) * u64::from(other.played);
        let theirs = u64::from(other.won) * u64::from(self.played);
        theirs.cmp(&ours).then(other.won.cmp(&self.won))
    }
}

fn ratio(n: u32, d: u32) -> f64 {
    if d == 0 {
        0.0
    } else {
        f64::from(n) / f64::from(d)
    }
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRow<P> {
    pub player: P,
    /// 1-based; players level on win rate and games won share it. `None`:
    /// fewer games than the minimum.
    pub position: Option<usize>,
    pub tally: Tally,
}

/// The table: the ranked rows first, then the unranked.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerTable<P> {
    pub format: Format,
    pub min_games: u32,
    pub ranked: Vec<PlayerRow<P>>,
    pub unranked: Vec<PlayerRow<P>>,
}

/// Sums each player's games.
pub fn tallies<P: Ord + Clone>(
    games: impl IntoIterator<Item = (P, GameFacts)>,
) -> BTreeMap<P, Tally> {
    let mut out: BTreeMap<P, Tally> = BTreeMap::new();
    for (player, g) in games {
        out.entry(player).or_default().add(&g);
    }
    out
}

/// Ranks players with at least `min_games` games by win rate, then games
/// won (then by `P`, for a stable order); lists the others below by games
/// played, most first.
pub fn table<P: Ord + Clone>(
    format: Format,
    min_games: u32,
    tallies: impl IntoIterator<Item = (P, Tally)>,
) -> PlayerTable<P> {
    let (mut ranked, mut unranked): (Vec<_>, Vec<_>) = tallies
        .into_iter()
        .map(|(player, tally)| PlayerRow {
            player,
            position: None,
            tally,
        })
        .partition(|r| r.tally.played >= min_games && r.tally.played > 0);
    ranked.sort_by(|a, b| a.tally.rank_cmp(&b.tally).then(a.player.cmp(&b.player)));
    for i in 0..ranked.len() {
        let position = if i > 0 && ranked[i].tally.rank_cmp(&ranked[i - 1].tally).is_eq() {
            ranked[i - 1].position
        } else {
            Some(i + 1)
        };
        ranked[i].position = position;
    }
    unranked.sort_by(|a, b| {
        b.tally
            .played
            .cmp(&a.tally.played)
            .then(a.tally.rank_cmp(&b.tally))
            .then(a.player.cmp(&b.player))
    });
    PlayerTable {
        format,
        min_games,
        ranked,
        unranked,
    }
}

/// An individual in-game penalty (`hands-won`), as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndividualPenalty {
    /// Arrived this many minutes late.
    Late { minutes: u32 },
    /// A rules violation: 1 penalty game.
    Violation,
}

/// Applies individual penalties to tallies already summed from the games
/// as played: each comes with its player, its game (any key) and what that
/// game was for the player. Late arrivals are converted by the ruleset; a
/// forfeit takes back the game's result for that player (once a game).
pub fn apply_penalties<P: Ord + Clone, G: Ord + Clone>(
    tallies: &mut BTreeMap<P, Tally>,
    ruleset: &Ruleset,
    penalties: impl IntoIterator<Item = (P, G, IndividualPenalty, GameFacts)>,
) {
    let mut forfeited = std::collections::BTreeSet::new();
    for (player, game, penalty, facts) in penalties {
        let tally = tallies.entry(player.clone()).or_default();
        match penalty {
            IndividualPenalty::Violation => tally.penalty_games += 1,
            IndividualPenalty::Late { minutes } => {
                let (games, forfeit) = ruleset.late_penalty(minutes);
                tally.penalty_games += games;
                if forfeit && forfeited.insert((player, game)) {
                    tally.forfeit(&facts);
                }
            }
        }
    }
}

/// Games won as a share of games played in whole percent, a half rounded
/// up (1 of 8 is 13%), as every page shows a win rate; none before a game.
pub fn win_percent(won: i64, played: i64) -> Option<u32> {
    if played <= 0 {
        return None;
    }
    let won = won.clamp(0, played);
    u32::try_from((won * 200 + played) / (2 * played)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(won: bool, pegs: u32) -> GameFacts {
        GameFacts {
            won,
            pegs,
            ..GameFacts::default()
        }
    }

    #[test]
    fn a_win_rate_rounds_a_half_up_on_every_page() {
        // 12.5% was 12% on the player table (a float's ties to even) and
        // 13% on the player's page.
        assert_eq!(win_percent(1, 8), Some(13));
        assert_eq!(win_percent(2, 3), Some(67));
        assert_eq!(win_percent(1, 3), Some(33));
        assert_eq!(win_percent(5, 5), Some(100));
        assert_eq!(win_percent(0, 0), None);
        let totals = Tally {
            played: 8,
            won: 1,
            ..Tally::default()
        };
        assert_eq!(totals.win_percent(), Some(13));
    }

    #[test]
    fn sums_games_per_player() {
        let t = tallies([
            (
                "ann",
                GameFacts {
                    eights: 2,
                    chip_outs: 1,
                    ..game(true, 61)
                },
            ),
            ("ann", game(false, 40)),
            ("bob", game(false, 12)),
        ]);
        let ann = t["ann"];
        assert_eq!((ann.played, ann.won, ann.pegs), (2, 1, 101));
        assert_eq!((ann.eights, ann.chip_outs), (2, 1));
        assert!((ann.win_rate() - 0.5).abs() < 1e-9);
        assert!((ann.pegs_per_game() - 50.5).abs() < 1e-9);
        assert_eq!(t["bob"].won, 0);
    }

    #[test]
    fn ranks_by_win_rate_then_games_won_and_leaves_the_few_unranked() {
        let t = tallies([
            // ann 2/3, bob 4/6 (same rate, more won), cat 1/1 (too few), dan 0/3
            ("ann", game(true, 0)),
            ("ann", game(true, 0)),
            ("ann", game(false, 0)),
            ("bob", game(true, 0)),
            ("bob", game(true, 0)),
            ("bob", game(true, 0)),
            ("bob", game(true, 0)),
            ("bob", game(false, 0)),
            ("bob", game(false, 0)),
            ("cat", game(true, 0)),
            ("dan", game(false, 0)),
            ("dan", game(false, 0)),
            ("dan", game(false, 0)),
        ]);
        let table = table(Format::FivesAndThrees, 3, t);
        let order: Vec<_> = table
            .ranked
            .iter()
            .map(|r| (r.player, r.position))
            .collect();
        assert_eq!(
            order,
            [("bob", Some(1)), ("ann", Some(2)), ("dan", Some(3))]
        );
        assert_eq!(table.unranked.len(), 1);
        assert_eq!(table.unranked[0].player, "cat");
        assert_eq!(table.unranked[0].position, None);
    }

    #[test]
    fn level_players_share_a_position() {
        let t = tallies([
            ("ann", game(true, 0)),
            ("bob", game(true, 0)),
            ("cat", game(false, 0)),
        ]);
        let table = table(Format::AllFives, 1, t);
        let positions: Vec<_> = table.ranked.iter().map(|r| r.position).collect();
        assert_eq!(positions, [Some(1), Some(1), Some(3)]);
    }

    #[test]
    fn zero_minimum_still_leaves_out_nobody_and_ranks_no_empty_row() {
        let mut t = BTreeMap::new();
        t.insert("ann", Tally::default());
        let table = table(Format::AllFives, 0, t);
        assert!(table.ranked.is_empty());
        assert_eq!(table.unranked.len(), 1);
    }

    #[test]
    fn hands_won_net_penalties_sets_and_forfeits() {
        let set_won = GameFacts {
            set_6_0_won: true,
            ..game(true, 6)
        };
        let penalised = GameFacts {
            penalty_games: 2,
            ..game(false, 4)
        };
        let forfeited = GameFacts {
            forfeited: true,
            set_6_0_won: true,
            ..game(true, 6)
        };
        let t = tallies([("ann", set_won), ("ann", penalised), ("ann", forfeited)])["ann"];
        assert_eq!((t.played, t.won, t.pegs), (3, 1, 10));
        assert_eq!((t.penalty_games, t.forfeits, t.sets_6_0_won), (2, 1, 1));
        assert_eq!(t.net(), 8);

        // Adding a game as played, then finding it forfeited, lands the same.
        let mut later = Tally::default();
        later.add(&set_won);
        later.add(&penalised);
        let as_played = GameFacts {
            forfeited: false,
            ..forfeited
        };
        later.add(&as_played);
        later.forfeit(&as_played);
        assert_eq!(later, t);
    }

    #[test]
    fn penalties_convert_by_the_ruleset() {
        let ruleset = Ruleset::new(Format::HandsWon);
        let won = GameFacts {
            set_6_0_won: true,
            ..game(true, 6)
        };
        let mut t = tallies([("ann", won), ("ann", game(false, 3)), ("bob", won)]);
        apply_penalties(
            &mut t,
            &ruleset,
            [
                (
                    "ann",
                    2,
                    IndividualPenalty::Late { minutes: 5 },
                    game(false, 3),
                ),
                ("ann", 2, IndividualPenalty::Violation, game(false, 3)),
                ("bob", 1, IndividualPenalty::Late { minutes: 9 }, won),
                ("bob", 1, IndividualPenalty::Late { minutes: 9 }, won),
            ],
        );
        assert_eq!((t["ann"].penalty_games, t["ann"].net()), (3, 6));
        let bob = t["bob"];
        assert_eq!((bob.played, bob.won, bob.pegs, bob.forfeits), (1, 0, 0, 1));
        assert_eq!(bob.sets_6_0_won, 0);
    }
}
