//! One person in several leagues (issue 27): a secretary says their player
//! is another league's player, a secretary of that league confirms, and the
//! two records then share a person (and a rating). Either league can undo
//! its side at any time. Linking changes ratings in every league the person
//! touches, so these writes raise the installation's page generation.

use super::sql::{self, Tx};
use crate::league::people::Record;
use chrono::{DateTime, Utc};

use super::{Db, DbError, LeagueId, LinkRequestId, PersonId, PlayerId, Result, UserId, now};

/// A player record of another league that is the same person.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct LinkedPlayer {
    pub id: PlayerId,
    pub name: String,
    pub league_short_name: String,
    pub league_name: String,
}

/// A proposal waiting for the other league's secretary.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct LinkRequest {
    pub id: LinkRequestId,
    pub player_id: PlayerId,
    pub player_name: String,
    pub league_id: LeagueId,
    pub league_name: String,
    pub other_player_id: PlayerId,
    pub other_player_name: String,
    pub other_league_id: LeagueId,
    pub other_league_name: String,
    pub requested_by: String,
    pub created_at: DateTime<Utc>,
}

/// A linked player record: whom it is, and in which league.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct PersonRecord {
    pub person_id: PersonId,
    pub player_id: PlayerId,
    pub league_id: LeagueId,
}

const REQUEST_SELECT: &str = "SELECT r.id, r.player_id, p.name AS player_name, \
     p.league_id, l.name AS league_name, r.other_player_id, o.name AS other_player_name, \
     o.league_id AS other_league_id, ol.name AS other_league_name, \
     u.username AS requested_by, r.created_at \
     FROM person_link_requests r \
     JOIN players p ON p.id = r.player_id JOIN leagues l ON l.id = p.league_id \
     JOIN players o ON o.id = r.other_player_id JOIN leagues ol ON ol.id = o.league_id \
     JOIN users u ON u.id = r.requested_by";

impl Db {
    /// Every linked player record of the installation (ratings are worked
    /// out over the leagues these join).
    pub async fn person_records(&self) -> Result<Vec<PersonRecord>> {
        sql::query_as(
            "SELECT person_id, id AS player_id, league_id FROM players \
             WHERE person_id IS NOT NULL ORDER BY person_id, id",
        )
        .fetch_all(self)
        .await
    }

    /// The other leagues' records of the same person as `player`.
    pub async fn linked_players(&self, player: PlayerId) -> Result<Vec<LinkedPlayer>> {
        sql::query_as(
            "SELECT o.id, o.name, l.short_name AS league_short_name, l.name AS league_name \
             FROM players p JOIN players o ON o.person_id = p.person_id AND o.id <> p.id \
             JOIN leagues l ON l.id = o.league_id \
             WHERE p.id = $1 ORDER BY l.name, o.name",
        )
        .bind(player)
        .fetch_all(self)
        .await
    }

    /// The proposals that involve `league`'s players, either way.
    pub async fn link_requests(&self, league: LeagueId) -> Result<Vec<LinkRequest>> {
        let sql =
            format!("{REQUEST_SELECT} WHERE p.league_id = $1 OR o.league_id = $1 ORDER BY r.id");
        sql::query_as(&sql).bind(league).fetch_all(self).await
    }

