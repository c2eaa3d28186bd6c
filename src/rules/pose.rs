//! Who poses: the draw for hand 1, then the rotation of pose.

use super::game::{Game, Opening, Seat};
use super::ruleset::PoseRule;

/// The poser of a game's first hand: the highest drawn tile, or the named
/// player of a later game in a board.
pub fn first_poser(game: &Game) -> Seat {
    match &game.opening {
        Opening::Pose(seat) => *seat,
        Opening::Draw(tiles) => tiles
            .iter()
            .enumerate()
            .max_by_key(|(_, t)| t.rank())
            .map_or(0, |(seat, _)| seat),
    }
}

/// Who poses after a hand posed by `poser`: the next in order of play, or
/// under the `winner` option the hand's winning player when it had one.
pub fn next_poser(game: &Game, poser: Seat, hand_winner: Option<Seat>) -> Seat {
    match (game.ruleset.pose, hand_winner) {
        (PoseRule::Winner, Some(winner)) => winner,
        _ => (poser + 1) % game.players.len(),
    }
}

/// The player holding the lowest count of a blocked hand, among `seats`;
/// `None` when players of both sides share it. Partners sharing it is no
/// tie: the first of them in order of play from the poser is taken.
pub fn lowest_holder(
    game: &Game,
    pips: &[u32],
    poser: Seat,
    seats: impl Iterator<Item = Seat> + Clone,
) -> Option<Seat> {
    let low = seats.clone().map(|s| pips[s]).min()?;
    let n = game.players.len();
    let mut holders = (0..n)
        .map(|i| (poser + i) % n)
        .filter(|s| pips[*s] == low && seats.clone().any(|x| x == *s));
    let first = holders.next()?;
    if holders.any(|s| !game.partners(s, first)) {
        None
    } else {
        Some(first)
    }
}
