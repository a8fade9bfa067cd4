//! Fixed-window attempt counters for the login limiter, shared by every instance on
//! the database. Keys arrive already hashed; what a window allows is the caller's rule.

use sitecast_store_core::{Result, Window};
use sqlx::SqliteConnection;

/// One upsert: concurrent attempts, from any instance, each see a distinct count.
pub async fn count_attempt(c: &mut SqliteConnection, key_hash: &str, now: i64, window_ms: i64) -> Result<Window> {
    // In DO UPDATE every column reference reads the row as it was before this
    // statement, so the two CASEs agree on whether the window ended.
    Ok(sqlx::query_as!(
        Window,
        r#"INSERT INTO login_failures (key_hash, attempts, window_ends_at) VALUES ($1, 1, $2 + $3)
           ON CONFLICT (key_hash) DO UPDATE SET
             attempts = CASE WHEN login_failures.window_ends_at <= $2 THEN 1 ELSE login_failures.attempts + 1 END,
             window_ends_at = CASE WHEN login_failures.window_ends_at <= $2 THEN $2 + $3 ELSE login_failures.window_ends_at END
           RETURNING attempts AS "attempts!", window_ends_at AS "ends_at!""#,
        key_hash,
        now,
        window_ms,
    )
    .fetch_one(c)
    .await?)
}

/// Only within the window the attempt was counted in: a later window's count is not
/// the caller's to lower.
pub async fn give_back(c: &mut SqliteConnection, key_hash: &str, ends_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE login_failures SET attempts = attempts - 1 \
         WHERE key_hash = $1 AND window_ends_at = $2 AND attempts > 0",
        key_hash,
        ends_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn clear(c: &mut SqliteConnection, key_hash: &str) -> Result<()> {
    sqlx::query!("DELETE FROM login_failures WHERE key_hash = $1", key_hash)
        .execute(c)
        .await?;
    Ok(())
}

pub async fn delete_expired(c: &mut SqliteConnection, now: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM login_failures WHERE window_ends_at <= $1", now)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}
