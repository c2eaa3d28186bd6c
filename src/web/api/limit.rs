//! A per-client rate limit for the API: a token bucket per address (the
//! socket's peer, or behind a proxy the address it forwarded), so a script
//! polling in a loop cannot take the server from the pubs entering their
//! results. Kept in memory: a limit per app server is enough for this.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Requests a client may make at once.
pub const BURST: f64 = 300.0;
/// Requests a second a client may keep making.
pub const PER_SECOND: f64 = 5.0;
/// Most clients remembered: past it the buckets start again full (a flood
/// of addresses must not grow the map without end).
const MOST_CLIENTS: usize = 50_000;

#[derive(Clone, Default)]
pub struct Limiter {
    buckets: Arc<Mutex<HashMap<String, (f64, Instant)>>>,
}

impl Limiter {
    /// Takes one request from `client`'s bucket: `Ok`, or the seconds to
    /// wait for the next one.
    pub fn take(&self, client: &str, now: Instant) -> Result<(), u64> {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() > MOST_CLIENTS {
            buckets.clear();
        }
        let (tokens, at) = buckets.entry(client.to_owned()).or_insert((BURST, now));
        let refilled = (*tokens + now.duration_since(*at).as_secs_f64() * PER_SECOND).min(BURST);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            Ok(())
        } else {
            *tokens = refilled;
            Err(((1.0 - refilled) / PER_SECOND).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_client_has_its_burst_then_waits_for_the_refill() {
        let limiter = Limiter::default();
        let start = Instant::now();
        for _ in 0..BURST as usize {
            assert!(limiter.take("a", start).is_ok());
        }
        assert_eq!(limiter.take("a", start), Err(1));
        assert!(
            limiter.take("b", start).is_ok(),
            "another client is not held"
        );
        let later = start + Duration::from_secs_f64(1.0 / PER_SECOND);
        assert!(limiter.take("a", later).is_ok());
    }
}
