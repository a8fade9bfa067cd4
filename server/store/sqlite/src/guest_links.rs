//! Guest links: read-only links to one project, stored by the hash of their
//! token. The store keeps rows; whether a link still opens is the domain's call.

use sitecast_store_core::{decode, GuestLinkRow, NewGuestLink, Result};
use sqlx::SqliteConnection;

/// A link joined with its maker, before the enums are decoded.
struct Record {
    id: String,
    project_id: String,
    created_by: String,
    photos: String,
    downloads: bool,
    expires_at: Option<i64>,
    revoked_at: Option<i64>,
    last_opened_at: Option<i64>,
    created_at: i64,
    maker_role: String,
    maker_email: String,
    maker_name: Option<String>,
    maker_first_name: Option<String>,
    maker_last_name: Option<String>,
    maker_created_at: i64,
    report_id: Option<String>,
}

impl TryFrom<Record> for GuestLinkRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<GuestLinkRow> {
        Ok(GuestLinkRow {
            photos: decode("guest_links.photos", &r.photos)?,
            maker_role: decode("users.role", &r.maker_role)?,
            id: r.id,
            project_id: r.project_id,
            created_by: r.created_by,
            downloads: r.downloads,
            expires_at: r.expires_at,
            revoked_at: r.revoked_at,
            last_opened_at: r.last_opened_at,
            created_at: r.created_at,
            maker_email: r.maker_email,
            maker_name: r.maker_name,
            maker_first_name: r.maker_first_name,
            maker_last_name: r.maker_last_name,
            maker_created_at: r.maker_created_at,
            report_id: r.report_id,
        })
    }
}

fn rows(records: Vec<Record>) -> Result<Vec<GuestLinkRow>> {
    records.into_iter().map(GuestLinkRow::try_from).collect()
}

pub async fn insert(c: &mut SqliteConnection, link: &NewGuestLink<'_>) -> Result<()> {
    let photos = link.photos.as_str();
    sqlx::query!(
        "INSERT INTO guest_links (id, project_id, created_by, token_hash, photos, downloads, expires_at, created_at, \
         report_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        link.id,
        link.project_id,
        link.created_by,
        link.token_hash,
        photos,
        link.downloads,
        link.expires_at,
        link.created_at,
        link.report_id,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

// The SELECTs below are the same join, differing only in their WHERE.

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<GuestLinkRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT g.id AS "id!", g.project_id, g.created_by, g.photos, g.downloads AS "downloads!: bool",
            g.expires_at, g.revoked_at, g.last_opened_at, g.created_at, u.role AS "maker_role!",
            u.email AS "maker_email!", u.name AS maker_name, u.first_name AS maker_first_name,
            u.last_name AS maker_last_name, u.created_at AS "maker_created_at!",
            g.report_id
        FROM guest_links g JOIN users u ON u.id = g.created_by
        WHERE g.id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(GuestLinkRow::try_from)
    .transpose()
}

pub async fn find_by_token(c: &mut SqliteConnection, token_hash: &str) -> Result<Option<GuestLinkRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT g.id AS "id!", g.project_id, g.created_by, g.photos, g.downloads AS "downloads!: bool",
            g.expires_at, g.revoked_at, g.last_opened_at, g.created_at, u.role AS "maker_role!",
            u.email AS "maker_email!", u.name AS maker_name, u.first_name AS maker_first_name,
            u.last_name AS maker_last_name, u.created_at AS "maker_created_at!",
            g.report_id
        FROM guest_links g JOIN users u ON u.id = g.created_by
        WHERE g.token_hash = $1"#,
        token_hash
    )
    .fetch_optional(&mut *c)
    .await?
    .map(GuestLinkRow::try_from)
    .transpose()
}

/// A project's links, newest first: all of them, or those one person made.
pub async fn list_for_project(
    c: &mut SqliteConnection,
    project_id: &str,
    made_by: Option<&str>,
) -> Result<Vec<GuestLinkRow>> {
    let records = match made_by {
        Some(maker) => {
            sqlx::query_as!(
                Record,
                r#"SELECT g.id AS "id!", g.project_id, g.created_by, g.photos, g.downloads AS "downloads!: bool",
                    g.expires_at, g.revoked_at, g.last_opened_at, g.created_at, u.role AS "maker_role!",
                    u.email AS "maker_email!", u.name AS maker_name, u.first_name AS maker_first_name,
                    u.last_name AS maker_last_name, u.created_at AS "maker_created_at!",
                    g.report_id
                FROM guest_links g JOIN users u ON u.id = g.created_by
                WHERE g.project_id = $1 AND g.created_by = $2
                ORDER BY g.created_at DESC, g.id DESC"#,
                project_id,
                maker
            )
            .fetch_all(&mut *c)
            .await?
        }
        None => {
            sqlx::query_as!(
                Record,
                r#"SELECT g.id AS "id!", g.project_id, g.created_by, g.photos, g.downloads AS "downloads!: bool",
                    g.expires_at, g.revoked_at, g.last_opened_at, g.created_at, u.role AS "maker_role!",
                    u.email AS "maker_email!", u.name AS maker_name, u.first_name AS maker_first_name,
                    u.last_name AS maker_last_name, u.created_at AS "maker_created_at!",
                    g.report_id
                FROM guest_links g JOIN users u ON u.id = g.created_by
                WHERE g.project_id = $1
                ORDER BY g.created_at DESC, g.id DESC"#,
                project_id
            )
            .fetch_all(&mut *c)
            .await?
        }
    };
    rows(records)
}

/// Revokes a link once: false when it was revoked already.
pub async fn revoke(c: &mut SqliteConnection, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!("UPDATE guest_links SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL", id, now)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn touch(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE guest_links SET last_opened_at = $2 WHERE id = $1", id, now).execute(&mut *c).await?;
    Ok(())
}

/// The links that show a report (they go with it).
pub async fn ids_for_report(c: &mut SqliteConnection, report_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query!(r#"SELECT id AS "id!" FROM guest_links WHERE report_id = $1"#, report_id)
        .fetch_all(&mut *c)
        .await?
        .into_iter()
        .map(|r| r.id)
        .collect())
}
