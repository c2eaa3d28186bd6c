//! The score pad: one board kept at the table, tap by tap.
//!
//! A board's taps are an append-only log (undo is a tap too), so a phone
//! that lost its connection can send what it kept and the server can tell
//! "more of the same" from "something else" by a prefix. [`replay`] turns a
//! log into the board's game records, checking every tap with the engine as
//! the records grow: a tap the engine refuses is refused with its reason,
//! and nothing after it is taken.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::lineup::{BoardPlayers, clashes};
use super::match_format::{BoardKind, MatchFormat};
use crate::domain::FixtureId;
use crate::rules::ruleset::{BlockedScores, Derby, PenaltyTo, PoseRule};
use crate::rules::score::score_in_play;
use crate::rules::{
    EndRecord, Format, Game, GameRecord, HandRecord, Outcome, PenaltyRecord, PlayRecord, Ruleset,
    Tile,
};

/// Most taps a board's log may hold: a best-of-5 All Fives board is a few
/// hundred; this stops a runaway client, not a long night.
pub const MAX_TAPS: usize = 5000;

/// Most checking a replay may do, counted as the hands and plays of each
/// game record the engine checks (every tap checks its game so far, and an
/// undo replays the board from its first tap). A real board, undos and
/// all, is some thousands to a few hundred thousand; a made-up log of
/// endless hands and undos could otherwise keep a request busy for
/// minutes, and the pad's pages replay the log on every view.
pub const MAX_CHECK_WORK: usize = 4_000_000;

/// One tap on the pad. Seats are indices in order of play: home first,
/// the sides alternating (A, B, C, D).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Tap {
    /// Who plays: registered players' ids, home and away.
    Players { home: Vec<i64>, away: Vec<i64> },
    /// The draw for pose of the board's first game: each seat's tile.
    Draw { tiles: Vec<String> },
    /// Or just who poses the board's first game.
    Pose { seat: usize },
    /// A scoring play, credited to the seat whose side took the points.
    Play { seat: usize, points: u32 },
    /// The hand ends with `seat` playing out. Fives and Threes: `points` is
    /// the last tile's own score (the chipping-out point is added by the
    /// rules); All Fives: `left` is the opponents' pips.
    Out {
        seat: usize,
        #[serde(default)]
        points: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left: Option<u32>,
    },
    /// The hand is blocked; `pips` is every seat's count where the format
    /// needs them, else empty.
    Blocked {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pips: Vec<u32>,
    },
    /// `hands-won`: the hand is void after a violation.
    Abandoned,
    /// An in-game penalty against a seat.
    Penalty {
        seat: usize,
        kind: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minutes: Option<u32>,
    },
    /// Takes back the last tap that was not an undo.
    Undo,
}

/// What the pad needs to know of the board.
#[derive(Debug, Clone, Copy)]
pub struct PadRules<'a> {
    pub ruleset: &'a Ruleset,
    pub kind: BoardKind,
    pub best_of: u32,
    /// The teams' registered players: id and name.
    pub home: &'a [(i64, String)],
    pub away: &'a [(i64, String)],
}

/// The ruleset as the pad's script scores it offline: every option its
/// scorer reads, resolved, under the option names and values of RULES.md.
/// The script keeps no defaults of its own, so a league's rules reach it
/// whole (a default it guessed could differ from the engine's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PadRuleset {
    pub pose: PoseRule,
    pub target: u32,
    pub exact_finish: bool,
    pub blocked_scores: BlockedScores,
    pub penalty_points: u32,
    pub penalty_to: PenaltyTo,
    pub set_to: u32,
    pub derby: Derby,
}

impl From<&Ruleset> for PadRuleset {
    fn from(r: &Ruleset) -> PadRuleset {
        PadRuleset {
            pose: r.pose,
            target: r.target,
            exact_finish: r.exact_finish,
            blocked_scores: r.blocked_scores,
            penalty_points: r.penalty_points,
            penalty_to: r.penalty_to,
            set_to: r.set_to,
            derby: r.derby,
        }
    }
}

/// A tap the board cannot take, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// 0-based position of the tap in the log.
    pub index: usize,
    pub reason: String,
}

/// A game of the board as recorded so far, and what the engine makes of it.
#[derive(Debug, Clone)]
pub struct PadGame {
    pub record: GameRecord,
    pub outcome: Outcome,
}

/// Where the pad is: what the next tap may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Players,
    Opening,
    Play,
    Over,
}

/// A board replayed from its taps.
#[derive(Debug, Clone, Default)]
pub struct Board {
    pub home: Vec<i64>,
    pub away: Vec<i64>,
    /// Names in order of play; empty until the players are chosen.
    pub players: Vec<String>,
    pub games: Vec<PadGame>,
    /// Games won by each side (0: home).
    pub games_won: [u32; 2],
    pub winner: Option<usize>,
    /// The taps in force, undos applied.
    pub effective: Vec<Tap>,
    /// Checking done so far in this replay (see [`MAX_CHECK_WORK`]).
    work: usize,
}

/// What a board's link (for someone keeping it without an account) was
/// made for, and until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTerms {
    pub fixture: FixtureId,
    pub board: i64,
    pub revoked: bool,
    pub expires_at: DateTime<Utc>,
}

