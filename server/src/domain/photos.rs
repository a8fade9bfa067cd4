//! Photos of a project: storing an upload batch, listing, editing, deleting,
//! favourites, downloads, and the sweep that removes files no row refers to
//! (SPEC.md §2 media, §4 thumbnail rule, §6 roles, §8 messages).
//!
//! Crash consistency: a photo's files are written before its row, and its row is
//! deleted before its files. So a row always has its files; a crash or failure in
//! between can only leave files without a row, which `sweep_orphans` removes.

use std::collections::HashSet;
use std::time::Duration;

use bytes::Bytes;
use protocol::{ErrorCode, ImageCategory, NotificationKind, ProjectImage, SkippedFile, TimelineDetail, UpdatePhoto, UploadResult};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::changes::Change;
use super::mail_preferences::{self, MailKind};
use super::milestones;
use super::notifications::{self, Notice};
use super::policy::{self, Action, Actor, Target};
use super::projects::{project_ref, visible};
use super::services::Services;
use super::timeline::{self, Who};
use super::turns::{Step, Turns};
use super::validation::{CAPTION, FILE_NAME};
use super::views;
use crate::error::{Error, Result};
use crate::mail::templates;
use crate::media::renditions::{RenditionError, MAX_PIXELS};
use crate::media::{extension_for, photo_keys, photo_prefix, PhotoKeys};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::{activity, images, now_ms, projects, users, StoreError, Tx};

/// Per file: a 12-megapixel phone JPEG is 3–8 MB, a 48-megapixel one up to ~25 MB.
pub const MAX_FILE_BYTES: usize = 30 * 1024 * 1024;
/// Per upload request: a site visit's photos in one go.
pub const MAX_FILES: usize = 50;
/// Photos rendered at once for one upload; with the image pool's per-core bound this
/// keeps at most a few originals in memory per request.
const PARALLEL_PER_UPLOAD: usize = 2;

pub const NOT_IMAGES: &str = "Some files were skipped because they are not images";
pub const IMAGE_NOT_FOUND: &str = "Image not found";
pub const STORAGE_FAILED: &str = "Failed to upload file to storage";
pub const RECORD_FAILED: &str = "Failed to create image record";
pub const NOT_ALLOWED_UPLOAD: &str = "You don't have permission to upload photos to this project.";
pub const NOT_ALLOWED_EDIT: &str = "You don't have permission to edit this photo.";
pub const NOT_ALLOWED_DELETE: &str = "Only administrators can delete photos.";
pub const NO_PHOTOS_TO_DOWNLOAD: &str = "There are no photos to download.";

pub const REASON_NOT_IMAGE: &str = "Not an image (JPEG, PNG, GIF or WebP)";
pub const REASON_UNREADABLE: &str = "Could not be read as an image";
pub const REASON_HEIC: &str =
    "iPhone HEIC photo: not supported yet. Send it as JPEG (iPhone: Settings › Camera › Formats › Most Compatible)";
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
    let clean: String = last.chars().filter(|c| !c.is_control()).take(FILE_NAME.max).collect();
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

fn image_not_found() -> Error {
    Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND)
}

/// A photo and its project, when the actor can see the project. A photo of a project
/// the actor cannot see is answered exactly like a photo that does not exist.
pub(crate) async fn visible_photo(svc: &Services, actor: &Actor, id: &str) -> Result<(ImageRow, ProjectRow)> {
    let pool = svc.store.pool();
    let image = images::find(pool, id).await?.ok_or_else(image_not_found)?;
    let project = projects::find(pool, &image.project_id).await?.ok_or_else(image_not_found)?;
    if !policy::can_view_project(actor, project_ref(&project)) {
        return Err(image_not_found());
    }
    Ok((image, project))
}

/// A photo and its project, when the actor may do `action` to it; one they see but
/// may not act on gets `denied`.
async fn photo_for(
    svc: &Services,
    actor: &Actor,
    id: &str,
    action: Action,
    denied: fn() -> Error,
) -> Result<(ImageRow, ProjectRow)> {
    let (image, project) = visible_photo(svc, actor, id).await?;
    if !policy::allows(actor, action, Target::Project(project_ref(&project))) {
        return Err(denied());
    }
    Ok((image, project))
}

