//! A dominoes simulator: it deals real tiles, lays them on a real line of
//! play and writes down what happened as a [`GameRecord`], so that example
//! games, property tests, benchmarks and the demo league have the shape
//! real games have.
//!
//! The simulator does not score anything itself beyond what a play is
//! worth: totals, hand-end scores and who poses come from the engine
//! ([`score_record`]) on the record so far, so the two can never drift
//! apart on a rule.

use std::collections::BTreeMap;

use super::points;
use super::record::{EndRecord, GameRecord, HandRecord, PenaltyRecord, PlayRecord};
use super::ruleset::{Format, Ruleset};
use super::score_record;
use super::tile::Tile;

/// Hands after which a game is given up unfinished. No real game comes
/// near it; it only guarantees that the simulator always stops.
const MAX_HANDS: usize = 1_000;
/// Chance (per mille) that a player picks any legal tile instead of the
/// best one, so that games do not all look alike.
const WHIM_PER_MILLE: u32 = 150;
/// Tiles in a double-six set.
const SET_TILES: usize = 28;

/// A tiny deterministic pseudo-random generator (SplitMix64).
///
/// Our own rather than the `rand` crate's: the same seed must give the
/// same demo league, example games and test cases forever, and `rand`
/// does not promise stable sequences across versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from `0` to `n - 1` (`0` when `n` is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        // Multiply-shift: the bias is at most n / 2^64, far below notice.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
            items.swap(i, self.below(bound) as usize);
        }
    }

    /// True with probability `per_mille` / 1000.
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < per_mille
    }
}

/// Who poses hand 1 of a simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening {
    /// Each player draws a tile; the record carries `draw`.
    Draw,
    /// The named player poses (a board's later games); the record carries
    /// `first_pose`.
    Pose(String),
}

/// How untidy the players are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// `all-fives`: chance of a penalty before each hand; `hands-won`: of
    /// each player arriving late, and of a violation in each hand.
    pub penalty_per_mille: u32,
    /// `all-fives`: chance that a scoring play goes unannounced and the
    /// next opponent claims it.
    pub muggins_per_mille: u32,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            penalty_per_mille: 20,
            muggins_per_mille: 30,
        }
    }
}

impl Style {
    /// No penalties, no muggins.
    pub fn clean() -> Style {
        Style {
            penalty_per_mille: 0,
            muggins_per_mille: 0,
        }
    }
}

/// An open end of the line of play: the number showing and whether the
/// tile there is a double (placed crosswise, counting both halves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct End {
    value: u8,
    double: bool,
}

impl End {
    fn of(value: u8, tile: Tile) -> End {
        End {
            value,
            double: tile.is_double(),
        }
    }

    fn count(self) -> u32 {
        u32::from(self.value) * if self.double { 2 } else { 1 }
    }
}

/// The `all-fives` spinner: the first double played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spinner {
    value: u8,
    /// Its two long sides (along the line) still uncovered.
    sides_open: u8,
    /// Its two crosswise sides still uncovered; playable only once both
    /// long sides are covered.
    cross_open: u8,
}

/// Where a tile goes on the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The first tile of the hand.
    Pose,
    /// On the open end with this index.
    End(usize),
    /// On a long side of the spinner.
    SpinnerSide,
    /// On a crosswise side of the spinner.
    SpinnerCross,
}

/// The line of play of one hand, counting its open ends as RULES.md does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    with_spinner: bool,
    tiles: u32,
    first: Option<Tile>,
    /// Open ends other than the spinner's own sides.
    ends: Vec<End>,
    spinner: Option<Spinner>,
}

impl Layout {
    /// Two open ends, doubles count both halves: `fives-and-threes` and
    /// `hands-won`.
    pub fn line() -> Layout {
        Layout::new(false)
    }

    /// With a spinner: `all-fives`.
    pub fn with_spinner() -> Layout {
        Layout::new(true)
    }

    fn new(with_spinner: bool) -> Layout {
        Layout {
            with_spinner,
            tiles: 0,
            first: None,
            ends: Vec::with_capacity(4),
            spinner: None,
        }
    }

    /// Tiles laid so far.
    pub fn tiles(&self) -> u32 {
        self.tiles
    }

    /// The open ends' total: a double at an open end counts both halves,
    /// the first tile alone counts both its halves, and the spinner counts
    /// (both halves) while one of its long sides is open.
    pub fn ends_total(&self) -> u32 {
        if self.tiles == 1 {
            return self.first.map_or(0, Tile::pips);
        }
        let spinner = self
            .spinner
            .filter(|s| s.sides_open > 0)
            .map_or(0, |s| 2 * u32::from(s.value));
        spinner + self.ends.iter().map(|e| e.count()).sum::<u32>()
    }

