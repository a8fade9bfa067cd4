//! One-time tokens (invite, password reset, email confirmation), stored hashed.

use sitecast_store_core::{decode, Result, TokenKind, TokenRow};
use sqlx::SqliteConnection;

pub async fn insert(
    c: &mut SqliteConnection,
    token_hash: &str,
    user_id: &str,
    kind: &str,
    now: i64,
    expires_at: i64,
) -> Result<()> {
    sqlx::query!(
        "INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
        token_hash,
        user_id,
        kind,
        now,
        expires_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, token_hash: &str) -> Result<Option<TokenRow>> {
    let Some(row) = sqlx::query!(
        "SELECT user_id, kind, expires_at, used_at FROM auth_tokens WHERE token_hash = $1",
        token_hash
    )
    .fetch_optional(c)
    .await?
    else {
        return Ok(None);
    };
    Ok(Some(TokenRow {
        user_id: row.user_id,
        kind: decode::<TokenKind>("auth_tokens.kind", &row.kind)?,
        expires_at: row.expires_at,
        used_at: row.used_at,
    }))
}

/// One conditional UPDATE: of two concurrent uses of one link, exactly one changes the
/// row.
pub async fn consume(c: &mut SqliteConnection, token_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE auth_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
        token_hash,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn void_for_user(c: &mut SqliteConnection, user_id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE auth_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL",
        user_id,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn delete_stale(c: &mut SqliteConnection, cutoff: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM auth_tokens WHERE expires_at <= $1", cutoff)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}
