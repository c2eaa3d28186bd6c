//! One person in several leagues (issue 27): when a league's player may be
//! said to be another league's, and when two records may become one person.

use super::refusal::Refusal;
use crate::domain::{LeagueId, PersonId};

/// A player record as a link sees it: its league, and the person it is
/// linked as already, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub league: LeagueId,
    pub person: Option<PersonId>,
}

/// Whether `league`'s secretary may propose that their record `ours` is
/// the same person as `theirs`: another league's record, not linked to it
/// already, and the person has no other record in that league yet
/// (`linked_there`).
pub fn may_propose(
    league: LeagueId,
    ours: Record,
    theirs: Record,
    linked_there: bool,
) -> Result<(), Refusal> {
    if theirs.league == league {
        return Err(Refusal::LinkSameLeague);
    }
    if ours.person.is_some() && ours.person == theirs.person {
        return Err(Refusal::LinkedAlready);
    }
    if linked_there {
        return Err(Refusal::LinkedElsewhere);
    }
    Ok(())
}

/// A person has one record in each league: `records` are a person's
/// records counted by league.
pub fn one_record_per_league(records: &[(LeagueId, i64)]) -> Result<(), Refusal> {
    if records.iter().any(|(_, n)| *n > 1) {
        return Err(Refusal::TwoRecordsOneLeague);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NORTH: LeagueId = LeagueId(1);
    const SOUTH: LeagueId = LeagueId(2);

    fn record(league: LeagueId, person: Option<i64>) -> Record {
        Record {
            league,
            person: person.map(PersonId),
        }
    }

    #[test]
    fn a_link_joins_two_leagues_records_once() {
        let ann = record(NORTH, None);
        assert_eq!(may_propose(NORTH, ann, record(SOUTH, None), false), Ok(()));
        assert_eq!(
            may_propose(NORTH, ann, record(NORTH, None), false),
            Err(Refusal::LinkSameLeague)
        );
        assert_eq!(
            may_propose(NORTH, record(NORTH, Some(4)), record(SOUTH, Some(4)), true),
            Err(Refusal::LinkedAlready)
        );
        assert_eq!(
            may_propose(NORTH, ann, record(SOUTH, None), true),
            Err(Refusal::LinkedElsewhere)
        );
        assert_eq!(one_record_per_league(&[(NORTH, 1), (SOUTH, 1)]), Ok(()));
        assert_eq!(
            one_record_per_league(&[(NORTH, 1), (SOUTH, 2)]),
            Err(Refusal::TwoRecordsOneLeague)
        );
    }
}
