//! A project's photos as its people browse and edit them: the list with their
//! favourites, captions, categories and milestone tags, deletion, and favourites.

use std::collections::HashSet;

use protocol::{ErrorCode, ProjectImage, UpdatePhoto, FIRST_PHOTO_PAGE, PHOTO_PAGE, PHOTO_PAGE_BYTES};

use super::access::{image_not_found, photo_for, NOT_ALLOWED_DELETE, NOT_ALLOWED_EDIT};
use super::cover::{cover_change, refresh_cover};
use crate::domain::shared::changes::Change;
use crate::domain::projects::milestones;
use crate::domain::shared::policy::{Action, Actor};
use crate::domain::projects::visible;
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::CAPTION;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::{activity, images, now_ms};

pub const INVALID_PHOTO_CURSOR: &str = "Invalid photo cursor.";

/// A page of a project's photos, newest first (docs/FEATURES.md, "Big projects").
#[derive(Debug)]
pub struct PhotoPage {
    pub photos: Vec<ProjectImage>,
    /// The actor's favourites among `photos`.
    pub favourites: Vec<String>,
    /// Where the next page starts; `None` after the oldest photo.
    pub next: Option<String>,
}

/// A page of the photos of a project the actor may see: at most `limit` (and
/// `PHOTO_PAGE`) after the cursor `after`; else those shown before `before`; else the
/// first page.
pub async fn page(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    after: Option<&str>,
    before: Option<i64>,
    limit: Option<u32>,
) -> Result<PhotoPage> {
    let project = visible(svc, actor, project_id).await?;
    let start = start_of(after, before)?;
    page_of(svc, actor, &project, start, limit.unwrap_or(PHOTO_PAGE)).await
}

/// As `page`, for a project already checked with `projects::visible`. A page ends
/// early rather than weigh more than `PHOTO_PAGE_BYTES` on the wire (long captions and
/// notes make heavy photos), and always holds at least one photo, so paging ends.
async fn page_of(svc: &Services, actor: &Actor, project: &ProjectRow, after: Option<(i64, i64, String)>, limit: u32) -> Result<PhotoPage> {
    let limit = limit.clamp(1, PHOTO_PAGE) as usize;
    let pool = svc.store.pool();
    let after = after.as_ref().map(|(shown, created, id)| (*shown, *created, id.as_str()));
    let rows = images::page_for_project(pool, &project.id, after, limit as i64 + 1).await?;
    let mut photos = Vec::with_capacity(rows.len().min(limit));
    let mut bytes = 0;
    for row in rows.iter().take(limit) {
        let photo = views::image(row);
        bytes += protocol::encode(&photo).map_or(0, |b| b.len());
        if !photos.is_empty() && bytes > PHOTO_PAGE_BYTES {
            break;
        }
        photos.push(photo);
    }
    // More rows than the page holds: the next page starts after its last photo.
    let next = rows.get(photos.len()).and_then(|_| photos.len().checked_sub(1)).map(|last| cursor_of(&rows[last]));
    let favourites = if photos.is_empty() {
        Vec::new()
    } else {
        let on_page: HashSet<&str> = photos.iter().map(|p| p.id.as_str()).collect();
        images::favourite_ids(pool, &actor.id, &project.id).await?.into_iter().filter(|id| on_page.contains(id.as_str())).collect()
    };
    Ok(PhotoPage { photos, favourites, next })
}

