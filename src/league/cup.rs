//! Knockout cups (LEAGUE.md, "Competitions"): who may enter, the draw of
//! each round with the byes that bring the first round to a power of two,
//! who a tie's winner is, and what a decided or corrected tie changes in
//! the rounds after it. Plain data, no I/O: `app::cup_commands` reads a
//! cup inside its write transaction, asks here, and writes what the answer
//! says.
//!
//! A round is drawn from its *qualifiers*: the entrants for the first
//! round, and for each later round the winners of the round before, one
//! per tie of it, known or not yet ("the winner of tie 3"). Since the first
//! round has a tie for each pair of places in a bracket of a power of two
//! (a tie with one side being a bye), every later round has exactly half
//! the ties of the one before, and no round after the first has a bye.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::refusal::Refusal;
use crate::domain::{CupEntrantId, CupTieId, FixtureId, FixtureStatus, PlayerId, Side, TeamId};
use crate::league::match_format::{MAX_BOARDS, MatchFormat};
use crate::rules::Format;
use crate::rules::limits::GAMES_A_BOARD;
use crate::rules::simulate::Rng;

/// Most entrants a cup takes: 128 is already a county's open singles.
pub const MAX_ENTRANTS: usize = 128;

/// What enters a cup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantKind {
    /// Teams of the season: a tie is a match of boards.
    Teams,
    /// Players one by one: a tie is one singles board.
    Singles,
    /// Pairs of players: a tie is one pairs board.
    Pairs,
}

crate::domain::text_enum!(EntrantKind {
    Teams = "teams",
    Singles = "singles",
    Pairs = "pairs",
});

impl EntrantKind {
    /// Players an entrant is made of (none for a team).
    pub fn players(self) -> usize {
        match self {
            EntrantKind::Teams => 0,
            EntrantKind::Singles => 1,
            EntrantKind::Pairs => 2,
        }
    }

    /// The kind as a cup's page names it: "team cup", "singles knockout".
    pub fn title(self) -> &'static str {
        match self {
            EntrantKind::Teams => "team cup",
            EntrantKind::Singles => "singles knockout",
            EntrantKind::Pairs => "pairs knockout",
        }
    }
}

/// How a round was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Out of the hat, from a recorded seed.
    Random,
    /// The seeded entrants on their lines of the bracket, the others drawn
    /// at random from a recorded seed (the first round only).
    Seeded,
    /// As the bracket runs: the winners of ties 1 and 2 meet, then 3 and
    /// 4, ... (a later round only).
    Bracket,
    /// Typed in as drawn on the night.
    Hand,
}

crate::domain::text_enum!(Method {
    Random = "random",
    Seeded = "seeded",
    Bracket = "bracket",
    Hand = "hand",
});

impl Method {
    /// Whether the draw is made from a seed, which is then recorded.
    pub fn needs_seed(self) -> bool {
        matches!(self, Method::Random | Method::Seeded)
    }
}

/// A seed as recorded and shown: 16 hex digits.
pub fn seed_text(seed: u64) -> String {
    format!("{seed:016x}")
}

/// A recorded seed read back.
pub fn parse_seed(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim(), 16).ok()
}

/// Places in the bracket for `entrants`: the power of two at or above it.
pub fn bracket_size(entrants: usize) -> usize {
    entrants.max(2).next_power_of_two()
}

/// Rounds a cup of `entrants` takes, the final included.
pub fn rounds(entrants: usize) -> u32 {
    bracket_size(entrants).trailing_zeros()
}

/// Byes in the first round of a cup of `entrants`.
pub fn byes(entrants: usize) -> usize {
    bracket_size(entrants) - entrants
}

/// A round as people call it: the final, the semi-finals, the
/// quarter-finals, else "Round N".
pub fn round_name(round: u32, rounds: u32) -> String {
    match rounds.checked_sub(round) {
        Some(0) => "Final".to_owned(),
        Some(1) => "Semi-finals".to_owned(),
        Some(2) => "Quarter-finals".to_owned(),
        _ => format!("Round {round}"),
    }
}

// ---------------------------------------------------------------------------
// Entrants

/// An entrant as the checks see it: the team named for it, its players,
/// and its seed for a seeded draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrantFacts {
    pub team: TeamId,
    pub players: Vec<PlayerId>,
    pub seed: Option<i64>,
}

/// Refuses a change of the cup's entrants once its first round is drawn
/// (`drawn`: the last round drawn, 0 for none): the draw was made from them.
pub fn entrants_open(drawn: u32) -> Result<(), Refusal> {
    if drawn > 0 {
        return Err(Refusal::EntrantsFixed);
    }
    Ok(())
}

/// Refuses to delete a cup once its first round is drawn (`drawn`, as for
/// [`entrants_open`]): a drawn cup has matches.
pub fn may_delete(drawn: u32) -> Result<(), Refusal> {
    if drawn > 0 {
        return Err(Refusal::CupHasMatches);
    }
    Ok(())
}

/// Refuses an entry into a cup of `kind` with entrants `existing`: a team
/// not entered in the season (`team_entered`), a player not registered in
/// it (`players_registered`: all of them are), what [`check_entrant`]
/// refuses, or a seed another entrant has.
pub fn may_enter(
    kind: EntrantKind,
    existing: &[EntrantFacts],
    new: &EntrantFacts,
    team_entered: bool,
    players_registered: bool,
) -> Result<(), Refusal> {
    if !team_entered {
        return Err(Refusal::TeamNotEntered);
    }
    if !players_registered {
        return Err(Refusal::PlayerNotRegistered);
    }
    check_entrant(kind, existing, new).map_err(Refusal::Rule)?;
    if let Some(seed) = new.seed
        && existing.iter().any(|e| e.seed == Some(seed))
    {
        return Err(Refusal::SeedTaken { seed });
    }
    Ok(())
}

