//! The invitations a pasted roster or a season's set-up emails: one for
//! each player given an address who has no account in the league nor an
//! invitation waiting, and one for each captain named without an account,
//! written in the roster's own transaction
//! (`app::registrations::register_roster`, `app::setup::set_up`).

use crate::app::mail::invitation_message;
use crate::app::setup::CaptainInvite;
use crate::db::invitations::{PlayerInvite, VALID_DAYS};
use crate::db::{League, PlayerId, UserId};
use crate::league::roster;
use crate::web::AppState;
use crate::web::csrf::random_token;
use crate::web::error::Result;

/// Who among the league's players can be reached already: their
/// accounts, and the players with an invitation waiting.
pub(super) struct Reached {
    pub accounts: Vec<(PlayerId, UserId)>,
    pub invited: Vec<PlayerId>,
}

impl Reached {
    fn has_account(&self, player: Option<PlayerId>) -> bool {
        player.is_some_and(|p| self.accounts.iter().any(|(a, _)| *a == p))
    }
    fn is_invited(&self, player: Option<PlayerId>) -> bool {
        player.is_some_and(|p| self.invited.contains(&p))
    }
}

pub(super) async fn reached(state: &AppState, league: &League) -> Result<Reached> {
    let db = state.db();
    let accounts = db
        .league_roles(league.id)
        .await?
        .into_iter()
        .filter_map(|r| Some((r.player_id?, r.user_id)))
        .collect();
    let invited = db
        .waiting_invitations(league.id)
        .await?
        .into_iter()
        .filter_map(|w| w.player_id)
        .collect();
    Ok(Reached { accounts, invited })
}

/// The invitations to email with a roster: one for each player given an
/// address (the name and address in `wanted`) who has no account in the
/// league nor an invitation waiting.
pub(super) async fn player_invites(
    state: &AppState,
    league: &League,
    wanted: Vec<(Option<PlayerId>, String, String)>,
) -> Result<Vec<PlayerInvite>> {
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let reached = reached(state, league).await?;
    Ok(player_invites_past(state, league, wanted, &reached))
}

/// [`player_invites`] with who is reached already known.
pub(super) fn player_invites_past(
    state: &AppState,
    league: &League,
    wanted: Vec<(Option<PlayerId>, String, String)>,
    reached: &Reached,
) -> Vec<PlayerInvite> {
    wanted
        .into_iter()
        .filter(|(player, _, _)| !reached.has_account(*player) && !reached.is_invited(*player))
        .map(|(player, name, email)| {
            let token = random_token();
            let username = roster::username_for(&name);
            let message = invitation_message(
                &format!("{name}, a player in {}", league.name),
                state.mail().url(&format!("/invitations/{token}")),
                VALID_DAYS,
            );
            let mail = message.to(Some(league.id), "invitation", &name, &email, None);
            PlayerInvite {
                player,
                name,
                token,
                username,
                email,
                mail,
            }
        })
        .collect()
}

/// A captain to name: the player (if the league has them), their name,
/// their team's name and their address, if given.
pub(super) struct CaptainWanted {
    pub player: Option<PlayerId>,
    pub name: String,
    pub team: String,
    pub email: Option<String>,
}

/// The invitations of captains who have no account in the league: each
/// kept to be copied, and emailed where there is an address.
pub(super) fn captain_invites(
    state: &AppState,
    league: &League,
    wanted: Vec<CaptainWanted>,
    reached: &Reached,
) -> Vec<CaptainInvite> {
    wanted
        .into_iter()
        .filter(|c| !reached.has_account(c.player))
        .map(|c| {
            let token = random_token();
            let email = c.email.map(|address| {
                let message = invitation_message(
                    &format!("captain of {} in {}", c.team, league.name),
                    state.mail().url(&format!("/invitations/{token}")),
                    VALID_DAYS,
                );
                let mail = message.to(Some(league.id), "invitation", &c.name, &address, None);
                (address, mail)
            });
            CaptainInvite {
                username: roster::username_for(&c.name),
                name: c.name,
                token,
                email,
            }
        })
        .collect()
}

/// ` Invitations emailed to 3 players.`, after a save that sent some.
pub(super) fn invited_words(invites: &[PlayerInvite]) -> String {
    match invites.len() {
        0 => String::new(),
        1 => format!(
            " Invitation emailed to {} ({}).",
            invites[0].name, invites[0].email
        ),
        n => format!(" Invitations emailed to {n} players."),
    }
}
