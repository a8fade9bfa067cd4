//! Resumable uploads and their batches (migration 0004). Whose upload a row is, and
//! what may be done with it, is the caller's to decide.

use sitecast_store_core::{decode_opt, BatchRow, Publish, Result, UploadRow};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_id, opt_ms, opt_text, text};

/// An upload as Postgres returns it.
struct UploadRec {
    id: Uuid,
    project_id: Uuid,
    user_id: Uuid,
    batch_id: Option<Uuid>,
    file_name: String,
    caption: Option<String>,
    category: Option<String>,
    length: i64,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
    finished_at: Option<OffsetDateTime>,
    photo_id: Option<Uuid>,
    refused: Option<String>,
    milestone_id: Option<Uuid>,
    tags: Vec<String>,
    held: bool,
}

impl UploadRec {
    fn into_row(self) -> Result<UploadRow> {
        Ok(UploadRow {
            id: text(self.id),
            project_id: text(self.project_id),
            user_id: text(self.user_id),
            batch_id: opt_text(self.batch_id),
            file_name: self.file_name,
            caption: self.caption,
            category: decode_opt("uploads.category", self.category.as_deref())?,
            length: self.length,
            created_at: ms(self.created_at),
            expires_at: ms(self.expires_at),
            finished_at: opt_ms(self.finished_at),
            photo_id: opt_text(self.photo_id),
            refused: self.refused,
            milestone_id: opt_text(self.milestone_id),
            tags: self.tags,
            held: self.held,
        })
    }
}

/// A batch as Postgres returns it.
struct BatchRec {
    id: Uuid,
    project_id: Uuid,
    user_id: Uuid,
    note: Option<String>,
    file_count: i64,
    finished: i64,
    stored: i64,
    created_at: OffsetDateTime,
    completed_at: Option<OffsetDateTime>,
}

impl From<BatchRec> for BatchRow {
    fn from(b: BatchRec) -> BatchRow {
        BatchRow {
            id: text(b.id),
            project_id: text(b.project_id),
            user_id: text(b.user_id),
            note: b.note,
            file_count: b.file_count,
            finished: b.finished,
            stored: b.stored,
            created_at: ms(b.created_at),
            completed_at: opt_ms(b.completed_at),
        }
    }
}

pub async fn insert(c: &mut PgConnection, row: &UploadRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO uploads (id, project_id, user_id, batch_id, file_name, caption, category, length,
           created_at, expires_at, milestone_id, tags, held)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        uid(&row.id),
        uid(&row.project_id),
        uid(&row.user_id),
        opt_id(row.batch_id.as_deref()),
        row.file_name,
        row.caption.as_deref(),
        row.category.map(|c| c.as_str()),
        row.length,
        at(row.created_at),
        at(row.expires_at),
        opt_id(row.milestone_id.as_deref()),
        &row.tags,
        row.held,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<UploadRow>> {
    sqlx::query_as!(
        UploadRec,
        "SELECT id, project_id, user_id, batch_id, file_name, caption, category, length, created_at,
           expires_at, finished_at, photo_id, refused, milestone_id, tags, held
         FROM uploads WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(UploadRec::into_row)
    .transpose()
}

/// Unfinished uploads of a user (the cap on how many may be open at once).
pub async fn count_open(c: &mut PgConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!" FROM uploads WHERE user_id = $1 AND finished_at IS NULL"#,
        uid(user_id),
    )
    .fetch_one(&mut *c)
    .await?)
}

/// Files created so far in a batch.
pub async fn count_in_batch(c: &mut PgConnection, batch_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM uploads WHERE batch_id = $1"#, uid(batch_id))
        .fetch_one(&mut *c)
        .await?)
}