/// Refuses an entrant the cup cannot take, saying why: the wrong number of
/// players, a player twice, or a team or player already in the cup.
pub fn check_entrant(
    kind: EntrantKind,
    existing: &[EntrantFacts],
    new: &EntrantFacts,
) -> Result<(), String> {
    if existing.len() >= MAX_ENTRANTS {
        return Err(format!("A cup takes at most {MAX_ENTRANTS} entrants."));
    }
    let want = kind.players();
    if new.players.len() != want {
        return Err(match kind {
            EntrantKind::Teams => "A team cup's entrants are teams, not players.".into(),
            EntrantKind::Singles => "Choose the player.".into(),
            EntrantKind::Pairs => "Choose both players of the pair.".into(),
        });
    }
    if want == 2 && new.players[0] == new.players[1] {
        return Err("A pair is two different players.".into());
    }
    if kind == EntrantKind::Teams && existing.iter().any(|e| e.team == new.team) {
        return Err("That team is in the cup already.".into());
    }
    if new
        .players
        .iter()
        .any(|p| existing.iter().any(|e| e.players.contains(p)))
    {
        return Err("That player is in the cup already.".into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The draw

/// One side of a drawn tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// An entrant by name (the first round).
    Entrant(CupEntrantId),
    /// The winner of this tie of the round before.
    WinnerOf(CupTieId),
}

/// A tie as drawn: home first; no away side is a bye (the first round).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawn {
    pub home: Slot,
    pub away: Option<Slot>,
}

/// For a bracket of `size` places (a power of two), the line drawn into
/// each place, top to bottom: line 1 (the top seed) first, line 2 last,
/// so that lines 1 and 2 can meet only in the final, lines 1 to 4 only
/// from the semi-finals, and line `s` meets line `size + 1 - s` in the
/// first round.
fn line_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let n = order.len() * 2;
        order = order
            .iter()
            .flat_map(|&line| [line, n + 1 - line])
            .collect();
    }
    order
}

/// The ties of a round whose qualifiers are drawn into lines `lines` (line
/// 1 first): a bracket of a power of two, lines past the qualifiers being
/// byes, which so fall to the first lines, spread through the bracket.
/// Two byes never meet, since more than half the lines are filled.
fn draw_lines(lines: &[Slot]) -> Vec<Drawn> {
    let size = bracket_size(lines.len());
    let order = line_order(size);
    order
        .chunks(2)
        .filter_map(|pair| {
            let a = lines.get(pair[0] - 1).copied();
            let b = lines.get(pair[1] - 1).copied();
            match (a, b) {
                (Some(home), away) => Some(Drawn { home, away }),
                (None, Some(home)) => Some(Drawn { home, away: None }),
                (None, None) => None,
            }
        })
        .collect()
}

/// A round drawn out of the hat: the qualifiers (in their stored order:
/// entrants by id, ties by number) shuffled by the generator seeded with
/// `seed`, then drawn into lines. The same qualifiers and seed always make
/// the same draw, so a recorded seed shows how a draw was made.
pub fn draw_random(qualifiers: &[Slot], seed: u64) -> Vec<Drawn> {
    let mut lines = qualifiers.to_vec();
    Rng::new(seed).shuffle(&mut lines);
    draw_lines(&lines)
}

/// A seeded first round: `seeded` (seed 1 first) on the first lines, the
/// byes going to the top seeds, and the rest drawn into the lines after
/// them at random from `seed`.
pub fn draw_seeded(seeded: &[Slot], unseeded: &[Slot], seed: u64) -> Vec<Drawn> {
    let mut rest = unseeded.to_vec();
    Rng::new(seed).shuffle(&mut rest);
    draw_lines(&[seeded, &rest].concat())
}

/// A later round as the bracket runs: the winners of ties 1 and 2 of the
/// round before (by number) meet, then 3 and 4, and so on.
pub fn draw_bracket(previous: &[CupTieId]) -> Vec<Drawn> {
    previous
        .chunks(2)
        .map(|pair| Drawn {
            home: Slot::WinnerOf(pair[0]),
            away: pair.get(1).map(|t| Slot::WinnerOf(*t)),
        })
        .collect()
}

/// What a round is drawn from: the entrants (by id) for the first round,
/// and for a later one the winner of each tie of the round before (by
/// number), known or not.
pub fn qualifiers(round: u32, entrants: &[CupEntrantId], previous: &[CupTieId]) -> Vec<Slot> {
    if round <= 1 {
        entrants.iter().map(|e| Slot::Entrant(*e)).collect()
    } else {
        previous.iter().map(|t| Slot::WinnerOf(*t)).collect()
    }
}

/// Whether round `round` can be drawn from `qualifiers` this way, and if
/// not, why.
pub fn can_draw(round: u32, qualifiers: usize, method: Method) -> Result<(), String> {
    if round <= 1 {
        if qualifiers < 2 {
            return Err(
                "A cup needs at least two entrants before its first round is drawn.".into(),
            );
        }
        if qualifiers > MAX_ENTRANTS {
            return Err(format!("A cup takes at most {MAX_ENTRANTS} entrants."));
        }
        if method == Method::Bracket {
            return Err(
                "The first round is drawn at random, seeded, or typed in by hand: there is no \
                 bracket before it."
                    .into(),
            );
        }
    } else {
        if qualifiers < 2 {
            return Err("The final is drawn already: the cup has no more rounds.".into());
        }
        if method == Method::Seeded {
            return Err(
                "Only the first round is seeded: draw this one at random, as the bracket runs, \
                 or by hand."
                    .into(),
            );
        }
    }
    Ok(())
}

/// Refuses a cup its season's game cannot play: `hands-won` is played
/// between pairs only, so it has no singles knockout.
pub fn check_kind(kind: EntrantKind, format: Format) -> Result<(), String> {
    if kind == EntrantKind::Singles && format == Format::HandsWon {
        return Err(
            "Partnership sets are played between pairs: this season can have a pairs knockout, \
             not a singles one."
                .into(),
        );
    }
    Ok(())
}

/// What is wrong with a cup's match format, by what it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The boards (how many, of which kind).
    Boards(String),
    /// The games a board is the best of.
    BestOf(String),
}

