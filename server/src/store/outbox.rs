//! The outbox: mail and pushes waiting to be sent, in one table. Rows are claimed with
//! a lease (`claimed_until`) by a conditional UPDATE, which works the same on SQLite and
//! Postgres and lets several instances share one queue without sending a message twice
//! while a lease holds. Each kind is written by its own insert (their columns differ);
//! claiming, retrying and finishing are one API for both.

use super::{Db, Result};

pub use sitecast_store_core::{
    MailAttachment, NewMail, NewPush, OutboxKind, OutboxPending, OutboxRow, Queued, QueuedMail, QueuedPush,
};

/// Queues a mail; inside the transaction of the change that causes it.
pub async fn insert_mail<'a>(db: impl Into<Db<'a>>, m: &NewMail<'_>) -> Result<()> {
    backend!(db, outbox::insert_mail(m))
}

/// Queues a push to one subscription; inside the transaction of its notification.
pub async fn insert_push<'a>(db: impl Into<Db<'a>>, p: &NewPush<'_>) -> Result<()> {
    backend!(db, outbox::insert_push(p))
}

/// Ids of unsent messages of `kind` that are due and not leased by another worker.
pub async fn due_ids<'a>(db: impl Into<Db<'a>>, kind: OutboxKind, now: i64, limit: i64) -> Result<Vec<String>> {
    backend!(db, outbox::due_ids(kind, now, limit))
}

/// Takes a lease on one message; `None` when another worker got it first.
pub async fn claim<'a>(db: impl Into<Db<'a>>, id: &str, now: i64, lease_until: i64) -> Result<Option<OutboxRow>> {
    backend!(db, outbox::claim(id, now, lease_until))
}

/// Not sent this time: due again at `next_attempt_at`.
pub async fn retry<'a>(db: impl Into<Db<'a>>, id: &str, error: &str, next_attempt_at: i64) -> Result<()> {
    backend!(db, outbox::retry(id, error, next_attempt_at))
}

/// Sent, or given up on: it leaves the queue (a mail stays, marked sent).
pub async fn done<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, outbox::done(id, now))
}

/// Unsent messages of each kind; shown by the health endpoint and the metrics.
pub async fn pending<'a>(db: impl Into<Db<'a>>) -> Result<OutboxPending> {
    backend!(db, outbox::pending())
}

/// The next time an unsent message of `kind` falls due, so the worker can sleep until then.
pub async fn next_due_at<'a>(db: impl Into<Db<'a>>, kind: OutboxKind) -> Result<Option<i64>> {
    backend!(db, outbox::next_due_at(kind))
}
