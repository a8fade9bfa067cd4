//! The durable mail queue. Rows are claimed with a lease (`claimed_until`) by a
//! conditional UPDATE, which works the same on SQLite and Postgres and lets several
//! instances share one queue without sending a mail twice while a lease holds.

use super::{Db, Result};

pub use sitecast_store_core::{MailAttachment, NewMail, OutboxRow};

pub async fn insert<'a>(db: impl Into<Db<'a>>, m: &NewMail<'_>) -> Result<()> {
    backend!(db, outbox::insert(m))
}

/// Ids of unsent mail that is due and not leased by another worker.
pub async fn due_ids<'a>(db: impl Into<Db<'a>>, now: i64, limit: i64) -> Result<Vec<String>> {
    backend!(db, outbox::due_ids(now, limit))
}

/// Takes a lease on one mail; `None` when another worker got it first.
pub async fn claim<'a>(db: impl Into<Db<'a>>, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    backend!(db, outbox::claim(id, now, lease_until))
}

pub async fn mark_sent<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, outbox::mark_sent(id, now))
}

pub async fn mark_failed<'a>(db: impl Into<Db<'a>>, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    backend!(db, outbox::mark_failed(id, error, next_attempt_at))
}

/// Unsent mail count; shown by the health endpoint and used by tests.
pub async fn pending_count<'a>(db: impl Into<Db<'a>>) -> Result<i64> {
    backend!(db, outbox::pending_count())
}

/// The next time any unsent mail falls due, so the worker can sleep until then.
pub async fn next_due_at<'a>(db: impl Into<Db<'a>>) -> Result<Option<i64>> {
    backend!(db, outbox::next_due_at())
}
