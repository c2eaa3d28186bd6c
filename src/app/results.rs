//! The result workflow's commands (LEAGUE.md, "Entering a result"), each
//! one transaction: the fixture is locked, it and its current version are
//! read as they are now, `league::workflow` decides, and every write of
//! the answer (the version or status, its audit entry and the events it
//! causes, the fixture marked played, a cup's draw following) is made
//! before the commit. A crash or a rival request between two of them
//! cannot leave half an operation, nor land on a version nobody saw.

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::cups::advance_cup;
use crate::db::fixtures::{lock_fixture, set_fixture_status};
use crate::db::pad::pad_revisions;
use crate::db::results::{
    NewVersion, captain_sides, current_version, fixture_roster, insert_version, numbered_version,
    set_version_status, version_result,
};
use crate::db::seasons::season_in;
use crate::db::sql::Tx;
use crate::db::{
    Db, DbError, Fixture, FixtureId, FixtureStatus, LeagueId, MatchResult, PlayerId, Result,
    ResultStatus, ResultVersion, Side, StoredResult, UserId,
};
use crate::league::match_result::check_names;
use crate::league::workflow::{self as flow, Actor, FixtureState, Refusal, VersionState};

/// A fixture as the workflow's rules see it, under its season's result
/// lock, read inside the transaction.
async fn fixture_state(tx: &mut Tx, league: LeagueId, f: &Fixture) -> Result<FixtureState> {
    let season = season_in(tx, league, f.season_id).await?;
    Ok(FixtureState {
        status: f.status,
        starts_at: f.starts_at,
        lock_days: season.rules()?.settings.lock_days,
        season_closed: season.is_closed(),
    })
}

/// A version as the workflow's rules see it, with the sides whose captain
/// entered it.
async fn version_state(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    v: &ResultVersion,
) -> Result<VersionState> {
    let entered_for = match v.created_by {
        Some(by) => captain_sides(tx, league, f, by).await?,
        None => Vec::new(),
    };
    Ok(VersionState {
        version: v.version,
        status: v.status,
        entered_by: v.created_by,
        entered_for,
    })
}

/// Stores a result entered on the card as the fixture's next version:
/// approved at once ("entered by a secretary") when a secretary enters it,
/// the fixture marked played when it was open; refused when the match is
/// more than a day ahead, past the season's result lock for a captain, in
/// a season that is over for anyone but a secretary, and when the result
/// breaks the match format (a board missing, a player on more boards of a
/// kind than the match allows).
pub async fn submit(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    result: &MatchResult,
    actor: Actor,
) -> Result<ResultVersion> {
    submit_from(db, league, fixture, result, None, actor).await
}

/// [`submit`] for a result read from the score pads: refused whole if any
/// board's pad revision is no longer the one in `shown` (board, revision;
/// 0 for a board with no pad), so what is stored is what the captain
/// reviewed.
pub async fn submit_pads(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    result: &MatchResult,
    shown: &[(i64, i64)],
    actor: Actor,
) -> Result<ResultVersion> {
    submit_from(db, league, fixture, result, Some(shown), actor).await
}

async fn submit_from(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    result: &MatchResult,
    pads_shown: Option<&[(i64, i64)]>,
    actor: Actor,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    if let Some(shown) = pads_shown {
        // The pads' own writes read this fixture's row first (under a
        // share lock on Postgres), so none lands between this read and
        // the commit.
        let now = pad_revisions(&mut tx, league, fixture).await?;
        let changed = flow::changed_pads(shown, &now);
        if !changed.is_empty() {
            return Err(Refusal::PadsChanged { boards: changed }.into());
        }
    }
    let state = fixture_state(&mut tx, league, &f).await?;
    let done = flow::submit(actor, state, crate::db::now())?;
    let season = season_in(&mut tx, league, f.season_id).await?;
    let cup = cup_format(&mut tx, league, &f).await?;
    let rules = season.rules()?;
    // The season's setting decides how its captains give a game; a
    // secretary may always give one by its final score (issue 39).
    let score_only = result
        .boards
        .iter()
        .any(|b| b.games.iter().any(|g| g.score_only));
    flow::may_give_final_scores(actor, rules.settings.final_scores, score_only)?;
    let roster = fixture_roster(&mut tx, league, &f).await?;
    flow::check_result(
        rules.fixture_format(cup.as_ref()),
        &submitted_boards(result),
        |id| {
            roster
                .get(&PlayerId(id))
                .map_or_else(|| format!("Player {id}"), |p| p.0.clone())
        },
    )?;
    let version = write_version(
        &mut tx,
        league,
        &f,
        result.clone(),
        Written {
            status: done.status,
            note: done.note.to_owned(),
            restored_from: None,
            mark_played: done.mark_played,
        },
        Some(actor.user),
    )
    .await?;
    tx.commit().await?;
    Ok(version)
}

