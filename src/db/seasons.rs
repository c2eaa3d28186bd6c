//! Seasons (with their ruleset and match format) and their divisions.

use super::sql::{self, Tx};
use crate::league::season::{BadSeason, SeasonRules};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Db, DbError, DivisionId, LeagueId, Result, SeasonId, json_text, now, parse_json};
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

    /// Whether any fixture of the season has a result: then its ruleset
    /// and match format are fixed (see
    /// [`app::seasons::update_season`](crate::app::seasons::update_season)).
    pub async fn season_has_results(&self, league: LeagueId, id: SeasonId) -> Result<bool> {
        let count: i64 = sql::query_scalar(SEASON_RESULTS)
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

/// Season `id`'s settings, as the write sees them; `None`: no such season.
pub(crate) async fn season_settings_in(
    tx: &mut Tx,
    league: LeagueId,
    id: SeasonId,
) -> Result<Option<SeasonSettings>> {
    let text: Option<String> =
        sql::query_scalar("SELECT settings FROM seasons WHERE league_id = $1 AND id = $2")
            .bind(league)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some(text) = text else { return Ok(None) };
    let corrupt = |e: String| DbError::Corrupt(format!("season settings: {e}"));
    let value: Value = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
    SeasonSettings::parse(&value).map(Some).map_err(corrupt)
}

/// Counts the result versions of a season's fixtures.
const SEASON_RESULTS: &str = "SELECT COUNT(*) FROM result_versions v \
     JOIN fixtures f ON f.id = v.fixture_id WHERE f.league_id = $1 AND f.season_id = $2";

/// Whether any fixture of season `id` has a result, as the write sees it.
pub(crate) async fn season_has_results_in(
    tx: &mut Tx,
    league: LeagueId,
    id: SeasonId,
) -> Result<bool> {
    let count: i64 = sql::query_scalar(SEASON_RESULTS)
        .bind(league)
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    Ok(count > 0)
}

/// Stores a new season with its settings.
pub(crate) async fn insert_season(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewSeason,
    settings: &SeasonSettings,
) -> Result<Season> {
    sql::query_as::<SeasonRow>(&format!(
        "INSERT INTO seasons (league_id, name, format, options, match_format, settings, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(&new.name)
    .bind(new.format.as_str())
    .bind(json_text(&new.options))
    .bind(json_text(&new.match_format))
    .bind(json_text(&settings.to_value()))
    .bind(now())
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// Stores season `id`'s ruleset and match format; returns it as it is now.
pub(crate) async fn update_season_rules(
    tx: &mut Tx,
    league: LeagueId,
    id: SeasonId,
    format: Format,
    options: &Map<String, Value>,
    match_format: &Value,
) -> Result<Season> {
    sql::query_as::<SeasonRow>(&format!(
        "UPDATE seasons SET format = $3, options = $4, match_format = $5 \
         WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(id)
    .bind(format.as_str())
    .bind(json_text(options))
    .bind(json_text(match_format))
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// Stores season `id`'s settings; returns it as it is now.
pub(crate) async fn update_season_settings(
    tx: &mut Tx,
    league: LeagueId,
    id: SeasonId,
    settings: &SeasonSettings,
) -> Result<Season> {
    sql::query_as::<SeasonRow>(&format!(
        "UPDATE seasons SET settings = $3 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(id)
    .bind(json_text(&settings.to_value()))
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// Stores season `id`'s name; returns it as it is now.
pub(crate) async fn update_season_name(
    tx: &mut Tx,
    league: LeagueId,
    id: SeasonId,
    name: &str,
) -> Result<Season> {
    sql::query_as::<SeasonRow>(&format!(
        "UPDATE seasons SET name = $3 WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(league)
    .bind(id)
    .bind(name)
    .fetch_one(&mut *tx)
    .await?
    .try_into()
}

/// Stores a new division of the season, after the season's others; a
/// name the season uses already is [`DbError::Unique`].
pub(crate) async fn insert_division(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    name: &str,
) -> Result<DivisionId> {
    sql::query_scalar(
        "INSERT INTO divisions (league_id, season_id, name, position) \
         SELECT $1, $2, $3, COALESCE(MAX(position), 0) + 1 FROM divisions \
         WHERE league_id = $1 AND season_id = $2 RETURNING id",
    )
    .bind(league)
    .bind(season)
    .bind(name)
    .fetch_one(&mut *tx)
    .await
}
