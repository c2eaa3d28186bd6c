//! Argon2id password hashes, computed in a reused block of memory.
//!
//! Each hash needs 19 MiB of working memory. Letting the argon2 crate
//! allocate it per hash made the process grow by about that much with each
//! sign-in (the allocator kept the freed blocks), to some 650 MB after a
//! demo's accounts. Hashes here borrow a buffer from a small pool instead.

use std::sync::Mutex;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// Buffers kept for reuse: more hashes at once than this allocate their
/// own and drop them after.
const POOL: usize = 4;
static BUFFERS: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());

/// OWASP's recommended parameters: 19 MiB, 2 passes, 1 lane.
pub fn params() -> Params {
    Params::new(19 * 1024, 2, 1, None).expect("fixed, valid parameters")
}

/// Runs `f` with a zeroed memory of `blocks` blocks from the pool.
fn with_memory<T>(blocks: usize, f: impl FnOnce(&mut [Block]) -> T) -> T {
    let taken = BUFFERS.lock().ok().and_then(|mut pool| {
        pool.iter()
            .position(|b| b.len() == blocks)
            .map(|i| pool.swap_remove(i))
    });
    let mut memory = taken.unwrap_or_else(|| vec![Block::default(); blocks]);
    let out = f(&mut memory);
    // Nothing of a password stays in a buffer waiting in the pool.
    memory.iter_mut().for_each(|b| *b = Block::default());
    if let Ok(mut pool) = BUFFERS.lock()
        && pool.len() < POOL
    {
        pool.push(memory);
    }
    out
}

/// The raw hash of `password` with `salt` (its bytes) under `argon2`.
fn compute(
    argon2: &Argon2,
    params: &Params,
    password: &[u8],
    salt: &[u8],
    len: usize,
) -> Option<Output> {
    with_memory(params.block_count(), |memory| {
        Output::init_with(len, |out| {
            argon2
                .hash_password_into_with_memory(password, salt, out, memory)
                .map_err(|_| argon2::password_hash::Error::Crypto)
        })
        .ok()
    })
}

/// A new PHC-format hash of `password` with a random salt.
pub fn hash(password: &[u8]) -> Result<String, String> {
    let params = params();
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0u8; 64];
    let raw = salt
        .decode_b64(&mut salt_bytes)
        .map_err(|e| format!("salt: {e}"))?;
    let output = compute(&argon2, &params, password, raw, Params::DEFAULT_OUTPUT_LEN)
        .ok_or("argon2 failed")?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: params
            .clone()
            .try_into()
            .map_err(|e| format!("params: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the PHC-format `hash` (any argon2 variant
/// and parameters it names).
pub fn verify(password: &[u8], hash: &str) -> bool {
    let Ok(phc) = PasswordHash::new(hash) else {
        return false;
    };
    let (Ok(algorithm), Some(expected), Some(salt)) =
        (Algorithm::try_from(phc.algorithm), phc.hash, phc.salt)
    else {
        return false;
    };
    let version = match phc.version.map(Version::try_from) {
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
        None => Version::default(),
    };
    let Ok(params) = Params::try_from(&phc) else {
        return false;
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(raw) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let argon2 = Argon2::new(algorithm, version, params.clone());
    // Output's equality is constant-time.
    compute(&argon2, &params, password, raw, expected.len()).is_some_and(|out| out == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::PasswordVerifier;

    #[test]
    fn hashes_verify_here_and_with_the_argon2_crate_and_back() {
        let h = hash(b"correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify(b"correct horse", &h));
        assert!(!verify(b"correct horsE", &h));
        // The crate's own verifier agrees, and we read its hashes.
        let parsed = PasswordHash::new(&h).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        use argon2::PasswordHasher;
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8192, 1, 1, None).unwrap(),
        )
        .hash_password(b"pw", &salt)
        .unwrap()
        .to_string();
        assert!(verify(b"pw", &theirs));
        assert!(!verify(b"px", &theirs));
        assert!(!verify(b"pw", "not a hash"));
    }
}
