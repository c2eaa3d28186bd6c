//! Penalties and fines recorded (LEAGUE.md, "Penalties"), each one
//! transaction with its audit entries: the penalty, and for a kind whose
//! effect is a fine, its line in the ledger with it.

use chrono::{DateTime, Utc};

use crate::db::fixtures::lock_fixture;
use crate::db::late_results::{LateResult, late_result};
use crate::db::penalties::{insert_fine, insert_penalty, kind_amount};
use crate::db::sql::Tx;
use crate::db::{
    Db, DbError, Fine, FixtureId, LeagueId, NewFine, NewPenalty, Penalty, PenaltyKindId, Result,
    UserId,
};
use crate::league::late_results::penalty_note;
use crate::league::penalties::{ledger_reason, one_target};
use crate::league::refusal::Refusal;

/// Records a penalty; for a kind whose effect is a fine, its line in the
/// fines ledger too (owed, with the kind's name and the note as its
/// reason).
pub async fn record(
    db: &Db,
    league: LeagueId,
    new: &NewPenalty,
    by: Option<UserId>,
) -> Result<Penalty> {
    Ok(record_with_fine(db, league, new, None, by).await?.0)
}

/// [`record`], giving back the fine line it wrote, if any; `fine_reason`
/// replaces the reason made from the kind and the note.
pub async fn record_with_fine(
    db: &Db,
    league: LeagueId,
    new: &NewPenalty,
    fine_reason: Option<String>,
    by: Option<UserId>,
) -> Result<(Penalty, Option<Fine>)> {
    one_target(new.team_id, new.player_id)?;
    let mut tx = db.write(league).await?;
    let out = write_penalty(&mut tx, league, new, fine_reason, by).await?;
    tx.commit().await?;
    Ok(out)
}

/// Writes the penalty and, for a kind whose effect is a fine, its line in
/// the ledger ([`ledger_reason`]).
async fn write_penalty(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewPenalty,
    fine_reason: Option<String>,
    by: Option<UserId>,
) -> Result<(Penalty, Option<Fine>)> {
    let (penalty, kind) = insert_penalty(tx, league, new, by).await?;
    let Some(reason) = ledger_reason(kind.effect, &kind.name, &new.note, fine_reason) else {
        return Ok((penalty, None));
    };
    let line = NewFine {
        team_id: new.team_id,
        player_id: new.player_id,
        penalty_id: Some(penalty.id),
        amount_pence: new.amount,
        reason,
    };
    let fine = insert_fine(tx, league, &line, by).await?;
    Ok((penalty, Some(fine)))
}

/// A new line in the fines ledger, unpaid.
pub async fn add_fine(
    db: &Db,
    league: LeagueId,
    new: &NewFine,
    by: Option<UserId>,
) -> Result<Fine> {
    one_target(new.team_id, new.player_id)?;
    let mut tx = db.write(league).await?;
    let fine = insert_fine(&mut tx, league, new, by).await?;
    tx.commit().await?;
    Ok(fine)
}

/// Records the late-result rule's proposed penalty of `kind` for
/// `fixture`, against its home team with the kind's amount, if the fixture
/// is still late and unpenalised under a rule of that kind once locked: a
/// second click, a result entered meanwhile or a rule changed since is
/// refused and records nothing.
pub async fn apply_late_result(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    kind: PenaltyKindId,
    by: Option<UserId>,
    now: DateTime<Utc>,
) -> Result<(Penalty, Option<Fine>, LateResult)> {
    let mut tx = db.write(league).await?;
    // Two secretaries clicking at once take the fixture in turn.
    lock_fixture(&mut tx, league, fixture).await?;
    let found = late_result(&mut tx, league, fixture, now)
        .await?
        .filter(|l| l.kind_id == kind)
        .ok_or(Refusal::NoLongerLate)?;
    let amount = kind_amount(&mut tx, league, kind)
        .await?
        .ok_or_else(|| DbError::not_found(format!("penalty kind {kind}")))?;
    let new = NewPenalty {
        season_id: found.fixture.season_id,
        fixture_id: Some(fixture),
        team_id: Some(found.fixture.home_team_id),
        player_id: None,
        kind_id: kind,
        amount,
        note: penalty_note(found.days_late),
    };
    let (penalty, fine) = write_penalty(&mut tx, league, &new, None, by).await?;
    tx.commit().await?;
    Ok((penalty, fine, found))
}
