//! Parts of pages that more than one route group shows, built in one
//! place so the groups never import one another.

pub mod bracket;
pub mod mail_log;
pub mod next_match;
pub mod words;
