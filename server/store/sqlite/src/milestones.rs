//! A project's milestones, in their order. Who may change them, and how the
//! list stays dense, is `domain::projects::milestones`'s to decide; this only reads and writes.

use sitecast_store_core::{MilestoneRow, Result};
use sqlx::SqliteConnection;

/// A project's milestones in order.
pub async fn list(c: &mut SqliteConnection, project_id: &str) -> Result<Vec<MilestoneRow>> {
    Ok(sqlx::query_as!(
        MilestoneRow,
        r#"SELECT id AS "id!", project_id, name, position, target_date, done_date, created_at, updated_at
        FROM milestones WHERE project_id = $1 ORDER BY position, id"#,
        project_id
    )
    .fetch_all(&mut *c)
    .await?)
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<MilestoneRow>> {
    Ok(sqlx::query_as!(
        MilestoneRow,
        r#"SELECT id AS "id!", project_id, name, position, target_date, done_date, created_at, updated_at
        FROM milestones WHERE id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?)
}

pub async fn insert(c: &mut SqliteConnection, m: &MilestoneRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO milestones (id, project_id, name, position, target_date, done_date, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        m.id,
        m.project_id,
        m.name,
        m.position,
        m.target_date,
        m.done_date,
        m.created_at,
        m.updated_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Writes a milestone's changeable fields as given.
pub async fn update(c: &mut SqliteConnection, m: &MilestoneRow) -> Result<()> {
    sqlx::query!(
        "UPDATE milestones SET name = $2, position = $3, target_date = $4, done_date = $5, updated_at = $6 \
         WHERE id = $1",
        m.id,
        m.name,
        m.position,
        m.target_date,
        m.done_date,
        m.updated_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Deletes a milestone; its photos lose their tag (ON DELETE SET NULL).
pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    Ok(sqlx::query!("DELETE FROM milestones WHERE id = $1", id).execute(&mut *c).await?.rows_affected() > 0)
}
