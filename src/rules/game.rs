//! A validated game: the record's names turned into player indices, every
//! rule of RULES.md about the record's shape checked once, so scoring works
//! on data that cannot be malformed.

use std::collections::BTreeMap;

use super::error::RecordError;
use super::points;
use super::record::{EndRecord, GameRecord, HandRecord, PenaltyRecord, PlayRecord};
use super::ruleset::{Format, Ruleset};
use super::tile::{SET_PIPS, Tile};

/// Longest player name a record may carry.
pub const MAX_NAME_CHARS: usize = 80;

/// A player's index in order of play.
pub type Seat = usize;

#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub ruleset: Ruleset,
    /// Names in order of play.
    pub players: Vec<String>,
    /// The two sides, each in the order the record gave.
    pub sides: [Vec<Seat>; 2],
    /// The side of each seat.
    pub side_of: Vec<usize>,
    pub opening: Opening,
    pub hands: Vec<Hand>,
    /// In the record's order; scoring applies them by `before_hand`.
    pub penalties: Vec<Penalty>,
}

/// Who poses hand 1: the draw, or a named player (a later game of a board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening {
    Draw(Vec<Tile>),
    Pose(Seat),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    pub plays: Vec<Play>,
    pub end: Option<End>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    pub by: Seat,
    /// The play's own score, without the chipping-out point.
    pub points: u32,
    pub out: bool,
    pub muggins: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// `player`'s last tile ended the hand; `left` holds each seat's pips
    /// as the record gave them (`all-fives`: the opponents'; 0 elsewhere).
    Out { player: Seat, left: Vec<u32> },
    /// Nobody could play; every seat's remaining pips, or `None` for a
    /// `fives-and-threes` hand recorded without them (`{"blocked": {}}`),
    /// which validation allows only there and only when the pose rotates.
    Blocked { pips: Option<Vec<u32>> },
    /// Void after a violation (`hands-won`).
    Abandoned,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Penalty {
    pub player: Seat,
    pub kind: PenaltyKind,
    /// 0-based index of the hand it precedes (`hands.len()` for after the
    /// last).
    pub before_hand: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PenaltyKind {
    Talking,
    Exposed,
    Late { minutes: u32 },
    Violation,
}

impl PenaltyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PenaltyKind::Talking => "talking",
            PenaltyKind::Exposed => "exposed",
            PenaltyKind::Late { .. } => "late",
            PenaltyKind::Violation => "violation",
        }
    }
}

impl Game {
    /// Reads a record, refusing it whole at its first mistake.
    pub fn from_record(record: &GameRecord) -> Result<Game, RecordError> {
        Game::check_record(record).map_err(|mut errors| errors.swap_remove(0))
    }

