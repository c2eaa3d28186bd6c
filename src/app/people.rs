//! Linking one person's records across leagues (issue 27), each command one
//! transaction: read the records as they are now, decide with
//! `league::people`, write, and audit. Linking changes ratings in every
//! league the person touches, so these writes raise the installation's
//! page generation.

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::people::{
    LinkRequest, delete_link_request, insert_link_request, join_records, link_request_to,
    person_has_record_in, player_record, records_by_league,
};
use crate::db::{Db, DbError, LeagueId, LinkRequestId, PlayerId, Result, UserId};
use crate::league::people::{may_propose, one_record_per_league};

/// `league`'s secretary `by` says its `player` is `other` (a player of
/// another league); the other league's secretary confirms it.
pub async fn propose_link(
    db: &Db,
    league: LeagueId,
    player: PlayerId,
    other: PlayerId,
    by: UserId,
) -> Result<LinkRequestId> {
    let mut tx = db.write_everywhere().await?;
    let ours = player_record(&mut tx, player)
        .await?
        .filter(|r| r.league == league)
        .ok_or_else(|| DbError::not_found("no such player in this league"))?;
    let theirs = player_record(&mut tx, other)
        .await?
        .ok_or_else(|| DbError::not_found("no such player"))?;
    let linked_there = person_has_record_in(&mut tx, player, theirs.league).await?;
    may_propose(league, ours, theirs, linked_there)?;
    let id = insert_link_request(&mut tx, player, other, by).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), Some(by), "person_link", id.0, "propose").after(Some(
            &serde_json::json!({ "player": player, "other_player": other }),
        )),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// A secretary (`by`) of the other player's `league` confirms proposal
/// `request`: the two records become one person (joining the people
/// either already belonged to). Returns the proposal as it was.
pub async fn confirm_link(
    db: &Db,
    league: LeagueId,
    request: LinkRequestId,
    by: Option<UserId>,
) -> Result<LinkRequest> {
    let mut tx = db.write_everywhere().await?;
    let found = link_request_to(&mut tx, request, league)
        .await?
        .ok_or_else(|| DbError::not_found("no such proposal to this league"))?;
    let person = join_records(&mut tx, found.player_id, found.other_player_id).await?;
    // Refused after the join, before the commit: nothing of it is kept.
    one_record_per_league(&records_by_league(&mut tx, person).await?)?;
    delete_link_request(&mut tx, request).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "person_link", request.0, "confirm").after(Some(
            &serde_json::json!({
                "person": person,
                "player": found.player_id,
                "other_player": found.other_player_id,
            }),
        )),
    )
    .await?;
    tx.commit().await?;
    Ok(found)
}
