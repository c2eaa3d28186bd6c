//! A fixture changed by hand (a new date, a postponement; the demo's and
//! the tests' walkovers and voids), each one transaction: the fixture is
//! locked and read as it is now, `league::workflow` decides, the change is
//! written and audited, and a cup's draw follows it.

use crate::db::Fixture;
use crate::db::audit::{NewAudit, insert_audit};
use crate::db::cups::advance_cup;
use crate::db::fixtures::{FixtureChange, lock_fixture, write_fixture_change};
use crate::db::sql::Tx;
use crate::db::{Db, FixtureId, FixtureStatus, LeagueId, Result, UserId};
use crate::league::workflow;

/// Gives a fixture a new date (or none) and a status of scheduled or
/// postponed, if [`workflow::reschedule`] allows it on the fixture as it
/// is once locked: a result submitted meanwhile is never left on a
/// postponed fixture.
pub async fn reschedule(
    db: &Db,
    league: LeagueId,
    id: FixtureId,
    starts_at: Option<chrono::DateTime<chrono::Utc>>,
    status: FixtureStatus,
    by: Option<UserId>,
) -> Result<Fixture> {
    let mut tx = db.write(league).await?;
    let after = reschedule_in(&mut tx, league, id, starts_at, status, by).await?;
    tx.commit().await?;
    Ok(after)
}

/// [`reschedule`] inside a transaction of the caller's (the console's
/// postponements in bulk write each this way, all in one).
pub(crate) async fn reschedule_in(
    tx: &mut Tx,
    league: LeagueId,
    id: FixtureId,
    starts_at: Option<chrono::DateTime<chrono::Utc>>,
    status: FixtureStatus,
    by: Option<UserId>,
) -> Result<Fixture> {
    let before = lock_fixture(tx, league, id).await?;
    workflow::reschedule(before.status, status)?;
    let moved = FixtureChange {
        starts_at,
        status,
        ..FixtureChange::from(&before)
    };
    let after = write_fixture_change(tx, league, id, &moved).await?;
    changed(tx, league, &before, &after, by).await?;
    Ok(after)
}

/// Writes `change` to a fixture as it stands (round, date, venue, status),
/// refused only when a walkover does not name its conceding side or
/// another status does.
pub async fn change(
    db: &Db,
    league: LeagueId,
    id: FixtureId,
    change: &FixtureChange,
    by: Option<UserId>,
) -> Result<Fixture> {
    workflow::walkover_side(change.status, change.conceded_by)?;
    let mut tx = db.write(league).await?;
    let before = lock_fixture(&mut tx, league, id).await?;
    let after = write_fixture_change(&mut tx, league, id, change).await?;
    changed(&mut tx, league, &before, &after, by).await?;
    tx.commit().await?;
    Ok(after)
}

/// The change's audit entry (before and after), and the cup's draw moved
/// on by a tie's new status.
async fn changed(
    tx: &mut Tx,
    league: LeagueId,
    before: &Fixture,
    after: &Fixture,
    by: Option<UserId>,
) -> Result<()> {
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "fixture", after.id.0, "change")
            .before(Some(before))
            .after(Some(after)),
    )
    .await?;
    if let Some(cup) = after.cup_id {
        advance_cup(tx, league, cup, by).await?;
    }
    Ok(())
}
