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
    /// Kept by `comments::insert` and `comments::delete`.
    pub comment_count: i64,
    /// The note of the site visit (upload batch) the photo came with.
    pub visit_note: Option<String>,
    /// The site visit (upload batch) it came with (issue 18).
    pub batch_id: Option<String>,
    /// The milestone it is tagged with (issue 18).
    pub milestone_id: Option<String>,
}

const COLUMNS: &str = "id, project_id, uploaded_by, category, caption, original_name, content_type, \
     byte_size, width, height, taken_at, storage_key, created_at, updated_at, version, comment_count, visit_note, \
     batch_id, milestone_id";

/// Inserts a photo. Its milestone tag is kept only if the milestone is still one of
/// the project's: an upload tagged at its start may finish after the milestone went.
pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, img: &ImageRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO project_images (id, project_id, uploaded_by, category, caption, original_name, \
         content_type, byte_size, width, height, taken_at, storage_key, created_at, updated_at, version, visit_note, \
         batch_id, milestone_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         (SELECT m.id FROM milestones m WHERE m.id = $18 AND m.project_id = $2))",
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
    .bind(&img.visit_note)
    .bind(&img.batch_id)
    .bind(&img.milestone_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// A project's photos, newest first (SPEC.md §7 images) by the date they show: taken
/// (EXIF) when known, uploaded otherwise; equal dates by upload time, then id, so the
/// order is the same on every read and matches the web gallery's.
pub async fn list_for_project<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_id: &str,
) -> Result<Vec<ImageRow>> {
    Ok(sqlx::query_as::<_, ImageRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM project_images WHERE project_id = $1 \
         ORDER BY COALESCE(taken_at, created_at) DESC, created_at DESC, id"
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

/// Caption and category; bumps the version. False when the photo does not exist.
pub async fn update_meta<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    caption: Option<&str>,
    category: &str,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE project_images SET caption = $2, category = $3, updated_at = $4, version = version + 1 WHERE id = $1",
    )
    .bind(id)
    .bind(caption)
    .bind(category)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM project_images WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

/// A user's favourites among a project's photos, newest photo first.
pub async fn favourites_in_project<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    project_id: &str,
) -> Result<Vec<ImageRow>> {
    let columns = COLUMNS.split(", ").map(|c| format!("i.{c}")).collect::<Vec<_>>().join(", ");
    Ok(sqlx::query_as::<_, ImageRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {columns} FROM project_images i JOIN user_favourites f ON f.image_id = i.id \
         WHERE f.user_id = $1 AND f.project_id = $2 \
         ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id"
    )))
    .bind(user_id)
    .bind(project_id)
    .fetch_all(ex)
    .await?)
}

/// Ids of a user's favourites in a project (SPEC.md §7: only imageId is read back).
pub async fn favourite_ids<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    project_id: &str,
) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "SELECT image_id FROM user_favourites WHERE user_id = $1 AND project_id = $2 ORDER BY created_at",
    )
    .bind(user_id)
    .bind(project_id)
    .fetch_all(ex)
    .await?)
}

/// Adds a favourite; one that exists already is left as it is (and is no error).
pub async fn add_favourite<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    image: &ImageRow,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (user_id, image_id) DO NOTHING",
    )
    .bind(super::new_id())
    .bind(user_id)
    .bind(&image.id)
    .bind(&image.project_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn remove_favourite<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM user_favourites WHERE user_id = $1 AND image_id = $2")
        .bind(user_id)
        .bind(image_id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Whether a user has favourited a photo.
pub async fn is_favourite<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, image_id: &str) -> Result<bool> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM user_favourites WHERE user_id = $1 AND image_id = $2")
        .bind(user_id)
        .bind(image_id)
        .fetch_one(ex)
        .await?
        > 0)
}

/// Tags a photo with a milestone, or untags it; bumps the version. False when the photo
/// does not exist.
pub async fn set_milestone<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    milestone_id: Option<&str>,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query("UPDATE project_images SET milestone_id = $2, updated_at = $3, version = version + 1 WHERE id = $1")
        .bind(id)
        .bind(milestone_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Untags every photo tagged with a milestone (before the milestone is deleted, so the
/// photos' versions move with their tag); answers their ids.
pub async fn untag_milestone<'e, E: Executor<'e, Database = Any>>(ex: E, milestone_id: &str, now: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "UPDATE project_images SET milestone_id = NULL, updated_at = $2, version = version + 1 \
         WHERE milestone_id = $1 RETURNING id",
    )
    .bind(milestone_id)
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// The first `limit` photos of one upload batch (a site visit), in the order they
/// were stored.
pub async fn of_batch<'e, E: Executor<'e, Database = Any>>(ex: E, batch_id: &str, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "SELECT id FROM project_images WHERE batch_id = $1 ORDER BY created_at, id LIMIT $2",
    )
    .bind(batch_id)
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

/// Which of `ids` are photos of the project still: one query for a page of timeline
/// entries' strips.
pub async fn existing_of_project<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_id: &str,
    ids: &[String],
) -> Result<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders = (2..ids.len() + 2).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
    let sql = format!("SELECT id FROM project_images WHERE project_id = $1 AND id IN ({placeholders})");
    let mut q = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql)).bind(project_id);
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(ex).await?)
}
