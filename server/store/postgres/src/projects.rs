//! Projects, joined with their homeowner's and builder company's names and their crew.

use sitecast_store_core::{decode, ProjectFields, ProjectRow, ProjectScope, Result};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_id, opt_text, text};

/// A project as Postgres returns it, before its ids, times and enums become the domain's.
struct Rec {
    id: Uuid,
    title: String,
    description: String,
    address: String,
    homeowner_id: Uuid,
    company_id: Option<Uuid>,
    status: String,
    progress: i32,
    thumbnail_image_id: Option<Uuid>,
    thumbnail_pinned: bool,
    progress_mode: String,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    version: i64,
    homeowner_email: String,
    homeowner_name: Option<String>,
    homeowner_first_name: Option<String>,
    homeowner_last_name: Option<String>,
    company_name: Option<String>,
    crew: Vec<Uuid>,
}

impl Rec {
    fn into_row(self) -> Result<ProjectRow> {
        Ok(ProjectRow {
            id: text(self.id),
            title: self.title,
            description: self.description,
            address: self.address,
            homeowner_id: text(self.homeowner_id),
            company_id: opt_text(self.company_id),
            status: decode("projects.status", &self.status)?,
            progress: self.progress,
            thumbnail_image_id: opt_text(self.thumbnail_image_id),
            thumbnail_pinned: self.thumbnail_pinned,
            progress_mode: decode("projects.progress_mode", &self.progress_mode)?,
            created_at: ms(self.created_at),
            updated_at: ms(self.updated_at),
            version: self.version,
            homeowner_email: self.homeowner_email,
            homeowner_name: self.homeowner_name,
            homeowner_first_name: self.homeowner_first_name,
            homeowner_last_name: self.homeowner_last_name,
            company_name: self.company_name,
            crew: self.crew.into_iter().map(text).collect(),
        })
    }
}

fn rows(recs: Vec<Rec>) -> Result<Vec<ProjectRow>> {
    recs.into_iter().map(Rec::into_row).collect()
}

