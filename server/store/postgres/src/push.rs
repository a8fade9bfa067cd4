//! Push subscriptions: the browsers a person turned pushes on for. What waits to be
//! pushed to them is in the outbox (`outbox::insert_push`), and goes with them.

use sitecast_store_core::{NewPushSubscription, PushSubscriptionRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, text};

/// A subscription as Postgres types it.
struct Subscription {
    id: Uuid,
    user_id: Uuid,
    endpoint: String,
    p256dh: String,
    auth: String,
    device: String,
    created_at: OffsetDateTime,
}

impl From<Subscription> for PushSubscriptionRow {
    fn from(r: Subscription) -> PushSubscriptionRow {
        PushSubscriptionRow {
            id: text(r.id),
            user_id: text(r.user_id),
            endpoint: r.endpoint,
            p256dh: r.p256dh,
            auth: r.auth,
            device: r.device,
            created_at: ms(r.created_at),
        }
    }
}

/// A browser subscribing again (or under another account) takes its endpoint over.
pub async fn subscribe(c: &mut PgConnection, s: &NewPushSubscription<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, device, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, session_id = excluded.session_id,
           p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device, created_at = excluded.created_at",
        uid(s.id),
        uid(s.user_id),
        uid(s.session_id),
        s.endpoint,
        s.p256dh,
        s.auth,
        s.device,
        at(s.now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A user's subscriptions, newest first.
pub async fn of_user(c: &mut PgConnection, user_id: &str) -> Result<Vec<PushSubscriptionRow>> {
    let rows = sqlx::query_as!(
        Subscription,
        "SELECT id, user_id, endpoint, p256dh, auth, device, created_at
         FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id",
        uid(user_id),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(rows.into_iter().map(PushSubscriptionRow::from).collect())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<PushSubscriptionRow>> {
    let row = sqlx::query_as!(
        Subscription,
        "SELECT id, user_id, endpoint, p256dh, auth, device, created_at FROM push_subscriptions WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.map(PushSubscriptionRow::from))
}

/// One of the user's subscriptions, by endpoint; how many went.
pub async fn delete_by_endpoint(c: &mut PgConnection, user_id: &str, endpoint: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2", uid(user_id), endpoint)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}

/// The session's subscriptions other than `endpoint` (a browser has one; a new one
/// replaces the old); how many went.
pub async fn delete_others_of_session(c: &mut PgConnection, session_id: &str, endpoint: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE session_id = $1 AND endpoint <> $2", uid(session_id), endpoint)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}

/// One of the user's subscriptions, by id; how many went.
pub async fn delete(c: &mut PgConnection, user_id: &str, id: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM push_subscriptions WHERE user_id = $1 AND id = $2", uid(user_id), uid(id))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}

/// A subscription the push service says is gone (its queued pushes go with it).
pub async fn forget(c: &mut PgConnection, id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM push_subscriptions WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(())
}
