//! Projects, read joined with their homeowner's and builder's names.

use sitecast_store_core::{decode, ProjectFields, ProjectRow, ProjectScope, Result};
use sqlx::SqliteConnection;

/// A project as the joined SELECT reads it, before its enums are decoded.
struct Record {
    id: String,
    title: String,
    description: String,
    address: String,
    homeowner_id: String,
    builder_id: Option<String>,
    status: String,
    progress: i32,
    thumbnail_image_id: Option<String>,
    thumbnail_pinned: bool,
    progress_mode: String,
    created_at: i64,
    updated_at: i64,
    version: i64,
    homeowner_email: String,
    homeowner_name: Option<String>,
    homeowner_first_name: Option<String>,
    homeowner_last_name: Option<String>,
    builder_email: Option<String>,
    builder_name: Option<String>,
}

impl TryFrom<Record> for ProjectRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<ProjectRow> {
        Ok(ProjectRow {
            status: decode("projects.status", &r.status)?,
            progress_mode: decode("projects.progress_mode", &r.progress_mode)?,
            id: r.id,
            title: r.title,
            description: r.description,
            address: r.address,
            homeowner_id: r.homeowner_id,
            builder_id: r.builder_id,
            progress: r.progress,
            thumbnail_image_id: r.thumbnail_image_id,
            thumbnail_pinned: r.thumbnail_pinned,
            created_at: r.created_at,
            updated_at: r.updated_at,
            version: r.version,
            homeowner_email: r.homeowner_email,
            homeowner_name: r.homeowner_name,
            homeowner_first_name: r.homeowner_first_name,
            homeowner_last_name: r.homeowner_last_name,
            builder_email: r.builder_email,
            builder_name: r.builder_name,
        })
    }
}

fn rows(records: Vec<Record>) -> Result<Vec<ProjectRow>> {
    records.into_iter().map(ProjectRow::try_from).collect()
}

// The four SELECTs below are the same join (the builder is optional, so its columns
// are nullable), differing only in their WHERE.

/// Projects in scope, most recently updated first (SPEC.md §2 projects page).
pub async fn list(c: &mut SqliteConnection, scope: &ProjectScope) -> Result<Vec<ProjectRow>> {
    let records = match scope {
        ProjectScope::All => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.builder_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.email AS "builder_email?", b.name AS "builder_name?"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN users b ON b.id = p.builder_id
                ORDER BY p.updated_at DESC, p.id"#
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Homeowner(id) => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.builder_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.email AS "builder_email?", b.name AS "builder_name?"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN users b ON b.id = p.builder_id
                WHERE p.homeowner_id = $1
                ORDER BY p.updated_at DESC, p.id"#,
                id
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Builder(id) => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.builder_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.email AS "builder_email?", b.name AS "builder_name?"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN users b ON b.id = p.builder_id
                WHERE p.builder_id = $1
                ORDER BY p.updated_at DESC, p.id"#,
                id
            )
            .fetch_all(&mut *c)
            .await?
        }
    };
    rows(records)
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<ProjectRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.builder_id,
            p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
            p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
            p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
            h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
            b.email AS "builder_email?", b.name AS "builder_name?"
        FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN users b ON b.id = p.builder_id
        WHERE p.id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(ProjectRow::try_from)
    .transpose()
}

