use sqlx::{Any, Executor, FromRow};

use super::Result;

/// Which projects a query may return; decided by the policy module, not here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectScope {
    All,
    Homeowner(String),
    Builder(String),
}

/// A project joined with its homeowner's and builder's names.
#[derive(Debug, Clone, FromRow)]
pub struct ProjectRow {
    pub id: String,
    pub title: String,
    pub description: String,
    pub address: String,
    pub homeowner_id: String,
    pub builder_id: Option<String>,
    pub status: String,
    pub progress: i32,
    pub thumbnail_image_id: Option<String>,
    /// 1 when an admin picked the thumbnail, 0 when it follows the newest photo.
    pub thumbnail_pinned: i32,
    /// `manual` or `milestones` (issue 18).
    pub progress_mode: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    pub homeowner_email: String,
    pub homeowner_name: Option<String>,
    pub homeowner_first_name: Option<String>,
    pub homeowner_last_name: Option<String>,
    pub builder_email: Option<String>,
    pub builder_name: Option<String>,
}

const SELECT: &str = "SELECT p.id, p.title, p.description, p.address, p.homeowner_id, p.builder_id, \
     p.status, p.progress, p.thumbnail_image_id, p.thumbnail_pinned, p.progress_mode, p.created_at, p.updated_at, p.version, \
     h.email AS homeowner_email, h.name AS homeowner_name, h.first_name AS homeowner_first_name, \
     h.last_name AS homeowner_last_name, b.email AS builder_email, b.name AS builder_name \
     FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN users b ON b.id = p.builder_id";

/// Projects in scope, most recently updated first (SPEC.md §2 projects page).
pub async fn list<'e, E: Executor<'e, Database = Any>>(ex: E, scope: &ProjectScope) -> Result<Vec<ProjectRow>> {
    let order = "ORDER BY p.updated_at DESC, p.id";
    let rows = match scope {
        ProjectScope::All => {
            sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!("{SELECT} {order}")))
                .fetch_all(ex)
                .await?
        }
        ProjectScope::Homeowner(id) => {
            sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
                "{SELECT} WHERE p.homeowner_id = $1 {order}"
            )))
            .bind(id)
            .fetch_all(ex)
            .await?
        }
        ProjectScope::Builder(id) => {
            sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
                "{SELECT} WHERE p.builder_id = $1 {order}"
            )))
            .bind(id)
            .fetch_all(ex)
            .await?
        }
    };
    Ok(rows)
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<ProjectRow>> {
    Ok(sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE p.id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// A project's writable fields, for inserts and updates alike.
pub struct ProjectFields<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub address: &'a str,
    pub homeowner_id: &'a str,
    pub builder_id: Option<&'a str>,
    pub status: &'a str,
    pub progress: i32,
    /// Written by updates only: a new project has no photos yet.
    pub thumbnail_image_id: Option<&'a str>,
    pub thumbnail_pinned: bool,
    pub progress_mode: &'a str,
}

/// Insert and update take the same parameters in the same order: $1 id, $2..$8 the
/// fields, $9 the time, $10 the progress mode.
fn bind_fields<'q>(
    q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    id: &'q str,
    f: &ProjectFields<'q>,
    now: i64,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments> {
    q.bind(id)
        .bind(f.title)
        .bind(f.description)
        .bind(f.address)
        .bind(f.homeowner_id)
        .bind(f.builder_id)
        .bind(f.status)
        .bind(f.progress)
        .bind(now)
        .bind(f.progress_mode)
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    f: &ProjectFields<'_>,
    now: i64,
) -> Result<()> {
    let sql = "INSERT INTO projects (id, title, description, address, homeowner_id, builder_id, status, progress, \
         created_at, updated_at, version, progress_mode) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 1, $10)";
    bind_fields(sqlx::query(sql), id, f, now)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn set_thumbnail<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    image_id: Option<&str>,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE projects SET thumbnail_image_id = $2, updated_at = $3, version = version + 1 WHERE id = $1",
    )
    .bind(id)
    .bind(image_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn count_for_homeowner<'e, E: Executor<'e, Database = Any>>(ex: E, homeowner_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM projects WHERE homeowner_id = $1")
        .bind(homeowner_id)
        .fetch_one(ex)
        .await?)
}

/// Writes every field (as given) and bumps the version.
pub async fn update<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    f: &ProjectFields<'_>,
    now: i64,
) -> Result<()> {
    let sql = "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, builder_id = $6, \
         status = $7, progress = $8, updated_at = $9, version = version + 1, progress_mode = $10 WHERE id = $1";
    bind_fields(sqlx::query(sql), id, f, now)
    .execute(ex)
    .await?;
    Ok(())
}

