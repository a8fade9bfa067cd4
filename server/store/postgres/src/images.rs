//! Photos and favourites.

use sitecast_store_core::{decode, new_id, ImageRow, Meta, PersonRow, Result, PAST_EVERY_PHOTO};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ids, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// A photo as Postgres returns it, before its ids, times and category become the domain's.
struct Rec {
    id: Uuid,
    project_id: Uuid,
    uploaded_by: Option<Uuid>,
    category: String,
    caption: Option<String>,
    original_name: String,
    content_type: String,
    byte_size: i64,
    width: i32,
    height: i32,
    taken_at: Option<OffsetDateTime>,
    storage_key: String,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    version: i64,
    comment_count: i64,
    visit_note: Option<String>,
    batch_id: Option<Uuid>,
    milestone_id: Option<Uuid>,
    markup_count: i64,
    tags: Vec<String>,
    latitude: Option<f64>,
    longitude: Option<f64>,
    uploader_email: Option<String>,
    uploader_name: Option<String>,
    uploader_first_name: Option<String>,
    uploader_last_name: Option<String>,
    uploader_company: Option<String>,
}

impl Rec {
    fn into_row(self) -> Result<ImageRow> {
        Ok(ImageRow {
            id: text(self.id),
            project_id: text(self.project_id),
            uploaded_by: opt_text(self.uploaded_by),
            category: decode("project_images.category", &self.category)?,
            caption: self.caption,
            original_name: self.original_name,
            content_type: self.content_type,
            byte_size: self.byte_size,
            width: self.width,
            height: self.height,
            taken_at: opt_ms(self.taken_at),
            storage_key: self.storage_key,
            created_at: ms(self.created_at),
            updated_at: ms(self.updated_at),
            version: self.version,
            comment_count: self.comment_count,
            visit_note: self.visit_note,
            batch_id: opt_text(self.batch_id),
            milestone_id: opt_text(self.milestone_id),
            markup_count: self.markup_count,
            tags: self.tags,
            location: self.latitude.zip(self.longitude),
            uploader: self.uploader_email.map(|email| PersonRow {
                email,
                name: self.uploader_name,
                first_name: self.uploader_first_name,
                last_name: self.uploader_last_name,
                company_name: self.uploader_company,
            }),
        })
    }
}

fn rows(recs: Vec<Rec>) -> Result<Vec<ImageRow>> {
    recs.into_iter().map(Rec::into_row).collect()
}

/// Inserts a photo. Its milestone tag is kept only if the milestone is still one of
/// the project's: an upload tagged at its start may finish after the milestone went.
pub async fn insert(c: &mut PgConnection, img: &ImageRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO project_images (id, project_id, uploaded_by, category, caption, original_name,
           content_type, byte_size, width, height, taken_at, storage_key, created_at, updated_at, version, visit_note,
           batch_id, milestone_id, tags, latitude, longitude)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
           (SELECT m.id FROM milestones m WHERE m.id = $18 AND m.project_id = $2), $19, $20, $21)",
        uid(&img.id),
        uid(&img.project_id),
        opt_id(img.uploaded_by.as_deref()),
        img.category.as_str(),
        img.caption.as_deref(),
        img.original_name,
        img.content_type,
        img.byte_size,
        img.width,
        img.height,
        opt_at(img.taken_at),
        img.storage_key,
        at(img.created_at),
        at(img.updated_at),
        img.version,
        img.visit_note.as_deref(),
        opt_id(img.batch_id.as_deref()),
        opt_id(img.milestone_id.as_deref()),
        &img.tags,
        img.location.map(|l| l.0),
        img.location.map(|l| l.1),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A project's photos, newest first by the date they show: taken (EXIF) when known,
/// uploaded otherwise; equal dates by upload time, then id, so the order is the same on
/// every read and matches the web gallery's.
pub async fn list_for_project(c: &mut PgConnection, project_id: &str) -> Result<Vec<ImageRow>> {
    let recs = sqlx::query_as!(
        Rec,
        r#"SELECT i.id, i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
             i.byte_size, i.width, i.height, i.taken_at, i.storage_key, i.created_at, i.updated_at, i.version,
             i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags, i.latitude, i.longitude,
             u.email AS "uploader_email?", u.name AS "uploader_name?", u.first_name AS "uploader_first_name?",
             u.last_name AS "uploader_last_name?", co.name AS "uploader_company?"
           FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.project_id = $1
           ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id"#,
        uid(project_id),
    )
    .fetch_all(&mut *c)
    .await?;
    rows(recs)
}

