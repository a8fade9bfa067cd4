//! Push subscriptions: the browsers a person turned pushes on for. What waits to be
//! pushed to them is in the outbox (`outbox::insert_push`), and goes with them.

use sitecast_store_core::{NewPushSubscription, PushSubscriptionRow, Result};
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