/// The match format of a cup's ties in a season of `format`: a singles or
/// pairs tie is one board, the best of `best_of`; a team cup's tie is
/// `boards` (singles, then pairs) each the best of `best_of`, or with no
/// `boards` the season's own format (`None`). Refused, saying why, when a
/// board is not 1 game or the best of an odd number, when a tie has no
/// board or too many, and when the season's game has no singles.
pub fn tie_format(
    kind: EntrantKind,
    format: Format,
    boards: Option<(usize, usize)>,
    best_of: u32,
) -> Result<Option<MatchFormat>, FormatError> {
    let (singles, pairs) = match (kind, boards) {
        (EntrantKind::Teams, None) => return Ok(None),
        (EntrantKind::Teams, Some(boards)) => boards,
        (EntrantKind::Singles, _) => (1, 0),
        (EntrantKind::Pairs, _) => (0, 1),
    };
    if singles + pairs == 0 {
        return Err(FormatError::Boards(
            "A tie needs at least one board.".into(),
        ));
    }
    if singles + pairs > MAX_BOARDS {
        return Err(FormatError::Boards(format!(
            "A tie has at most {MAX_BOARDS} boards."
        )));
    }
    if singles > 0 && format == Format::HandsWon {
        return Err(FormatError::Boards(
            "Partnership sets are played between pairs only.".into(),
        ));
    }
    let tie = MatchFormat::with_boards(singles, pairs, best_of);
    tie.check().map_err(|_| {
        FormatError::BestOf(format!(
            "A board is 1 game or the best of an odd number up to {GAMES_A_BOARD}."
        ))
    })?;
    Ok(Some(tie))
}

/// A mistake in a draw typed by hand: the tie (1-based; 0 for the draw as a
/// whole) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandError {
    pub tie: usize,
    pub message: String,
}

/// A round typed in as drawn on the night: each tie's home and away as
/// picked (`None` left empty). It must have a tie for every two places of
/// the round's bracket, every qualifier exactly once, and, in the first
/// round, exactly the byes that make a power of two (a tie with its away
/// side empty). `name` says a qualifier in the errors.
pub fn check_hand(
    qualifiers: &[Slot],
    typed: &[(Option<Slot>, Option<Slot>)],
    name: impl Fn(Slot) -> String,
) -> Result<Vec<Drawn>, Vec<HandError>> {
    let ties = bracket_size(qualifiers.len()) / 2;
    let mut errors = Vec::new();
    if typed.len() != ties {
        errors.push(HandError {
            tie: 0,
            message: format!("This round has {ties} ties, not {}.", typed.len()),
        });
        return Err(errors);
    }
    let mut seen: HashMap<Slot, usize> = HashMap::new();
    let mut drawn = Vec::with_capacity(ties);
    for (i, (home, away)) in typed.iter().enumerate() {
        let tie = i + 1;
        for slot in [home, away].into_iter().flatten() {
            if !qualifiers.contains(slot) {
                errors.push(HandError {
                    tie,
                    message: "Pick from this round's qualifiers.".into(),
                });
            } else if let Some(first) = seen.insert(*slot, tie) {
                errors.push(HandError {
                    tie,
                    message: format!("{} is drawn in tie {first} already.", name(*slot)),
                });
            }
        }
        match (home, away) {
            (Some(home), away) => drawn.push(Drawn {
                home: *home,
                away: *away,
            }),
            (None, _) => errors.push(HandError {
                tie,
                message: "Pick the home side (the side drawn first).".into(),
            }),
        }
    }
    let missing: Vec<String> = qualifiers
        .iter()
        .filter(|q| !seen.contains_key(q))
        .map(|q| name(*q))
        .collect();
    if !missing.is_empty() {
        errors.push(HandError {
            tie: 0,
            message: format!("Not drawn yet: {}.", missing.join(", ")),
        });
    }
    let given = typed.iter().filter(|(_, away)| away.is_none()).count();
    let want = byes(qualifiers.len());
    if errors.is_empty() && given != want {
        errors.push(HandError {
            tie: 0,
            message: format!(
                "This round has {want} bye{}: {} away side{} to leave empty, not {given}.",
                if want == 1 { "" } else { "s" },
                want,
                if want == 1 { "" } else { "s" },
            ),
        });
    }
    if errors.is_empty() {
        Ok(drawn)
    } else {
        Err(errors)
    }
}

/// How a round is to be drawn.
#[derive(Debug, Clone)]
pub enum How {
    /// Out of the hat, from this seed.
    Random { seed: u64 },
    /// The seeded entrants on their lines, the rest at random from this seed.
    Seeded { seed: u64 },
    /// As the bracket runs.
    Bracket,
    /// As typed: each tie's home and away.
    Hand(Vec<(Option<Slot>, Option<Slot>)>),
}

impl How {
    pub fn method(&self) -> Method {
        match self {
            How::Random { .. } => Method::Random,
            How::Seeded { .. } => Method::Seeded,
            How::Bracket => Method::Bracket,
            How::Hand(_) => Method::Hand,
        }
    }

    /// The seed the draw is made from, which is recorded with it.
    pub fn seed(&self) -> Option<u64> {
        match self {
            How::Random { seed } | How::Seeded { seed } => Some(*seed),
            How::Bracket | How::Hand(_) => None,
        }
    }
}

/// The round to draw after round `drawn` (0 for none), refused when the
/// form asked for round `asked`, another: a form sent twice, or from a
/// page older than the last draw, draws nothing more.
pub fn next_round(drawn: u32, asked: u32) -> Result<u32, Refusal> {
    let next = drawn + 1;
    if asked != next {
        return Err(Refusal::RoundDrawn {
            round: asked.min(drawn).max(1),
        });
    }
    Ok(next)
}

