//! Comments on photos. Adding or deleting one changes its photo's `comment_count` in
//! the same statement batch, so the count a gallery shows is never off by a comment.

use sitecast_store_core::{decode, CommentRow, NewComment, Result};
use sqlx::SqliteConnection;

/// A comment joined with its author, before the author's role is decoded.
struct Record {
    id: String,
    image_id: String,
    project_id: String,
    author_id: String,
    body: String,
    created_at: i64,
    updated_at: i64,
    author_email: String,
    author_role: String,
    author_name: Option<String>,
    author_first_name: Option<String>,
    author_last_name: Option<String>,
    author_created_at: i64,
    author_company: Option<String>,
}

impl TryFrom<Record> for CommentRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<CommentRow> {
        Ok(CommentRow {
            author_role: decode("users.role", &r.author_role)?,
            id: r.id,
            image_id: r.image_id,
            project_id: r.project_id,
            author_id: r.author_id,
            body: r.body,
            created_at: r.created_at,
            updated_at: r.updated_at,
            author_email: r.author_email,
            author_name: r.author_name,
            author_first_name: r.author_first_name,
            author_last_name: r.author_last_name,
            author_created_at: r.author_created_at,
            author_company: r.author_company,
        })
    }
}

/// Inserts the comment and counts it on its photo (call inside a transaction).
pub async fn insert(c: &mut SqliteConnection, nc: &NewComment<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO photo_comments (id, image_id, project_id, author_id, body, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
        nc.id,
        nc.image_id,
        nc.project_id,
        nc.author_id,
        nc.body,
        nc.now,
    )
    .execute(&mut *c)
    .await?;
    sqlx::query!("UPDATE project_images SET comment_count = comment_count + 1 WHERE id = $1", nc.image_id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<CommentRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT c.id AS "id!", c.image_id, c.project_id, c.author_id, c.body, c.created_at, c.updated_at,
            u.email AS "author_email!", u.role AS "author_role!", u.name AS author_name,
            u.first_name AS author_first_name, u.last_name AS author_last_name,
            u.created_at AS "author_created_at!", co.name AS "author_company?"
        FROM photo_comments c JOIN users u ON u.id = c.author_id LEFT JOIN companies co ON co.id = u.company_id
        WHERE c.id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(CommentRow::try_from)
    .transpose()
}

/// A photo's thread, oldest first.
pub async fn list_for_image(c: &mut SqliteConnection, image_id: &str) -> Result<Vec<CommentRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT c.id AS "id!", c.image_id, c.project_id, c.author_id, c.body, c.created_at, c.updated_at,
            u.email AS "author_email!", u.role AS "author_role!", u.name AS author_name,
            u.first_name AS author_first_name, u.last_name AS author_last_name,
            u.created_at AS "author_created_at!", co.name AS "author_company?"
        FROM photo_comments c JOIN users u ON u.id = c.author_id LEFT JOIN companies co ON co.id = u.company_id
        WHERE c.image_id = $1 ORDER BY c.created_at, c.id"#,
        image_id
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(CommentRow::try_from)
    .collect()
}

/// False when the comment does not exist.
pub async fn update_body(c: &mut SqliteConnection, id: &str, body: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!("UPDATE photo_comments SET body = $2, updated_at = $3 WHERE id = $1", id, body, now)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes the comment and uncounts it (inside a transaction); false when it did not
/// exist. The count never goes below zero.
pub async fn delete(c: &mut SqliteConnection, id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM photo_comments WHERE id = $1", id).execute(&mut *c).await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query!(
        "UPDATE project_images SET comment_count = comment_count - 1 WHERE id = $1 AND comment_count > 0",
        image_id
    )
    .execute(&mut *c)
    .await?;
    Ok(true)
}

/// A photo's comment count as stored (0 for a photo that does not exist).
pub async fn count_of_image(c: &mut SqliteConnection, image_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!("SELECT comment_count FROM project_images WHERE id = $1", image_id)
        .fetch_optional(&mut *c)
        .await?
        .unwrap_or(0))
}