    /// Reads a record, or lists every mistake found in it: the record's
    /// players, sides and opening first (nothing else can be read without
    /// them), then each penalty and each hand on its own, so a card with
    /// three bad hands hears of all three at once. Never empty when `Err`.
    pub fn check_record(record: &GameRecord) -> Result<Game, Vec<RecordError>> {
        super::limits::check(record).map_err(|e| vec![e])?;
        let format: Format = record
            .format
            .parse()
            .map_err(|e| vec![RecordError::game(e)])?;
        let ruleset = Ruleset::parse(format, record.options.as_ref())
            .map_err(|e| vec![RecordError::game(e)])?;
        let players = check_players(format, &record.players).map_err(|e| vec![e])?;
        let (sides, side_of) = check_sides(&players, &record.sides).map_err(|e| vec![e])?;
        let opening = check_opening(record, &players).map_err(|e| vec![e])?;
        let mut game = Game {
            ruleset,
            players,
            sides,
            side_of,
            opening,
            hands: Vec::with_capacity(record.hands.len()),
            penalties: Vec::with_capacity(record.penalties.len()),
        };
        let mut errors = Vec::new();
        for (i, p) in record.penalties.iter().enumerate() {
            match check_penalty(&game, record.hands.len(), p) {
                Ok(penalty) => game.penalties.push(penalty),
                Err(why) => errors.push(RecordError::game(format!("penalty {}: {why}", i + 1))),
            }
        }
        let names = game.players.clone();
        let seat = |name: &str| names.iter().position(|p| p == name);
        for (h, hand) in record.hands.iter().enumerate() {
            match check_hand(&game, h, hand, &seat) {
                Ok(hand) => game.hands.push(hand),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(game)
        } else {
            Err(errors)
        }
    }

    /// The record this game was read from, in its canonical form.
    pub fn to_record(&self) -> GameRecord {
        let name = |s: Seat| self.players[s].clone();
        let by_seat = |counts: &[u32], seats: &mut dyn Iterator<Item = Seat>| {
            seats
                .map(|s| (name(s), i64::from(counts[s])))
                .collect::<BTreeMap<_, _>>()
        };
        let hands = self
            .hands
            .iter()
            .map(|hand| HandRecord {
                plays: hand
                    .plays
                    .iter()
                    .map(|p| PlayRecord {
                        by: name(p.by),
                        points: i64::from(p.points),
                        out: p.out,
                        muggins: p.muggins,
                    })
                    .collect(),
                end: hand.end.as_ref().map(|end| match end {
                    End::Out { player, left } => EndRecord {
                        out: Some(name(*player)),
                        left: (self.ruleset.format == Format::AllFives).then(|| {
                            let opp = 1 - self.side_of[*player];
                            by_seat(left, &mut self.sides[opp].iter().copied())
                        }),
                        ..Default::default()
                    },
                    End::Blocked { pips } => EndRecord {
                        blocked: Some(pips.as_ref().map_or_else(BTreeMap::new, |pips| {
                            by_seat(pips, &mut (0..self.players.len()))
                        })),
                        ..Default::default()
                    },
                    End::Abandoned => EndRecord {
                        abandoned: true,
                        ..Default::default()
                    },
                }),
            })
            .collect();
        let (draw, first_pose) = match &self.opening {
            Opening::Draw(tiles) => (
                Some(
                    tiles
                        .iter()
                        .enumerate()
                        .map(|(s, t)| (name(s), t.to_string()))
                        .collect(),
                ),
                None,
            ),
            Opening::Pose(s) => (None, Some(name(*s))),
        };
        let options = self.ruleset.options();
        GameRecord {
            format: self.ruleset.format.as_str().to_owned(),
            players: self.players.clone(),
            sides: self
                .sides
                .iter()
                .map(|side| side.iter().map(|&s| name(s)).collect())
                .collect(),
            draw,
            first_pose,
            hands,
            options: (!options.is_empty()).then_some(options),
            penalties: self
                .penalties
                .iter()
                .map(|p| PenaltyRecord {
                    player: name(p.player),
                    kind: p.kind.as_str().to_owned(),
                    before_hand: p.before_hand as i64 + 1,
                    minutes: match p.kind {
                        PenaltyKind::Late { minutes } => Some(i64::from(minutes)),
                        _ => None,
                    },
                })
                .collect(),
        }
    }

    /// Whether two seats play for the same side.
    pub fn partners(&self, a: Seat, b: Seat) -> bool {
        self.side_of[a] == self.side_of[b]
    }

    /// Pips a side holds, from per-seat counts.
    pub fn side_pips(&self, pips: &[u32], side: usize) -> u32 {
        self.sides[side].iter().map(|&s| pips[s]).sum()
    }
}

fn check_players(format: Format, names: &[String]) -> Result<Vec<String>, RecordError> {
    match (format, names.len()) {
        (Format::HandsWon, 4) | (Format::FivesAndThrees | Format::AllFives, 2 | 4) => {}
        (Format::HandsWon, n) => {
            return Err(RecordError::game(format!(
                "hands-won is played by 4 players in 2 pairs; the record lists {n}"
            )));
        }
        (_, n) => {
            return Err(RecordError::game(format!(
                "a game has 2 or 4 players; the record lists {n}"
            )));
        }
    }
    for (i, name) in names.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(RecordError::game(format!("player {} has no name", i + 1)));
        }
        if name.trim() != name {
            return Err(RecordError::game(format!(
                "player name `{name}` starts or ends with spaces"
            )));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(RecordError::game(format!(
                "player {} has a name longer than {MAX_NAME_CHARS} characters",
                i + 1
            )));
        }
        if names[..i].contains(name) {
            return Err(RecordError::game(format!(
                "`{name}` is listed twice in players"
            )));
        }
    }
    Ok(names.to_vec())
}

