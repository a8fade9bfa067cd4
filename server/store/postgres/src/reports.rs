//! Progress reports: one row per report, its progress kept while it is made.
//! `options` is `jsonb`, written from and read as JSON text (the domain owns its meaning).

use sitecast_store_core::{decode, ReportRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ids, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// A report row before its status is decoded.
struct Record {
    id: Uuid,
    project_id: Uuid,
    created_by: Option<Uuid>,
    options: String,
    status: String,
    done: i32,
    total: i32,
    pages: Option<i32>,
    byte_size: Option<i64>,
    storage_key: Option<String>,
    error: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    finished_at: Option<OffsetDateTime>,
    mailed_at: Option<OffsetDateTime>,
    mailed_to: Option<String>,
}

impl TryFrom<Record> for ReportRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<ReportRow> {
        Ok(ReportRow {
            status: decode("reports.status", &r.status)?,
            id: text(r.id),
            project_id: text(r.project_id),
            created_by: opt_text(r.created_by),
            options: r.options,
            done: r.done,
            total: r.total,
            pages: r.pages,
            byte_size: r.byte_size,
            storage_key: r.storage_key,
            error: r.error,
            created_at: ms(r.created_at),
            updated_at: ms(r.updated_at),
            finished_at: opt_ms(r.finished_at),
            mailed_at: opt_ms(r.mailed_at),
            mailed_to: r.mailed_to,
        })
    }
}

pub async fn insert(c: &mut PgConnection, r: &ReportRow, content: &str) -> Result<()> {
    sqlx::query!(
        "INSERT INTO reports (id, project_id, created_by, options, status, done, total, pages, byte_size, storage_key,
             error, created_at, updated_at, finished_at, content)
         VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::text::jsonb)",
        uid(&r.id),
        uid(&r.project_id),
        opt_id(r.created_by.as_deref()),
        r.options,
        r.status.as_str(),
        r.done,
        r.total,
        r.pages,
        r.byte_size,
        r.storage_key,
        r.error,
        at(r.created_at),
        at(r.updated_at),
        opt_at(r.finished_at),
        content,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<ReportRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id, project_id, created_by, options::text AS "options!", status, done, total, pages, byte_size,
               storage_key, error, created_at, updated_at, finished_at, mailed_at, mailed_to
           FROM reports WHERE id = $1"#,
        uid(id)
    )
    .fetch_optional(&mut *c)
    .await?
    .map(ReportRow::try_from)
    .transpose()
}

/// A project's reports, newest first, at most `limit`.
pub async fn list_for_project(c: &mut PgConnection, project_id: &str, limit: i64) -> Result<Vec<ReportRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id, project_id, created_by, options::text AS "options!", status, done, total, pages, byte_size,
               storage_key, error, created_at, updated_at, finished_at, mailed_at, mailed_to
           FROM reports WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"#,
        uid(project_id),
        limit
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(ReportRow::try_from)
    .collect()
}

/// Moves a report being made on to `done` photos; false when it is no longer being made.
pub async fn progress(c: &mut PgConnection, id: &str, done: i32, now: i64) -> Result<bool> {
    let moved = sqlx::query!(
        "UPDATE reports SET done = $2, updated_at = $3 WHERE id = $1 AND status = 'generating'",
        uid(id),
        done,
        at(now)
    )
    .execute(&mut *c)
    .await?;
    Ok(moved.rows_affected() == 1)
}

/// Marks a report being made ready; false when it is gone or no longer being made.
pub async fn finish(c: &mut PgConnection, id: &str, pages: i32, byte_size: i64, storage_key: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE reports SET status = 'ready', done = total, pages = $2, byte_size = $3, storage_key = $4,
             updated_at = $5, finished_at = $5
         WHERE id = $1 AND status = 'generating'",
        uid(id),
        pages,
        byte_size,
        storage_key,
        at(now)
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks a report being made failed with a reason; false when it is not being made.
pub async fn fail(c: &mut PgConnection, id: &str, error: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE reports SET status = 'failed', error = $2, updated_at = $3, finished_at = $3
         WHERE id = $1 AND status = 'generating'",
        uid(id),
        error,
        at(now)
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks failed every report still being made that has not moved since `before` (its
/// instance stopped); answers their ids and projects.
pub async fn fail_stale(c: &mut PgConnection, before: i64, error: &str, now: i64) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query!(
        "UPDATE reports SET status = 'failed', error = $2, updated_at = $3, finished_at = $3
         WHERE status = 'generating' AND updated_at < $1
         RETURNING id, project_id",
        at(before),
        error,
        at(now)
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (text(r.id), text(r.project_id)))
    .collect())
}

/// Deletes a report row; answers its stored file's key when it had one.
pub async fn delete(c: &mut PgConnection, id: &str) -> Result<Option<Option<String>>> {
    Ok(sqlx::query!("DELETE FROM reports WHERE id = $1 RETURNING storage_key", uid(id))
        .fetch_optional(&mut *c)
        .await?
        .map(|r| r.storage_key))
}

/// The stored files of the reports of these projects (to remove with the projects).
pub async fn storage_keys_of_projects(c: &mut PgConnection, project_ids: &[String]) -> Result<Vec<String>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(sqlx::query!(
        r#"SELECT storage_key AS "storage_key!" FROM reports WHERE storage_key IS NOT NULL AND project_id = ANY($1)"#,
        &ids(project_ids)[..]
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| r.storage_key)
    .collect())
}

/// What a report shows as it was made (JSON text): `None` when there is no such report,
/// `Some(None)` for one made before its content was kept.
pub async fn content(c: &mut PgConnection, id: &str) -> Result<Option<Option<String>>> {
    Ok(sqlx::query!("SELECT content::text AS content FROM reports WHERE id = $1", uid(id))
        .fetch_optional(&mut *c)
        .await?
        .map(|r| r.content))
}

/// Records that a report was mailed to `to` (a display name); false when it is gone.
pub async fn mark_mailed(c: &mut PgConnection, id: &str, to: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!("UPDATE reports SET mailed_at = $2, mailed_to = $3 WHERE id = $1", uid(id), at(now), to)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() == 1)
}