/// The project of a photo the actor can see: where a change to the photo takes its
/// turn. Unknown and unseen photos are answered alike, and start no project's turns.
pub async fn project_of(svc: &Services, actor: &Actor, id: &str) -> Result<String> {
    Ok(visible_photo(svc, actor, id).await?.1.id)
}

/// The project an upload goes to, when the actor may upload there.
pub async fn upload_target(svc: &Services, actor: &Actor, project_id: &str) -> Result<ProjectRow> {
    let project = visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::UploadPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_UPLOAD));
    }
    Ok(project)
}

/// One file of an upload, as it arrived.
pub struct IncomingFile {
    /// Position in the request; results are reported in this order.
    pub index: usize,
    pub name: String,
    pub content: Incoming,
    /// Chosen before publishing; the file name without its extension otherwise.
    pub caption: Option<String>,
    /// Chosen before publishing; "Other" otherwise.
    pub category: Option<ImageCategory>,
    /// The note of the site visit the file belongs to, if its batch has one.
    pub visit_note: Option<String>,
    /// The site visit (upload batch) it belongs to; `store_batch` sets its own.
    pub batch_id: Option<String>,
    /// The milestone to tag it with, checked against the project (`milestones::tag_for`).
    pub milestone_id: Option<String>,
}

pub enum Incoming {
    Bytes(Bytes),
    /// Refused while it streamed in (too large, over the count), with the reason.
    Refused(String),
}

/// What became of one file.
enum Outcome {
    /// Boxed: a photo is several times the size of the other outcomes.
    Stored(Box<ProjectImage>),
    Skipped(SkippedFile),
    /// Storage or database failure: the file was fine, we could not keep it.
    Failed(SkippedFile),
}

/// Stores a batch of uploaded files as they arrive on `files`, a few at a time. Each
/// photo is recorded in its turn among the project's mutations (`turns`), which
/// publishes it at once, so watchers see photos appear one by one. When `files`
/// closes (the request ended, or its client went away) the batch finishes what it
/// has and sends the homeowner one "N new photos" mail.
pub async fn store_batch(
    svc: Services,
    actor: Actor,
    project: ProjectRow,
    mut files: mpsc::Receiver<IncomingFile>,
    turns: impl Turns,
) -> (UploadResult, bool) {
    let mut running: JoinSet<(usize, Outcome)> = JoinSet::new();
    let mut done: Vec<(usize, Outcome)> = Vec::new();
    // One request's files are one site visit (issue 18's "group by site visit").
    let batch_id = uuid::Uuid::now_v7().to_string();
    while let Some(mut file) = files.recv().await {
        file.batch_id = Some(batch_id.clone());
        while running.len() >= PARALLEL_PER_UPLOAD {
            if let Some(Ok(result)) = running.join_next().await {
                done.push(result);
            }
        }
        let (svc, actor, project, turns) = (svc.clone(), actor.clone(), project.clone(), turns.clone());
        running.spawn(async move {
            let index = file.index;
            let outcome = match store_one(&svc, &actor, &project, file, &turns).await {
                Ok(photo) => Outcome::Stored(Box::new(photo)),
                Err(not_stored) => not_stored,
            };
            (index, outcome)
        });
    }
    while let Some(joined) = running.join_next().await {
        match joined {
            Ok(result) => done.push(result),
            Err(err) => tracing::error!(error = %err, "a photo task failed"),
        }
    }
    done.sort_by_key(|(i, _)| *i);
    let (mut photos, mut skipped, mut failed) = (Vec::new(), Vec::new(), false);
    for (_, outcome) in done {
        match outcome {
            Outcome::Stored(photo) => photos.push(*photo),
            Outcome::Skipped(skip) => skipped.push(skip),
            Outcome::Failed(skip) => {
                failed = true;
                skipped.push(skip);
            }
        }
    }
    if !photos.is_empty() {
        announce_in_turn(&svc, &actor.id, &project, Some(&batch_id), photos.len(), None, &turns).await;
    }
    (UploadResult { photos, skipped, message: None }, failed)
}

