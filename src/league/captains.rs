//! A team's captains for a season (LEAGUE.md: "a team may have two").

use super::refusal::Refusal;

/// Most captains a team has in a season.
pub const MAX_CAPTAINS: i64 = 2;

/// Refuses naming another captain of a team that has `captains` this
/// season already, at [`MAX_CAPTAINS`].
pub fn may_name(captains: i64) -> Result<(), Refusal> {
    if captains >= MAX_CAPTAINS {
        return Err(Refusal::CaptainsFull { max: MAX_CAPTAINS });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_has_two_captains_at_most() {
        assert_eq!(may_name(0), Ok(()));
        assert_eq!(may_name(1), Ok(()));
        assert_eq!(may_name(2), Err(Refusal::CaptainsFull { max: 2 }));
    }
}
