//! A project's timeline: one row per thing that happened, written in the
//! transaction of the change it records, read newest first by (created_at, id).

use sitecast_store_core::{decode_opt, ActivityRow, Result};
use sqlx::SqliteConnection;

/// An entry as a SELECT reads it, before the actor's role is decoded.
struct Record {
    id: String,
    project_id: String,
    actor_id: Option<String>,
    actor_name: Option<String>,
    actor_role: Option<String>,
    kind: String,
    detail: String,
    subject_id: Option<String>,
    created_at: i64,
}

impl TryFrom<Record> for ActivityRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<ActivityRow> {
        Ok(ActivityRow {
            actor_role: decode_opt("project_activity.actor_role", r.actor_role.as_deref())?,
            id: r.id,
            project_id: r.project_id,
            actor_id: r.actor_id,
            actor_name: r.actor_name,
            kind: r.kind,
            detail: r.detail,
            subject_id: r.subject_id,
            created_at: r.created_at,
        })
    }
}

fn rows(records: Vec<Record>) -> Result<Vec<ActivityRow>> {
    records.into_iter().map(ActivityRow::try_from).collect()
}

pub async fn insert(c: &mut SqliteConnection, a: &ActivityRow) -> Result<()> {
    let actor_role = a.actor_role.map(|r| r.as_str());
    sqlx::query!(
        "INSERT INTO project_activity (id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        a.id,
        a.project_id,
        a.actor_id,
        a.actor_name,
        actor_role,
        a.kind,
        a.detail,
        a.subject_id,
        a.created_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<ActivityRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT id AS "id!", project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at
        FROM project_activity WHERE id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(ActivityRow::try_from)
    .transpose()
}

/// Up to `limit` of a project's entries, newest first, strictly older than `before`
/// (created_at, id) when given: a keyset page, so entries added meanwhile (all newer)
/// neither repeat nor hide older ones. The order is the cursor's, ties on created_at
/// broken by id, so a page boundary inside one millisecond loses nothing.
pub async fn page(
    c: &mut SqliteConnection,
    project_id: &str,
    before: Option<(i64, &str)>,
    limit: i64,
) -> Result<Vec<ActivityRow>> {
    let records = match before {
        None => {
            sqlx::query_as!(
                Record,
                r#"SELECT id AS "id!", project_id, actor_id, actor_name, actor_role, kind, detail, subject_id,
                    created_at
                FROM project_activity WHERE project_id = $1
                ORDER BY created_at DESC, id DESC LIMIT $2"#,
                project_id,
                limit
            )
            .fetch_all(&mut *c)
            .await?
        }
        Some((created_at, id)) => {
            sqlx::query_as!(
                Record,
                r#"SELECT id AS "id!", project_id, actor_id, actor_name, actor_role, kind, detail, subject_id,
                    created_at
                FROM project_activity WHERE project_id = $1
                    AND (created_at < $2 OR (created_at = $2 AND id < $3))
                ORDER BY created_at DESC, id DESC LIMIT $4"#,
                project_id,
                created_at,
                id,
                limit
            )
            .fetch_all(&mut *c)
            .await?
        }
    };
    rows(records)
}

/// Deletes the entries about `subject_id` (a deleted comment's); answers their ids.
pub async fn delete_by_subject(c: &mut SqliteConnection, subject_id: &str) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar!(r#"DELETE FROM project_activity WHERE subject_id = $1 RETURNING id AS "id!""#, subject_id)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// Deletes the entries about the comments on a photo (the photo is being deleted and
/// its comments with it); answers their ids. Call before deleting the photo.
pub async fn delete_for_comments_of_image(c: &mut SqliteConnection, image_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"DELETE FROM project_activity WHERE kind = 'comment'
         AND subject_id IN (SELECT id FROM photo_comments WHERE image_id = $1) RETURNING id AS "id!""#,
        image_id
    )
    .fetch_all(&mut *c)
    .await?)
}

/// How many entries a project has (tests and the demo seed's idempotence).
pub async fn count(c: &mut SqliteConnection, project_id: &str) -> Result<i64> {
    Ok(
        sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM project_activity WHERE project_id = $1"#, project_id)
            .fetch_one(&mut *c)
            .await?,
    )
}
