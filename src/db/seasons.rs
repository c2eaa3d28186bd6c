//! Seasons (with their ruleset and match format) and their divisions.

use super::sql::{self, Tx};
use crate::league::refusal::Refusal;
use crate::league::season::{BadSeason, SeasonRules};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::audit::{NewAudit, insert_audit};
use super::{
    Db, DbError, DivisionId, LeagueId, Result, SeasonId, UserId, json_text, now, parse_json,
};
use crate::league::settings::SeasonSettings;
use crate::rules::{Format, Ruleset};

/// A league's year, e.g. `2026/27`, with the ruleset its games are scored
/// under and its match format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Season {
    pub id: SeasonId,
    pub league_id: LeagueId,
    pub name: String,
    #[serde(with = "format_text")]
    pub format: Format,
    /// The ruleset options, as a game record carries them (RULES.md).
    pub options: Map<String, Value>,
    /// The match format (boards, points, walkover score, ...). Its shape is
    /// the league core's business; it is kept here as the JSON it gives.
    pub match_format: Value,
    /// How results count and show (tie-breakers, minimum games to rank,
    /// approval on confirmation): may change after results are in.
    pub settings: Value,
    pub created_at: DateTime<Utc>,
    /// When the season was rolled over into the next one: from then on it
    /// is kept as it is (see
    /// [`roll_over`](crate::app::rollover::roll_over)).
    #[serde(default)]
    pub closed_at: Option<DateTime<Utc>>,
}

impl Season {
    /// Whether the season is over: rolled over into the next one.
    pub fn is_closed(&self) -> bool {
        self.closed_at.is_some()
    }

    /// The season's format with every option resolved.
    pub fn ruleset(&self) -> std::result::Result<Ruleset, String> {
        Ruleset::parse(self.format, Some(&self.options))
    }

    /// The season's settings, missing ones at their defaults.
    pub fn settings(&self) -> std::result::Result<SeasonSettings, String> {
        SeasonSettings::parse(&self.settings)
    }

