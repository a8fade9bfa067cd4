//! Fixed-window attempt counters for the login limiter, shared by every instance on
//! the database. Keys arrive already hashed; what a window allows is the caller's rule.

use sitecast_store_core::{Result, Window};
use sqlx::PgConnection;

use crate::convert::{at, ms};

/// Counts one attempt against `key_hash` and returns its window, opening a fresh one
/// (ending `window_ms` from `now`) when the key has none or its window has ended. One
/// upsert: concurrent attempts, from any instance, each see a distinct count, so no two
/// can both read "4" and both go ahead.
pub async fn count_attempt(c: &mut PgConnection, key_hash: &str, now: i64, window_ms: i64) -> Result<Window> {
    // A fresh window's end is computed here, in milliseconds like every other time, and
    // bound as a timestamp: no interval arithmetic in SQL.
    let fresh_end = at(now.saturating_add(window_ms));
    // In DO UPDATE every column reference reads the row as it was before this
    // statement, so the two CASEs agree on whether the window ended.
    let w = sqlx::query!(
        "INSERT INTO login_failures (key_hash, attempts, window_ends_at) VALUES ($1, 1, $3)
         ON CONFLICT (key_hash) DO UPDATE SET
           attempts = CASE WHEN login_failures.window_ends_at <= $2 THEN 1 ELSE login_failures.attempts + 1 END,
           window_ends_at = CASE WHEN login_failures.window_ends_at <= $2 THEN $3 ELSE login_failures.window_ends_at END
         RETURNING attempts, window_ends_at",
        key_hash,
        at(now),
        fresh_end,
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(Window { attempts: w.attempts, ends_at: ms(w.window_ends_at) })
}

/// Uncounts one attempt, only within the window it was counted in: if that window
/// ended and another began meanwhile, the new one's count is not the caller's to lower.
/// (`ends_at` came from `count_attempt` in milliseconds; a timestamptz holds every
/// millisecond exactly, so the equality still finds the window.)
pub async fn give_back(c: &mut PgConnection, key_hash: &str, ends_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE login_failures SET attempts = attempts - 1
         WHERE key_hash = $1 AND window_ends_at = $2 AND attempts > 0",
        key_hash,
        at(ends_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn clear(c: &mut PgConnection, key_hash: &str) -> Result<()> {
    sqlx::query!("DELETE FROM login_failures WHERE key_hash = $1", key_hash).execute(&mut *c).await?;
    Ok(())
}

/// Drops windows that ended before `now`; they count as empty already.
pub async fn delete_expired(c: &mut PgConnection, now: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM login_failures WHERE window_ends_at <= $1", at(now))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}
