//! One-time tokens (invite, password reset, email confirmation), stored hashed.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct TokenRow {
    pub user_id: String,
    pub kind: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    token_hash: &str,
    user_id: &str,
    kind: &str,
    now: i64,
    expires_at: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(kind)
    .bind(now)
    .bind(expires_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, token_hash: &str) -> Result<Option<TokenRow>> {
    Ok(sqlx::query_as::<_, TokenRow>(
        "SELECT user_id, kind, expires_at, used_at FROM auth_tokens WHERE token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(ex)
    .await?)
}

/// Marks a token used, only if it is still unused and unexpired; returns whether this
/// call consumed it. Two concurrent uses of one link: exactly one wins.
pub async fn consume<'e, E: Executor<'e, Database = Any>>(ex: E, token_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE auth_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Voids every unused token of a user (after a password change, old links must die).
pub async fn void_for_user<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE auth_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL")
        .bind(user_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn delete_stale<'e, E: Executor<'e, Database = Any>>(ex: E, cutoff: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM auth_tokens WHERE expires_at <= $1")
        .bind(cutoff)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}