fn check_sides(
    players: &[String],
    sides: &[Vec<String>],
) -> Result<([Vec<Seat>; 2], Vec<usize>), RecordError> {
    let [a, b] = sides else {
        return Err(RecordError::game(format!(
            "sides must list exactly 2 sides; the record has {}",
            sides.len()
        )));
    };
    let per_side = players.len() / 2;
    let mut side_of = vec![usize::MAX; players.len()];
    let mut seats: [Vec<Seat>; 2] = Default::default();
    for (i, side) in [a, b].into_iter().enumerate() {
        if side.len() != per_side {
            return Err(RecordError::game(format!(
                "side {} has {} players; with {} players each side has {per_side}",
                i + 1,
                side.len(),
                players.len()
            )));
        }
        for name in side {
            let Some(s) = players.iter().position(|p| p == name) else {
                return Err(RecordError::game(format!(
                    "side {} names `{name}`, who is not in players",
                    i + 1
                )));
            };
            if side_of[s] != usize::MAX {
                return Err(RecordError::game(format!("`{name}` is on a side twice")));
            }
            side_of[s] = i;
            seats[i].push(s);
        }
    }
    // Partners sit opposite: in order of play the sides alternate.
    if players.len() == 4 && (side_of[0] != side_of[2] || side_of[1] != side_of[3]) {
        return Err(RecordError::game(format!(
            "partners must not sit next to each other: in order of play ({}) the sides must alternate",
            players.join(", ")
        )));
    }
    Ok((seats, side_of))
}

fn check_opening(record: &GameRecord, players: &[String]) -> Result<Opening, RecordError> {
    match (&record.draw, &record.first_pose) {
        (Some(_), Some(_)) => Err(RecordError::game(
            "give either `draw` or `first_pose`, not both",
        )),
        (None, None) => Err(RecordError::game(
            "say who poses hand 1: give `draw` (each player's drawn tile) or `first_pose`",
        )),
        (None, Some(name)) => players
            .iter()
            .position(|p| p == name)
            .map(Opening::Pose)
            .ok_or_else(|| {
                RecordError::game(format!("first_pose `{name}` is not one of the players"))
            }),
        (Some(draw), None) => {
            if let Some(stranger) = draw.keys().find(|k| !players.contains(k)) {
                return Err(RecordError::game(format!(
                    "draw: `{stranger}` is not one of the players"
                )));
            }
            let mut tiles: Vec<Tile> = Vec::with_capacity(players.len());
            for name in players {
                let text = draw.get(name).ok_or_else(|| {
                    RecordError::game(format!("draw: `{name}` has no drawn tile"))
                })?;
                let tile: Tile = text
                    .parse()
                    .map_err(|e| RecordError::game(format!("draw: {name}: {e}")))?;
                if let Some(other) = tiles.iter().position(|&t| t == tile) {
                    return Err(RecordError::game(format!(
                        "draw: {} and {name} both drew {tile}; a tile can be drawn once",
                        players[other]
                    )));
                }
                tiles.push(tile);
            }
            Ok(Opening::Draw(tiles))
        }
    }
}

fn check_penalty(game: &Game, hands: usize, p: &PenaltyRecord) -> Result<Penalty, String> {
    let format = game.ruleset.format;
    let player = game
        .players
        .iter()
        .position(|n| *n == p.player)
        .ok_or_else(|| format!("`{}` is not one of the players", p.player))?;
    let kind = match (p.kind.as_str(), p.minutes) {
        ("late", Some(m)) => Penalty::late_minutes(m)?,
        ("late", None) => return Err("a late arrival needs `minutes`".into()),
        (_, Some(_)) => return Err("only a late arrival has `minutes`".into()),
        ("talking", None) => PenaltyKind::Talking,
        ("exposed", None) => PenaltyKind::Exposed,
        ("violation", None) => PenaltyKind::Violation,
        (other, None) => {
            return Err(format!(
                "unknown kind `{other}` (expected talking, exposed, late or violation)"
            ));
        }
    };
    let allowed = format.penalty_kinds().contains(&kind.as_str());
    if !allowed {
        return Err(match format {
            Format::FivesAndThrees => {
                "fives-and-threes has no in-game penalties (record them on the match)".into()
            }
            Format::AllFives => format!(
                "`{}` is not an all-fives penalty (talking or exposed)",
                kind.as_str()
            ),
            Format::HandsWon => format!(
                "`{}` is not a hands-won penalty (late or violation)",
                kind.as_str()
            ),
        });
    }
    let before_hand = match usize::try_from(p.before_hand) {
        Ok(n) if (1..=hands + 1).contains(&n) => n - 1,
        _ => {
            return Err(format!(
                "before_hand is {}; it must be from 1 to {} (one past the last hand)",
                p.before_hand,
                hands + 1
            ));
        }
    };
    Ok(Penalty {
        player,
        kind,
        before_hand,
    })
}

