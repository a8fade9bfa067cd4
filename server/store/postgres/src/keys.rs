//! Keys the server signs with, stored once for every instance to share.

use sitecast_store_core::Result;
use sqlx::PgConnection;

/// The key called `name`; `fresh` becomes it when there is none yet (the first
/// instance to ask wins, the others read what it stored). Read first, so that once the
/// key exists this never writes (it is called inside other writers' transactions).
pub async fn get_or_create(c: &mut PgConnection, name: &str, fresh: &str) -> Result<String> {
    let stored = sqlx::query_scalar!("SELECT value FROM server_keys WHERE name = $1", name)
        .fetch_optional(&mut *c)
        .await?;
    if let Some(value) = stored {
        return Ok(value);
    }
    sqlx::query!(
        "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        name,
        fresh,
    )
    .execute(&mut *c)
    .await?;
    // Whichever instance's insert won.
    Ok(sqlx::query_scalar!("SELECT value FROM server_keys WHERE name = $1", name)
        .fetch_one(&mut *c)
        .await?)
}
