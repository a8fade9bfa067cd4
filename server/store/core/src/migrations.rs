//! What a database's migrations table says, read the same way on every backend.

use sqlx::migrate::{Migrate, MigrateError};

use crate::{Result, StoreError};

/// The newest migration applied successfully, from sqlx's migrations table `table`
/// (which the caller has checked exists). The table is sqlx's, created by the migrator
/// at run time: it is not in the schema the query macros check against, so it is read
/// through sqlx's own migration interface rather than a checked query. A version
/// recorded as failed (success = false) does not count, nor anything after it: sqlx
/// names only the lowest failed version, and applies nothing past one.
pub async fn applied_version<C: Migrate + ?Sized>(c: &mut C, table: &str) -> Result<i64> {
    let applied = c.list_applied_migrations(table).await.map_err(migrate_error)?;
    let dirty = c.dirty_version(table).await.map_err(migrate_error)?;
    Ok(applied
        .iter()
        .map(|m| m.version)
        .filter(|v| dirty.is_none_or(|d| *v < d))
        .max()
        .unwrap_or(0))
}

/// A database error met while reading the migrations table is the store's usual
/// database error (unique violations and all), not a migration failure.
fn migrate_error(err: MigrateError) -> StoreError {
    match err {
        MigrateError::Execute(err) => err.into(),
        other => other.into(),
    }
}
