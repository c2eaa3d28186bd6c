//! An invitation taken up: the account made with the password the person
//! chose, the role granted (a captain's account tied to the captain the
//! link named), the link closed, all in one transaction, so a link is
//! used once and a failure leaves no account without its role.

use crate::db::invitations::{
    claim_address, close_invitation, grant_invited_role, insert_account, invitation_by_token,
    tie_captain_account,
};
use crate::db::{Db, DbError, Result, Role, User, now};
use crate::league::refusal::Refusal;

/// Takes up the invitation of `token`. A link used or expired (meanwhile,
/// too) is refused; a username taken is [`DbError::Unique`].
pub async fn accept(
    db: &Db,
    token: &str,
    username: &str,
    password_hash: &str,
) -> Result<(User, Role)> {
    let mut tx = db.write_everywhere().await?;
    let at = now();
    let inv = invitation_by_token(&mut tx, token)
        .await?
        .ok_or_else(|| DbError::not_found("invitation"))?;
    if !inv.open(at) {
        return Err(Refusal::LinkSpent.into());
    }
    let user = insert_account(&mut tx, username, password_hash, at).await?;
    let role = grant_invited_role(&mut tx, &inv, user.id, at).await?;
    // A captain named on the roster: the account is theirs, if they are
    // still the captain.
    if inv.kind == "captain"
        && inv.player_id.is_some()
        && !tie_captain_account(&mut tx, &inv, user.id).await?
    {
        return Err(Refusal::CaptainGone.into());
    }
    // Another request using the same link got there first.
    if !close_invitation(&mut tx, token, user.id, at).await? {
        return Err(Refusal::LinkSpent.into());
    }
    // The link went to this address and was opened: it is theirs.
    if let Some(email) = &inv.email {
        claim_address(&mut tx, user.id, email, at).await?;
    }
    tx.commit().await?;
    Ok((user, role))
}