/// A result's boards as the match format's check reads them.
fn submitted_boards(result: &MatchResult) -> Vec<flow::SubmittedBoard> {
    result
        .boards
        .iter()
        .map(|b| flow::SubmittedBoard {
            conceded: b.conceded_by.is_some(),
            games: b.games.len(),
            players: b.home.iter().chain(&b.away).map(|p| p.0).collect(),
        })
        .collect()
}

/// The match format a cup tie's own cup sets, if it is one and sets one.
async fn cup_format(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
) -> Result<Option<crate::league::match_format::MatchFormat>> {
    match f.cup_id {
        Some(cup) => crate::db::cups::cup_format_in(tx, league, cup).await,
        None => Ok(None),
    }
}

/// Makes version `from` current again as a new version copying it, if the
/// current version is still `shown`: a secretary's step.
pub async fn restore(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    from: i64,
    shown: i64,
    actor: Actor,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let current = current_version(&mut tx, league, fixture).await?;
    let state = match &current {
        Some(v) => Some(version_state(&mut tx, league, &f, v).await?),
        None => None,
    };
    flow::restore(actor, state.as_ref(), shown, from)?;
    let version = copy_version(&mut tx, league, &f, from, Some(actor.user)).await?;
    tx.commit().await?;
    Ok(version)
}

/// The other captain confirms version `shown`: confirmed, or approved when
/// the season approves on confirmation.
pub async fn confirm(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    shown: i64,
    actor: Actor,
) -> Result<ResultVersion> {
    change_status(db, league, fixture, actor, |season, current| {
        let approve = season.rules()?.settings.approve_on_confirmation;
        let (status, note) = flow::confirm(actor, current, shown, approve)?;
        Ok((status, note.to_owned()))
    })
    .await
}

/// The other captain disputes version `shown`, with a note.
pub async fn dispute(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    shown: i64,
    note: &str,
    actor: Actor,
) -> Result<ResultVersion> {
    change_status(db, league, fixture, actor, |_, current| {
        Ok((
            ResultStatus::Disputed,
            flow::dispute(actor, current, shown, note)?,
        ))
    })
    .await
}

/// What the other captain's steps on a result are to the user acting:
/// whether each is theirs to take on the current version now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Offered {
    pub confirm: bool,
    pub dispute: bool,
}

/// The steps `actor` may take on `f`'s current version as it stands, by the
/// rules [`confirm`] and [`dispute`] decide by, so that a page offers no
/// step the command would refuse (the captain who submitted is never
/// offered to confirm). Read in one snapshot.
pub async fn offered(db: &Db, league: LeagueId, f: &Fixture, actor: Actor) -> Result<Offered> {
    let mut tx = db.read_tx().await?;
    let Some(v) = current_version(&mut tx, league, f.id).await? else {
        return Ok(Offered::default());
    };
    let state = version_state(&mut tx, league, f, &v).await?;
    tx.commit().await?;
    Ok(Offered {
        confirm: flow::may_confirm(actor, &state).is_ok(),
        dispute: flow::may_dispute(actor, &state).is_ok(),
    })
}

/// A secretary approves version `shown`, if it is still as it was shown
/// (`shown_status`, when the form said).
pub async fn approve(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    shown: i64,
    shown_status: Option<ResultStatus>,
    note: &str,
    actor: Actor,
) -> Result<ResultVersion> {
    change_status(db, league, fixture, actor, |_, current| {
        Ok((
            ResultStatus::Approved,
            flow::approve(actor, current, shown, shown_status, note)?,
        ))
    })
    .await
}

/// A secretary records that `side` conceded the fixture.
pub async fn walkover(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    side: Side,
    actor: Actor,
) -> Result<Fixture> {
    change_fixture(db, league, fixture, actor, |state, _| {
        let (status, side) = flow::walkover(actor, state, side)?;
        Ok((status, Some(side)))
    })
    .await
}

