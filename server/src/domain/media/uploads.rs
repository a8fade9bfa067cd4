//! Resumable uploads (tus 1.0: creation, offsets, termination, expiration) and batches.
//!
//! An upload is one file, created with its declared length and sent in any number of
//! appends, each at the offset the server last reported: bytes already received are
//! never sent again, and an interrupted append keeps what arrived. When the last byte
//! is in, the file is stored (`photos::store_file`: renditions, its turn among the
//! project's mutations, published live) and its partial bytes go. This is how every
//! photo arrives.
//!
//! Every step re-checks who may do it: only the user who created an upload may touch
//! it, and only while they may still upload to its project (builders and admins on
//! projects they can see; `photos::upload_target`). Someone else's upload is answered
//! like one that does not exist.
//!
//! A batch is the files selected together (a site visit) with an optional note; it is
//! complete when each of its files has finished (stored, refused, discarded, expired),
//! and then the homeowner gets one "N new photos" mail with the note.

use std::time::Duration;

use bytes::Bytes;
use futures_util::Stream;
use protocol::{ErrorCode, ImageCategory, PublishUploads};

use crate::domain::projects::milestones;
use crate::domain::media::photos::{self, IncomingFile, MAX_FILES, MAX_FILE_BYTES};
use crate::domain::shared::policy::Actor;
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::Turns;
use crate::domain::shared::validation::{self, BATCH_NOTE, CAPTION};
use crate::error::{Error, Result};
use crate::media::partials::Appended;
use crate::media::StorageError;
use crate::store::projects::ProjectRow;
use crate::store::uploads::{self, BatchRow, Publish, UploadRow};
use crate::store::{now_ms, projects};

/// An unfinished upload is kept this long after its last byte arrived; a finished one
/// this long after it finished (so a client that lost the answer learns it).
pub const UPLOAD_TTL: Duration = Duration::from_secs(24 * 3600);
/// Unfinished uploads one person may have at once: two full selections.
pub const MAX_OPEN_UPLOADS: i64 = 2 * MAX_FILES as i64;

pub const UPLOAD_NOT_FOUND: &str = "This upload is unknown or has expired. Start it again.";
pub const OFFSET_MISMATCH: &str = "The upload's offset has moved on; ask for it again and continue from there.";
pub const PAST_LENGTH: &str = "More bytes were sent than the upload declared.";
pub const EMPTY_FILE: &str = "This file is empty.";
pub const BAD_BATCH: &str = "This batch belongs to another upload.";
pub const ALREADY_PUBLISHED: &str = "These photos were already published.";
pub const NOTHING_TO_PUBLISH: &str = "Choose photos to publish.";
pub const HELD_WITH_BATCH: &str = "An upload sent ahead of publishing joins its site visit when it is published.";

pub fn too_many_open() -> String {
    format!("You have {MAX_OPEN_UPLOADS} unfinished uploads. Finish or discard some before adding more.")
}

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, UPLOAD_NOT_FOUND)
}

fn storage(err: StorageError) -> Error {
    Error::internal(err)
}

/// What a client declares when it creates an upload.
pub struct NewUpload {
    pub project_id: String,
    pub file_name: String,
    pub length: u64,
    pub caption: Option<String>,
    pub category: Option<ImageCategory>,
    pub batch: Option<NewBatch>,
    /// The milestone to tag the photo with (docs/FEATURES.md, "The project's story"); one of
    /// the project's.
    pub milestone_id: Option<String>,
    /// The tags for its photo, names joined with commas (docs/FEATURES.md,
    /// "Tags and search").
    pub tags: Option<String>,
    /// Sent ahead of publishing: whole, it waits for `publish` (docs/FEATURES.md,
    /// "Photo upload").
    pub held: bool,
}

pub struct NewBatch {
    /// Chosen by the client, shared by the batch's files.
    pub id: String,
    /// How many files were selected together.
    pub files: u64,
    pub note: Option<String>,
}