    /// The places `tile` can go.
    pub fn fits(&self, tile: Tile) -> Vec<Place> {
        if self.tiles == 0 {
            return vec![Place::Pose];
        }
        let matches = |v: u8| tile.high() == v || tile.low() == v;
        let mut places: Vec<Place> = Vec::new();
        for (i, end) in self.ends.iter().enumerate() {
            // Two ends alike (a posed double) are one choice.
            if matches(end.value) && !self.ends[..i].contains(end) {
                places.push(Place::End(i));
            }
        }
        if let Some(s) = self.spinner.filter(|s| matches(s.value)) {
            if s.sides_open > 0 {
                places.push(Place::SpinnerSide);
            } else if s.cross_open > 0 {
                places.push(Place::SpinnerCross);
            }
        }
        places
    }

    /// Lays `tile` at `place`; `false` (and no change) when it does not fit.
    pub fn play(&mut self, tile: Tile, place: Place) -> bool {
        let other = |v: u8| {
            if tile.high() == v {
                Some(tile.low())
            } else if tile.low() == v {
                Some(tile.high())
            } else {
                None
            }
        };
        match place {
            Place::Pose => {
                if self.tiles != 0 {
                    return false;
                }
                self.first = Some(tile);
                if self.with_spinner && tile.is_double() {
                    self.spinner = Some(Spinner {
                        value: tile.high(),
                        sides_open: 2,
                        cross_open: 2,
                    });
                } else {
                    self.ends = vec![End::of(tile.high(), tile), End::of(tile.low(), tile)];
                }
            }
            Place::End(i) => {
                let Some(end) = self.ends.get(i).copied() else {
                    return false;
                };
                let Some(new) = other(end.value) else {
                    return false;
                };
                if tile.is_double() && self.with_spinner && self.spinner.is_none() {
                    // The first double: the spinner, one long side on the line.
                    self.ends.remove(i);
                    self.spinner = Some(Spinner {
                        value: new,
                        sides_open: 1,
                        cross_open: 2,
                    });
                } else {
                    self.ends[i] = End::of(new, tile);
                }
            }
            Place::SpinnerSide | Place::SpinnerCross => {
                let Some(s) = self.spinner.as_mut() else {
                    return false;
                };
                let Some(new) = other(s.value) else {
                    return false;
                };
                let open = if place == Place::SpinnerSide {
                    &mut s.sides_open
                } else if s.sides_open == 0 {
                    &mut s.cross_open
                } else {
                    return false;
                };
                if *open == 0 {
                    return false;
                }
                *open -= 1;
                self.ends.push(End::of(new, tile));
            }
        }
        self.tiles += 1;
        true
    }
}

/// Plays one game to its end and returns its record.
///
/// `players` are 2 or 4 names in order of play and `sides` the two sides
/// as in RULES.md. Totals and who poses each hand come from the engine on
/// the record so far. If the engine refuses the input (wrong number of
/// players, bad sides...) the record stops where it was refused; it never
/// panics and always stops.
pub fn simulate_game(
    ruleset: &Ruleset,
    players: &[String],
    sides: &[Vec<String>],
    opening: Opening,
    rng: &mut Rng,
    style: &Style,
) -> GameRecord {
    let n = players.len();
    let (draw, first_pose) = match opening {
        Opening::Draw => {
            let mut set: Vec<Tile> = Tile::set().collect();
            rng.shuffle(&mut set);
            let draw = players
                .iter()
                .zip(set)
                .map(|(p, t)| (p.clone(), t.to_string()))
                .collect::<BTreeMap<_, _>>();
            (Some(draw), None)
        }
        Opening::Pose(name) => (None, Some(name)),
    };
    let options = ruleset.options();
    let mut record = GameRecord {
        format: ruleset.format.as_str().to_owned(),
        players: players.to_vec(),
        sides: sides.to_vec(),
        draw,
        first_pose,
        hands: Vec::new(),
        options: (!options.is_empty()).then_some(options),
        penalties: Vec::new(),
    };
    if n != 2 && n != 4 {
        return record;
    }
    let side_of: Vec<usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| sides.iter().position(|s| s.contains(p)).unwrap_or(i % 2))
        .map(|s| s.min(1))
        .collect();
    let mut sim = Sim {
        ruleset,
        players,
        side_of,
        style,
        rng,
    };
    if ruleset.format == Format::HandsWon {
        for p in players {
            if sim.rng.chance(style.penalty_per_mille) {
                let minutes = 1 + sim.rng.below(7);
                record.penalties.push(PenaltyRecord {
                    player: p.clone(),
                    kind: "late".into(),
                    before_hand: 1,
                    minutes: Some(i64::from(minutes)),
                });
            }
        }
    }
    while record.hands.len() < MAX_HANDS {
        let hand_no = record.hands.len() + 1;
        // The engine on the record so far: is the game over, who poses,
        // what the totals are.
        let Ok(mut outcome) = score_record(&record) else {
            break;
        };
        if outcome.finished {
            break;
        }
        if ruleset.format == Format::AllFives && sim.rng.chance(style.penalty_per_mille) {
            let player = sim.rng.below(n as u32) as usize;
            // Talking is to one's partner: pairs only.
            let kind = if n == 4 && sim.rng.chance(500) {
                "talking"
            } else {
                "exposed"
            };
            record.penalties.push(PenaltyRecord {
                player: players[player].clone(),
                kind: kind.into(),
                before_hand: hand_no as i64,
                minutes: None,
            });
            // Penalty points can win the game: then it ends here.
            let Ok(after) = score_record(&record) else {
                record.penalties.pop();
                break;
            };
            outcome = after;
            if outcome.finished {
                break;
            }
        }
        if outcome.next_pose >= n {
            break;
        }
        let totals: [u32; 2] = outcome.totals;
        let (hand, won) = sim.hand(outcome.next_pose, totals, hand_no, &mut record.penalties);
        record.hands.push(hand);
        if won {
            break;
        }
    }
    record
}