/// Projects in scope, most recently updated first (SPEC.md §2 projects page). One
/// query per scope, each written in full so that every one is checked.
pub async fn list(c: &mut PgConnection, scope: &ProjectScope) -> Result<Vec<ProjectRow>> {
    let recs = match scope {
        ProjectScope::All => {
            sqlx::query_as!(
                Rec,
                r#"SELECT p.id, p.title, p.description, p.address, p.homeowner_id, p.company_id,
                     p.status, p.progress, p.thumbnail_image_id, p.thumbnail_pinned, p.progress_mode,
                     p.created_at, p.updated_at, p.version,
                     h.email AS homeowner_email, h.name AS homeowner_name, h.first_name AS homeowner_first_name,
                     h.last_name AS homeowner_last_name, b.name AS "company_name?",
                     ARRAY(SELECT pc.user_id FROM project_crew pc WHERE pc.project_id = p.id ORDER BY pc.user_id) AS "crew!"
                   FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                   ORDER BY p.updated_at DESC, p.id"#
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Homeowner(homeowner_id) => {
            sqlx::query_as!(
                Rec,
                r#"SELECT p.id, p.title, p.description, p.address, p.homeowner_id, p.company_id,
                     p.status, p.progress, p.thumbnail_image_id, p.thumbnail_pinned, p.progress_mode,
                     p.created_at, p.updated_at, p.version,
                     h.email AS homeowner_email, h.name AS homeowner_name, h.first_name AS homeowner_first_name,
                     h.last_name AS homeowner_last_name, b.name AS "company_name?",
                     ARRAY(SELECT pc.user_id FROM project_crew pc WHERE pc.project_id = p.id ORDER BY pc.user_id) AS "crew!"
                   FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                   WHERE p.homeowner_id = $1
                   ORDER BY p.updated_at DESC, p.id"#,
                uid(homeowner_id),
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Company { company_id, crew_of } => {
            sqlx::query_as!(
                Rec,
                r#"SELECT p.id, p.title, p.description, p.address, p.homeowner_id, p.company_id,
                     p.status, p.progress, p.thumbnail_image_id, p.thumbnail_pinned, p.progress_mode,
                     p.created_at, p.updated_at, p.version,
                     h.email AS homeowner_email, h.name AS homeowner_name, h.first_name AS homeowner_first_name,
                     h.last_name AS homeowner_last_name, b.name AS "company_name?",
                     ARRAY(SELECT pc.user_id FROM project_crew pc WHERE pc.project_id = p.id ORDER BY pc.user_id) AS "crew!"
                   FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
                   WHERE p.company_id = $1
                     AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))
                   ORDER BY p.updated_at DESC, p.id"#,
                uid(company_id),
                opt_id(crew_of.as_deref()),
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Nothing => Vec::new(),
    };
    rows(recs)
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<ProjectRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT p.id, p.title, p.description, p.address, p.homeowner_id, p.company_id,
             p.status, p.progress, p.thumbnail_image_id, p.thumbnail_pinned, p.progress_mode,
             p.created_at, p.updated_at, p.version,
             h.email AS homeowner_email, h.name AS homeowner_name, h.first_name AS homeowner_first_name,
             h.last_name AS homeowner_last_name, b.name AS "company_name?",
                     ARRAY(SELECT pc.user_id FROM project_crew pc WHERE pc.project_id = p.id ORDER BY pc.user_id) AS "crew!"
           FROM projects p JOIN users h ON h.id = p.homeowner_id LEFT JOIN companies b ON b.id = p.company_id
           WHERE p.id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// A new project has no photos yet, so no thumbnail: `thumbnail_image_id` and
/// `thumbnail_pinned` keep their defaults.
pub async fn insert(c: &mut PgConnection, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    sqlx::query!(
        "INSERT INTO projects (id, title, description, address, homeowner_id, company_id, status, progress,
           created_at, updated_at, version, progress_mode)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 1, $10)",
        uid(id),
        f.title,
        f.description,
        f.address,
        uid(f.homeowner_id),
        opt_id(f.company_id),
        f.status.as_str(),
        f.progress,
        at(now),
        f.progress_mode.as_str(),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn set_thumbnail(c: &mut PgConnection, id: &str, image_id: Option<&str>, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE projects SET thumbnail_image_id = $2, updated_at = $3, version = version + 1 WHERE id = $1",
        uid(id),
        opt_id(image_id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn count_for_homeowner(c: &mut PgConnection, homeowner_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM projects WHERE homeowner_id = $1"#, uid(homeowner_id))
        .fetch_one(&mut *c)
        .await?)
}

/// Writes every field (as given) and bumps the version. The thumbnail is not among
/// them: `set_thumbnail`, `refresh_thumbnail` and `update_at_version` write it.
pub async fn update(c: &mut PgConnection, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, company_id = $6,
           status = $7, progress = $8, updated_at = $9, version = version + 1, progress_mode = $10
         WHERE id = $1",
        uid(id),
        f.title,
        f.description,
        f.address,
        uid(f.homeowner_id),
        opt_id(f.company_id),
        f.status.as_str(),
        f.progress,
        at(now),
        f.progress_mode.as_str(),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// As `update` (thumbnail and its pin included), only if the project is still at
/// `version`: false when another change got there first.
pub async fn update_at_version(
    c: &mut PgConnection,
    id: &str,
    f: &ProjectFields<'_>,
    now: i64,
    version: i64,
) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE projects SET title = $2, description = $3, address = $4, homeowner_id = $5, company_id = $6,
           status = $7, progress = $8, updated_at = $9, progress_mode = $10, version = version + 1,
           thumbnail_image_id = $12, thumbnail_pinned = $13
         WHERE id = $1 AND version = $11",
        uid(id),
        f.title,
        f.description,
        f.address,
        uid(f.homeowner_id),
        opt_id(f.company_id),
        f.status.as_str(),
        f.progress,
        at(now),
        f.progress_mode.as_str(),
        version,
        opt_id(f.thumbnail_image_id),
        f.thumbnail_pinned,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM projects WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}

/// Ids and versions of a homeowner's projects (deleted with them).
pub async fn ids_of_homeowner(c: &mut PgConnection, user_id: &str) -> Result<Vec<(String, i64)>> {
    let recs = sqlx::query!("SELECT id, version FROM projects WHERE homeowner_id = $1", uid(user_id)).fetch_all(&mut *c).await?;
    Ok(recs.into_iter().map(|r| (text(r.id), r.version)).collect())
}

/// Ids and versions of a company's projects (deleted with it).
pub async fn ids_of_company(c: &mut PgConnection, company_id: &str) -> Result<Vec<(String, i64)>> {
    let recs = sqlx::query!("SELECT id, version FROM projects WHERE company_id = $1", uid(company_id)).fetch_all(&mut *c).await?;
    Ok(recs.into_iter().map(|r| (text(r.id), r.version)).collect())
}

/// The ids of the projects in scope (a search's).
pub async fn ids_in_scope(c: &mut PgConnection, scope: &ProjectScope) -> Result<Vec<String>> {
    let ids = match scope {
        ProjectScope::All => sqlx::query_scalar!("SELECT id FROM projects").fetch_all(&mut *c).await?,
        ProjectScope::Homeowner(id) => {
            sqlx::query_scalar!("SELECT id FROM projects WHERE homeowner_id = $1", uid(id)).fetch_all(&mut *c).await?
        }
        ProjectScope::Company { company_id, crew_of } => {
            sqlx::query_scalar!(
                "SELECT p.id FROM projects p WHERE p.company_id = $1
                   AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))",
                uid(company_id),
                opt_id(crew_of.as_deref()),
            )
            .fetch_all(&mut *c)
            .await?
        }
        ProjectScope::Nothing => Vec::new(),
    };
    Ok(ids.into_iter().map(text).collect())
}

/// How many projects a homeowner has, and how many photos those projects hold: what
/// deleting the homeowner removes with them.
pub async fn deletion_counts(c: &mut PgConnection, user_id: &str) -> Result<(i64, i64)> {
    let r = sqlx::query!(
        r#"SELECT COUNT(DISTINCT p.id) AS "projects!", COUNT(i.id) AS "photos!" FROM projects p
           LEFT JOIN project_images i ON i.project_id = p.id
           WHERE p.homeowner_id = $1"#,
        uid(user_id),
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((r.projects, r.photos))
}

/// How many projects a company builds and how many photos they hold.
pub async fn company_deletion_counts(c: &mut PgConnection, company_id: &str) -> Result<(i64, i64)> {
    let r = sqlx::query!(
        r#"SELECT COUNT(DISTINCT p.id) AS "projects!", COUNT(i.id) AS "photos!" FROM projects p
           LEFT JOIN project_images i ON i.project_id = p.id
           WHERE p.company_id = $1"#,
        uid(company_id),
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((r.projects, r.photos))
}

/// For a builder's homeowner table: how many of each homeowner's projects they see.
pub async fn homeowner_counts_in_company(c: &mut PgConnection, company_id: &str, crew_of: Option<&str>) -> Result<Vec<(String, i64)>> {
    let recs = sqlx::query!(
        r#"SELECT p.homeowner_id, COUNT(*) AS "n!" FROM projects p WHERE p.company_id = $1
             AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2))
           GROUP BY p.homeowner_id"#,
        uid(company_id),
        opt_id(crew_of),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(|r| (text(r.homeowner_id), r.n)).collect())
}

/// Makes the project's crew exactly `user_ids` (members of its company: the domain
/// checks); the caller moves the project's version on.
pub async fn set_crew(c: &mut PgConnection, id: &str, user_ids: &[String], now: i64) -> Result<()> {
    let ids: Vec<Uuid> = user_ids.iter().map(|u| uid(u)).collect();
    sqlx::query!("DELETE FROM project_crew WHERE project_id = $1 AND NOT (user_id = ANY($2))", uid(id), &ids)
        .execute(&mut *c)
        .await?;
    sqlx::query!(
        "INSERT INTO project_crew (project_id, user_id, added_at) SELECT $1, u, $3 FROM unnest($2::uuid[]) u
         ON CONFLICT (project_id, user_id) DO NOTHING",
        uid(id),
        &ids,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The id of the project's newest photo, if it has any.
pub async fn newest_image_id(c: &mut PgConnection, id: &str) -> Result<Option<String>> {
    let newest = sqlx::query_scalar!(
        r#"SELECT (SELECT i.id FROM project_images i WHERE i.project_id = $1
                   ORDER BY i.created_at DESC, i.id DESC LIMIT 1) AS "id?""#,
        uid(id),
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(opt_text(newest))
}

/// Points the project's thumbnail at its newest photo (SPEC.md §4), or at none when it
/// has no photos left, unless an admin picked one that still exists (deleting the
/// picked photo nulls the column, which hands the thumbnail back to the newest).
/// One statement, so it is right however uploads and deletes interleave; the version
/// moves only when the thumbnail does (`IS DISTINCT FROM`: NULL to NULL is no move).
pub async fn refresh_thumbnail(c: &mut PgConnection, id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE projects SET
           thumbnail_image_id = (SELECT i.id FROM project_images i WHERE i.project_id = $1
                                 ORDER BY i.created_at DESC, i.id DESC LIMIT 1),
           thumbnail_pinned = FALSE, updated_at = $2, version = version + 1
         WHERE id = $1 AND (NOT thumbnail_pinned OR thumbnail_image_id IS NULL)
           AND (thumbnail_image_id IS DISTINCT FROM (SELECT i.id FROM project_images i WHERE i.project_id = $1
                                                     ORDER BY i.created_at DESC, i.id DESC LIMIT 1)
                OR thumbnail_pinned)",
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}
