//! A cup's commands (LEAGUE.md, "Competitions"), each one transaction: the
//! cup's row is locked so that two draws (or entries) of one cup take
//! turns, its records are read as they are now, `league::cup` decides, and
//! the answer and its audit entry are written before the commit.

use serde::Serialize;

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::cups::{
    advance_cup, cup_in, delete_cup_rows, delete_entrant, entrant_of, entrants_in, insert_entrant,
    insert_round, last_round, lock_cup, round_in, round_ties,
};
use crate::db::transfers::{entered_team_name, registered_team};
use crate::db::{
    Cup, CupEntrant, CupEntrantId, CupId, CupRound, Db, DrawRequest, LeagueId, NewEntrant, Result,
    UserId,
};
use crate::league::cup::{self, Drawn, EntrantFacts, Method, Slot};

/// Deletes a cup made by mistake, with its entrants and an audit entry:
/// only while no round is drawn (a drawn cup has matches).
pub async fn delete_cup(db: &Db, league: LeagueId, cup: CupId, by: Option<UserId>) -> Result<Cup> {
    let mut tx = db.write(league).await?;
    lock_cup(&mut tx, league, cup).await?;
    cup::may_delete(last_round(&mut tx, league, cup).await?)?;
    let gone = cup_in(&mut tx, league, cup).await?;
    delete_cup_rows(&mut tx, league, cup).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "cup", cup.0, "delete").before(Some(&gone)),
    )
    .await?;
    tx.commit().await?;
    Ok(gone)
}

/// Enters a team, player or pair in a cup whose first round is not drawn
/// yet, with an audit entry; refused as [`cup::may_enter`] says.
pub async fn add_cup_entrant(
    db: &Db,
    league: LeagueId,
    cup: CupId,
    new: &NewEntrant,
    by: Option<UserId>,
) -> Result<CupEntrant> {
    let mut tx = db.write(league).await?;
    let (season, kind) = lock_cup(&mut tx, league, cup).await?;
    cup::entrants_open(last_round(&mut tx, league, cup).await?)?;
    let entered = entered_team_name(&mut tx, league, season, new.team_id)
        .await?
        .is_some();
    let mut registered = true;
    for player in &new.players {
        registered &= registered_team(&mut tx, league, season, *player)
            .await?
            .is_some();
    }
    let existing: Vec<EntrantFacts> = entrants_in(&mut tx, league, cup)
        .await?
        .iter()
        .map(|e| EntrantFacts {
            team: e.team_id,
            players: e.players(),
            seed: e.seed,
        })
        .collect();
    let facts = EntrantFacts {
        team: new.team_id,
        players: new.players.clone(),
        seed: new.seed,
    };
    cup::may_enter(kind, &existing, &facts, entered, registered)?;
    let id = insert_entrant(&mut tx, league, season, cup, new).await?;
    let entrant = entrant_of(&mut tx, league, cup, id).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "cup", cup.0, "enter").after(Some(&entrant)),
    )
    .await?;
    tx.commit().await?;
    Ok(entrant)
}

/// Takes an entrant out of a cup whose first round is not drawn yet, with
/// an audit entry.
pub async fn remove_cup_entrant(
    db: &Db,
    league: LeagueId,
    cup: CupId,
    entrant: CupEntrantId,
    by: Option<UserId>,
) -> Result<CupEntrant> {
    let mut tx = db.write(league).await?;
    lock_cup(&mut tx, league, cup).await?;
    cup::entrants_open(last_round(&mut tx, league, cup).await?)?;
    let gone = entrant_of(&mut tx, league, cup, entrant).await?;
    delete_entrant(&mut tx, league, cup, entrant).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "cup", cup.0, "withdraw").before(Some(&gone)),
    )
    .await?;
    tx.commit().await?;
    Ok(gone)
}

/// The audit entry of a draw: enough to see how it was made, and to make
/// a random one again from its seed.
#[derive(Serialize)]
struct DrawAudit<'a> {
    round: u32,
    method: Method,
    seed: Option<String>,
    /// In the order the draw took them (entrants by id, ties by number).
    qualifiers: &'a [Slot],
    ties: &'a [Drawn],
}

/// Draws the cup's next round as `request` says, in one transaction: the
/// round, its ties, the matches of every tie whose sides are both known
/// (and of later ties the known winners reach), and an audit entry holding
/// how it was drawn (the seed of a random draw, the qualifiers in the
/// order the draw took them, the ties made). Refused when `request.round`
/// is not the next round to draw ([`cup::next_round`]), or the round
/// cannot be drawn that way ([`cup::draw_round`]).
pub async fn draw_cup_round(
    db: &Db,
    league: LeagueId,
    cup: CupId,
    request: &DrawRequest,
    by: Option<UserId>,
) -> Result<CupRound> {
    let mut tx = db.write(league).await?;
    lock_cup(&mut tx, league, cup).await?;
    let next = cup::next_round(last_round(&mut tx, league, cup).await?, request.round)?;
    let seeds: Vec<(CupEntrantId, Option<i64>)> = entrants_in(&mut tx, league, cup)
        .await?
        .iter()
        .map(|e| (e.id, e.seed))
        .collect();
    let previous = round_ties(&mut tx, league, cup, next - 1).await?;
    let ids: Vec<CupEntrantId> = seeds.iter().map(|e| e.0).collect();
    let qualifiers = cup::qualifiers(next, &ids, &previous);
    let ties = cup::draw_round(next, &qualifiers, &seeds, &previous, &request.how)?;
    insert_round(&mut tx, league, cup, next, request, &ties, by).await?;
    advance_cup(&mut tx, league, cup, by).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "cup", cup.0, "draw").after(Some(&DrawAudit {
            round: next,
            method: request.how.method(),
            seed: request.how.seed().map(cup::seed_text),
            qualifiers: &qualifiers,
            ties: &ties,
        })),
    )
    .await?;
    let round = round_in(&mut tx, league, cup, next).await?;
    tx.commit().await?;
    Ok(round)
}
