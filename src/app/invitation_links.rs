//! A waiting invitation looked after by the secretary (issue 39): emailed
//! again, or revoked. Each is one transaction, audited; the message goes
//! out from the outbox written in it.

use crate::app::mail::{MailConfig, invitation_message};
use crate::db::audit::{NewAudit, insert_audit};
use crate::db::invitations::{
    VALID_DAYS, Waiting, lock_waiting, renew_invitation, revoke_invitation,
};
use crate::db::mail::queue;
use crate::db::{Db, League, Result, UserId, now};

/// The role an invitation gives, in words for its message.
pub fn role_words(w: &Waiting, league: &str) -> String {
    match (w.kind.as_str(), &w.team_name) {
        ("captain", Some(team)) => format!("captain of {team} in {league}"),
        _ => format!("{}, a player in {league}", w.who()),
    }
}

/// What a resend did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resent {
    /// Where the link was emailed, if anywhere.
    pub email: Option<String>,
    /// The link was new: the invitation had none kept (made before links
    /// were kept), so the old one no longer works.
    pub new_link: bool,
}

/// Emails waiting invitation `id` again, to `email` or the address it
/// has, with its own link (or `fresh` as a new one when it has none kept),
/// good for [`VALID_DAYS`] from now. `None`: it was taken up or revoked
/// meanwhile, and nothing was sent.
pub async fn resend(
    db: &Db,
    config: &MailConfig,
    league: &League,
    id: i64,
    email: Option<&str>,
    fresh: String,
    by: Option<UserId>,
) -> Result<Option<Resent>> {
    let mut tx = db.write(league.id).await?;
    let Some(w) = lock_waiting(&mut tx, league.id, id).await? else {
        return Ok(None);
    };
    let email = email.map(str::to_owned).or_else(|| w.email.clone());
    let (token, new_link) = match &w.token {
        Some(kept) => (kept.clone(), false),
        None => (fresh, true),
    };
    let at = now();
    renew_invitation(&mut tx, id, &token, email.as_deref(), at, email.is_some()).await?;
    if let Some(address) = &email {
        let message = invitation_message(
            &role_words(&w, &league.name),
            config.url(&format!("/invitations/{token}")),
            VALID_DAYS,
        );
        queue(
            &mut tx,
            &message.to(Some(league.id), "invitation", w.who(), address, None),
        )
        .await?;
    }
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league.id), by, "invitation", id, "resend"),
    )
    .await?;
    tx.commit().await?;
    Ok(Some(Resent { email, new_link }))
}

/// Revokes waiting invitation `id`: its link stops working. Whether it was
/// still waiting.
pub async fn revoke(db: &Db, league: &League, id: i64, by: Option<UserId>) -> Result<bool> {
    let mut tx = db.write(league.id).await?;
    if !revoke_invitation(&mut tx, league.id, id, now()).await? {
        return Ok(false);
    }
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league.id), by, "invitation", id, "revoke"),
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}