/// Insert and update take the same parameters in the same order: $1 id, $2..$8 the
/// fields, $9 the time, $10 the progress mode.
pub async fn insert(c: &mut SqliteConnection, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    let status = f.status.as_str();
    let progress_mode = f.progress_mode.as_str();
    sqlx::query!(
        "INSERT INTO projects (id, title, description, address, homeowner_id, builder_id, status, progress, \
         created_at, updated_at, version, progress_mode) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 1, $10)",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.builder_id,
        status,
        f.progress,
        now,
        progress_mode,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn set_thumbnail(c: &mut SqliteConnection, id: &str, image_id: Option<&str>, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE projects SET thumbnail_image_id = $2, updated_at = $3, version = version + 1 WHERE id = $1",
        id,
        image_id,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn count_for_homeowner(c: &mut SqliteConnection, homeowner_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM projects WHERE homeowner_id = $1"#, homeowner_id)
        .fetch_one(&mut *c)
        .await?)
}

/// Writes every field (as given) and bumps the version.
pub async fn update(c: &mut SqliteConnection, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    let status = f.status.as_str();
    let progress_mode = f.progress_mode.as_str();
    sqlx::query!(
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, builder_id = $6, \
         status = $7, progress = $8, updated_at = $9, version = version + 1, progress_mode = $10 WHERE id = $1",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.builder_id,
        status,
        f.progress,
        now,
        progress_mode,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// As `update`, only if the project is still at `version`: false when another change
/// (on this instance or another) got there first, so nothing it did is overwritten.
pub async fn update_at_version(
    c: &mut SqliteConnection,
    id: &str,
    f: &ProjectFields<'_>,
    now: i64,
    version: i64,
) -> Result<bool> {
    let status = f.status.as_str();
    let progress_mode = f.progress_mode.as_str();
    let done = sqlx::query!(
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, builder_id = $6, \
         status = $7, progress = $8, updated_at = $9, progress_mode = $10, version = version + 1, \
         thumbnail_image_id = $12, thumbnail_pinned = $13 WHERE id = $1 AND version = $11",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.builder_id,
        status,
        f.progress,
        now,
        progress_mode,
        version,
        f.thumbnail_image_id,
        f.thumbnail_pinned,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM projects WHERE id = $1", id).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}

/// Ids of the projects a user owns as homeowner or builder (deleted with the user).
pub async fn ids_of_user(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT id AS "id!", version FROM projects WHERE homeowner_id = $1 OR builder_id = $1"#,
        user_id
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.id, r.version))
    .collect())
}

/// How many projects a user owns as homeowner or builder, and how many photos those
/// projects hold: what deleting the user removes with them.
pub async fn deletion_counts(c: &mut SqliteConnection, user_id: &str) -> Result<(i64, i64)> {
    let r = sqlx::query!(
        r#"SELECT COUNT(DISTINCT p.id) AS "projects!: i64", COUNT(i.id) AS "photos!: i64" FROM projects p
         LEFT JOIN project_images i ON i.project_id = p.id
         WHERE p.homeowner_id = $1 OR p.builder_id = $1"#,
        user_id
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((r.projects, r.photos))
}

/// For a builder's homeowner table: how many of each homeowner's projects are theirs.
pub async fn homeowner_counts_for_builder(c: &mut SqliteConnection, builder_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT homeowner_id, COUNT(*) AS "count!: i64" FROM projects WHERE builder_id = $1 GROUP BY homeowner_id"#,
        builder_id
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.homeowner_id, r.count))
    .collect())
}

/// The id of the project's newest photo, if it has any.
pub async fn newest_image_id(c: &mut SqliteConnection, id: &str) -> Result<Option<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT (SELECT i.id FROM project_images i WHERE i.project_id = $1
            ORDER BY i.created_at DESC, i.id DESC LIMIT 1) AS "id?: String""#,
        id
    )
    .fetch_one(&mut *c)
    .await?)
}

/// Points the project's thumbnail at its newest photo (SPEC.md §4), or at none when it
/// has no photos left, unless an admin picked one that still exists (deleting the
/// picked photo nulls the column, which hands the thumbnail back to the newest).
/// One statement, so it is right however uploads and deletes interleave; the version
/// moves only when the thumbnail does. The newest-photo subquery is written twice (as
/// in `newest_image_id`); SQLite's `IS NOT` is the standard `IS DISTINCT FROM`.
pub async fn refresh_thumbnail(c: &mut SqliteConnection, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE projects SET thumbnail_image_id = (SELECT i.id FROM project_images i WHERE i.project_id = $1 \
           ORDER BY i.created_at DESC, i.id DESC LIMIT 1), \
         thumbnail_pinned = 0, updated_at = $2, version = version + 1 \
         WHERE id = $1 AND (thumbnail_pinned = 0 OR thumbnail_image_id IS NULL) \
         AND (thumbnail_image_id IS NOT (SELECT i.id FROM project_images i WHERE i.project_id = $1 \
           ORDER BY i.created_at DESC, i.id DESC LIMIT 1) OR thumbnail_pinned <> 0)",
        id,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}
