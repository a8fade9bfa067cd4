//! Fixed-window attempt counters for the login limiter, shared by every instance on
//! the database. Keys arrive already hashed; what a window allows is the caller's rule.

use super::{Db, Result};

pub use sitecast_store_core::{Window};

/// Counts one attempt against `key_hash` and returns its window, opening a fresh one
/// (ending `window_ms` from `now`) when the key has none or its window has ended. One
/// upsert: concurrent attempts, from any instance, each see a distinct count, so no two
/// can both read "4" and both go ahead.
pub async fn count_attempt<'a>(db: impl Into<Db<'a>>, key_hash: &str, now: i64, window_ms: i64) -> Result<Window> {
    backend!(db, login_failures::count_attempt(key_hash, now, window_ms))
}

/// Uncounts one attempt, only within the window it was counted in: if that window
/// ended and another began meanwhile, the new one's count is not the caller's to lower.
pub async fn give_back<'a>(db: impl Into<Db<'a>>, key_hash: &str, ends_at: i64) -> Result<()> {
    backend!(db, login_failures::give_back(key_hash, ends_at))
}

pub async fn clear<'a>(db: impl Into<Db<'a>>, key_hash: &str) -> Result<()> {
    backend!(db, login_failures::clear(key_hash))
}

/// Drops windows that ended before `now`; they count as empty already.
pub async fn delete_expired<'a>(db: impl Into<Db<'a>>, now: i64) -> Result<u64> {
    backend!(db, login_failures::delete_expired(now))
}