impl Penalty {
    fn late_minutes(m: i64) -> Result<PenaltyKind, String> {
        u32::try_from(m)
            .ok()
            .filter(|&m| m <= 24 * 60)
            .map(|minutes| PenaltyKind::Late { minutes })
            .ok_or_else(|| format!("`minutes` must be from 0 to 1440, got {m}"))
    }
}

fn check_hand(
    game: &Game,
    h: usize,
    hand: &HandRecord,
    seat: &dyn Fn(&str) -> Option<Seat>,
) -> Result<Hand, RecordError> {
    let format = game.ruleset.format;
    let n = game.players.len();
    if format == Format::HandsWon && !hand.plays.is_empty() {
        return Err(RecordError::hand(
            h,
            "a hands-won hand has no scoring plays: `plays` must be empty",
        ));
    }
    let mut plays = Vec::with_capacity(hand.plays.len());
    let mut made = [0u32; 4];
    let most = match format {
        Format::FivesAndThrees => game
            .ruleset
            .tiles_per_hand
            .unwrap_or(if n == 2 { 7 } else { 6 }),
        _ => 7,
    };
    for (p, play) in hand.plays.iter().enumerate() {
        let err = |why: String| RecordError::play(h, p, why);
        let by = seat(&play.by)
            .ok_or_else(|| err(format!("`{}` is not one of the players", play.by)))?;
        let points = u32::try_from(play.points)
            .map_err(|_| err(format!("points must be 0 or more, got {}", play.points)))?;
        match format {
            Format::FivesAndThrees => {
                if play.muggins {
                    return Err(err("muggins is an all-fives rule".into()));
                }
                if !(points::fives_and_threes_possible(points) || (play.out && points == 0)) {
                    return Err(err(format!(
                        "a fives-and-threes play scores 1, 2, 3, 4, 6 or 8 (0 only when chipping out), not {points}"
                    )));
                }
                if play.out && p + 1 != hand.plays.len() {
                    return Err(err(
                        "a chipping-out play ends the hand, but more plays follow it".into(),
                    ));
                }
            }
            Format::AllFives => {
                if play.out {
                    return Err(err(
                        "`out` marks chipping out in fives-and-threes; in all-fives the hand's end says who played out".into(),
                    ));
                }
                if !points::all_fives_possible(points) {
                    return Err(err(format!(
                        "an all-fives play scores a multiple of 5 from 5 to 60, not {points}"
                    )));
                }
            }
            Format::HandsWon => unreachable!("hands-won plays refused above"),
        }
        // A muggins claim is credited to the claimant but was not their
        // tile, so it does not count against their tiles.
        if !play.muggins {
            made[by] += 1;
            if made[by] > most {
                return Err(err(format!(
                    "{} has made more than {most} scoring plays in one hand, more than their tiles allow",
                    play.by
                )));
            }
        }
        plays.push(Play {
            by,
            points,
            out: play.out,
            muggins: play.muggins,
        });
    }
    // A hand without an end is the one in which the game was won: only
    // scoring can tell, so it blames the right hand (this one, or an
    // extra one typed after the win).
    let end = match &hand.end {
        None => None,
        Some(end) => Some(check_end(game, h, end, &plays, seat)?),
    };
    if format == Format::FivesAndThrees
        && plays.last().is_some_and(|p| p.out)
        && !matches!(end, Some(End::Out { .. }) | None)
    {
        return Err(RecordError::play(
            h,
            plays.len() - 1,
            "marked as chipping out, but the hand's end is not `out`",
        ));
    }
    if end == Some(End::Abandoned)
        && !game.penalties.iter().any(|p| {
            p.kind == PenaltyKind::Violation && (p.before_hand == h || p.before_hand == h + 1)
        })
    {
        return Err(RecordError::hand(
            h,
            "abandoned, but no violation penalty was given in it (a penalty with before_hand equal to this hand or the next)",
        ));
    }
    Ok(Hand { plays, end })
}

