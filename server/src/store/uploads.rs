//! Resumable uploads and their batches (migration 0004). Whose upload a row is, and
//! what may be done with it, is the caller's to decide.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct UploadRow {
    pub id: String,
    pub project_id: String,
    pub user_id: String,
    pub batch_id: Option<String>,
    pub file_name: String,
    pub caption: Option<String>,
    pub category: Option<String>,
    pub length: i64,
    pub created_at: i64,
    pub expires_at: i64,
    pub finished_at: Option<i64>,
    pub photo_id: Option<String>,
    pub refused: Option<String>,
    /// The milestone its photo is to be tagged with (issue 18).
    pub milestone_id: Option<String>,
}

const COLUMNS: &str = "id, project_id, user_id, batch_id, file_name, caption, category, length, created_at, \
     expires_at, finished_at, photo_id, refused, milestone_id";

#[derive(Debug, Clone, FromRow)]
pub struct BatchRow {
    pub id: String,
    pub project_id: String,
    pub user_id: String,
    pub note: Option<String>,
    pub file_count: i64,
    pub finished: i64,
    pub stored: i64,
    pub created_at: i64,
    pub completed_at: Option<i64>,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, row: &UploadRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO uploads (id, project_id, user_id, batch_id, file_name, caption, category, length, \
         created_at, expires_at, milestone_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&row.id)
    .bind(&row.project_id)
    .bind(&row.user_id)
    .bind(&row.batch_id)
    .bind(&row.file_name)
    .bind(&row.caption)
    .bind(&row.category)
    .bind(row.length)
    .bind(row.created_at)
    .bind(row.expires_at)
    .bind(&row.milestone_id)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<UploadRow>> {
    Ok(sqlx::query_as::<_, UploadRow>(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM uploads WHERE id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// Unfinished uploads of a user (the cap on how many may be open at once).
pub async fn count_open<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM uploads WHERE user_id = $1 AND finished_at IS NULL")
        .bind(user_id)
        .fetch_one(ex)
        .await?)
}

/// Files created so far in a batch.
pub async fn count_in_batch<'e, E: Executor<'e, Database = Any>>(ex: E, batch_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM uploads WHERE batch_id = $1").bind(batch_id).fetch_one(ex).await?)
}

/// Marks an upload finished, once, kept until `expires_at`: false when it already was.
pub async fn finish<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    now: i64,
    expires_at: i64,
    photo_id: Option<&str>,
    refused: Option<&str>,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE uploads SET finished_at = $2, expires_at = $5, photo_id = $3, refused = $4 \
         WHERE id = $1 AND finished_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .bind(photo_id)
    .bind(refused)
    .bind(expires_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Pushes an unfinished upload's expiry on (it is still being sent).
pub async fn extend<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, expires_at: i64) -> Result<()> {
    sqlx::query("UPDATE uploads SET expires_at = $2 WHERE id = $1 AND finished_at IS NULL")
        .bind(id)
        .bind(expires_at)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    Ok(sqlx::query("DELETE FROM uploads WHERE id = $1").bind(id).execute(ex).await?.rows_affected() == 1)
}

/// Uploads past their expiry, finished or not.
pub async fn expired<'e, E: Executor<'e, Database = Any>>(ex: E, now: i64) -> Result<Vec<UploadRow>> {
    Ok(sqlx::query_as::<_, UploadRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT 500"
    )))
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Every upload id (the sweep of partial files without a row).
pub async fn all_ids<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar("SELECT id FROM uploads").fetch_all(ex).await?)
}

/// Opens a batch, or leaves the one already opened by an earlier file of it alone.
pub async fn open_batch<'e, E: Executor<'e, Database = Any>>(ex: E, batch: &BatchRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO upload_batches (id, project_id, user_id, note, file_count, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
    )
    .bind(&batch.id)
    .bind(&batch.project_id)
    .bind(&batch.user_id)
    .bind(&batch.note)
    .bind(batch.file_count)
    .bind(batch.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find_batch<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<BatchRow>> {
    Ok(sqlx::query_as::<_, BatchRow>(
        "SELECT id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at \
         FROM upload_batches WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Counts one finished file of a batch; answers the batch when this file completed it
/// (exactly once: the update that reaches the count is the one that sets completed_at).
pub async fn count_finished<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    batch_id: &str,
    stored: bool,
    now: i64,
) -> Result<Option<BatchRow>> {
    Ok(sqlx::query_as::<_, BatchRow>(
        "UPDATE upload_batches SET finished = finished + 1, stored = stored + $2, \
           completed_at = CASE WHEN completed_at IS NULL AND finished + 1 >= file_count THEN $3 ELSE completed_at END \
         WHERE id = $1 \
         RETURNING id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at",
    )
    .bind(batch_id)
    .bind(i64::from(stored))
    .bind(now)
    .fetch_optional(ex)
    .await?
    .filter(|b| b.completed_at == Some(now) && b.finished == b.file_count))
}

/// Closes batches opened before `before` that never completed (files declared but never
/// created: the tab closed first); answers those it closed.
pub async fn close_stale_batches<'e, E: Executor<'e, Database = Any>>(ex: E, before: i64, now: i64) -> Result<Vec<BatchRow>> {
    Ok(sqlx::query_as::<_, BatchRow>(
        "UPDATE upload_batches SET completed_at = $2 \
         WHERE completed_at IS NULL AND created_at < $1 \
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id AND uploads.finished_at IS NULL) \
         RETURNING id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at",
    )
    .bind(before)
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Completed batches older than `before` (their uploads are gone): dropped.
pub async fn delete_old_batches<'e, E: Executor<'e, Database = Any>>(ex: E, before: i64) -> Result<u64> {
    Ok(sqlx::query(
        "DELETE FROM upload_batches WHERE completed_at IS NOT NULL AND completed_at < $1 \
           AND NOT EXISTS (SELECT 1 FROM uploads WHERE uploads.batch_id = upload_batches.id)",
    )
    .bind(before)
    .execute(ex)
    .await?
    .rows_affected())
}
