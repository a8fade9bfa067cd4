//! The durable mail queue. Rows are claimed with a lease (`claimed_until`) by a
//! conditional UPDATE, which lets several instances share one queue without sending a
//! mail twice while a lease holds.

use sitecast_store_core::{NewMail, OutboxRow, Result};
use sqlx::SqliteConnection;

pub async fn insert(c: &mut SqliteConnection, m: &NewMail<'_>) -> Result<()> {
    let (key, name, content_type) = (m.attachment.map(|a| a.key), m.attachment.map(|a| a.name), m.attachment.map(|a| a.content_type));
    sqlx::query!(
        "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, \
         list_unsubscribe, attachment_key, attachment_name, attachment_type) \
         VALUES ($1, $2, $3, $4, $5, $6, 0, $6, $7, $8, $9, $10)",
        m.id,
        m.to_address,
        m.subject,
        m.body_text,
        m.body_html,
        m.now,
        m.list_unsubscribe,
        key,
        name,
        content_type,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Unsent, due, and not leased by another worker.
pub async fn due_ids(c: &mut SqliteConnection, now: i64, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= $1
           AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, created_at LIMIT $2"#,
        now,
        limit,
    )
    .fetch_all(c)
    .await?)
}

/// `None` when another worker got the lease first.
pub async fn claim(c: &mut SqliteConnection, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    Ok(sqlx::query_as!(
        OutboxRow,
        r#"UPDATE mail_outbox SET claimed_until = $3, attempts = attempts + 1
           WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
           RETURNING id AS "id!", to_address, subject, body_text, body_html, attempts AS "attempts: i32",
           list_unsubscribe, attachment_key, attachment_name, attachment_type"#,
        id,
        now,
        lease_until,
    )
    .fetch_optional(c)
    .await?)
}

pub async fn mark_sent(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE mail_outbox SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1",
        id,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn mark_failed(c: &mut SqliteConnection, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE mail_outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1",
        id,
        error,
        next_attempt_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn pending_count(c: &mut SqliteConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM mail_outbox WHERE sent_at IS NULL"#)
        .fetch_one(c)
        .await?)
}

/// NULL (none) when no mail is waiting.
pub async fn next_due_at(c: &mut SqliteConnection) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar!(r#"SELECT MIN(next_attempt_at) AS "next_due_at?: i64" FROM mail_outbox WHERE sent_at IS NULL"#)
        .fetch_one(c)
        .await?)
}