/// Plays a board: best of `games` (1 or an odd number). The first game
/// opens with the draw, each later one with the pose the previous game
/// handed on; it stops once a side has won a majority.
pub fn simulate_board(
    ruleset: &Ruleset,
    players: &[String],
    sides: &[Vec<String>],
    games: u32,
    rng: &mut Rng,
    style: &Style,
) -> Vec<GameRecord> {
    let games = games.max(1);
    let majority = games / 2 + 1;
    let mut won = [0u32; 2];
    let mut board = Vec::new();
    let mut opening = Opening::Draw;
    while board.len() < games as usize && won.iter().all(|&w| w < majority) {
        let record = simulate_game(ruleset, players, sides, opening, rng, style);
        let outcome = score_record(&record);
        board.push(record);
        let Ok(outcome) = outcome else { break };
        let (true, Some(winner), Some(next)) = (
            outcome.finished,
            outcome.winner,
            players.get(outcome.next_pose),
        ) else {
            break;
        };
        let Some(w) = won.get_mut(winner) else { break };
        *w += 1;
        opening = Opening::Pose(next.clone());
    }
    board
}

struct Sim<'a> {
    ruleset: &'a Ruleset,
    players: &'a [String],
    side_of: Vec<usize>,
    style: &'a Style,
    rng: &'a mut Rng,
}

/// A legal play: the tile's index in the hand, where it goes, what it
/// scores (without a chipping-out point).
#[derive(Debug, Clone, Copy)]
struct Move {
    tile: usize,
    place: Place,
    points: u32,
}

