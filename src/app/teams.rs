//! Naming a team's captains for a season, one transaction: the team's
//! entry is locked, its captains counted, `league::captains` decides, and
//! the captain, the account's role and its invitation are written before
//! the commit.

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::invitations::insert_invitation;
use crate::db::mail::{NewMail, queue};
use crate::db::sql::Tx;
use crate::db::teams::{
    CaptainAccount, captain_count, captain_role, insert_captain, insert_captain_role, lock_entry,
};
use crate::db::{Db, DbError, LeagueId, PlayerId, Result, SeasonId, TeamId, UserId};
use crate::league::captains;

/// Names a registered player of the team as one of its captains this
/// season; refused past [`captains::MAX_CAPTAINS`].
pub async fn add_captain(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
) -> Result<()> {
    name_captain(
        db,
        league,
        season,
        team,
        player,
        CaptainAccount::None,
        None,
        None,
    )
    .await
}

/// Makes a registered player a captain of the team for the season and,
/// when an account is named with them, gives it the captain's role for
/// the team that season (kept if it holds it already), in one
/// transaction. The account is recorded with the captain, so that
/// removing the captain takes the role away again. `mail`: an invitation's
/// link by email, queued in the same transaction.
#[allow(clippy::too_many_arguments)]
pub async fn name_captain(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
    account: CaptainAccount<'_>,
    mail: Option<&NewMail>,
    by: Option<UserId>,
) -> Result<()> {
    let mut tx = db.write(league).await?;
    name_in(&mut tx, league, season, team, player, account, by).await?;
    if let Some(mail) = mail {
        queue(&mut tx, mail).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// [`name_captain`] inside a write of its own caller's (a season set up
/// in one go names its captains in its transaction).
pub(crate) async fn name_in(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
    account: CaptainAccount<'_>,
    by: Option<UserId>,
) -> Result<()> {
    let (account, invite) = match account {
        CaptainAccount::None => (None, None),
        CaptainAccount::Existing(user) => (Some(user), None),
        CaptainAccount::Invite(invite) => (None, Some(invite)),
    };
    if !lock_entry(tx, league, season, team).await? {
        return Err(DbError::not_found(format!(
            "team {team} in season {season}"
        )));
    }
    captains::may_name(captain_count(tx, league, season, team).await?)?;
    insert_captain(tx, league, season, team, player, account).await?;
    if let Some(user) = account
        && captain_role(tx, user, league, season, team)
            .await?
            .is_none()
    {
        let role = insert_captain_role(tx, user, league, season, team).await?;
        insert_audit(
            tx,
            NewAudit::new(Some(league), by, "role", role.id.0, "grant").after(Some(&role)),
        )
        .await?;
    }
    if let Some(invite) = invite {
        insert_invitation(tx, invite, by).await?;
    }
    Ok(())
}
