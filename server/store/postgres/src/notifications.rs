//! A user's notifications: kept 90 days (the hourly maintenance deletes older ones),
//! read a page at a time, newest first.

use protocol::{NotificationKind, Role};
use sitecast_store_core::{decode, NotificationRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// A notification as Postgres returns it, the kind still text.
struct Rec {
    id: Uuid,
    user_id: Uuid,
    kind: String,
    project_id: Option<Uuid>,
    image_id: Option<Uuid>,
    actor_name: Option<String>,
    title: String,
    body: String,
    created_at: OffsetDateTime,
    read_at: Option<OffsetDateTime>,
}

impl Rec {
    fn into_row(self) -> Result<NotificationRow> {
        Ok(NotificationRow {
            id: text(self.id),
            user_id: text(self.user_id),
            kind: decode::<NotificationKind>("notifications.kind", &self.kind)?,
            project_id: opt_text(self.project_id),
            image_id: opt_text(self.image_id),
            actor_name: self.actor_name,
            title: self.title,
            body: self.body,
            created_at: ms(self.created_at),
            read_at: opt_ms(self.read_at),
        })
    }
}

fn rows(recs: Vec<Rec>) -> Result<Vec<NotificationRow>> {
    recs.into_iter().map(Rec::into_row).collect()
}

/// `mail_pending`: the notification waits for its user's next digest mail.
pub async fn insert(c: &mut PgConnection, n: &NotificationRow, mail_pending: bool) -> Result<()> {
    sqlx::query!(
        "INSERT INTO notifications (id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at,
           mail_pending)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        uid(&n.id),
        uid(&n.user_id),
        n.kind.as_str(),
        opt_id(n.project_id.as_deref()),
        opt_id(n.image_id.as_deref()),
        n.actor_name.as_deref(),
        n.title,
        n.body,
        at(n.created_at),
        opt_at(n.read_at),
        mail_pending,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<NotificationRow>> {
    sqlx::query_as!(
        Rec,
        "SELECT id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
         FROM notifications WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// Up to `limit` of the user's notifications created before `before`, newest first.
pub async fn page(c: &mut PgConnection, user_id: &str, before: i64, limit: i64) -> Result<Vec<NotificationRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            "SELECT id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
             FROM notifications WHERE user_id = $1 AND created_at < $2
             ORDER BY created_at DESC, id DESC
             LIMIT $3",
            uid(user_id),
            at(before),
            limit,
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

pub async fn unread_count(c: &mut PgConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "count!" FROM notifications WHERE user_id = $1 AND read_at IS NULL"#,
        uid(user_id),
    )
    .fetch_one(&mut *c)
    .await?)
}

/// Marks one of the user's notifications read; false when it was read already (or
/// is not theirs).
pub async fn mark_read(c: &mut PgConnection, user_id: &str, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE notifications SET read_at = $3 WHERE id = $2 AND user_id = $1 AND read_at IS NULL",
        uid(user_id),
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Marks all of the user's notifications read; how many were unread.
pub async fn mark_all_read(c: &mut PgConnection, user_id: &str, now: i64) -> Result<u64> {
    let done = sqlx::query!(
        "UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL",
        uid(user_id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected())
}

/// Deletes notifications created before `cutoff`; how many.
pub async fn delete_older_than(c: &mut PgConnection, cutoff: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM notifications WHERE created_at < $1", at(cutoff))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}

/// Users with notifications waiting for a digest, the oldest created at or before
/// `cutoff`.
pub async fn digest_due(c: &mut PgConnection, cutoff: i64) -> Result<Vec<String>> {
    let users = sqlx::query_scalar!(
        "SELECT user_id FROM notifications WHERE mail_pending GROUP BY user_id HAVING MIN(created_at) <= $1",
        at(cutoff),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(users.into_iter().map(text).collect())
}

/// A user's notifications waiting for a digest, oldest first.
pub async fn digest_pending(c: &mut PgConnection, user_id: &str) -> Result<Vec<NotificationRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            "SELECT id, user_id, kind, project_id, image_id, actor_name, title, body, created_at, read_at
             FROM notifications WHERE user_id = $1 AND mail_pending
             ORDER BY created_at, id",
            uid(user_id),
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// Takes one notification out of the digest queue; false when another instance
/// already did.
pub async fn take_for_digest(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("UPDATE notifications SET mail_pending = false WHERE id = $1 AND mail_pending", uid(id))
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Distinct authors of a photo's comments, with their roles.
pub async fn commenters_of_image(c: &mut PgConnection, image_id: &str) -> Result<Vec<(String, Role)>> {
    let authors = sqlx::query!(
        "SELECT DISTINCT u.id, u.role FROM photo_comments c JOIN users u ON u.id = c.author_id WHERE c.image_id = $1",
        uid(image_id),
    )
    .fetch_all(&mut *c)
    .await?;
    authors.into_iter().map(|a| Ok((text(a.id), decode::<Role>("users.role", &a.role)?))).collect()
}