/// Where an upload stands.
pub struct Status {
    pub id: String,
    pub offset: u64,
    pub length: u64,
    pub expires_at: i64,
    pub finished: Option<Finished>,
    /// Every byte is here and it waits to be published.
    pub held: bool,
}

/// What a finished upload became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finished {
    Photo(String),
    Refused(String),
}

fn ttl_ms() -> i64 {
    UPLOAD_TTL.as_millis() as i64
}

fn clean_text(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Creates an upload (tus creation): the caller may upload to the project, the file
/// fits the limits, the person has room for another open upload, the batch is theirs.
pub async fn create(svc: &Services, actor: &Actor, new: NewUpload) -> Result<Status> {
    let project = photos::upload_target(svc, actor, &new.project_id).await?;
    if new.held && new.batch.is_some() {
        return Err(Error::new(ErrorCode::BadRequest, HELD_WITH_BATCH));
    }
    if new.length == 0 {
        return Err(Error::new(ErrorCode::BadRequest, EMPTY_FILE));
    }
    if new.length > MAX_FILE_BYTES as u64 {
        return Err(Error::new(ErrorCode::TooLarge, photos::reason_too_big()));
    }
    CAPTION.check("caption", new.caption.as_deref().unwrap_or_default())?;
    let caption = clean_text(new.caption);
    let pool = svc.store.pool();
    let milestone_id = milestones::tag_for(pool, &project.id, new.milestone_id.as_deref()).await?;
    let tags = upload_tags(new.tags.as_deref())?;
    if uploads::count_open(pool, &actor.id).await? >= MAX_OPEN_UPLOADS {
        return Err(Error::rate_limited(too_many_open(), Duration::from_secs(60)));
    }
    let now = now_ms();
    let batch_id = match new.batch {
        Some(batch) => Some(open_batch(svc, actor, &project, batch, now).await?),
        None => None,
    };
    let row = UploadRow {
        id: uuid::Uuid::new_v4().to_string(),
        project_id: project.id.clone(),
        user_id: actor.id.clone(),
        batch_id,
        file_name: photos::file_name(&new.file_name),
        caption,
        category: new.category,
        length: new.length as i64,
        created_at: now,
        expires_at: now + ttl_ms(),
        finished_at: None,
        photo_id: None,
        refused: None,
        milestone_id,
        tags,
        held: new.held,
    };
    svc.partials.create(&row.id).await.map_err(storage)?;
    if let Err(err) = uploads::insert(pool, &row).await {
        let _ = svc.partials.remove(&row.id).await;
        return Err(err.into());
    }
    Ok(Status { id: row.id, offset: 0, length: new.length, expires_at: row.expires_at, finished: None, held: false })
}

async fn open_batch(svc: &Services, actor: &Actor, project: &ProjectRow, batch: NewBatch, now: i64) -> Result<String> {
    // The client names the visit (every file of one selection carries the id before the
    // first has arrived); like every id it is a UUID, in its one written form, so that
    // two spellings never name one visit.
    if !batch_id_valid(&batch.id) || batch.files == 0 {
        return Err(Error::new(ErrorCode::BadRequest, BAD_BATCH));
    }
    if batch.files > MAX_FILES as u64 {
        return Err(Error::new(ErrorCode::TooLarge, photos::reason_over_count()));
    }
    BATCH_NOTE.check("note", batch.note.as_deref().unwrap_or_default())?;
    let note = clean_text(batch.note);
    let pool = svc.store.pool();
    let row = BatchRow {
        id: batch.id.clone(),
        project_id: project.id.clone(),
        user_id: actor.id.clone(),
        note,
        file_count: batch.files as i64,
        finished: 0,
        stored: 0,
        created_at: now,
        completed_at: None,
    };
    uploads::open_batch(pool, &row).await?;
    let stored = uploads::find_batch(pool, &batch.id).await?.ok_or_else(|| Error::new(ErrorCode::BadRequest, BAD_BATCH))?;
    if stored.user_id != actor.id || stored.project_id != project.id {
        return Err(Error::new(ErrorCode::BadRequest, BAD_BATCH));
    }
    if stored.completed_at.is_some() || uploads::count_in_batch(pool, &batch.id).await? >= stored.file_count {
        return Err(Error::new(ErrorCode::TooLarge, photos::reason_over_count()));
    }
    Ok(batch.id)
}

fn batch_id_valid(id: &str) -> bool {
    uuid::Uuid::parse_str(id).is_ok_and(|parsed| parsed.hyphenated().to_string() == id)
}

/// The actor's own upload, while they may still upload to its project.
async fn owned(svc: &Services, actor: &Actor, id: &str) -> Result<(UploadRow, ProjectRow)> {
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let row = uploads::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    if row.user_id != actor.id || (row.finished_at.is_none() && row.expires_at <= now_ms()) {
        return Err(not_found());
    }
    let project = photos::upload_target(svc, actor, &row.project_id).await?;
    Ok((row, project))
}

fn finished_of(row: &UploadRow) -> Option<Finished> {
    row.finished_at?;
    Some(match (&row.photo_id, &row.refused) {
        (Some(photo), _) => Finished::Photo(photo.clone()),
        (None, refused) => Finished::Refused(refused.clone().unwrap_or_default()),
    })
}

fn status_of(row: &UploadRow, offset: u64) -> Status {
    Status {
        id: row.id.clone(),
        offset,
        length: row.length as u64,
        expires_at: row.expires_at,
        finished: finished_of(row),
        held: row.held && row.finished_at.is_none() && offset == row.length as u64,
    }
}

/// Where an upload stands (tus HEAD). An upload whose bytes are all here but that is
/// not finished (storing it failed last time) is finished now.
pub async fn status(svc: &Services, actor: &Actor, id: &str, turns: &impl Turns) -> Result<Status> {
    let (row, project) = owned(svc, actor, id).await?;
    if row.finished_at.is_some() {
        return Ok(status_of(&row, row.length as u64));
    }
    let _turn = svc.upload_locks.lock(id).await;
    // Re-read under the lock: publishing may have finished it meanwhile (this waited).
    let row = uploads::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    if row.finished_at.is_some() {
        return Ok(status_of(&row, row.length as u64));
    }
    let offset = svc.partials.offset(id).await.map_err(storage)?.ok_or_else(not_found)?;
    if offset == row.length as u64 && !row.held {
        return finish(svc, actor, row, &project, turns).await;
    }
    Ok(status_of(&row, offset))
}

/// Appends a request's body at `offset` (tus PATCH). A body that breaks off keeps what
/// arrived; the last byte finishes the upload.
pub async fn append<E>(
    svc: &Services,
    actor: &Actor,
    id: &str,
    offset: u64,
    body: impl Stream<Item = std::result::Result<Bytes, E>> + Unpin,
    turns: &impl Turns,
) -> Result<Status> {
    let (_, project) = owned(svc, actor, id).await?;
    let _turn = svc.upload_locks.lock(id).await;
    // Re-read under the lock: a request that held it may have finished the upload.
    let row = uploads::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    let length = row.length as u64;
    if row.finished_at.is_some() {
        if offset == length {
            return Ok(status_of(&row, length));
        }
        return Err(Error::new(ErrorCode::Conflict, OFFSET_MISMATCH));
    }
    let current = svc.partials.offset(id).await.map_err(storage)?.ok_or_else(not_found)?;
    if offset != current {
        return Err(Error::new(ErrorCode::Conflict, OFFSET_MISMATCH));
    }
    let reached = match svc.partials.append(id, offset, length, body).await.map_err(storage)? {
        Appended::TooLong => return Err(Error::new(ErrorCode::TooLarge, PAST_LENGTH)),
        Appended::Done(at) | Appended::BrokenOff(at) => at,
    };
    let expires_at = now_ms() + ttl_ms();
    uploads::extend(svc.store.pool(), id, expires_at).await?;
    let row = UploadRow { expires_at, ..row };
    if reached == length && !row.held {
        return finish(svc, actor, row, &project, turns).await;
    }
    Ok(status_of(&row, reached))
}

/// An upload's tags, sent as one metadata value of names joined with commas (a tag
/// holds no comma), checked like tags added in the gallery; at most `tags::PER_PHOTO`.
fn upload_tags(joined: Option<&str>) -> Result<Vec<String>> {
    let names: Vec<String> = joined.unwrap_or_default().split(',').filter(|t| !t.trim().is_empty()).map(str::to_owned).collect();
    let tags = crate::domain::media::tags::parse("tags", &names)?;
    if tags.len() > crate::domain::media::tags::PER_PHOTO {
        return Err(Error::field("tags", &crate::domain::media::tags::too_many_message()));
    }
    Ok(tags)
}

/// Stores a complete upload as a photo (or records why not), once; the caller holds
/// the upload's lock. A storage failure leaves it unfinished with its bytes, to be
/// finished by the client's retry.
async fn finish(svc: &Services, actor: &Actor, row: UploadRow, project: &ProjectRow, turns: &impl Turns) -> Result<Status> {
    let bytes = svc.partials.read(&row.id).await.map_err(storage)?;
    let visit_note = match &row.batch_id {
        Some(batch) => uploads::find_batch(svc.store.pool(), batch).await?.and_then(|b| b.note),
        None => None,
    };
    let file = IncomingFile {
        name: row.file_name.clone(),
        content: bytes,
        caption: row.caption.clone(),
        category: row.category,
        visit_note,
        // A file sent on its own is a site visit of one.
        batch_id: Some(row.batch_id.clone().unwrap_or_else(|| row.id.clone())),
        milestone_id: row.milestone_id.clone(),
        tags: row.tags.clone(),
    };
    let (photo_id, refused) = match photos::store_file(svc, actor, project, file, turns).await {
        Ok(photo) => (Some(photo.id), None),
        Err(not_stored) if !not_stored.failed => (None, Some(not_stored.reason)),
        Err(failed) => return Err(Error::new(ErrorCode::Internal, format!("{}: {}", failed.name, failed.reason))),
    };
    let now = now_ms();
    let expires_at = now + ttl_ms();
    let pool = svc.store.pool();
    uploads::finish(pool, &row.id, now, expires_at, photo_id.as_deref(), refused.as_deref()).await?;
    if let Err(err) = svc.partials.remove(&row.id).await {
        tracing::warn!(upload = %row.id, error = %err, "could not remove a finished upload's bytes; the sweep will");
    }
    if let Some(batch) = &row.batch_id {
        count_in_batch(svc, batch, photo_id.is_some(), now, turns).await;
    }
    let row = UploadRow { finished_at: Some(now), photo_id, refused, expires_at, ..row };
    Ok(status_of(&row, row.length as u64))
}

/// Counts a finished file in its batch; the one that completes the batch announces it.
async fn count_in_batch(svc: &Services, batch_id: &str, stored: bool, now: i64, turns: &impl Turns) {
    match uploads::count_finished(svc.store.pool(), batch_id, stored, now).await {
        Ok(Some(batch)) => batch_complete(svc, &batch, turns).await,
        Ok(None) => {}
        Err(err) => tracing::error!(batch = %batch_id, error = %err, "counting a finished upload in its batch failed"),
    }
}

/// A site visit is complete: one mail for its photos, with its note, and one
/// notification to each of the project's people but the uploader.
async fn batch_complete(svc: &Services, batch: &BatchRow, turns: &impl Turns) {
    if batch.stored == 0 {
        return;
    }
    let project = match projects::find(svc.store.pool(), &batch.project_id).await {
        Ok(Some(project)) => project,
        Ok(None) => return,
        Err(err) => {
            tracing::error!(batch = %batch.id, error = %err, "reading a batch's project failed");
            return;
        }
    };
    let (count, note) = (batch.stored as usize, batch.note.as_deref());
    photos::announce_in_turn(svc, &batch.user_id, &project, Some(&batch.id), count, note, turns).await;
}

/// Publishes uploads sent ahead (`NewUpload::held`) as one site visit
/// (docs/FEATURES.md, "Photo upload"): checked whole, then released in one transaction,
/// so either every file joins the visit or none does. Files already whole become
/// photos in the background, in order, on this instance (the uploader may close the
/// page at once); the rest when their last byte arrives. Sent again after a lost
/// answer, it answers the same.
pub async fn publish<T: Turns>(svc: &Services, actor: &Actor, input: &PublishUploads, turns: &T) -> Result<()> {
    let project = photos::upload_target(svc, actor, &input.project_id).await?;
    if input.files.is_empty() {
        return Err(Error::new(ErrorCode::BadRequest, NOTHING_TO_PUBLISH));
    }
    if input.files.len() > MAX_FILES {
        return Err(Error::new(ErrorCode::TooLarge, photos::reason_over_count()));
    }
    if !batch_id_valid(&input.batch_id) {
        return Err(Error::new(ErrorCode::BadRequest, BAD_BATCH));
    }
    BATCH_NOTE.check("note", input.note.as_deref().unwrap_or_default())?;
    for file in &input.files {
        CAPTION.check("caption", file.caption.as_deref().unwrap_or_default())?;
    }
    let tags = crate::domain::media::tags::parse("tags", &input.tags)?;
    if tags.len() > crate::domain::media::tags::PER_PHOTO {
        return Err(Error::field("tags", &crate::domain::media::tags::too_many_message()));
    }
    let pool = svc.store.pool();
    let milestone_id = milestones::tag_for(pool, &project.id, input.milestone_id.as_deref()).await?;
    let mut rows = Vec::with_capacity(input.files.len());
    let mut seen = std::collections::HashSet::new();
    for file in &input.files {
        if !seen.insert(file.upload_id.as_str()) {
            return Err(Error::new(ErrorCode::BadRequest, BAD_BATCH));
        }
        let (row, _) = owned(svc, actor, &file.upload_id).await?;
        if row.project_id != project.id {
            return Err(not_found());
        }
        rows.push(row);
    }
    // The answer to this very request was lost and it came again: it is done.
    if published_as(&rows, &input.batch_id) {
        return Ok(());
    }
    if rows.iter().any(|r| !r.held || r.finished_at.is_some()) {
        return Err(Error::new(ErrorCode::Conflict, ALREADY_PUBLISHED));
    }
    if let Err(refused) = release(svc, actor, &project.id, input, &rows, milestone_id.as_deref(), &tags).await {
        // The same request sent twice at once (a retry racing the first, on this
        // instance or another): whichever lost finds the visit published as it asked.
        let mut now = Vec::with_capacity(rows.len());
        for row in &rows {
            now.push(owned(svc, actor, &row.id).await?.0);
        }
        return if published_as(&now, &input.batch_id) { Ok(()) } else { Err(refused) };
    }
    let (svc, actor, turns) = (svc.clone(), actor.clone(), turns.clone());
    let ids: Vec<String> = rows.into_iter().map(|r| r.id).collect();
    tokio::spawn(async move {
        for id in ids {
            finish_released(&svc, &actor, &id, &turns).await;
        }
    });
    Ok(())
}

/// Every one of `rows` published under the visit `batch_id`.
fn published_as(rows: &[UploadRow], batch_id: &str) -> bool {
    rows.iter().all(|r| !r.held && r.batch_id.as_deref() == Some(batch_id))
}

/// Opens the visit and releases its uploads with what publishing gives them, in one
/// transaction: all of them or none.
async fn release(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    input: &PublishUploads,
    rows: &[UploadRow],
    milestone_id: Option<&str>,
    tags: &[String],
) -> Result<()> {
    let batch = BatchRow {
        id: input.batch_id.clone(),
        project_id: project_id.to_owned(),
        user_id: actor.id.clone(),
        note: clean_text(input.note.clone()),
        file_count: rows.len() as i64,
        finished: 0,
        stored: 0,
        created_at: now_ms(),
        completed_at: None,
    };
    let mut tx = svc.store.begin_write().await?;
    if uploads::find_batch(&mut *tx, &batch.id).await?.is_some() {
        return Err(Error::new(ErrorCode::BadRequest, BAD_BATCH));
    }
    uploads::open_batch(&mut *tx, &batch).await?;
    for (row, file) in rows.iter().zip(&input.files) {
        let caption = clean_text(file.caption.clone());
        let fields = Publish { caption: caption.as_deref(), category: file.category, milestone_id, tags };
        if !uploads::publish(&mut *tx, &row.id, &batch.id, &fields).await? {
            // Published or discarded by a racing request: none of this visit is.
            return Err(Error::new(ErrorCode::Conflict, ALREADY_PUBLISHED));
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Finishes a released upload whose bytes are all here, if nobody has; what goes wrong
/// is logged, and the uploader's HEAD or the sweep tries again.
async fn finish_released(svc: &Services, actor: &Actor, id: &str, turns: &impl Turns) {
    let outcome = async {
        let _turn = svc.upload_locks.lock(id).await;
        let Some(row) = uploads::find(svc.store.pool(), id).await? else { return Ok(()) };
        if row.finished_at.is_some() || row.held {
            return Ok(());
        }
        if svc.partials.offset(id).await.map_err(storage)? != Some(row.length as u64) {
            return Ok(());
        }
        let project = photos::upload_target(svc, actor, &row.project_id).await?;
        finish(svc, actor, row, &project, turns).await.map(|_| ())
    };
    if let Err(err) = outcome.await {
        err.log("storing a published upload");
    }
}

/// Discards an upload (tus termination): its bytes and its row. An unfinished file of
/// a batch counts as finished, so the rest of the batch still completes.
pub async fn terminate(svc: &Services, actor: &Actor, id: &str, turns: &impl Turns) -> Result<()> {
    let (row, _) = owned(svc, actor, id).await?;
    let _turn = svc.upload_locks.lock(id).await;
    discard(svc, &row, turns).await
}

async fn discard(svc: &Services, row: &UploadRow, turns: &impl Turns) -> Result<()> {
    svc.partials.remove(&row.id).await.map_err(storage)?;
    let deleted = uploads::delete(svc.store.pool(), &row.id).await?;
    if deleted && row.finished_at.is_none() {
        if let Some(batch) = &row.batch_id {
            count_in_batch(svc, batch, false, now_ms(), turns).await;
        }
    }
    Ok(())
}

/// Removes uploads past their expiry and partial files without a row (older than
/// `grace`: a row may be about to be written), and closes batches whose remaining files
/// were never created. Answers how many uploads it removed.
pub async fn sweep(svc: &Services, grace: Duration, turns: &impl Turns) -> Result<usize> {
    let pool = svc.store.pool();
    let now = now_ms();
    let mut removed = 0;
    for row in uploads::expired(pool, now).await? {
        if let Err(err) = discard(svc, &row, turns).await {
            err.log("sweeping an expired upload");
            continue;
        }
        removed += 1;
    }
    let known: std::collections::HashSet<String> = uploads::all_ids(pool).await?.into_iter().collect();
    for (id, age) in svc.partials.list().await.map_err(storage)? {
        if age >= grace && !known.contains(&id) {
            svc.partials.remove(&id).await.map_err(storage)?;
            removed += 1;
        }
    }
    // Released uploads whose storing was cut off (a restart right after publishing).
    for row in uploads::released_unfinished(pool, now + ttl_ms() - grace.as_millis() as i64).await? {
        let Some(user) = crate::store::users::find_by_id(pool, &row.user_id).await? else { continue };
        finish_released(svc, &Actor::of(&user), &row.id, turns).await;
    }
    for batch in uploads::close_stale_batches(pool, now - ttl_ms(), now).await? {
        batch_complete(svc, &batch, turns).await;
    }
    uploads::delete_old_batches(pool, now - 7 * ttl_ms()).await?;
    Ok(removed)
}
