//! Comments on photos. Adding or deleting one changes its photo's `comment_count` in
//! the same statement batch, so the count a gallery shows is never off by a comment.

use sqlx::{Any, Executor, FromRow};

use super::Result;

/// A comment with what its author's summary needs.
#[derive(Debug, Clone, FromRow)]
pub struct CommentRow {
    pub id: String,
    pub image_id: String,
    pub project_id: String,
    pub author_id: String,
    pub body: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub author_email: String,
    pub author_role: String,
    pub author_name: Option<String>,
    pub author_first_name: Option<String>,
    pub author_last_name: Option<String>,
    pub author_created_at: i64,
}

const SELECT: &str = "SELECT c.id, c.image_id, c.project_id, c.author_id, c.body, c.created_at, c.updated_at, \
     u.email AS author_email, u.role AS author_role, u.name AS author_name, u.first_name AS author_first_name, \
     u.last_name AS author_last_name, u.created_at AS author_created_at \
     FROM photo_comments c JOIN users u ON u.id = c.author_id";

pub struct NewComment<'a> {
    pub id: &'a str,
    pub image_id: &'a str,
    pub project_id: &'a str,
    pub author_id: &'a str,
    pub body: &'a str,
    pub now: i64,
}

/// Inserts the comment and counts it on its photo (call inside a transaction).
pub async fn insert(tx: &mut super::Tx, c: &NewComment<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO photo_comments (id, image_id, project_id, author_id, body, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(c.id)
    .bind(c.image_id)
    .bind(c.project_id)
    .bind(c.author_id)
    .bind(c.body)
    .bind(c.now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE project_images SET comment_count = comment_count + 1 WHERE id = $1")
        .bind(c.image_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<CommentRow>> {
    Ok(sqlx::query_as::<_, CommentRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE c.id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// A photo's thread, oldest first.
pub async fn list_for_image<'e, E: Executor<'e, Database = Any>>(ex: E, image_id: &str) -> Result<Vec<CommentRow>> {
    Ok(sqlx::query_as::<_, CommentRow>(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE c.image_id = $1 ORDER BY c.created_at, c.id"
    )))
    .bind(image_id)
    .fetch_all(ex)
    .await?)
}

/// False when the comment does not exist.
pub async fn update_body<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, body: &str, now: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE photo_comments SET body = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(body)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes the comment and uncounts it (inside a transaction); false when it did not
/// exist.
pub async fn delete(tx: &mut super::Tx, id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM photo_comments WHERE id = $1").bind(id).execute(&mut **tx).await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query("UPDATE project_images SET comment_count = comment_count - 1 WHERE id = $1 AND comment_count > 0")
        .bind(image_id)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// A photo's comment count as stored.
pub async fn count_of_image<'e, E: Executor<'e, Database = Any>>(ex: E, image_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT comment_count FROM project_images WHERE id = $1")
        .bind(image_id)
        .fetch_optional(ex)
        .await?
        .unwrap_or(0))
}
