//! Resumable uploads and their batches (migration 0004). Whose upload a row is, and
//! what may be done with it, is the caller's to decide.

use sitecast_store_core::{decode_opt, BatchRow, Publish, Result, UploadRow};
use sqlx::SqliteConnection;

/// An upload as a SELECT reads it, before its category is decoded.
struct Record {
    id: String,
    project_id: String,
    user_id: String,
    batch_id: Option<String>,
    file_name: String,
    caption: Option<String>,
    category: Option<String>,
    length: i64,
    created_at: i64,
    expires_at: i64,
    finished_at: Option<i64>,
    photo_id: Option<String>,
    refused: Option<String>,
    milestone_id: Option<String>,
    tags: String,
    held: bool,
}

impl TryFrom<Record> for UploadRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<UploadRow> {
        Ok(UploadRow {
            category: decode_opt("uploads.category", r.category.as_deref())?,
            id: r.id,
            project_id: r.project_id,
            user_id: r.user_id,
            batch_id: r.batch_id,
            file_name: r.file_name,
            caption: r.caption,
            length: r.length,
            created_at: r.created_at,
            expires_at: r.expires_at,
            finished_at: r.finished_at,
            photo_id: r.photo_id,
            refused: r.refused,
            milestone_id: r.milestone_id,
            tags: crate::tags::decode(&r.tags)?,
            held: r.held,
        })
    }
}

pub async fn insert(c: &mut SqliteConnection, row: &UploadRow) -> Result<()> {
    let category = row.category.map(|k| k.as_str());
    let tags = crate::tags::encode(&row.tags);
    sqlx::query!(
        "INSERT INTO uploads (id, project_id, user_id, batch_id, file_name, caption, category, length, \
         created_at, expires_at, milestone_id, tags, held) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        row.id,
        row.project_id,
        row.user_id,
        row.batch_id,
        row.file_name,
        row.caption,
        category,
        row.length,
        row.created_at,
        row.expires_at,
        row.milestone_id,
        tags,
        row.held,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<UploadRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, user_id, batch_id, file_name, caption, category, length, created_at,
            expires_at, finished_at, photo_id, refused, milestone_id, tags, held AS "held: bool"
        FROM uploads WHERE id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(UploadRow::try_from)
    .transpose()
}

/// Unfinished uploads of a user (the cap on how many may be open at once).
pub async fn count_open(c: &mut SqliteConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "count!: i64" FROM uploads WHERE user_id = $1 AND finished_at IS NULL"#,
        user_id
    )
    .fetch_one(&mut *c)
    .await?)
}

/// Files created so far in a batch.
pub async fn count_in_batch(c: &mut SqliteConnection, batch_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM uploads WHERE batch_id = $1"#, batch_id)
        .fetch_one(&mut *c)
        .await?)
}

/// Marks an upload finished, once, kept until `expires_at`: false when it already was.
pub async fn finish(
    c: &mut SqliteConnection,
    id: &str,
    now: i64,
    expires_at: i64,
    photo_id: Option<&str>,
    refused: Option<&str>,
) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE uploads SET finished_at = $2, expires_at = $5, photo_id = $3, refused = $4 \
         WHERE id = $1 AND finished_at IS NULL",
        id,
        now,
        photo_id,
        refused,
        expires_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Pushes an unfinished upload's expiry on (it is still being sent).
pub async fn extend(c: &mut SqliteConnection, id: &str, expires_at: i64) -> Result<()> {
    sqlx::query!("UPDATE uploads SET expires_at = $2 WHERE id = $1 AND finished_at IS NULL", id, expires_at)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    Ok(sqlx::query!("DELETE FROM uploads WHERE id = $1", id).execute(&mut *c).await?.rows_affected() == 1)
}

/// Uploads past their expiry, finished or not: the soonest expired first, 500 at a
/// time (the sweep comes round again for the rest).
pub async fn expired(c: &mut SqliteConnection, now: i64) -> Result<Vec<UploadRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, user_id, batch_id, file_name, caption, category, length, created_at,
            expires_at, finished_at, photo_id, refused, milestone_id, tags, held AS "held: bool"
        FROM uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT 500"#,
        now
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(UploadRow::try_from)
    .collect()
}

