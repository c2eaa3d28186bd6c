//! A season's rules read once into types: the ruleset with every option
//! resolved, the match format and the settings. Every page and command
//! reads a season through [`SeasonRules::read`], so a season record that
//! cannot be read is refused one way ([`BadSeason`]) wherever it is used,
//! instead of a default here, a 500 there and a warning elsewhere.

use serde_json::{Map, Value};

use super::match_format::MatchFormat;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
