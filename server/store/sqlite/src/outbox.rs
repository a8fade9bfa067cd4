//! The outbox: mail and pushes waiting to be sent, in one table (migration 0018). Rows
//! are claimed with a lease (`claimed_until`) by a conditional UPDATE, which lets
//! several workers share the queue without sending a message twice while a lease
//! holds. What each kind carries is written by its own insert; claiming, retrying and
//! finishing are the same for both.

use sitecast_store_core::{NewMail, NewPush, OutboxColumns, OutboxKind, OutboxPending, OutboxRow, Result, Stored};
use sqlx::SqliteConnection;

pub async fn insert_mail(c: &mut SqliteConnection, m: &NewMail<'_>) -> Result<()> {
    let (key, name, content_type) = (m.attachment.map(|a| a.key), m.attachment.map(|a| a.name), m.attachment.map(|a| a.content_type));
    sqlx::query!(
        "INSERT INTO outbox (id, kind, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, \
         list_unsubscribe, attachment_key, attachment_name, attachment_type) \
         VALUES ($1, 'mail', $2, $3, $4, $5, $6, 0, $6, $7, $8, $9, $10)",
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

pub async fn insert_push(c: &mut SqliteConnection, p: &NewPush<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO outbox (id, kind, subscription_id, payload, created_at, attempts, next_attempt_at) \
         VALUES ($1, 'push', $2, $3, $4, 0, $4)",
        p.id,
        p.subscription_id,
        p.payload,
        p.now,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Messages of `kind` that are unsent, due, and not leased by another worker.
pub async fn due_ids(c: &mut SqliteConnection, kind: OutboxKind, now: i64, limit: i64) -> Result<Vec<String>> {
    let kind = kind.stored();
    Ok(sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM outbox WHERE kind = $1 AND sent_at IS NULL AND next_attempt_at <= $2
           AND (claimed_until IS NULL OR claimed_until <= $2) ORDER BY next_attempt_at, created_at LIMIT $3"#,
        kind,
        now,
        limit,
    )
    .fetch_all(c)
    .await?)
}

/// Takes a lease on one message until `lease_until`; `None` when another worker got it
/// first (or it was sent, or went with its subscription, meanwhile).
pub async fn claim(c: &mut SqliteConnection, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    let claimed = sqlx::query_as!(
        OutboxColumns,
        r#"UPDATE outbox SET claimed_until = $3, attempts = attempts + 1
           WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
           RETURNING id AS "id!", kind AS "kind!", attempts AS "attempts!: i32", to_address AS "to_address?",
             subject AS "subject?", body_text AS "body_text?", body_html AS "body_html?",
             list_unsubscribe AS "list_unsubscribe?", attachment_key AS "attachment_key?",
             attachment_name AS "attachment_name?", attachment_type AS "attachment_type?",
             subscription_id AS "subscription_id?", payload AS "payload?""#,
        id,
        now,
        lease_until,
    )
    .fetch_optional(c)
    .await?;
    claimed.map(OutboxRow::try_from).transpose()
}

/// Not sent this time: the lease is given back and the message is due again at
/// `next_attempt_at`.
pub async fn retry(c: &mut SqliteConnection, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1",
        id,
        error,
        next_attempt_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Sent, or given up on: it leaves the queue. A mail stays, marked sent, as the
/// record of what went out; a push is deleted, as it was from push_outbox (nothing
/// reads a sent one, and its payload is a notification's text).
pub async fn done(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE outbox SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1 AND kind = 'mail'",
        id,
        now,
    )
    .execute(&mut *c)
    .await?;
    sqlx::query!("DELETE FROM outbox WHERE id = $1 AND kind = 'push'", id).execute(&mut *c).await?;
    Ok(())
}

/// Unsent messages of each kind (every instance's); shown by the health endpoint and
/// the metrics.
pub async fn pending(c: &mut SqliteConnection) -> Result<OutboxPending> {
    let counts = sqlx::query!(
        r#"SELECT COALESCE(SUM(kind = 'mail'), 0) AS "mail!: i64", COALESCE(SUM(kind = 'push'), 0) AS "push!: i64"
           FROM outbox WHERE sent_at IS NULL"#
    )
    .fetch_one(c)
    .await?;
    Ok(OutboxPending { mail: counts.mail, push: counts.push })
}

/// When the next unsent message of `kind` falls due (NULL: none waits), so the
/// worker can sleep until then.
pub async fn next_due_at(c: &mut SqliteConnection, kind: OutboxKind) -> Result<Option<i64>> {
    let kind = kind.stored();
    Ok(sqlx::query_scalar!(
        r#"SELECT MIN(next_attempt_at) AS "next_due_at?: i64" FROM outbox WHERE kind = $1 AND sent_at IS NULL"#,
        kind
    )
    .fetch_one(c)
    .await?)
}