/// [`walkover`] inside a transaction of the caller's: the same decision,
/// writes and audit entry (which tells both captains, as a single
/// walkover does).
pub(crate) async fn walkover_in(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    side: Side,
    actor: Actor,
) -> Result<Fixture> {
    change_fixture_in(tx, league, fixture, actor, |state, _| {
        let (status, side) = flow::walkover(actor, state, side)?;
        Ok((status, Some(side)))
    })
    .await
}

/// A secretary voids the fixture.
pub async fn void(db: &Db, league: LeagueId, fixture: FixtureId, actor: Actor) -> Result<Fixture> {
    change_fixture(db, league, fixture, actor, |state, _| {
        Ok((flow::void(actor, state)?, None))
    })
    .await
}

/// A secretary takes back a walkover or a void: played again if it has a
/// result, else scheduled; a cup tie's draw follows (or the change is
/// refused, as for any correction).
pub async fn reinstate(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    actor: Actor,
) -> Result<Fixture> {
    change_fixture(db, league, fixture, actor, |state, has_result| {
        Ok((flow::reinstate(actor, state, has_result)?, None))
    })
    .await
}

/// Writes a fixture's result as its next version with the status
/// `entered`, as it is, without the workflow's checks: for the
/// secretary's own tools (the demo, imports) and tests, which build
/// records directly.
pub async fn write(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    result: &MatchResult,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let version = write_version(
        &mut tx,
        league,
        &f,
        result.clone(),
        Written {
            status: ResultStatus::Entered,
            note: String::new(),
            restored_from: None,
            mark_played: false,
        },
        by,
    )
    .await?;
    tx.commit().await?;
    Ok(version)
}

/// Makes version `n` current again by a new version copying it, status
/// included, without the workflow's checks ([`write`]'s counterpart).
pub async fn restore_version(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    n: i64,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let version = copy_version(&mut tx, league, &f, n, by).await?;
    tx.commit().await?;
    Ok(version)
}

/// Sets the current version's status and note, audited, without the
/// workflow's checks ([`write`]'s counterpart).
pub async fn set_status(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    status: ResultStatus,
    note: &str,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let before = current_version(&mut tx, league, fixture)
        .await?
        .ok_or_else(|| DbError::not_found(format!("a result of fixture {fixture}")))?;
    let after = status_written(&mut tx, league, &f, &before, status, note, by).await?;
    tx.commit().await?;
    Ok(after)
}

/// What a new version is written with.
struct Written {
    status: ResultStatus,
    note: String,
    restored_from: Option<i64>,
    mark_played: bool,
}

/// Writes `result` as `f`'s next version, audited with the version before
/// and after; marks the fixture played when asked, audited too; and lets a
/// cup tie's draw follow.
async fn write_version(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    result: MatchResult,
    written: Written,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let roster = fixture_roster(tx, league, f).await?;
    check_names(&result, &roster)?;
    let current = current_version(tx, league, f.id).await?;
    let before = match &current {
        Some(v) => Some(StoredResult {
            version: v.clone(),
            result: version_result(tx, league, v.id).await?,
        }),
        None => None,
    };
    let action = match (written.restored_from, &current) {
        (Some(_), _) => "restore",
        (None, Some(_)) => "correct",
        (None, None) => "enter",
    };
    let version = insert_version(
        tx,
        league,
        NewVersion {
            fixture: f,
            number: current.as_ref().map_or(1, |v| v.version + 1),
            status: written.status,
            note: written.note,
            restored_from: written.restored_from,
            by,
        },
        &result,
        &roster,
    )
    .await?;
    let after = StoredResult {
        version: version.clone(),
        result,
    };
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "result", f.id.0, action)
            .before(before.as_ref())
            .after(Some(&after)),
    )
    .await?;
    if written.mark_played {
        let marked = set_fixture_status(tx, league, f.id, FixtureStatus::Played, None).await?;
        insert_audit(
            tx,
            NewAudit::new(Some(league), by, "fixture", f.id.0, "change")
                .before(Some(f))
                .after(Some(&marked)),
        )
        .await?;
    }
    if let Some(cup) = f.cup_id {
        advance_cup(tx, league, cup, by).await?;
    }
    Ok(version)
}

/// A new version of `f` copying version `n`, its status included.
async fn copy_version(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    n: i64,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let old = numbered_version(tx, league, f.id, n).await?;
    let result = version_result(tx, league, old.id).await?;
    write_version(
        tx,
        league,
        f,
        result,
        Written {
            status: old.status,
            note: String::new(),
            restored_from: Some(n),
            mark_played: false,
        },
        by,
    )
    .await
}

