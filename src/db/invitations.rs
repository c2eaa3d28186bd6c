//! Invitations: one-time links with which a person named to a role makes
//! their own account. A link is found by its token's SHA-256; the token
//! itself is kept only while the invitation waits (issue 39: the secretary
//! copies it again from the lists, as the emailed message holds it
//! anyway), and cleared once it is taken up or revoked.

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::audit::{NewAudit, insert_audit};
use super::mail::{NewMail, queue};
use super::users::ROLE_COLUMNS;
use super::{Db, DbError, LeagueId, PlayerId, Result, Role, SeasonId, TeamId, User, UserId, now};

/// How long a link works.
pub const VALID_DAYS: i64 = 14;

/// What accepting an invitation makes the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invited {
    Secretary,
    /// Captain of a team for a season; named on the roster, as one of its
    /// registered players.
    Captain {
        season: SeasonId,
        team: TeamId,
        player: Option<PlayerId>,
    },
    /// One of the league's players: their own record.
    Player {
        player: PlayerId,
    },
}

/// An invitation to make.
#[derive(Debug, Clone)]
pub struct NewInvitation {
    /// The random token of the link; only its hash is kept.
    pub token: String,
    pub username: String,
    pub league: LeagueId,
    pub role: Invited,
    /// Where the link is emailed, if anywhere (it is shown to whoever made
    /// it all the same).
    pub email: Option<String>,
}

/// A player of a pasted or imported roster whose invitation is emailed in
/// the roster's own transaction.
#[derive(Debug, Clone)]
pub struct PlayerInvite {
    /// An existing player; `None`: the new player called `name`, made in
    /// the same transaction.
    pub player: Option<PlayerId>,
    pub name: String,
    pub token: String,
    pub username: String,
    pub email: String,
    pub mail: NewMail,
}

/// Inserts the invitations `invites` of league `league` (new players
/// found by name in `made`) and queues their mail.
pub(crate) async fn insert_player_invites(
    tx: &mut Tx,
    league: LeagueId,
    invites: &[PlayerInvite],
    made: &[(String, PlayerId)],
    by: Option<UserId>,
) -> Result<()> {
    for invite in invites {
        let player = invite.player.or_else(|| {
            made.iter()
                .find(|(name, _)| *name == invite.name)
                .map(|(_, id)| *id)
        });
        let Some(player) = player else { continue };
        let new = NewInvitation {
            token: invite.token.clone(),
            username: invite.username.clone(),
            league,
            role: Invited::Player { player },
            email: Some(invite.email.clone()),
        };
        insert_invitation(tx, &new, by).await?;
        queue(tx, &invite.mail).await?;
    }
    Ok(())
}

/// A stored invitation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Invitation {
    pub id: i64,
    pub kind: String,
    pub username: String,
    pub league_id: LeagueId,
    pub season_id: Option<SeasonId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub email: Option<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    /// The secretary took the link back: it no longer works.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl Invitation {
    /// Whether the link still works at `at`.
    pub fn open(&self, at: DateTime<Utc>) -> bool {
        self.used_at.is_none() && self.revoked_at.is_none() && at < self.expires_at
    }
}