fn check_end(
    game: &Game,
    h: usize,
    end: &EndRecord,
    plays: &[Play],
    seat: &dyn Fn(&str) -> Option<Seat>,
) -> Result<End, RecordError> {
    let format = game.ruleset.format;
    let n = game.players.len();
    let err = |why: String| RecordError::hand(h, why);
    let given = usize::from(end.out.is_some())
        + usize::from(end.blocked.is_some())
        + usize::from(end.abandoned);
    if given != 1 {
        return Err(err(
            "`end` must be exactly one of {\"out\": NAME}, {\"blocked\": {...}} or {\"abandoned\": true}".into(),
        ));
    }
    if end.left.is_some() && (end.out.is_none() || format != Format::AllFives) {
        return Err(err(
            "`left` (the opponents' pips) goes only with `out` in all-fives".into(),
        ));
    }
    let pips_of = |map: &BTreeMap<String, i64>,
                   want: &mut dyn Iterator<Item = Seat>,
                   what: &str|
     -> Result<Vec<u32>, RecordError> {
        let mut pips = vec![0u32; n];
        let mut expected = 0;
        for s in want {
            expected += 1;
            let name = &game.players[s];
            let count = *map
                .get(name)
                .ok_or_else(|| err(format!("{what}: `{name}`'s pips are missing")))?;
            pips[s] = u32::try_from(count)
                .ok()
                .filter(|&c| c <= SET_PIPS)
                .ok_or_else(|| {
                    err(format!(
                        "{what}: {name} holds {count} pips; a count is from 0 to {SET_PIPS}"
                    ))
                })?;
        }
        if map.len() != expected {
            let stray = map
                .keys()
                .find(|k| seat(k).is_none())
                .map(|k| format!("`{k}` is not one of the players"))
                .unwrap_or_else(|| "it lists a player who does not belong there".into());
            return Err(err(format!("{what}: {stray}")));
        }
        let total: u32 = pips.iter().sum();
        if total > SET_PIPS {
            return Err(err(format!(
                "{what}: {total} pips in all, more than a double-six set holds ({SET_PIPS})"
            )));
        }
        Ok(pips)
    };
    if let Some(name) = &end.out {
        let player =
            seat(name).ok_or_else(|| err(format!("out: `{name}` is not one of the players")))?;
        let left = match format {
            Format::AllFives => {
                let map = end.left.as_ref().ok_or_else(|| {
                    err(format!(
                        "an all-fives hand played out needs `left`: the pips each opponent of {name} still holds"
                    ))
                })?;
                let opp = 1 - game.side_of[player];
                pips_of(map, &mut game.sides[opp].iter().copied(), "left")?
            }
            _ => vec![0; n],
        };
        if format == Format::FivesAndThrees {
            match plays.last() {
                Some(last) if last.out && last.by == player => {}
                _ => {
                    return Err(err(format!(
                        "{name} chipped out, so the hand's last play must be {name}'s, marked `\"out\": true` (with points 0 if the tile scored nothing)"
                    )));
                }
            }
        }
        return Ok(End::Out { player, left });
    }
    if let Some(map) = &end.blocked {
        if map.is_empty() {
            return blocked_without_counts(game).map_err(err);
        }
        let pips = pips_of(map, &mut (0..n), "blocked")?;
        return Ok(End::Blocked { pips: Some(pips) });
    }
    if format != Format::HandsWon {
        return Err(err(
            "only a hands-won hand can be abandoned (after a violation)".into(),
        ));
    }
    Ok(End::Abandoned)
}

/// `{"blocked": {}}`: a blocked hand without the pip counts, which only
/// `fives-and-threes` can do without, and only while nobody needs the
/// lowest count to know who poses next.
fn blocked_without_counts(game: &Game) -> Result<End, String> {
    if !game.ruleset.blocked_needs_counts() {
        return Ok(End::Blocked { pips: None });
    }
    let why = match game.ruleset.format {
        Format::FivesAndThrees => "with the `pose` option `winner` the lowest count poses next",
        Format::AllFives => "in all-fives the counts decide what the hand scores",
        Format::HandsWon => "in hands-won the lowest count wins the hand",
    };
    Err(format!(
        "blocked without pip counts: give every player's count ({why})"
    ))
}
