//! Photos and favourites.

use sitecast_store_core::{decode, new_id, ImageRow, Meta, PersonRow, Result, PAST_EVERY_PHOTO};
use sqlx::types::Json;
use sqlx::SqliteConnection;

/// A photo as a SELECT reads it, before its category is decoded.
struct Record {
    id: String,
    project_id: String,
    uploaded_by: Option<String>,
    category: String,
    caption: Option<String>,
    original_name: String,
    content_type: String,
    byte_size: i64,
    width: i32,
    height: i32,
    taken_at: Option<i64>,
    storage_key: String,
    created_at: i64,
    updated_at: i64,
    version: i64,
    comment_count: i64,
    visit_note: Option<String>,
    batch_id: Option<String>,
    milestone_id: Option<String>,
    markup_count: i64,
    tags: String,
    latitude: Option<f64>,
    longitude: Option<f64>,
    uploader_email: Option<String>,
    uploader_name: Option<String>,
    uploader_first_name: Option<String>,
    uploader_last_name: Option<String>,
    uploader_company: Option<String>,
}

impl TryFrom<Record> for ImageRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(r: Record) -> Result<ImageRow> {
        Ok(ImageRow {
            category: decode("project_images.category", &r.category)?,
            id: r.id,
            project_id: r.project_id,
            uploaded_by: r.uploaded_by,
            caption: r.caption,
            original_name: r.original_name,
            content_type: r.content_type,
            byte_size: r.byte_size,
            width: r.width,
            height: r.height,
            taken_at: r.taken_at,
            storage_key: r.storage_key,
            created_at: r.created_at,
            updated_at: r.updated_at,
            version: r.version,
            comment_count: r.comment_count,
            visit_note: r.visit_note,
            batch_id: r.batch_id,
            milestone_id: r.milestone_id,
            markup_count: r.markup_count,
            tags: crate::tags::decode(&r.tags)?,
            location: r.latitude.zip(r.longitude),
            uploader: r.uploader_email.map(|email| PersonRow {
                email,
                name: r.uploader_name,
                first_name: r.uploader_first_name,
                last_name: r.uploader_last_name,
                company_name: r.uploader_company,
            }),
        })
    }
}

fn rows(records: Vec<Record>) -> Result<Vec<ImageRow>> {
    records.into_iter().map(ImageRow::try_from).collect()
}