/// Why a link does not open the pad it was used for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkFault {
    #[error(
        "This score pad link is not known here: ask a captain or the secretary for the board's link."
    )]
    Unknown,
    #[error("This link is for another match: it keeps only the board it was made for.")]
    OtherMatch,
    #[error(
        "This link is for board {made_for}, not board {used_for}: it keeps only the board it was made for."
    )]
    OtherBoard { made_for: i64, used_for: i64 },
    #[error("This link was revoked by a captain or the secretary: ask them for a new one.")]
    Revoked,
    #[error("This link has expired: it works only on the night of the match.")]
    Expired,
}

/// Whether `link` (`None`: no such link) opens board `board` of
/// `fixture` at `now`: only the board it was made for, until revoked or
/// expired.
pub fn check_link(
    link: Option<&LinkTerms>,
    fixture: FixtureId,
    board: i64,
    now: DateTime<Utc>,
) -> Result<(), LinkFault> {
    let link = link.ok_or(LinkFault::Unknown)?;
    if link.fixture != fixture {
        return Err(LinkFault::OtherMatch);
    }
    if link.board != board {
        return Err(LinkFault::OtherBoard {
            made_for: link.board,
            used_for: board,
        });
    }
    if link.revoked {
        return Err(LinkFault::Revoked);
    }
    if link.expires_at <= now {
        return Err(LinkFault::Expired);
    }
    Ok(())
}

/// Why the match's boards, as their pads stand (`(number, board)`), are
/// not ready to submit as its result, in words for the captain: a board not
/// decided yet, or (two phones choosing at once) a player on more boards of
/// a kind than `format` allows, `name` naming them.
pub fn not_ready(
    format: &MatchFormat,
    boards: &[(i64, Board)],
    name: impl Fn(i64) -> String,
) -> Option<String> {
    let undecided: Vec<String> = boards
        .iter()
        .filter(|(_, b)| b.winner.is_none())
        .map(|(n, _)| n.to_string())
        .collect();
    if !undecided.is_empty() {
        let one = undecided.len() == 1;
        return Some(format!(
            "Not submitted: board{} {} {} not decided yet. Finish {} on the pad, or enter the result on the match card.",
            if one { "" } else { "s" },
            undecided.join(", "),
            if one { "is" } else { "are" },
            if one { "it" } else { "them" },
        ));
    }
    let played: Vec<BoardPlayers> = boards
        .iter()
        .filter_map(|(number, b)| {
            let spec = format
                .boards
                .get(usize::try_from(*number).ok()?.checked_sub(1)?)?;
            Some(BoardPlayers {
                board: *number as usize,
                kind: spec.kind,
                players: b.home.iter().chain(&b.away).copied().collect(),
            })
        })
        .collect();
    let clashes = clashes(format, &played);
    if clashes.is_empty() {
        return None;
    }
    let words: Vec<String> = clashes.iter().map(|c| c.words(&name(c.player))).collect();
    Some(format!(
        "Not submitted: {} Undo the players on one of those boards' pads and choose again.",
        words.join(" ")
    ))
}

/// The board to keep once board `this` is over, among the match's boards
/// not yet decided (`undecided`, 1-based): the first after it, else the
/// first before it; none once every other board is decided.
pub fn next_board(this: i64, undecided: &[i64]) -> Option<i64> {
    let after = undecided.iter().copied().filter(|&b| b > this).min();
    after.or_else(|| undecided.iter().copied().filter(|&b| b < this).min())
}

/// Replays a log. Returns the board of the taps taken and, if a tap was
/// refused, which and why (the taps after it are not looked at).
pub fn replay(rules: &PadRules, taps: &[Tap]) -> (Board, Option<Refusal>) {
    let mut board = Board::default();
    for (index, tap) in taps.iter().enumerate() {
        let refuse = |reason: String| Refusal { index, reason };
        if index >= MAX_TAPS {
            return (
                board,
                Some(refuse(format!("a board holds at most {MAX_TAPS} taps"))),
            );
        }
        let step = if *tap == Tap::Undo {
            board.undo(rules)
        } else {
            board.apply(rules, tap)
        };
        if let Err(reason) = step {
            return (board, Some(refuse(reason)));
        }
    }
    (board, None)
}

impl Board {
    pub fn phase(&self) -> Phase {
        if self.players.is_empty() {
            Phase::Players
        } else if self.games.is_empty() {
            Phase::Opening
        } else if self.winner.is_some() {
            Phase::Over
        } else {
            Phase::Play
        }
    }

    /// The game being played, or the last one played.
    pub fn current(&self) -> Option<&PadGame> {
        self.games.last()
    }

    /// Who poses the next hand: in the game in hand, or in the board's next
    /// game once the last one was won.
    pub fn next_poser(&self) -> Option<usize> {
        self.current().map(|g| g.outcome.next_pose)
    }

    /// Whether the current game's last hand is still being played.
    pub fn hand_open(&self) -> bool {
        self.current().is_some_and(|g| {
            !g.outcome.finished && g.record.hands.last().is_some_and(|h| h.end.is_none())
        })
    }

    /// The side of a seat: home seats are even.
    pub fn side_of(seat: usize) -> usize {
        seat % 2
    }

    fn undo(&mut self, rules: &PadRules) -> Result<(), String> {
        let Some((_, kept)) = self.effective.split_last() else {
            return Err("there is nothing to undo".into());
        };
        // The board again without the last tap; the checking counts on.
        // Refused half-way (too much checking), the board stays as it was.
        let mut board = Board {
            work: self.work,
            ..Board::default()
        };
        for tap in kept {
            board.apply(rules, tap)?;
        }
        *self = board;
        Ok(())
    }