/// Stores one file that arrived whole (a finished resumable upload): the photo, or the
/// file with why it was not stored and whether that was our failure (the file was fine).
pub async fn store_file(
    svc: &Services,
    actor: &Actor,
    project: &ProjectRow,
    file: IncomingFile,
    turns: &impl Turns,
) -> std::result::Result<ProjectImage, (SkippedFile, bool)> {
    store_one(svc, actor, project, file, turns).await.map_err(|outcome| match outcome {
        Outcome::Skipped(skip) => (skip, false),
        Outcome::Failed(skip) => (skip, true),
        Outcome::Stored(photo) => (SkippedFile { name: photo.original_name, reason: String::new() }, true),
    })
}

/// The toast-sized summary of a finished upload (SPEC.md §8 for non-images).
pub fn summarise(result: &mut UploadResult) {
    result.message = if result.skipped.iter().any(|s| s.reason == REASON_NOT_IMAGE) {
        Some(NOT_IMAGES.to_owned())
    } else {
        result.skipped.first().map(|s| format!("{}: {}", s.name, s.reason))
    };
}

/// Renders and stores one file, then records it in its turn. Files that are not
/// acceptable photos come back as `Err(Outcome::Skipped)`, storage failures as
/// `Err(Outcome::Failed)`; nothing of either is left behind.
async fn store_one(
    svc: &Services,
    actor: &Actor,
    project: &ProjectRow,
    file: IncomingFile,
    turns: &impl Turns,
) -> std::result::Result<ProjectImage, Outcome> {
    let skip = |reason: &str| Outcome::Skipped(SkippedFile { name: file.name.clone(), reason: reason.to_owned() });
    let fail = |reason: &str| Outcome::Failed(SkippedFile { name: file.name.clone(), reason: reason.to_owned() });
    let bytes = match file.content {
        Incoming::Bytes(bytes) => bytes,
        Incoming::Refused(reason) => return Err(skip(&reason)),
    };
    let byte_size = bytes.len() as i64;
    let rendered = svc.images.render(bytes.clone()).await.map_err(|err| match err {
        RenditionError::NotAnImage => skip(REASON_NOT_IMAGE),
        RenditionError::TooManyPixels(_) => skip(&reason_too_many_pixels()),
        RenditionError::Truncated => skip(REASON_TRUNCATED),
        RenditionError::Heic => skip(REASON_HEIC),
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
        category: file.category.unwrap_or(ImageCategory::Other).as_str().to_owned(),
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
    };
    let step: Step<ProjectImage> = {
        let (svc, actor) = (svc.clone(), actor.clone());
        Box::pin(async move { record(&svc, &actor, row).await })
    };
    match turns.take(step).await {
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
    images::insert(&mut *tx, &row).await?;
    let cover = refresh_cover(&mut tx, &row.project_id, row.created_at).await?;
    tx.commit().await.map_err(StoreError::from)?;
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

/// Points the project's cover at its newest photo; when that changed it (and so the
/// project's version), answers the project as this transaction left it. The event
/// carries that state: a read at publish time could already include a later change
/// and announce its version a second time.
async fn refresh_cover(tx: &mut Tx, project_id: &str, now: i64) -> std::result::Result<Option<ProjectRow>, StoreError> {
    if !projects::refresh_thumbnail(&mut **tx, project_id, now).await? {
        return Ok(None);
    }
    projects::find(&mut **tx, project_id).await
}

fn cover_change(project: &ProjectRow, actor: &Actor) -> Change {
    Change::Project {
        id: project.id.clone(),
        created: false,
        actor_id: Some(actor.id.clone()),
        previous: None,
        state: Some(Box::new(views::project(project))),
    }
}

async fn remove_files(svc: &Services, keys: &PhotoKeys) {
    for key in [&keys.original, &keys.display, &keys.thumb] {
        if let Err(err) = svc.photos.delete(key).await {
            tracing::warn!(%key, error = %err, "could not remove a photo file; the sweep will");
        }
    }
}

/// One batch of new photos in a project (a multipart request, or a resumable site
/// visit with its note) announced in the project's turn, after the photos it
/// announces; a failure is logged, the photos stay.
pub(crate) async fn announce_in_turn(
    svc: &Services,
    uploader_id: &str,
    project: &ProjectRow,
    batch_id: Option<&str>,
    count: usize,
    note: Option<&str>,
    turns: &impl Turns,
) {
    let step: Step<()> = {
        let (svc, uploader_id, project) = (svc.clone(), uploader_id.to_owned(), project.clone());
        let (batch_id, note) = (batch_id.map(str::to_owned), note.map(str::to_owned));
        Box::pin(async move {
            let changes = announce_new_photos(&svc, &uploader_id, &project, batch_id.as_deref(), count, note.as_deref()).await?;
            Ok(((), changes))
        })
    };
    if let Err(err) = turns.take(step).await {
        err.log("announcing new photos");
    }
}

/// One batch of new photos announced once: the homeowner's "N new photos" mail (with
/// the site visit's note), one notification to each of the project's homeowner and
/// builder but the uploader, and (issue 18) the site visit's timeline entry with a
/// strip of its photos. Call it once per batch; publish the changes it returns.
pub async fn announce_new_photos(
    svc: &Services,
    uploader_id: &str,
    project: &ProjectRow,
    batch_id: Option<&str>,
    count: usize,
    note: Option<&str>,
) -> Result<Vec<Change>> {
    if let Err(err) = mail_new_photos(svc, project, count, note).await {
        err.log("queueing the new-photos mail");
    }
    let pool = svc.store.pool();
    let uploader = users::find_by_id(pool, uploader_id).await?;
    let actor_name = uploader.as_ref().and_then(|u| views::summary(u).name);
    let notices: Vec<Notice> = notifications::owners_except(project_ref(project), uploader_id)
        .into_iter()
        .map(|user_id| Notice {
            user_id,
            kind: NotificationKind::NewPhotos,
            project_id: project.id.clone(),
            image_id: None,
            actor_name: actor_name.clone(),
            title: notifications::new_photos_title(count, &project.title),
            body: actor_name.as_ref().map(|n| format!("Added by {n}")).unwrap_or_default(),
        })
        .collect();
    let mut tx = svc.store.begin_write().await?;
    let mut changes = notifications::record(&mut tx, notices).await?;
    if let Some(batch_id) = batch_id {
        let who = match &uploader {
            Some(u) => Who::of(&Actor::of(u), Some(u)),
            None => Who { id: None, name: None, role: None },
        };
        // The visit's photos as they are now, in the order they were stored: the strip
        // shows the first of them that still exist whenever it is read.
        let photos = images::of_batch(&mut *tx, batch_id, timeline::REMEMBERED as i64).await?;
        let photos = photos.iter().map(|id| timeline::photo(id)).collect();
        let count = i32::try_from(count).unwrap_or(i32::MAX);
        let detail = TimelineDetail::PhotosAdded { count, photos, note: note.map(str::to_owned) };
        changes.push(timeline::record(&mut tx, &project.id, &who, detail, Some(batch_id), now_ms()).await?);
    }
    tx.commit().await.map_err(StoreError::from)?;
    Ok(changes)
}

async fn mail_new_photos(svc: &Services, project: &ProjectRow, count: usize, note: Option<&str>) -> Result<()> {
    let Some(homeowner) = users::find_by_id(svc.store.pool(), &project.homeowner_id).await? else {
        return Ok(());
    };
    let name = views::display_name(
        homeowner.first_name.as_deref(),
        homeowner.last_name.as_deref(),
        homeowner.name.as_deref(),
        &homeowner.email,
    );
    // Issue 17: the homeowner may have turned these mails off.
    if !mail_preferences::wants(svc, &homeowner.id, MailKind::NewPhotos).await? {
        return Ok(());
    }
    let link = svc.auth.link(&format!("/projects/{}", project.id));
    let footer = mail_preferences::footer(svc, &homeowner.id, MailKind::NewPhotos).await?;
    let mail = templates::new_photos(&homeowner.email, &name, count, &project.title, &link, note, &footer);
    svc.auth.outbox.enqueue(svc.store.pool(), &mail).await?;
    svc.auth.outbox.wake();
    Ok(())
}

/// A project's photos, newest first, and the actor's favourites among them.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<(Vec<ProjectImage>, Vec<String>)> {
    list_of(svc, actor, &visible(svc, actor, project_id).await?).await
}

/// As `list`, for a project already checked with `projects::visible`.
pub async fn list_of(svc: &Services, actor: &Actor, project: &ProjectRow) -> Result<(Vec<ProjectImage>, Vec<String>)> {
    let pool = svc.store.pool();
    let photos = images::list_for_project(pool, &project.id).await?.iter().map(views::image).collect();
    let favourites = images::favourite_ids(pool, &actor.id, &project.id).await?;
    Ok((photos, favourites))
}

pub async fn update(svc: &Services, actor: &Actor, input: &UpdatePhoto) -> Result<(ProjectImage, Vec<Change>)> {
    let (image, _) =
        photo_for(svc, actor, &input.id, Action::EditPhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_EDIT)).await?;
    let caption = match &input.caption {
        Some(c) if !CAPTION.allows(c) => return Err(Error::field("caption", &CAPTION.message())),
        Some(c) if c.trim().is_empty() => None,
        Some(c) => Some(c.trim().to_owned()),
        None => image.caption.clone(),
    };
    let category = input.category.map(|c| c.as_str().to_owned()).unwrap_or_else(|| image.category.clone());
    let milestone_id = match input.milestone_id.as_deref() {
        None => image.milestone_id.clone(),
        tag => milestones::tag_for(svc.store.pool(), &image.project_id, tag).await?,
    };
    if caption == image.caption && category == image.category && milestone_id == image.milestone_id {
        return Ok((views::image(&image), Vec::new()));
    }
    let mut tx = svc.store.begin_write().await?;
    let meta = images::Meta { caption: caption.as_deref(), category: &category, milestone_id: milestone_id.as_deref() };
    if !images::update_meta(&mut *tx, &image.id, &meta, now_ms()).await? {
        return Err(image_not_found());
    }
    let row = images::find(&mut *tx, &image.id).await?.ok_or_else(image_not_found)?;
    tx.commit().await.map_err(StoreError::from)?;
    let photo = views::image(&row);
    let change =
        Change::Photo { id: row.id.clone(), project_id: row.project_id.clone(), created: false, state: Some(Box::new(photo.clone())) };
    Ok((photo, vec![change]))
}

pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let (image, project) =
        photo_for(svc, actor, id, Action::DeletePhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DELETE)).await?;
    let mut tx = svc.store.begin_write().await?;
    // The photo's comments go with it, and so do their timeline entries (issue 18).
    let entries = activity::delete_for_comments_of_image(&mut *tx, &image.id).await?;
    if !images::delete(&mut *tx, &image.id).await? {
        return Err(image_not_found());
    }
    let cover = refresh_cover(&mut tx, &project.id, now_ms()).await?;
    tx.commit().await.map_err(StoreError::from)?;
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

