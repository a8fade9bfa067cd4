//! Push subscriptions and the push queue. The queue is claimed with a lease
//! like the mail outbox, so several instances share it without sending twice.

use sitecast_store_core::{NewPushSubscription, PushOutboxRow, PushSubscriptionRow, Result};
use sqlx::SqliteConnection;

/// A browser subscribing again (or under another account) takes its endpoint over.
pub async fn subscribe(c: &mut SqliteConnection, s: &NewPushSubscription<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, device, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, session_id = excluded.session_id, \
         p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device, created_at = excluded.created_at",
        s.id,
        s.user_id,
        s.session_id,
        s.endpoint,
        s.p256dh,
        s.auth,
        s.device,
        s.now,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// A user's subscriptions, newest first.
pub async fn of_user(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<PushSubscriptionRow>> {
    Ok(sqlx::query_as!(
        PushSubscriptionRow,
        r#"SELECT id AS "id!", user_id, endpoint, p256dh, auth, device, created_at
           FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id"#,
        user_id,
    )
    .fetch_all(c)
    .await?)
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<PushSubscriptionRow>> {
    Ok(sqlx::query_as!(
        PushSubscriptionRow,
        r#"SELECT id AS "id!", user_id, endpoint, p256dh, auth, device, created_at
           FROM push_subscriptions WHERE id = $1"#,
        id,
    )
    .fetch_optional(c)
    .await?)
}

/// One of the user's subscriptions, by endpoint; how many went.
pub async fn delete_by_endpoint(c: &mut SqliteConnection, user_id: &str, endpoint: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2", user_id, endpoint)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

/// The session's subscriptions other than `endpoint` (a browser has one; a new one
/// replaces the old); how many went.
pub async fn delete_others_of_session(c: &mut SqliteConnection, session_id: &str, endpoint: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE session_id = $1 AND endpoint <> $2", session_id, endpoint)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

/// One of the user's subscriptions, by id; how many went.
pub async fn delete(c: &mut SqliteConnection, user_id: &str, id: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE user_id = $1 AND id = $2", user_id, id)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

/// A subscription the push service says is gone (its queued pushes go with it).
pub async fn forget(c: &mut SqliteConnection, id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM push_subscriptions WHERE id = $1", id).execute(c).await?;
    Ok(())
}

pub async fn enqueue(c: &mut SqliteConnection, id: &str, subscription_id: &str, payload: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "INSERT INTO push_outbox (id, subscription_id, payload, created_at, attempts, next_attempt_at) VALUES ($1, $2, $3, $4, 0, $4)",
        id,
        subscription_id,
        payload,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Due, and not leased by another worker.
pub async fn due_ids(c: &mut SqliteConnection, now: i64, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM push_outbox WHERE next_attempt_at <= $1
           AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, created_at LIMIT $2"#,
        now,
        limit,
    )
    .fetch_all(c)
    .await?)
}

/// `None` when another worker got the lease first (or it was sent meanwhile).
pub async fn claim(c: &mut SqliteConnection, id: &str, now: i64, lease_until: i64) -> Result<Option<PushOutboxRow>> {
    Ok(sqlx::query_as!(
        PushOutboxRow,
        r#"UPDATE push_outbox SET claimed_until = $3, attempts = attempts + 1
           WHERE id = $1 AND (claimed_until IS NULL OR claimed_until <= $2)
           RETURNING id AS "id!", subscription_id, payload, attempts AS "attempts: i32""#,
        id,
        now,
        lease_until,
    )
    .fetch_optional(c)
    .await?)
}

/// Sent (or given up on): it leaves the queue.
pub async fn done(c: &mut SqliteConnection, id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM push_outbox WHERE id = $1", id).execute(c).await?;
    Ok(())
}

pub async fn retry(c: &mut SqliteConnection, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE push_outbox SET claimed_until = NULL, last_error = $2, next_attempt_at = $3 WHERE id = $1",
        id,
        error,
        next_attempt_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn pending_count(c: &mut SqliteConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM push_outbox"#).fetch_one(c).await?)
}

/// NULL (none) when nothing waits.
pub async fn next_due_at(c: &mut SqliteConnection) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar!(r#"SELECT MIN(next_attempt_at) AS "next_due_at?: i64" FROM push_outbox"#).fetch_one(c).await?)
}
