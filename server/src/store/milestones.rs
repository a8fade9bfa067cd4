//! A project's milestones (issue 18), in their order. Who may change them, and how the
//! list stays dense, is `domain::milestones`'s to decide; this only reads and writes.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct MilestoneRow {
    pub id: String,
    pub project_id: String,
    pub name: String,
    /// 0-based, dense within the project.
    pub position: i64,
    /// `YYYY-MM-DD`.
    pub target_date: Option<String>,
    /// `YYYY-MM-DD`; set while completed.
    pub done_date: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, project_id, name, position, target_date, done_date, created_at, updated_at";

/// A project's milestones in order.
pub async fn list<'e, E: Executor<'e, Database = Any>>(ex: E, project_id: &str) -> Result<Vec<MilestoneRow>> {
    Ok(sqlx::query_as::<_, MilestoneRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM milestones WHERE project_id = $1 ORDER BY position, id"
    )))
    .bind(project_id)
    .fetch_all(ex)
    .await?)
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<MilestoneRow>> {
    Ok(sqlx::query_as::<_, MilestoneRow>(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM milestones WHERE id = $1")))
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, m: &MilestoneRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO milestones (id, project_id, name, position, target_date, done_date, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&m.id)
    .bind(&m.project_id)
    .bind(&m.name)
    .bind(m.position)
    .bind(&m.target_date)
    .bind(&m.done_date)
    .bind(m.created_at)
    .bind(m.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Writes a milestone's changeable fields as given.
pub async fn update<'e, E: Executor<'e, Database = Any>>(ex: E, m: &MilestoneRow) -> Result<()> {
    sqlx::query(
        "UPDATE milestones SET name = $2, position = $3, target_date = $4, done_date = $5, updated_at = $6 \
         WHERE id = $1",
    )
    .bind(&m.id)
    .bind(&m.name)
    .bind(m.position)
    .bind(&m.target_date)
    .bind(&m.done_date)
    .bind(m.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Deletes a milestone; its photos lose their tag (ON DELETE SET NULL).
pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    Ok(sqlx::query("DELETE FROM milestones WHERE id = $1").bind(id).execute(ex).await?.rows_affected() > 0)
}