/// A page of the photos of `project` that `sees` lets through, each as `view` makes it,
/// from `start` (a cursor or a time, as `page` takes them): the rows are read a page
/// at a time until the page is full, within `PHOTO_PAGE_BYTES`. For viewers who see a
/// part of a project (guests).
pub async fn page_seen(
    svc: &Services,
    project: &ProjectRow,
    start: Option<(i64, i64, String)>,
    limit: u32,
    sees: impl Fn(&ImageRow) -> bool,
    view: impl Fn(&ImageRow) -> ProjectImage,
) -> Result<(Vec<ProjectImage>, Option<String>)> {
    let limit = limit.clamp(1, PHOTO_PAGE) as usize;
    let pool = svc.store.pool();
    let mut key = start;
    let (mut photos, mut bytes) = (Vec::with_capacity(limit), 0);
    loop {
        let after = key.as_ref().map(|(shown, created, id)| (*shown, *created, id.as_str()));
        let rows = images::page_for_project(pool, &project.id, after, PHOTO_PAGE as i64).await?;
        let exhausted = rows.len() < PHOTO_PAGE as usize;
        for row in &rows {
            key = Some(key_of(row));
            if !sees(row) {
                continue;
            }
            let photo = view(row);
            bytes += protocol::encode(&photo).map_or(0, |b| b.len());
            if !photos.is_empty() && (photos.len() == limit || bytes > PHOTO_PAGE_BYTES) {
                // The page is full: the next one starts at this row, not after it.
                return Ok((photos, Some(cursor_before(row))));
            }
            photos.push(photo);
        }
        if exhausted {
            return Ok((photos, None));
        }
    }
}

/// The count of a project's photos.
pub async fn photo_count(svc: &Services, project: &ProjectRow) -> Result<u32> {
    Ok(u32::try_from(images::count_for_project(svc.store.pool(), &project.id).await?).unwrap_or(u32::MAX))
}

/// Where a cursor is parsed from what a client sent: `after` (a page's `next`), else a
/// time `before`, else the start.
pub fn start_of(after: Option<&str>, before: Option<i64>) -> Result<Option<(i64, i64, String)>> {
    Ok(match (after, before) {
        (Some(after), _) => Some(parse_cursor(after)?),
        // Ahead of every photo shown at `before` itself: no upload time is below 0.
        (None, Some(before)) => Some((before.clamp(0, sitecast_store_core::PAST_EVERY_PHOTO), 0, uuid::Uuid::nil().to_string())),
        (None, None) => None,
    })
}

fn key_of(row: &ImageRow) -> (i64, i64, String) {
    (row.taken_at.unwrap_or(row.created_at), row.created_at, row.id.clone())
}

/// A cursor whose next page starts at `row` itself: just ahead of it in the order.
fn cursor_before(row: &ImageRow) -> String {
    let (shown, created, _) = key_of(row);
    // The nil id sorts before every id of the same times, so `row` comes after it.
    cursor(shown, created, &uuid::Uuid::nil().to_string())
}

/// What opening a project shows of its photos: the first page (`FIRST_PHOTO_PAGE`)
/// and how many there are, for a project already checked with `projects::visible`.
pub async fn first_page(svc: &Services, actor: &Actor, project: &ProjectRow) -> Result<(PhotoPage, u32)> {
    let page = page_of(svc, actor, project, None, FIRST_PHOTO_PAGE).await?;
    let count = if page.next.is_none() { page.photos.len() as i64 } else { images::count_for_project(svc.store.pool(), &project.id).await? };
    Ok((page, u32::try_from(count).unwrap_or(u32::MAX)))
}

/// `<shown>.<uploaded>.<id>`: the gallery's sort key of the last photo of a page.
fn cursor_of(row: &ImageRow) -> String {
    cursor(row.taken_at.unwrap_or(row.created_at), row.created_at, &row.id)
}

fn cursor(shown: i64, created: i64, id: &str) -> String {
    format!("{shown}.{created}.{id}")
}

