use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct ImageRow {
    pub id: String,
    pub project_id: String,
    pub uploaded_by: Option<String>,
    pub category: String,
    pub caption: Option<String>,
    pub original_name: String,
    pub content_type: String,
    pub byte_size: i64,
    pub width: i32,
    pub height: i32,
    pub taken_at: Option<i64>,
    pub storage_key: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
}

const COLUMNS: &str = "id, project_id, uploaded_by, category, caption, original_name, content_type, \
     byte_size, width, height, taken_at, storage_key, created_at, updated_at, version";

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, img: &ImageRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO project_images (id, project_id, uploaded_by, category, caption, original_name, \
         content_type, byte_size, width, height, taken_at, storage_key, created_at, updated_at, version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
    )
    .bind(&img.id)
    .bind(&img.project_id)
    .bind(&img.uploaded_by)
    .bind(&img.category)
    .bind(&img.caption)
    .bind(&img.original_name)
    .bind(&img.content_type)
    .bind(img.byte_size)
    .bind(img.width)
    .bind(img.height)
    .bind(img.taken_at)
    .bind(&img.storage_key)
    .bind(img.created_at)
    .bind(img.updated_at)
    .bind(img.version)
    .execute(ex)
    .await?;
    Ok(())
}

/// A project's photos, newest first (SPEC.md §7 images).
pub async fn list_for_project<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_id: &str,
) -> Result<Vec<ImageRow>> {
    Ok(sqlx::query_as::<_, ImageRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM project_images WHERE project_id = $1 ORDER BY created_at DESC, id"
    )))
    .bind(project_id)
    .fetch_all(ex)
    .await?)
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<ImageRow>> {
    Ok(sqlx::query_as::<_, ImageRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM project_images WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Every stored-object prefix the database knows of.
pub async fn all_storage_keys<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>("SELECT storage_key FROM project_images")
        .fetch_all(ex)
        .await?)
}

/// Stored-object prefixes of every photo of the given projects.
pub async fn storage_keys_of_projects<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_ids: &[String],
) -> Result<Vec<(String, String)>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders = (1..=project_ids.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
    let sql = format!("SELECT storage_key, content_type FROM project_images WHERE project_id IN ({placeholders})");
    let mut q = sqlx::query_as::<_, (String, String)>(sqlx::AssertSqlSafe(sql));
    for id in project_ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(ex).await?)
}
