//! Helpers the benchmarks share: settings from the environment and the
//! app's addresses spelt as the app spells them.

pub fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Names and short names spelt in addresses as the app spells them.
pub use boneyard::addresses::{slug, urlencode as encode};
