
use super::{Db, Result};

pub use sitecast_store_core::{SessionRow, NewSession};

pub async fn insert<'a>(db: impl Into<Db<'a>>, s: &NewSession<'_>) -> Result<()> {
    backend!(db, sessions::insert(s))
}

pub async fn find_by_token_hash<'a>(db: impl Into<Db<'a>>, token_hash: &str) -> Result<Option<SessionRow>> {
    backend!(db, sessions::find_by_token_hash(token_hash))
}

/// A session by its id, with its assurance.
pub async fn find_by_id<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<SessionRow>> {
    backend!(db, sessions::find_by_id(id))
}

pub async fn touch<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, sessions::touch(id, now))
}

pub async fn exists<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, sessions::exists(id))
}

pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, sessions::delete(id))
}

/// Ends every session of a user; returns their ids so live sockets can be closed.
pub async fn delete_for_user<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<String>> {
    backend!(db, sessions::delete_for_user(user_id))
}

pub async fn delete_expired<'a>(db: impl Into<Db<'a>>, now: i64, idle_cutoff: i64) -> Result<u64> {
    backend!(db, sessions::delete_expired(now, idle_cutoff))
}

/// Ends every session of a user but one (after a password change in that session).
pub async fn delete_others<'a>(db: impl Into<Db<'a>>, user_id: &str, keep: &str) -> Result<u64> {
    backend!(db, sessions::delete_others(user_id, keep))
}
