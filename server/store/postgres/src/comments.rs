//! Comments on photos. Adding or deleting one changes its photo's `comment_count` in
//! the same transaction, so the count a gallery shows is never off by a comment.

use sitecast_store_core::{decode, CommentRow, NewComment, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, text};

/// A comment with its author, as Postgres returns it.
struct Rec {
    id: Uuid,
    image_id: Uuid,
    project_id: Uuid,
    author_id: Uuid,
    body: String,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    author_email: String,
    author_role: String,
    author_name: Option<String>,
    author_first_name: Option<String>,
    author_last_name: Option<String>,
    author_created_at: OffsetDateTime,
    author_company: Option<String>,
}

impl Rec {
    fn into_row(self) -> Result<CommentRow> {
        Ok(CommentRow {
            id: text(self.id),
            image_id: text(self.image_id),
            project_id: text(self.project_id),
            author_id: text(self.author_id),
            body: self.body,
            created_at: ms(self.created_at),
            updated_at: ms(self.updated_at),
            author_email: self.author_email,
            author_role: decode("users.role", &self.author_role)?,
            author_name: self.author_name,
            author_first_name: self.author_first_name,
            author_last_name: self.author_last_name,
            author_created_at: ms(self.author_created_at),
            author_company: self.author_company,
        })
    }
}

/// Inserts the comment and counts it on its photo (call inside a transaction).
pub async fn insert(c: &mut PgConnection, new: &NewComment<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO photo_comments (id, image_id, project_id, author_id, body, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
        uid(new.id),
        uid(new.image_id),
        uid(new.project_id),
        uid(new.author_id),
        new.body,
        at(new.now),
    )
    .execute(&mut *c)
    .await?;
    sqlx::query!("UPDATE project_images SET comment_count = comment_count + 1 WHERE id = $1", uid(new.image_id))
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<CommentRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT c.id, c.image_id, c.project_id, c.author_id, c.body, c.created_at, c.updated_at,
             u.email AS author_email, u.role AS author_role, u.name AS author_name, u.first_name AS author_first_name,
             u.last_name AS author_last_name, u.created_at AS author_created_at,
             co.name AS "author_company?"
           FROM photo_comments c JOIN users u ON u.id = c.author_id LEFT JOIN companies co ON co.id = u.company_id
           WHERE c.id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// A photo's thread, oldest first.
pub async fn list_for_image(c: &mut PgConnection, image_id: &str) -> Result<Vec<CommentRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT c.id, c.image_id, c.project_id, c.author_id, c.body, c.created_at, c.updated_at,
             u.email AS author_email, u.role AS author_role, u.name AS author_name, u.first_name AS author_first_name,
             u.last_name AS author_last_name, u.created_at AS author_created_at,
             co.name AS "author_company?"
           FROM photo_comments c JOIN users u ON u.id = c.author_id LEFT JOIN companies co ON co.id = u.company_id
           WHERE c.image_id = $1
           ORDER BY c.created_at, c.id"#,
        uid(image_id),
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(Rec::into_row)
    .collect()
}

/// False when the comment does not exist.
pub async fn update_body(c: &mut PgConnection, id: &str, body: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE photo_comments SET body = $2, updated_at = $3 WHERE id = $1",
        uid(id),
        body,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes the comment and uncounts it (inside a transaction); false when it did not
/// exist. The count never goes below zero, whatever an older build left.
pub async fn delete(c: &mut PgConnection, id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM photo_comments WHERE id = $1", uid(id)).execute(&mut *c).await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query!(
        "UPDATE project_images SET comment_count = comment_count - 1 WHERE id = $1 AND comment_count > 0",
        uid(image_id),
    )
    .execute(&mut *c)
    .await?;
    Ok(true)
}

/// A photo's comment count as stored (0 for a photo that does not exist).
pub async fn count_of_image(c: &mut PgConnection, image_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!("SELECT comment_count FROM project_images WHERE id = $1", uid(image_id))
        .fetch_optional(&mut *c)
        .await?
        .unwrap_or(0))
}