    /// The season's ruleset, match format and settings, read once: the one
    /// way pages and commands read a season.
    pub fn rules(&self) -> std::result::Result<SeasonRules, BadSeason> {
        SeasonRules::read(
            &self.name,
            self.format,
            &self.options,
            &self.match_format,
            &self.settings,
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewSeason {
    pub name: String,
    #[serde(with = "format_text")]
    pub format: Format,
    pub options: Map<String, Value>,
    pub match_format: Value,
}

/// A format as its RULES.md name, for serde (the rules module leaves serde
/// out of `Format`).
mod format_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rules::Format;

    pub fn serialize<S: Serializer>(format: &Format, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(format.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Format, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct SeasonRow {
    id: SeasonId,
    league_id: LeagueId,
    name: String,
    format: String,
    options: String,
    match_format: String,
    settings: String,
    created_at: DateTime<Utc>,
    closed_at: Option<DateTime<Utc>>,
}

impl TryFrom<SeasonRow> for Season {
    type Error = DbError;

    fn try_from(row: SeasonRow) -> Result<Season> {
        Ok(Season {
            id: row.id,
            league_id: row.league_id,
            name: row.name,
            format: row.format.parse().map_err(DbError::Corrupt)?,
            options: parse_json("season options", &row.options)?,
            match_format: parse_json("season match format", &row.match_format)?,
            settings: parse_json("season settings", &row.settings)?,
            created_at: row.created_at,
            closed_at: row.closed_at,
        })
    }
}

/// A season's group of teams that play each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Division {
    pub id: DivisionId,
    pub league_id: LeagueId,
    pub season_id: SeasonId,
    pub name: String,
    /// Order on the season's page (Premier = 0, One = 1, ...).
    pub position: i64,
}

pub(super) const COLUMNS: &str =
    "id, league_id, name, format, options, match_format, settings, created_at, closed_at";
const DIVISION_COLUMNS: &str = "id, league_id, season_id, name, position";

fn check_ruleset(format: Format, options: &Map<String, Value>) -> Result<()> {
    Ruleset::parse(format, Some(options))
        .map(drop)
        .map_err(|why| Refusal::Rule(format!("Ruleset: {why}")).into())
}

/// A season's form as saved from the console: its name, and its rules
/// and settings when they changed.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonUpdate {
    /// The new name; `None` keeps it.
    pub name: Option<String>,
    /// Ruleset and match format; refused once the season has results.
    pub rules: Option<(Format, Map<String, Value>, Value)>,
    pub settings: Option<SeasonSettings>,
}

impl Db {
    /// Saves a season's form in one transaction: all of it, or (refused
    /// rules, a name taken) none of it. Each part that changes leaves its
    /// audit entry.
    pub async fn update_season(
        &self,
        league: LeagueId,
        id: SeasonId,
        update: &SeasonUpdate,
        by: Option<UserId>,
    ) -> Result<Season> {
        if let Some((format, options, _)) = &update.rules {
            check_ruleset(*format, options)?;
        }
        if let Some(settings) = &update.settings {
            settings.check().map_err(Refusal::Rule)?;
        }
        let select = format!("SELECT {COLUMNS} FROM seasons WHERE league_id = $1 AND id = $2");
        let rules_sql = format!(
            "UPDATE seasons SET format = $3, options = $4, match_format = $5 \
             WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
        );
        let settings_sql = format!(
            "UPDATE seasons SET settings = $3 WHERE league_id = $1 AND id = $2 \
             RETURNING {COLUMNS}"
        );
        let name_sql = format!(
            "UPDATE seasons SET name = $3 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let before: Season = sql::query_as::<SeasonRow>(&select)
            .bind(league)
            .bind(id)
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| DbError::not_found(format!("season {id}")))?
            .try_into()?;
        let mut now_is = before.clone();
        // A season rolled over is kept as it is: its tables must not
        // change under the archive by new rules or settings.
        let settings_change = update
            .settings
            .as_ref()
            .is_some_and(|s| before.settings().as_ref() != Ok(s));
        if before.is_closed() && (update.rules.is_some() || settings_change) {
            return Err(Refusal::SeasonArchived {
                season: before.name,
            }
            .into());
        }
        if let Some((format, options, match_format)) = &update.rules {
            let results: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM result_versions v JOIN fixtures f ON f.id = v.fixture_id \
                 WHERE f.league_id = $1 AND f.season_id = $2",
            )
            .bind(league)
            .bind(id)
            .fetch_one(&mut tx)
            .await?;
            if results > 0 {
                return Err(Refusal::RulesFixed {
                    season: before.name,
                }
                .into());
            }
            let after: Season = sql::query_as::<SeasonRow>(&rules_sql)
                .bind(league)
                .bind(id)
                .bind(format.as_str())
                .bind(json_text(options))
                .bind(json_text(match_format))
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "season", id.0, "rules")
                    .before(Some(&now_is))
                    .after(Some(&after)),
            )
            .await?;
            now_is = after;
        }
        if let Some(settings) = &update.settings {
            let after: Season = sql::query_as::<SeasonRow>(&settings_sql)
                .bind(league)
                .bind(id)
                .bind(json_text(&settings.to_value()))
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "season", id.0, "settings")
                    .before(Some(&now_is.settings))
                    .after(Some(&after.settings)),
            )
            .await?;
            now_is = after;
        }
        if let Some(name) = update.name.as_ref().filter(|n| **n != now_is.name) {
            let after: Season = sql::query_as::<SeasonRow>(&name_sql)
                .bind(league)
                .bind(id)
                .bind(name)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "season", id.0, "rename")
                    .before(Some(&now_is.name))
                    .after(Some(&after.name)),
            )
            .await?;
            now_is = after;
        }
        tx.commit().await?;
        Ok(now_is)
    }
}

impl Db {
    /// A new season with the default settings; its options must make a
    /// valid ruleset for its format.
    pub async fn create_season(&self, league: LeagueId, new: &NewSeason) -> Result<Season> {
        self.create_season_with(league, new, &SeasonSettings::default())
            .await
    }

    /// A new season with its settings, in one statement.
    pub async fn create_season_with(
        &self,
        league: LeagueId,
        new: &NewSeason,
        settings: &SeasonSettings,
    ) -> Result<Season> {
        check_ruleset(new.format, &new.options)?;
        settings.check().map_err(Refusal::Rule)?;
        let sql = format!(
            "INSERT INTO seasons (league_id, name, format, options, match_format, settings, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<SeasonRow>(&sql)
                .bind(league)
                .bind(&new.name)
                .bind(new.format.as_str())
                .bind(json_text(&new.options))
                .bind(json_text(&new.match_format))
                .bind(json_text(&settings.to_value()))
                .bind(now())
                .fetch_one(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .try_into()
    }

    pub async fn season(&self, league: LeagueId, id: SeasonId) -> Result<Season> {
        let sql = format!("SELECT {COLUMNS} FROM seasons WHERE league_id = $1 AND id = $2");
        sql::query_as::<SeasonRow>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("season {id}")))?
            .try_into()
    }

