//! Player ratings (issue 27): a Bayesian rating with an uncertainty for
//! each player and rule family, from the results of approved games in the
//! order they were played. The method is Weng and Lin's ("A Bayesian
//! Approximation Method for Online Ranking", 2011; Bradley-Terry, full
//! pair), as the `skillratings` crate implements it, which rates a pair
//! as a team (its members' ratings and variances summed) instead of
//! averaging partners as Elo would have to. Pure: the same games give the
//! same ratings whatever order they are handed over in, because they are
//! always replayed in the order they were played.

use std::collections::HashMap;

use skillratings::Outcomes;
use skillratings::weng_lin::{
    WengLinConfig, WengLinRating, expected_score_two_teams, weng_lin_two_teams,
};

use crate::domain::ids::{LeagueId, PlayerId};
use crate::rules::Format;

/// A new player's rating: the method's usual 25.
pub const INITIAL_RATING: f64 = 25.0;
/// A new player's uncertainty (one standard deviation): 25/3.
pub const INITIAL_UNCERTAINTY: f64 = 25.0 / 3.0;
/// The performance spread of one game (the model's beta): 25/6.
pub const BETA: f64 = 25.0 / 6.0;
/// The smallest an uncertainty is allowed to shrink by in one game's
/// update (the model's kappa), so it never reaches nought.
pub const UNCERTAINTY_TOLERANCE: f64 = 0.000_001;
/// Games before a rating stops being provisional, unless the league says
/// otherwise.
pub const DEFAULT_PROVISIONAL_GAMES: u32 = 10;

fn config() -> WengLinConfig {
    WengLinConfig {
        beta: BETA,
        uncertainty_tolerance: UNCERTAINTY_TOLERANCE,
    }
}

/// Where a game stands in the order of play: the fixture's start (seconds
/// since 1970; a fixture with no date after every dated one), then the
/// fixture, the board and the game's number. Unique for each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    pub played_at: i64,
    pub fixture: i64,
    pub board: i64,
    pub number: i64,
}

/// One game's result as the rating reads it: who played on each side and
/// which side won. Nothing else (so games entered by their final score
/// count the same as those kept hand by hand).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame {
    pub key: GameKey,
    pub format: Format,
    /// The players of each side: one each for singles, two for pairs.
    pub sides: [Vec<PlayerId>; 2],
    /// 0 or 1: the side that won.
    pub winner: usize,
}

impl RatedGame {
    /// A game the method can rate: a winner of the two sides, players on
    /// both, nobody twice.
    fn is_sound(&self) -> bool {
        let all: Vec<PlayerId> = self.sides.iter().flatten().copied().collect();
        self.winner < 2
            && self.sides.iter().all(|s| !s.is_empty())
            && all.iter().enumerate().all(|(i, p)| !all[..i].contains(p))
    }
}

/// A player's rating in one rule family after some games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// One standard deviation of what the rating may be off by.
    pub uncertainty: f64,
    pub games: u32,
    pub won: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: INITIAL_RATING,
            uncertainty: INITIAL_UNCERTAINTY,
            games: 0,
            won: 0,
        }
    }
}

impl Rating {
    /// Fewer games than `games` to be established: shown as provisional.
    pub fn provisional(&self, games: u32) -> bool {
        self.games < games
    }

    fn model(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.uncertainty,
        }
    }
}

/// A player's rating after one of their games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub key: GameKey,
    pub after: Rating,
}

/// Every player's course through their games, per rule family.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ratings {
    courses: HashMap<(PlayerId, Format), Vec<Step>>,
}

impl Ratings {
    /// The player's rating now, if they have played a rated game of
    /// `format`.
    pub fn current(&self, player: PlayerId, format: Format) -> Option<Rating> {
        self.course(player, format).last().map(|s| s.after)
    }

    /// The player's rating after each of their games, in order.
    pub fn course(&self, player: PlayerId, format: Format) -> &[Step] {
        self.courses
            .get(&(player, format))
            .map_or(&[], |c| c.as_slice())
    }

