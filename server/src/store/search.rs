//! Full-text search (docs/FEATURES.md, "Tags and search"): each backend's own index
//! (SQLite FTS5, Postgres `tsvector` with GIN), kept by triggers in the same transaction
//! as every change.

use super::{Db, Result};

pub use sitecast_store_core::{SearchKind, SearchScope};

/// The ids of the best `limit` documents of `kind` holding every word as a word's
/// start, among those `scope` sees; best first.
pub async fn find<'a>(db: impl Into<Db<'a>>, kind: SearchKind, words: &[String], scope: &SearchScope<'_>, limit: i64) -> Result<Vec<String>> {
    backend!(db, search::find(kind, words, scope, limit))
}
