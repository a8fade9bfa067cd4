//! Progress reports: one row per report, its progress kept while it is made.

use sitecast_store_core::{decode, ReportRow, Result};
use sqlx::types::Json;
use sqlx::SqliteConnection;

/// A report row before its status is decoded.
struct Record {
    id: String,
    project_id: String,
    created_by: Option<String>,
    options: String,
    status: String,
    done: i64,
    total: i64,
    pages: Option<i64>,
    byte_size: Option<i64>,
    storage_key: Option<String>,
    error: Option<String>,
    created_at: i64,
    updated_at: i64,
    finished_at: Option<i64>,
    mailed_at: Option<i64>,
    mailed_to: Option<String>,
}

impl TryFrom<Record> for ReportRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<ReportRow> {
        Ok(ReportRow {
            status: decode("reports.status", &r.status)?,
            id: r.id,
            project_id: r.project_id,
            created_by: r.created_by,
            options: r.options,
            done: i32::try_from(r.done).unwrap_or(i32::MAX),
            total: i32::try_from(r.total).unwrap_or(i32::MAX),
            pages: r.pages.map(|p| i32::try_from(p).unwrap_or(i32::MAX)),
            byte_size: r.byte_size,
            storage_key: r.storage_key,
            error: r.error,
            created_at: r.created_at,
            updated_at: r.updated_at,
            finished_at: r.finished_at,
            mailed_at: r.mailed_at,
            mailed_to: r.mailed_to,
        })
    }
}

pub async fn insert(c: &mut SqliteConnection, r: &ReportRow, content: &str) -> Result<()> {
    let status = r.status.as_str();
    sqlx::query!(
        "INSERT INTO reports (id, project_id, created_by, options, status, done, total, pages, byte_size, storage_key,
             error, created_at, updated_at, finished_at, content)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        r.id,
        r.project_id,
        r.created_by,
        r.options,
        status,
        r.done,
        r.total,
        r.pages,
        r.byte_size,
        r.storage_key,
        r.error,
        r.created_at,
        r.updated_at,
        r.finished_at,
        content,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<ReportRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, created_by, options, status, done, total, pages, byte_size, storage_key,
               error, created_at, updated_at, finished_at, mailed_at, mailed_to
           FROM reports WHERE id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(ReportRow::try_from)
    .transpose()
}

/// A project's reports, newest first, at most `limit`.
pub async fn list_for_project(c: &mut SqliteConnection, project_id: &str, limit: i64) -> Result<Vec<ReportRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, created_by, options, status, done, total, pages, byte_size, storage_key,
               error, created_at, updated_at, finished_at, mailed_at, mailed_to
           FROM reports WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"#,
        project_id,
        limit
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(ReportRow::try_from)
    .collect()
}

/// Moves a report being made on to `done` photos; false when it is no longer being made.
pub async fn progress(c: &mut SqliteConnection, id: &str, done: i32, now: i64) -> Result<bool> {
    let moved = sqlx::query!(
        "UPDATE reports SET done = $2, updated_at = $3 WHERE id = $1 AND status = 'generating'",
        id,
        done,
        now
    )
    .execute(&mut *c)
    .await?;
    Ok(moved.rows_affected() == 1)
}

/// Marks a report being made ready; false when it is gone or no longer being made.
pub async fn finish(c: &mut SqliteConnection, id: &str, pages: i32, byte_size: i64, storage_key: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE reports SET status = 'ready', done = total, pages = $2, byte_size = $3, storage_key = $4,
             updated_at = $5, finished_at = $5
         WHERE id = $1 AND status = 'generating'",
        id,
        pages,
        byte_size,
        storage_key,
        now
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks a report being made failed with a reason; false when it is not being made.
pub async fn fail(c: &mut SqliteConnection, id: &str, error: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE reports SET status = 'failed', error = $2, updated_at = $3, finished_at = $3
         WHERE id = $1 AND status = 'generating'",
        id,
        error,
        now
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks failed every report still being made that has not moved since `before` (its
/// instance stopped); answers their ids and projects.
pub async fn fail_stale(c: &mut SqliteConnection, before: i64, error: &str, now: i64) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query!(
        r#"UPDATE reports SET status = 'failed', error = $2, updated_at = $3, finished_at = $3
           WHERE status = 'generating' AND updated_at < $1
           RETURNING id AS "id!", project_id"#,
        before,
        error,
        now
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.id, r.project_id))
    .collect())
}

/// Deletes a report row; answers its stored file's key when it had one.
pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<Option<Option<String>>> {
    Ok(sqlx::query!("DELETE FROM reports WHERE id = $1 RETURNING storage_key", id)
        .fetch_optional(&mut *c)
        .await?
        .map(|r| r.storage_key))
}

/// The stored files of the reports of these projects (to remove with the projects).
pub async fn storage_keys_of_projects(c: &mut SqliteConnection, project_ids: &[String]) -> Result<Vec<String>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = Json(project_ids);
    Ok(sqlx::query!(
        r#"SELECT storage_key AS "storage_key!" FROM reports
           WHERE storage_key IS NOT NULL AND project_id IN (SELECT value FROM json_each($1))"#,
        ids
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| r.storage_key)
    .collect())
}

/// What a report shows as it was made (JSON text): `None` when there is no such report,
/// `Some(None)` for one made before its content was kept.
pub async fn content(c: &mut SqliteConnection, id: &str) -> Result<Option<Option<String>>> {
    Ok(sqlx::query!("SELECT content FROM reports WHERE id = $1", id).fetch_optional(&mut *c).await?.map(|r| r.content))
}

/// Records that a report was mailed to `to` (a display name); false when it is gone.
pub async fn mark_mailed(c: &mut SqliteConnection, id: &str, to: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!("UPDATE reports SET mailed_at = $2, mailed_to = $3 WHERE id = $1", id, now, to)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() == 1)
}
