//! The page generation: one number that every write transaction raises
//! (see `write_tx!`), so that a rendered page kept under the generation
//! read before it was rendered is known to be current while the number
//! stands. One row, one cheap read; shared by every app server on the
//! database, so a write through any of them is seen by all.

use super::{Db, Result, read_pool};

/// Raises the generation: run by `write_tx!` on its transaction, last thing
/// before it commits (so the row's lock is held only for the commit).
pub(crate) const RAISE: &str =
    "UPDATE page_generation SET generation = generation + 1 WHERE id = 1";

impl Db {
    /// The generation now: it changes whenever anything a page may show
    /// does (and sometimes when nothing does).
    pub async fn page_generation(&self) -> Result<i64> {
        read_pool!(self, pool => {
            Ok(sqlx::query_scalar::<_, i64>("SELECT generation FROM page_generation WHERE id = 1")
                .fetch_one(pool)
                .await?)
        })
    }
}