    fn apply(&mut self, rules: &PadRules, tap: &Tap) -> Result<(), String> {
        match tap {
            Tap::Undo => return self.undo(rules),
            Tap::Players { home, away } => self.set_players(rules, home, away)?,
            Tap::Draw { tiles } => self.open_with_draw(rules, tiles)?,
            Tap::Pose { seat } => {
                self.check_opening()?;
                let name = self.name(*seat)?;
                let mut record = self.new_record(rules);
                record.first_pose = Some(name);
                self.start_game(record)?;
            }
            _ => self.play(rules, tap)?,
        }
        self.effective.push(tap.clone());
        Ok(())
    }

    fn name(&self, seat: usize) -> Result<String, String> {
        self.players
            .get(seat)
            .cloned()
            .ok_or_else(|| format!("seat {} is not at this board", seat + 1))
    }

    fn set_players(&mut self, rules: &PadRules, home: &[i64], away: &[i64]) -> Result<(), String> {
        if self.phase() != Phase::Players {
            return Err("the players are already chosen: undo to change them".into());
        }
        let n = rules.kind.players_a_side();
        let mut names = [Vec::new(), Vec::new()];
        for (side, (ids, roster, team)) in [(home, rules.home, "home"), (away, rules.away, "away")]
            .into_iter()
            .enumerate()
        {
            if ids.len() != n {
                return Err(format!(
                    "choose {n} {team} player{} for a {} board",
                    if n == 1 { "" } else { "s" },
                    rules.kind
                ));
            }
            for (j, id) in ids.iter().enumerate() {
                let Some((_, name)) = roster.iter().find(|(r, _)| r == id) else {
                    return Err(format!(
                        "the {team} player is not registered to the {team} team this season"
                    ));
                };
                if ids[..j].contains(id) {
                    return Err(format!("{name} is chosen twice"));
                }
                names[side].push(name.clone());
            }
        }
        if names[0].iter().any(|h| names[1].contains(h)) {
            return Err("the same name plays on both sides".into());
        }
        self.home = home.to_vec();
        self.away = away.to_vec();
        self.players = (0..n)
            .flat_map(|j| [names[0][j].clone(), names[1][j].clone()])
            .collect();
        Ok(())
    }

    fn check_opening(&self) -> Result<(), String> {
        match self.phase() {
            Phase::Players => Err("choose the players first".into()),
            Phase::Opening => Ok(()),
            _ => Err(
                "the board's first game has begun: the pose carries on from game to game".into(),
            ),
        }
    }

    fn open_with_draw(&mut self, rules: &PadRules, tiles: &[String]) -> Result<(), String> {
        self.check_opening()?;
        if tiles.len() != self.players.len() {
            return Err(format!(
                "the draw needs {} tiles, one a player",
                self.players.len()
            ));
        }
        let mut draw = BTreeMap::new();
        for (seat, text) in tiles.iter().enumerate() {
            let tile: Tile = text
                .parse()
                .map_err(|e| format!("{}'s tile: {e}", self.players[seat]))?;
            draw.insert(self.players[seat].clone(), tile.to_string());
        }
        let mut record = self.new_record(rules);
        record.draw = Some(draw);
        self.start_game(record)
    }

    fn new_record(&self, rules: &PadRules) -> GameRecord {
        let p = &self.players;
        let sides = if p.len() == 4 {
            vec![
                vec![p[0].clone(), p[2].clone()],
                vec![p[1].clone(), p[3].clone()],
            ]
        } else {
            vec![vec![p[0].clone()], vec![p[1].clone()]]
        };
        let options = rules.ruleset.options();
        GameRecord {
            format: rules.ruleset.format.as_str().to_owned(),
            players: p.clone(),
            sides,
            draw: None,
            first_pose: None,
            hands: Vec::new(),
            options: (!options.is_empty()).then_some(options),
            penalties: Vec::new(),
        }
    }

    /// The engine's word on `record`, counted against [`MAX_CHECK_WORK`].
    fn check(&mut self, record: &GameRecord) -> Result<Outcome, String> {
        let size = record.hands.len()
            + record.penalties.len()
            + record.hands.iter().map(|h| h.plays.len()).sum::<usize>();
        self.work += size;
        if self.work > MAX_CHECK_WORK {
            return Err(
                "this board's taps (undos included) are more than a pad checks: no real board is that long"
                    .into(),
            );
        }
        check(record)
    }

    fn start_game(&mut self, record: GameRecord) -> Result<(), String> {
        let outcome = self.check(&record)?;
        self.games.push(PadGame { record, outcome });
        Ok(())
    }