/// Round `round` drawn from `qualifiers` as `how` says, `seeds` being the
/// entrants' seeds (by entrant) for a seeded draw. Refused, in the rule's
/// words, when the round cannot be drawn that way ([`can_draw`]) or a draw
/// typed by hand is wrong ([`check_hand`]).
pub fn draw_round(
    round: u32,
    qualifiers: &[Slot],
    seeds: &[(CupEntrantId, Option<i64>)],
    previous: &[CupTieId],
    how: &How,
) -> Result<Vec<Drawn>, Refusal> {
    can_draw(round, qualifiers.len(), how.method()).map_err(Refusal::Rule)?;
    Ok(match how {
        How::Random { seed } => draw_random(qualifiers, *seed),
        How::Seeded { seed } => {
            let mut seeded: Vec<(i64, CupEntrantId)> = seeds
                .iter()
                .filter_map(|(id, s)| s.map(|s| (s, *id)))
                .collect();
            seeded.sort();
            let top: Vec<Slot> = seeded.iter().map(|(_, id)| Slot::Entrant(*id)).collect();
            let rest: Vec<Slot> = qualifiers
                .iter()
                .filter(|q| !top.contains(q))
                .copied()
                .collect();
            draw_seeded(&top, &rest, *seed)
        }
        How::Bracket => draw_bracket(previous),
        How::Hand(typed) => {
            check_hand(qualifiers, typed, |s| format!("{s:?}")).map_err(|errors| {
                Refusal::Rule(
                    errors
                        .into_iter()
                        .map(|e| e.message)
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            })?
        }
    })
}

// ---------------------------------------------------------------------------
// Who goes through

/// A tie's match totals in its approved current result, home first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Tally {
    pub boards: [u32; 2],
    pub games: [u32; 2],
    pub pegs: [u32; 2],
}

/// What a tie's match says about who goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// This side goes through.
    Won(Side),
    /// An approved result level on boards, games and pegs: the secretary
    /// must settle it (a deciding game entered as a correction, or a
    /// walkover).
    Level,
    /// Not decided yet: no approved result, or the match is void (to be
    /// played again).
    Open,
}

/// Who a tie's match sends through: the side that did not concede a
/// walkover; else, by its approved current result, the side with more
/// boards, then more games, then more pegs. A void match decides nothing.
pub fn verdict(
    status: FixtureStatus,
    conceded_by: Option<Side>,
    approved: Option<Tally>,
) -> Verdict {
    match (status, conceded_by) {
        (FixtureStatus::Void, _) => return Verdict::Open,
        (FixtureStatus::Walkover, Some(side)) => return Verdict::Won(side.other()),
        _ => {}
    }
    let Some(t) = approved else {
        return Verdict::Open;
    };
    for [home, away] in [t.boards, t.games, t.pegs] {
        match home.cmp(&away) {
            std::cmp::Ordering::Greater => return Verdict::Won(Side::Home),
            std::cmp::Ordering::Less => return Verdict::Won(Side::Away),
            std::cmp::Ordering::Equal => {}
        }
    }
    Verdict::Level
}

/// A tie's match as the advance sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieMatch {
    pub fixture: FixtureId,
    /// Anything recorded against it (a result, a walkover or void, a
    /// penalty, a board on the score pad): it can no longer be changed or
    /// thrown away.
    pub recorded: bool,
    pub verdict: Verdict,
}

/// A tie as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieState {
    pub id: CupTieId,
    pub round: u32,
    pub number: u32,
    pub home: Option<CupEntrantId>,
    pub away: Option<CupEntrantId>,
    /// Later rounds: the ties whose winners come here.
    pub home_from: Option<CupTieId>,
    pub away_from: Option<CupTieId>,
    pub fixture: Option<TieMatch>,
}

impl TieState {
    /// A first-round tie with no away side.
    pub fn is_bye(&self) -> bool {
        self.home_from.is_none() && self.away_from.is_none() && self.away.is_none()
    }
}

/// A change the advance makes, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// The tie's sides are now these (the winners of the ties before it,
    /// as far as they are known).
    Sides {
        tie: CupTieId,
        home: Option<CupEntrantId>,
        away: Option<CupEntrantId>,
    },
    /// Both sides known and no match yet: make it.
    Make { tie: CupTieId },
    /// The sides changed before anything was recorded: the match's teams
    /// follow them.
    Retarget { tie: CupTieId, fixture: FixtureId },
    /// The sides are no longer both known, and nothing was recorded: the
    /// match goes.
    Drop { tie: CupTieId, fixture: FixtureId },
}

/// Why a correction cannot go through: a winner would change in a tie
/// whose next tie has been played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The tie already played, whose side would change.
    pub round: u32,
    pub number: u32,
}

/// The winner of a tie, as an entrant, once known: a bye's entrant, or the
/// side its match sends through.
fn winner_of(
    home: Option<CupEntrantId>,
    away: Option<CupEntrantId>,
    tie: &TieState,
) -> Option<CupEntrantId> {
    if tie.is_bye() {
        return home;
    }
    match tie.fixture?.verdict {
        Verdict::Won(Side::Home) => home,
        Verdict::Won(Side::Away) => away,
        Verdict::Level | Verdict::Open => None,
    }
}

/// Brings every tie of a cup in line with the winners known now: each
/// later tie's sides become the winners of the ties it is drawn from,
/// matches are made once both sides are known, and a correction that
/// changes (or takes back) a winner carries through the rounds after it.
/// Refused when a side would change in a tie that has anything recorded
/// against it. Nothing to do gives no changes.
pub fn advance(ties: &[TieState]) -> Result<Vec<Change>, Blocked> {
    let mut order: Vec<&TieState> = ties.iter().collect();
    order.sort_by_key(|t| (t.round, t.number));
    let mut winners: HashMap<CupTieId, Option<CupEntrantId>> = HashMap::new();
    let mut changes = Vec::new();
    for tie in order {
        let from = |f: Option<CupTieId>, stored| match f {
            Some(f) => winners.get(&f).copied().flatten(),
            None => stored,
        };
        let (home, away) = (from(tie.home_from, tie.home), from(tie.away_from, tie.away));
        let moved = (home, away) != (tie.home, tie.away);
        if moved {
            if tie.fixture.is_some_and(|f| f.recorded) {
                return Err(Blocked {
                    round: tie.round,
                    number: tie.number,
                });
            }
            changes.push(Change::Sides {
                tie: tie.id,
                home,
                away,
            });
        }
        let both = home.is_some() && away.is_some();
        match tie.fixture {
            None if both => changes.push(Change::Make { tie: tie.id }),
            Some(f) if both && moved => changes.push(Change::Retarget {
                tie: tie.id,
                fixture: f.fixture,
            }),
            Some(f) if !both && !f.recorded => changes.push(Change::Drop {
                tie: tie.id,
                fixture: f.fixture,
            }),
            _ => {}
        }
        // A match whose sides just moved decides nothing (it is unplayed).
        let winner = if moved && !tie.is_bye() {
            None
        } else {
            winner_of(home, away, tie)
        };
        winners.insert(tie.id, winner);
    }
    Ok(changes)
}

