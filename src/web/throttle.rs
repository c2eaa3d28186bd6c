//! The sign-in throttle: guessing at passwords is slowed and capped, but
//! the innocent are not locked out.
//!
//! - An account from one address has [`PAIR_LIMIT`] attempts a window: a
//!   guesser at one account from one place is stopped there, and nobody
//!   else is.
//! - An account from every address together has [`ACCOUNT_LIMIT`]: guessing
//!   spread over many addresses is capped too.
//! - An address is never locked: past [`ADDRESS_FREE`] attempts its
//!   attempts are spaced [`ADDRESS_SPACING`] apart, each waiting for the
//!   next free moment (refused only when that is more than
//!   [`ADDRESS_MAX_WAIT`] away). A pub's shared Wi-Fi or a NAT slows a
//!   guesser behind it; the others behind it still get in.
//! - A browser that has signed in as an account before is trusted for it
//!   (a random token in a long-lived cookie, its hash in the database): its
//!   attempts count against itself alone ([`DEVICE_LIMIT`]), so a user
//!   whose password is right, on a device that did not fail, gets in
//!   whatever others are trying against the account or from the address.
//!
//! Every attempt is reserved before its password is checked and given back
//! when it succeeds, in the database that every app server shares: however
//! many arrive at once, no more passwords are checked than the limits
//! allow.

use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue};
use chrono::{DateTime, TimeDelta, Utc};
use sha2::{Digest, Sha256};

use crate::db::throttle::FailureCount;
use crate::db::{Db, Result as DbResult, UserId};

use super::csrf;

/// Attempts of an account from one address in a window.
pub const PAIR_LIMIT: i64 = 5;
/// Attempts of an account from every address together in a window, from
/// browsers it does not trust.
pub const ACCOUNT_LIMIT: i64 = 20;
/// Attempts of a trusted browser at its account in a window.
pub const DEVICE_LIMIT: i64 = 5;
/// Attempts from one address in a window before they are spaced.
pub const ADDRESS_FREE: i64 = 20;
/// Time between an address's attempts once they are spaced.
pub const ADDRESS_SPACING: Duration = Duration::from_secs(2);
/// Longest an attempt waits for its moment; beyond it, it is refused.
pub const ADDRESS_MAX_WAIT: Duration = Duration::from_secs(10);
/// How long a count lasts from its first attempt.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// How long a browser stays trusted after it last signed in.
pub const TRUST_DAYS: i64 = 365;
/// The cookie a browser's trust token travels in.
pub const DEVICE_COOKIE: &str = "boneyard_device";

/// Messages a stranger may cause to one address in a window, whatever
/// kind (an address's verification, a sign-in link, a reset, the
/// round-up's confirmation) and whoever asks: a mailbox is not flooded.
pub const MAIL_PER_RECIPIENT: i64 = 3;
/// Messages one client (an address, or a signed-in account) may cause to
/// be sent in a window, to any addresses: the forms cannot be used to mail
/// many people.
pub const MAIL_PER_CLIENT: i64 = 10;

/// An address as the mail limits count it: `Victim@T.test` and
/// `victim@t.test` are one mailbox to everyone who matters.
pub fn normalised_address(email: &str) -> String {
    email.trim().trim_end_matches('.').to_lowercase()
}

/// What a key allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// This many attempts a window, then none until the window ends.
    Limit(i64),
    /// This many attempts a window freely, then spaced.
    Slow {
        free: i64,
        spacing: Duration,
        max_wait: Duration,
    },
}

/// An attempt allowed: each key's next free moment (None: not spaced),
/// and how long the attempt waits for its own.
pub type Allowed = (Vec<Option<DateTime<Utc>>>, Duration);

/// The policy on the keys' counts at `now`: what an allowed attempt books
/// and waits, or how long until one may be made.
pub fn decide(
    rules: &[Rule],
    counts: &[Option<FailureCount>],
    now: DateTime<Utc>,
) -> Result<Allowed, Duration> {
    let window = TimeDelta::from_std(WINDOW).expect("a window fits");
    let mut next = Vec::with_capacity(rules.len());
    let mut wait = Duration::ZERO;
    for (rule, count) in rules.iter().zip(counts) {
        let failures = count.as_ref().map_or(0, |c| c.failures);
        match *rule {
            Rule::Limit(limit) => {
                if failures >= limit {
                    let first = count.as_ref().map_or(now, |c| c.first_at);
                    return Err((first + window - now).to_std().unwrap_or(Duration::ZERO));
                }
                next.push(None);
            }
            Rule::Slow {
                free,
                spacing,
                max_wait,
            } => {
                if failures < free {
                    next.push(count.as_ref().and_then(|c| c.next_at));
                    continue;
                }
                let slot = count
                    .as_ref()
                    .and_then(|c| c.next_at)
                    .map_or(now, |at| at.max(now));
                let until = (slot - now).to_std().unwrap_or(Duration::ZERO);
                if until > max_wait {
                    return Err(until - max_wait);
                }
                wait = wait.max(until);
                next.push(Some(slot + TimeDelta::from_std(spacing).expect("fits")));
            }
        }
    }
    Ok((next, wait))
}

