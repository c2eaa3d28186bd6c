//! The result workflow's operations, each one call and one transaction:
//! the fixture is locked, its state and its current version read, the
//! rules of `league::workflow` asked, and every write of the answer made
//! before the commit. A crash or a rival request between two of them
//! cannot leave half an operation, nor land on a version nobody saw.

use super::audit::{NewAudit, insert_audit};
use super::fixtures::FixtureRow;
use super::results::{Source, VERSION_COLUMNS, VersionPlan};
use super::sql;
use super::{
    Db, DbError, Fixture, FixtureId, FixtureStatus, LeagueId, MatchResult, Result, ResultStatus,
    ResultVersion, Side, TeamId, now,
};
use crate::league::workflow::{self as flow, Actor, FixtureState, VersionState};

/// A fixture as the workflow's rules see it, under a result lock of
/// `lock_days` (the season's setting).
fn fixture_state(f: &Fixture, lock_days: Option<u32>) -> FixtureState {
    FixtureState {
        status: f.status,
        starts_at: f.starts_at,
        lock_days,
    }
}

/// A version as the workflow's rules see it, without the sides that
/// entered it (enough for a secretary's steps).
fn version_state(v: &ResultVersion) -> VersionState {
    VersionState {
        version: v.version,
        status: v.status,
        entered_by: v.created_by,
        entered_for: Vec::new(),
    }
}

