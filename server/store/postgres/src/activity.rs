//! A project's timeline: one row per thing that happened, written in the
//! transaction of the change it records, read newest first by (created_at, id).
//!
//! `detail` is `jsonb`: written from the entry's JSON text (`$n::text::jsonb`, so text
//! that is not JSON is refused by the database) and read back as text, which keeps its
//! meaning but not its spelling (jsonb normalises spacing and key order).

use sitecast_store_core::{decode_opt, ActivityRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_id, opt_text, text};

/// An entry as Postgres returns it.
struct Rec {
    id: Uuid,
    project_id: Uuid,
    actor_id: Option<Uuid>,
    actor_name: Option<String>,
    actor_role: Option<String>,
    kind: String,
    detail: String,
    subject_id: Option<Uuid>,
    created_at: OffsetDateTime,
}

impl Rec {
    fn into_row(self) -> Result<ActivityRow> {
        Ok(ActivityRow {
            id: text(self.id),
            project_id: text(self.project_id),
            actor_id: opt_text(self.actor_id),
            actor_name: self.actor_name,
            actor_role: decode_opt("project_activity.actor_role", self.actor_role.as_deref())?,
            kind: self.kind,
            detail: self.detail,
            subject_id: opt_text(self.subject_id),
            created_at: ms(self.created_at),
        })
    }
}

fn rows(recs: Vec<Rec>) -> Result<Vec<ActivityRow>> {
    recs.into_iter().map(Rec::into_row).collect()
}

pub async fn insert(c: &mut PgConnection, a: &ActivityRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO project_activity (id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9)",
        uid(&a.id),
        uid(&a.project_id),
        opt_id(a.actor_id.as_deref()),
        a.actor_name.as_deref(),
        a.actor_role.map(|r| r.as_str()),
        a.kind,
        a.detail,
        opt_id(a.subject_id.as_deref()),
        at(a.created_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<ActivityRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT id, project_id, actor_id, actor_name, actor_role, kind, detail::text AS "detail!", subject_id, created_at
           FROM project_activity WHERE id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// Up to `limit` of a project's entries, newest first, strictly older than `before`
/// (created_at, id) when given: a keyset page, so entries added meanwhile (all newer)
/// neither repeat nor hide older ones. Ids compare as uuids, which orders them as their
/// lowercase text did; the cursor's comparison and the ORDER BY are the same order.
pub async fn page(
    c: &mut PgConnection,
    project_id: &str,
    before: Option<(i64, &str)>,
    limit: i64,
) -> Result<Vec<ActivityRow>> {
    let recs = match before {
        None => {
            sqlx::query_as!(
                Rec,
                r#"SELECT id, project_id, actor_id, actor_name, actor_role, kind, detail::text AS "detail!", subject_id, created_at
                   FROM project_activity WHERE project_id = $1
                   ORDER BY created_at DESC, id DESC LIMIT $2"#,
                uid(project_id),
                limit,
            )
            .fetch_all(&mut *c)
            .await?
        }
        Some((created_at, id)) => {
            sqlx::query_as!(
                Rec,
                r#"SELECT id, project_id, actor_id, actor_name, actor_role, kind, detail::text AS "detail!", subject_id, created_at
                   FROM project_activity WHERE project_id = $1
                     AND (created_at < $2 OR (created_at = $2 AND id < $3))
                   ORDER BY created_at DESC, id DESC LIMIT $4"#,
                uid(project_id),
                at(created_at),
                uid(id),
                limit,
            )
            .fetch_all(&mut *c)
            .await?
        }
    };
    rows(recs)
}

/// Deletes the entries about `subject_id` (a deleted comment's); answers their ids.
pub async fn delete_by_subject(c: &mut PgConnection, subject_id: &str) -> Result<Vec<String>> {
    let deleted = sqlx::query_scalar!("DELETE FROM project_activity WHERE subject_id = $1 RETURNING id", uid(subject_id))
        .fetch_all(&mut *c)
        .await?;
    Ok(deleted.into_iter().map(text).collect())
}

/// Deletes the entries about the comments on a photo (the photo is being deleted and
/// its comments with it); answers their ids. Call before deleting the photo.
pub async fn delete_for_comments_of_image(c: &mut PgConnection, image_id: &str) -> Result<Vec<String>> {
    let deleted = sqlx::query_scalar!(
        "DELETE FROM project_activity WHERE kind = 'comment'
           AND subject_id IN (SELECT id FROM photo_comments WHERE image_id = $1) RETURNING id",
        uid(image_id),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(deleted.into_iter().map(text).collect())
}

/// How many entries a project has (tests and the demo seed's idempotence).
pub async fn count(c: &mut PgConnection, project_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM project_activity WHERE project_id = $1"#, uid(project_id))
        .fetch_one(&mut *c)
        .await?)
}
