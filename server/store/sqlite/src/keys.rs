//! Keys the server signs with, stored once for every instance to share.

use sitecast_store_core::Result;
use sqlx::SqliteConnection;

/// Read first, so that once the key exists this never writes (it is called inside
/// other writers' transactions on SQLite's single writer); the first instance to
/// insert wins, the others read what it stored.
pub async fn get_or_create(c: &mut SqliteConnection, name: &str, fresh: &str) -> Result<String> {
    if let Some(value) = sqlx::query_scalar!("SELECT value FROM server_keys WHERE name = $1", name)
        .fetch_optional(&mut *c)
        .await?
    {
        return Ok(value);
    }
    sqlx::query!(
        "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        name,
        fresh,
    )
    .execute(&mut *c)
    .await?;
    Ok(sqlx::query_scalar!("SELECT value FROM server_keys WHERE name = $1", name)
        .fetch_one(c)
        .await?)
}