impl Db {
    /// Stores a result entered on the card or the pads as the fixture's next
    /// version: approved at once ("entered by a secretary") when a secretary
    /// enters it, the fixture marked played when it was open, refused more
    /// than a day before the fixture, and from a captain after the season's
    /// result lock of `lock_days`. One transaction.
    pub async fn submit_result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        result: &MatchResult,
        actor: Actor,
        lock_days: Option<u32>,
    ) -> Result<ResultVersion> {
        self.submit(league, fixture, Source::Entered(result), actor, lock_days)
            .await
    }

    /// [`Db::submit_result`] for a result read from the score pads: refused
    /// whole if any board's pad revision is no longer the one in `shown`
    /// (board, revision; 0 for a board with no pad), so what is stored is
    /// what the captain reviewed.
    pub async fn submit_pads_result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        result: &MatchResult,
        shown: &[(i64, i64)],
        actor: Actor,
        lock_days: Option<u32>,
    ) -> Result<ResultVersion> {
        self.submit(
            league,
            fixture,
            Source::Pads(result, shown),
            actor,
            lock_days,
        )
        .await
    }

    /// A submission from either source, decided by the workflow.
    async fn submit(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        source: Source<'_>,
        actor: Actor,
        lock_days: Option<u32>,
    ) -> Result<ResultVersion> {
        let at = now();
        self.write_version(league, fixture, source, Some(actor.user), |f, _| {
            let done = flow::submit(actor, fixture_state(f, lock_days), at)?;
            Ok(VersionPlan {
                status: Some(done.status),
                note: done.note.to_owned(),
                mark_played: done.mark_played,
            })
        })
        .await
    }

    /// Makes version `from` current again as a new version copying it, if
    /// the current version is still `shown`. One transaction.
    pub async fn restore_result_version(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        from: i64,
        shown: i64,
        actor: Actor,
    ) -> Result<ResultVersion> {
        self.write_version(
            league,
            fixture,
            Source::Restore(from),
            Some(actor.user),
            |_, current| {
                flow::restore(actor, current.map(version_state).as_ref(), shown, from)?;
                Ok(VersionPlan::default())
            },
        )
        .await
    }

    /// The other captain confirms version `shown`: confirmed, or approved
    /// when the season approves on confirmation. One transaction.
    pub async fn confirm_result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        shown: i64,
        actor: Actor,
        approve_on_confirmation: bool,
    ) -> Result<ResultVersion> {
        self.change_status(league, fixture, actor, |current| {
            let (status, note) = flow::confirm(actor, current, shown, approve_on_confirmation)?;
            Ok((status, note.to_owned()))
        })
        .await
    }

    /// The other captain disputes version `shown`, with a note. One
    /// transaction.
    pub async fn dispute_result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        shown: i64,
        note: &str,
        actor: Actor,
    ) -> Result<ResultVersion> {
        self.change_status(league, fixture, actor, |current| {
            Ok((
                ResultStatus::Disputed,
                flow::dispute(actor, current, shown, note)?,
            ))
        })
        .await
    }

    /// A secretary approves version `shown`, if it is still as it was shown
    /// (`shown_status`, when the form said). One transaction.
    pub async fn approve_result(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        shown: i64,
        shown_status: Option<ResultStatus>,
        note: &str,
        actor: Actor,
    ) -> Result<ResultVersion> {
        self.change_status(league, fixture, actor, |current| {
            Ok((
                ResultStatus::Approved,
                flow::approve(actor, current, shown, shown_status, note)?,
            ))
        })
        .await
    }

    /// A secretary records that `side` conceded the fixture. One
    /// transaction, audited.
    pub async fn record_walkover(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        side: Side,
        actor: Actor,
    ) -> Result<Fixture> {
        self.change_fixture(league, fixture, actor, |f, _| {
            let (status, side) = flow::walkover(actor, fixture_state(f, None), side)?;
            Ok((status, Some(side)))
        })
        .await
    }

    /// A secretary voids the fixture. One transaction, audited.
    pub async fn void_fixture(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        actor: Actor,
    ) -> Result<Fixture> {
        self.change_fixture(league, fixture, actor, |f, _| {
            Ok((flow::void(actor, fixture_state(f, None))?, None))
        })
        .await
    }

    /// A secretary takes back a walkover or a void: played again if it has
    /// a result, else scheduled. One transaction, audited; a cup tie's
    /// draw follows (or the change is refused, as for any correction).
    pub async fn reinstate_fixture(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        actor: Actor,
    ) -> Result<Fixture> {
        self.change_fixture(league, fixture, actor, |f, has_result| {
            Ok((
                flow::reinstate(actor, fixture_state(f, None), has_result)?,
                None,
            ))
        })
        .await
    }

    /// Sets the current version's status and note as `decide` says, asked
    /// with the current version (and the sides whose captain entered it) as
    /// it is inside the transaction.
    async fn change_status(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        actor: Actor,
        decide: impl FnOnce(Option<&VersionState>) -> Result<(ResultStatus, String)>,
    ) -> Result<ResultVersion> {
        let current_sql = format!(
            "SELECT {VERSION_COLUMNS} FROM result_versions WHERE league_id = $1 AND fixture_id = $2 \
             ORDER BY version DESC LIMIT 1"
        );
        let update = format!(
            "UPDATE result_versions SET status = $3, status_note = $4, status_by = $5, \
             status_at = $6 WHERE league_id = $1 AND id = $2 RETURNING {VERSION_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let f: Fixture = super::fixtures::lock_fixture(&mut tx, league, fixture).await?;
        let current: Option<ResultVersion> =
            sql::query_as::<super::results::VersionRow>(&current_sql)
                .bind(league)
                .bind(fixture)
                .fetch_optional(&mut tx)
                .await?
                .map(ResultVersion::try_from)
                .transpose()?;
        let state = match &current {
            Some(v) => {
                let mut state = version_state(v);
                if let Some(by) = v.created_by {
                    let teams: Vec<Option<TeamId>> = sql::query_scalar(
                        "SELECT team_id FROM roles WHERE user_id = $1 AND kind = 'captain' \
                         AND league_id = $2 AND season_id = $3",
                    )
                    .bind(by)
                    .bind(league)
                    .bind(f.season_id)
                    .fetch_all(&mut tx)
                    .await?;
                    for team in teams.into_iter().flatten() {
                        if team == f.home_team_id {
                            state.entered_for.push(Side::Home);
                        } else if team == f.away_team_id {
                            state.entered_for.push(Side::Away);
                        }
                    }
                }
                Some(state)
            }
            None => None,
        };
        let (status, note) = decide(state.as_ref())?;
        let before =
            current.ok_or_else(|| DbError::not_found(format!("a result of fixture {fixture}")))?;
        let after: ResultVersion = sql::query_as::<super::results::VersionRow>(&update)
            .bind(league)
            .bind(before.id)
            .bind(status.as_str())
            .bind(note)
            .bind(actor.user)
            .bind(now())
            .fetch_one(&mut tx)
            .await?
            .try_into()?;
        insert_audit(
            &mut tx,
            NewAudit::new(
                Some(league),
                Some(actor.user),
                "result",
                fixture.0,
                "status",
            )
            .before(Some(&before))
            .after(Some(&after)),
        )
        .await?;
        if let Some(cup) = f.cup_id {
            super::cups::advance_cup(&mut tx, league, cup, Some(actor.user)).await?;
        }
        tx.commit().await?;
        Ok(after)
    }

    /// Sets the fixture's status (and the side that conceded) as `decide`
    /// says, asked with the fixture as it is inside the transaction and
    /// whether it has a result.
    async fn change_fixture(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        actor: Actor,
        decide: impl FnOnce(&Fixture, bool) -> Result<(FixtureStatus, Option<Side>)>,
    ) -> Result<Fixture> {
        let update = format!(
            "UPDATE fixtures SET status = $3, conceded_by = $4 WHERE league_id = $1 AND id = $2 \
             RETURNING {}",
            super::fixtures::COLUMNS
        );
        let mut tx = self.write(league).await?;
        let before: Fixture = super::fixtures::lock_fixture(&mut tx, league, fixture).await?;
        let versions: i64 = sql::query_scalar(
            "SELECT COUNT(*) FROM result_versions WHERE league_id = $1 AND fixture_id = $2",
        )
        .bind(league)
        .bind(fixture)
        .fetch_one(&mut tx)
        .await?;
        let (status, conceded_by) = decide(&before, versions > 0)?;
        let after: Fixture = sql::query_as::<FixtureRow>(&update)
            .bind(league)
            .bind(fixture)
            .bind(status.as_str())
            .bind(conceded_by.map(Side::as_str))
            .fetch_one(&mut tx)
            .await?
            .try_into()?;
        insert_audit(
            &mut tx,
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
            super::cups::advance_cup(&mut tx, league, cup, Some(actor.user)).await?;
        }
        tx.commit().await?;
        Ok(after)
    }
}
