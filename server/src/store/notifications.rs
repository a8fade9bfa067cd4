//! A user's notifications: kept 90 days (the hourly maintenance deletes older ones),
//! read a page at a time, newest first.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct NotificationRow {
    pub id: String,
    pub user_id: String,
    pub kind: String,
    pub project_id: Option<String>,
    pub image_id: Option<String>,
    pub actor_name: Option<String>,
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub read_at: Option<i64>,
}

const COLUMNS: &str = "id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at";

/// `mail_pending`: the notification waits for its user's next digest mail.
pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, n: &NotificationRow, mail_pending: bool) -> Result<()> {
    sqlx::query(
        "INSERT INTO notifications (id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at, \
         mail_pending) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&n.id)
    .bind(&n.user_id)
    .bind(&n.kind)
    .bind(&n.project_id)
    .bind(&n.image_id)
    .bind(&n.actor_name)
    .bind(&n.title)
    .bind(&n.body)
    .bind(n.created_at)
    .bind(n.read_at)
    .bind(i64::from(mail_pending))
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<NotificationRow>> {
    Ok(sqlx::query_as::<_, NotificationRow>(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM notifications WHERE id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// Up to `limit` of the user's notifications created before `before`, newest first.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    user_id: &str,
    before: i64,
    limit: i64,
) -> Result<Vec<NotificationRow>> {
    Ok(sqlx::query_as::<_, NotificationRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE user_id = $1 AND created_at < $2 \
         ORDER BY created_at DESC, id DESC LIMIT $3"
    )))
    .bind(user_id)
    .bind(before)
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

pub async fn unread_count<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL")
        .bind(user_id)
        .fetch_one(ex)
        .await?)
}

/// Marks one of the user's notifications read; false when it was read already (or
/// is not theirs).
pub async fn mark_read<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE notifications SET read_at = $3 WHERE id = $2 AND user_id = $1 AND read_at IS NULL")
        .bind(user_id)
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Marks all of the user's notifications read; how many were unread.
pub async fn mark_all_read<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str, now: i64) -> Result<u64> {
    let done = sqlx::query("UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL")
        .bind(user_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

/// Deletes notifications created before `cutoff`; how many.
pub async fn delete_older_than<'e, E: Executor<'e, Database = Any>>(ex: E, cutoff: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM notifications WHERE created_at < $1").bind(cutoff).execute(ex).await?;
    Ok(done.rows_affected())
}

/// Users with notifications waiting for a digest, the oldest created at or before
/// `cutoff`.
pub async fn digest_due<'e, E: Executor<'e, Database = Any>>(ex: E, cutoff: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "SELECT user_id FROM notifications WHERE mail_pending = 1 GROUP BY user_id HAVING MIN(created_at) <= $1",
    )
    .bind(cutoff)
    .fetch_all(ex)
    .await?)
}

/// A user's notifications waiting for a digest, oldest first.
pub async fn digest_pending<'e, E: Executor<'e, Database = Any>>(ex: E, user_id: &str) -> Result<Vec<NotificationRow>> {
    Ok(sqlx::query_as::<_, NotificationRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE user_id = $1 AND mail_pending = 1 ORDER BY created_at, id"
    )))
    .bind(user_id)
    .fetch_all(ex)
    .await?)
}

/// Takes one notification out of the digest queue; false when another instance
/// already did.
pub async fn take_for_digest<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    let done = sqlx::query("UPDATE notifications SET mail_pending = 0 WHERE id = $1 AND mail_pending = 1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Distinct authors of a photo's comments, with their roles.
pub async fn commenters_of_image<'e, E: Executor<'e, Database = Any>>(ex: E, image_id: &str) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as::<_, (String, String)>(
        "SELECT DISTINCT u.id, u.role FROM photo_comments c JOIN users u ON u.id = c.author_id WHERE c.image_id = $1",
    )
    .bind(image_id)
    .fetch_all(ex)
    .await?)
}
