//! The demo's accounts: someone to sign in as in each league (its
//! secretary, a captain's account for each team, a few players) and the
//! installation's administrator. Passwords come from the operating system's
//! random generator on every run (never from the seed) and are returned
//! once, to be printed; the database keeps only their argon2id hashes.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use crate::db::{Db, DbError, LeagueId, NewRole, PlayerId, RoleKind, SeasonId, TeamId, UserId};

use super::{DemoError, LeaguePlan, Member, Written};

/// Player accounts made in each league.
pub const PLAYER_ACCOUNTS: usize = 3;

/// The longest username an account may have.
const USERNAME_MAX: usize = 40;

/// An account [`fill_with_accounts`](super::fill_with_accounts) made, with its
/// password.
#[derive(Clone, PartialEq, Eq)]
pub struct DemoAccount {
    /// The league's short name; empty for the administrator.
    pub league: String,
    pub role: RoleKind,
    /// The team captained, or the player's team this season; empty for a
    /// secretary and the administrator.
    pub team: String,
    pub username: String,
    pub password: String,
}

impl fmt::Debug for DemoAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DemoAccount")
            .field("league", &self.league)
            .field("role", &self.role)
            .field("team", &self.team)
            .field("username", &self.username)
            .field("password", &"[redacted]")
            .finish()
    }
}

/// Accounts as a table to print: league, role, team, username, password,
/// one account a line under a heading, the columns aligned.
pub struct AccountTable<'a>(pub &'a [DemoAccount]);

impl fmt::Display for AccountTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or_dash = |s: &str| {
            if s.is_empty() {
                "-".to_owned()
            } else {
                s.to_owned()
            }
        };
        let rows = self.0.iter().map(|a| {
            [
                or_dash(&a.league),
                a.role.as_str().to_owned(),
                or_dash(&a.team),
                a.username.clone(),
                a.password.clone(),
            ]
        });
        let heading = ["league", "role", "team", "username", "password"].map(str::to_owned);
        let rows: Vec<[String; 5]> = std::iter::once(heading).chain(rows).collect();
        let mut widths = [0; 5];
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let mut line = String::new();
            for (cell, w) in row.iter().zip(widths) {
                line.push_str(&format!("{cell:<w$}  "));
            }
            f.write_str(line.trim_end())?;
        }
        Ok(())
    }
}

/// Crockford's base32 in lower case: no `i`, `l`, `o` or `u` to misread.
const PASSWORD_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A new password from the operating system's random generator: 16
/// base32 characters (80 bits) in groups of four, `k7m2-q9xa-4bne-t3hw`.
fn new_password() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    let mut out = String::with_capacity(19);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        // 256 is a multiple of 32: every character is equally likely.
        out.push(char::from(PASSWORD_ALPHABET[usize::from(b % 32)]));
    }
    out
}

