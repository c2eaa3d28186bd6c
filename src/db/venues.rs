//! Venues: the pubs where matches are played.

use super::sql::{self, Tx};
use serde::{Deserialize, Serialize};

use super::{Db, DbError, LeagueId, Result, VenueId};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Venue {
    pub id: VenueId,
    pub league_id: LeagueId,
    pub name: String,
    pub address: String,
    /// How many matches it can host on one night.
    pub tables: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewVenue {
    pub name: String,
    pub address: String,
    pub tables: i64,
}

const COLUMNS: &str = "id, league_id, name, address, tables";

/// Stores a new venue of `league`; a name the league uses already is
/// [`DbError::Unique`].
pub(crate) async fn insert_venue(tx: &mut Tx, league: LeagueId, new: &NewVenue) -> Result<VenueId> {
    sql::query_scalar(
        "INSERT INTO venues (league_id, name, address, tables) VALUES ($1, $2, $3, $4) \
         RETURNING id",
    )
    .bind(league)
    .bind(&new.name)
    .bind(&new.address)
    .bind(new.tables)
    .fetch_one(&mut *tx)
    .await
}

impl Db {
    pub async fn create_venue(&self, league: LeagueId, new: &NewVenue) -> Result<Venue> {
        let sql = format!(
            "INSERT INTO venues (league_id, name, address, tables) VALUES ($1, $2, $3, $4) \
             RETURNING {COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<Venue>(&sql)
            .bind(league)
            .bind(&new.name)
            .bind(&new.address)
            .bind(new.tables)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    pub async fn venue(&self, league: LeagueId, id: VenueId) -> Result<Venue> {
        let sql = format!("SELECT {COLUMNS} FROM venues WHERE league_id = $1 AND id = $2");
        sql::query_as::<Venue>(&sql)
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found(format!("venue {id}")))
    }

    pub async fn venues(&self, league: LeagueId) -> Result<Vec<Venue>> {
        let sql = format!("SELECT {COLUMNS} FROM venues WHERE league_id = $1 ORDER BY name, id");
        sql::query_as::<Venue>(&sql)
            .bind(league)
            .fetch_all(self)
            .await
    }

    pub async fn update_venue(
        &self,
        league: LeagueId,
        id: VenueId,
        new: &NewVenue,
    ) -> Result<Venue> {
        let sql = format!(
            "UPDATE venues SET name = $3, address = $4, tables = $5 \
             WHERE league_id = $1 AND id = $2 RETURNING {COLUMNS}"
        );
        {
            let mut tx = self.write(league).await?;
            let out = sql::query_as::<Venue>(&sql)
                .bind(league)
                .bind(id)
                .bind(&new.name)
                .bind(&new.address)
                .bind(new.tables)
                .fetch_optional(&mut tx)
                .await?;
            tx.commit().await?;
            out
        }
        .ok_or_else(|| DbError::not_found(format!("venue {id}")))
    }
}
