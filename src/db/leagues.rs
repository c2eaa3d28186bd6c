//! Leagues: the installation's top-level records; everything else belongs to
//! one of them.

use super::sql;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Db, DbError, LeagueId, Result, now};
use crate::league::time::Zone;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct League {
    pub id: LeagueId,
    pub name: String,
    /// Unique; used in addresses.
    pub short_name: String,
    pub rules_summary: String,
    pub contact: String,
    /// Where the league plays: kick-offs are typed and shown in this zone.
    #[sqlx(try_from = "String")]
    pub time_zone: Zone,
    pub created_at: DateTime<Utc>,
    /// Rated games before a player's rating is no longer provisional.
    pub provisional_games: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NewLeague {
    pub name: String,
    pub short_name: String,
    pub rules_summary: String,
    pub contact: String,
}

const COLUMNS: &str =
    "id, name, short_name, rules_summary, contact, time_zone, created_at, provisional_games";

impl Db {
    /// A league in the default time zone ([`Zone::LONDON`]).
    pub async fn create_league(&self, new: &NewLeague) -> Result<League> {
        self.create_league_in(new, Zone::LONDON).await
    }

    /// A league whose kick-offs are in `zone`.
    pub async fn create_league_in(&self, new: &NewLeague, zone: Zone) -> Result<League> {
        let sql = format!(
            "INSERT INTO leagues (name, short_name, rules_summary, contact, time_zone, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
        );
        let mut tx = self.write_everywhere().await?;
        let out = sql::query_as::<League>(&sql)
            .bind(&new.name)
            .bind(&new.short_name)
            .bind(&new.rules_summary)
            .bind(&new.contact)
            .bind(zone.name())
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    /// A new league with its first penalty kinds (LEAGUE.md's list, say),
    /// in one transaction: a league never starts half made.
    pub async fn create_league_with_kinds(
        &self,
        new: &NewLeague,
        zone: Zone,
        kinds: &[super::NewPenaltyKind],
    ) -> Result<League> {
        let sql = format!(
            "INSERT INTO leagues (name, short_name, rules_summary, contact, time_zone, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
        );
        let kind = "INSERT INTO penalty_kinds (league_id, code, name, effect, amount) \
                    VALUES ($1, $2, $3, $4, $5)";
        let mut tx = self.write_everywhere().await?;
        let league = sql::query_as::<League>(&sql)
            .bind(&new.name)
            .bind(&new.short_name)
            .bind(&new.rules_summary)
            .bind(&new.contact)
            .bind(zone.name())
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
        for k in kinds {
            sql::query(kind)
                .bind(league.id)
                .bind(&k.code)
                .bind(&k.name)
                .bind(k.effect.as_str())
                .bind(k.amount)
                .execute(&mut tx)
                .await?;
        }
        tx.commit().await?;
        Ok(league)
    }

    pub async fn league(&self, id: LeagueId) -> Result<League> {
        let sql = format!("SELECT {COLUMNS} FROM leagues WHERE id = $1");
        sql::query_as::<League>(&sql)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("league {id}")))
    }

    pub async fn league_by_short_name(&self, short_name: &str) -> Result<League> {
        let sql = format!("SELECT {COLUMNS} FROM leagues WHERE short_name = $1");
        sql::query_as::<League>(&sql)
            .bind(short_name)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("league `{short_name}`")))
    }

    /// Every league of the installation, by name.
    pub async fn leagues(&self) -> Result<Vec<League>> {
        let sql = format!("SELECT {COLUMNS} FROM leagues ORDER BY name, id");
        sql::query_as::<League>(&sql).fetch_all(self).await
    }

    /// The league's details and time zone, and with `Some` the games a
    /// rating stays provisional for. Kick-offs already stored keep their
    /// instants: a fixture at 19:30 in London shows as 14:30 after a move
    /// to New York.
    pub async fn update_league(
        &self,
        id: LeagueId,
        new: &NewLeague,
        zone: Zone,
        provisional_games: Option<u32>,
    ) -> Result<League> {
        let sql = format!(
            "UPDATE leagues SET name = $2, short_name = $3, rules_summary = $4, contact = $5, \
             time_zone = $6, provisional_games = COALESCE($7, provisional_games) \
             WHERE id = $1 RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write_everywhere().await?;
            let out = sql::query_as::<League>(&sql)
                .bind(id)
                .bind(&new.name)
                .bind(&new.short_name)
                .bind(&new.rules_summary)
                .bind(&new.contact)
                .bind(zone.name())
                .bind(provisional_games.map(i64::from))
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("league {id}")))
    }
}
