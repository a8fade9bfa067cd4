//! Builder companies: a name and its projects; members are users with the
//! company's id (`users::members_of`).

use sitecast_store_core::{CompanyRow, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, text};

struct Rec {
    id: Uuid,
    name: String,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    version: i64,
    project_count: i64,
}

impl From<Rec> for CompanyRow {
    fn from(r: Rec) -> CompanyRow {
        CompanyRow {
            id: text(r.id),
            name: r.name,
            created_at: ms(r.created_at),
            updated_at: ms(r.updated_at),
            version: r.version,
            project_count: r.project_count,
        }
    }
}

pub async fn insert(c: &mut PgConnection, id: &str, name: &str, now: i64) -> Result<()> {
    sqlx::query!("INSERT INTO companies (id, name, created_at, updated_at, version) VALUES ($1, $2, $3, $3, 1)", uid(id), name, at(now))
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<CompanyRow>> {
    Ok(sqlx::query_as!(
        Rec,
        r#"SELECT co.id, co.name, co.created_at, co.updated_at, co.version,
             (SELECT COUNT(*) FROM projects p WHERE p.company_id = co.id) AS "project_count!"
           FROM companies co WHERE co.id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(CompanyRow::from))
}

/// Every company, by name.
pub async fn list_all(c: &mut PgConnection) -> Result<Vec<CompanyRow>> {
    Ok(sqlx::query_as!(
        Rec,
        r#"SELECT co.id, co.name, co.created_at, co.updated_at, co.version,
             (SELECT COUNT(*) FROM projects p WHERE p.company_id = co.id) AS "project_count!"
           FROM companies co ORDER BY lower(co.name), co.id"#
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(CompanyRow::from)
    .collect())
}

/// Renames it, or (`name` None) only marks that its members or projects changed: the
/// version moves either way, so clients take the new state.
pub async fn touch(c: &mut PgConnection, id: &str, name: Option<&str>, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE companies SET name = COALESCE($2, name), updated_at = $3, version = version + 1 WHERE id = $1",
        uid(id),
        name,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Its projects go with it (foreign keys cascade); its members' accounts are the
/// domain's to remove first.
pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM companies WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}