/// `name` as a username: lower-case letters and digits, anything else a
/// single dash (an apostrophe nothing: `King's Head` is `kings-head`).
fn username_slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().filter(|&c| c != '\'') {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// `base`, or for `n` of 2 and more `base-n`, cut to a username's length.
fn numbered(base: &str, n: u32) -> String {
    let suffix = if n < 2 {
        String::new()
    } else {
        format!("-{n}")
    };
    // The slug is ASCII: any byte is a character boundary.
    let mut cut = base[..base.len().min(USERNAME_MAX - suffix.len())].to_owned();
    while cut.ends_with('-') {
        cut.pop();
    }
    cut + &suffix
}

/// The role an account is given once it exists.
#[derive(Debug, Clone, Copy)]
enum Grant {
    Administrator,
    Secretary(LeagueId),
    Captain(LeagueId, SeasonId, TeamId),
    Player(LeagueId, PlayerId),
}

impl Grant {
    fn kind(self) -> RoleKind {
        match self {
            Grant::Administrator => RoleKind::Administrator,
            Grant::Secretary(..) => RoleKind::Secretary,
            Grant::Captain(..) => RoleKind::Captain,
            Grant::Player(..) => RoleKind::Player,
        }
    }

    fn role(self, user: UserId) -> NewRole {
        match self {
            Grant::Administrator => NewRole::administrator(user),
            Grant::Secretary(league) => NewRole::secretary(user, league),
            Grant::Captain(league, season, team) => NewRole::captain(user, league, season, team),
            Grant::Player(league, player) => NewRole::player(user, league, player),
        }
    }
}

/// A password being hashed in the background; dropped unfinished (the
/// demo failed), it is abandoned.
struct Hashing(JoinHandle<Result<String, String>>);

impl Drop for Hashing {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// An account to make once its password's hash is ready.
struct PlannedAccount {
    account: DemoAccount,
    /// The username before any `-n`, and the `n` it has now.
    base: String,
    n: u32,
    /// Its role, once what it names is written.
    grant: Option<Grant>,
    /// Made already (with the stand-in hash), when its
    /// league's results name it.
    user: Option<UserId>,
    hash: Hashing,
}

/// The people a league's results are entered, confirmed and approved by:
/// its secretary and a captain's account for each team (in the plan's
/// order).
#[derive(Debug, Clone)]
pub(super) struct People {
    /// Their group of accounts.
    group: usize,
    pub secretary: UserId,
    pub captains: Vec<UserId>,
}

/// The demo's accounts: planned (and their passwords hashed, a few at a
/// time) as each league is written, their roles and passwords given at
/// the end. A league's secretary and captains exist before its results
/// (which say who entered and approved them), with a stand-in hash until
/// their own is ready.
pub(super) struct Accounts {
    /// As many hashes at once as there are cores, four at most: each
    /// takes 19 MiB.
    hashing: Arc<Semaphore>,
    /// The administrator's, then a group a league, in the order printed.
    groups: Vec<Vec<PlannedAccount>>,
    /// Usernames this run has given out.
    usernames: HashSet<String>,
    /// The hash of a password nobody is told, for accounts made before
    /// their own hash is ready: they cannot be signed in to meanwhile.
    stand_in: String,
}

impl Accounts {
    pub async fn new() -> Result<Accounts, DemoError> {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        let stand_in = crate::web::auth::hash_password(new_password())
            .await
            .map_err(|e| DemoError::Accounts(e.to_string()))?;
        Ok(Accounts {
            hashing: Arc::new(Semaphore::new(workers)),
            groups: vec![Vec::new()],
            usernames: HashSet::new(),
            stand_in,
        })
    }

    /// The first of `base`, `base-2`, ... not given out yet in this run.
    fn next_free(usernames: &mut HashSet<String>, base: &str, n: &mut u32) -> String {
        loop {
            let candidate = numbered(base, *n);
            if usernames.insert(candidate.clone()) {
                return candidate;
            }
            *n = (*n).max(1) + 1;
        }
    }

    /// An account named after `name` in group `group`, with a new password
    /// whose hash is started now.
    fn plan(
        &mut self,
        group: usize,
        (league, team): (&str, &str),
        role: RoleKind,
        grant: Option<Grant>,
        name: &str,
    ) {
        let base = username_slug(name);
        let mut n = 1;
        let username = Accounts::next_free(&mut self.usernames, &base, &mut n);
        let password = new_password();
        let permits = Arc::clone(&self.hashing);
        let to_hash = password.clone();
        let hash = Hashing(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.map_err(|e| e.to_string())?;
            crate::web::auth::hash_password(to_hash)
                .await
                .map_err(|e| e.to_string())
        }));
        self.groups[group].push(PlannedAccount {
            account: DemoAccount {
                league: league.to_owned(),
                role,
                team: team.to_owned(),
                username,
                password,
            },
            base,
            n,
            grant,
            user: None,
            hash,
        });
    }

    /// The installation's administrator.
    pub fn administrator(&mut self) {
        let grant = Grant::Administrator;
        self.plan(0, ("", ""), grant.kind(), Some(grant), "admin");
    }

    /// A league's secretary and a captain's account for each of its teams,
    /// made now (the league's results name them), in a new group.
    pub async fn people(&mut self, db: &Db, plan: &LeaguePlan) -> Result<People, DemoError> {
        let short = plan.short_name.as_str();
        let group = self.groups.len();
        self.groups.push(Vec::new());
        let secretary = format!("sec-{short}");
        self.plan(group, (short, ""), RoleKind::Secretary, None, &secretary);
        for t in &plan.teams {
            let name = format!("cap-{short}-{}", t.name);
            self.plan(group, (short, &t.name), RoleKind::Captain, None, &name);
        }
        let Accounts {
            groups,
            usernames,
            stand_in,
            ..
        } = self;
        let mut ids = Vec::with_capacity(groups[group].len());
        for p in &mut groups[group] {
            let user = Accounts::make_user(db, usernames, p, stand_in).await?;
            p.user = Some(user);
            ids.push(user);
        }
        Ok(People {
            group,
            secretary: ids[0],
            captains: ids[1..].to_vec(),
        })
    }

    /// The roles of a league's `people` now that what they name is
    /// written, and [`PLAYER_ACCOUNTS`] of its players after them.
    pub fn plan_league(&mut self, people: &People, plan: &LeaguePlan, written: &Written) {
        let short = plan.short_name.as_str();
        let league = written.league;
        let group = &mut self.groups[people.group];
        group[0].grant = Some(Grant::Secretary(league));
        for (p, team) in group[1..].iter_mut().zip(&written.teams) {
            p.grant = Some(Grant::Captain(league, written.season, team.id));
        }
        for (team, member) in account_players(plan, written) {
            let grant = Grant::Player(league, member.id);
            let name = format!("player-{short}-{}", member.name);
            self.plan(
                people.group,
                (short, team),
                grant.kind(),
                Some(grant),
                &name,
            );
        }
    }

    /// Makes `p`'s user with `hash`; a username someone already has gets
    /// the next free `-n`.
    async fn make_user(
        db: &Db,
        usernames: &mut HashSet<String>,
        p: &mut PlannedAccount,
        hash: &str,
    ) -> Result<UserId, DemoError> {
        loop {
            match db.create_user(&p.account.username, hash).await {
                Ok(user) => return Ok(user.id),
                Err(DbError::Unique(_)) => {
                    p.n = p.n.max(1) + 1;
                    p.account.username = Accounts::next_free(usernames, &p.base, &mut p.n);
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Gives every account its password's hash (making those not made
    /// yet) and its role, in the order planned, as the hashes are ready.
    pub async fn create(self, db: &Db) -> Result<Vec<DemoAccount>, DemoError> {
        let Accounts {
            groups,
            mut usernames,
            ..
        } = self;
        let mut made = Vec::new();
        for mut p in groups.into_iter().flatten() {
            let hash = (&mut p.hash.0)
                .await
                .map_err(|e| DemoError::Accounts(format!("hashing task: {e}")))?
                .map_err(DemoError::Accounts)?;
            let user = match p.user {
                Some(user) => {
                    db.set_password_hash(user, &hash).await?;
                    user
                }
                None => Accounts::make_user(db, &mut usernames, &mut p, &hash).await?,
            };
            let grant = p.grant.ok_or_else(|| {
                DemoError::Accounts(format!("{}: no role to give", p.account.username))
            })?;
            db.grant_role(&grant.role(user), None).await?;
            made.push(p.account.clone());
        }
        Ok(made)
    }
}

/// The players given accounts: each from another team as far as the teams
/// go, and none a captain (the captain's account is the team's).
fn account_players<'a>(plan: &'a LeaguePlan, written: &'a Written) -> Vec<(&'a str, &'a Member)> {
    let mut out = Vec::new();
    let mut round = 0;
    loop {
        let mut found = false;
        for (t, team) in plan.teams.iter().zip(&written.teams) {
            let mut others = team
                .roster
                .iter()
                .filter(|m| !team.captains.contains(&m.id));
            let Some(member) = others.nth(round) else {
                continue;
            };
            found = true;
            out.push((t.name.as_str(), member));
            if out.len() == PLAYER_ACCOUNTS {
                return out;
            }
        }
        if !found {
            return out;
        }
        round += 1;
    }
}
