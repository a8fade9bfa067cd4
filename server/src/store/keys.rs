//! Keys the server signs with, stored once for every instance to share.

use sqlx::{Any, Executor};

use super::Result;

/// The key called `name`; `fresh` becomes it when there is none yet (the first
/// instance to ask wins, the others read what it stored). Read first, so that once the
/// key exists this never writes (it is called inside other writers' transactions on
/// SQLite's single writer).
pub async fn get_or_create<'e, E: Executor<'e, Database = Any> + Copy>(ex: E, name: &str, fresh: &str) -> Result<String> {
    let read = || sqlx::query_scalar::<_, String>("SELECT value FROM server_keys WHERE name = $1").bind(name);
    if let Some(value) = read().fetch_optional(ex).await? {
        return Ok(value);
    }
    sqlx::query("INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(fresh)
        .execute(ex)
        .await?;
    Ok(read().fetch_one(ex).await?)
}
