//! Resumable uploads and their batches (migration 0004). Whose upload a row is, and
//! what may be done with it, is the caller's to decide.

use super::{Db, Result};

pub use sitecast_store_core::{BatchRow, Publish, UploadRow};

pub async fn insert<'a>(db: impl Into<Db<'a>>, row: &UploadRow) -> Result<()> {
    backend!(db, uploads::insert(row))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<UploadRow>> {
    backend!(db, uploads::find(id))
}

/// Unfinished uploads of a user (the cap on how many may be open at once).
pub async fn count_open<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<i64> {
    backend!(db, uploads::count_open(user_id))
}

/// Files created so far in a batch.
pub async fn count_in_batch<'a>(db: impl Into<Db<'a>>, batch_id: &str) -> Result<i64> {
    backend!(db, uploads::count_in_batch(batch_id))
}

/// Marks an upload finished, once, kept until `expires_at`: false when it already was.
pub async fn finish<'a>(db: impl Into<Db<'a>>, id: &str, now: i64, expires_at: i64, photo_id: Option<&str>, refused: Option<&str>) -> Result<bool> {
    backend!(db, uploads::finish(id, now, expires_at, photo_id, refused))
}

/// Pushes an unfinished upload's expiry on (it is still being sent).
pub async fn extend<'a>(db: impl Into<Db<'a>>, id: &str, expires_at: i64) -> Result<()> {
    backend!(db, uploads::extend(id, expires_at))
}

pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, uploads::delete(id))
}

/// Releases a held upload into site visit `batch_id` with its photo's fields, once:
/// false when it is not (or no longer) held and unfinished.
pub async fn publish<'a>(db: impl Into<Db<'a>>, id: &str, batch_id: &str, fields: &Publish<'_>) -> Result<bool> {
    backend!(db, uploads::publish(id, batch_id, fields))
}

/// Released, unfinished uploads whose expiry is before `expires_before`, 100 at a time.
pub async fn released_unfinished<'a>(db: impl Into<Db<'a>>, expires_before: i64) -> Result<Vec<UploadRow>> {
    backend!(db, uploads::released_unfinished(expires_before))
}

/// Uploads past their expiry, finished or not.
pub async fn expired<'a>(db: impl Into<Db<'a>>, now: i64) -> Result<Vec<UploadRow>> {
    backend!(db, uploads::expired(now))
}

/// Every upload id (the sweep of partial files without a row).
pub async fn all_ids<'a>(db: impl Into<Db<'a>>) -> Result<Vec<String>> {
    backend!(db, uploads::all_ids())
}

/// Opens a batch, or leaves the one already opened by an earlier file of it alone.
pub async fn open_batch<'a>(db: impl Into<Db<'a>>, batch: &BatchRow) -> Result<()> {
    backend!(db, uploads::open_batch(batch))
}

pub async fn find_batch<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<BatchRow>> {
    backend!(db, uploads::find_batch(id))
}

/// Counts one finished file of a batch; answers the batch when this file completed it
/// (exactly once: the update that reaches the count is the one that sets completed_at).
pub async fn count_finished<'a>(db: impl Into<Db<'a>>, batch_id: &str, stored: bool, now: i64) -> Result<Option<BatchRow>> {
    backend!(db, uploads::count_finished(batch_id, stored, now))
}

/// Closes batches opened before `before` that never completed (files declared but never
/// created: the tab closed first); answers those it closed.
pub async fn close_stale_batches<'a>(db: impl Into<Db<'a>>, before: i64, now: i64) -> Result<Vec<BatchRow>> {
    backend!(db, uploads::close_stale_batches(before, now))
}

/// Completed batches older than `before` (their uploads are gone): dropped.
pub async fn delete_old_batches<'a>(db: impl Into<Db<'a>>, before: i64) -> Result<u64> {
    backend!(db, uploads::delete_old_batches(before))
}
