//! The SQL of backups and release checks: an online copy of a SQLite database, the
//! photos a copy refers to, and which migration a database is at.

use std::path::Path;

use sqlx::{Any, AnyPool, Executor};

use super::Result;

/// Writes a consistent copy of the whole SQLite database to `dest` (which must not
/// exist) while others keep reading and writing: `VACUUM INTO` reads one snapshot.
pub async fn vacuum_into(pool: &AnyPool, dest: &Path) -> Result<()> {
    // VACUUM INTO takes the file name as a literal, not a bound parameter.
    let quoted = dest.display().to_string().replace('\'', "''");
    sqlx::query(sqlx::AssertSqlSafe(format!("VACUUM INTO '{quoted}'"))).execute(pool).await?;
    Ok(())
}

/// Every photo's `(id, storage key)`.
pub async fn photo_keys<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as::<_, (String, String)>("SELECT id, storage_key FROM project_images").fetch_all(ex).await?)
}

/// Removes a photo's row (and, through the schema's cascades, its favourites and
/// comments) from a backup copy whose files were deleted while the copy was made.
pub async fn forget_photo<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<()> {
    sqlx::query("DELETE FROM project_images WHERE id = $1").bind(id).execute(ex).await?;
    Ok(())
}

/// The newest migration applied successfully (0 on an empty database).
pub async fn applied_migration(pool: &AnyPool) -> Result<i64> {
    match sqlx::query_scalar::<_, Option<i64>>("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
        .fetch_one(pool)
        .await
    {
        Ok(version) => Ok(version.unwrap_or(0)),
        // No migrations table yet: nothing was ever applied.
        Err(sqlx::Error::Database(_)) => Ok(0),
        Err(err) => Err(err.into()),
    }
}