/// [`advance`], its refusal said to the secretary: which tie already has
/// something recorded, and what to do.
pub fn advance_or_refuse(ties: &[TieState]) -> Result<Vec<Change>, Refusal> {
    advance(ties).map_err(|b| {
        let first = ties.iter().filter(|t| t.round == 1).count();
        Refusal::NotNow(format!(
            "This would change who plays in tie {} of the {}, which has a result (or a walkover, \
             a void, a penalty or boards on the score pad) already. Correct that tie first, \
             working back from the latest round. Nothing was saved.",
            b.number,
            round_name(b.round, rounds(first * 2)).to_lowercase(),
        ))
    })
}

/// The cup's winner: the winner of the last round's only tie, once the
/// cup is drawn through to its final of `rounds` rounds.
pub fn champion(ties: &[TieState], rounds: u32) -> Option<CupEntrantId> {
    let finals: Vec<&TieState> = ties.iter().filter(|t| t.round == rounds).collect();
    match finals.as_slice() {
        [final_tie] => winner_of(final_tie.home, final_tie.away, final_tie),
        _ => None,
    }
}

/// The cup's final once decided: its winner, and the side the winner beat
/// in it (none for a final that was a bye, which no draw makes).
pub fn final_result(
    ties: &[TieState],
    rounds: u32,
) -> Option<(CupEntrantId, Option<CupEntrantId>)> {
    let winner = champion(ties, rounds)?;
    let final_tie = ties.iter().find(|t| t.round == rounds)?;
    let beaten = if final_tie.home == Some(winner) {
        final_tie.away
    } else {
        final_tie.home
    };
    Some((winner, beaten))
}

