//! One photo arriving: the limits a file must meet and the reasons it is refused,
//! its renditions (made by `media`), its stored files and its row, recorded in its
//! turn among the project's mutations. Files are written before the row, so a failure
//! in between leaves files without a row (`sweep`), never a row without its files.

use bytes::Bytes;
use protocol::{ImageCategory, ProjectImage};

use super::cover::{cover_change, refresh_cover};
use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::Actor;
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::{Step, Turns};
use crate::domain::shared::validation::FILE_NAME;
use crate::domain::shared::views;
use crate::error::Result;
use crate::media::renditions::{RenditionError, MAX_PIXELS};
use crate::media::{extension_for, photo_keys, photo_prefix, PhotoKeys};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::{images, now_ms};

/// Per file: a 12-megapixel phone JPEG is 3–8 MB, a 48-megapixel one up to ~25 MB.
pub const MAX_FILE_BYTES: usize = 30 * 1024 * 1024;
pub use crate::domain::shared::validation::MAX_FILES;
pub const STORAGE_FAILED: &str = "Failed to upload file to storage";
pub const RECORD_FAILED: &str = "Failed to create image record";

pub const REASON_NOT_IMAGE: &str = "Not an image (JPEG, PNG, GIF, WebP or HEIC)";
pub const REASON_UNREADABLE: &str = "Could not be read as an image";
pub const REASON_TRUNCATED: &str = "Incomplete: the file ends before the picture does (copy it again from the camera or phone)";

pub fn reason_damaged(format: &str) -> String {
    format!("Damaged: named like an image but not a valid {format} file")
}

pub fn reason_too_much_memory(bytes: u64) -> String {
    format!(
        "Too large to process: it would need {} MB of memory, more than the {} MB allowed",
        bytes.div_ceil(1024 * 1024),
        crate::media::budget::DECODE_BUDGET_BYTES / (1024 * 1024)
    )
}

pub fn reason_too_big() -> String {
    format!("Larger than the {} MB limit", MAX_FILE_BYTES / (1024 * 1024))
}

pub fn reason_too_many_pixels() -> String {
    format!("Larger than the {} megapixel limit", MAX_PIXELS / 1_000_000)
}

pub fn reason_over_count() -> String {
    format!("Over the limit of {MAX_FILES} photos per upload")
}

/// The name a file is stored and downloaded under: the last path segment, without
/// control characters, cut to `FILE_NAME`'s length.
pub fn file_name(raw: &str) -> String {
    let last = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean = FILE_NAME.clean(last);
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        "photo".to_owned()
    } else {
        clean.to_owned()
    }
}

/// SPEC.md §3: the caption defaults to the file name without its extension.
pub fn default_caption(name: &str) -> Option<String> {
    let stem = match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    };
    let stem = stem.trim();
    (!stem.is_empty()).then(|| stem.to_owned())
}

/// One file of an upload, as it arrived whole.
pub struct IncomingFile {
    pub name: String,
    pub content: Bytes,
    /// Chosen before publishing; the file name without its extension otherwise.
    pub caption: Option<String>,
    /// Chosen before publishing; "Other" otherwise.
    pub category: Option<ImageCategory>,
    /// The note of the site visit the file belongs to, if its batch has one.
    pub visit_note: Option<String>,
    /// The site visit (upload batch) it belongs to.
    pub batch_id: Option<String>,
    /// The milestone to tag it with, checked against the project (`milestones::tag_for`).
    pub milestone_id: Option<String>,
    /// Its tags (the batch's), checked when the upload was made.
    pub tags: Vec<String>,
}

/// A file that was not stored, and why.
#[derive(Debug)]
pub struct NotStored {
    pub name: String,
    pub reason: String,
    /// Our failure (storage or the database), not the file's: the file was fine, and
    /// storing it again may work.
    pub failed: bool,
}

