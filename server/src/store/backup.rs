//! The SQL of backups and release checks: an online copy of a SQLite database, the
//! photos a copy refers to, and which migration a database is at.

use std::path::Path;

use super::{Db, Result};

/// Whether the database answers a query (readiness).
pub async fn ping<'a>(db: impl Into<Db<'a>>) -> Result<()> {
    backend!(db, backup::ping())
}

/// Writes a consistent copy of the whole SQLite database to `dest` (which must not
/// exist) while others keep reading and writing: `VACUUM INTO` reads one snapshot.
/// SQLite only: a Postgres database is backed up by its own tools.
pub async fn vacuum_into<'a>(db: impl Into<Db<'a>>, dest: &Path) -> Result<()> {
    backend!(db, backup::vacuum_into(dest))
}

/// Every photo's `(id, storage key)`.
pub async fn photo_keys<'a>(db: impl Into<Db<'a>>) -> Result<Vec<(String, String)>> {
    backend!(db, backup::photo_keys())
}

/// Removes a photo's row (and, through the schema's cascades, its favourites and
/// comments) from a backup copy whose files were deleted while the copy was made.
pub async fn forget_photo<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<()> {
    backend!(db, backup::forget_photo(id))
}

/// The newest migration applied successfully (0 on an empty database).
pub async fn applied_migration<'a>(db: impl Into<Db<'a>>) -> Result<i64> {
    backend!(db, backup::applied_migration())
}