    /// A tap of play: onto the game in hand, or opening the board's next
    /// game once the last was won.
    fn play(&mut self, rules: &PadRules, tap: &Tap) -> Result<(), String> {
        match self.phase() {
            Phase::Players => return Err("choose the players first".into()),
            Phase::Opening => return Err("say who poses first (or the draw)".into()),
            Phase::Over => {
                let [h, a] = self.games_won;
                return Err(format!(
                    "the board is over ({h}–{a}): nothing more to score"
                ));
            }
            Phase::Play => {}
        }
        let last = self.games.last().expect("phase Play has a game");
        let opens_a_game = last.outcome.finished;
        let mut record = if opens_a_game {
            let mut next = self.new_record(rules);
            next.first_pose = Some(self.players[last.outcome.next_pose].clone());
            next
        } else {
            last.record.clone()
        };
        let n = self.players.len();
        let seat_name = |seat: usize| -> Result<String, String> {
            self.players
                .get(seat)
                .cloned()
                .ok_or_else(|| format!("seat {} is not at this board", seat + 1))
        };
        let open = record.hands.last().is_some_and(|h| h.end.is_none());
        if !open && !matches!(tap, Tap::Penalty { .. }) {
            record.hands.push(HandRecord {
                plays: Vec::new(),
                end: None,
            });
        }
        let format = rules.ruleset.format;
        match tap {
            Tap::Play { seat, points } => {
                let by = seat_name(*seat)?;
                hand_mut(&mut record)
                    .plays
                    .push(PlayRecord::new(&by, i64::from(*points)));
            }
            Tap::Out { seat, points, left } => {
                let by = seat_name(*seat)?;
                let end = match format {
                    Format::FivesAndThrees => {
                        let mut play = PlayRecord::new(&by, i64::from(*points));
                        play.out = true;
                        hand_mut(&mut record).plays.push(play);
                        EndRecord::out(&by)
                    }
                    Format::AllFives => {
                        let opponents: Vec<&String> = (0..n)
                            .filter(|s| Self::side_of(*s) != Self::side_of(*seat))
                            .map(|s| &self.players[s])
                            .collect();
                        let total = i64::from(left.unwrap_or(0));
                        let left = opponents
                            .iter()
                            .enumerate()
                            .map(|(i, name)| ((*name).clone(), if i == 0 { total } else { 0 }))
                            .collect();
                        EndRecord {
                            out: Some(by),
                            left: Some(left),
                            ..Default::default()
                        }
                    }
                    Format::HandsWon => EndRecord::out(&by),
                };
                hand_mut(&mut record).end = Some(end);
            }
            Tap::Blocked { pips } => {
                if !pips.is_empty() && pips.len() != n {
                    return Err(format!("a blocked hand needs the pips of all {n} players"));
                }
                let counts = pips
                    .iter()
                    .enumerate()
                    .map(|(s, p)| (self.players[s].clone(), i64::from(*p)))
                    .collect();
                hand_mut(&mut record).end = Some(EndRecord {
                    blocked: Some(counts),
                    ..Default::default()
                });
            }
            Tap::Abandoned => {
                hand_mut(&mut record).end = Some(EndRecord {
                    abandoned: true,
                    ..Default::default()
                });
            }
            Tap::Penalty {
                seat,
                kind,
                minutes,
            } => {
                let player = seat_name(*seat)?;
                record.penalties.push(PenaltyRecord {
                    player,
                    kind: kind.clone(),
                    before_hand: record.hands.len() as i64 + 1,
                    minutes: minutes.map(i64::from),
                });
            }
            Tap::Players { .. } | Tap::Draw { .. } | Tap::Pose { .. } | Tap::Undo => {
                unreachable!("handled by apply")
            }
        }
        let outcome = self.check(&record)?;
        let finished_now = outcome.finished;
        let winner = outcome.winner;
        let game = PadGame { record, outcome };
        if opens_a_game {
            self.games.push(game);
        } else {
            *self.games.last_mut().expect("a game in hand") = game;
        }
        if finished_now && let Some(w) = winner {
            self.games_won[w] += 1;
            let to_win = rules.best_of.max(1) / 2 + 1;
            if self.games_won[w] >= to_win {
                self.winner = Some(w);
            }
        }
        Ok(())
    }
}

fn hand_mut(record: &mut GameRecord) -> &mut HandRecord {
    record.hands.last_mut().expect("a hand was opened")
}

/// The engine's word on a game in progress.
fn check(record: &GameRecord) -> Result<Outcome, String> {
    Game::from_record(record)
        .and_then(|game| score_in_play(&game))
        .map_err(|e| e.to_string())
}

