//! A division's season of fixtures saved at once, or thrown away at once,
//! each one transaction: the division is locked, what it has is read as
//! it is now, `league::fixtures` decides, and the fixtures are written
//! with their audit entry, all of them or none.

use std::collections::BTreeSet;

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::fixtures::insert_fixture;
use crate::db::schedule::{
    delete_division_fixtures, division_fixture_count, division_records, lock_division,
};
use crate::db::sql::Tx;
use crate::db::{Db, DbError, DivisionId, Fixture, LeagueId, NewFixture, Result, UserId};
use crate::league::fixtures::{may_discard, may_generate};

/// The audit entry of a generated season: the division's id, and the
/// fixtures made.
#[derive(serde::Serialize)]
struct Generated<'a> {
    fixtures: &'a [Fixture],
}

/// Locks `division`, or not found.
async fn lock(tx: &mut Tx, league: LeagueId, division: DivisionId) -> Result<()> {
    if !lock_division(tx, league, division).await? {
        return Err(DbError::not_found(format!("division {division}")));
    }
    Ok(())
}

/// A division's whole season of scheduled fixtures, written in one
/// transaction with one audit entry per division (`division`,
/// `fixtures`). Refused when a division named already has fixtures: a
/// season is generated once, and changed fixture by fixture after.
pub async fn create_fixtures(
    db: &Db,
    league: LeagueId,
    new: &[NewFixture],
    by: Option<UserId>,
) -> Result<Vec<Fixture>> {
    let divisions: BTreeSet<DivisionId> = new.iter().map(|f| f.division_id).collect();
    let mut tx = db.write(league).await?;
    for division in &divisions {
        lock(&mut tx, league, *division).await?;
        may_generate(division_fixture_count(&mut tx, league, *division).await?)?;
    }
    let mut made = Vec::with_capacity(new.len());
    for f in new {
        made.push(insert_fixture(&mut tx, league, f, false).await?);
    }
    for division in &divisions {
        let fixtures: Vec<Fixture> = made
            .iter()
            .filter(|f| f.division_id == Some(*division))
            .cloned()
            .collect();
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "division", division.0, "fixtures").after(Some(
                &Generated {
                    fixtures: &fixtures,
                },
            )),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(made)
}

/// Throws a division's generated season away, so that it can be made
/// again: all its fixtures, in one transaction with one audit entry
/// (`division`, `fixtures discarded`). Refused once anything was recorded
/// against one of them (a result, a walkover, a penalty, a board on the
/// score pad): those stay. Returns how many fixtures went.
pub async fn discard_fixtures(
    db: &Db,
    league: LeagueId,
    division: DivisionId,
    by: Option<UserId>,
) -> Result<usize> {
    let mut tx = db.write(league).await?;
    lock(&mut tx, league, division).await?;
    may_discard(division_records(&mut tx, league, division).await?)?;
    let gone = delete_division_fixtures(&mut tx, league, division).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(
            Some(league),
            by,
            "division",
            division.0,
            "fixtures discarded",
        ),
    )
    .await?;
    tx.commit().await?;
    Ok(usize::try_from(gone).unwrap_or(usize::MAX))
}