/// Renders and stores one file that arrived whole (a finished resumable upload), then
/// records it in its turn among the project's mutations (`turns`), which publishes it
/// at once, so watchers see photos appear one by one. A file that is not an acceptable
/// photo, or that we could not keep, comes back as `NotStored`; nothing of it is left
/// behind.
pub async fn store_file(
    svc: &Services,
    actor: &Actor,
    project: &ProjectRow,
    file: IncomingFile,
    turns: &impl Turns,
) -> std::result::Result<ProjectImage, NotStored> {
    let skip = |reason: &str| NotStored { name: file.name.clone(), reason: reason.to_owned(), failed: false };
    let fail = |reason: &str| NotStored { name: file.name.clone(), reason: reason.to_owned(), failed: true };
    let bytes = file.content;
    let byte_size = bytes.len() as i64;
    let rendered = svc.images.render(bytes.clone()).await.map_err(|err| match err {
        RenditionError::NotAnImage => skip(REASON_NOT_IMAGE),
        RenditionError::TooManyPixels(_) => skip(&reason_too_many_pixels()),
        RenditionError::Truncated => skip(REASON_TRUNCATED),
        RenditionError::Damaged(format) => skip(&reason_damaged(format)),
        RenditionError::TooMuchMemory(bytes) => skip(&reason_too_much_memory(bytes)),
        RenditionError::Decode(e) => {
            tracing::info!(file = %file.name, error = %e, "refused an unreadable image");
            skip(REASON_UNREADABLE)
        }
        RenditionError::Encode(e) => {
            tracing::error!(file = %file.name, error = %e, "could not encode a rendition");
            fail(STORAGE_FAILED)
        }
    })?;
    // Time-ordered ids: the orphan sweep can tell how old a photo's files are.
    let id = uuid::Uuid::now_v7().to_string();
    let prefix = photo_prefix(&project.id, &id);
    let keys = photo_keys(&prefix, extension_for(rendered.content_type));
    let objects = [
        (&keys.original, bytes, rendered.content_type),
        (&keys.display, Bytes::from(rendered.display), "image/jpeg"),
        (&keys.thumb, Bytes::from(rendered.thumb), "image/jpeg"),
    ];
    for (key, bytes, content_type) in objects {
        if let Err(err) = svc.photos.put(key, bytes, content_type).await {
            tracing::error!(%key, error = %err, "storing a photo file failed");
            remove_files(svc, &keys).await;
            return Err(fail(STORAGE_FAILED));
        }
    }
    let now = now_ms();
    let row = ImageRow {
        id,
        project_id: project.id.clone(),
        uploaded_by: Some(actor.id.clone()),
        category: file.category.unwrap_or(ImageCategory::Other),
        caption: file.caption.clone().or_else(|| default_caption(&file.name)),
        original_name: file.name.clone(),
        content_type: rendered.content_type.to_owned(),
        byte_size,
        width: rendered.width as i32,
        height: rendered.height as i32,
        taken_at: rendered.taken_at,
        storage_key: prefix,
        created_at: now,
        updated_at: now,
        version: 1,
        comment_count: 0,
        visit_note: file.visit_note.clone(),
        batch_id: file.batch_id.clone(),
        milestone_id: file.milestone_id.clone(),
        markup_count: 0,
        tags: file.tags.clone(),
        location: rendered.location,
        uploader: None,
    };
    let step: Step<ProjectImage> = {
        let (svc, actor) = (svc.clone(), actor.clone());
        Box::pin(async move { record(&svc, &actor, row).await })
    };
    match turns.take(&project.id, step).await {
        Ok(photo) => Ok(photo),
        Err(err) => {
            // The project may have been deleted meanwhile; either way, no row: no files.
            tracing::error!(project = %project.id, error = %err, "recording a photo failed");
            remove_files(svc, &keys).await;
            Err(fail(RECORD_FAILED))
        }
    }
}

/// Records a stored photo: its row, and the project's cover when it is the newest.
async fn record(svc: &Services, actor: &Actor, row: ImageRow) -> Result<(ProjectImage, Vec<Change>)> {
    let mut tx = svc.store.begin_write().await?;
    // Read in the transaction (Postgres: locked for share), so a photo stored while an
    // admin switches locations off cannot keep one.
    let row = match crate::store::settings::get(&mut *tx).await?.store_photo_locations {
        true => row,
        false => ImageRow { location: None, ..row },
    };
    images::insert(&mut *tx, &row).await?;
    let cover = refresh_cover(&mut tx, &row.project_id, row.created_at).await?;
    // Who uploaded it, with their company: the live event shows it.
    let uploader = crate::store::users::find_by_id(&mut *tx, &actor.id).await?.map(|u| u.person());
    tx.commit().await?;
    let row = ImageRow { uploader, ..row };
    let photo = views::image(&row);
    let mut changes = vec![Change::Photo {
        id: row.id.clone(),
        project_id: row.project_id.clone(),
        created: true,
        state: Some(Box::new(photo.clone())),
    }];
    if let Some(project) = cover {
        changes.push(cover_change(&project, actor));
    }
    Ok((photo, changes))
}

async fn remove_files(svc: &Services, keys: &PhotoKeys) {
    for key in [&keys.original, &keys.display, &keys.thumb] {
        if let Err(err) = svc.photos.delete(key).await {
            tracing::warn!(%key, error = %err, "could not remove a photo file; the sweep will");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_last_segments_without_controls() {
        assert_eq!(file_name("IMG_0001.JPG"), "IMG_0001.JPG");
        assert_eq!(file_name("C:\\Users\\me\\site visit\\kitchen.png"), "kitchen.png");
        assert_eq!(file_name("../../etc/passwd"), "passwd");
        assert_eq!(file_name("a\u{0}b\nc.jpg"), "abc.jpg");
        assert_eq!(file_name(""), "photo");
        assert_eq!(file_name(".."), "photo");
        assert_eq!(file_name(&"x".repeat(300)).chars().count(), 200);
    }

    #[test]
    fn caption_is_the_name_without_extension() {
        assert_eq!(default_caption("Kitchen framing.jpg").as_deref(), Some("Kitchen framing"));
        assert_eq!(default_caption("roof.final.webp").as_deref(), Some("roof.final"));
        assert_eq!(default_caption("noext").as_deref(), Some("noext"));
        assert_eq!(default_caption(".hidden").as_deref(), Some(".hidden"));
        assert_eq!(default_caption(" .jpg"), None);
    }
}
