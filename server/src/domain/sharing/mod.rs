//! What leaves a project's members: guest links, progress reports and their links,
//! and search, which reads every context a person may see (docs/FEATURES.md, "The
//! project's story", "Progress reports", "Tags and search").

pub mod guests;
pub mod reports;
pub mod search;
mod stored;
