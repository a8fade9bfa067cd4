//! Signed-in sessions; the cookie's token is kept only as its SHA-256.

use sitecast_store_core::{NewSession, Result, SessionRow};
use sqlx::PgConnection;

use crate::convert::{at, id as uid, ms, opt_ms, text};

pub async fn insert(c: &mut PgConnection, s: &NewSession<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7)",
        uid(s.id),
        uid(s.user_id),
        s.token_hash,
        at(s.now),
        at(s.expires_at),
        s.user_agent,
        s.ip,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A session as Postgres types it, converted in one place.
struct PgSession {
    id: uuid::Uuid,
    user_id: uuid::Uuid,
    created_at: time::OffsetDateTime,
    last_seen_at: time::OffsetDateTime,
    expires_at: time::OffsetDateTime,
    factor_at: Option<time::OffsetDateTime>,
    factor_kind: Option<String>,
    enrol_required: bool,
}

impl From<PgSession> for SessionRow {
    fn from(s: PgSession) -> SessionRow {
        SessionRow {
            id: text(s.id),
            user_id: text(s.user_id),
            created_at: ms(s.created_at),
            last_seen_at: ms(s.last_seen_at),
            expires_at: ms(s.expires_at),
            factor_at: opt_ms(s.factor_at),
            factor_kind: s.factor_kind,
            enrol_required: s.enrol_required,
        }
    }
}

pub async fn find_by_token_hash(c: &mut PgConnection, token_hash: &str) -> Result<Option<SessionRow>> {
    let found = sqlx::query_as!(
        PgSession,
        "SELECT id, user_id, created_at, last_seen_at, expires_at, factor_at, factor_kind, enrol_required
         FROM sessions WHERE token_hash = $1",
        token_hash,
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(found.map(SessionRow::from))
}

/// A session by its id, with its assurance.
pub async fn find_by_id(c: &mut PgConnection, id: &str) -> Result<Option<SessionRow>> {
    let found = sqlx::query_as!(
        PgSession,
        "SELECT id, user_id, created_at, last_seen_at, expires_at, factor_at, factor_kind, enrol_required
         FROM sessions WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(found.map(SessionRow::from))
}

pub async fn touch(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE sessions SET last_seen_at = $2 WHERE id = $1", uid(id), at(now))
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn exists(c: &mut PgConnection, id: &str) -> Result<bool> {
    Ok(sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM sessions WHERE id = $1) AS "exists!""#, uid(id))
        .fetch_one(&mut *c)
        .await?)
}

pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM sessions WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}

/// Ends every session of a user; returns their ids so live sockets can be closed.
pub async fn delete_for_user(c: &mut PgConnection, user_id: &str) -> Result<Vec<String>> {
    let ids = sqlx::query_scalar!("DELETE FROM sessions WHERE user_id = $1 RETURNING id", uid(user_id))
        .fetch_all(&mut *c)
        .await?;
    Ok(ids.into_iter().map(text).collect())
}

pub async fn delete_expired(c: &mut PgConnection, now: i64, idle_cutoff: i64) -> Result<u64> {
    let done = sqlx::query!(
        "DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2",
        at(now),
        at(idle_cutoff),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected())
}

/// Ends every session of a user but one (after a password change in that session).
pub async fn delete_others(c: &mut PgConnection, user_id: &str, keep: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM sessions WHERE user_id = $1 AND id <> $2", uid(user_id), uid(keep))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}