/// The taps that record a board's games, as a pad would have taken them:
/// for the demo's boards in progress and for tests that play a simulated
/// match through the pad.
pub fn taps_for_board(home: &[i64], away: &[i64], games: &[GameRecord]) -> Vec<Tap> {
    let mut taps = vec![Tap::Players {
        home: home.to_vec(),
        away: away.to_vec(),
    }];
    for (g, record) in games.iter().enumerate() {
        let seat = |name: &str| record.players.iter().position(|p| p == name).unwrap_or(0);
        if g == 0 {
            match (&record.draw, &record.first_pose) {
                (Some(draw), _) => taps.push(Tap::Draw {
                    tiles: record
                        .players
                        .iter()
                        .map(|p| draw.get(p).cloned().unwrap_or_default())
                        .collect(),
                }),
                (None, Some(name)) => taps.push(Tap::Pose { seat: seat(name) }),
                (None, None) => {}
            }
        }
        // A pad records a penalty before the hand in hand; a record may give
        // the violation that voids a hand just after it. Each is tapped
        // once, before the hand it goes with.
        let mut tapped = vec![false; record.penalties.len()];
        let mut penalties_before = |h: usize, taps: &mut Vec<Tap>, voided: bool| {
            for (i, p) in record.penalties.iter().enumerate() {
                let here = p.before_hand == h as i64 + 1
                    || (voided && p.kind == "violation" && p.before_hand == h as i64 + 2);
                if here && !tapped[i] {
                    tapped[i] = true;
                    taps.push(Tap::Penalty {
                        seat: seat(&p.player),
                        kind: p.kind.clone(),
                        minutes: p.minutes.and_then(|m| u32::try_from(m).ok()),
                    });
                }
            }
        };
        for (h, hand) in record.hands.iter().enumerate() {
            let voided = hand.end.as_ref().is_some_and(|e| e.abandoned);
            penalties_before(h, &mut taps, voided);
            for play in &hand.plays {
                let points = u32::try_from(play.points).unwrap_or(0);
                if play.out {
                    taps.push(Tap::Out {
                        seat: seat(&play.by),
                        points,
                        left: None,
                    });
                } else {
                    taps.push(Tap::Play {
                        seat: seat(&play.by),
                        points,
                    });
                }
            }
            let Some(end) = &hand.end else { continue };
            if let Some(name) = &end.out {
                // Fives and Threes: the chipping-out play already ended it.
                if !hand.plays.last().is_some_and(|p| p.out) {
                    let left = end
                        .left
                        .as_ref()
                        .map(|l| l.values().map(|v| u32::try_from(*v).unwrap_or(0)).sum());
                    taps.push(Tap::Out {
                        seat: seat(name),
                        points: 0,
                        left,
                    });
                }
            } else if let Some(pips) = &end.blocked {
                let pips = if pips.is_empty() {
                    Vec::new()
                } else {
                    record
                        .players
                        .iter()
                        .map(|p| {
                            pips.get(p)
                                .and_then(|v| u32::try_from(*v).ok())
                                .unwrap_or(0)
                        })
                        .collect()
                };
                taps.push(Tap::Blocked { pips });
            } else if end.abandoned {
                taps.push(Tap::Abandoned);
            }
        }
        penalties_before(record.hands.len(), &mut taps, false);
    }
    taps
}

/// A tap in words, for "saved" notices and the pad's list of taps.
pub fn describe(board: &Board, tap: &Tap) -> String {
    let name = |seat: &usize| {
        board
            .players
            .get(*seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {}", seat + 1))
    };
    match tap {
        Tap::Players { .. } => format!("players: {}", board.players.join(", ")),
        Tap::Draw { .. } => "the draw for pose".into(),
        Tap::Pose { seat } => format!("{} poses first", name(seat)),
        Tap::Play { seat, points } => format!("{} {points}", name(seat)),
        Tap::Out {
            seat,
            points,
            left: None,
        } => format!("{} out ({points} + 1)", name(seat)),
        Tap::Out {
            seat,
            left: Some(left),
            ..
        } => format!("{} out, opponents hold {left}", name(seat)),
        Tap::Blocked { .. } => "blocked".into(),
        Tap::Abandoned => "hand abandoned".into(),
        Tap::Penalty {
            seat,
            kind,
            minutes,
        } => match minutes {
            Some(m) => format!("penalty: {} {kind} {m} min", name(seat)),
            None => format!("penalty: {} {kind}", name(seat)),
        },
        Tap::Undo => "undo".into(),
    }
}

/// Where a board stands, as the live pages show it: kept beside the taps
/// so that following many boards reads a row each, not a replay each.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub players: Vec<String>,
    /// 1-based number of the game in hand (0 before the first).
    pub game: usize,
    /// 1-based number of the hand being played (or the last one played).
    pub hand: usize,
    pub totals: [u32; 2],
    pub games_won: [u32; 2],
    pub poser: Option<String>,
    pub next_poser: Option<String>,
    /// The game in hand is won.
    pub game_over: bool,
    /// The board's winner, once it is decided.
    pub winner: Option<usize>,
}

impl Board {
    /// `pose_rotates`: the ruleset's pose rotates (under `winner` who
    /// poses next is known only when the hand ends).
    pub fn summary(&self, pose_rotates: bool) -> Summary {
        let n = self.players.len().max(1);
        let name = |s: usize| self.players.get(s).cloned();
        let mut summary = Summary {
            players: self.players.clone(),
            games_won: self.games_won,
            winner: self.winner,
            ..Summary::default()
        };
        if let Some(g) = self.current() {
            summary.game = self.games.len();
            summary.totals = g.outcome.totals;
            summary.game_over = g.outcome.finished;
            if self.hand_open() || g.outcome.finished {
                summary.hand = g.record.hands.len();
                summary.poser = g.outcome.hands.last().and_then(|h| name(h.posed_by));
                summary.next_poser = (pose_rotates || g.outcome.finished)
                    .then(|| name(g.outcome.next_pose))
                    .flatten();
            } else {
                summary.hand = g.record.hands.len() + 1;
                summary.poser = name(g.outcome.next_pose);
                summary.next_poser = pose_rotates
                    .then(|| name((g.outcome.next_pose + 1) % n))
                    .flatten();
            }
        }
        summary
    }
}

/// Hours past midnight after the fixture's day that a pad link still
/// works: a match that starts at eight can run past midnight.
pub const LINK_GRACE_HOURS: i64 = 4;

