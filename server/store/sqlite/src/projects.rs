//! Projects, read joined with their homeowner's and builder company's names and their crew.

use sitecast_store_core::{decode, ProjectFields, ProjectRow, ProjectScope, Result};
use sqlx::SqliteConnection;

/// A project as the joined SELECT reads it, before its enums are decoded.
struct Record {
    id: String,
    title: String,
    description: String,
    address: String,
    homeowner_id: String,
    company_id: Option<String>,
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
    company_name: Option<String>,
    /// The crew's ids, comma-separated.
    crew: Option<String>,
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
            company_id: r.company_id,
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
            company_name: r.company_name,
            crew: crew_ids(r.crew.as_deref()),
        })
    }
}

/// The crew column's ids, sorted (`group_concat` keeps no order).
fn crew_ids(joined: Option<&str>) -> Vec<String> {
    let mut ids: Vec<String> = joined.unwrap_or("").split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
    ids.sort();
    ids
}

fn rows(records: Vec<Record>) -> Result<Vec<ProjectRow>> {
    records.into_iter().map(ProjectRow::try_from).collect()
}

// The four SELECTs below are the same join (the builder company is optional, so its
// columns are nullable), differing only in their WHERE.

/// Projects in scope, most recently updated first (SPEC.md §2 projects page).
pub async fn list(c: &mut SqliteConnection, scope: &ProjectScope) -> Result<Vec<ProjectRow>> {
    let records = match scope {
        ProjectScope::All => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.company_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.name AS "company_name?",
                    (SELECT group_concat(pc.user_id, ',') FROM project_crew pc WHERE pc.project_id = p.id) AS "crew?: String"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                ORDER BY p.updated_at DESC, p.id"#
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Homeowner(id) => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.company_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.name AS "company_name?",
                    (SELECT group_concat(pc.user_id, ',') FROM project_crew pc WHERE pc.project_id = p.id) AS "crew?: String"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                WHERE p.homeowner_id = $1
                ORDER BY p.updated_at DESC, p.id"#,
                id
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Company { company_id, crew_of } => {
            sqlx::query_as!(
                Record,
                r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.company_id,
                    p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
                    p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
                    p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
                    h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
                    b.name AS "company_name?",
                    (SELECT group_concat(pc.user_id, ',') FROM project_crew pc WHERE pc.project_id = p.id) AS "crew?: String"
                FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                WHERE p.company_id = $1
                  AND ($2 IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))
                ORDER BY p.updated_at DESC, p.id"#,
                company_id,
                crew_of,
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Nothing => Vec::new(),
    };
    rows(records)
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<ProjectRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT p.id AS "id!", p.title, p.description, p.address, p.homeowner_id, p.company_id,
            p.status, p.progress AS "progress: i32", p.thumbnail_image_id,
            p.thumbnail_pinned AS "thumbnail_pinned!: bool", p.progress_mode, p.created_at, p.updated_at,
            p.version, h.email AS "homeowner_email!", h.name AS homeowner_name,
            h.first_name AS homeowner_first_name, h.last_name AS homeowner_last_name,
            b.name AS "company_name?",
                    (SELECT group_concat(pc.user_id, ',') FROM project_crew pc WHERE pc.project_id = p.id) AS "crew?: String"
        FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
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
        "INSERT INTO projects (id, title, description, address, homeowner_id, company_id, status, progress, \
         created_at, updated_at, version, progress_mode) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 1, $10)",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.company_id,
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
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, company_id = $6, \
         status = $7, progress = $8, updated_at = $9, version = version + 1, progress_mode = $10 WHERE id = $1",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.company_id,
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
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, company_id = $6, \
         status = $7, progress = $8, updated_at = $9, progress_mode = $10, version = version + 1, \
         thumbnail_image_id = $12, thumbnail_pinned = $13 WHERE id = $1 AND version = $11",
        id,
        f.title,
        f.description,
        f.address,
        f.homeowner_id,
        f.company_id,
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

/// Ids and versions of a homeowner's projects (deleted with them).
pub async fn ids_of_homeowner(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(r#"SELECT id AS "id!", version FROM projects WHERE homeowner_id = $1"#, user_id)
        .fetch_all(&mut *c)
        .await?
        .into_iter()
        .map(|r| (r.id, r.version))
        .collect())
}

/// Ids and versions of a company's projects (deleted with it).
pub async fn ids_of_company(c: &mut SqliteConnection, company_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(r#"SELECT id AS "id!", version FROM projects WHERE company_id = $1"#, company_id)
        .fetch_all(&mut *c)
        .await?
        .into_iter()
        .map(|r| (r.id, r.version))
        .collect())
}

/// The ids of the projects in scope (a search's).
pub async fn ids_in_scope(c: &mut SqliteConnection, scope: &ProjectScope) -> Result<Vec<String>> {
    Ok(match scope {
        ProjectScope::All => sqlx::query_scalar!(r#"SELECT id AS "id!" FROM projects"#).fetch_all(&mut *c).await?,
        ProjectScope::Homeowner(id) => {
            sqlx::query_scalar!(r#"SELECT id AS "id!" FROM projects WHERE homeowner_id = $1"#, id).fetch_all(&mut *c).await?
        }
        ProjectScope::Company { company_id, crew_of } => {
            sqlx::query_scalar!(
                r#"SELECT p.id AS "id!" FROM projects p WHERE p.company_id = $1
                   AND ($2 IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))"#,
                company_id,
                crew_of,
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Nothing => Vec::new(),
    })
}

/// How many projects a homeowner has, and how many photos those projects hold: what
/// deleting the homeowner removes with them.
pub async fn deletion_counts(c: &mut SqliteConnection, user_id: &str) -> Result<(i64, i64)> {
    let r = sqlx::query!(
        r#"SELECT COUNT(DISTINCT p.id) AS "projects!: i64", COUNT(i.id) AS "photos!: i64" FROM projects p
         LEFT JOIN project_images i ON i.project_id = p.id
         WHERE p.homeowner_id = $1"#,
        user_id
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((r.projects, r.photos))
}

/// How many projects a company builds and how many photos they hold.
pub async fn company_deletion_counts(c: &mut SqliteConnection, company_id: &str) -> Result<(i64, i64)> {
    let r = sqlx::query!(
        r#"SELECT COUNT(DISTINCT p.id) AS "projects!: i64", COUNT(i.id) AS "photos!: i64" FROM projects p
         LEFT JOIN project_images i ON i.project_id = p.id
         WHERE p.company_id = $1"#,
        company_id
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((r.projects, r.photos))
}

/// For a builder's homeowner table: how many of each homeowner's projects they see.
pub async fn homeowner_counts_in_company(c: &mut SqliteConnection, company_id: &str, crew_of: Option<&str>) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT p.homeowner_id, COUNT(*) AS "count!: i64" FROM projects p WHERE p.company_id = $1
           AND ($2 IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))
           GROUP BY p.homeowner_id"#,
        company_id,
        crew_of,
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.homeowner_id, r.count))
    .collect())
}

/// Makes the project's crew exactly `user_ids` (members of its company: the domain
/// checks); the caller moves the project's version on.
pub async fn set_crew(c: &mut SqliteConnection, id: &str, user_ids: &[String], now: i64) -> Result<()> {
    let ids = serde_json::to_string(user_ids).unwrap_or_else(|_| "[]".into());
    sqlx::query!("DELETE FROM project_crew WHERE project_id = $1 AND user_id NOT IN (SELECT value FROM json_each($2))", id, ids)
        .execute(&mut *c)
        .await?;
    sqlx::query!(
        "INSERT INTO project_crew (project_id, user_id, added_at) SELECT $1, value, $3 FROM json_each($2) WHERE true \
         ON CONFLICT (project_id, user_id) DO NOTHING",
        id,
        ids,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
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
