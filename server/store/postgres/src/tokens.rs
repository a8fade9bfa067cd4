//! One-time tokens (invite, password reset, email confirmation), stored hashed.

use sitecast_store_core::{decode, Result, TokenKind, TokenRow};
use sqlx::PgConnection;

use crate::convert::{at, id as uid, ms, opt_ms, text};

pub async fn insert(
    c: &mut PgConnection,
    token_hash: &str,
    user_id: &str,
    kind: &str,
    now: i64,
    expires_at: i64,
) -> Result<()> {
    sqlx::query!(
        "INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
        token_hash,
        uid(user_id),
        kind,
        at(now),
        at(expires_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, token_hash: &str) -> Result<Option<TokenRow>> {
    let found = sqlx::query!(
        "SELECT user_id, kind, expires_at, used_at FROM auth_tokens WHERE token_hash = $1",
        token_hash,
    )
    .fetch_optional(&mut *c)
    .await?;
    found
        .map(|t| {
            Ok(TokenRow {
                user_id: text(t.user_id),
                kind: decode::<TokenKind>("auth_tokens.kind", &t.kind)?,
                expires_at: ms(t.expires_at),
                used_at: opt_ms(t.used_at),
            })
        })
        .transpose()
}

/// Marks a token used, only if it is still unused and unexpired; returns whether this
/// call consumed it. Two concurrent uses of one link: exactly one wins.
pub async fn consume(c: &mut PgConnection, token_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE auth_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
        token_hash,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Voids every unused token of a user (after a password change, old links must die).
pub async fn void_for_user(c: &mut PgConnection, user_id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE auth_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL",
        uid(user_id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn delete_stale(c: &mut PgConnection, cutoff: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM auth_tokens WHERE expires_at <= $1", at(cutoff))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}