/// Sets `before`'s status and note, audited, and lets a cup tie's draw
/// follow.
async fn status_written(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    before: &ResultVersion,
    status: ResultStatus,
    note: &str,
    by: Option<UserId>,
) -> Result<ResultVersion> {
    let after = set_version_status(tx, league, before, status, note, by).await?;
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "result", f.id.0, "status")
            .before(Some(before))
            .after(Some(&after)),
    )
    .await?;
    if let Some(cup) = f.cup_id {
        advance_cup(tx, league, cup, by).await?;
    }
    Ok(after)
}

/// Sets the current version's status and note as `decide` says, asked
/// with the fixture's season and the current version (and the sides whose
/// captain entered it) as they are inside the transaction.
async fn change_status(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    actor: Actor,
    decide: impl FnOnce(&crate::db::Season, Option<&VersionState>) -> Result<(ResultStatus, String)>,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let season = season_in(&mut tx, league, f.season_id).await?;
    let current = current_version(&mut tx, league, fixture).await?;
    let state = match &current {
        Some(v) => Some(version_state(&mut tx, league, &f, v).await?),
        None => None,
    };
    flow::in_open_season(actor, season.is_closed())?;
    let (status, note) = decide(&season, state.as_ref())?;
    let before =
        current.ok_or_else(|| DbError::not_found(format!("a result of fixture {fixture}")))?;
    let after = status_written(
        &mut tx,
        league,
        &f,
        &before,
        status,
        &note,
        Some(actor.user),
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// Sets the fixture's status (and the side that conceded) as `decide`
/// says, asked with the fixture as it is inside the transaction and
/// whether it has a result; audited, and a cup tie's draw follows.
async fn change_fixture(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    actor: Actor,
    decide: impl FnOnce(FixtureState, bool) -> Result<(FixtureStatus, Option<Side>)>,
) -> Result<Fixture> {
    let mut tx = db.write(league).await?;
    let after = change_fixture_in(&mut tx, league, fixture, actor, decide).await?;
    tx.commit().await?;
    Ok(after)
}

/// [`change_fixture`] inside a transaction of the caller's (the console's
/// walkovers in bulk write each this way, all in one).
async fn change_fixture_in(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    actor: Actor,
    decide: impl FnOnce(FixtureState, bool) -> Result<(FixtureStatus, Option<Side>)>,
) -> Result<Fixture> {
    let before = lock_fixture(tx, league, fixture).await?;
    let has_result = current_version(tx, league, fixture).await?.is_some();
    let state = fixture_state(tx, league, &before).await?;
    let (status, conceded_by) = decide(state, has_result)?;
    let after = set_fixture_status(tx, league, fixture, status, conceded_by).await?;
    insert_audit(
        tx,
        NewAudit::new(
            Some(league),
            Some(actor.user),
            "fixture",
            fixture.0,
            "change",
        )
        .before(Some(&before))
        .after(Some(&after)),
    )
    .await?;
    if let Some(cup) = after.cup_id {
        advance_cup(tx, league, cup, Some(actor.user)).await?;
    }
    Ok(after)
}

/// How a played match's result came in, for [`record_played`]: who
/// entered it and when, and the status it has now unless it is still
/// entered, with its note, who set it and when.
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    pub by: Option<UserId>,
    pub at: chrono::DateTime<chrono::Utc>,
    pub status: Option<(
        ResultStatus,
        &'a str,
        Option<UserId>,
        chrono::DateTime<chrono::Utc>,
    )>,
}

/// Records a match played on a past night as [`write`], [`set_status`] and
/// marking the fixture played would, in one transaction, dated as
/// `recorded` says rather than now: for the demo, whose results were
/// entered and approved on the days after their matches.
pub async fn record_played(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    result: &MatchResult,
    recorded: &Recorded<'_>,
) -> Result<ResultVersion> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let mut version = write_version(
        &mut tx,
        league,
        &f,
        result.clone(),
        Written {
            status: ResultStatus::Entered,
            note: String::new(),
            restored_from: None,
            mark_played: true,
        },
        recorded.by,
    )
    .await?;
    let mut status_at = None;
    if let Some((status, note, by, at)) = recorded.status {
        version = status_written(&mut tx, league, &f, &version, status, note, by).await?;
        status_at = Some(at);
    }
    crate::db::dated::date_version(&mut tx, league, version.id, recorded.at, status_at).await?;
    tx.commit().await?;
    version.created_at = recorded.at;
    version.status_at = status_at;
    Ok(version)
}
