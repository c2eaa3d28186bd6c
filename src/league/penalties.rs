//! Penalties as LEAGUE.md has them: what a kind does (its effect), the
//! league's default list of kinds, how an amount is put into words, and
//! the repeat rule for warnings. One list and one wording, used by the
//! console, the demo, the public pages and the secretary's ledger alike;
//! adding an effect is this file and the place that applies it.

use serde::{Deserialize, Serialize};

use super::refusal::Refusal;
use crate::domain::text_enum;
use crate::rules::Format;

/// What a kind of penalty does by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyEffect {
    /// Points to the opponents in that game (`all-fives`).
    GamePoints,
    /// Penalty games on the player's own tally (`hands-won`).
    PenaltyGames,
    /// League points deducted from the team.
    LeaguePoints,
    /// Money owed (amount in pence): goes to the fines ledger.
    Fine,
    /// A warning: nothing counted; a second of the kind is a repeat.
    Warning,
}

text_enum!(PenaltyEffect {
    GamePoints = "game_points",
    PenaltyGames = "penalty_games",
    LeaguePoints = "league_points",
    Fine = "fine",
    Warning = "warning",
});

impl PenaltyEffect {
    /// Every effect, in the order a form offers them.
    pub const ALL: [PenaltyEffect; 5] = [
        PenaltyEffect::GamePoints,
        PenaltyEffect::PenaltyGames,
        PenaltyEffect::LeaguePoints,
        PenaltyEffect::Fine,
        PenaltyEffect::Warning,
    ];

    /// What the effect does, as a form's choice says it.
    pub fn label(self) -> &'static str {
        match self {
            PenaltyEffect::GamePoints => "Points to the opponents in that game",
            PenaltyEffect::PenaltyGames => "Penalty games on the player's own tally",
            PenaltyEffect::LeaguePoints => "League points deducted from the team",
            PenaltyEffect::Fine => "A fine (amount in pence)",
            PenaltyEffect::Warning => "A warning",
        }
    }

    /// The most one penalty of this effect may be, a kind's default amount
    /// and a penalty's own alike: points or games, or pence for a fine
    /// (£10,000).
    pub fn most(self) -> i64 {
        match self {
            PenaltyEffect::Fine => 1_000_000,
            _ => 1_000,
        }
    }

    /// `amount` of this effect in words: "2 league points deducted",
    /// "fine of £5.00", "warning".
    pub fn amount_words(self, amount: i64) -> String {
        match self {
            PenaltyEffect::LeaguePoints => format!(
                "{} deducted",
                plural(amount, "league point", "league points")
            ),
            PenaltyEffect::GamePoints => {
                format!("{} in the game", plural(amount, "point", "points"))
            }
            PenaltyEffect::PenaltyGames => plural(amount, "penalty game", "penalty games"),
            PenaltyEffect::Fine => format!("fine of {}", money(amount)),
            PenaltyEffect::Warning => "warning".to_owned(),
        }
    }
}

/// Pence as pounds: "£5.00".
pub fn money(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    let p = pence.unsigned_abs();
    format!("{sign}£{}.{:02}", p / 100, p % 100)
}

/// The reason a fine line of a penalty gives in the ledger: the kind's
/// name, with the penalty's note when it has one.
pub fn fine_reason_for(kind: &str, note: &str) -> String {
    if note.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {note}")
    }
}

/// The reason of the fines ledger's line a penalty of `effect` writes:
/// none but for a fine, then `given` or the kind's name with the note.
pub fn ledger_reason(
    effect: PenaltyEffect,
    kind: &str,
    note: &str,
    given: Option<String>,
) -> Option<String> {
    (effect == PenaltyEffect::Fine).then(|| given.unwrap_or_else(|| fine_reason_for(kind, note)))
}

/// A penalty or fine is against a team or a player: exactly one of them.
pub fn one_target<T, P>(team: Option<T>, player: Option<P>) -> Result<(), Refusal> {
    if team.is_some() == player.is_some() {
        return Err(Refusal::PenaltyTarget);
    }
    Ok(())
}

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A kind of LEAGUE.md's penalty list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultKind {
    /// Short and unique in a league.
    pub code: &'static str,
    pub name: &'static str,
    pub effect: PenaltyEffect,
    /// The default amount (points, games, pence) for the effect.
    pub amount: i64,
    /// Given inside a game's record of this format (RULES.md), not as a
    /// penalty row; `None`: a kind every league uses.
    pub in_game: Option<Format>,
}

