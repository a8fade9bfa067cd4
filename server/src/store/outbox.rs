//! The durable mail queue. Rows are claimed with a lease (`claimed_until`) by a
//! conditional UPDATE, which works the same on SQLite and Postgres and lets several
//! instances share one queue without sending a mail twice while a lease holds.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct OutboxRow {
    pub id: String,
    pub to_address: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
    pub attempts: i32,
    pub list_unsubscribe: Option<String>,
}

pub struct NewMail<'a> {
    pub id: &'a str,
    pub to_address: &'a str,
    pub subject: &'a str,
    pub body_text: &'a str,
    pub body_html: &'a str,
    pub list_unsubscribe: Option<&'a str>,
    pub now: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, m: &NewMail<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, \
         list_unsubscribe) VALUES ($1, $2, $3, $4, $5, $6, 0, $6, $7)",
    )
    .bind(m.id)
    .bind(m.to_address)
    .bind(m.subject)
    .bind(m.body_text)
    .bind(m.body_html)
    .bind(m.now)
    .bind(m.list_unsubscribe)
    .execute(ex)
    .await?;
    Ok(())
}

/// Ids of unsent mail that is due and not leased by another worker.
pub async fn due_ids<'e, E: Executor<'e, Database = Any>>(ex: E, now: i64, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= $1 \
         AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, created_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

/// Takes a lease on one mail; `None` when another worker got it first.
pub async fn claim<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    now: i64,
    lease_until: i64,
) -> Result<Option<OutboxRow>> {
    Ok(sqlx::query_as::<_, OutboxRow>(
        "UPDATE mail_outbox SET claimed_until = $3, attempts = attempts + 1 \
         WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2) \
         RETURNING id, to_address, subject, body_text, body_html, attempts, list_unsubscribe",
    )
    .bind(id)
    .bind(now)
    .bind(lease_until)
    .fetch_optional(ex)
    .await?)
}

pub async fn mark_sent<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE mail_outbox SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn mark_failed<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    error: &str,
    next_attempt_at: i64,
) -> Result<()> {
    sqlx::query("UPDATE mail_outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1")
        .bind(id)
        .bind(error)
        .bind(next_attempt_at)
        .execute(ex)
        .await?;
    Ok(())
}

/// Unsent mail count; shown by the health endpoint and used by tests.
pub async fn pending_count<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL")
        .fetch_one(ex)
        .await?)
}

/// The next time any unsent mail falls due, so the worker can sleep until then.
pub async fn next_due_at<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar::<_, Option<i64>>(
        "SELECT MIN(next_attempt_at) FROM mail_outbox WHERE sent_at IS NULL",
    )
    .fetch_one(ex)
    .await?)
}