/// A browser's trust token as the database keeps it.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The trust token the request's browser carries, if any.
pub fn device_token(headers: &HeaderMap) -> Option<String> {
    super::request_cookie(headers, DEVICE_COOKIE)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_owned)
}

/// The `Set-Cookie` giving a browser a new trust token.
pub fn device_cookie(token: &str, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{DEVICE_COOKIE}={token}; Max-Age={}; Path=/; HttpOnly; SameSite=Lax{secure}",
        TRUST_DAYS * 24 * 3600
    ))
    .expect("hex digits and ASCII are a header value")
}

/// Who is trying: the account typed, the address, and the browser's trust
/// in that account.
pub struct Attempt {
    keys: Vec<String>,
    rules: Vec<Rule>,
    /// Forgotten on success (the account's own counts).
    forget: Vec<String>,
    /// Given one attempt back on success (the address).
    refund: Vec<String>,
}

impl Attempt {
    /// An attempt at `account` from `address`, by a browser that `trusted`
    /// (the account's id, when its token is trusted for it) or not.
    pub fn new(account: &str, address: &str, trusted: Option<(&str, UserId)>) -> Attempt {
        let account = account_key(account);
        match trusted {
            Some((hash, user)) => {
                let device = format!("device:{hash}:{}", user.0);
                Attempt {
                    keys: vec![device.clone()],
                    rules: vec![Rule::Limit(DEVICE_LIMIT)],
                    forget: vec![device],
                    refund: vec![],
                }
            }
            None => {
                let pair = format!("{account}@{address}");
                let address = format!("address:{address}");
                Attempt {
                    keys: vec![pair.clone(), account.clone(), address.clone()],
                    rules: vec![
                        Rule::Limit(PAIR_LIMIT),
                        Rule::Limit(ACCOUNT_LIMIT),
                        Rule::Slow {
                            free: ADDRESS_FREE,
                            spacing: ADDRESS_SPACING,
                            max_wait: ADDRESS_MAX_WAIT,
                        },
                    ],
                    forget: vec![pair, account],
                    refund: vec![address],
                }
            }
        }
    }

    /// A message a stranger asks to be sent to `recipient`, by each of
    /// `clients` (the client's network address, and the account when
    /// signed in): limited per recipient and per client
    /// ([`MAIL_PER_RECIPIENT`], [`MAIL_PER_CLIENT`]); never given back.
    pub fn mail(recipient: &str, clients: &[&str]) -> Attempt {
        let mut keys = vec![format!("mail-to:{}", normalised_address(recipient))];
        let mut rules = vec![Rule::Limit(MAIL_PER_RECIPIENT)];
        for client in clients {
            keys.push(format!("mail-from:{client}"));
            rules.push(Rule::Limit(MAIL_PER_CLIENT));
        }
        Attempt {
            keys,
            rules,
            forget: vec![],
            refund: vec![],
        }
    }

    /// Takes one attempt: `Ok(wait)`, to be waited before the password is
    /// checked, or `Err(retry)` when there is none now, with how long until
    /// there is.
    pub async fn reserve(&self, db: &Db) -> DbResult<Result<Duration, Duration>> {
        let now = Utc::now();
        let since = now - TimeDelta::from_std(WINDOW).expect("a window fits");
        let keys: Vec<&str> = self.keys.iter().map(String::as_str).collect();
        let mut wait = Duration::ZERO;
        let reserved = db
            .reserve_sign_in_attempt(&keys, now, since, |counts| {
                decide(&self.rules, counts, now).map(|(next, w)| {
                    wait = w;
                    next
                })
            })
            .await?;
        Ok(reserved.map(|()| wait))
    }

    /// The attempt signed in: the account's counts are forgotten and the
    /// address gets its attempt back.
    pub async fn succeeded(&self, db: &Db) -> DbResult<()> {
        let forget: Vec<&str> = self.forget.iter().map(String::as_str).collect();
        let refund: Vec<&str> = self.refund.iter().map(String::as_str).collect();
        db.refund_sign_in_attempt(&forget, &refund).await
    }
}

/// Whether the browser's token is trusted for `user` now.
pub async fn trusted(db: &Db, token: Option<&str>, user: UserId) -> DbResult<Option<String>> {
    let Some(token) = token else {
        return Ok(None);
    };
    let hash = token_hash(token);
    let since = Utc::now() - TimeDelta::days(TRUST_DAYS);
    Ok(db
        .is_trusted_device(&hash, user, since)
        .await?
        .then_some(hash))
}

/// Trusts the browser for `user` after it signed in: its own token, or a
/// new one to be sent in the returned `Set-Cookie`.
pub async fn trust(
    db: &Db,
    token: Option<&str>,
    user: UserId,
    secure: bool,
) -> DbResult<Option<HeaderValue>> {
    let (token, cookie) = match token {
        Some(t) => (t.to_owned(), None),
        None => {
            let t = csrf::random_token();
            let cookie = device_cookie(&t, secure);
            (t, Some(cookie))
        }
    };
    db.trust_device(&token_hash(&token), user).await?;
    Ok(cookie)
}

