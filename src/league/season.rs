//! A season's rules read once into types: the ruleset with every option
//! resolved, the match format and the settings. Every page and command
//! reads a season through [`SeasonRules::read`], so a season record that
//! cannot be read is refused one way ([`BadSeason`]) wherever it is used,
//! instead of a default here, a 500 there and a warning elsewhere.

use serde_json::{Map, Value};

use super::match_format::MatchFormat;
use super::refusal::Refusal;
use super::settings::SeasonSettings;
use crate::rules::{Format, Ruleset};

/// What a season plays and how its results count.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonRules {
    pub ruleset: Ruleset,
    pub format: MatchFormat,
    pub settings: SeasonSettings,
}

/// A season record that cannot be read: which season, which part, why.
/// Forms check all three before they store them, so this is a record from
/// an older version or written by hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the season {season}'s {part} cannot be read ({why}); its secretary can set it again in the console"
)]
pub struct BadSeason {
    pub season: String,
    pub part: &'static str,
    pub why: String,
}

impl SeasonRules {
    /// Reads the season `name`'s stored options, match format and settings.
    pub fn read(
        name: &str,
        format: Format,
        options: &Map<String, Value>,
        match_format: &Value,
        settings: &Value,
    ) -> Result<SeasonRules, BadSeason> {
        let bad = |part: &'static str| {
            move |why: String| BadSeason {
                season: name.to_owned(),
                part,
                why,
            }
        };
        Ok(SeasonRules {
            ruleset: Ruleset::parse(format, Some(options)).map_err(bad("rules"))?,
            format: MatchFormat::parse(format, match_format).map_err(bad("match format"))?,
            settings: SeasonSettings::parse(settings).map_err(bad("settings"))?,
        })
    }

    /// The match format a fixture is played in: its cup's own, or the
    /// season's.
    pub fn fixture_format<'a>(&'a self, cup_format: Option<&'a MatchFormat>) -> &'a MatchFormat {
        cup_format.unwrap_or(&self.format)
    }

    /// The rules a fixture is played under: the season's, with its cup's
    /// own match format in place of the season's when it has one.
    pub fn for_fixture(mut self, cup_format: Option<MatchFormat>) -> SeasonRules {
        if let Some(format) = cup_format {
            self.format = format;
        }
        self
    }
}

/// Refuses a season's form (a new season, or a change to one) whose
/// options make no ruleset for its format, or whose settings are out of
/// range, before anything is stored. `rules` and `settings` are the parts
/// the form sets.
pub fn check_form(
    rules: Option<(Format, &Map<String, Value>)>,
    settings: Option<&SeasonSettings>,
) -> Result<(), Refusal> {
    if let Some((format, options)) = rules {
        Ruleset::parse(format, Some(options))
            .map_err(|why| Refusal::Rule(format!("Ruleset: {why}")))?;
    }
    if let Some(settings) = settings {
        settings.check().map_err(Refusal::Rule)?;
    }
    Ok(())
}

/// Refuses new rules or settings for season `season` once it was rolled
/// over (`closed`): its archived tables must not change under it.
/// Settings the same as the stored ones (`settings_now`, `None` when they
/// cannot be read) are no change: a rename's form saves them as they are.
pub fn archive_kept(
    season: &str,
    closed: bool,
    new_rules: bool,
    settings_now: Option<&SeasonSettings>,
    new_settings: Option<&SeasonSettings>,
) -> Result<(), Refusal> {
    let settings_change = new_settings.is_some_and(|s| settings_now != Some(s));
    if closed && (new_rules || settings_change) {
        return Err(Refusal::SeasonArchived {
            season: season.to_owned(),
        });
    }
    Ok(())
}

/// Refuses a new ruleset or match format for season `season` once any of
/// its fixtures has a result: those were scored under the old ones.
pub fn rules_open(season: &str, has_results: bool) -> Result<(), Refusal> {
    if has_results {
        return Err(Refusal::RulesFixed {
            season: season.to_owned(),
        });
    }
    Ok(())
}

/// Refuses anyone but a secretary a result of season `season` once it was
/// rolled over (`closed`): its results are kept as they are.
pub fn results_open(season: &str, closed: bool, secretary: bool) -> Result<(), Refusal> {
    if closed && !secretary {
        return Err(Refusal::ResultsKept {
            season: season.to_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rolled_over_seasons_results_are_the_secretarys_alone() {
        assert_eq!(results_open("2025/26", false, false), Ok(()));
        assert_eq!(results_open("2025/26", true, true), Ok(()));
        let refused = results_open("2025/26", true, false).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Season 2025/26 is over: its results are kept as they are. Only a secretary can still correct one."
        );
    }

    #[test]
    fn defaults_read_and_a_bad_part_is_named() {
        let empty = Map::new();
        let r =
            SeasonRules::read("2026/27", Format::AllFives, &empty, &json!({}), &json!({})).unwrap();
        assert_eq!(r.ruleset.target, 250);
        assert_eq!(r.format, MatchFormat::default_for(Format::AllFives));
        let bad = SeasonRules::read(
            "2026/27",
            Format::AllFives,
            &empty,
            &json!({"boards": "many"}),
            &json!({}),
        )
        .unwrap_err();
        assert_eq!((bad.season.as_str(), bad.part), ("2026/27", "match format"));
        assert!(
            bad.to_string()
                .contains("the season 2026/27's match format")
        );
    }

    #[test]
    fn a_form_with_a_bad_ruleset_or_settings_is_refused() {
        let empty = Map::new();
        assert_eq!(
            check_form(
                Some((Format::AllFives, &empty)),
                Some(&SeasonSettings::default())
            ),
            Ok(())
        );
        assert_eq!(check_form(None, None), Ok(()));
        let bad = Map::from_iter([("target".to_string(), json!("lots"))]);
        let Err(Refusal::Rule(why)) = check_form(Some((Format::AllFives, &bad)), None) else {
            panic!("a bad option passed");
        };
        assert!(why.starts_with("Ruleset: "), "{why}");
        let settings = SeasonSettings {
            tie_breakers: Vec::new(),
            ..SeasonSettings::default()
        };
        assert!(matches!(
            check_form(None, Some(&settings)),
            Err(Refusal::Rule(_))
        ));
    }

    #[test]
    fn a_season_rolled_over_keeps_its_rules_and_settings() {
        let now = SeasonSettings::default();
        let other = SeasonSettings {
            min_games: 5,
            ..SeasonSettings::default()
        };
        let archived = Err(Refusal::SeasonArchived {
            season: "2025/26".into(),
        });
        // An open season changes freely.
        assert_eq!(
            archive_kept("2025/26", false, true, Some(&now), Some(&other)),
            Ok(())
        );
        // A closed one: renamed with its settings as they are, yes.
        assert_eq!(
            archive_kept("2025/26", true, false, Some(&now), Some(&now)),
            Ok(())
        );
        assert_eq!(
            archive_kept("2025/26", true, false, Some(&now), None),
            Ok(())
        );
        assert_eq!(
            archive_kept("2025/26", true, true, Some(&now), None),
            archived
        );
        assert_eq!(
            archive_kept("2025/26", true, false, Some(&now), Some(&other)),
            archived
        );
        // Unreadable settings replaced are a change.
        assert_eq!(
            archive_kept("2025/26", true, false, None, Some(&now)),
            archived
        );
    }

    #[test]
    fn results_fix_the_rules() {
        assert_eq!(rules_open("2026/27", false), Ok(()));
        assert_eq!(
            rules_open("2026/27", true),
            Err(Refusal::RulesFixed {
                season: "2026/27".into()
            })
        );
    }
}