/// LEAGUE.md's penalty list: what a new league starts with and what the
/// console's "add the defaults" adds.
pub const DEFAULT_KINDS: [DefaultKind; 10] = [
    DefaultKind {
        code: "talking",
        name: "Talking to partner",
        effect: PenaltyEffect::GamePoints,
        amount: 50,
        in_game: Some(Format::AllFives),
    },
    DefaultKind {
        code: "exposed",
        name: "Exposed tile",
        effect: PenaltyEffect::GamePoints,
        amount: 50,
        in_game: Some(Format::AllFives),
    },
    DefaultKind {
        code: "violation",
        name: "Rules violation",
        effect: PenaltyEffect::PenaltyGames,
        amount: 1,
        in_game: Some(Format::HandsWon),
    },
    DefaultKind {
        code: "late",
        name: "Late arrival",
        effect: PenaltyEffect::PenaltyGames,
        amount: 1,
        in_game: Some(Format::HandsWon),
    },
    DefaultKind {
        code: TABLE_WARNING,
        name: "Phone or drinking at the table (first time)",
        effect: PenaltyEffect::Warning,
        amount: 0,
        in_game: None,
    },
    DefaultKind {
        code: "table",
        name: "Phone or drinking at the table",
        effect: PenaltyEffect::PenaltyGames,
        amount: 1,
        in_game: None,
    },
    DefaultKind {
        code: LATE_CARD,
        name: "Result card late",
        effect: PenaltyEffect::LeaguePoints,
        amount: 1,
        in_game: None,
    },
    DefaultKind {
        code: TEAM_LATE,
        name: "Team late",
        effect: PenaltyEffect::LeaguePoints,
        amount: 1,
        in_game: None,
    },
    DefaultKind {
        code: "unregistered",
        name: "Fielding an unregistered player",
        effect: PenaltyEffect::LeaguePoints,
        amount: 2,
        in_game: None,
    },
    DefaultKind {
        code: FINE,
        name: "Fine",
        effect: PenaltyEffect::Fine,
        amount: 500,
        in_game: None,
    },
];

/// Codes of the list that other code names.
pub const TABLE_WARNING: &str = "table-warning";
pub const LATE_CARD: &str = "late-card";
pub const TEAM_LATE: &str = "team-late";
pub const FINE: &str = "fine";

/// The kinds of the list a league of `format` uses: its in-game kinds,
/// then those every league has.
pub fn kinds_for(format: Format) -> impl Iterator<Item = &'static DefaultKind> {
    DEFAULT_KINDS
        .iter()
        .filter(move |k| k.in_game.is_none_or(|f| f == format))
}

/// The repeat rule: a player's second (and later) warning of one kind in a
/// season stands for the kind's penalty (LEAGUE.md: "a warning first, then
/// 1 penalty game"). Given each penalty in the order recorded as
/// (player, kind, is a warning, is in force), says which are repeats.
pub fn repeat_warnings<P: Eq + std::hash::Hash + Copy, K: Eq + std::hash::Hash + Copy>(
    penalties: impl IntoIterator<Item = (Option<P>, K, bool, bool)>,
) -> Vec<bool> {
    let mut seen = std::collections::HashSet::new();
    penalties
        .into_iter()
        .map(|(player, kind, warning, in_force)| match player {
            Some(p) if warning && in_force => !seen.insert((p, kind)),
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_fine_writes_a_ledger_line_with_its_reason() {
        assert_eq!(
            ledger_reason(PenaltyEffect::LeaguePoints, "Late card", "", None),
            None
        );
        assert_eq!(
            ledger_reason(PenaltyEffect::Fine, "Exposed tile", "board 3", None).as_deref(),
            Some("Exposed tile: board 3")
        );
        assert_eq!(
            ledger_reason(
                PenaltyEffect::Fine,
                "Exposed tile",
                "",
                Some("Given".into())
            )
            .as_deref(),
            Some("Given")
        );
    }

    #[test]
    fn a_penalty_is_against_a_team_or_a_player() {
        assert_eq!(one_target(Some(1), None::<i64>), Ok(()));
        assert_eq!(one_target(None::<i64>, Some(2)), Ok(()));
        assert_eq!(one_target(Some(1), Some(2)), Err(Refusal::PenaltyTarget));
        assert_eq!(
            one_target(None::<i64>, None::<i64>),
            Err(Refusal::PenaltyTarget)
        );
        assert_eq!(fine_reason_for("Late card", ""), "Late card");
        assert_eq!(
            fine_reason_for("Late card", "ten days"),
            "Late card: ten days"
        );
    }

    #[test]
    fn the_codes_are_unique_and_each_format_has_its_in_game_kinds() {
        let mut codes: Vec<&str> = DEFAULT_KINDS.iter().map(|k| k.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), DEFAULT_KINDS.len());
        let of = |f| kinds_for(f).map(|k| k.code).collect::<Vec<_>>();
        assert!(of(Format::AllFives).contains(&"talking"));
        assert!(!of(Format::FivesAndThrees).contains(&"talking"));
        assert!(of(Format::HandsWon).contains(&"late"));
        for f in [Format::FivesAndThrees, Format::AllFives, Format::HandsWon] {
            for code in [TABLE_WARNING, LATE_CARD, TEAM_LATE, FINE] {
                assert!(of(f).contains(&code), "{code}");
            }
        }
    }

    #[test]
    fn amounts_in_words() {
        assert_eq!(
            PenaltyEffect::LeaguePoints.amount_words(1),
            "1 league point deducted"
        );
        assert_eq!(PenaltyEffect::Fine.amount_words(1050), "fine of £10.50");
        assert_eq!(
            PenaltyEffect::PenaltyGames.amount_words(2),
            "2 penalty games"
        );
        assert_eq!(money(-5), "-£0.05");
    }

    #[test]
    fn a_second_warning_in_force_is_a_repeat() {
        let r = repeat_warnings([
            (Some(1), 'w', true, true),
            (Some(1), 'w', true, false),
            (Some(2), 'w', true, true),
            (Some(1), 'x', false, true),
            (Some(1), 'w', true, true),
            (None, 'w', true, true),
        ]);
        assert_eq!(r, [false, false, false, false, true, false]);
    }
}
