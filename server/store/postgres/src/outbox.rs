//! The durable mail queue. Rows are claimed with a lease (`claimed_until`) by a
//! conditional UPDATE, which lets several instances share one queue without sending a
//! mail twice while a lease holds.

use sitecast_store_core::{NewMail, OutboxRow, Result};
use sqlx::PgConnection;

use crate::convert::{at, id as uid, opt_ms, text};

pub async fn insert(c: &mut PgConnection, m: &NewMail<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at,
           list_unsubscribe, attachment_key, attachment_name, attachment_type)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $6, $7, $8, $9, $10)",
        uid(m.id),
        m.to_address,
        m.subject,
        m.body_text,
        m.body_html,
        at(m.now),
        m.list_unsubscribe,
        m.attachment.map(|a| a.key),
        m.attachment.map(|a| a.name),
        m.attachment.map(|a| a.content_type),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Ids of unsent mail that is due and not leased by another worker.
pub async fn due_ids(c: &mut PgConnection, now: i64, limit: i64) -> Result<Vec<String>> {
    let ids = sqlx::query_scalar!(
        "SELECT id FROM mail_outbox
         WHERE sent_at IS NULL AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
         ORDER BY next_attempt_at, created_at
         LIMIT $2",
        at(now),
        limit,
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(ids.into_iter().map(text).collect())
}

/// Takes a lease on one mail; `None` when another worker got it first.
pub async fn claim(c: &mut PgConnection, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    let claimed = sqlx::query!(
        "UPDATE mail_outbox SET claimed_until = $3, attempts = attempts + 1
         WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
         RETURNING id, to_address, subject, body_text, body_html, attempts, list_unsubscribe, attachment_key,
           attachment_name, attachment_type",
        uid(id),
        at(now),
        at(lease_until),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(claimed.map(|m| OutboxRow {
        id: text(m.id),
        to_address: m.to_address,
        subject: m.subject,
        body_text: m.body_text,
        body_html: m.body_html,
        attempts: m.attempts,
        list_unsubscribe: m.list_unsubscribe,
        attachment_key: m.attachment_key,
        attachment_name: m.attachment_name,
        attachment_type: m.attachment_type,
    }))
}

pub async fn mark_sent(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE mail_outbox SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1",
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn mark_failed(c: &mut PgConnection, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE mail_outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1",
        uid(id),
        error,
        at(next_attempt_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Unsent mail count; shown by the health endpoint and used by tests.
pub async fn pending_count(c: &mut PgConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!" FROM mail_outbox WHERE sent_at IS NULL"#)
        .fetch_one(&mut *c)
        .await?)
}

/// The next time any unsent mail falls due, so the worker can sleep until then.
pub async fn next_due_at(c: &mut PgConnection) -> Result<Option<i64>> {
    let due = sqlx::query_scalar!("SELECT MIN(next_attempt_at) FROM mail_outbox WHERE sent_at IS NULL")
        .fetch_one(&mut *c)
        .await?;
    Ok(opt_ms(due))
}