/// Usernames have at most 40 characters; whatever else was typed is
/// counted under its first 41, so no sign-in can store a long key.
fn account_key(account: &str) -> String {
    let name: String = account.trim().to_lowercase().chars().take(41).collect();
    format!("account:{name}")
}

#[cfg(test)]
mod tests {
    use axum::http::header;

    use super::*;

    fn at(seconds: i64) -> DateTime<Utc> {
        "2026-11-24T20:00:00Z".parse::<DateTime<Utc>>().unwrap() + TimeDelta::seconds(seconds)
    }

    fn count(failures: i64, first: i64, next: Option<i64>) -> Option<FailureCount> {
        Some(FailureCount {
            key: "k".into(),
            failures,
            first_at: at(first),
            next_at: next.map(at),
        })
    }

    const SLOW: Rule = Rule::Slow {
        free: 20,
        spacing: Duration::from_secs(2),
        max_wait: Duration::from_secs(10),
    };

    #[test]
    fn account_keys_are_short_and_ignore_case() {
        assert_eq!(account_key(" Alice "), "account:alice");
        assert_eq!(
            account_key(&"x".repeat(100_000)).len(),
            "account:".len() + 41
        );
    }

    #[test]
    fn a_limit_refuses_until_its_window_ends() {
        let rules = [Rule::Limit(5)];
        assert!(decide(&rules, &[None], at(0)).is_ok());
        assert!(decide(&rules, &[count(4, 0, None)], at(10)).is_ok());
        let refused = decide(&rules, &[count(5, 0, None)], at(60));
        assert_eq!(refused, Err(WINDOW - Duration::from_secs(60)));
    }

    #[test]
    fn an_address_is_spaced_not_locked() {
        // Under its free attempts: no wait, nothing spaced.
        assert_eq!(
            decide(&[SLOW], &[count(19, 0, None)], at(5)),
            Ok((vec![None], Duration::ZERO))
        );
        // Past them: the first spaced attempt goes now and books the next.
        assert_eq!(
            decide(&[SLOW], &[count(20, 0, None)], at(5)),
            Ok((vec![Some(at(7))], Duration::ZERO))
        );
        // One arriving before its moment waits for it.
        assert_eq!(
            decide(&[SLOW], &[count(21, 0, Some(7))], at(6)),
            Ok((vec![Some(at(9))], Duration::from_secs(1)))
        );
        // Hundreds of failures later an address still gets its turn.
        assert_eq!(
            decide(&[SLOW], &[count(500, 0, Some(3))], at(100)),
            Ok((vec![Some(at(102))], Duration::ZERO))
        );
        // Only a queue more than the longest wait long refuses, briefly.
        assert_eq!(
            decide(&[SLOW], &[count(40, 0, Some(20))], at(6)),
            Err(Duration::from_secs(4))
        );
    }

    #[test]
    fn any_refusing_key_refuses_and_the_longest_wait_counts() {
        let rules = [Rule::Limit(5), SLOW];
        assert!(decide(&rules, &[count(5, 0, None), None], at(1)).is_err());
        assert_eq!(
            decide(&rules, &[count(1, 0, None), count(25, 0, Some(4))], at(1)),
            Ok((vec![None, Some(at(6))], Duration::from_secs(3)))
        );
    }

    #[test]
    fn a_trusted_browser_counts_against_itself_only() {
        let trusted = Attempt::new("Alice", "10.0.0.1", Some(("ab", UserId(7))));
        assert_eq!(trusted.keys, vec!["device:ab:7"]);
        let stranger = Attempt::new("Alice", "10.0.0.1", None);
        assert_eq!(
            stranger.keys,
            vec![
                "account:alice@10.0.0.1",
                "account:alice",
                "address:10.0.0.1"
            ]
        );
        assert_eq!(stranger.refund, vec!["address:10.0.0.1"]);
    }

    #[test]
    fn mail_is_counted_per_mailbox_whatever_the_case() {
        let a = Attempt::mail(" Victim@T.test", &["10.0.0.1", "user:7"]);
        let b = Attempt::mail("victim@t.test", &["10.0.0.2"]);
        assert_eq!(a.keys[0], b.keys[0]);
        assert_eq!(
            a.keys,
            vec![
                "mail-to:victim@t.test",
                "mail-from:10.0.0.1",
                "mail-from:user:7"
            ]
        );
    }

    #[test]
    fn only_a_well_formed_token_is_read() {
        let mut h = HeaderMap::new();
        let token = "a".repeat(64);
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("boneyard=x; {DEVICE_COOKIE}={token}")).unwrap(),
        );
        assert_eq!(device_token(&h), Some(token));
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{DEVICE_COOKIE}=zz")).unwrap(),
        );
        assert_eq!(device_token(&h), None);
    }
}