/// A page of a project's photos in `list_for_project`'s order: the `limit` after the
/// photo `after` names (its shown date, upload time and id), or the first `limit`. One
/// query for both (the first page starts after a key later than any photo's), which the
/// `project_images_gallery` index serves as a range, so a page costs the same at any depth.
pub async fn page_for_project(c: &mut PgConnection, project_id: &str, after: Option<(i64, i64, &str)>, limit: i64) -> Result<Vec<ImageRow>> {
    let (shown, created, id) = after.unwrap_or((PAST_EVERY_PHOTO, PAST_EVERY_PHOTO, "00000000-0000-0000-0000-000000000000"));
    let recs = sqlx::query_as!(
        Rec,
        r#"SELECT i.id, i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
             i.byte_size, i.width, i.height, i.taken_at, i.storage_key, i.created_at, i.updated_at, i.version,
             i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags, i.latitude, i.longitude,
             u.email AS "uploader_email?", u.name AS "uploader_name?", u.first_name AS "uploader_first_name?",
             u.last_name AS "uploader_last_name?", co.name AS "uploader_company?"
           FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id
           WHERE i.project_id = $1 AND COALESCE(i.taken_at, i.created_at) <= $2
             AND (COALESCE(i.taken_at, i.created_at) < $2 OR i.created_at < $3 OR (i.created_at = $3 AND i.id > $4))
           ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id LIMIT $5"#,
        uid(project_id),
        at(shown),
        at(created),
        uid(id),
        limit,
    )
    .fetch_all(&mut *c)
    .await?;
    rows(recs)
}

/// How many photos a project has.
pub async fn count_for_project(c: &mut PgConnection, project_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM project_images WHERE project_id = $1"#, uid(project_id)).fetch_one(&mut *c).await?)
}

pub async fn find(c: &mut PgConnection, id: &str) -> Result<Option<ImageRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT i.id, i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
             i.byte_size, i.width, i.height, i.taken_at, i.storage_key, i.created_at, i.updated_at, i.version,
             i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags, i.latitude, i.longitude,
             u.email AS "uploader_email?", u.name AS "uploader_name?", u.first_name AS "uploader_first_name?",
             u.last_name AS "uploader_last_name?", co.name AS "uploader_company?"
           FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// Every stored-object prefix the database knows of.
pub async fn all_storage_keys(c: &mut PgConnection) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!("SELECT storage_key FROM project_images").fetch_all(&mut *c).await?)
}

/// Stored-object prefixes (and content types) of every photo of the given projects.
pub async fn storage_keys_of_projects(c: &mut PgConnection, project_ids: &[String]) -> Result<Vec<(String, String)>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let recs = sqlx::query!(
        "SELECT storage_key, content_type FROM project_images WHERE project_id = ANY($1)",
        &ids(project_ids)[..],
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(|r| (r.storage_key, r.content_type)).collect())
}

