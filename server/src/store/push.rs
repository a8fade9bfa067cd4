//! Push subscriptions, on either backend (what waits to be pushed is in `outbox`).

use super::{Db, Result};

pub use sitecast_store_core::{NewPushSubscription, PushSubscriptionRow};

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