/// The ties of each drawn round (round 1 first) in the order a bracket
/// shows them: the last round drawn by number, and each round before in
/// the order its winners go on, so that every tie sits beside the two it
/// is drawn from. Ties that feed nothing drawn yet keep their numbers'
/// order.
pub fn bracket_order(ties: &[TieState]) -> Vec<Vec<CupTieId>> {
    let mut by_round: BTreeMap<u32, Vec<&TieState>> = BTreeMap::new();
    for t in ties {
        by_round.entry(t.round).or_default().push(t);
    }
    for list in by_round.values_mut() {
        list.sort_by_key(|t| t.number);
    }
    let mut out: Vec<Vec<CupTieId>> = Vec::with_capacity(by_round.len());
    let mut next: Option<Vec<CupTieId>> = None;
    let by_id: HashMap<CupTieId, &TieState> = ties.iter().map(|t| (t.id, t)).collect();
    for (_, list) in by_round.iter().rev() {
        let order: Vec<CupTieId> = match &next {
            None => list.iter().map(|t| t.id).collect(),
            Some(after) => {
                let mut order: Vec<CupTieId> = after
                    .iter()
                    .filter_map(|id| by_id.get(id))
                    .flat_map(|t| [t.home_from, t.away_from])
                    .flatten()
                    .filter(|id| list.iter().any(|t| t.id == *id))
                    .collect();
                for t in list {
                    if !order.contains(&t.id) {
                        order.push(t.id);
                    }
                }
                order
            }
        };
        next = Some(order.clone());
        out.push(order);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    fn entrants(n: usize) -> Vec<Slot> {
        (1..=n as i64)
            .map(|i| Slot::Entrant(CupEntrantId(i)))
            .collect()
    }

    /// Every qualifier once, the byes a power of two needs and no more,
    /// never two byes in a tie, no repeated pairing.
    fn check_round(qualifiers: &[Slot], drawn: &[Drawn]) {
        let n = qualifiers.len();
        assert_eq!(drawn.len(), bracket_size(n) / 2, "{n} qualifiers");
        let mut seen = HashSet::new();
        for d in drawn {
            for s in [Some(d.home), d.away].into_iter().flatten() {
                assert!(qualifiers.contains(&s), "{s:?} is no qualifier");
                assert!(seen.insert(s), "{s:?} drawn twice");
            }
        }
        assert_eq!(seen.len(), n, "every qualifier drawn");
        let byes = drawn.iter().filter(|d| d.away.is_none()).count();
        assert_eq!(byes, bracket_size(n) - n);
        let pairings: HashSet<(Slot, Slot)> = drawn
            .iter()
            .filter_map(|d| d.away.map(|a| (d.home.min(a), d.home.max(a))))
            .collect();
        assert_eq!(pairings.len(), drawn.len() - byes, "no pairing twice");
    }

    #[test]
    fn sizes_rounds_and_names() {
        assert_eq!((bracket_size(2), rounds(2), byes(2)), (2, 1, 0));
        assert_eq!((bracket_size(5), rounds(5), byes(5)), (8, 3, 3));
        assert_eq!((bracket_size(64), rounds(64), byes(64)), (64, 6, 0));
        assert_eq!((bracket_size(65), rounds(65), byes(65)), (128, 7, 63));
        assert_eq!(round_name(3, 3), "Final");
        assert_eq!(round_name(2, 3), "Semi-finals");
        assert_eq!(round_name(4, 6), "Quarter-finals");
        assert_eq!(round_name(1, 6), "Round 1");
    }

    #[test]
    fn lines_keep_the_top_seeds_apart() {
        assert_eq!(line_order(2), [1, 2]);
        assert_eq!(line_order(4), [1, 4, 2, 3]);
        assert_eq!(line_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn seeds_get_the_byes_and_meet_late() {
        // 6 entrants, seeds 1 and 2: two byes, to the seeds.
        let all = entrants(6);
        let drawn = draw_seeded(&all[..2], &all[2..], 7);
        check_round(&all, &drawn);
        let byes: Vec<Slot> = drawn
            .iter()
            .filter(|d| d.away.is_none())
            .map(|d| d.home)
            .collect();
        assert_eq!(byes, [all[0], all[1]]);
        // Seed 1 in the top half, seed 2 in the bottom one.
        assert_eq!(drawn[0].home, all[0]);
        assert_eq!(drawn[2].home, all[1]);
    }

    #[test]
    fn a_recorded_seed_makes_the_same_draw_again() {
        let all = entrants(13);
        assert_eq!(draw_random(&all, 42), draw_random(&all, 42));
        assert_ne!(draw_random(&all, 42), draw_random(&all, 43));
        assert_eq!(parse_seed(&seed_text(u64::MAX)), Some(u64::MAX));
        assert_eq!(seed_text(255), "00000000000000ff");
        assert_eq!(parse_seed("zz"), None);
    }

    /// The generator under the draw may never change: a recorded seed
    /// would no longer make the draw it made. This pins one draw.
    #[test]
    fn the_generator_under_the_draw_is_pinned() {
        let drawn = draw_random(&entrants(5), 0x5eed);
        let shown: Vec<(Slot, Option<Slot>)> = drawn.iter().map(|d| (d.home, d.away)).collect();
        let e = |i| Slot::Entrant(CupEntrantId(i));
        assert_eq!(
            shown,
            [(e(3), None), (e(2), Some(e(1))), (e(5), None), (e(4), None)],
        );
    }

    #[test]
    fn the_bracket_pairs_ties_in_order() {
        let ids: Vec<CupTieId> = (10..14).map(CupTieId).collect();
        let drawn = draw_bracket(&ids);
        assert_eq!(drawn.len(), 2);
        assert_eq!(drawn[1].home, Slot::WinnerOf(CupTieId(12)));
        assert_eq!(drawn[1].away, Some(Slot::WinnerOf(CupTieId(13))));
    }

    #[test]
    fn a_hand_draw_is_checked() {
        let q = entrants(3);
        let name = |s: Slot| format!("{s:?}");
        let ok = check_hand(&q, &[(Some(q[0]), Some(q[2])), (Some(q[1]), None)], name).unwrap();
        assert_eq!(ok[1].away, None);
        let twice = check_hand(&q, &[(Some(q[0]), Some(q[0])), (Some(q[1]), None)], name);
        let errors = twice.unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.tie == 1 && e.message.contains("already"))
        );
        assert!(
            errors
                .iter()
                .any(|e| e.tie == 0 && e.message.contains("Not drawn"))
        );
        let byes = check_hand(
            &entrants(4),
            &[(Some(q[0]), None), (Some(q[1]), None)],
            name,
        );
        assert!(byes.is_err());
        let no_home = check_hand(&q, &[(None, Some(q[0])), (Some(q[1]), Some(q[2]))], name);
        assert_eq!(no_home.unwrap_err()[0].tie, 1);
        assert_eq!(
            check_hand(&q, &[(Some(q[0]), None)], name).unwrap_err()[0].tie,
            0
        );
    }

    #[test]
    fn a_ties_format() {
        use Format::*;
        assert_eq!(
            tie_format(EntrantKind::Teams, FivesAndThrees, None, 1),
            Ok(None)
        );
        let own = tie_format(EntrantKind::Teams, AllFives, Some((2, 1)), 3).unwrap();
        assert_eq!(own, Some(MatchFormat::with_boards(2, 1, 3)));
        let one = tie_format(EntrantKind::Pairs, HandsWon, Some((9, 9)), 1).unwrap();
        assert_eq!(
            one,
            Some(MatchFormat::with_boards(0, 1, 1)),
            "a pairs tie is one board"
        );
        assert!(matches!(
            tie_format(EntrantKind::Singles, AllFives, None, 4),
            Err(FormatError::BestOf(_))
        ));
        assert!(matches!(
            tie_format(EntrantKind::Teams, FivesAndThrees, Some((0, 0)), 1),
            Err(FormatError::Boards(_))
        ));
        assert!(matches!(
            tie_format(EntrantKind::Teams, HandsWon, Some((1, 2)), 1),
            Err(FormatError::Boards(_))
        ));
        assert!(check_kind(EntrantKind::Singles, HandsWon).is_err());
        assert!(check_kind(EntrantKind::Pairs, HandsWon).is_ok());
    }

    #[test]
    fn entrants_are_checked() {
        let t = |team, players: &[i64]| EntrantFacts {
            team: TeamId(team),
            players: players.iter().map(|p| PlayerId(*p)).collect(),
            seed: None,
        };
        let some = [t(1, &[10]), t(1, &[11])];
        assert!(check_entrant(EntrantKind::Singles, &some, &t(1, &[12])).is_ok());
        assert!(check_entrant(EntrantKind::Singles, &some, &t(2, &[10])).is_err());
        assert!(check_entrant(EntrantKind::Pairs, &[], &t(2, &[10, 10])).is_err());
        assert!(check_entrant(EntrantKind::Pairs, &[], &t(2, &[10])).is_err());
        assert!(check_entrant(EntrantKind::Teams, &[t(1, &[])], &t(1, &[])).is_err());
        assert!(check_entrant(EntrantKind::Teams, &[t(1, &[])], &t(2, &[])).is_ok());
    }

    #[test]
    fn entries_close_at_the_first_draw() {
        assert_eq!(entrants_open(0), Ok(()));
        assert_eq!(entrants_open(1), Err(Refusal::EntrantsFixed));
        assert_eq!(may_delete(0), Ok(()));
        assert_eq!(may_delete(2), Err(Refusal::CupHasMatches));
    }

    #[test]
    fn an_entry_is_of_the_season_and_seeded_once() {
        let t = |team, player, seed| EntrantFacts {
            team: TeamId(team),
            players: vec![PlayerId(player)],
            seed,
        };
        let singles = EntrantKind::Singles;
        let some = [t(1, 10, Some(1)), t(1, 11, None)];
        assert_eq!(
            may_enter(singles, &some, &t(2, 12, Some(2)), true, true),
            Ok(())
        );
        assert_eq!(
            may_enter(singles, &some, &t(2, 12, None), false, true),
            Err(Refusal::TeamNotEntered)
        );
        assert_eq!(
            may_enter(singles, &some, &t(2, 12, None), true, false),
            Err(Refusal::PlayerNotRegistered)
        );
        assert_eq!(
            may_enter(singles, &some, &t(2, 10, None), true, true),
            Err(Refusal::Rule("That player is in the cup already.".into()))
        );
        assert_eq!(
            may_enter(singles, &some, &t(2, 12, Some(1)), true, true),
            Err(Refusal::SeedTaken { seed: 1 })
        );
    }

    #[test]
    fn a_round_is_drawn_once_and_as_the_rules_allow() {
        assert_eq!(next_round(0, 1), Ok(1));
        assert_eq!(next_round(2, 3), Ok(3));
        assert_eq!(next_round(1, 1), Err(Refusal::RoundDrawn { round: 1 }));
        assert_eq!(next_round(2, 5), Err(Refusal::RoundDrawn { round: 2 }));

        let all = entrants(5);
        let seeds: Vec<(CupEntrantId, Option<i64>)> = (1..=5)
            .map(|i| (CupEntrantId(i), (i == 4).then_some(1)))
            .collect();
        let random = draw_round(1, &all, &seeds, &[], &How::Random { seed: 3 }).unwrap();
        assert_eq!(random, draw_random(&all, 3));
        let seeded = draw_round(1, &all, &seeds, &[], &How::Seeded { seed: 3 }).unwrap();
        assert!(
            seeded.contains(&Drawn {
                home: Slot::Entrant(CupEntrantId(4)),
                away: None
            }),
            "the top seed has a bye"
        );
        assert!(matches!(
            draw_round(1, &all, &seeds, &[], &How::Bracket),
            Err(Refusal::Rule(_))
        ));
        assert!(matches!(
            draw_round(1, &all[..1], &seeds, &[], &How::Random { seed: 3 }),
            Err(Refusal::Rule(_))
        ));
        let wrong = How::Hand(vec![(Some(all[0]), Some(all[1]))]);
        assert!(matches!(
            draw_round(1, &all, &seeds, &[], &wrong),
            Err(Refusal::Rule(_))
        ));
        let previous = [CupTieId(1), CupTieId(2)];
        let later = qualifiers(2, &[], &previous);
        assert_eq!(
            draw_round(2, &later, &seeds, &previous, &How::Bracket),
            Ok(draw_bracket(&previous))
        );
    }

    #[test]
    fn verdicts() {
        use FixtureStatus::*;
        let tally = |boards, games, pegs| {
            Some(Tally {
                boards,
                games,
                pegs,
            })
        };
        assert_eq!(
            verdict(Played, None, tally([5, 4], [5, 4], [0, 0])),
            Verdict::Won(Side::Home)
        );
        assert_eq!(
            verdict(Played, None, tally([2, 2], [4, 5], [0, 0])),
            Verdict::Won(Side::Away)
        );
        assert_eq!(
            verdict(Played, None, tally([2, 2], [4, 4], [9, 8])),
            Verdict::Won(Side::Home)
        );
        assert_eq!(
            verdict(Played, None, tally([2, 2], [4, 4], [9, 9])),
            Verdict::Level
        );
        assert_eq!(verdict(Played, None, None), Verdict::Open);
        assert_eq!(
            verdict(Walkover, Some(Side::Home), None),
            Verdict::Won(Side::Away)
        );
        assert_eq!(
            verdict(Void, None, tally([5, 0], [5, 0], [0, 0])),
            Verdict::Open
        );
    }

    /// A cup of four as stored: two first-round ties and a final drawn
    /// from their winners.
    fn four() -> Vec<TieState> {
        let e = |i| Some(CupEntrantId(i));
        let tie = |id, round, number, home, away| TieState {
            id: CupTieId(id),
            round,
            number,
            home,
            away,
            home_from: None,
            away_from: None,
            fixture: None,
        };
        let mut final_tie = tie(3, 2, 1, None, None);
        final_tie.home_from = Some(CupTieId(2));
        final_tie.away_from = Some(CupTieId(1));
        vec![
            tie(1, 1, 1, e(1), e(2)),
            tie(2, 1, 2, e(3), e(4)),
            final_tie,
        ]
    }

    fn played(fixture: i64, winner: Side) -> Option<TieMatch> {
        Some(TieMatch {
            fixture: FixtureId(fixture),
            recorded: true,
            verdict: Verdict::Won(winner),
        })
    }

    /// Applies the changes as the database would, new fixtures numbered
    /// from 100.
    fn apply(ties: &mut [TieState], changes: &[Change]) {
        for c in changes {
            match *c {
                Change::Sides { tie, home, away } => {
                    let t = ties.iter_mut().find(|t| t.id == tie).unwrap();
                    (t.home, t.away) = (home, away);
                }
                Change::Make { tie } => {
                    let t = ties.iter_mut().find(|t| t.id == tie).unwrap();
                    t.fixture = Some(TieMatch {
                        fixture: FixtureId(100 + tie.0),
                        recorded: false,
                        verdict: Verdict::Open,
                    });
                }
                Change::Retarget { .. } => {}
                Change::Drop { tie, .. } => {
                    ties.iter_mut().find(|t| t.id == tie).unwrap().fixture = None;
                }
            }
        }
    }

    #[test]
    fn winners_go_through_and_a_correction_follows_them() {
        let mut ties = four();
        let made = advance(&ties).unwrap();
        assert_eq!(
            made,
            [
                Change::Make { tie: CupTieId(1) },
                Change::Make { tie: CupTieId(2) }
            ]
        );
        apply(&mut ties, &made);
        ties[0].fixture = played(101, Side::Away);
        let after_one = advance(&ties).unwrap();
        assert_eq!(
            after_one,
            [Change::Sides {
                tie: CupTieId(3),
                home: None,
                away: Some(CupEntrantId(2)),
            }]
        );
        apply(&mut ties, &after_one);
        ties[1].fixture = played(102, Side::Home);
        let both = advance(&ties).unwrap();
        apply(&mut ties, &both);
        assert_eq!(
            (ties[2].home, ties[2].away),
            (Some(CupEntrantId(3)), Some(CupEntrantId(2)))
        );
        assert!(both.contains(&Change::Make { tie: CupTieId(3) }));
        assert!(advance(&ties).unwrap().is_empty(), "nothing more to do");

        // A correction before the final is played: the final follows.
        ties[0].fixture = played(101, Side::Home);
        let corrected = advance(&ties).unwrap();
        assert_eq!(
            corrected,
            [
                Change::Sides {
                    tie: CupTieId(3),
                    home: Some(CupEntrantId(3)),
                    away: Some(CupEntrantId(1)),
                },
                Change::Retarget {
                    tie: CupTieId(3),
                    fixture: FixtureId(103)
                }
            ]
        );
        apply(&mut ties, &corrected);
        // Taken back (the result no longer approved): the final goes.
        ties[0].fixture.as_mut().unwrap().verdict = Verdict::Open;
        let back = advance(&ties).unwrap();
        assert!(back.contains(&Change::Drop {
            tie: CupTieId(3),
            fixture: FixtureId(103)
        }));
        apply(&mut ties, &back);
        ties[0].fixture = played(101, Side::Home);
        let changes = advance(&ties).unwrap();
        apply(&mut ties, &changes);

        // Once the final is played, a first-round winner stays.
        assert_eq!(final_result(&ties, 2), None, "the final is to play");
        ties[2].fixture = played(103, Side::Away);
        assert_eq!(champion(&ties, 2), Some(CupEntrantId(1)));
        // The away side won the final: the home side is the runner-up.
        assert_eq!(
            final_result(&ties, 2),
            Some((CupEntrantId(1), Some(CupEntrantId(3))))
        );
        ties[0].fixture = played(101, Side::Away);
        assert_eq!(
            advance(&ties),
            Err(Blocked {
                round: 2,
                number: 1
            })
        );
    }

    #[test]
    fn a_side_of_a_played_tie_stays_put() {
        let e = |i| Some(CupEntrantId(i));
        let mut ties = four();
        ties[0].fixture = played(101, Side::Home);
        ties[1].fixture = played(102, Side::Home);
        (ties[2].home, ties[2].away) = (e(3), e(1));
        ties[2].fixture = played(103, Side::Home);
        assert_eq!(advance_or_refuse(&ties), Ok(vec![]));
        ties[0].fixture = played(101, Side::Away);
        let Err(Refusal::NotNow(why)) = advance_or_refuse(&ties) else {
            panic!("the final is played: its side cannot change");
        };
        assert!(why.starts_with("This would change who plays in tie 1 of the final,"));
    }

    #[test]
    fn byes_go_straight_through() {
        let e = |i| Some(CupEntrantId(i));
        let mut ties = four();
        ties[1].away = None;
        ties[1].home = e(3);
        let changes = advance(&ties).unwrap();
        assert_eq!(changes[0], Change::Make { tie: CupTieId(1) });
        assert_eq!(
            changes[1],
            Change::Sides {
                tie: CupTieId(3),
                home: e(3),
                away: None
            }
        );
    }

    #[test]
    fn a_bracket_sits_each_tie_beside_its_two() {
        let ties = four();
        assert_eq!(
            bracket_order(&ties),
            [vec![CupTieId(2), CupTieId(1)], vec![CupTieId(3)]]
        );
        assert_eq!(bracket_order(&ties[..2]), [vec![CupTieId(1), CupTieId(2)]]);
    }

    /// Plays a whole cup of `n` entrants through, each round drawn at
    /// random from `seed` and every match won by the side `pick` says.
    fn play_through(n: usize, seed: u64, pick: &mut impl FnMut() -> bool) -> CupEntrantId {
        let mut ties: Vec<TieState> = Vec::new();
        let mut next_id = 1;
        let mut qualifiers = entrants(n);
        for round in 1..=rounds(n) {
            let drawn = draw_random(&qualifiers, seed ^ u64::from(round));
            check_round(&qualifiers, &drawn);
            let mut ids = Vec::new();
            for (i, d) in drawn.iter().enumerate() {
                let side = |s: Option<Slot>| match s {
                    Some(Slot::Entrant(e)) => (Some(e), None),
                    Some(Slot::WinnerOf(t)) => (None, Some(t)),
                    None => (None, None),
                };
                let ((home, home_from), (away, away_from)) = (side(Some(d.home)), side(d.away));
                ties.push(TieState {
                    id: CupTieId(next_id),
                    round,
                    number: i as u32 + 1,
                    home,
                    away,
                    home_from,
                    away_from,
                    fixture: None,
                });
                ids.push(CupTieId(next_id));
                next_id += 1;
            }
            let changes = advance(&ties).unwrap();
            apply(&mut ties, &changes);
            for t in ties.iter_mut().filter(|t| t.round == round && !t.is_bye()) {
                let f = t.fixture.as_mut().expect("both sides known: a match");
                f.recorded = true;
                f.verdict = Verdict::Won(if pick() { Side::Home } else { Side::Away });
            }
            let changes = advance(&ties).unwrap();
            apply(&mut ties, &changes);
            qualifiers = ids.into_iter().map(Slot::WinnerOf).collect();
        }
        champion(&ties, rounds(n)).expect("a winner")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_draws_from_2_to_64(n in 2usize..=64, seed in any::<u64>()) {
            let all = entrants(n);
            let drawn = draw_random(&all, seed);
            check_round(&all, &drawn);
            prop_assert_eq!(drawn.clone(), draw_random(&all, seed));
        }

        #[test]
        fn seeded_draws_from_2_to_64(n in 2usize..=64, seeds in 0usize..=8, seed in any::<u64>()) {
            let all = entrants(n);
            let seeds = seeds.min(n);
            let drawn = draw_seeded(&all[..seeds], &all[seeds..], seed);
            check_round(&all, &drawn);
            // The byes go to the top seeds.
            let bye_holders: Vec<Slot> = drawn.iter().filter(|d| d.away.is_none()).map(|d| d.home).collect();
            for s in all.iter().take(seeds.min(byes(n))) {
                prop_assert!(bye_holders.contains(s));
            }
        }

        #[test]
        fn whole_cups_end_with_one_winner(n in 2usize..=64, seed in any::<u64>(), coin in any::<u64>()) {
            let mut rng = crate::rules::simulate::Rng::new(coin);
            let winner = play_through(n, seed, &mut || rng.chance(500));
            prop_assert!((1..=n as i64).contains(&winner.0));
        }
    }
}