/// The photos a download covers: all of a project's, or the actor's favourites.
pub async fn downloadable(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    favourites_only: bool,
) -> Result<(ProjectRow, Vec<ImageRow>)> {
    let project = visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::DownloadPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, super::projects::NO_ACCESS));
    }
    let pool = svc.store.pool();
    let rows = if favourites_only {
        images::favourites_in_project(pool, &actor.id, &project.id).await?
    } else {
        images::list_for_project(pool, &project.id).await?
    };
    if rows.is_empty() {
        return Err(Error::new(ErrorCode::NotFound, NO_PHOTOS_TO_DOWNLOAD));
    }
    Ok((project, rows))
}

/// A photo the actor may fetch the bytes of (thumbnail, display or original).
pub async fn viewable(svc: &Services, actor: &Actor, id: &str) -> Result<ImageRow> {
    let (image, _) = photo_for(svc, actor, id, Action::DownloadPhoto, image_not_found).await?;
    Ok(image)
}

/// Names of the entries of a zip download: the original names, made unique.
pub fn zip_names(rows: &[ImageRow]) -> Vec<String> {
    let mut used = HashSet::new();
    rows.iter()
        .map(|r| {
            let name = file_name(&r.original_name);
            let (stem, ext) = match name.rfind('.') {
                Some(dot) if dot > 0 => (&name[..dot], &name[dot..]),
                _ => (name.as_str(), ""),
            };
            let mut candidate = name.clone();
            let mut n = 2;
            while !used.insert(candidate.to_lowercase()) {
                candidate = format!("{stem} ({n}){ext}");
                n += 1;
            }
            candidate
        })
        .collect()
}

