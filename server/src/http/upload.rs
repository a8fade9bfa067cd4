//! Photo upload: `POST /api/projects/{id}/photos`, multipart, one part per file.
//! The files of one request are one site visit (they share a batch id). An optional
//! form field `milestoneId`, sent before the files, tags every photo with one of the
//! project's milestones (issue 18). One sent after a file ends the request there like
//! a broken body: the files before it are being stored already and stay, untagged.
//!
//! The body is streamed: each file is read up to the per-file limit and handed to the
//! domain's batch, which renders and stores it while the next one arrives. A file
//! over the limit is skipped (its remaining bytes are drained), files past the count
//! limit likewise, and the whole request is cut off past the total limit with 413.
//! If the client goes away mid-upload, the files that arrived whole are kept and the
//! partial one is dropped; nothing half-written stays behind.

use actix_multipart::Multipart;
use actix_web::http::{header, StatusCode};
use actix_web::{post, web, HttpRequest, HttpResponse};
use bytes::BytesMut;
use futures_util::StreamExt;
use protocol::{ErrorCode, UploadResult};
use tokio::sync::{mpsc, oneshot};

use super::session::CurrentSession;
use crate::app::AppState;
use crate::domain::photos::{self, Incoming, IncomingFile, MAX_FILES, MAX_FILE_BYTES};
use crate::domain::milestones;
use crate::domain::policy::Actor;
use crate::domain::services::Services;
use crate::error::Error;
use crate::live::project::ProjectTurns;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(upload);
}

/// The most one request may carry: every file at its limit, plus multipart framing.
pub const MAX_REQUEST_BYTES: usize = MAX_FILES * MAX_FILE_BYTES + 1024 * 1024;

fn too_large() -> Error {
    Error::new(
        ErrorCode::TooLarge,
        format!(
            "This upload is too large. Send at most {MAX_FILES} photos of up to {} MB each at a time.",
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

#[post("/projects/{id}/photos")]
async fn upload(
    req: HttpRequest,
    state: web::Data<AppState>,
    CurrentSession(session): CurrentSession,
    path: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, Error> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    if !is_multipart {
        return Err(Error::new(ErrorCode::UnsupportedMediaType, "Send photos as multipart/form-data."));
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_REQUEST_BYTES) {
        return Err(too_large());
    }
    // Counted until the answer goes out: a drain waits for it (`ops::drain`).
    let _in_flight = state.ops.uploads.begin();
    let actor = Actor::of(&session.user);
    let project = photos::upload_target(&state.svc, &actor, &path.into_inner()).await?;
    let project_id = project.id.clone();

    // The batch runs detached from this request: if the client disconnects, the
    // photos that arrived whole are still finished, published and mailed about.
    let (files_tx, files_rx) = mpsc::channel::<IncomingFile>(1);
    let (done_tx, done_rx) = oneshot::channel();
    let turns = ProjectTurns { registry: state.live.registry.clone(), project_id: project.id.clone() };
    let batch = photos::store_batch(state.svc.clone(), actor, project, files_rx, turns);
    tokio::spawn(async move {
        let _ = done_tx.send(batch.await);
    });

    let read = read_files(Multipart::new(req.headers(), payload), &files_tx, &state.svc, &project_id).await;
    drop(files_tx);
    let (mut result, failed) = done_rx.await.map_err(Error::internal)?;
    match read {
        Err(ReadError::TooLarge) => return Err(too_large()),
        // Only ever before the first file: nothing was stored.
        Err(ReadError::Refused(err)) => return Err(err),
        Err(ReadError::Malformed(detail)) if result.photos.is_empty() => {
            return Err(Error::new(ErrorCode::BadRequest, format!("The upload could not be read: {detail}")));
        }
        _ => {}
    }
    photos::summarise(&mut result);
    Ok(respond(result, failed))
}

fn respond(mut result: UploadResult, failed: bool) -> HttpResponse {
    let status = if !result.photos.is_empty() {
        StatusCode::CREATED
    } else if failed {
        // The files were fine; we could not store them.
        StatusCode::SERVICE_UNAVAILABLE
    } else if result.skipped.is_empty() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    if result.photos.is_empty() && result.skipped.is_empty() {
        result.message = Some("Choose at least one photo to upload.".to_owned());
    }
    HttpResponse::build(status).json(result)
}

enum ReadError {
    TooLarge,
    /// A form field's value is refused (an unknown milestone).
    Refused(Error),
    /// The body broke off or is not valid multipart (often: the client went away).
    Malformed(String),
}

/// The longest form field value read (a milestone id is a UUID).
const MAX_FIELD_BYTES: usize = 256;

/// Reads each file part and sends it on; stops at the first broken part.
async fn read_files(
    mut parts: Multipart,
    files: &mpsc::Sender<IncomingFile>,
    svc: &Services,
    project_id: &str,
) -> Result<(), ReadError> {
    let (mut index, mut total) = (0usize, 0usize);
    let mut milestone_id = None;
    while let Some(part) = parts.next().await {
        let mut field = part.map_err(|e| ReadError::Malformed(e.to_string()))?;
        let name = field.content_disposition().and_then(|d| d.get_filename()).map(photos::file_name);
        if name.is_none() && field.name() == Some("milestoneId") {
            if index > 0 {
                return Err(ReadError::Malformed("send milestoneId before the photos".to_owned()));
            }
            let mut value = BytesMut::new();
            while let Some(chunk) = field.next().await {
                let chunk = chunk.map_err(|e| ReadError::Malformed(e.to_string()))?;
                total += chunk.len();
                if value.len() + chunk.len() > MAX_FIELD_BYTES {
                    return Err(ReadError::Malformed("milestoneId is too long".to_owned()));
                }
                value.extend_from_slice(&chunk);
            }
            let value = String::from_utf8_lossy(&value).into_owned();
            milestone_id = milestones::tag_for(svc.store.pool(), project_id, Some(&value)).await.map_err(ReadError::Refused)?;
            continue;
        }
        let mut buf = BytesMut::new();
        let mut oversize = false;
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| ReadError::Malformed(e.to_string()))?;
            total += chunk.len();
            if total > MAX_REQUEST_BYTES {
                return Err(ReadError::TooLarge);
            }
            // Past a limit the rest of the part is drained, not kept.
            if name.is_none() || oversize || index >= MAX_FILES {
                continue;
            }
            if buf.len() + chunk.len() > MAX_FILE_BYTES {
                oversize = true;
                buf = BytesMut::new();
                continue;
            }
            buf.extend_from_slice(&chunk);
        }
        // Parts without a file name are form fields, not files.
        let Some(name) = name else { continue };
        let content = if index >= MAX_FILES {
            Incoming::Refused(photos::reason_over_count())
        } else if oversize {
            Incoming::Refused(photos::reason_too_big())
        } else {
            Incoming::Bytes(buf.freeze())
        };
        let file = IncomingFile {
            index,
            name,
            content,
            caption: None,
            category: None,
            visit_note: None,
            batch_id: None,
            milestone_id: milestone_id.clone(),
        };
        if files.send(file).await.is_err() {
            break;
        }
        index += 1;
    }
    Ok(())
}
