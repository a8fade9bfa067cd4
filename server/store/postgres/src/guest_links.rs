//! Guest links: read-only links to one project, stored by the hash of their
//! token. The store keeps rows; whether a link still opens is the domain's call.

use sitecast_store_core::{decode, GuestLinkRow, NewGuestLink, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// A link with its maker, as Postgres returns it.
struct Rec {
    id: Uuid,
    project_id: Uuid,
    created_by: Uuid,
    photos: String,
    downloads: bool,
    expires_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    last_opened_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    maker_role: String,
    maker_email: String,
    maker_name: Option<String>,
    maker_first_name: Option<String>,
    maker_last_name: Option<String>,
    maker_created_at: OffsetDateTime,
    report_id: Option<Uuid>,
}

impl Rec {
    fn into_row(self) -> Result<GuestLinkRow> {
        Ok(GuestLinkRow {
            id: text(self.id),
            project_id: text(self.project_id),
            created_by: text(self.created_by),
            photos: decode("guest_links.photos", &self.photos)?,
            downloads: self.downloads,
            expires_at: opt_ms(self.expires_at),
            revoked_at: opt_ms(self.revoked_at),
            last_opened_at: opt_ms(self.last_opened_at),
            created_at: ms(self.created_at),
            maker_role: decode("users.role", &self.maker_role)?,
            maker_email: self.maker_email,
            maker_name: self.maker_name,
            maker_first_name: self.maker_first_name,
            maker_last_name: self.maker_last_name,
            maker_created_at: ms(self.maker_created_at),
            report_id: opt_text(self.report_id),
        })
    }
}

pub async fn insert(c: &mut PgConnection, link: &NewGuestLink<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO guest_links (id, project_id, created_by, token_hash, photos, downloads, expires_at, created_at,
           report_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        uid(link.id),
        uid(link.project_id),
        uid(link.created_by),
        link.token_hash,
        link.photos.as_str(),
        link.downloads,
        opt_at(link.expires_at),
        at(link.created_at),
        opt_id(link.report_id),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<GuestLinkRow>> {
    sqlx::query_as!(
        Rec,
        "SELECT g.id, g.project_id, g.created_by, g.photos, g.downloads, g.expires_at, g.revoked_at,
           g.last_opened_at, g.created_at, u.role AS maker_role, u.email AS maker_email, u.name AS maker_name,
           u.first_name AS maker_first_name, u.last_name AS maker_last_name, u.created_at AS maker_created_at, g.report_id
         FROM guest_links g JOIN users u ON u.id = g.created_by
         WHERE g.id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

pub async fn find_by_token(c: &mut PgConnection, token_hash: &str) -> Result<Option<GuestLinkRow>> {
    sqlx::query_as!(
        Rec,
        "SELECT g.id, g.project_id, g.created_by, g.photos, g.downloads, g.expires_at, g.revoked_at,
           g.last_opened_at, g.created_at, u.role AS maker_role, u.email AS maker_email, u.name AS maker_name,
           u.first_name AS maker_first_name, u.last_name AS maker_last_name, u.created_at AS maker_created_at, g.report_id
         FROM guest_links g JOIN users u ON u.id = g.created_by
         WHERE g.token_hash = $1",
        token_hash,
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// A project's links, newest first: all of them, or those one person made.
pub async fn list_for_project(c: &mut PgConnection, project_id: &str, made_by: Option<&str>) -> Result<Vec<GuestLinkRow>> {
    let recs = match made_by {
        Some(maker) => {
            sqlx::query_as!(
                Rec,
                "SELECT g.id, g.project_id, g.created_by, g.photos, g.downloads, g.expires_at, g.revoked_at,
                   g.last_opened_at, g.created_at, u.role AS maker_role, u.email AS maker_email, u.name AS maker_name,
                   u.first_name AS maker_first_name, u.last_name AS maker_last_name, u.created_at AS maker_created_at, g.report_id
                 FROM guest_links g JOIN users u ON u.id = g.created_by
                 WHERE g.project_id = $1 AND g.created_by = $2
                 ORDER BY g.created_at DESC, g.id DESC",
                uid(project_id),
                uid(maker),
            )
            .fetch_all(&mut *c)
            .await?
        }
        None => {
            sqlx::query_as!(
                Rec,
                "SELECT g.id, g.project_id, g.created_by, g.photos, g.downloads, g.expires_at, g.revoked_at,
                   g.last_opened_at, g.created_at, u.role AS maker_role, u.email AS maker_email, u.name AS maker_name,
                   u.first_name AS maker_first_name, u.last_name AS maker_last_name, u.created_at AS maker_created_at, g.report_id
                 FROM guest_links g JOIN users u ON u.id = g.created_by
                 WHERE g.project_id = $1
                 ORDER BY g.created_at DESC, g.id DESC",
                uid(project_id),
            )
            .fetch_all(&mut *c)
            .await?
        }
    };
    recs.into_iter().map(Rec::into_row).collect()
}

/// Revokes a link once: false when it was revoked already.
pub async fn revoke(c: &mut PgConnection, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE guest_links SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn touch(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE guest_links SET last_opened_at = $2 WHERE id = $1", uid(id), at(now))
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// The links that show a report (they go with it).
pub async fn ids_for_report(c: &mut PgConnection, report_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query!("SELECT id FROM guest_links WHERE report_id = $1", uid(report_id))
        .fetch_all(&mut *c)
        .await?
        .into_iter()
        .map(|r| text(r.id))
        .collect())
}