    /// Everyone rated in `format`, highest first (ties: fewer uncertain,
    /// then the player's id, so the order is always the same).
    pub fn list(&self, format: Format) -> Vec<(PlayerId, Rating)> {
        let mut out: Vec<(PlayerId, Rating)> = self
            .courses
            .iter()
            .filter(|((_, f), _)| *f == format)
            .filter_map(|((p, _), c)| Some((*p, c.last()?.after)))
            .collect();
        out.sort_by(|a, b| {
            b.1.rating
                .total_cmp(&a.1.rating)
                .then(a.1.uncertainty.total_cmp(&b.1.uncertainty))
                .then(a.0.cmp(&b.0))
        });
        out
    }

    /// Keeps the courses of the players `keep` says yes to: a league's
    /// own, once games of its pool were rated with its.
    pub fn retain_players(&mut self, keep: impl Fn(PlayerId) -> bool) {
        self.courses.retain(|(p, _), _| keep(*p));
    }

    /// The rule families anyone is rated in.
    pub fn formats(&self) -> Vec<Format> {
        Format::ALL
            .into_iter()
            .filter(|f| self.courses.keys().any(|(_, g)| g == f))
            .collect()
    }
}

/// Rates `games`, replayed in the order they were played (by their keys,
/// whatever order they come in). A game that cannot be rated (no winner
/// of the two sides, a side with nobody, a player on both) is left out.
pub fn rate(games: &[RatedGame]) -> Ratings {
    let mut order: Vec<&RatedGame> = games.iter().filter(|g| g.is_sound()).collect();
    order.sort_by_key(|g| g.key);
    let config = config();
    let mut courses: HashMap<(PlayerId, Format), Vec<Step>> = HashMap::new();
    for g in order {
        let now = |p: &PlayerId| {
            courses
                .get(&(*p, g.format))
                .and_then(|c| c.last())
                .map_or_else(Rating::default, |s| s.after)
        };
        let before: [Vec<Rating>; 2] = [
            g.sides[0].iter().map(now).collect(),
            g.sides[1].iter().map(now).collect(),
        ];
        let models: [Vec<WengLinRating>; 2] = [
            before[0].iter().map(Rating::model).collect(),
            before[1].iter().map(Rating::model).collect(),
        ];
        let outcome = if g.winner == 0 {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let (one, two) = weng_lin_two_teams(&models[0], &models[1], &outcome, &config);
        for (side, updated) in [one, two].into_iter().enumerate() {
            for ((p, was), new) in g.sides[side].iter().zip(&before[side]).zip(updated) {
                courses.entry((*p, g.format)).or_default().push(Step {
                    key: g.key,
                    after: Rating {
                        rating: new.rating,
                        uncertainty: new.uncertainty,
                        games: was.games + 1,
                        won: was.won + u32::from(side == g.winner),
                    },
                });
            }
        }
    }
    Ratings { courses }
}

/// Rates `games` with the records in `same` (a player record to the record
/// that stands for its person) as one player each: a person linked across
/// leagues has one course, which each of their records shows.
pub fn rate_people(games: &[RatedGame], same: &HashMap<PlayerId, PlayerId>) -> Ratings {
    if same.is_empty() {
        return rate(games);
    }
    let as_one = |p: &PlayerId| *same.get(p).unwrap_or(p);
    let merged: Vec<RatedGame> = games
        .iter()
        .map(|g| RatedGame {
            sides: [
                g.sides[0].iter().map(as_one).collect(),
                g.sides[1].iter().map(as_one).collect(),
            ],
            ..g.clone()
        })
        .collect();
    let mut ratings = rate(&merged);
    for (record, person) in same {
        for format in Format::ALL {
            if record != person
                && let Some(course) = ratings.courses.get(&(*person, format)).cloned()
            {
                ratings.courses.insert((*record, format), course);
            }
        }
    }
    ratings
}

/// The leagues whose games are rated together with `league`'s (those its
/// players' people join it to, however indirectly), and each linked record
/// of them to the record that stands for its person (the lowest id). From
/// the linked records as (person, player, league).
pub fn pool<P: Copy + Ord + std::hash::Hash>(
    league: LeagueId,
    linked: &[(P, PlayerId, LeagueId)],
) -> (Vec<LeagueId>, HashMap<PlayerId, PlayerId>) {
    let mut leagues = vec![league];
    // Grow the set until no person joins it to another league.
    loop {
        let more: Vec<LeagueId> = linked
            .iter()
            .filter(|(person, _, l)| {
                !leagues.contains(l)
                    && linked
                        .iter()
                        .any(|(q, _, m)| q == person && leagues.contains(m))
            })
            .map(|(_, _, l)| *l)
            .collect();
        if more.is_empty() {
            break;
        }
        leagues.extend(more);
        leagues.sort();
        leagues.dedup();
    }
    let mut first: HashMap<P, PlayerId> = HashMap::new();
    for (person, player, l) in linked {
        if leagues.contains(l) {
            let at = first.entry(*person).or_insert(*player);
            *at = (*at).min(*player);
        }
    }
    let same = linked
        .iter()
        .filter(|(_, _, l)| leagues.contains(l))
        .filter_map(|(person, player, _)| Some((*player, *first.get(person)?)))
        .collect();
    leagues.sort();
    (leagues, same)
}

/// The chance (0 to 1) that the side `a` beats the side `b` in one game,
/// by the same model (each side's ratings and variances summed).
pub fn win_chance(a: &[Rating], b: &[Rating]) -> f64 {
    let a: Vec<WengLinRating> = a.iter().map(Rating::model).collect();
    let b: Vec<WengLinRating> = b.iter().map(Rating::model).collect();
    if a.is_empty() || b.is_empty() {
        return 0.5;
    }
    expected_score_two_teams(&a, &b, &config()).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(n: i64) -> GameKey {
        GameKey {
            played_at: n / 6,
            fixture: n / 6,
            board: (n % 6) / 3,
            number: n % 3,
        }
    }

    fn singles(n: i64, a: i64, b: i64, winner: usize) -> RatedGame {
        RatedGame {
            key: key(n),
            format: Format::FivesAndThrees,
            sides: [vec![PlayerId(a)], vec![PlayerId(b)]],
            winner,
        }
    }

    #[test]
    fn a_first_win_moves_both_players_by_the_methods_numbers() {
        let r = rate(&[singles(0, 1, 2, 0)]);
        let a = r.current(PlayerId(1), Format::FivesAndThrees).unwrap();
        let b = r.current(PlayerId(2), Format::FivesAndThrees).unwrap();
        // Weng-Lin, Bradley-Terry full pair, two new players: c^2 =
        // 2 beta^2 + 2 sigma^2; the winner gains sigma^2/c * (1 - 1/2).
        let c = (2.0 * BETA * BETA + 2.0 * INITIAL_UNCERTAINTY.powi(2)).sqrt();
        let gain = INITIAL_UNCERTAINTY.powi(2) / c * 0.5;
        assert!((a.rating - (25.0 + gain)).abs() < 1e-9, "{a:?}");
        assert!((b.rating - (25.0 - gain)).abs() < 1e-9, "{b:?}");
        assert!(a.uncertainty < INITIAL_UNCERTAINTY);
        assert_eq!((a.games, a.won, b.games, b.won), (1, 1, 1, 0));
    }

    #[test]
    fn pairs_are_rated_as_teams_and_formats_apart() {
        let pairs = RatedGame {
            key: key(0),
            format: Format::AllFives,
            sides: [
                vec![PlayerId(1), PlayerId(2)],
                vec![PlayerId(3), PlayerId(4)],
            ],
            winner: 1,
        };
        let r = rate(&[pairs, singles(1, 1, 3, 0)]);
        assert!(r.current(PlayerId(3), Format::AllFives).unwrap().rating > 25.0);
        assert!(r.current(PlayerId(2), Format::AllFives).unwrap().rating < 25.0);
        // The Fives and Threes game starts from scratch.
        assert_eq!(r.course(PlayerId(1), Format::FivesAndThrees).len(), 1);
        assert!(
            r.current(PlayerId(1), Format::FivesAndThrees)
                .unwrap()
                .rating
                > 25.0
        );
        assert_eq!(r.formats(), [Format::FivesAndThrees, Format::AllFives]);
    }

    #[test]
    fn an_unsound_game_is_left_out_without_a_panic() {
        let mut both = singles(0, 1, 1, 0);
        both.sides[1] = vec![PlayerId(1)];
        let mut empty = singles(1, 1, 2, 0);
        empty.sides[1].clear();
        let no_winner = singles(2, 1, 2, 7);
        assert_eq!(rate(&[both, empty, no_winner]), Ratings::default());
    }

    #[test]
    fn the_chance_of_a_win_follows_the_ratings() {
        let strong = Rating {
            rating: 30.0,
            uncertainty: 3.0,
            ..Rating::default()
        };
        let weak = Rating {
            rating: 20.0,
            uncertainty: 3.0,
            ..Rating::default()
        };
        let p = win_chance(&[strong], &[weak]);
        // Bradley-Terry: 1 / (1 + e^(-(30 - 20) / c)), c^2 = 2 beta^2 + 2 * 3^2.
        let c = (2.0 * BETA * BETA + 18.0_f64).sqrt();
        let expected = 1.0 / (1.0 + (-10.0 / c).exp());
        assert!((p - expected).abs() < 1e-12, "{p} {expected}");
        assert!(p > 0.75, "{p}");
        assert!((win_chance(&[weak], &[strong]) - (1.0 - p)).abs() < 1e-12);
        assert_eq!(win_chance(&[], &[weak]), 0.5);
    }

    #[test]
    fn a_person_in_two_leagues_is_rated_over_both_leagues_games() {
        // Record 1 (league 1) and record 11 (league 2) are one person.
        let games = [
            singles(0, 1, 2, 0),
            singles(1, 11, 12, 0),
            singles(2, 11, 13, 1),
        ];
        let same = HashMap::from([(PlayerId(1), PlayerId(1)), (PlayerId(11), PlayerId(1))]);
        let linked = rate_people(&games, &same);
        let one = linked.current(PlayerId(1), Format::FivesAndThrees).unwrap();
        assert_eq!((one.games, one.won), (3, 2));
        assert_eq!(
            linked.course(PlayerId(11), Format::FivesAndThrees),
            linked.course(PlayerId(1), Format::FivesAndThrees)
        );
        // As if the person had played all three games under one record.
        let as_one = rate(&[
            singles(0, 1, 2, 0),
            singles(1, 1, 12, 0),
            singles(2, 1, 13, 1),
        ]);
        assert_eq!(
            as_one.current(PlayerId(1), Format::FivesAndThrees),
            Some(one)
        );
        assert_eq!(
            as_one.current(PlayerId(13), Format::FivesAndThrees),
            linked.current(PlayerId(13), Format::FivesAndThrees)
        );
        // Unlinked, each record has its own.
        let apart = rate_people(&games, &HashMap::new());
        assert_eq!(
            apart
                .current(PlayerId(1), Format::FivesAndThrees)
                .unwrap()
                .games,
            1
        );
    }

    #[test]
    fn a_pool_follows_people_from_league_to_league() {
        // Person 100 joins leagues 1 and 2, person 200 leagues 2 and 3;
        // league 4 is linked to nobody of these.
        let linked = [
            (100, PlayerId(5), LeagueId(1)),
            (100, PlayerId(3), LeagueId(2)),
            (200, PlayerId(7), LeagueId(2)),
            (200, PlayerId(9), LeagueId(3)),
            (300, PlayerId(20), LeagueId(4)),
            (300, PlayerId(21), LeagueId(5)),
        ];
        let (leagues, same) = pool(LeagueId(3), &linked);
        assert_eq!(leagues, [LeagueId(1), LeagueId(2), LeagueId(3)]);
        assert_eq!(same.get(&PlayerId(5)), Some(&PlayerId(3)));
        assert_eq!(same.get(&PlayerId(9)), Some(&PlayerId(7)));
        assert_eq!(same.get(&PlayerId(20)), None);
        let (alone, none) = pool(LeagueId(6), &linked);
        assert_eq!((alone, none.len()), (vec![LeagueId(6)], 0));
    }

    /// Random games among eight players: who plays and who wins.
    fn games() -> impl Strategy<Value = Vec<RatedGame>> {
        prop::collection::vec((0i64..8, 1i64..8, 0usize..2, any::<bool>()), 1..60).prop_map(|v| {
            v.into_iter()
                .enumerate()
                .map(|(n, (a, step, winner, pairs))| {
                    let b = (a + step) % 8;
                    let mut g = singles(n as i64, a, b, winner);
                    if pairs {
                        let (c, d) = ((a + 1) % 8, (b + 1) % 8);
                        if ![a, b].contains(&c) && ![a, b, c].contains(&d) {
                            g.sides[0].push(PlayerId(c));
                            g.sides[1].push(PlayerId(d));
                        }
                    }
                    g
                })
                .collect()
        })
    }

    proptest! {
        /// Against the same opponents in the same games, a player who won
        /// every game is rated above one who lost every game.
        #[test]
        fn winning_every_game_rates_above_losing_every_game(
            opponents in prop::collection::vec(2i64..10, 1..30),
        ) {
            let mut all = Vec::new();
            for (n, o) in opponents.iter().enumerate() {
                let n = 2 * n as i64;
                all.push(singles(n, 0, *o, 0));
                all.push(singles(n + 1, 1, *o, 1));
            }
            let r = rate(&all);
            let winner = r.current(PlayerId(0), Format::FivesAndThrees).unwrap();
            let loser = r.current(PlayerId(1), Format::FivesAndThrees).unwrap();
            prop_assert!(winner.rating > loser.rating, "{winner:?} {loser:?}");
            prop_assert!(winner.rating > INITIAL_RATING && loser.rating < INITIAL_RATING);
        }

        /// The games' order of arrival (the order results were approved
        /// in) changes nothing.
        #[test]
        fn ratings_do_not_depend_on_the_order_games_arrive_in(
            games in games(),
            seed in any::<u64>(),
        ) {
            let mut shuffled = games.clone();
            // A Fisher-Yates shuffle from the seed.
            let mut s = seed | 1;
            for i in (1..shuffled.len()).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                shuffled.swap(i, (s % (i as u64 + 1)) as usize);
            }
            prop_assert_eq!(rate(&games), rate(&shuffled));
        }

        /// A correction that changes one game's winner changes the ratings
        /// from that game on, and none before it.
        #[test]
        fn a_changed_winner_changes_ratings_from_that_game_on_only(
            games in games(),
            pick in any::<prop::sample::Index>(),
        ) {
            let k = pick.index(games.len());
            let mut corrected = games.clone();
            corrected[k].winner = 1 - corrected[k].winner;
            let (before, after) = (rate(&games), rate(&corrected));
            let changed = games[k].key;
            for p in 0..8 {
                let p = PlayerId(p);
                let (old, new) = (
                    before.course(p, Format::FivesAndThrees),
                    after.course(p, Format::FivesAndThrees),
                );
                prop_assert_eq!(old.len(), new.len());
                for (o, n) in old.iter().zip(new) {
                    if o.key < changed {
                        prop_assert_eq!(o, n);
                    }
                }
            }
            for p in games[k].sides.iter().flatten() {
                let at = |r: &Ratings| {
                    r.course(*p, Format::FivesAndThrees)
                        .iter()
                        .find(|s| s.key == changed)
                        .map(|s| s.after.rating)
                };
                prop_assert_ne!(at(&before), at(&after));
            }
        }
    }
}
