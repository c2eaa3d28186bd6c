//! One-tap answer links (LEAGUE.md, "The team sheet"): a link emailed to a
//! player lets them say whether they can play in one fixture without
//! signing in. It carries the league, fixture, player and expiry, signed
//! with HMAC-SHA256 under the installation's link key, so it cannot be
//! made for another player or fixture, nor used after the night.
//!
//! Token: `{fixture}-{player}-{expires (unix seconds)}-{mac}`, the MAC the
//! first 128 bits (hex) of HMAC-SHA256(key, `answer:{league}:{fixture}:
//! {player}:{expires}`).

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::db::{FixtureId, LeagueId, PlayerId};

/// How long after a fixture's start its links keep working: the night.
pub const AFTER_START: Duration = Duration::hours(12);

/// What a valid token names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerLink {
    pub fixture: FixtureId,
    pub player: PlayerId,
    pub expires: DateTime<Utc>,
}

fn mac(key: &str, league: LeagueId, fixture: FixtureId, player: PlayerId, expires: i64) -> String {
    // A key of any length is taken: HMAC hashes a long one.
    let mut m = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC takes any key length");
    m.update(format!("answer:{}:{}:{}:{expires}", league.0, fixture.0, player.0).as_bytes());
    m.finalize().into_bytes()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The token for `player` in `fixture`, working until `expires`.
pub fn sign(
    key: &str,
    league: LeagueId,
    fixture: FixtureId,
    player: PlayerId,
    expires: DateTime<Utc>,
) -> String {
    let e = expires.timestamp();
    format!(
        "{}-{}-{e}-{}",
        fixture.0,
        player.0,
        mac(key, league, fixture, player, e)
    )
}

/// Why a token is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadLink {
    /// Not a token this league signed (typed wrong, made up, another
    /// league's).
    Forged,
    /// Signed, but after its night.
    Expired,
}

/// The token read and checked against `key` for `league` at `now`.
pub fn verify(
    key: &str,
    league: LeagueId,
    token: &str,
    now: DateTime<Utc>,
) -> Result<AnswerLink, BadLink> {
    let parts: Vec<&str> = token.split('-').collect();
    let [fixture, player, expires, given] = parts[..] else {
        return Err(BadLink::Forged);
    };
    let (Ok(fixture), Ok(player), Ok(expires)) = (
        fixture.parse::<i64>(),
        player.parse::<i64>(),
        expires.parse::<i64>(),
    ) else {
        return Err(BadLink::Forged);
    };
    let (fixture, player) = (FixtureId(fixture), PlayerId(player));
    let want = mac(key, league, fixture, player, expires);
    // Compared in constant time: a forger learns nothing from timing.
    let same = want.len() == given.len()
        && want
            .bytes()
            .zip(given.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return Err(BadLink::Forged);
    }
    let expires = DateTime::from_timestamp(expires, 0).ok_or(BadLink::Forged)?;
    if now > expires {
        return Err(BadLink::Expired);
    }
    Ok(AnswerLink {
        fixture,
        player,
        expires,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_for_its_player_fixture_and_night_only() {
        let (league, fixture, player) = (LeagueId(1), FixtureId(6), PlayerId(4));
        let now: DateTime<Utc> = "2026-09-01T12:00:00Z".parse().unwrap();
        let expires = now + Duration::days(3);
        let t = sign("key", league, fixture, player, expires);
        assert_eq!(
            verify("key", league, &t, now),
            Ok(AnswerLink {
                fixture,
                player,
                expires
            })
        );
        assert_eq!(
            verify("key", league, &t, expires + Duration::seconds(1)),
            Err(BadLink::Expired)
        );
        assert_eq!(verify("other key", league, &t, now), Err(BadLink::Forged));
        assert_eq!(verify("key", LeagueId(2), &t, now), Err(BadLink::Forged));
        // Another player's id put in the token breaks the signature.
        let other = t.replacen("6-4-", "6-5-", 1);
        assert_eq!(verify("key", league, &other, now), Err(BadLink::Forged));
        // A later expiry too.
        let later = t.replace(
            &expires.timestamp().to_string(),
            &(expires.timestamp() + 86_400).to_string(),
        );
        assert_eq!(verify("key", league, &later, now), Err(BadLink::Forged));
        assert_eq!(verify("key", league, "rubbish", now), Err(BadLink::Forged));
        assert_eq!(verify("key", league, "1-2-3-", now), Err(BadLink::Forged));
    }

    #[test]
    fn hmac_is_the_rfc_4231_one() {
        // RFC 4231, test case 2.
        let mut m = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        m.update(b"what do ya want for nothing?");
        let hex: String = m
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