/// Marks an upload finished, once, kept until `expires_at`: false when it already was.
pub async fn finish(
    c: &mut PgConnection,
    id: &str,
    now: i64,
    expires_at: i64,
    photo_id: Option<&str>,
    refused: Option<&str>,
) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE uploads SET finished_at = $2, expires_at = $5, photo_id = $3, refused = $4
         WHERE id = $1 AND finished_at IS NULL",
        uid(id),
        at(now),
        opt_id(photo_id),
        refused,
        at(expires_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Pushes an unfinished upload's expiry on (it is still being sent).
pub async fn extend(c: &mut PgConnection, id: &str, expires_at: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE uploads SET expires_at = $2 WHERE id = $1 AND finished_at IS NULL",
        uid(id),
        at(expires_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    Ok(sqlx::query!("DELETE FROM uploads WHERE id = $1", uid(id)).execute(&mut *c).await?.rows_affected() == 1)
}

/// Uploads past their expiry, finished or not, the longest expired first, 500 at a time.
pub async fn expired(c: &mut PgConnection, now: i64) -> Result<Vec<UploadRow>> {
    sqlx::query_as!(
        UploadRec,
        "SELECT id, project_id, user_id, batch_id, file_name, caption, category, length, created_at,
           expires_at, finished_at, photo_id, refused, milestone_id, tags, held
         FROM uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT 500",
        at(now),
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(UploadRec::into_row)
    .collect()
}

/// Releases a held upload into site visit `batch_id` with its photo's fields, once:
/// false when it is not (or no longer) held and unfinished.
pub async fn publish(c: &mut PgConnection, id: &str, batch_id: &str, fields: &Publish<'_>) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE uploads SET held = FALSE, batch_id = $2, caption = $3, category = $4, milestone_id = $5, tags = $6
         WHERE id = $1 AND held AND finished_at IS NULL",
        uid(id),
        uid(batch_id),
        fields.caption,
        fields.category.map(|c| c.as_str()),
        opt_id(fields.milestone_id),
        fields.tags,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Released, unfinished uploads whose last byte came before `expires_before` less the
/// time to live: those whose finishing was cut off (a restart) are among them.
pub async fn released_unfinished(c: &mut PgConnection, expires_before: i64) -> Result<Vec<UploadRow>> {
    sqlx::query_as!(
        UploadRec,
        "SELECT id, project_id, user_id, batch_id, file_name, caption, category, length, created_at,
           expires_at, finished_at, photo_id, refused, milestone_id, tags, held
         FROM uploads WHERE finished_at IS NULL AND NOT held AND expires_at < $1 ORDER BY expires_at LIMIT 100",
        at(expires_before),
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(UploadRec::into_row)
    .collect()
}

/// Every upload id (the sweep of partial files without a row).
pub async fn all_ids(c: &mut PgConnection) -> Result<Vec<String>> {
    let ids = sqlx::query_scalar!("SELECT id FROM uploads").fetch_all(&mut *c).await?;
    Ok(ids.into_iter().map(text).collect())
}

/// Opens a batch, or leaves the one already opened by an earlier file of it alone.
pub async fn open_batch(c: &mut PgConnection, batch: &BatchRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO upload_batches (id, project_id, user_id, note, file_count, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
        uid(&batch.id),
        uid(&batch.project_id),
        uid(&batch.user_id),
        batch.note.as_deref(),
        batch.file_count,
        at(batch.created_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find_batch(c: &mut PgConnection, id: &str) -> Result<Option<BatchRow>> {
    let rec = sqlx::query_as!(
        BatchRec,
        "SELECT id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at
         FROM upload_batches WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(rec.map(BatchRow::from))
}

/// Counts one finished file of a batch; answers the batch when this file completed it
/// (exactly once: the update that reaches the count is the one that sets completed_at).
/// The CASE reads the row as it was before this update (`finished + 1` is this file).
pub async fn count_finished(c: &mut PgConnection, batch_id: &str, stored: bool, now: i64) -> Result<Option<BatchRow>> {
    let rec = sqlx::query_as!(
        BatchRec,
        "UPDATE upload_batches SET finished = finished + 1, stored = stored + $2,
           completed_at = CASE WHEN completed_at IS NULL AND finished + 1 >= file_count THEN $3 ELSE completed_at END
         WHERE id = $1
         RETURNING id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at",
        uid(batch_id),
        i64::from(stored),
        at(now),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(rec.map(BatchRow::from).filter(|b| b.completed_at == Some(now) && b.finished == b.file_count))
}

/// Closes batches opened before `before` that never completed (files declared but never
/// created: the tab closed first) and have no upload still in progress; answers those
/// it closed.
pub async fn close_stale_batches(c: &mut PgConnection, before: i64, now: i64) -> Result<Vec<BatchRow>> {
    let recs = sqlx::query_as!(
        BatchRec,
        "UPDATE upload_batches SET completed_at = $2
         WHERE completed_at IS NULL AND created_at < $1
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id AND uploads.finished_at IS NULL)
         RETURNING id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at",
        at(before),
        at(now),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(BatchRow::from).collect())
}

/// Completed batches older than `before` whose uploads are all gone: dropped.
pub async fn delete_old_batches(c: &mut PgConnection, before: i64) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM upload_batches WHERE completed_at IS NOT NULL AND completed_at < $1
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id)",
        at(before),
    )
    .execute(&mut *c)
    .await?
    .rows_affected())
}
