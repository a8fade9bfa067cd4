//! A project's milestones, in their order. Who may change them, and how the
//! list stays dense, is `domain::projects::milestones`'s to decide; this only reads and writes.

use sitecast_store_core::{MilestoneRow, Result};
use sqlx::PgConnection;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_date, opt_day, text};

/// A milestone as Postgres returns it (days as `date`).
struct Rec {
    id: Uuid,
    project_id: Uuid,
    name: String,
    position: i64,
    target_date: Option<Date>,
    done_date: Option<Date>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl From<Rec> for MilestoneRow {
    fn from(r: Rec) -> MilestoneRow {
        MilestoneRow {
            id: text(r.id),
            project_id: text(r.project_id),
            name: r.name,
            position: r.position,
            target_date: opt_day(r.target_date),
            done_date: opt_day(r.done_date),
            created_at: ms(r.created_at),
            updated_at: ms(r.updated_at),
        }
    }
}

/// A project's milestones in order.
pub async fn list(c: &mut PgConnection, project_id: &str) -> Result<Vec<MilestoneRow>> {
    let recs = sqlx::query_as!(
        Rec,
        "SELECT id, project_id, name, position, target_date, done_date, created_at, updated_at
         FROM milestones WHERE project_id = $1 ORDER BY position, id",
        uid(project_id),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(MilestoneRow::from).collect())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<MilestoneRow>> {
    let rec = sqlx::query_as!(
        Rec,
        "SELECT id, project_id, name, position, target_date, done_date, created_at, updated_at
         FROM milestones WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(rec.map(MilestoneRow::from))
}

pub async fn insert(c: &mut PgConnection, m: &MilestoneRow) -> Result<()> {
    let (target_date, done_date) = (opt_date(m.target_date.as_deref())?, opt_date(m.done_date.as_deref())?);
    sqlx::query!(
        "INSERT INTO milestones (id, project_id, name, position, target_date, done_date, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        uid(&m.id),
        uid(&m.project_id),
        m.name,
        m.position,
        target_date,
        done_date,
        at(m.created_at),
        at(m.updated_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Writes a milestone's changeable fields as given.
pub async fn update(c: &mut PgConnection, m: &MilestoneRow) -> Result<()> {
    let (target_date, done_date) = (opt_date(m.target_date.as_deref())?, opt_date(m.done_date.as_deref())?);
    sqlx::query!(
        "UPDATE milestones SET name = $2, position = $3, target_date = $4, done_date = $5, updated_at = $6
         WHERE id = $1",
        uid(&m.id),
        m.name,
        m.position,
        target_date,
        done_date,
        at(m.updated_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Deletes a milestone; its photos lose their tag (ON DELETE SET NULL).
pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    Ok(sqlx::query!("DELETE FROM milestones WHERE id = $1", uid(id)).execute(&mut *c).await?.rows_affected() > 0)
}
