//! The invitations a pasted or imported roster emails: one for each player
//! given an address who has no account in the league yet, written in the
//! roster's own transaction (`app::registrations::register_roster`,
//! `app::registrations::import_rosters`).

use crate::app::mail::invitation_message;
use crate::db::invitations::{PlayerInvite, VALID_DAYS};
use crate::db::{League, PlayerId};
use crate::league::roster;
use crate::web::AppState;
use crate::web::csrf::random_token;
use crate::web::error::Result;

/// The invitations to email with a roster: one for each player given an
/// address who has no account in the league yet.
pub(super) async fn player_invites(
    state: &AppState,
    league: &League,
    wanted: Vec<(Option<PlayerId>, String, String)>,
) -> Result<Vec<PlayerInvite>> {
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let with_account: Vec<PlayerId> = state
        .db()
        .league_roles(league.id)
        .await?
        .into_iter()
        .filter_map(|r| r.player_id)
        .collect();
    Ok(wanted
        .into_iter()
        .filter(|(player, _, _)| player.is_none_or(|p| !with_account.contains(&p)))
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
        .collect())
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
