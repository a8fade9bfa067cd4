//! Keys the server signs with, stored once for every instance to share.

use sqlx::{Any, Executor};

use super::Result;

/// The key called `name`; `fresh` becomes it when there is none yet (the first
/// instance to ask wins, the others read what it stored).
pub async fn get_or_create<'e, E: Executor<'e, Database = Any> + Copy>(ex: E, name: &str, fresh: &str) -> Result<String> {
    sqlx::query("INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(fresh)
        .execute(ex)
        .await?;
    Ok(sqlx::query_scalar::<_, String>("SELECT value FROM server_keys WHERE name = $1").bind(name).fetch_one(ex).await?)
}
