//! The SQL of backups and release checks: an online copy of a SQLite database, the
//! photos a copy refers to, and which migration a database is at.

use std::path::Path;

use sitecast_store_core::{applied_version, Result, StoreError};
use sqlx::SqliteConnection;

/// Whether the database answers a query (readiness).
pub async fn ping(c: &mut SqliteConnection) -> Result<()> {
    sqlx::query_scalar!("SELECT 1").fetch_one(c).await?;
    Ok(())
}

/// Writes a consistent copy of the whole SQLite database to `dest` (which must not
/// exist) while others keep reading and writing: `VACUUM INTO` reads one snapshot.
pub async fn vacuum_into(c: &mut SqliteConnection, dest: &Path) -> Result<()> {
    // VACUUM INTO takes any expression that evaluates to the file name, so the path
    // is bound, never quoted into the SQL. It is bound as text: a path that is not
    // UTF-8 would name some other file, so it is refused instead.
    let Some(dest) = dest.to_str() else {
        return Err(StoreError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("backup path is not UTF-8: {}", dest.display()),
        )));
    };
    sqlx::query!("VACUUM INTO $1", dest).execute(c).await?;
    Ok(())
}

/// Every photo's `(id, storage key)`.
pub async fn photo_keys(c: &mut SqliteConnection) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query!(r#"SELECT id AS "id!", storage_key FROM project_images"#)
        .fetch_all(c)
        .await?;
    Ok(rows.into_iter().map(|r| (r.id, r.storage_key)).collect())
}

/// Removes a photo's row (and, through the schema's cascades, its favourites and
/// comments) from a backup copy whose files were deleted while the copy was made.
pub async fn forget_photo(c: &mut SqliteConnection, id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM project_images WHERE id = $1", id).execute(c).await?;
    Ok(())
}

/// The newest migration applied successfully (0 on an empty database).
pub async fn applied_migration(c: &mut SqliteConnection) -> Result<i64> {
    let table = &*crate::MIGRATIONS.table_name;
    // No migrations table yet: nothing was ever applied. Asked of the schema rather
    // than read from a failed query, so that any other error still surfaces.
    let present = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1) AS "present!: bool""#,
        table
    )
    .fetch_one(&mut *c)
    .await?;
    if !present {
        return Ok(0);
    }
    applied_version(c, table).await
}