    /// Withdraws (the proposing league) or declines (the other league) a
    /// proposal. Returns it as it was.
    pub async fn drop_link_request(
        &self,
        league: LeagueId,
        request: LinkRequestId,
    ) -> Result<LinkRequest> {
        let sql =
            format!("{REQUEST_SELECT} WHERE r.id = $1 AND (p.league_id = $2 OR o.league_id = $2)");
        let mut tx = self.write_everywhere().await?;
        let found: Option<LinkRequest> = sql::query_as(&sql)
            .bind(request)
            .bind(league)
            .fetch_optional(&mut tx)
            .await?;
        let found = found.ok_or_else(|| DbError::not_found("no such proposal"))?;
        sql::query("DELETE FROM person_link_requests WHERE id = $1")
            .bind(request)
            .execute(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(found)
    }

    /// `league`'s `player` is no longer linked to other leagues' records
    /// (which stay linked to each other, if two or more are left).
    pub async fn unlink_player(&self, league: LeagueId, player: PlayerId) -> Result<()> {
        let mut tx = self.write_everywhere().await?;
        let person: Option<(Option<PersonId>,)> =
            sql::query_as("SELECT person_id FROM players WHERE id = $1 AND league_id = $2")
                .bind(player)
                .bind(league)
                .fetch_optional(&mut tx)
                .await?;
        let Some((Some(person),)) = person else {
            return Err(DbError::not_found(
                "no linked player of that number in this league",
            ));
        };
        sql::query("UPDATE players SET person_id = NULL WHERE id = $1")
            .bind(player)
            .execute(&mut tx)
            .await?;
        // A person of one record is nobody's link.
        sql::query(
            "UPDATE players SET person_id = NULL WHERE person_id = $1 \
                 AND (SELECT COUNT(*) FROM players q WHERE q.person_id = $1) < 2",
        )
        .bind(person)
        .execute(&mut tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// `player`'s league and person, as a link sees it.
pub async fn player_record(tx: &mut Tx, player: PlayerId) -> Result<Option<Record>> {
    let row: Option<(LeagueId, Option<PersonId>)> =
        sql::query_as("SELECT league_id, person_id FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(tx)
            .await?;
    Ok(row.map(|(league, person)| Record { league, person }))
}

/// Whether `player`'s person has a record in `league`.
pub async fn person_has_record_in(tx: &mut Tx, player: PlayerId, league: LeagueId) -> Result<bool> {
    let found: Option<(i64,)> = sql::query_as(
        "SELECT 1 FROM players p JOIN players o ON o.person_id = p.person_id \
         WHERE p.id = $1 AND o.league_id = $2",
    )
    .bind(player)
    .bind(league)
    .fetch_optional(tx)
    .await?;
    Ok(found.is_some())
}

/// A proposal that `player` is `other`, asked by `by`.
pub async fn insert_link_request(
    tx: &mut Tx,
    player: PlayerId,
    other: PlayerId,
    by: UserId,
) -> Result<LinkRequestId> {
    let (id,): (LinkRequestId,) = sql::query_as(
        "INSERT INTO person_link_requests (player_id, other_player_id, requested_by, created_at) \
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(player)
    .bind(other)
    .bind(by)
    .bind(now())
    .fetch_one(tx)
    .await?;
    Ok(id)
}

/// Proposal `request` to `league` (whose player it names as the other).
pub async fn link_request_to(
    tx: &mut Tx,
    request: LinkRequestId,
    league: LeagueId,
) -> Result<Option<LinkRequest>> {
    let sql = format!("{REQUEST_SELECT} WHERE r.id = $1 AND o.league_id = $2");
    sql::query_as(&sql)
        .bind(request)
        .bind(league)
        .fetch_optional(tx)
        .await
}

/// Makes `a` and `b` one person, joining the people either already
/// belonged to (every record of them follows): the person they are now.
pub async fn join_records(tx: &mut Tx, a: PlayerId, b: PlayerId) -> Result<PersonId> {
    let people: Vec<(Option<PersonId>,)> =
        sql::query_as("SELECT person_id FROM players WHERE id IN ($1, $2)")
            .bind(a)
            .bind(b)
            .fetch_all(&mut *tx)
            .await?;
    let mut people: Vec<PersonId> = people.into_iter().filter_map(|(p,)| p).collect();
    people.sort();
    people.dedup();
    let person = match people.first() {
        Some(p) => *p,
        None => {
            let (id,): (PersonId,) =
                sql::query_as("INSERT INTO people (created_at) VALUES ($1) RETURNING id")
                    .bind(now())
                    .fetch_one(&mut *tx)
                    .await?;
            id
        }
    };
    sql::query(
        "UPDATE players SET person_id = $1 WHERE id IN ($2, $3) \
         OR (person_id IS NOT NULL AND person_id IN ($4, $5))",
    )
    .bind(person)
    .bind(a)
    .bind(b)
    .bind(people.first().copied().unwrap_or(person))
    .bind(people.last().copied().unwrap_or(person))
    .execute(tx)
    .await?;
    Ok(person)
}

/// `person`'s records, counted by league.
pub async fn records_by_league(tx: &mut Tx, person: PersonId) -> Result<Vec<(LeagueId, i64)>> {
    sql::query_as("SELECT league_id, COUNT(*) FROM players WHERE person_id = $1 GROUP BY league_id")
        .bind(person)
        .fetch_all(tx)
        .await
}

/// The proposal is answered.
pub async fn delete_link_request(tx: &mut Tx, request: LinkRequestId) -> Result<()> {
    sql::query("DELETE FROM person_link_requests WHERE id = $1")
        .bind(request)
        .execute(tx)
        .await?;
    Ok(())
}