impl Sim<'_> {
    fn tiles_per_player(&self) -> usize {
        let n = self.players.len();
        let wanted = match self.ruleset.format {
            Format::FivesAndThrees => self
                .ruleset
                .tiles_per_hand
                .map_or(if n == 2 { 7 } else { 6 }, |t| t as usize),
            Format::AllFives | Format::HandsWon => 7,
        };
        // `tiles_per_hand` may ask for more than four players can be dealt
        // (9 each); a hand-built ruleset might even ask for none.
        wanted.clamp(1, SET_TILES / n)
    }

    fn points(&self, layout: &Layout) -> u32 {
        match self.ruleset.format {
            Format::FivesAndThrees => points::fives_and_threes(layout.ends_total()),
            Format::AllFives => points::all_fives(layout.ends_total()),
            Format::HandsWon => 0,
        }
    }

    fn moves(&self, hand: &[Tile], layout: &Layout) -> Vec<Move> {
        let mut moves = Vec::new();
        for (i, &tile) in hand.iter().enumerate() {
            for place in layout.fits(tile) {
                let mut after = layout.clone();
                if after.play(tile, place) {
                    moves.push(Move {
                        tile: i,
                        place,
                        points: self.points(&after),
                    });
                }
            }
        }
        moves
    }

    fn can_play(hand: &[Tile], layout: &Layout) -> bool {
        hand.iter().any(|&t| !layout.fits(t).is_empty())
    }

    /// The plain pub player's choice: the play that scores most for the
    /// side (a score past an exact target counts as nothing), ties to the
    /// heaviest tile; now and then any legal play.
    fn choose(&mut self, hand: &[Tile], moves: &[Move], chip: bool, total: u32) -> Option<Move> {
        if moves.is_empty() {
            return None;
        }
        if self.rng.chance(WHIM_PER_MILLE) {
            let pick = self.rng.below(moves.len() as u32) as usize;
            return moves.get(pick).copied();
        }
        let r = self.ruleset;
        let worth = |m: &Move| {
            let score = m.points + u32::from(chip);
            match r.format {
                Format::FivesAndThrees => {
                    points::fives_and_threes_counted(total, score, r.target, r.exact_finish)
                        .map_or(0, |_| score)
                }
                _ => score,
            }
        };
        moves
            .iter()
            .max_by_key(|m| (worth(m), hand[m.tile].rank()))
            .copied()
    }

    /// Deals and plays one hand (1-based `hand_no`) from the engine's
    /// `totals`; returns its record and whether the game was won in it
    /// (the record then stops at the winning play, with no `end`).
    fn hand(
        &mut self,
        poser: usize,
        mut totals: [u32; 2],
        hand_no: usize,
        penalties: &mut Vec<PenaltyRecord>,
    ) -> (HandRecord, bool) {
        let n = self.players.len();
        let format = self.ruleset.format;
        let per = self.tiles_per_player();
        let mut set: Vec<Tile> = Tile::set().collect();
        self.rng.shuffle(&mut set);
        let mut hands: Vec<Vec<Tile>> = set.chunks(per).take(n).map(<[Tile]>::to_vec).collect();
        let mut layout = if format == Format::AllFives {
            Layout::with_spinner()
        } else {
            Layout::line()
        };
        let mut plays: Vec<PlayRecord> = Vec::new();
        let violation_at = (format == Format::HandsWon
            && self.rng.chance(self.style.penalty_per_mille))
        .then(|| 1 + self.rng.below(3 * (n * per) as u32) as usize);
        let players = self.players;
        let name = |p: usize| players[p].clone();
        let done = |plays, end| {
            (
                HandRecord {
                    plays,
                    end: Some(end),
                },
                false,
            )
        };
        let won = |plays| (HandRecord { plays, end: None }, true);
        let pips = |hands: &[Vec<Tile>], who: &mut dyn Iterator<Item = usize>| {
            who.map(|p| (name(p), hands[p].iter().map(|t| i64::from(t.pips())).sum()))
                .collect::<BTreeMap<String, i64>>()
        };
        let mut cur = poser % n;
        // Every turn lays a tile, passes (at most n in a row before the
        // block is seen) or skips a player who is out: this bounds a hand.
        for turn in 0..(4 * n * SET_TILES) {
            if violation_at == Some(turn) {
                penalties.push(PenaltyRecord {
                    player: name(cur),
                    kind: "violation".into(),
                    before_hand: hand_no as i64 + 1,
                    minutes: None,
                });
                let end = EndRecord {
                    abandoned: true,
                    ..Default::default()
                };
                return done(plays, end);
            }
            if hands[cur].is_empty() {
                // A fives-and-threes partner who is already out.
                cur = (cur + 1) % n;
                continue;
            }
            let side = self.side_of[cur];
            let partner = (cur + 2) % n;
            let chip = format == Format::FivesAndThrees
                && hands[cur].len() == 1
                && (n == 2 || hands[partner].is_empty());
            let moves = self.moves(&hands[cur], &layout);
            if let Some(m) = self.choose(&hands[cur], &moves, chip, totals[side]) {
                let tile = hands[cur].remove(m.tile);
                layout.play(tile, m.place);
                let emptied = hands[cur].is_empty();
                match format {
                    Format::FivesAndThrees => {
                        let ends_hand = emptied && (n == 2 || hands[partner].is_empty());
                        // The record carries the tile's own score; the
                        // chipping-out point is the engine's to add, and
                        // counts with it as one score against the target.
                        let score = m.points + u32::from(ends_hand);
                        if score > 0 {
                            plays.push(PlayRecord {
                                by: name(cur),
                                points: i64::from(m.points),
                                out: ends_hand,
                                muggins: false,
                            });
                        }
                        let r = self.ruleset;
                        if score > 0 {
                            if let Some(t) = points::fives_and_threes_counted(
                                totals[side],
                                score,
                                r.target,
                                r.exact_finish,
                            ) {
                                totals[side] = t;
                                if t >= r.target {
                                    return won(plays);
                                }
                            }
                        }
                        if ends_hand {
                            return done(plays, EndRecord::out(&name(cur)));
                        }
                    }
                    Format::AllFives => {
                        if m.points > 0 {
                            let claimed = self.rng.chance(self.style.muggins_per_mille);
                            let by = if claimed { (cur + 1) % n } else { cur };
                            plays.push(PlayRecord {
                                by: name(by),
                                points: i64::from(m.points),
                                out: false,
                                muggins: claimed,
                            });
                            let s = self.side_of[by];
                            totals[s] = totals[s].saturating_add(m.points);
                            if totals[s] >= self.ruleset.target {
                                return won(plays);
                            }
                        }
                        if emptied {
                            let mut opponents = (0..n).filter(|&p| self.side_of[p] != side);
                            let end = EndRecord {
                                out: Some(name(cur)),
                                left: Some(pips(&hands, &mut opponents)),
                                ..Default::default()
                            };
                            return done(plays, end);
                        }
                    }
                    Format::HandsWon => {
                        if emptied {
                            return done(plays, EndRecord::out(&name(cur)));
                        }
                    }
                }
            }
            if (0..n).all(|p| hands[p].is_empty() || !Self::can_play(&hands[p], &layout)) {
                break;
            }
            cur = (cur + 1) % n;
        }
        let end = EndRecord {
            blocked: Some(pips(&hands, &mut (0..n))),
            ..Default::default()
        };
        done(plays, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Outcome;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn table(n: usize) -> (Vec<String>, Vec<Vec<String>>) {
        let names = ["Ann", "Bob", "Cat", "Dan"];
        let players: Vec<String> = names[..n].iter().map(|s| s.to_string()).collect();
        let sides = (0..2)
            .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
            .collect();
        (players, sides)
    }

    /// Every format with every table size it allows.
    const TABLES: [(Format, usize); 5] = [
        (Format::FivesAndThrees, 2),
        (Format::FivesAndThrees, 4),
        (Format::AllFives, 2),
        (Format::AllFives, 4),
        (Format::HandsWon, 4),
    ];

    const SEEDS: u64 = 300;

    fn game(ruleset: &Ruleset, n: usize, seed: u64, style: &Style) -> GameRecord {
        let (players, sides) = table(n);
        let mut rng = Rng::new(seed);
        simulate_game(ruleset, &players, &sides, Opening::Draw, &mut rng, style)
    }

    /// Scores a record, failing the test with the record when refused.
    fn scored(record: &GameRecord, what: &str) -> Outcome {
        score_record(record).unwrap_or_else(|e| {
            let json = serde_json::to_string_pretty(record).unwrap();
            panic!("{what}: refused: {e}\n{json}")
        })
    }

    /// What every simulated game must be: a good, finished record that
    /// survives JSON, won as its format is won.
    fn check(record: &GameRecord, ruleset: &Ruleset, what: &str) -> Outcome {
        let outcome = scored(record, what);
        assert!(outcome.finished, "{what}: not finished");
        let winner = outcome.winner.expect("a finished game has a winner");
        let total = outcome.totals[winner];
        match ruleset.format {
            Format::FivesAndThrees if ruleset.exact_finish => {
                assert_eq!(total, ruleset.target, "{what}")
            }
            Format::FivesAndThrees | Format::AllFives => {
                assert!(total >= ruleset.target, "{what}")
            }
            Format::HandsWon => assert!(total >= ruleset.set_to, "{what}"),
        }
        if ruleset.format == Format::FivesAndThrees {
            assert!(record.penalties.is_empty(), "{what}");
        }
        if ruleset.format != Format::AllFives {
            assert!(
                record
                    .hands
                    .iter()
                    .flat_map(|h| &h.plays)
                    .all(|p| !p.muggins),
                "{what}"
            );
        }
        // Only the last hand may lack an end, and only when won in it.
        let last = record.hands.len() - 1;
        for (i, hand) in record.hands.iter().enumerate() {
            assert!(hand.end.is_some() || i == last, "{what}: hand {}", i + 1);
        }
        let json = serde_json::to_string(record).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, record, "{what}: JSON round trip");
        outcome
    }

    #[test]
    fn every_simulated_game_is_a_finished_good_record() {
        for (format, n) in TABLES {
            let ruleset = Ruleset::new(format);
            for style in [Style::clean(), Style::default()] {
                for seed in 0..SEEDS {
                    let record = game(&ruleset, n, seed, &style);
                    let what = format!("{format}, {n} players, {style:?}, seed {seed}");
                    check(&record, &ruleset, &what);
                    if style == Style::clean() {
                        assert!(record.penalties.is_empty(), "{what}");
                        let muggins = record.hands.iter().flat_map(|h| &h.plays);
                        assert!(muggins.clone().all(|p| !p.muggins), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn league_options_are_played_by() {
        let options = [
            (Format::FivesAndThrees, serde_json::json!({"target": 121})),
            (
                Format::FivesAndThrees,
                serde_json::json!({"exact_finish": false, "pose": "winner"}),
            ),
            (
                Format::FivesAndThrees,
                serde_json::json!({"tiles_per_hand": 9}),
            ),
            (
                Format::FivesAndThrees,
                serde_json::json!({"tiles_per_hand": 5}),
            ),
            (
                Format::AllFives,
                serde_json::json!({"target": 100, "penalty_to": "offender", "pose": "winner"}),
            ),
            (
                Format::AllFives,
                serde_json::json!({"blocked_scores": "difference", "penalty_points": 200}),
            ),
            (
                Format::HandsWon,
                serde_json::json!({"set_to": 3, "derby": "growing", "late_forfeit_minutes": null}),
            ),
        ];
        for (format, options) in options {
            let ruleset = Ruleset::parse(format, options.as_object()).unwrap();
            for &n in if format == Format::HandsWon {
                &[4][..]
            } else {
                &[2, 4][..]
            } {
                for seed in 0..60 {
                    let record = game(&ruleset, n, seed, &Style::default());
                    let what = format!("{format} {options}, {n} players, seed {seed}");
                    assert_eq!(record.options.as_ref(), options.as_object(), "{what}");
                    check(&record, &ruleset, &what);
                }
            }
        }
    }

    #[test]
    fn the_pose_opening_names_the_first_poser() {
        let ruleset = Ruleset::new(Format::AllFives);
        let (players, sides) = table(4);
        let mut rng = Rng::new(7);
        let opening = Opening::Pose("Cat".into());
        let style = Style::clean();
        let record = simulate_game(&ruleset, &players, &sides, opening, &mut rng, &style);
        assert_eq!(record.first_pose.as_deref(), Some("Cat"));
        assert!(record.draw.is_none());
        let outcome = check(&record, &ruleset, "pose opening");
        assert_eq!(outcome.hands[0].posed_by, 2);
    }

    #[test]
    fn the_draw_gives_each_player_a_distinct_tile() {
        for seed in 0..50 {
            let record = game(&Ruleset::new(Format::HandsWon), 4, seed, &Style::clean());
            let draw = record.draw.expect("a draw");
            assert_eq!(draw.len(), 4);
            let mut tiles: Vec<Tile> = draw.values().map(|s| t(s)).collect();
            tiles.sort_by_key(|t| t.rank());
            tiles.dedup();
            assert_eq!(tiles.len(), 4);
        }
    }

    #[test]
    fn fives_and_threes_layout() {
        let mut l = Layout::line();
        assert_eq!(l.fits(t("6-4")), vec![Place::Pose]);
        assert!(l.play(t("5-5"), Place::Pose));
        // The first tile alone counts both halves, once.
        assert_eq!(l.ends_total(), 10);
        assert_eq!(points::fives_and_threes(l.ends_total()), 2);
        // Both ends of a posed double are one choice.
        assert_eq!(l.fits(t("5-0")), vec![Place::End(0)]);
        assert!(l.play(t("5-0"), Place::End(0)));
        // The double still counts both halves at its open end: 10 + 0.
        assert_eq!(l.ends_total(), 10);
        assert!(!l.play(t("6-1"), Place::End(0)), "does not fit");
        assert!(l.play(t("0-3"), Place::End(0)));
        assert_eq!(l.ends_total(), 13);
        assert_eq!(points::fives_and_threes(13), 0);
        assert!(l.play(t("5-4"), Place::End(1)));
        assert_eq!(l.ends_total(), 7);
        assert!(l.play(t("3-3"), Place::End(0)));
        // A double at an open end counts both halves: 6 + 4.
        assert_eq!(l.ends_total(), 10);
        assert!(l.play(t("4-1"), Place::End(1)));
        assert_eq!(l.ends_total(), 7);
        assert!(l.play(t("3-6"), Place::End(0)));
        assert!(l.play(t("6-6"), Place::End(0)));
        assert_eq!(l.ends_total(), 13);
        assert!(l.play(t("1-2"), Place::End(1)));
        assert_eq!(l.ends_total(), 14);
        assert_eq!(l.tiles(), 9);
        // Never a spinner: no place but the two ends.
        let mut l = Layout::line();
        assert!(l.play(t("3-3"), Place::Pose));
        assert_eq!(points::fives_and_threes(l.ends_total()), 2, "6, not 12");
        assert!(l.play(t("3-4"), Place::End(0)));
        assert!(l.play(t("3-2"), Place::End(1)));
        assert_eq!(l.ends_total(), 6);
        assert!(l.fits(t("3-1")).is_empty());
        assert!(!l.play(t("3-1"), Place::SpinnerCross));
        assert!(!l.play(t("6-6"), Place::Pose), "posed once");
    }

    #[test]
    fn all_fives_spinner_posed() {
        let mut l = Layout::with_spinner();
        assert!(l.play(t("5-5"), Place::Pose));
        assert_eq!(l.ends_total(), 10);
        assert_eq!(l.fits(t("5-2")), vec![Place::SpinnerSide]);
        assert!(l.play(t("5-2"), Place::SpinnerSide));
        // The spinner's other long side is open: 10 + 2.
        assert_eq!(l.ends_total(), 12);
        assert_eq!(points::all_fives(12), 0);
        // Crosswise only once both long sides are covered.
        assert!(!l.play(t("5-3"), Place::SpinnerCross));
        assert!(l.play(t("5-3"), Place::SpinnerSide));
        assert_eq!(l.ends_total(), 5);
        assert_eq!(points::all_fives(5), 5);
        assert_eq!(l.fits(t("5-1")), vec![Place::SpinnerCross]);
        assert!(!l.play(t("5-1"), Place::SpinnerSide));
        assert!(l.play(t("5-1"), Place::SpinnerCross));
        assert_eq!(l.ends_total(), 6);
        assert!(l.play(t("5-4"), Place::SpinnerCross));
        assert_eq!(l.ends_total(), 10);
        assert_eq!(points::all_fives(10), 10);
        // All four sides taken: 5-0 fits nowhere.
        assert!(l.fits(t("5-0")).is_empty());
        // A later double counts both halves at its end: 2 + 3 + 1 + 8.
        let four = l.fits(t("4-4"));
        assert_eq!(four.len(), 1);
        assert!(l.play(t("4-4"), four[0]));
        assert_eq!(l.ends_total(), 14);
    }

    #[test]
    fn all_fives_spinner_played_later() {
        let mut l = Layout::with_spinner();
        assert!(l.play(t("6-5"), Place::Pose));
        assert_eq!(l.ends_total(), 11);
        assert!(l.play(t("5-5"), Place::End(1)));
        // The first double becomes the spinner, at the end of the line.
        assert_eq!(l.ends_total(), 6 + 10);
        assert_eq!(l.fits(t("5-4")), vec![Place::SpinnerSide]);
        assert!(l.play(t("5-4"), Place::SpinnerSide));
        assert_eq!(l.ends_total(), 10);
        assert_eq!(l.fits(t("5-3")), vec![Place::SpinnerCross]);
        assert!(l.play(t("5-3"), Place::SpinnerCross));
        assert_eq!(l.ends_total(), 13);
        // The same tiles on a fives-and-threes line: no crosswise sides.
        let mut l = Layout::line();
        assert!(l.play(t("6-5"), Place::Pose));
        assert!(l.play(t("5-5"), Place::End(1)));
        assert_eq!(l.ends_total(), 16);
        assert!(l.play(t("5-4"), Place::End(1)));
        assert_eq!(l.ends_total(), 10);
        assert!(l.fits(t("5-3")).is_empty());
    }

    #[test]
    fn the_same_seed_gives_the_same_game() {
        for (format, n) in TABLES {
            let ruleset = Ruleset::new(format);
            let a = game(&ruleset, n, 42, &Style::default());
            assert_eq!(a, game(&ruleset, n, 42, &Style::default()));
            assert_ne!(a, game(&ruleset, n, 43, &Style::default()));
        }
    }

    #[test]
    fn splitmix64_is_pinned() {
        // The published SplitMix64 sequence for seed 1234567.
        let mut rng = Rng::new(1_234_567);
        let first: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn rng_helpers() {
        let mut rng = Rng::new(1);
        assert_eq!(rng.below(0), 0);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let x = rng.below(6);
            seen[x as usize] = true;
            assert!(!rng.chance(0));
            assert!(rng.chance(1000));
        }
        assert!(seen.iter().all(|&s| s));
        let mut v: Vec<u32> = (0..28).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..28).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..28).collect::<Vec<_>>());
        rng.shuffle::<u8>(&mut []);
        let hits = (0..10_000).filter(|_| rng.chance(250)).count();
        assert!((2_200..2_800).contains(&hits), "{hits}");
    }

    #[test]
    fn fives_and_threes_games_have_every_kind_of_hand() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        for n in [2, 4] {
            let (mut disregarded, mut out, mut blocked, mut won_mid_hand) = (0, 0, 0, 0);
            for seed in 0..SEEDS {
                let record = game(&ruleset, n, seed, &Style::default());
                let outcome = scored(&record, "f&t");
                disregarded += outcome
                    .hands
                    .iter()
                    .filter(|h| !h.disregarded.is_empty())
                    .count();
                for hand in &record.hands {
                    match &hand.end {
                        Some(end) if end.out.is_some() => out += 1,
                        Some(end) if end.blocked.is_some() => blocked += 1,
                        Some(_) => panic!("a fives-and-threes hand ends out or blocked"),
                        None => won_mid_hand += 1,
                    }
                }
            }
            assert!(disregarded > 0, "{n} players: no disregarded play");
            assert!(
                out > 0 && blocked > 0,
                "{n} players: out {out}, blocked {blocked}"
            );
            assert_eq!(won_mid_hand, SEEDS, "{n} players: each game won in a hand");
        }
    }

    #[test]
    fn hands_won_sets_have_derbies_and_penalties() {
        let ruleset = Ruleset::new(Format::HandsWon);
        let (mut derbies, mut late, mut abandoned) = (0, 0, 0);
        for seed in 0..SEEDS {
            let record = game(&ruleset, 4, seed, &Style::default());
            let outcome = scored(&record, "hands-won");
            for (hand, result) in record.hands.iter().zip(&outcome.hands) {
                let end = hand.end.as_ref().expect("hands-won hands all end");
                if let Some(pips) = &end.blocked {
                    // A derby: the lowest count held on both sides.
                    let low = pips.values().min().unwrap();
                    let holders: Vec<usize> = ["Ann", "Bob", "Cat", "Dan"]
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| pips[**p] == *low)
                        .map(|(i, _)| i % 2)
                        .collect();
                    let tied = holders.contains(&0) && holders.contains(&1);
                    assert_eq!(tied, result.worth == 0, "seed {seed}");
                    derbies += usize::from(tied);
                }
                abandoned += usize::from(end.abandoned);
            }
            late += record.penalties.iter().filter(|p| p.kind == "late").count();
        }
        assert!(derbies > 0, "no tied blocked hand");
        assert!(
            late > 0 && abandoned > 0,
            "late {late}, abandoned {abandoned}"
        );
    }

    #[test]
    fn all_fives_games_have_muggins_and_penalties() {
        let ruleset = Ruleset::new(Format::AllFives);
        let (mut muggins, mut penalties, mut won_mid_hand) = (0, 0, 0);
        for seed in 0..SEEDS {
            let record = game(&ruleset, 4, seed, &Style::default());
            for hand in &record.hands {
                muggins += hand.plays.iter().filter(|p| p.muggins).count();
                won_mid_hand += usize::from(hand.end.is_none());
                if let Some(end) = &hand.end {
                    assert!(end.out.is_some() == end.left.is_some());
                }
            }
            penalties += record.penalties.len();
        }
        assert!(muggins > 0 && penalties > 0 && won_mid_hand > 0);
    }

    #[test]
    fn boards_are_best_of_three() {
        for (format, n) in TABLES {
            let ruleset = Ruleset::new(format);
            let (players, sides) = table(n);
            let mut lengths = [0; 4];
            for seed in 0..40 {
                let mut rng = Rng::new(seed);
                let style = Style::default();
                let board = simulate_board(&ruleset, &players, &sides, 3, &mut rng, &style);
                lengths[board.len()] += 1;
                assert!((2..=3).contains(&board.len()), "{format} seed {seed}");
                assert!(board[0].draw.is_some() && board[0].first_pose.is_none());
                let mut wins = [0; 2];
                let mut prev: Option<Outcome> = None;
                for (g, record) in board.iter().enumerate() {
                    let what = format!("{format} seed {seed} game {}", g + 1);
                    let outcome = check(record, &ruleset, &what);
                    if let Some(prev) = prev {
                        let next = players[prev.next_pose].as_str();
                        assert_eq!(record.first_pose.as_deref(), Some(next), "{what}");
                    }
                    wins[outcome.winner.unwrap()] += 1;
                    prev = Some(outcome);
                }
                assert_eq!(wins.iter().max(), Some(&2), "{format} seed {seed}");
            }
            assert!(lengths[2] > 0 && lengths[3] > 0, "{format}: {lengths:?}");
            let mut rng = Rng::new(1);
            let one = simulate_board(&ruleset, &players, &sides, 1, &mut rng, &Style::clean());
            assert_eq!(one.len(), 1);
        }
    }

    #[test]
    fn bad_tables_stop_without_panicking() {
        let mut rng = Rng::new(3);
        let style = Style::default();
        for format in Format::ALL {
            let ruleset = Ruleset::new(format);
            for n in [0, 1, 3, 5] {
                let players: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
                let sides = vec![players.clone()];
                let record =
                    simulate_game(&ruleset, &players, &sides, Opening::Draw, &mut rng, &style);
                assert!(record.hands.is_empty());
            }
            let (players, _) = table(4);
            let adjacent = vec![players[..2].to_vec(), players[2..].to_vec()];
            let open = Opening::Pose("Zed".into());
            let record = simulate_game(&ruleset, &players, &adjacent, open, &mut rng, &style);
            assert!(record.hands.is_empty());
            let board = simulate_board(&ruleset, &players, &adjacent, 3, &mut rng, &style);
            assert_eq!(board.len(), 1);
        }
    }
}
