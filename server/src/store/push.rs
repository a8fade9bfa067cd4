//! Push subscriptions and the push queue, on either backend.

use super::{Db, Result};

pub use sitecast_store_core::{NewPushSubscription, PushOutboxRow, PushSubscriptionRow};

/// A browser subscribing again (or under another account) takes its endpoint over.
pub async fn subscribe<'a>(db: impl Into<Db<'a>>, s: &NewPushSubscription<'_>) -> Result<()> {
    backend!(db, push::subscribe(s))
}

/// A user's subscriptions, newest first.
pub async fn of_user<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<PushSubscriptionRow>> {
    backend!(db, push::of_user(user_id))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<PushSubscriptionRow>> {
    backend!(db, push::find(id))
}

pub async fn delete_by_endpoint<'a>(db: impl Into<Db<'a>>, user_id: &str, endpoint: &str) -> Result<u64> {
    backend!(db, push::delete_by_endpoint(user_id, endpoint))
}

/// The session's subscriptions other than `endpoint` (a browser has one).
pub async fn delete_others_of_session<'a>(db: impl Into<Db<'a>>, session_id: &str, endpoint: &str) -> Result<u64> {
    backend!(db, push::delete_others_of_session(session_id, endpoint))
}

pub async fn delete<'a>(db: impl Into<Db<'a>>, user_id: &str, id: &str) -> Result<u64> {
    backend!(db, push::delete(user_id, id))
}

/// A subscription the push service says is gone.
pub async fn forget<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<()> {
    backend!(db, push::forget(id))
}

pub async fn enqueue<'a>(db: impl Into<Db<'a>>, id: &str, subscription_id: &str, payload: &str, now: i64) -> Result<()> {
    backend!(db, push::enqueue(id, subscription_id, payload, now))
}

pub async fn due_ids<'a>(db: impl Into<Db<'a>>, now: i64, limit: i64) -> Result<Vec<String>> {
    backend!(db, push::due_ids(now, limit))
}

/// Takes a lease on one push; `None` when another worker got it first.
pub async fn claim<'a>(db: impl Into<Db<'a>>, id: &str, now: i64, lease_until: i64) -> Result<Option<PushOutboxRow>> {
    backend!(db, push::claim(id, now, lease_until))
}

/// Sent or given up on.
pub async fn done<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<()> {
    backend!(db, push::done(id))
}

pub async fn retry<'a>(db: impl Into<Db<'a>>, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    backend!(db, push::retry(id, error, next_attempt_at))
}

pub async fn pending_count<'a>(db: impl Into<Db<'a>>) -> Result<i64> {
    backend!(db, push::pending_count())
}

pub async fn next_due_at<'a>(db: impl Into<Db<'a>>) -> Result<Option<i64>> {
    backend!(db, push::next_due_at())
}