/// A cursor `cursor_of` made; anything else is refused.
fn parse_cursor(raw: &str) -> Result<(i64, i64, String)> {
    let bad = || Error::new(ErrorCode::BadRequest, INVALID_PHOTO_CURSOR);
    let mut parts = raw.splitn(3, '.');
    let (Some(shown), Some(created), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let (shown, created): (i64, i64) = (shown.parse().map_err(|_| bad())?, created.parse().map_err(|_| bad())?);
    let id_ok = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if shown < 0 || created < 0 || !id_ok {
        return Err(bad());
    }
    Ok((shown, created, id.to_owned()))
}

pub async fn update(svc: &Services, actor: &Actor, input: &UpdatePhoto) -> Result<(ProjectImage, Vec<Change>)> {
    let (image, _) =
        photo_for(svc, actor, &input.id, Action::EditPhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_EDIT)).await?;
    if let Some(caption) = &input.caption {
        CAPTION.check("caption", caption)?;
    }
    let caption = match &input.caption {
        Some(c) if c.trim().is_empty() => None,
        Some(c) => Some(c.trim().to_owned()),
        None => image.caption.clone(),
    };
    let category = input.category.unwrap_or(image.category);
    let milestone_id = match input.milestone_id.as_deref() {
        None => image.milestone_id.clone(),
        tag => milestones::tag_for(svc.store.pool(), &image.project_id, tag).await?,
    };
    if caption == image.caption && category == image.category && milestone_id == image.milestone_id {
        return Ok((views::image(&image), Vec::new()));
    }
    let mut tx = svc.store.begin_write().await?;
    let meta = images::Meta { caption: caption.as_deref(), category, milestone_id: milestone_id.as_deref() };
    if !images::update_meta(&mut *tx, &image.id, &meta, now_ms()).await? {
        return Err(image_not_found());
    }
    let row = images::find(&mut *tx, &image.id).await?.ok_or_else(image_not_found)?;
    tx.commit().await?;
    let photo = views::image(&row);
    let change =
        Change::Photo { id: row.id.clone(), project_id: row.project_id.clone(), created: false, state: Some(Box::new(photo.clone())) };
    Ok((photo, vec![change]))
}

pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let (image, project) =
        photo_for(svc, actor, id, Action::DeletePhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DELETE)).await?;
    let mut tx = svc.store.begin_write().await?;
    // The photo's comments go with it, and so do their timeline entries.
    let entries = activity::delete_for_comments_of_image(&mut *tx, &image.id).await?;
    if !images::delete(&mut *tx, &image.id).await? {
        return Err(image_not_found());
    }
    let cover = refresh_cover(&mut tx, &project.id, now_ms()).await?;
    tx.commit().await?;
    svc.delete_photo_files(&[(image.storage_key.clone(), image.content_type.clone())]).await;
    let mut changes = vec![Change::PhotoDeleted { id: image.id.clone(), project_id: project.id.clone() }];
    changes.extend(entries.into_iter().map(|id| Change::TimelineRemoved { id, project_id: project.id.clone() }));
    if let Some(project) = cover {
        changes.push(cover_change(&project, actor));
    }
    Ok(changes)
}

/// Idempotent both ways (SPEC.md §4: adding an existing favourite succeeds). The
/// user's sockets hear of it only when something changed.
pub async fn set_favourite(svc: &Services, actor: &Actor, image_id: &str, favourite: bool) -> Result<Vec<Change>> {
    let (image, project) = photo_for(svc, actor, image_id, Action::FavouritePhoto, image_not_found).await?;
    let pool = svc.store.pool();
    let changed = if favourite {
        images::add_favourite(pool, &actor.id, &image, now_ms()).await?
    } else {
        images::remove_favourite(pool, &actor.id, &image.id).await?
    };
    Ok(if changed {
        vec![Change::Favourite { user_id: actor.id.clone(), project_id: project.id, image_id: image.id, favourite }]
    } else {
        Vec::new()
    })
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_anything_else_is_refused() {
        let id = "0190a0b4-7d2e-7abc-8def-0123456789ab";
        assert_eq!(parse_cursor(&cursor(1_700_000_000_123, 1_700_000_000_500, id)).unwrap(), (1_700_000_000_123, 1_700_000_000_500, id.to_owned()));
        for bad in ["", "1.2", "x.2.id", "1.y.id", "-1.2.id", "1.2.", "1.2.a'b", "1.2.a b"] {
            let err = parse_cursor(bad).unwrap_err();
            assert_eq!(err.api.message, INVALID_PHOTO_CURSOR, "{bad:?}");
        }
    }
}