const COLUMNS: &str = "id, kind, username, league_id, season_id, team_id, player_id, \
                       email, created_at, expires_at, used_at, revoked_at";

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Inserts `new`.
pub(crate) async fn insert_invitation(
    tx: &mut Tx,
    new: &NewInvitation,
    by: Option<UserId>,
) -> Result<()> {
    let (kind, season, team, player) = match &new.role {
        Invited::Secretary => ("secretary", None, None, None),
        Invited::Captain {
            season,
            team,
            player,
        } => ("captain", Some(*season), Some(*team), *player),
        Invited::Player { player } => ("player", None, None, Some(*player)),
    };
    let at = now();
    // An invitation with an address is emailed in the transaction that
    // makes it (each caller queues the message): it was sent now.
    sql::query(
        "INSERT INTO invitations (token_hash, kind, username, league_id, season_id, team_id, \
         player_id, created_by, created_at, expires_at, email, token, sent_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(token_hash(&new.token))
    .bind(kind)
    .bind(&new.username)
    .bind(new.league)
    .bind(season)
    .bind(team)
    .bind(player)
    .bind(by)
    .bind(at)
    .bind(at + chrono::TimeDelta::days(VALID_DAYS))
    .bind(new.email.as_deref())
    .bind(&new.token)
    .bind(new.email.as_ref().map(|_| at))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

impl Db {
    /// Invites someone to the role `new` names (a captain named on the
    /// roster is invited by
    /// [`name_captain`](crate::app::teams::name_captain) instead),
    /// queueing `mail` (the link by email) in the same transaction.
    pub async fn invite(
        &self,
        new: &NewInvitation,
        by: Option<UserId>,
        mail: Option<&NewMail>,
    ) -> Result<()> {
        let mut tx = self.write_everywhere().await?;
        insert_invitation(&mut tx, new, by).await?;
        if let Some(mail) = mail {
            queue(&mut tx, mail).await?;
        }
        insert_audit(
            &mut tx,
            NewAudit::new(Some(new.league), by, "invitation", 0, "create"),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Invites each of a roster's players who gave an address, each link
    /// queued by email with it, in one transaction.
    pub async fn invite_all(
        &self,
        league: LeagueId,
        invitations: &[(NewInvitation, NewMail)],
        by: Option<UserId>,
    ) -> Result<()> {
        let mut tx = self.write(league).await?;
        for (new, mail) in invitations {
            insert_invitation(&mut tx, new, by).await?;
            queue(&mut tx, mail).await?;
        }
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "invitation", 0, "create"),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The invitation a token is the link of, used or not.
    pub async fn invitation(&self, token: &str) -> Result<Invitation> {
        let sql = format!("SELECT {COLUMNS} FROM invitations WHERE token_hash = $1");
        sql::query_as::<Invitation>(&sql)
            .bind(token_hash(token))
            .fetch_optional(self)
            .await?
            .ok_or_else(|| DbError::not_found("invitation"))
    }

    /// The league's invitations not yet taken up nor revoked (expired
    /// ones too: resending renews them), newest first. A secretary's
    /// invitation is the administrator's and is not listed.
    pub async fn waiting_invitations(&self, league: LeagueId) -> Result<Vec<Waiting>> {
        sql::query_as::<Waiting>(&format!("{WAITING} ORDER BY i.id DESC"))
            .bind(league)
            .fetch_all(self)
            .await
    }

    /// [`Db::waiting_invitations`] of one team in a season: its captains'
    /// and those of the players registered to it.
    pub async fn team_invitations(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
    ) -> Result<Vec<Waiting>> {
        sql::query_as::<Waiting>(&format!(
            "{WAITING} AND ((i.season_id = $2 AND i.team_id = $3) \
             OR (i.kind = 'player' AND EXISTS (SELECT 1 FROM registrations r \
                 WHERE r.league_id = i.league_id AND r.season_id = $2 AND r.team_id = $3 \
                 AND r.player_id = i.player_id))) \
             ORDER BY i.id DESC"
        ))
        .bind(league)
        .bind(season)
        .bind(team)
        .fetch_all(self)
        .await
    }

    /// One of [`Db::waiting_invitations`], if it is still waiting.
    pub async fn waiting_invitation(&self, league: LeagueId, id: i64) -> Result<Option<Waiting>> {
        sql::query_as::<Waiting>(&format!("{WAITING} AND i.id = $2"))
            .bind(league)
            .bind(id)
            .fetch_optional(self)
            .await
    }
}

/// An invitation still waiting to be taken up, with the names it is
/// listed by.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Waiting {
    pub id: i64,
    /// `captain` or `player`.
    pub kind: String,
    /// The username suggested.
    pub username: String,
    pub season_id: Option<SeasonId>,
    pub team_id: Option<TeamId>,
    pub player_id: Option<PlayerId>,
    pub email: Option<String>,
    /// The link's token, kept to be copied; `None` for an invitation made
    /// before links were kept (resending makes a new one).
    pub token: Option<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// When the link was last emailed.
    pub sent_at: Option<DateTime<Utc>>,
    pub player_name: Option<String>,
    pub team_name: Option<String>,
    pub season_name: Option<String>,
}

impl Waiting {
    /// Whom it is for: the player's name, else the username suggested.
    pub fn who(&self) -> &str {
        self.player_name.as_deref().unwrap_or(&self.username)
    }
}

/// The waiting invitations of league `$1`; callers add conditions and
/// the order.
const WAITING: &str = "SELECT i.id, i.kind, i.username, i.season_id, i.team_id, i.player_id, \
     i.email, i.token, i.created_at, i.expires_at, i.sent_at, \
     p.name AS player_name, t.name AS team_name, s.name AS season_name \
     FROM invitations i \
     LEFT JOIN players p ON p.league_id = i.league_id AND p.id = i.player_id \
     LEFT JOIN teams t ON t.league_id = i.league_id AND t.id = i.team_id \
     LEFT JOIN seasons s ON s.league_id = i.league_id AND s.id = i.season_id \
     WHERE i.league_id = $1 AND i.used_at IS NULL AND i.revoked_at IS NULL \
     AND i.kind <> 'secretary'";

/// [`Db::waiting_invitation`] inside a write, locked on Postgres until
/// the commit.
pub(crate) async fn lock_waiting(
    tx: &mut Tx,
    league: LeagueId,
    id: i64,
) -> Result<Option<Waiting>> {
    let sql = format!(
        "{WAITING} AND i.id = $2{}",
        tx.dialect("", " FOR UPDATE OF i")
    );
    sql::query_as::<Waiting>(&sql)
        .bind(league)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
}

/// Gives waiting invitation `id` the link `token` (the one it has, or a
/// new one), the address `email`, and `days` more from `at`; `sent`: it
/// is emailed in this transaction.
pub(crate) async fn renew_invitation(
    tx: &mut Tx,
    id: i64,
    token: &str,
    email: Option<&str>,
    at: DateTime<Utc>,
    sent: bool,
) -> Result<()> {
    sql::query(
        "UPDATE invitations SET token_hash = $2, token = $3, email = $4, expires_at = $5, \
         sent_at = CASE WHEN $6 THEN $7 ELSE sent_at END \
         WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL",
    )
    .bind(id)
    .bind(token_hash(token))
    .bind(token)
    .bind(email)
    .bind(at + chrono::TimeDelta::days(VALID_DAYS))
    .bind(sent)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Revokes waiting invitation `id` of `league`: its link stops working
/// and is no longer kept. Whether it was still waiting.
pub(crate) async fn revoke_invitation(
    tx: &mut Tx,
    league: LeagueId,
    id: i64,
    at: DateTime<Utc>,
) -> Result<bool> {
    Ok(sql::query(
        "UPDATE invitations SET revoked_at = $3, token = NULL \
         WHERE league_id = $1 AND id = $2 AND used_at IS NULL AND revoked_at IS NULL \
         AND kind <> 'secretary'",
    )
    .bind(league)
    .bind(id)
    .bind(at)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        > 0)
}

/// The invitation whose link carries `token`, if any.
pub(crate) async fn invitation_by_token(tx: &mut Tx, token: &str) -> Result<Option<Invitation>> {
    sql::query_as(&format!(
        "SELECT {COLUMNS} FROM invitations WHERE token_hash = $1"
    ))
    .bind(token_hash(token))
    .fetch_optional(&mut *tx)
    .await
}

/// A new account; a username taken is [`DbError::Unique`].
pub(crate) async fn insert_account(
    tx: &mut Tx,
    username: &str,
    password_hash: &str,
    at: DateTime<Utc>,
) -> Result<User> {
    sql::query_as(
        "INSERT INTO users (username, password_hash, created_at) VALUES ($1, $2, $3) \
         RETURNING id, username, password_hash, created_at",
    )
    .bind(username)
    .bind(password_hash)
    .bind(at)
    .fetch_one(&mut *tx)
    .await
}

/// Grants `user` the role `inv` names (a captain's role is of the team,
/// not of a player), audited as the user's own.
pub(crate) async fn grant_invited_role(
    tx: &mut Tx,
    inv: &Invitation,
    user: UserId,
    at: DateTime<Utc>,
) -> Result<Role> {
    let captain = inv.kind == "captain";
    let role: Role = sql::query_as(&format!(
        "INSERT INTO roles (user_id, kind, league_id, season_id, team_id, player_id, granted_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {ROLE_COLUMNS}"
    ))
    .bind(user)
    .bind(&inv.kind)
    .bind(inv.league_id)
    .bind(inv.season_id)
    .bind(inv.team_id)
    .bind(if captain { None } else { inv.player_id })
    .bind(at)
    .fetch_one(&mut *tx)
    .await?;
    insert_audit(
        tx,
        NewAudit::new(Some(inv.league_id), Some(user), "role", role.id.0, "grant")
            .after(Some(&role)),
    )
    .await?;
    Ok(role)
}

/// Ties `user` to the captain `inv` named on the roster; whether that
/// player is still the team's captain (a row was changed).
pub(crate) async fn tie_captain_account(
    tx: &mut Tx,
    inv: &Invitation,
    user: UserId,
) -> Result<bool> {
    Ok(sql::query(
        "UPDATE team_captains SET user_id = $5 WHERE league_id = $1 \
         AND season_id = $2 AND team_id = $3 AND player_id = $4",
    )
    .bind(inv.league_id)
    .bind(inv.season_id)
    .bind(inv.team_id)
    .bind(inv.player_id)
    .bind(user)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        > 0)
}

/// Marks the link of `token` used by `user`; whether it was still unused
/// and not revoked.
pub(crate) async fn close_invitation(
    tx: &mut Tx,
    token: &str,
    user: UserId,
    at: DateTime<Utc>,
) -> Result<bool> {
    // The link is spent: it is no longer kept to be copied.
    Ok(sql::query(
        "UPDATE invitations SET used_at = $2, user_id = $3, token = NULL \
         WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL",
    )
    .bind(token_hash(token))
    .bind(at)
    .bind(user)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        > 0)
}

/// Gives `user` the verified address `email`, unless another account
/// confirmed it already; other accounts' unconfirmed claims to it are let
/// go (see `mail::confirm_address`).
pub(crate) async fn claim_address(
    tx: &mut Tx,
    user: UserId,
    email: &str,
    at: DateTime<Utc>,
) -> Result<()> {
    // An address another account confirmed stays theirs; one only
    // claimed (never confirmed) by another account does not block it.
    let owned: i64 = sql::query_scalar(
        "SELECT COUNT(*) FROM users WHERE lower(email) = lower($1) \
         AND email_verified_at IS NOT NULL",
    )
    .bind(email)
    .fetch_one(&mut *tx)
    .await?;
    if owned > 0 {
        return Ok(());
    }
    sql::query("UPDATE users SET email = $2 WHERE id = $1")
        .bind(user)
        .bind(email)
        .execute(&mut *tx)
        .await?;
    super::mail::confirm_address(tx, user, email, at).await
}