    /// A league's seasons, newest first.
    pub async fn seasons(&self, league: LeagueId) -> Result<Vec<Season>> {
        let sql = format!("SELECT {COLUMNS} FROM seasons WHERE league_id = $1 ORDER BY id DESC");
        sql::query_as::<SeasonRow>(&sql)
            .bind(league)
            .fetch_all(self)
            .await?
            .into_iter()
            .map(Season::try_from)
            .collect()
    }

    /// Changes a season's ruleset and match format. Refused once any of its
    /// fixtures has a result: those were scored under the old rules.
    pub async fn set_season_rules(
        &self,
        league: LeagueId,
        id: SeasonId,
        format: Format,
        options: &Map<String, Value>,
        match_format: &Value,
        by: Option<UserId>,
    ) -> Result<Season> {
        let update = SeasonUpdate {
            name: None,
            rules: Some((format, options.clone(), match_format.clone())),
            settings: None,
        };
        self.update_season(league, id, &update, by).await
    }

    pub async fn create_division(
        &self,
        league: LeagueId,
        season: SeasonId,
        name: &str,
        position: i64,
    ) -> Result<Division> {
        let sql = format!(
            "INSERT INTO divisions (league_id, season_id, name, position) VALUES ($1, $2, $3, $4) \
             RETURNING {DIVISION_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<Division>(&sql)
            .bind(league)
            .bind(season)
            .bind(name)
            .bind(position)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    pub async fn division(&self, league: LeagueId, id: DivisionId) -> Result<Division> {
        let sql =
            format!("SELECT {DIVISION_COLUMNS} FROM divisions WHERE league_id = $1 AND id = $2");
        sql::query_as::<Division>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("division {id}")))
    }

    pub async fn divisions(&self, league: LeagueId, season: SeasonId) -> Result<Vec<Division>> {
        let sql = format!(
            "SELECT {DIVISION_COLUMNS} FROM divisions WHERE league_id = $1 AND season_id = $2 \
             ORDER BY position, name, id"
        );
        sql::query_as::<Division>(&sql)
            .bind(league)
            .bind(season)
            .fetch_all(self)
            .await
    }
}

/// For the secretary's console: renaming a season and its divisions, and
/// whether its rules can still change.
impl Db {
    /// Renames a season (its rules stay as they are). A name the league
    /// uses already is [`DbError::Unique`].
    pub async fn rename_season(
        &self,
        league: LeagueId,
        id: SeasonId,
        name: &str,
    ) -> Result<Season> {
        let sql = format!(
            "UPDATE seasons SET name = $3 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<SeasonRow>(&sql)
                .bind(league)
                .bind(id)
                .bind(name)
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("season {id}")))?
        .try_into()
    }

    /// Changes a season's settings, audited. Allowed with results in: the
    /// tables are computed from the results as they are shown.
    pub async fn set_season_settings(
        &self,
        league: LeagueId,
        id: SeasonId,
        settings: &SeasonSettings,
        by: Option<UserId>,
    ) -> Result<Season> {
        let update = SeasonUpdate {
            name: None,
            rules: None,
            settings: Some(settings.clone()),
        };
        self.update_season(league, id, &update, by).await
    }

    /// Whether any fixture of the season has a result: then its ruleset
    /// and match format are fixed (see [`Db::set_season_rules`]).
    pub async fn season_has_results(&self, league: LeagueId, id: SeasonId) -> Result<bool> {
        let count: i64 = sql::query_scalar(
            "SELECT COUNT(*) FROM result_versions v JOIN fixtures f ON f.id = v.fixture_id \
             WHERE f.league_id = $1 AND f.season_id = $2",
        )
        .bind(league)
        .bind(id)
        .fetch_one(self)
        .await?;
        Ok(count > 0)
    }

    /// Renames a division or moves it in the season's order. A name the
    /// season uses already is [`DbError::Unique`].
    pub async fn update_division(
        &self,
        league: LeagueId,
        id: DivisionId,
        name: &str,
        position: i64,
    ) -> Result<Division> {
        let sql = format!(
            "UPDATE divisions SET name = $3, position = $4 WHERE league_id = $1 AND id = $2 \
             RETURNING {DIVISION_COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<Division>(&sql)
                .bind(league)
                .bind(id)
                .bind(name)
                .bind(position)
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("division {id}")))
    }
}

/// Season `id` of `league`, in a transaction: as the write sees it.
pub(crate) async fn season_in(tx: &mut Tx, league: LeagueId, id: SeasonId) -> Result<Season> {
    sql::query_as::<SeasonRow>(&format!(
        "SELECT {COLUMNS} FROM seasons WHERE league_id = $1 AND id = $2"
    ))
    .bind(league)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DbError::not_found(format!("season {id}")))?
    .try_into()
}
