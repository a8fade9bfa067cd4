//! A user's notifications: kept 90 days (the hourly maintenance deletes older ones),
//! read a page at a time, newest first.

use protocol::Role;

use super::{Db, Result};

pub use sitecast_store_core::{NotificationRow};

/// `mail_pending`: the notification waits for its user's next digest mail.
pub async fn insert<'a>(db: impl Into<Db<'a>>, n: &NotificationRow, mail_pending: bool) -> Result<()> {
    backend!(db, notifications::insert(n, mail_pending))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<NotificationRow>> {
    backend!(db, notifications::find(id))
}

/// Up to `limit` of the user's notifications created before `before`, newest first.
pub async fn page<'a>(db: impl Into<Db<'a>>, user_id: &str, before: i64, limit: i64) -> Result<Vec<NotificationRow>> {
    backend!(db, notifications::page(user_id, before, limit))
}

pub async fn unread_count<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<i64> {
    backend!(db, notifications::unread_count(user_id))
}

/// Marks one of the user's notifications read; false when it was read already (or
/// is not theirs).
pub async fn mark_read<'a>(db: impl Into<Db<'a>>, user_id: &str, id: &str, now: i64) -> Result<bool> {
    backend!(db, notifications::mark_read(user_id, id, now))
}

/// Marks all of the user's notifications read; how many were unread.
pub async fn mark_all_read<'a>(db: impl Into<Db<'a>>, user_id: &str, now: i64) -> Result<u64> {
    backend!(db, notifications::mark_all_read(user_id, now))
}

/// Deletes notifications created before `cutoff`; how many.
pub async fn delete_older_than<'a>(db: impl Into<Db<'a>>, cutoff: i64) -> Result<u64> {
    backend!(db, notifications::delete_older_than(cutoff))
}

/// Users with notifications waiting for a digest, the oldest created at or before
/// `cutoff`.
pub async fn digest_due<'a>(db: impl Into<Db<'a>>, cutoff: i64) -> Result<Vec<String>> {
    backend!(db, notifications::digest_due(cutoff))
}

/// A user's notifications waiting for a digest, oldest first.
pub async fn digest_pending<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<NotificationRow>> {
    backend!(db, notifications::digest_pending(user_id))
}

/// Takes one notification out of the digest queue; false when another instance
/// already did.
pub async fn take_for_digest<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, notifications::take_for_digest(id))
}

/// Distinct authors of a photo's comments, with their roles.
pub async fn commenters_of_image<'a>(db: impl Into<Db<'a>>, image_id: &str) -> Result<Vec<(String, Role)>> {
    backend!(db, notifications::commenters_of_image(image_id))
}
