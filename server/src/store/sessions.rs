use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct SessionRow {
    pub id: String,
    pub user_id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub expires_at: i64,
}

pub struct NewSession<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub token_hash: &'a str,
    pub now: i64,
    pub expires_at: i64,
    pub user_agent: Option<&'a str>,
    pub ip: Option<&'a str>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, s: &NewSession<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip) \
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7)",
    )
    .bind(s.id)
    .bind(s.user_id)
    .bind(s.token_hash)
    .bind(s.now)
    .bind(s.expires_at)
    .bind(s.user_agent)
    .bind(s.ip)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find_by_token_hash<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    token_hash: &str,
) -> Result<Option<SessionRow>> {
    Ok(sqlx::query_as::<_, SessionRow>(
        "SELECT id, user_id, created_at, last_seen_at, expires_at FROM sessions WHERE token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(ex)
    .await?)
}

pub async fn touch<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM sessions WHERE id = $1").bind(id).fetch_one(ex).await? > 0)
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM sessions WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// Ends every session of a user; returns their ids so live sockets can be closed.
pub async fn delete_for_user<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>("DELETE FROM sessions WHERE user_id = $1 RETURNING id")
        .bind(user_id)
        .fetch_all(ex)
        .await?)
}

pub async fn delete_expired<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    now: i64,
    idle_cutoff: i64,
) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2")
        .bind(now)
        .bind(idle_cutoff)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

/// Ends every session of a user but one (after a password change in that session).
pub async fn delete_others<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, keep: &str) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(user_id)
        .bind(keep)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}
