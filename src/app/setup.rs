//! A season set up in one go (issue 39): from a checked paste or file
//! ([`ImportPlan`]), the venues and divisions it names made, the teams
//! made and entered, the players made and registered, the captains named
//! with their invitations, and every invitation's message queued, all in
//! one transaction: a refusal anywhere saves nothing.

use std::collections::HashMap;

use crate::app::teams::name_in;
use crate::app::transfers::check_squads;
use crate::db::audit::{NewAudit, insert_audit};
use crate::db::invitations::{Invited, NewInvitation, PlayerInvite, insert_player_invites};
use crate::db::mail::{NewMail, queue};
use crate::db::players::{insert_player, insert_registration};
use crate::db::seasons::insert_division;
use crate::db::teams::{CaptainAccount, insert_entry, insert_team};
use crate::db::venues::{NewVenue, insert_venue};
use crate::db::{
    Db, DbError, DivisionId, LeagueId, PlayerId, Result, SeasonId, TeamId, UserId, VenueId, now,
};
use crate::league::import::{ImportPlan, Named};

/// A captain's invitation, for the player the plan names `name`.
#[derive(Debug, Clone)]
pub struct CaptainInvite {
    pub name: String,
    pub token: String,
    pub username: String,
    /// Where it is emailed, with its message; without an address it waits
    /// on the team's page for the secretary to copy.
    pub email: Option<(String, NewMail)>,
}

/// What a set-up writes besides the plan.
#[derive(Debug, Clone, Copy)]
pub struct SetUp<'a> {
    pub plan: &'a ImportPlan,
    /// Invitations of players given an address (not captains).
    pub players: &'a [PlayerInvite],
    /// Invitations of captains without an account.
    pub captains: &'a [CaptainInvite],
    /// Accounts of the league's players: a captain with one is given the
    /// captain's role on it instead of an invitation.
    pub accounts: &'a [(PlayerId, UserId)],
}

/// Writes `set_up` into season `season` of `league`. A name taken
/// meanwhile is [`DbError::Unique`](crate::db::DbError); a squad past the
/// season's limit or a team past its captains is refused.
pub async fn set_up(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    set_up: &SetUp<'_>,
    by: Option<UserId>,
) -> Result<()> {
    let SetUp {
        plan,
        players,
        captains,
        accounts,
    } = *set_up;
    let mut tx = db.write(league).await?;
    let at = now();
    let mut venues: HashMap<&str, VenueId> = HashMap::new();
    for name in &plan.new_venues {
        let new = NewVenue {
            name: name.clone(),
            address: String::new(),
            tables: 1,
        };
        venues.insert(name, insert_venue(&mut tx, league, &new).await?);
    }
    let mut divisions: HashMap<&str, DivisionId> = HashMap::new();
    for name in &plan.new_divisions {
        divisions.insert(name, insert_division(&mut tx, league, season, name).await?);
    }
    let mut made = Vec::new();
    for t in &plan.teams {
        let id = match t.id {
            Some(id) => TeamId(id),
            None => {
                let venue = match &t.venue {
                    None => None,
                    Some(Named::Known(id)) => Some(VenueId(*id)),
                    Some(Named::New(name)) => venues.get(name.as_str()).copied(),
                };
                insert_team(&mut tx, league, &t.name, venue).await?
            }
        };
        if !t.entered {
            let division = match &t.division {
                Named::Known(id) => DivisionId(*id),
                Named::New(name) => *divisions
                    .get(name.as_str())
                    .ok_or_else(|| DbError::not_found(format!("division {name}")))?,
            };
            insert_entry(&mut tx, league, season, division, id).await?;
        }
        for p in &t.players {
            let pid = match p.id {
                Some(id) => PlayerId(id),
                None => {
                    let id = insert_player(&mut tx, league, &p.name, at).await?;
                    made.push((p.name.clone(), id));
                    id
                }
            };
            if !p.registered {
                insert_registration(&mut tx, league, season, id, pid, at).await?;
            }
            if !p.captain || p.captain_already {
                continue;
            }
            let account = accounts.iter().find(|(p, _)| *p == pid).map(|(_, u)| *u);
            let invite = captains.iter().find(|c| c.name == p.name);
            let new = invite.map(|c| NewInvitation {
                token: c.token.clone(),
                username: c.username.clone(),
                league,
                role: Invited::Captain {
                    season,
                    team: id,
                    player: Some(pid),
                },
                email: c.email.as_ref().map(|(address, _)| address.clone()),
            });
            let named = match (account, &new) {
                (Some(user), _) => CaptainAccount::Existing(user),
                (None, Some(new)) => CaptainAccount::Invite(new),
                (None, None) => CaptainAccount::None,
            };
            name_in(&mut tx, league, season, id, pid, named, by).await?;
            if let (None, Some((_, mail))) = (account, invite.and_then(|c| c.email.as_ref())) {
                queue(&mut tx, mail).await?;
            }
        }
    }
    insert_player_invites(&mut tx, league, players, &made, by).await?;
    check_squads(&mut tx, league, season).await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "season", season.0, "set-up"),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
