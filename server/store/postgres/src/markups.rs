//! Photo markup: one document per photo, replaced whole at a version, with
//! the photo's shape count written in the same transaction. `shapes` is `jsonb`,
//! written from and read as JSON text (the domain owns its meaning).

use sitecast_store_core::{MarkupRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_id, opt_text, text};

struct Rec {
    image_id: Uuid,
    project_id: Uuid,
    version: i64,
    shapes: String,
    updated_by: Option<Uuid>,
    updated_at: OffsetDateTime,
    session_by: Option<Uuid>,
    session_at: OffsetDateTime,
}

impl From<Rec> for MarkupRow {
    fn from(r: Rec) -> MarkupRow {
        MarkupRow {
            image_id: text(r.image_id),
            project_id: text(r.project_id),
            version: r.version,
            shapes: r.shapes,
            updated_by: opt_text(r.updated_by),
            updated_at: ms(r.updated_at),
            session_by: opt_text(r.session_by),
            session_at: ms(r.session_at),
        }
    }
}

pub async fn find(c: &mut PgConnection, image_id: &str) -> Result<Option<MarkupRow>> {
    Ok(sqlx::query_as!(
        Rec,
        r#"SELECT image_id, project_id, version, shapes::text AS "shapes!", updated_by, updated_at, session_by, session_at
           FROM photo_markups WHERE image_id = $1"#,
        uid(image_id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(MarkupRow::from))
}

/// Stores `m` if the photo's markup is still at `base` (0: none yet) and counts its
/// shapes on the photo; false when another change came first (call in a transaction).
pub async fn save(c: &mut PgConnection, m: &MarkupRow, base: i64, shape_count: i64) -> Result<bool> {
    let stored = if base == 0 {
        sqlx::query!(
            "INSERT INTO photo_markups (image_id, project_id, version, shapes, updated_by, updated_at, session_by, session_at)
             VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8) ON CONFLICT (image_id) DO NOTHING",
            uid(&m.image_id),
            uid(&m.project_id),
            m.version,
            m.shapes,
            opt_id(m.updated_by.as_deref()),
            at(m.updated_at),
            opt_id(m.session_by.as_deref()),
            at(m.session_at),
        )
        .execute(&mut *c)
        .await?
    } else {
        sqlx::query!(
            "UPDATE photo_markups SET version = $2, shapes = $3::text::jsonb, updated_by = $4, updated_at = $5,
                 session_by = $6, session_at = $7
             WHERE image_id = $1 AND version = $8",
            uid(&m.image_id),
            m.version,
            m.shapes,
            opt_id(m.updated_by.as_deref()),
            at(m.updated_at),
            opt_id(m.session_by.as_deref()),
            at(m.session_at),
            base,
        )
        .execute(&mut *c)
        .await?
    };
    if stored.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query!("UPDATE project_images SET markup_count = $2 WHERE id = $1", uid(&m.image_id), shape_count)
        .execute(&mut *c)
        .await?;
    Ok(true)
}