/// As `update`, only if the project is still at `version`: false when another change
/// (on this instance or another) got there first, so nothing it did is overwritten.
pub async fn update_at_version<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    f: &ProjectFields<'_>,
    now: i64,
    version: i64,
) -> Result<bool> {
    let sql = "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, builder_id = $6, \
         status = $7, progress = $8, updated_at = $9, progress_mode = $10, version = version + 1, \
         thumbnail_image_id = $12, thumbnail_pinned = $13 WHERE id = $1 AND version = $11";
    let done = bind_fields(sqlx::query(sql), id, f, now)
        .bind(version)
        .bind(f.thumbnail_image_id)
        .bind(i32::from(f.thumbnail_pinned))
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM projects WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// Ids of the projects a user owns as homeowner or builder (deleted with the user).
pub async fn ids_of_user<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as::<_, (String, i64)>(
        "SELECT id, version FROM projects WHERE homeowner_id = $1 OR builder_id = $1",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await?)
}

/// How many projects a user owns as homeowner or builder, and how many photos those
/// projects hold: what deleting the user removes with them.
pub async fn deletion_counts<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<(i64, i64)> {
    Ok(sqlx::query_as::<_, (i64, i64)>(
        "SELECT COUNT(DISTINCT p.id), COUNT(i.id) FROM projects p \
         LEFT JOIN project_images i ON i.project_id = p.id \
         WHERE p.homeowner_id = $1 OR p.builder_id = $1",
    )
    .bind(user_id)
    .fetch_one(ex)
    .await?)
}

/// For a builder's homeowner table: how many of each homeowner's projects are theirs.
pub async fn homeowner_counts_for_builder<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    builder_id: &str,
) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as::<_, (String, i64)>(
        "SELECT homeowner_id, COUNT(*) FROM projects WHERE builder_id = $1 GROUP BY homeowner_id",
    )
    .bind(builder_id)
    .fetch_all(ex)
    .await?)
}

const NEWEST: &str =
    "(SELECT i.id FROM project_images i WHERE i.project_id = $1 ORDER BY i.created_at DESC, i.id DESC LIMIT 1)";

/// The id of the project's newest photo, if it has any.
pub async fn newest_image_id<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<String>> {
    Ok(sqlx::query_scalar::<_, Option<String>>(sqlx::AssertSqlSafe(format!("SELECT {NEWEST}")))
        .bind(id)
        .fetch_one(ex)
        .await?)
}

/// Points the project's thumbnail at its newest photo (SPEC.md §4), or at none when it
/// has no photos left, unless an admin picked one that still exists (deleting the
/// picked photo nulls the column, which hands the thumbnail back to the newest).
/// One statement, so it is right however uploads and deletes interleave; the version
/// moves only when the thumbnail does.
pub async fn refresh_thumbnail<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<bool> {
    let newest = NEWEST;
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE projects SET thumbnail_image_id = {newest}, thumbnail_pinned = 0, updated_at = $2, \
         version = version + 1 WHERE id = $1 AND (thumbnail_pinned = 0 OR thumbnail_image_id IS NULL) \
         AND (thumbnail_image_id IS DISTINCT FROM {newest} OR thumbnail_pinned <> 0)"
    )))
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

#[cfg(test)]
impl ProjectRow {
    /// A project for the domain's rule tests.
    pub fn example(id: &str, homeowner_id: &str, builder_id: Option<&str>) -> ProjectRow {
        ProjectRow {
            id: id.into(),
            title: format!("{id} title"),
            description: String::new(),
            address: format!("{id} street"),
            homeowner_id: homeowner_id.into(),
            builder_id: builder_id.map(str::to_owned),
            status: "in-progress".into(),
            progress: 0,
            thumbnail_image_id: None,
            thumbnail_pinned: 0,
            progress_mode: "manual".into(),
            created_at: 1,
            updated_at: 1,
            version: 1,
            homeowner_email: format!("{homeowner_id}@example.com"),
            homeowner_name: Some(format!("{homeowner_id} name")),
            homeowner_first_name: None,
            homeowner_last_name: None,
            builder_email: builder_id.map(|b| format!("{b}@example.com")),
            builder_name: builder_id.map(|b| format!("{b} name")),
        }
    }
}
