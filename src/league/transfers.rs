//! Transfers (LEAGUE.md, "Transfers"): a player moves to another team
//! during a season from a date. The registration holds the present team;
//! the moves say which team the player was with before each, so games
//! already played stay with the old team and a card for a fixture dated
//! before the move names the player for the old team, and one dated after
//! it for the new team only.

use chrono::{DateTime, Utc};

use super::refusal::Refusal;

/// One move of a player in a season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub from_team: i64,
    pub to_team: i64,
    /// The start of the move's day in the league's time zone: a fixture
    /// starting at or after it is the new team's.
    pub from_at: DateTime<Utc>,
}

/// The team a player was registered to at `at`, given the team registered
/// now and the player's moves this season (in any order). An undated
/// fixture goes by the present team.
pub fn team_at(current: i64, moves: &[Move], at: Option<DateTime<Utc>>) -> i64 {
    let Some(at) = at else { return current };
    moves
        .iter()
        .filter(|m| m.from_at > at)
        .min_by_key(|m| m.from_at)
        .map_or(current, |m| m.from_team)
}

/// A transfer asked for, with what the database knows about it.
#[derive(Debug, Clone)]
pub struct Proposed<'a> {
    pub player: &'a str,
    /// The team the player is registered to now, and its name.
    pub current_team: (i64, &'a str),
    pub to_team: (i64, &'a str),
    pub from_at: DateTime<Utc>,
    /// The player's earlier moves this season.
    pub moves: &'a [Move],
    /// Players registered to the new team now.
    pub squad: u32,
    pub squad_limit: Option<u32>,
    /// Whether the player captains the present team.
    pub captain: bool,
    /// Matches of the present team at or after `from_at` in whose current
    /// result the player played, as "Crown A v Swan B on 12 Nov".
    pub played_after: &'a [String],
}

/// Refuses a transfer that would rewrite history or break a rule, saying
/// why in words for the secretary.
pub fn check(p: &Proposed) -> Result<(), String> {
    let (player, (from, from_name), (to, to_name)) = (p.player, p.current_team, p.to_team);
    if from == to {
        return Err(format!("{player} is with {to_name} already."));
    }
    if let Some(last) = p.moves.iter().map(|m| m.from_at).max()
        && p.from_at <= last
    {
        return Err(format!(
            "{player} last moved team on a later or the same day: date this transfer after that move."
        ));
    }
    if let Some(first) = p.played_after.first() {
        return Err(format!(
            "{player} played for {from_name} in {first}, on or after the transfer's date: \
             games already played stay with the old team, so date the transfer after them."
        ));
    }
    if p.captain {
        return Err(format!(
            "{player} captains {from_name}: name another captain or remove them as captain on \
             the roster first."
        ));
    }
    if let Some(limit) = p.squad_limit
        && p.squad >= limit
    {
        return Err(format!(
            "{to_name} has {} players registered, the season's squad limit of {limit}.",
            p.squad
        ));
    }
    Ok(())
}

/// The two ends of a transfer as the season's records have them: the
/// player's present registration and the entry of the team asked for.
/// Refused when the player is on no team's roster this season (a roster
/// registers them, a transfer moves them), or the team is not entered in
/// it.
pub fn ends<F, T>(registered: Option<F>, entered: Option<T>) -> Result<(F, T), Refusal> {
    let from = registered.ok_or(Refusal::TransferUnregistered)?;
    let to = entered.ok_or(Refusal::TeamNotEntered)?;
    Ok((from, to))
}

/// A match as [`Proposed::played_after`] names it: "Crown A v Swan B on
/// 12 Nov 2026", or without the date when it has none.
pub fn match_words(home: &str, away: &str, at: Option<DateTime<Utc>>) -> String {
    match at {
        Some(at) => format!("{home} v {away} on {}", at.format("%-d %b %Y")),
        None => format!("{home} v {away}"),
    }
}

/// Refuses registrations that took a team over the season's squad
/// `limit`, naming the first such team by name. `squads` holds each team's
/// name and players registered now, by name.
pub fn squads_within(limit: Option<u32>, squads: &[(String, i64)]) -> Result<(), Refusal> {
    let Some(limit) = limit else { return Ok(()) };
    match squads.iter().find(|(_, n)| *n > i64::from(limit)) {
        Some((team, n)) => Err(Refusal::SquadFull {
            team: team.clone(),
            players: *n,
            limit,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn games_before_a_move_stay_with_the_old_team() {
        // 1 -> 2 on 1 Nov, 2 -> 3 on 1 Dec; registered to 3 now.
        let moves = [
            Move {
                from_team: 2,
                to_team: 3,
                from_at: at("2026-12-01T00:00:00Z"),
            },
            Move {
                from_team: 1,
                to_team: 2,
                from_at: at("2026-11-01T00:00:00Z"),
            },
        ];
        assert_eq!(team_at(3, &moves, Some(at("2026-10-20T19:30:00Z"))), 1);
        assert_eq!(team_at(3, &moves, Some(at("2026-10-31T23:59:59Z"))), 1);
        // From the move's day the new team.
        assert_eq!(team_at(3, &moves, Some(at("2026-11-01T00:00:00Z"))), 2);
        assert_eq!(team_at(3, &moves, Some(at("2026-11-20T19:30:00Z"))), 2);
        assert_eq!(team_at(3, &moves, Some(at("2026-12-02T19:30:00Z"))), 3);
        assert_eq!(team_at(3, &moves, None), 3);
        assert_eq!(team_at(7, &[], Some(at("2026-01-01T00:00:00Z"))), 7);
    }

    fn proposed<'a>(moves: &'a [Move], played: &'a [String]) -> Proposed<'a> {
        Proposed {
            player: "Ann Lee",
            current_team: (1, "Crown A"),
            to_team: (2, "Swan B"),
            from_at: at("2026-11-10T00:00:00Z"),
            moves,
            squad: 7,
            squad_limit: Some(8),
            captain: false,
            played_after: played,
        }
    }

    #[test]
    fn a_plain_transfer_passes() {
        assert_eq!(check(&proposed(&[], &[])), Ok(()));
        let p = Proposed {
            squad_limit: None,
            squad: 50,
            ..proposed(&[], &[])
        };
        assert_eq!(check(&p), Ok(()));
    }

    #[test]
    fn each_broken_rule_is_named() {
        let same = Proposed {
            to_team: (1, "Crown A"),
            ..proposed(&[], &[])
        };
        assert!(check(&same).unwrap_err().contains("with Crown A already"));

        let earlier = [Move {
            from_team: 3,
            to_team: 1,
            from_at: at("2026-11-10T00:00:00Z"),
        }];
        assert!(
            check(&proposed(&earlier, &[]))
                .unwrap_err()
                .contains("last moved")
        );

        let played = ["Crown A v Fox C on 12 Nov".to_string()];
        let e = check(&proposed(&[], &played)).unwrap_err();
        assert!(
            e.contains("played for Crown A in Crown A v Fox C on 12 Nov"),
            "{e}"
        );

        let captain = Proposed {
            captain: true,
            ..proposed(&[], &[])
        };
        assert!(check(&captain).unwrap_err().contains("captains Crown A"));

        let full = Proposed {
            squad: 8,
            ..proposed(&[], &[])
        };
        let e = check(&full).unwrap_err();
        assert!(e.contains("Swan B has 8 players registered"), "{e}");
    }

    #[test]
    fn a_transfer_needs_a_registration_and_an_entered_team() {
        assert_eq!(ends(Some(1), Some(2)), Ok((1, 2)));
        assert_eq!(
            ends::<i64, i64>(None, Some(2)),
            Err(Refusal::TransferUnregistered)
        );
        assert_eq!(
            ends::<i64, i64>(None, None),
            Err(Refusal::TransferUnregistered)
        );
        assert_eq!(
            ends::<i64, i64>(Some(1), None),
            Err(Refusal::TeamNotEntered)
        );
    }

    #[test]
    fn a_match_is_named_with_its_date() {
        let at = Some(at("2026-11-12T19:30:00Z"));
        assert_eq!(
            match_words("Crown A", "Fox C", at),
            "Crown A v Fox C on 12 Nov 2026"
        );
        assert_eq!(match_words("Crown A", "Fox C", None), "Crown A v Fox C");
    }

    #[test]
    fn the_first_squad_over_the_limit_is_named() {
        let squads = [
            ("Crown A".to_string(), 8),
            ("Fox C".to_string(), 10),
            ("Swan B".to_string(), 9),
        ];
        assert_eq!(squads_within(None, &squads), Ok(()));
        assert_eq!(squads_within(Some(10), &squads), Ok(()));
        assert_eq!(
            squads_within(Some(8), &squads),
            Err(Refusal::SquadFull {
                team: "Fox C".into(),
                players: 10,
                limit: 8,
            })
        );
    }
}