/// Releases a held upload into site visit `batch_id` with its photo's fields, once:
/// false when it is not (or no longer) held and unfinished.
pub async fn publish(c: &mut SqliteConnection, id: &str, batch_id: &str, fields: &Publish<'_>) -> Result<bool> {
    let category = fields.category.map(|k| k.as_str());
    let tags = crate::tags::encode(fields.tags);
    let done = sqlx::query!(
        "UPDATE uploads SET held = FALSE, batch_id = $2, caption = $3, category = $4, milestone_id = $5, tags = $6 \
         WHERE id = $1 AND held AND finished_at IS NULL",
        id,
        batch_id,
        fields.caption,
        category,
        fields.milestone_id,
        tags,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Released, unfinished uploads whose last byte came before `expires_before` less the
/// time to live: those whose finishing was cut off (a restart) are among them.
pub async fn released_unfinished(c: &mut SqliteConnection, expires_before: i64) -> Result<Vec<UploadRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, user_id, batch_id, file_name, caption, category, length, created_at,
            expires_at, finished_at, photo_id, refused, milestone_id, tags, held AS "held: bool"
        FROM uploads WHERE finished_at IS NULL AND NOT held AND expires_at < $1 ORDER BY expires_at LIMIT 100"#,
        expires_before
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(UploadRow::try_from)
    .collect()
}

/// Every upload id (the sweep of partial files without a row).
pub async fn all_ids(c: &mut SqliteConnection) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(r#"SELECT id AS "id!" FROM uploads"#).fetch_all(&mut *c).await?)
}

/// Opens a batch, or leaves the one already opened by an earlier file of it alone.
pub async fn open_batch(c: &mut SqliteConnection, batch: &BatchRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO upload_batches (id, project_id, user_id, note, file_count, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
        batch.id,
        batch.project_id,
        batch.user_id,
        batch.note,
        batch.file_count,
        batch.created_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find_batch(c: &mut SqliteConnection, id: &str) -> Result<Option<BatchRow>> {
    Ok(sqlx::query_as!(
        BatchRow,
        r#"SELECT id AS "id!", project_id, user_id, note, file_count, finished, stored, created_at, completed_at
        FROM upload_batches WHERE id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?)
}

/// Counts one finished file of a batch; answers the batch when this file completed it
/// (exactly once: the update that reaches the count is the one that sets completed_at).
/// The SET expressions read the row as it was (`finished + 1` is this file's count);
/// RETURNING gives it as written.
pub async fn count_finished(c: &mut SqliteConnection, batch_id: &str, stored: bool, now: i64) -> Result<Option<BatchRow>> {
    Ok(sqlx::query_as!(
        BatchRow,
        r#"UPDATE upload_batches SET finished = finished + 1, stored = stored + $2,
           completed_at = CASE WHEN completed_at IS NULL AND finished + 1 >= file_count THEN $3 ELSE completed_at END
         WHERE id = $1
         RETURNING id AS "id!", project_id AS "project_id!", user_id AS "user_id!", note,
           file_count AS "file_count!", finished AS "finished!", stored AS "stored!", created_at AS "created_at!",
           completed_at AS "completed_at?""#,
        batch_id,
        stored,
        now
    )
    .fetch_optional(&mut *c)
    .await?
    .filter(|b| b.completed_at == Some(now) && b.finished == b.file_count))
}

/// Closes batches opened before `before` that never completed (files declared but never
/// created: the tab closed first); answers those it closed. A batch with a file still
/// being sent stays open: that file's finish completes it.
pub async fn close_stale_batches(c: &mut SqliteConnection, before: i64, now: i64) -> Result<Vec<BatchRow>> {
    Ok(sqlx::query_as!(
        BatchRow,
        r#"UPDATE upload_batches SET completed_at = $2
         WHERE completed_at IS NULL AND created_at < $1
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id
             AND uploads.finished_at IS NULL)
         RETURNING id AS "id!", project_id AS "project_id!", user_id AS "user_id!", note,
           file_count AS "file_count!", finished AS "finished!", stored AS "stored!", created_at AS "created_at!",
           completed_at AS "completed_at?""#,
        before,
        now
    )
    .fetch_all(&mut *c)
    .await?)
}

/// Completed batches older than `before` (their uploads are gone): dropped.
pub async fn delete_old_batches(c: &mut SqliteConnection, before: i64) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM upload_batches WHERE completed_at IS NOT NULL AND completed_at < $1 \
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id)",
        before
    )
    .execute(&mut *c)
    .await?
    .rows_affected())
}
