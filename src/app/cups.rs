//! Who goes through a cup's ties and who won it, from the ties as drawn and
//! their matches' lines and scores: the cup's bracket and the season's
//! honours both take it from here, so a cup has one winner on every page.

use std::collections::HashMap;

use crate::db::pages::{FixtureLine, Score};
use crate::db::{CupData, CupEntrantId, FixtureId};
use crate::league::cup::{self, Tally, TieMatch};

/// What a cup fixture says about who goes through: its approved result
/// (a provisional one decides nothing), or its walkover or void.
pub fn tie_match(line: &FixtureLine, score: Option<&Score>) -> TieMatch {
    let approved = score.filter(|s| !s.provisional()).map(|s| Tally {
        boards: s.boards,
        games: s.games,
        pegs: s.pegs,
    });
    TieMatch {
        fixture: line.id,
        recorded: line.result_status.is_some() || !line.status.is_open(),
        verdict: cup::verdict(line.status, line.conceded_by, approved),
    }
}

/// [`tie_match`] for each cup fixture of `lines`, by fixture.
pub fn tie_matches<'a>(
    lines: impl IntoIterator<Item = &'a FixtureLine>,
    scores: &HashMap<FixtureId, Score>,
) -> HashMap<FixtureId, TieMatch> {
    lines
        .into_iter()
        .filter(|l| l.cup_id.is_some())
        .map(|l| (l.id, tie_match(l, scores.get(&l.id))))
        .collect()
}

/// The rounds a cup takes, the final included, from its first round's
/// ties (a bracket of twice as many places).
pub fn rounds(data: &CupData) -> u32 {
    let first = data.ties.iter().filter(|t| t.round == 1).count();
    cup::rounds(first * 2)
}

/// The cup's final once decided ([`cup::final_result`]): the winner, and
/// the side it beat.
pub fn final_result(
    data: &CupData,
    matches: &HashMap<FixtureId, TieMatch>,
) -> crate::db::Result<Option<(CupEntrantId, Option<CupEntrantId>)>> {
    let states = data.states(matches)?;
    Ok(cup::final_result(&states, rounds(data)))
}