/// When a pad link made `now` for a fixture starting at `starts_at`
/// expires: after the fixture's day in the league's clock (a fixture with
/// no date yet: a day from now).
pub fn link_expiry(
    zone: super::time::Zone,
    starts_at: Option<chrono::DateTime<chrono::Utc>>,
    now: chrono::DateTime<chrono::Utc>,
) -> chrono::DateTime<chrono::Utc> {
    match starts_at {
        Some(t) => {
            let day = zone.local(t).date();
            let next = day.succ_opt().unwrap_or(day);
            zone.day_start(next) + chrono::Duration::hours(LINK_GRACE_HOURS)
        }
        None => now + chrono::Duration::days(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::score_record;
    use crate::rules::simulate::{Rng, Style, simulate_board};

    #[test]
    fn the_next_board_is_the_next_one_undecided_then_an_earlier_one() {
        assert_eq!(next_board(3, &[1, 4, 9]), Some(4));
        assert_eq!(next_board(9, &[2, 5]), Some(2));
        assert_eq!(next_board(1, &[]), None);
        // Boards already over are not offered.
        assert_eq!(next_board(4, &[8]), Some(8));
    }

    fn roster(names: &[&str], first: i64) -> Vec<(i64, String)> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| (first + i as i64, (*n).to_owned()))
            .collect()
    }

    fn rules<'a>(
        ruleset: &'a Ruleset,
        kind: BoardKind,
        best_of: u32,
        home: &'a [(i64, String)],
        away: &'a [(i64, String)],
    ) -> PadRules<'a> {
        PadRules {
            ruleset,
            kind,
            best_of,
            home,
            away,
        }
    }

    #[test]
    fn a_fives_and_threes_game_keeps_the_exact_61_rule_and_opens_the_next_game() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (home, away) = (roster(&["Ann"], 1), roster(&["Bob"], 10));
        let r = rules(&ruleset, BoardKind::Singles, 3, &home, &away);
        let mut taps = vec![
            Tap::Players {
                home: vec![1],
                away: vec![10],
            },
            Tap::Pose { seat: 1 },
        ];
        // Ann to 58 in hands of 8s and 2s, Bob scoring nothing.
        for _ in 0..7 {
            taps.push(Tap::Play { seat: 0, points: 8 });
            taps.push(Tap::Blocked { pips: vec![] });
        }
        taps.push(Tap::Play { seat: 0, points: 2 });
        taps.push(Tap::Play { seat: 0, points: 4 }); // 62: disregarded
        taps.push(Tap::Play { seat: 0, points: 3 }); // 61: wins mid-hand
        let (board, refused) = replay(&r, &taps);
        assert_eq!(refused, None);
        let game = board.current().unwrap();
        assert_eq!(game.outcome.totals, [61, 0]);
        assert_eq!(game.outcome.winner, Some(0));
        assert_eq!(game.outcome.hands.last().unwrap().disregarded, vec![2]);
        assert_eq!(board.games_won, [1, 0]);
        assert_eq!(board.phase(), Phase::Play);
        // Bob posed hand 1, then the pose rotated every hand: 8 hands.
        assert_eq!(game.outcome.next_pose, 1);
        // The next tap opens game 2 with the carried pose.
        taps.push(Tap::Play { seat: 1, points: 6 });
        let (board, refused) = replay(&r, &taps);
        assert_eq!(refused, None);
        assert_eq!(board.games.len(), 2);
        assert_eq!(board.games[1].record.first_pose.as_deref(), Some("Bob"));
        assert_eq!(board.games[1].outcome.totals, [0, 6]);
    }

    #[test]
    fn undo_takes_back_the_last_tap_as_often_as_asked() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (home, away) = (roster(&["Ann"], 1), roster(&["Bob"], 10));
        let r = rules(&ruleset, BoardKind::Singles, 1, &home, &away);
        let taps = vec![
            Tap::Players {
                home: vec![1],
                away: vec![10],
            },
            Tap::Pose { seat: 0 },
            Tap::Play { seat: 0, points: 6 },
            Tap::Play { seat: 1, points: 4 },
            Tap::Undo,
            Tap::Undo,
            Tap::Play { seat: 1, points: 2 },
        ];
        let (board, refused) = replay(&r, &taps);
        assert_eq!(refused, None);
        assert_eq!(board.current().unwrap().outcome.totals, [0, 2]);
        let mut more = taps.clone();
        more.extend([Tap::Undo, Tap::Undo, Tap::Undo, Tap::Undo, Tap::Undo]);
        let (board, refused) = replay(&r, &more);
        assert_eq!(board.phase(), Phase::Players);
        assert_eq!(refused.unwrap().index, taps.len() + 3);
    }

    #[test]
    fn refusals_name_the_tap_and_keep_what_came_before() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (home, away) = (roster(&["Ann"], 1), roster(&["Bob"], 10));
        let r = rules(&ruleset, BoardKind::Singles, 1, &home, &away);
        let (_, refused) = replay(&r, &[Tap::Play { seat: 0, points: 3 }]);
        assert!(refused.unwrap().reason.contains("players first"));
        let (_, refused) = replay(
            &r,
            &[Tap::Players {
                home: vec![10],
                away: vec![1],
            }],
        );
        assert!(refused.unwrap().reason.contains("not registered"));
        let taps = [
            Tap::Players {
                home: vec![1],
                away: vec![10],
            },
            Tap::Pose { seat: 0 },
            Tap::Play { seat: 0, points: 2 },
            Tap::Play { seat: 0, points: 5 },
        ];
        let (board, refused) = replay(&r, &taps);
        let refused = refused.unwrap();
        assert_eq!(refused.index, 3);
        assert!(refused.reason.contains("not 5"), "{}", refused.reason);
        assert_eq!(board.current().unwrap().outcome.totals, [2, 0]);
    }

    #[test]
    fn simulated_boards_replay_through_the_pad_to_the_same_scores() {
        let cases = [
            (Format::FivesAndThrees, BoardKind::Singles, 1),
            (Format::FivesAndThrees, BoardKind::Pairs, 3),
            (Format::AllFives, BoardKind::Singles, 3),
            (Format::AllFives, BoardKind::Pairs, 1),
            (Format::HandsWon, BoardKind::Pairs, 1),
        ];
        let home = roster(&["Ann", "Cat"], 1);
        let away = roster(&["Bob", "Dan"], 10);
        for (format, kind, best_of) in cases {
            let ruleset = Ruleset::new(format);
            for seed in 0..24 {
                let n = kind.players_a_side();
                let players: Vec<String> = (0..n)
                    .flat_map(|j| [home[j].1.clone(), away[j].1.clone()])
                    .collect();
                let sides: Vec<Vec<String>> = (0..2)
                    .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
                    .collect();
                let mut rng = Rng::new(seed);
                // Half the seeds with penalties, muggins and void hands.
                let style = if seed % 2 == 0 {
                    Style::clean()
                } else {
                    Style {
                        penalty_per_mille: 150,
                        muggins_per_mille: 50,
                    }
                };
                let games = simulate_board(&ruleset, &players, &sides, best_of, &mut rng, &style);
                let ids = |r: &[(i64, String)]| r[..n].iter().map(|p| p.0).collect::<Vec<_>>();
                let taps = taps_for_board(&ids(&home), &ids(&away), &games);
                let r = rules(&ruleset, kind, best_of, &home, &away);
                let (board, refused) = replay(&r, &taps);
                assert_eq!(refused, None, "{format:?} {kind} seed {seed}");
                assert_eq!(board.games.len(), games.len());
                for (pad, sim) in board.games.iter().zip(&games) {
                    let expected = score_record(sim).unwrap();
                    assert_eq!(
                        pad.outcome.totals, expected.totals,
                        "{format:?} seed {seed}"
                    );
                    assert_eq!(pad.outcome.winner, expected.winner);
                    assert_eq!(pad.outcome.next_pose, expected.next_pose);
                }
            }
        }
    }

    #[test]
    fn the_pad_is_sent_every_option_resolved_in_the_words_of_rules_md() {
        use serde_json::json;
        let sent = |r: &Ruleset| serde_json::to_value(PadRuleset::from(r)).unwrap();
        // The defaults are all there, as RULES.md's table gives them.
        assert_eq!(
            sent(&Ruleset::new(Format::AllFives)),
            json!({"pose": "rotate", "target": 250, "exact_finish": true,
                   "blocked_scores": "total", "penalty_points": 50,
                   "penalty_to": "opponents", "set_to": 6, "derby": "capped"})
        );
        // A league's options reach the pad as the league wrote them.
        for (format, options) in [
            (
                Format::FivesAndThrees,
                json!({"pose": "winner", "target": 121, "exact_finish": false}),
            ),
            (
                Format::AllFives,
                json!({"pose": "winner", "target": 100, "blocked_scores": "difference",
                       "penalty_points": 30, "penalty_to": "offender"}),
            ),
            (
                Format::HandsWon,
                json!({"pose": "winner", "set_to": 9, "derby": "growing"}),
            ),
        ] {
            let sent = sent(&Ruleset::parse(format, options.as_object()).unwrap());
            for (option, value) in options.as_object().unwrap() {
                assert_eq!(&sent[option], value, "{format} {option}");
            }
        }
    }

    /// Ann to 60 in a Fives and Threes singles game, then `hands` hands of
    /// six 4s that are all disregarded (61 exactly), each blocked: a game
    /// that never ends.
    fn endless(hands: usize) -> Vec<Tap> {
        let mut taps = vec![
            Tap::Players {
                home: vec![1],
                away: vec![10],
            },
            Tap::Pose { seat: 1 },
        ];
        for _ in 0..7 {
            taps.push(Tap::Play { seat: 0, points: 8 });
            taps.push(Tap::Blocked { pips: vec![] });
        }
        taps.push(Tap::Play { seat: 0, points: 4 });
        for _ in 0..hands {
            taps.extend(std::iter::repeat_n(Tap::Play { seat: 0, points: 4 }, 6));
            taps.push(Tap::Blocked { pips: vec![] });
        }
        taps
    }

    #[test]
    fn a_game_that_never_ends_stops_at_the_engines_limit_of_hands() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (home, away) = (roster(&["Ann"], 1), roster(&["Bob"], 10));
        let r = rules(&ruleset, BoardKind::Singles, 1, &home, &away);
        let (board, refused) = replay(&r, &endless(300));
        let refused = refused.expect("hand 201 is refused");
        assert!(
            refused.reason.contains("201 hands, more than 200"),
            "{refused:?}"
        );
        assert_eq!(board.current().unwrap().record.hands.len(), 200);
    }

    #[test]
    fn undoing_over_and_over_is_refused_before_it_costs_minutes() {
        let ruleset = Ruleset::new(Format::FivesAndThrees);
        let (home, away) = (roster(&["Ann"], 1), roster(&["Bob"], 10));
        let r = rules(&ruleset, BoardKind::Singles, 1, &home, &away);
        // The longest game the engine allows, then a play and its undo
        // until the log is full: each undo replays the whole board.
        let long = endless(190);
        let mut taps = long.clone();
        while taps.len() < MAX_TAPS {
            taps.push(Tap::Play { seat: 0, points: 4 });
            taps.push(Tap::Undo);
        }
        let started = std::time::Instant::now();
        let (board, refused) = replay(&r, &taps);
        let took = started.elapsed();
        eprintln!(
            "a full log of undos: refused at tap {:?} in {took:?}",
            refused.as_ref().map(|r| r.index)
        );
        let refused = refused.expect("the checking runs out");
        assert!(
            refused.reason.contains("no real board is that long"),
            "{refused:?}"
        );
        // The board stands as it was before the refused tap.
        assert_eq!(&board.effective[..long.len()], &long[..]);
        assert!(board.effective.len() <= long.len() + 1);
        assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    }

    #[test]
    fn real_boards_with_plenty_of_undos_are_well_within_the_checking_allowed() {
        let home = roster(&["Ann", "Cat"], 1);
        let away = roster(&["Bob", "Dan"], 10);
        let ruleset = Ruleset::new(Format::AllFives);
        let players: Vec<String> = ["Ann", "Bob", "Cat", "Dan"].map(String::from).to_vec();
        let sides = vec![
            vec!["Ann".to_owned(), "Cat".to_owned()],
            vec!["Bob".to_owned(), "Dan".to_owned()],
        ];
        let games = simulate_board(
            &ruleset,
            &players,
            &sides,
            5,
            &mut Rng::new(3),
            &Style::clean(),
        );
        let taps = taps_for_board(&[1, 2], &[10, 11], &games);
        // Every fifth tap taken back and made again: a nervous scorer.
        let mut nervous = Vec::new();
        for (i, tap) in taps.iter().enumerate() {
            nervous.push(tap.clone());
            if i % 5 == 4 {
                nervous.extend([Tap::Undo, tap.clone()]);
            }
        }
        let r = rules(&ruleset, BoardKind::Pairs, 5, &home, &away);
        let (board, refused) = replay(&r, &nervous);
        assert_eq!(refused, None);
        assert_eq!(board.games.len(), games.len());
        eprintln!(
            "a best-of-5 all-fives board of {} taps, {} undos: {} of {MAX_CHECK_WORK}",
            taps.len(),
            taps.len() / 5,
            board.work
        );
        assert!(
            board.work * 20 < MAX_CHECK_WORK,
            "{} of {MAX_CHECK_WORK}",
            board.work
        );
    }

    /// A singles board of `home` v `away`, won by `winner`.
    fn decided(home: i64, away: i64, winner: Option<usize>) -> Board {
        Board {
            home: vec![home],
            away: vec![away],
            winner,
            ..Board::default()
        }
    }

    #[test]
    fn boards_not_decided_are_named_before_anything_else() {
        let f = MatchFormat::with_boards(6, 3, 1);
        let boards = [
            (1, decided(1, 11, Some(0))),
            (2, decided(1, 12, None)),
            (3, decided(3, 13, None)),
        ];
        let said = not_ready(&f, &boards, |_| "Ann".into()).unwrap();
        assert!(said.contains("boards 2, 3 are not decided yet"), "{said}");
    }

    #[test]
    fn a_player_chosen_on_two_singles_boards_is_named_and_a_fair_match_is_ready() {
        let f = MatchFormat::with_boards(6, 3, 1);
        let clash = [(1, decided(1, 11, Some(0))), (2, decided(1, 12, Some(1)))];
        let said = not_ready(
            &f,
            &clash,
            |id| if id == 1 { "Ann".into() } else { "?".into() },
        )
        .unwrap();
        assert!(said.contains("Ann is on singles boards 1 and 2"), "{said}");
        let fair = [(1, decided(1, 11, Some(0))), (2, decided(2, 12, Some(1)))];
        assert_eq!(not_ready(&f, &fair, |_| String::new()), None);
    }

    #[test]
    fn a_link_opens_only_its_own_board_until_revoked_or_expired() {
        let now: DateTime<Utc> = "2026-09-10T20:00:00Z".parse().unwrap();
        let link = LinkTerms {
            fixture: FixtureId(4),
            board: 2,
            revoked: false,
            expires_at: now + chrono::Duration::hours(6),
        };
        assert_eq!(check_link(Some(&link), FixtureId(4), 2, now), Ok(()));
        assert_eq!(
            check_link(None, FixtureId(4), 2, now),
            Err(LinkFault::Unknown)
        );
        assert_eq!(
            check_link(Some(&link), FixtureId(5), 2, now),
            Err(LinkFault::OtherMatch)
        );
        assert_eq!(
            check_link(Some(&link), FixtureId(4), 3, now),
            Err(LinkFault::OtherBoard {
                made_for: 2,
                used_for: 3
            })
        );
        let revoked = LinkTerms {
            revoked: true,
            ..link.clone()
        };
        assert_eq!(
            check_link(Some(&revoked), FixtureId(4), 2, now),
            Err(LinkFault::Revoked)
        );
        let later = now + chrono::Duration::hours(6);
        assert_eq!(
            check_link(Some(&link), FixtureId(4), 2, later),
            Err(LinkFault::Expired)
        );
    }
}