/// Removes stored files that no photo row refers to: what a crash between writing a
/// photo's files and its row, or a failed file delete, leaves behind. Files younger
/// than `min_age` are left alone, because another instance may be between those two
/// steps right now. Returns how many photos' files were removed.
pub async fn sweep_orphans(svc: &Services, min_age: Duration) -> Result<usize> {
    let known: HashSet<String> = images::all_storage_keys(svc.store.pool()).await?.into_iter().collect();
    let keys = svc.photos.list("projects/").await?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut orphans: Vec<(String, Vec<String>)> = Vec::new();
    for key in keys {
        // projects/<project>/<image>/<file>
        let parts: Vec<&str> = key.split('/').collect();
        if parts.len() != 4 || parts[0] != "projects" {
            continue;
        }
        let prefix = parts[..3].join("/");
        if known.contains(&prefix) || !old_enough(parts[2], now, min_age) {
            continue;
        }
        match orphans.iter_mut().find(|(p, _)| *p == prefix) {
            Some((_, list)) => list.push(key),
            None => orphans.push((prefix, vec![key])),
        }
    }
    // Re-read: a photo recorded while we listed is not an orphan.
    let known: HashSet<String> = images::all_storage_keys(svc.store.pool()).await?.into_iter().collect();
    let mut removed = 0;
    for (prefix, keys) in orphans.into_iter().filter(|(p, _)| !known.contains(p)) {
        for key in keys {
            if let Err(err) = svc.photos.delete(&key).await {
                tracing::warn!(%key, error = %err, "could not remove an orphaned photo file");
            }
        }
        tracing::info!(%prefix, "removed the files of a photo with no row");
        removed += 1;
    }
    Ok(removed)
}

