//! Builder companies: a name and its projects; members are users with the
//! company's id (`users::members_of`).

use sitecast_store_core::{CompanyRow, Result};
use sqlx::SqliteConnection;

pub async fn insert(c: &mut SqliteConnection, id: &str, name: &str, now: i64) -> Result<()> {
    sqlx::query!("INSERT INTO companies (id, name, created_at, updated_at, version) VALUES ($1, $2, $3, $3, 1)", id, name, now)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<CompanyRow>> {
    Ok(sqlx::query_as!(
        CompanyRow,
        r#"SELECT co.id AS "id!", co.name, co.created_at, co.updated_at, co.version,
             (SELECT COUNT(*) FROM projects p WHERE p.company_id = co.id) AS "project_count!: i64"
           FROM companies co WHERE co.id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?)
}

/// Every company, by name.
pub async fn list_all(c: &mut SqliteConnection) -> Result<Vec<CompanyRow>> {
    Ok(sqlx::query_as!(
        CompanyRow,
        r#"SELECT co.id AS "id!", co.name, co.created_at, co.updated_at, co.version,
             (SELECT COUNT(*) FROM projects p WHERE p.company_id = co.id) AS "project_count!: i64"
           FROM companies co ORDER BY co.name COLLATE NOCASE, co.id"#
    )
    .fetch_all(&mut *c)
    .await?)
}

/// Renames it, or (`name` None) only marks that its members or projects changed: the
/// version moves either way, so clients take the new state.
pub async fn touch(c: &mut SqliteConnection, id: &str, name: Option<&str>, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE companies SET name = COALESCE($2, name), updated_at = $3, version = version + 1 WHERE id = $1",
        id,
        name,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Its projects go with it (foreign keys cascade); its members' accounts are the
/// domain's to remove first.
pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM companies WHERE id = $1", id).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}
