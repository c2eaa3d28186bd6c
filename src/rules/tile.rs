//! Tiles of a double-six set and their ranking in the draw for pose.

use std::fmt;
use std::str::FromStr;

/// The highest pip count on one half of a double-six tile.
pub const MAX_PIPS: u8 = 6;
/// Pips in a whole double-six set: a player's count can never exceed it.
pub const SET_PIPS: u32 = 168;

/// A tile, stored with its higher half first so `1-6` and `6-1` are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile {
    high: u8,
    low: u8,
}

impl Tile {
    /// A tile from its two halves, in either order; `None` past double six.
    pub fn new(a: u8, b: u8) -> Option<Tile> {
        if a > MAX_PIPS || b > MAX_PIPS {
            return None;
        }
        Some(Tile {
            high: a.max(b),
            low: a.min(b),
        })
    }

    pub fn high(self) -> u8 {
        self.high
    }

    pub fn low(self) -> u8 {
        self.low
    }

    pub fn pips(self) -> u32 {
        u32::from(self.high) + u32::from(self.low)
    }

    pub fn is_double(self) -> bool {
        self.high == self.low
    }

    /// The draw's ranking: total pips, then the higher half. No two tiles
    /// share a key, so the draw never ties.
    pub fn rank(self) -> (u32, u8) {
        (self.pips(), self.high)
    }

    /// The 28 tiles of a double-six set.
    pub fn set() -> impl Iterator<Item = Tile> {
        (0..=MAX_PIPS).flat_map(|h| (0..=h).map(move |l| Tile { high: h, low: l }))
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.high, self.low)
    }
}

/// Why a tile's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a double-six tile (write it like `6-1` or `3-3`)")]
pub struct BadTile(pub String);

impl FromStr for Tile {
    type Err = BadTile;

    fn from_str(s: &str) -> Result<Tile, BadTile> {
        let bad = || BadTile(s.to_owned());
        let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
        let half = |t: &str| match t.trim().as_bytes() {
            [d @ b'0'..=b'6'] => Some(d - b'0'),
            _ => None,
        };
        Tile::new(half(a).ok_or_else(bad)?, half(b).ok_or_else(bad)?).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn halves_in_either_order_are_one_tile() {
        assert_eq!(t("1-6"), t("6-1"));
        assert_eq!(t("6-1").to_string(), "6-1");
    }

    #[test]
    fn ranking_follows_rules_md() {
        let order = [
            "6-6", "6-5", "6-4", "5-5", "6-3", "5-4", "6-1", "5-2", "4-3", "3-1", "2-2", "0-0",
        ];
        for pair in order.windows(2) {
            assert!(t(pair[0]).rank() > t(pair[1]).rank(), "{pair:?}");
        }
    }

    #[test]
    fn a_set_has_28_distinct_ranks_and_168_pips() {
        let tiles: Vec<Tile> = Tile::set().collect();
        assert_eq!(tiles.len(), 28);
        let mut ranks: Vec<_> = tiles.iter().map(|t| t.rank()).collect();
        ranks.sort();
        ranks.dedup();
        assert_eq!(ranks.len(), 28);
        assert_eq!(tiles.iter().map(|t| t.pips()).sum::<u32>(), SET_PIPS);
    }

    #[test]
    fn nonsense_is_refused() {
        for s in ["", "7-1", "6", "6-", "a-b", "6-1-2", "-1-2", "66-1"] {
            assert!(s.parse::<Tile>().is_err(), "{s}");
        }
    }
}
