//! Drawn pairings (LEAGUE.md, "Match format"): who meets whom, drawn from
//! the two line-ups with a seed both captains see, so that anyone can do
//! the draw again by hand or in a few lines of code and get the same.
//!
//! The draw, in full (what the team sheet prints under "how to check"):
//!
//! 1. The seed is the text shown (e.g. `K7QM-3XPA`). Its SHA-256, read as
//!    the first 8 bytes big-endian, starts a SplitMix64 generator
//!    (Steele, Lea and Flood 2014; the same as `rules::simulate::Rng`).
//! 2. The line-ups, as each captain set them, are shuffled in this order:
//!    the home singles, the away singles, the home pairs, the away pairs;
//!    each by Fisher-Yates from the last place down, swapping place `i`
//!    with place `j = (next * (i + 1)) >> 64` (a 128-bit product).
//! 3. The k-th singles board is the k-th home singles player against the
//!    k-th away singles player after the shuffle; likewise the pairs.
//!
//! The draw depends on nothing but the seed and the two line-ups: the same
//! seed gives the same draw.

use sha2::{Digest, Sha256};

use crate::rules::simulate::Rng;

/// Where each line-up's entries go after the draw: `singles[k]` is the
/// index, in the captain's order, of the player on the k-th singles board.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideOrder {
    pub singles: Vec<usize>,
    pub pairs: Vec<usize>,
}

/// A fixture's drawn pairings: the seed, and each side's order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Drawn {
    pub seed: String,
    pub home: SideOrder,
    pub away: SideOrder,
}

/// The generator the draw uses, started from `seed` as step 1 says.
pub fn generator(seed: &str) -> Rng {
    let hash = Sha256::digest(seed.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    Rng::new(u64::from_be_bytes(first))
}

/// The draw for `singles` singles boards and `pairs` pairs boards with
/// `seed` (step 2).
pub fn draw(seed: &str, singles: usize, pairs: usize) -> Drawn {
    let mut rng = generator(seed);
    let mut order = |n: usize| {
        let mut v: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut v);
        v
    };
    let home_singles = order(singles);
    let away_singles = order(singles);
    let home_pairs = order(pairs);
    let away_pairs = order(pairs);
    Drawn {
        seed: seed.to_owned(),
        home: SideOrder {
            singles: home_singles,
            pairs: home_pairs,
        },
        away: SideOrder {
            singles: away_singles,
            pairs: away_pairs,
        },
    }
}

/// `items` in the drawn `order` (step 3); an index past the end is left
/// out (a line-up shorter than the draw cannot occur: both are of the
/// format's boards).
pub fn arrange<T: Clone>(items: &[T], order: &[usize]) -> Vec<T> {
    order
        .iter()
        .filter_map(|&i| items.get(i).cloned())
        .collect()
}

/// A seed nobody chose: eight letters and digits, easy to read out
/// (no 0/O, 1/I), from `random` bits.
pub fn seed_from(random: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bits = random;
    let mut out = String::with_capacity(9);
    for i in 0..8 {
        if i == 4 {
            out.push('-');
        }
        out.push(ALPHABET[(bits % 32) as usize] as char);
        bits /= 32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_and_another_seed_another() {
        let a = draw("K7QM-3XPA", 6, 3);
        assert_eq!(a, draw("K7QM-3XPA", 6, 3));
        let b = draw("K7QM-3XPB", 6, 3);
        assert_ne!(a, b, "one character of the seed changes the draw");
        for side in [&a.home, &a.away, &b.home, &b.away] {
            let mut s = side.singles.clone();
            s.sort_unstable();
            assert_eq!(s, (0..6).collect::<Vec<_>>(), "a permutation");
            let mut p = side.pairs.clone();
            p.sort_unstable();
            assert_eq!(p, vec![0, 1, 2]);
        }
    }

    #[test]
    fn the_draw_is_the_documented_one() {
        // Step 1 by hand: the first 8 bytes of SHA-256("seed").
        let hash = Sha256::digest(b"seed");
        let state = u64::from_be_bytes(hash[..8].try_into().unwrap());
        let mut rng = Rng::new(state);
        let mut home: Vec<usize> = (0..4).collect();
        for i in (1..4usize).rev() {
            let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
            home.swap(i, j);
        }
        assert_eq!(draw("seed", 4, 0).home.singles, home);
    }

    #[test]
    fn arranging_a_line_up_and_seeds() {
        assert_eq!(arrange(&["a", "b", "c"], &[2, 0, 1]), vec!["c", "a", "b"]);
        assert_eq!(seed_from(0), "AAAA-AAAA");
        let s = seed_from(u64::MAX);
        assert_eq!(s.len(), 9);
        assert!(s.chars().all(|c| c == '-' || c.is_ascii_alphanumeric()));
        assert_ne!(seed_from(1), seed_from(2));
    }
}
