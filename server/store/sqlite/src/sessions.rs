use sitecast_store_core::{NewSession, Result, SessionRow};
use sqlx::SqliteConnection;

pub async fn insert(c: &mut SqliteConnection, s: &NewSession<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip) \
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7)",
        s.id,
        s.user_id,
        s.token_hash,
        s.now,
        s.expires_at,
        s.user_agent,
        s.ip,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn find_by_token_hash(c: &mut SqliteConnection, token_hash: &str) -> Result<Option<SessionRow>> {
    Ok(sqlx::query_as!(
        SessionRow,
        r#"SELECT id AS "id!", user_id, created_at, last_seen_at, expires_at, factor_at, factor_kind,
                  enrol_required AS "enrol_required: bool"
           FROM sessions WHERE token_hash = $1"#,
        token_hash
    )
    .fetch_optional(c)
    .await?)
}

/// A session by its id, with its assurance.
pub async fn find_by_id(c: &mut SqliteConnection, id: &str) -> Result<Option<SessionRow>> {
    Ok(sqlx::query_as!(
        SessionRow,
        r#"SELECT id AS "id!", user_id, created_at, last_seen_at, expires_at, factor_at, factor_kind,
                  enrol_required AS "enrol_required: bool"
           FROM sessions WHERE id = $1"#,
        id
    )
    .fetch_optional(c)
    .await?)
}

pub async fn touch(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE sessions SET last_seen_at = $2 WHERE id = $1", id, now)
        .execute(c)
        .await?;
    Ok(())
}

pub async fn exists(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let count = sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM sessions WHERE id = $1"#, id)
        .fetch_one(c)
        .await?;
    Ok(count > 0)
}

pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM sessions WHERE id = $1", id).execute(c).await?;
    Ok(done.rows_affected() > 0)
}

/// Returns the ended sessions' ids so live sockets can be closed.
pub async fn delete_for_user(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(r#"DELETE FROM sessions WHERE user_id = $1 RETURNING id AS "id!""#, user_id)
        .fetch_all(c)
        .await?)
}

pub async fn delete_expired(c: &mut SqliteConnection, now: i64, idle_cutoff: i64) -> Result<u64> {
    let done = sqlx::query!(
        "DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2",
        now,
        idle_cutoff,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected())
}

pub async fn delete_others(c: &mut SqliteConnection, user_id: &str, keep: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM sessions WHERE user_id = $1 AND id <> $2", user_id, keep)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}
