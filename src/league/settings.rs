//! A season's settings for how its results count and show, as opposed to
//! how its games are played: the order of the tie-breakers, the minimum
//! games to rank in the player table, and whether the other captain's
//! confirmation approves a result. Unlike the ruleset and the match format,
//! these may change after results are in: the tables follow.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::standings::TieBreaker;

/// Most games a minimum to rank may ask for: a season is never longer.
pub const MAX_MIN_GAMES: u32 = 1_000;
/// The longest result lock, in days: a year.
pub const MAX_LOCK_DAYS: u32 = 366;
/// The largest squad limit: no pub team is bigger.
pub const MAX_SQUAD: u32 = 200;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SeasonSettings {
    /// Rules applied in order to teams level on everything before them.
    pub tie_breakers: Vec<TieBreaker>,
    /// Games a player must have played to be ranked in the player table.
    pub min_games: u32,
    /// The other captain's confirmation approves a result, without waiting
    /// for a secretary.
    pub approve_on_confirmation: bool,
    /// A game may be entered by its final score alone (`final 61-47`), for
    /// a night kept without hand-by-hand detail.
    pub final_scores: bool,
    /// Days after a fixture's date during which its captains may still
    /// enter or correct its result; after that only a secretary may. None:
    /// never locked.
    pub lock_days: Option<u32>,
    /// Most players a team may have registered at once; None: no limit.
    pub squad_limit: Option<u32>,
    /// Teams that go up and down between consecutive divisions at the
    /// roll-over to the next season.
    pub promotion_places: u32,
    /// The hour (0-23, in the league's zone) of the morning after a fixture
    /// at which its captains are reminded of a result not entered.
    pub reminder_hour: u32,
    /// When the other side sees a team's line-up.
    pub line_up_shown: super::team_sheet::LineUpShown,
    /// When drawn pairings are drawn.
    pub draw_at: super::team_sheet::DrawAt,
}

impl Default for SeasonSettings {
    /// LEAGUE.md's defaults; 3 games to rank.
    fn default() -> SeasonSettings {
        SeasonSettings {
            tie_breakers: TieBreaker::DEFAULT.to_vec(),
            min_games: 3,
            approve_on_confirmation: false,
            final_scores: false,
            lock_days: None,
            squad_limit: None,
            promotion_places: 2,
            reminder_hour: 9,
            line_up_shown: Default::default(),
            draw_at: Default::default(),
        }
    }
}

impl SeasonSettings {
    /// Reads stored settings; missing fields take their defaults.
    pub fn parse(value: &Value) -> Result<SeasonSettings, String> {
        let s: SeasonSettings =
            serde_json::from_value(value.clone()).map_err(|e| format!("season settings: {e}"))?;
        s.check()?;
        Ok(s)
    }

    /// Refuses an order of tie-breakers that names no rule or one rule twice,
    /// and a minimum no season could reach.
    pub fn check(&self) -> Result<(), String> {
        if self.tie_breakers.is_empty() {
            return Err("the tie-breakers need at least one rule".into());
        }
        for (i, rule) in self.tie_breakers.iter().enumerate() {
            if self.tie_breakers[..i].contains(rule) {
                return Err(format!(
                    "the tie-breaker `{}` is listed twice",
                    rule.label()
                ));
            }
        }
        if self.lock_days.is_some_and(|d| d == 0 || d > MAX_LOCK_DAYS) {
            return Err(format!("the result lock is from 1 to {MAX_LOCK_DAYS} days"));
        }
        if self.squad_limit.is_some_and(|n| n == 0 || n > MAX_SQUAD) {
            return Err(format!("the squad limit is from 1 to {MAX_SQUAD} players"));
        }
        if self.promotion_places > super::rollover::MAX_PLACES {
            return Err(format!(
                "at most {} teams go up and down between divisions",
                super::rollover::MAX_PLACES
            ));
        }
        if self.reminder_hour > 23 {
            return Err("the reminder hour is from 0 to 23".into());
        }
        if self.min_games > MAX_MIN_GAMES {
            return Err(format!(
                "the minimum games to rank is at most {MAX_MIN_GAMES}"
            ));
        }
        Ok(())
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("plain data serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_is_the_default_and_round_trips() {
        let d = SeasonSettings::parse(&json!({})).unwrap();
        assert_eq!(d, SeasonSettings::default());
        assert_eq!(d.tie_breakers, TieBreaker::DEFAULT);
        assert_eq!(SeasonSettings::parse(&d.to_value()).unwrap(), d);
    }

    #[test]
    fn a_stored_order_is_kept() {
        let s = SeasonSettings::parse(&json!({
            "tie_breakers": ["points", "head_to_head", "games_difference"],
            "min_games": 5,
        }))
        .unwrap();
        assert_eq!(
            s.tie_breakers,
            [
                TieBreaker::Points,
                TieBreaker::HeadToHead,
                TieBreaker::GamesDifference
            ]
        );
        assert_eq!(s.min_games, 5);
        assert!(!s.approve_on_confirmation);
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            json!({"tie_breakers": []}),
            json!({"tie_breakers": ["points", "points"]}),
            json!({"tie_breakers": ["coin_toss"]}),
            json!({"min_games": -1}),
            json!({"min_games": 1_001}),
            json!({"colour": "red"}),
            json!({"lock_days": 367}),
            json!({"lock_days": 0}),
            json!({"lock_days": -1}),
            json!({"squad_limit": 0}),
            json!({"squad_limit": 201}),
            json!({"promotion_places": 11}),
            json!({"reminder_hour": 24}),
        ] {
            assert!(SeasonSettings::parse(&bad).is_err(), "{bad}");
        }
    }
}
