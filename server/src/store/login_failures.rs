//! Fixed-window attempt counters for the login limiter, shared by every instance on
//! the database. Keys arrive already hashed; what a window allows is the caller's rule.

use sqlx::{Any, Executor, FromRow};

use super::Result;

/// A key's window after an attempt was counted in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromRow)]
pub struct Window {
    /// Attempts in this window, the one just counted included.
    pub attempts: i64,
    pub ends_at: i64,
}

/// Counts one attempt against `key_hash` and returns its window, opening a fresh one
/// (ending `window_ms` from `now`) when the key has none or its window has ended. One
/// upsert: concurrent attempts, from any instance, each see a distinct count, so no two
/// can both read "4" and both go ahead.
pub async fn count_attempt<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    key_hash: &str,
    now: i64,
    window_ms: i64,
) -> Result<Window> {
    // In DO UPDATE every column reference reads the row as it was before this
    // statement, on both backends, so the two CASEs agree on whether the window ended.
    Ok(sqlx::query_as::<_, Window>(
        "INSERT INTO login_failures (key_hash, attempts, window_ends_at) VALUES ($1, 1, $2 + $3) \
         ON CONFLICT (key_hash) DO UPDATE SET \
           attempts = CASE WHEN login_failures.window_ends_at <= $2 THEN 1 ELSE login_failures.attempts + 1 END, \
           window_ends_at = CASE WHEN login_failures.window_ends_at <= $2 THEN $2 + $3 ELSE login_failures.window_ends_at END \
         RETURNING attempts, window_ends_at AS ends_at",
    )
    .bind(key_hash)
    .bind(now)
    .bind(window_ms)
    .fetch_one(ex)
    .await?)
}

/// Uncounts one attempt, only within the window it was counted in: if that window
/// ended and another began meanwhile, the new one's count is not the caller's to lower.
pub async fn give_back<'e, E: Executor<'e, Database = Any>>(ex: E, key_hash: &str, ends_at: i64) -> Result<()> {
    sqlx::query(
        "UPDATE login_failures SET attempts = attempts - 1 \
         WHERE key_hash = $1 AND window_ends_at = $2 AND attempts > 0",
    )
    .bind(key_hash)
    .bind(ends_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn clear<'e, E: Executor<'e, Database = Any>>(ex: E, key_hash: &str) -> Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE key_hash = $1").bind(key_hash).execute(ex).await?;
    Ok(())
}

/// Drops windows that ended before `now`; they count as empty already.
pub async fn delete_expired<'e, E: Executor<'e, Database = Any>>(ex: E, now: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM login_failures WHERE window_ends_at <= $1").bind(now).execute(ex).await?;
    Ok(done.rows_affected())
}