/// Photo ids are UUIDv7 (time-ordered) since uploads began; any other id is from an
/// older writer and is old by definition.
fn old_enough(image_id: &str, now: Duration, min_age: Duration) -> bool {
    match uuid::Uuid::parse_str(image_id).ok().and_then(|u| u.get_timestamp()) {
        Some(ts) => {
            let (secs, nanos) = ts.to_unix();
            let created = Duration::new(secs, nanos);
            now.saturating_sub(created) >= min_age
        }
        None => true,
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

    #[test]
    fn zip_entry_names_are_unique() {
        let row = |name: &str| ImageRow {
            id: String::new(),
            project_id: String::new(),
            uploaded_by: None,
            category: "other".into(),
            caption: None,
            original_name: name.into(),
            content_type: "image/jpeg".into(),
            byte_size: 0,
            width: 1,
            height: 1,
            taken_at: None,
            storage_key: String::new(),
            created_at: 0,
            updated_at: 0,
            version: 1,
            comment_count: 0,
            visit_note: None,
            batch_id: None,
            milestone_id: None,
        };
        let rows = [row("a.jpg"), row("A.jpg"), row("a.jpg"), row("b")];
        assert_eq!(zip_names(&rows), vec!["a.jpg", "A (2).jpg", "a (3).jpg", "b"]);
    }

    #[test]
    fn only_old_enough_files_are_swept() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        let fresh = uuid::Uuid::now_v7().to_string();
        assert!(!old_enough(&fresh, now, Duration::from_secs(600)));
        assert!(old_enough(&fresh, now + Duration::from_secs(601), Duration::from_secs(600)));
        assert!(old_enough(&uuid::Uuid::new_v4().to_string(), now, Duration::from_secs(600)));
    }
}
