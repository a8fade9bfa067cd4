//! The outbox: mail and pushes waiting to be sent, in one table (migration 0018). Rows
//! are claimed with a lease (`claimed_until`) by a conditional UPDATE, which lets
//! several instances share the queue without sending a message twice while a lease
//! holds. What each kind carries is written by its own insert; claiming, retrying and
//! finishing are the same for both.

use sitecast_store_core::{NewMail, NewPush, OutboxColumns, OutboxKind, OutboxPending, OutboxRow, Result, Stored};
use sqlx::PgConnection;

use crate::convert::{at, id as uid, opt_ms, opt_text, text};

pub async fn insert_mail(c: &mut PgConnection, m: &NewMail<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO outbox (id, kind, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at,
           list_unsubscribe, attachment_key, attachment_name, attachment_type)
         VALUES ($1, 'mail', $2, $3, $4, $5, $6, 0, $6, $7, $8, $9, $10)",
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

pub async fn insert_push(c: &mut PgConnection, p: &NewPush<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO outbox (id, kind, subscription_id, payload, created_at, attempts, next_attempt_at)
         VALUES ($1, 'push', $2, $3, $4, 0, $4)",
        uid(p.id),
        uid(p.subscription_id),
        p.payload,
        at(p.now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Messages of `kind` that are unsent, due, and not leased by another worker.
pub async fn due_ids(c: &mut PgConnection, kind: OutboxKind, now: i64, limit: i64) -> Result<Vec<String>> {
    let ids = sqlx::query_scalar!(
        "SELECT id FROM outbox
         WHERE kind = $1 AND sent_at IS NULL AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2)
         ORDER BY next_attempt_at, created_at
         LIMIT $3",
        kind.stored(),
        at(now),
        limit,
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(ids.into_iter().map(text).collect())
}

/// Takes a lease on one message until `lease_until`; `None` when another worker got it
/// first (or it was sent, or went with its subscription, meanwhile).
pub async fn claim(c: &mut PgConnection, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    let claimed = sqlx::query!(
        "UPDATE outbox SET claimed_until = $3, attempts = attempts + 1
         WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
         RETURNING id, kind, attempts, to_address, subject, body_text, body_html, list_unsubscribe, attachment_key,
           attachment_name, attachment_type, subscription_id, payload",
        uid(id),
        at(now),
        at(lease_until),
    )
    .fetch_optional(&mut *c)
    .await?;
    claimed
        .map(|r| {
            OutboxRow::try_from(OutboxColumns {
                id: text(r.id),
                kind: r.kind,
                attempts: r.attempts,
                to_address: r.to_address,
                subject: r.subject,
                body_text: r.body_text,
                body_html: r.body_html,
                list_unsubscribe: r.list_unsubscribe,
                attachment_key: r.attachment_key,
                attachment_name: r.attachment_name,
                attachment_type: r.attachment_type,
                subscription_id: opt_text(r.subscription_id),
                payload: r.payload,
            })
        })
        .transpose()
}

/// Not sent this time: the lease is given back and the message is due again at
/// `next_attempt_at`.
pub async fn retry(c: &mut PgConnection, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1",
        uid(id),
        error,
        at(next_attempt_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Sent, or given up on: it leaves the queue. A mail stays, marked sent, as the
/// record of what went out; a push is deleted, as it was from push_outbox (nothing
/// reads a sent one, and its payload is a notification's text).
pub async fn done(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "WITH pushed AS (DELETE FROM outbox WHERE id = $1 AND kind = 'push')
         UPDATE outbox SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1 AND kind = 'mail'",
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Unsent messages of each kind (every instance's); shown by the health endpoint and
/// the metrics.
pub async fn pending(c: &mut PgConnection) -> Result<OutboxPending> {
    let counts = sqlx::query!(
        r#"SELECT COUNT(*) FILTER (WHERE kind = 'mail') AS "mail!", COUNT(*) FILTER (WHERE kind = 'push') AS "push!"
           FROM outbox WHERE sent_at IS NULL"#
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(OutboxPending { mail: counts.mail, push: counts.push })
}

/// When the next unsent message of `kind` falls due (none: nothing waits), so the
/// worker can sleep until then.
pub async fn next_due_at(c: &mut PgConnection, kind: OutboxKind) -> Result<Option<i64>> {
    let due = sqlx::query_scalar!("SELECT MIN(next_attempt_at) FROM outbox WHERE kind = $1 AND sent_at IS NULL", kind.stored())
        .fetch_one(&mut *c)
        .await?;
    Ok(opt_ms(due))
}
