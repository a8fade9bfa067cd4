//! Photo markup: one document per photo, replaced whole at a version, with
//! the photo's shape count written in the same transaction.

use sitecast_store_core::{MarkupRow, Result};
use sqlx::SqliteConnection;

pub async fn find(c: &mut SqliteConnection, image_id: &str) -> Result<Option<MarkupRow>> {
    Ok(sqlx::query_as!(
        MarkupRow,
        r#"SELECT image_id AS "image_id!", project_id, version, shapes, updated_by, updated_at, session_by, session_at
           FROM photo_markups WHERE image_id = $1"#,
        image_id
    )
    .fetch_optional(&mut *c)
    .await?)
}

/// Stores `m` if the photo's markup is still at `base` (0: none yet) and counts its
/// shapes on the photo; false when another change came first (call in a transaction).
pub async fn save(c: &mut SqliteConnection, m: &MarkupRow, base: i64, shape_count: i64) -> Result<bool> {
    let stored = if base == 0 {
        sqlx::query!(
            "INSERT INTO photo_markups (image_id, project_id, version, shapes, updated_by, updated_at, session_by, session_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (image_id) DO NOTHING",
            m.image_id,
            m.project_id,
            m.version,
            m.shapes,
            m.updated_by,
            m.updated_at,
            m.session_by,
            m.session_at,
        )
        .execute(&mut *c)
        .await?
    } else {
        sqlx::query!(
            "UPDATE photo_markups SET version = $2, shapes = $3, updated_by = $4, updated_at = $5, session_by = $6,
                 session_at = $7
             WHERE image_id = $1 AND version = $8",
            m.image_id,
            m.version,
            m.shapes,
            m.updated_by,
            m.updated_at,
            m.session_by,
            m.session_at,
            base,
        )
        .execute(&mut *c)
        .await?
    };
    if stored.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query!("UPDATE project_images SET markup_count = $2 WHERE id = $1", m.image_id, shape_count)
        .execute(&mut *c)
        .await?;
    Ok(true)
}
