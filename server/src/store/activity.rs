//! A project's timeline (issue 18): one row per thing that happened, written in the
//! transaction of the change it records, read newest first by (created_at, id).

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct ActivityRow {
    pub id: String,
    pub project_id: String,
    pub actor_id: Option<String>,
    /// As the actor was called when it happened.
    pub actor_name: Option<String>,
    pub actor_role: Option<String>,
    /// The detail's `type`, so the table can be queried without parsing `detail`.
    pub kind: String,
    /// The entry's JSON (the wire's `TimelineDetail`).
    pub detail: String,
    /// What the entry is about (a comment, an upload batch), so it can go with it.
    pub subject_id: Option<String>,
    pub created_at: i64,
}

const COLUMNS: &str = "id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at";

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, a: &ActivityRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO project_activity (id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&a.id)
    .bind(&a.project_id)
    .bind(&a.actor_id)
    .bind(&a.actor_name)
    .bind(&a.actor_role)
    .bind(&a.kind)
    .bind(&a.detail)
    .bind(&a.subject_id)
    .bind(a.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<ActivityRow>> {
    Ok(sqlx::query_as::<_, ActivityRow>(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM project_activity WHERE id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// Up to `limit` of a project's entries, newest first, strictly older than `before`
/// (created_at, id) when given: a keyset page, so entries added meanwhile (all newer)
/// neither repeat nor hide older ones.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_id: &str,
    before: Option<(i64, &str)>,
    limit: i64,
) -> Result<Vec<ActivityRow>> {
    let order = "ORDER BY created_at DESC, id DESC LIMIT";
    Ok(match before {
        None => {
            sqlx::query_as::<_, ActivityRow>(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM project_activity WHERE project_id = $1 {order} $2"
            )))
            .bind(project_id)
            .bind(limit)
            .fetch_all(ex)
            .await?
        }
        Some((created_at, id)) => {
            sqlx::query_as::<_, ActivityRow>(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM project_activity WHERE project_id = $1 \
                 AND (created_at < $2 OR (created_at = $2 AND id < $3)) {order} $4"
            )))
            .bind(project_id)
            .bind(created_at)
            .bind(id)
            .bind(limit)
            .fetch_all(ex)
            .await?
        }
    })
}

/// Deletes the entries about `subject_id` (a deleted comment's); answers their ids.
pub async fn delete_by_subject<'e, E: Executor<'e, Database = Any>>(ex: E, subject_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>("DELETE FROM project_activity WHERE subject_id = $1 RETURNING id")
        .bind(subject_id)
        .fetch_all(ex)
        .await?)
}

/// Deletes the entries about the comments on a photo (the photo is being deleted and
/// its comments with it); answers their ids. Call before deleting the photo.
pub async fn delete_for_comments_of_image<'e, E: Executor<'e, Database = Any>>(ex: E, image_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "DELETE FROM project_activity WHERE kind = 'comment' \
         AND subject_id IN (SELECT id FROM photo_comments WHERE image_id = $1) RETURNING id",
    )
    .bind(image_id)
    .fetch_all(ex)
    .await?)
}

/// How many entries a project has (tests and the demo seed's idempotence).
pub async fn count<'e, E: Executor<'e, Database = Any>>(ex: E, project_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM project_activity WHERE project_id = $1")
        .bind(project_id)
        .fetch_one(ex)
        .await?)
}