/// Inserts a photo. Its milestone tag is kept only if the milestone is still one of
/// the project's: an upload tagged at its start may finish after the milestone went.
pub async fn insert(c: &mut SqliteConnection, img: &ImageRow) -> Result<()> {
    let category = img.category.as_str();
    let tags = crate::tags::encode(&img.tags);
    let (latitude, longitude) = (img.location.map(|l| l.0), img.location.map(|l| l.1));
    sqlx::query!(
        "INSERT INTO project_images (id, project_id, uploaded_by, category, caption, original_name, \
         content_type, byte_size, width, height, taken_at, storage_key, created_at, updated_at, version, visit_note, \
         batch_id, milestone_id, tags, latitude, longitude) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
         $14, $15, $16, $17, (SELECT m.id FROM milestones m WHERE m.id = $18 AND m.project_id = $2), $19, $20, $21)",
        img.id,
        img.project_id,
        img.uploaded_by,
        category,
        img.caption,
        img.original_name,
        img.content_type,
        img.byte_size,
        img.width,
        img.height,
        img.taken_at,
        img.storage_key,
        img.created_at,
        img.updated_at,
        img.version,
        img.visit_note,
        img.batch_id,
        img.milestone_id,
        tags,
        latitude,
        longitude,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A project's photos, newest first (SPEC.md §7 images) by the date they show: taken
/// (EXIF) when known, uploaded otherwise; equal dates by upload time, then id, so the
/// order is the same on every read and matches the web gallery's.
pub async fn list_for_project(c: &mut SqliteConnection, project_id: &str) -> Result<Vec<ImageRow>> {
    rows(
        sqlx::query_as!(
            Record,
            r#"SELECT i.id AS "id!", i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
                i.byte_size, i.width AS "width: i32", i.height AS "height: i32", i.taken_at, i.storage_key, i.created_at,
                i.updated_at, i.version, i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags,
                i.latitude, i.longitude,
                u.email AS "uploader_email?", u.name AS uploader_name, u.first_name AS uploader_first_name,
                u.last_name AS uploader_last_name, co.name AS "uploader_company?"
            FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.project_id = $1
            ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id"#,
            project_id
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// A page of a project's photos in `list_for_project`'s order: the `limit` after the
/// photo `after` names (its shown date, upload time and id), or the first `limit`. One
/// query for both (the first page starts after a key later than any photo's), which the
/// `project_images_gallery` index serves as a range, so a page costs the same at any depth.
pub async fn page_for_project(
    c: &mut SqliteConnection,
    project_id: &str,
    after: Option<(i64, i64, &str)>,
    limit: i64,
) -> Result<Vec<ImageRow>> {
    let (shown, created, id) = after.unwrap_or((PAST_EVERY_PHOTO, PAST_EVERY_PHOTO, ""));
    rows(
        sqlx::query_as!(
            Record,
            r#"SELECT i.id AS "id!", i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
                i.byte_size, i.width AS "width: i32", i.height AS "height: i32", i.taken_at, i.storage_key, i.created_at,
                i.updated_at, i.version, i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags,
                i.latitude, i.longitude,
                u.email AS "uploader_email?", u.name AS uploader_name, u.first_name AS uploader_first_name,
                u.last_name AS uploader_last_name, co.name AS "uploader_company?"
            FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id
            WHERE i.project_id = $1 AND COALESCE(i.taken_at, i.created_at) <= $2
                AND (COALESCE(i.taken_at, i.created_at) < $2 OR i.created_at < $3 OR (i.created_at = $3 AND i.id > $4))
            ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id LIMIT $5"#,
            project_id,
            shown,
            created,
            id,
            limit
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// How many photos a project has.
pub async fn count_for_project(c: &mut SqliteConnection, project_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!: i64" FROM project_images WHERE project_id = $1"#, project_id).fetch_one(&mut *c).await?)
}

pub async fn find(c: &mut SqliteConnection, id: &str) -> Result<Option<ImageRow>> {
    sqlx::query_as!(
        Record,
        r#"SELECT i.id AS "id!", i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
                i.byte_size, i.width AS "width: i32", i.height AS "height: i32", i.taken_at, i.storage_key, i.created_at,
                i.updated_at, i.version, i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags,
                i.latitude, i.longitude,
                u.email AS "uploader_email?", u.name AS uploader_name, u.first_name AS uploader_first_name,
                u.last_name AS uploader_last_name, co.name AS "uploader_company?"
        FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.id = $1"#,
        id
    )
    .fetch_optional(&mut *c)
    .await?
    .map(ImageRow::try_from)
    .transpose()
}

/// Every stored-object prefix the database knows of.
pub async fn all_storage_keys(c: &mut SqliteConnection) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!("SELECT storage_key FROM project_images").fetch_all(&mut *c).await?)
}

/// Stored-object prefixes of every photo of the given projects. The ids go in as one
/// JSON array, unpacked by `json_each`: one statement whatever their number.
pub async fn storage_keys_of_projects(
    c: &mut SqliteConnection,
    project_ids: &[String],
) -> Result<Vec<(String, String)>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = Json(project_ids);
    Ok(sqlx::query!(
        "SELECT storage_key, content_type FROM project_images \
         WHERE project_id IN (SELECT value FROM json_each($1))",
        ids
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.storage_key, r.content_type))
    .collect())
}

/// Caption, category and milestone tag; bumps the version. False when the photo does
/// not exist.
pub async fn update_meta(c: &mut SqliteConnection, id: &str, meta: &Meta<'_>, now: i64) -> Result<bool> {
    let category = meta.category.as_str();
    let done = sqlx::query!(
        "UPDATE project_images SET caption = $2, category = $3, milestone_id = $4, updated_at = $5, \
         version = version + 1 WHERE id = $1",
        id,
        meta.caption,
        category,
        meta.milestone_id,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM project_images WHERE id = $1", id).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}

/// A user's favourites among a project's photos, newest photo first (the gallery's
/// order: date shown, then upload time, then id).
pub async fn favourites_in_project(c: &mut SqliteConnection, user_id: &str, project_id: &str) -> Result<Vec<ImageRow>> {
    rows(
        sqlx::query_as!(
            Record,
            r#"SELECT i.id AS "id!", i.project_id, i.uploaded_by, i.category, i.caption, i.original_name,
                i.content_type, i.byte_size, i.width AS "width: i32", i.height AS "height: i32", i.taken_at,
                i.storage_key, i.created_at, i.updated_at, i.version, i.comment_count, i.visit_note, i.batch_id,
                i.milestone_id, i.markup_count, i.tags, i.latitude, i.longitude,
                u.email AS "uploader_email?", u.name AS uploader_name, u.first_name AS uploader_first_name,
                u.last_name AS uploader_last_name, co.name AS "uploader_company?"
            FROM project_images i JOIN user_favourites f ON f.image_id = i.id LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id
            WHERE f.user_id = $1 AND f.project_id = $2
            ORDER BY COALESCE(i.taken_at, i.created_at) DESC, i.created_at DESC, i.id"#,
            user_id,
            project_id
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// Ids of a user's favourites in a project (SPEC.md §7: only imageId is read back), in
/// the order they were added.
pub async fn favourite_ids(c: &mut SqliteConnection, user_id: &str, project_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        "SELECT image_id FROM user_favourites WHERE user_id = $1 AND project_id = $2 ORDER BY created_at",
        user_id,
        project_id
    )
    .fetch_all(&mut *c)
    .await?)
}

/// Adds a favourite; one that exists already is left as it is (and is no error): true
/// only when a row was added.
pub async fn add_favourite(c: &mut SqliteConnection, user_id: &str, image: &ImageRow, now: i64) -> Result<bool> {
    let id = new_id();
    let done = sqlx::query!(
        "INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (user_id, image_id) DO NOTHING",
        id,
        user_id,
        image.id,
        image.project_id,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn remove_favourite(c: &mut SqliteConnection, user_id: &str, image_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM user_favourites WHERE user_id = $1 AND image_id = $2", user_id, image_id)
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Whether a user has favourited a photo.
pub async fn is_favourite(c: &mut SqliteConnection, user_id: &str, image_id: &str) -> Result<bool> {
    let count = sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "count!: i64" FROM user_favourites WHERE user_id = $1 AND image_id = $2"#,
        user_id,
        image_id
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(count > 0)
}

/// Untags every photo tagged with a milestone (before the milestone is deleted, so the
/// photos' versions move with their tag); answers their ids.
pub async fn untag_milestone(c: &mut SqliteConnection, milestone_id: &str, now: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"UPDATE project_images SET milestone_id = NULL, updated_at = $2, version = version + 1
         WHERE milestone_id = $1 RETURNING id AS "id!""#,
        milestone_id,
        now
    )
    .fetch_all(&mut *c)
    .await?)
}

/// The first `limit` photos of one upload batch (a site visit), in the order they
/// were stored.
pub async fn of_batch(c: &mut SqliteConnection, batch_id: &str, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM project_images WHERE batch_id = $1 ORDER BY created_at, id LIMIT $2"#,
        batch_id,
        limit
    )
    .fetch_all(&mut *c)
    .await?)
}

/// Which of `ids` are photos of the project still: one query for a page of timeline
/// entries' strips (the ids go in as one JSON array, unpacked by `json_each`).
pub async fn existing_of_project(c: &mut SqliteConnection, project_id: &str, ids: &[String]) -> Result<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = Json(ids);
    Ok(sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM project_images WHERE project_id = $1 AND id IN (SELECT value FROM json_each($2))"#,
        project_id,
        ids
    )
    .fetch_all(&mut *c)
    .await?)
}

/// Replaces a photo's tags; bumps its version. False when the photo does not exist.
pub async fn set_tags(c: &mut SqliteConnection, id: &str, tags: &[String], now: i64) -> Result<bool> {
    let tags = crate::tags::encode(tags);
    let done = sqlx::query!(
        "UPDATE project_images SET tags = $2, updated_at = $3, version = version + 1 WHERE id = $1",
        id,
        tags,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The photos of `ids` that exist, in no particular order.
pub async fn find_many(c: &mut SqliteConnection, ids: &[String]) -> Result<Vec<ImageRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = Json(ids);
    rows(
        sqlx::query_as!(
            Record,
            r#"SELECT i.id AS "id!", i.project_id, i.uploaded_by, i.category, i.caption, i.original_name, i.content_type,
                i.byte_size, i.width AS "width: i32", i.height AS "height: i32", i.taken_at, i.storage_key, i.created_at,
                i.updated_at, i.version, i.comment_count, i.visit_note, i.batch_id, i.milestone_id, i.markup_count, i.tags,
                i.latitude, i.longitude,
                u.email AS "uploader_email?", u.name AS uploader_name, u.first_name AS uploader_first_name,
                u.last_name AS uploader_last_name, co.name AS "uploader_company?"
            FROM project_images i LEFT JOIN users u ON u.id = i.uploaded_by LEFT JOIN companies co ON co.id = u.company_id WHERE i.id IN (SELECT value FROM json_each($1))"#,
            ids
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// Each tag a project's photos carry, with how many carry it. Tags differing only in
/// case are one; the spelling shown is the first in sort order.
pub async fn tag_counts(c: &mut SqliteConnection, project_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT MIN(t.value) AS "tag!: String", COUNT(*) AS "photos!: i64"
           FROM project_images i, json_each(i.tags) t
           WHERE i.project_id = $1 GROUP BY lower(t.value)"#,
        project_id
    )
    .fetch_all(&mut *c)
    .await?
    .into_iter()
    .map(|r| (r.tag, r.photos))
    .collect())
}

/// How many photos have a location kept.
pub async fn count_with_location(c: &mut SqliteConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!: i64" FROM project_images WHERE latitude IS NOT NULL"#)
        .fetch_one(&mut *c)
        .await?)
}

/// Forgets every photo's location; answers how many had one.
pub async fn forget_locations(c: &mut SqliteConnection) -> Result<u64> {
    let done = sqlx::query!("UPDATE project_images SET latitude = NULL, longitude = NULL WHERE latitude IS NOT NULL")
        .execute(&mut *c)
        .await?;
    Ok(done.rows_affected())
}
