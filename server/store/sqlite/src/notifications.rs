//! A user's notifications: kept 90 days (the hourly maintenance deletes older ones),
//! read a page at a time, newest first.

use protocol::{NotificationKind, Role};
use sitecast_store_core::{decode, NotificationRow, Result, StoreError};
use sqlx::SqliteConnection;

/// A row of `notifications` as stored: the kind still text.
struct Notification {
    id: String,
    user_id: String,
    kind: String,
    project_id: Option<String>,
    image_id: Option<String>,
    actor_name: Option<String>,
    title: String,
    body: String,
    created_at: i64,
    read_at: Option<i64>,
}

impl TryFrom<Notification> for NotificationRow {
    type Error = StoreError;

    fn try_from(n: Notification) -> Result<NotificationRow> {
        Ok(NotificationRow {
            kind: decode::<NotificationKind>("notifications.kind", &n.kind)?,
            id: n.id,
            user_id: n.user_id,
            project_id: n.project_id,
            image_id: n.image_id,
            actor_name: n.actor_name,
            title: n.title,
            body: n.body,
            created_at: n.created_at,
            read_at: n.read_at,
        })
    }
}

fn rows(list: Vec<Notification>) -> Result<Vec<NotificationRow>> {
    list.into_iter().map(NotificationRow::try_from).collect()
}

pub async fn insert(c: &mut SqliteConnection, n: &NotificationRow, mail_pending: bool) -> Result<()> {
    let kind = n.kind.as_str();
    sqlx::query!(
        "INSERT INTO notifications (id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at, \
         mail_pending) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        n.id,
        n.user_id,
        kind,
        n.project_id,
        n.image_id,
        n.actor_name,
        n.title,
        n.body,
        n.created_at,
        n.read_at,
        mail_pending,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<NotificationRow>> {
    sqlx::query_as!(
        Notification,
        r#"SELECT id AS "id!", user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
           FROM notifications WHERE id = $1"#,
        id
    )
    .fetch_optional(c)
    .await?
    .map(NotificationRow::try_from)
    .transpose()
}

/// Up to `limit` created before `before`, newest first.
pub async fn page(c: &mut SqliteConnection, user_id: &str, before: i64, limit: i64) -> Result<Vec<NotificationRow>> {
    rows(
        sqlx::query_as!(
            Notification,
            r#"SELECT id AS "id!", user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
               FROM notifications WHERE user_id = $1 AND created_at < $2
               ORDER BY created_at DESC, id DESC LIMIT $3"#,
            user_id,
            before,
            limit,
        )
        .fetch_all(c)
        .await?,
    )
}

pub async fn unread_count(c: &mut SqliteConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "count!: i64" FROM notifications WHERE user_id = $1 AND read_at IS NULL"#,
        user_id
    )
    .fetch_one(c)
    .await?)
}

/// False when it was read already (or is not theirs).
pub async fn mark_read(c: &mut SqliteConnection, user_id: &str, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE notifications SET read_at = $3 WHERE id = $2 AND user_id = $1 AND read_at IS NULL",
        user_id,
        id,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// How many were unread.
pub async fn mark_all_read(c: &mut SqliteConnection, user_id: &str, now: i64) -> Result<u64> {
    let done = sqlx::query!(
        "UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL",
        user_id,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected())
}

pub async fn delete_older_than(c: &mut SqliteConnection, cutoff: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM notifications WHERE created_at < $1", cutoff)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

/// Users whose oldest notification waiting for a digest was created at or before
/// `cutoff`.
pub async fn digest_due(c: &mut SqliteConnection, cutoff: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT user_id AS "user_id!" FROM notifications WHERE mail_pending = 1 GROUP BY user_id HAVING MIN(created_at) <= $1"#,
        cutoff
    )
    .fetch_all(c)
    .await?)
}

/// Oldest first.
pub async fn digest_pending(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<NotificationRow>> {
    rows(
        sqlx::query_as!(
            Notification,
            r#"SELECT id AS "id!", user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
               FROM notifications WHERE user_id = $1 AND mail_pending = 1 ORDER BY created_at, id"#,
            user_id
        )
        .fetch_all(c)
        .await?,
    )
}

/// A conditional UPDATE: false when another instance already took it.
pub async fn take_for_digest(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE notifications SET mail_pending = 0 WHERE id = $1 AND mail_pending = 1",
        id
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Distinct authors of a photo's comments, with their roles.
pub async fn commenters_of_image(c: &mut SqliteConnection, image_id: &str) -> Result<Vec<(String, Role)>> {
    let rows = sqlx::query!(
        r#"SELECT DISTINCT u.id AS "id!", u.role FROM photo_comments c JOIN users u ON u.id = c.author_id
           WHERE c.image_id = $1"#,
        image_id
    )
    .fetch_all(c)
    .await?;
    rows.into_iter().map(|r| Ok((r.id, decode::<Role>("users.role", &r.role)?))).collect()
}
