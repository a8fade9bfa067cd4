//! Guest links (issue 18): read-only links to one project, stored by the hash of their
//! token. The store keeps rows; whether a link still opens is the domain's call.

use sqlx::{Any, Executor, FromRow};

use super::Result;

#[derive(Debug, Clone, FromRow)]
pub struct GuestLinkRow {
    pub id: String,
    pub project_id: String,
    pub created_by: String,
    pub photos: String,
    pub downloads: i64,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub last_opened_at: Option<i64>,
    pub created_at: i64,
    /// The maker, joined: a link shows the project through their eyes.
    pub maker_role: String,
    pub maker_email: String,
    pub maker_name: Option<String>,
    pub maker_first_name: Option<String>,
    pub maker_last_name: Option<String>,
    pub maker_created_at: i64,
}

const SELECT: &str = "SELECT g.id, g.project_id, g.created_by, g.photos, g.downloads, g.expires_at, g.revoked_at, \
     g.last_opened_at, g.created_at, u.role AS maker_role, u.email AS maker_email, u.name AS maker_name, \
     u.first_name AS maker_first_name, u.last_name AS maker_last_name, u.created_at AS maker_created_at \
     FROM guest_links g JOIN users u ON u.id = g.created_by";

pub struct NewGuestLink<'a> {
    pub id: &'a str,
    pub project_id: &'a str,
    pub created_by: &'a str,
    pub token_hash: &'a str,
    pub photos: &'a str,
    pub downloads: bool,
    pub expires_at: Option<i64>,
    pub created_at: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, link: &NewGuestLink<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO guest_links (id, project_id, created_by, token_hash, photos, downloads, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(link.id)
    .bind(link.project_id)
    .bind(link.created_by)
    .bind(link.token_hash)
    .bind(link.photos)
    .bind(i64::from(link.downloads))
    .bind(link.expires_at)
    .bind(link.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<GuestLinkRow>> {
    Ok(sqlx::query_as::<_, GuestLinkRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE g.id = $1"))).bind(id).fetch_optional(ex).await?)
}

pub async fn find_by_token<'e, E: Executor<'e, Database = Any>>(ex: E, token_hash: &str) -> Result<Option<GuestLinkRow>> {
    Ok(sqlx::query_as::<_, GuestLinkRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE g.token_hash = $1")))
        .bind(token_hash)
        .fetch_optional(ex)
        .await?)
}

/// A project's links, newest first: all of them, or those one person made.
pub async fn list_for_project<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    project_id: &str,
    made_by: Option<&str>,
) -> Result<Vec<GuestLinkRow>> {
    let order = "ORDER BY g.created_at DESC, g.id DESC";
    let rows = match made_by {
        Some(maker) => {
            sqlx::query_as::<_, GuestLinkRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE g.project_id = $1 AND g.created_by = $2 {order}")))
                .bind(project_id)
                .bind(maker)
                .fetch_all(ex)
                .await?
        }
        None => {
            sqlx::query_as::<_, GuestLinkRow>(sqlx::AssertSqlSafe(format!("{SELECT} WHERE g.project_id = $1 {order}")))
                .bind(project_id)
                .fetch_all(ex)
                .await?
        }
    };
    Ok(rows)
}

/// Revokes a link once: false when it was revoked already.
pub async fn revoke<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE guest_links SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn touch<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE guest_links SET last_opened_at = $2 WHERE id = $1").bind(id).bind(now).execute(ex).await?;
    Ok(())
}

#[cfg(test)]
impl GuestLinkRow {
    /// A live link for the domain's rule tests.
    pub fn example(id: &str, project_id: &str, maker_id: &str) -> GuestLinkRow {
        GuestLinkRow {
            id: id.into(),
            project_id: project_id.into(),
            created_by: maker_id.into(),
            photos: "all".into(),
            downloads: 0,
            expires_at: None,
            revoked_at: None,
            last_opened_at: None,
            created_at: 1,
            maker_role: "homeowner".into(),
            maker_email: format!("{maker_id}@example.com"),
            maker_name: Some(format!("{maker_id} name")),
            maker_first_name: None,
            maker_last_name: None,
            maker_created_at: 1,
        }
    }
}
