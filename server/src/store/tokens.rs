//! One-time tokens (invite, password reset, email confirmation), stored hashed.

use super::{Db, Result};

pub use sitecast_store_core::{TokenRow};

pub async fn insert<'a>(db: impl Into<Db<'a>>, token_hash: &str, user_id: &str, kind: &str, now: i64, expires_at: i64) -> Result<()> {
    backend!(db, tokens::insert(token_hash, user_id, kind, now, expires_at))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, token_hash: &str) -> Result<Option<TokenRow>> {
    backend!(db, tokens::find(token_hash))
}

/// Marks a token used, only if it is still unused and unexpired; returns whether this
/// call consumed it. Two concurrent uses of one link: exactly one wins.
pub async fn consume<'a>(db: impl Into<Db<'a>>, token_hash: &str, now: i64) -> Result<bool> {
    backend!(db, tokens::consume(token_hash, now))
}

/// Voids every unused token of a user (after a password change, old links must die).
pub async fn void_for_user<'a>(db: impl Into<Db<'a>>, user_id: &str, now: i64) -> Result<()> {
    backend!(db, tokens::void_for_user(user_id, now))
}

pub async fn delete_stale<'a>(db: impl Into<Db<'a>>, cutoff: i64) -> Result<u64> {
    backend!(db, tokens::delete_stale(cutoff))
}
