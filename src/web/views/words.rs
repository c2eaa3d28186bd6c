//! Lists in words: the use cases' (`app::words`), as pages put them too.

pub use crate::app::words::and_list;
