//! The SQL of backups and release checks: the photos a copy refers to, and which
//! migration a database is at. (The online file copy is SQLite's; a Postgres database
//! is backed up with pg_dump.)

use std::path::Path;

use sitecast_store_core::{applied_version, Result, StoreError};
use sqlx::PgConnection;

use crate::convert::{id as uid, text};

/// Whether the database answers a query (readiness).
pub async fn ping(c: &mut PgConnection) -> Result<()> {
    sqlx::query_scalar!("SELECT 1").fetch_one(&mut *c).await?;
    Ok(())
}

/// SQLite only: a Postgres database is backed up by its own tools.
pub async fn vacuum_into(_c: &mut PgConnection, _dest: &Path) -> Result<()> {
    Err(StoreError::Unsupported("a Postgres database is backed up with pg_dump"))
}

/// Every photo's `(id, storage key)`.
pub async fn photo_keys(c: &mut PgConnection) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query!("SELECT id, storage_key FROM project_images").fetch_all(&mut *c).await?;
    Ok(rows.into_iter().map(|r| (text(r.id), r.storage_key)).collect())
}

/// Removes a photo's row (and, through the schema's cascades, its favourites and
/// comments) from a backup copy whose files were deleted while the copy was made.
pub async fn forget_photo(c: &mut PgConnection, id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM project_images WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(())
}

/// The newest migration applied successfully (0 on an empty database).
pub async fn applied_migration(c: &mut PgConnection) -> Result<i64> {
    let table = &*crate::MIGRATIONS.table_name;
    // No migrations table yet: nothing was ever applied. Asked of the catalog (with
    // the search path the migrator uses) rather than read from a failed query, so that
    // any other error still surfaces, and a failed statement does not abort a
    // transaction this runs in.
    let present = sqlx::query_scalar!(r#"SELECT to_regclass($1) IS NOT NULL AS "present!""#, table)
        .fetch_one(&mut *c)
        .await?;
    if !present {
        return Ok(0);
    }
    applied_version(c, table).await
}