/// Caption, category and milestone tag; bumps the version. False when the photo does
/// not exist.
pub async fn update_meta(c: &mut PgConnection, id: &str, meta: &Meta<'_>, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE project_images SET caption = $2, category = $3, milestone_id = $4, updated_at = $5,
           version = version + 1
         WHERE id = $1",
        uid(id),
        meta.caption,
        meta.category.as_str(),
        opt_id(meta.milestone_id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM project_images WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}

/// A user's favourites among a project's photos (by the project the favourite was
/// recorded under), newest photo first, in the gallery's order.
pub async fn favourites_in_project(c: &mut PgConnection, user_id: &str, project_id: &str) -> Result<Vec<ImageRow>> {
    let recs = sqlx::query_as!(
        Rec,
        r#"SELECT i.id, i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
             i.byte_size, i.width, i.height, i.taken_at, i.storage_key, i.created_at, i.updated_at, i.version,
             i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags, i.latitude, i.longitude,
             u.email AS "uploader_email?", u.name AS "uploader_name?", u.first_name AS "uploader_first_name?",
             u.last_name AS "uploader_last_name?", co.name AS "uploader_company?"
           FROM project_images i JOIN user_favourites f ON f.image_id = i.id LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id
           WHERE f.user_id = $1 AND f.project_id = $2
           ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id"#,
        uid(user_id),
        uid(project_id),
    )
    .fetch_all(&mut *c)
    .await?;
    rows(recs)
}

/// Ids of a user's favourites in a project, in the order they were favourited
/// (SPEC.md §7: only imageId is read back).
pub async fn favourite_ids(c: &mut PgConnection, user_id: &str, project_id: &str) -> Result<Vec<String>> {
    let recs = sqlx::query_scalar!(
        "SELECT image_id FROM user_favourites WHERE user_id = $1 AND project_id = $2 ORDER BY created_at",
        uid(user_id),
        uid(project_id),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(text).collect())
}

/// Adds a favourite; one that exists already is left as it is (and is no error).
pub async fn add_favourite(c: &mut PgConnection, user_id: &str, image: &ImageRow, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id, image_id) DO NOTHING",
        uid(&new_id()),
        uid(user_id),
        uid(&image.id),
        uid(&image.project_id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn remove_favourite(c: &mut PgConnection, user_id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query!(
        "DELETE FROM user_favourites WHERE user_id = $1 AND image_id = $2",
        uid(user_id),
        uid(image_id),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Whether a user has favourited a photo.
pub async fn is_favourite(c: &mut PgConnection, user_id: &str, image_id: &str) -> Result<bool> {
    let n = sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!" FROM user_favourites WHERE user_id = $1 AND image_id = $2"#,
        uid(user_id),
        uid(image_id),
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(n > 0)
}

/// Untags every photo tagged with a milestone (before the milestone is deleted, so the
/// photos' versions move with their tag); answers their ids.
pub async fn untag_milestone(c: &mut PgConnection, milestone_id: &str, now: i64) -> Result<Vec<String>> {
    let recs = sqlx::query_scalar!(
        "UPDATE project_images SET milestone_id = NULL, updated_at = $2, version = version + 1
         WHERE milestone_id = $1 RETURNING id",
        uid(milestone_id),
        at(now),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(text).collect())
}

/// The first `limit` photos of one upload batch (a site visit), in the order they
/// were stored.
pub async fn of_batch(c: &mut PgConnection, batch_id: &str, limit: i64) -> Result<Vec<String>> {
    let recs = sqlx::query_scalar!(
        "SELECT id FROM project_images WHERE batch_id = $1 ORDER BY created_at, id LIMIT $2",
        uid(batch_id),
        limit,
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(text).collect())
}

/// Which of `ids` are photos of the project still: one query for a page of timeline
/// entries' strips.
pub async fn existing_of_project(c: &mut PgConnection, project_id: &str, photo_ids: &[String]) -> Result<Vec<String>> {
    if photo_ids.is_empty() {
        return Ok(Vec::new());
    }
    let recs = sqlx::query_scalar!(
        "SELECT id FROM project_images WHERE project_id = $1 AND id = ANY($2)",
        uid(project_id),
        &ids(photo_ids)[..],
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(recs.into_iter().map(text).collect())
}

/// Replaces a photo's tags; bumps its version. False when the photo does not exist.
pub async fn set_tags(c: &mut PgConnection, id: &str, tags: &[String], now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE project_images SET tags = $2, updated_at = $3, version = version + 1 WHERE id = $1",
        uid(id),
        tags,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The photos of `ids` that exist, in no particular order.
pub async fn find_many(c: &mut PgConnection, photo_ids: &[String]) -> Result<Vec<ImageRow>> {
    if photo_ids.is_empty() {
        return Ok(Vec::new());
    }
    let recs = sqlx::query_as!(
        Rec,
        r#"SELECT i.id AS "id!", i.project_id AS "project_id!", i.uploaded_by, i.category AS "category!", i.caption,
             i.original_name AS "original_name!", i.content_type AS "content_type!", i.byte_size AS "byte_size!",
             i.width AS "width!", i.height AS "height!", i.taken_at, i.storage_key AS "storage_key!",
             i.created_at AS "created_at!", i.updated_at AS "updated_at!", i.version AS "version!",
             i.comment_count AS "comment_count!", i.visit_note, i.batch_id, i.milestone_id, i.markup_count AS "markup_count!",
             i.tags AS "tags!", i.latitude, i.longitude,
             u.email AS "uploader_email?", u.name AS "uploader_name?", u.first_name AS "uploader_first_name?",
             u.last_name AS "uploader_last_name?", co.name AS "uploader_company?"
           FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.id = ANY($1)"#,
        &ids(photo_ids)[..],
    )
    .fetch_all(&mut *c)
    .await?;
    rows(recs)
}

/// Each tag a project's photos carry, with how many carry it. Tags differing only in
/// case are one; the spelling shown is the first in sort order.
pub async fn tag_counts(c: &mut PgConnection, project_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT MIN(t.tag) AS "tag!", COUNT(*) AS "photos!"
           FROM project_images i, unnest(i.tags) AS t(tag)
           WHERE i.project_id = $1 GROUP BY lower(t.tag)"#,
        uid(project_id),
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.tag, r.photos))
    .collect())
}

/// How many photos have a location kept.
pub async fn count_with_location(c: &mut PgConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM project_images WHERE latitude IS NOT NULL"#)
        .fetch_one(&mut *c)
        .await?)
}

/// Forgets every photo's location; answers how many had one.
pub async fn forget_locations(c: &mut PgConnection) -> Result<u64> {
    let done = sqlx::query!("UPDATE project_images SET latitude = NULL, longitude = NULL WHERE latitude IS NOT NULL")
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}
