//! Photo bytes, each only after the policy allows it. A photo the user may not see is
//! answered exactly like a photo that does not exist, so ids cannot be probed.

use actix_web::http::header::{self, ContentDisposition, ContentEncoding, DispositionParam, DispositionType, EntityTag};
use actix_web::{get, web, HttpRequest, HttpResponse};
use async_zip::base::write::ZipFileWriter;
use async_zip::{Compression, ZipDateTimeBuilder, ZipEntryBuilder};
use protocol::ErrorCode;
use serde::Deserialize;
use tokio_util::io::ReaderStream;

use super::session::Viewer;
use super::AppState;
use crate::domain::sharing::guests;
use crate::domain::media::photos::{self, IMAGE_NOT_FOUND};
use crate::domain::shared::policy::{Action, Actor, Guest};
use crate::error::Error;
use crate::media::{extension_for, photo_keys, StorageError};
use crate::store::images::ImageRow;

/// Everything under `/media`: an unknown path there is a 404 like one under `/api`,
/// never the web app's page (which would answer 200 with HTML where bytes were asked for).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/media")
            .service(image_bytes)
            .service(project_zip)
            .default_service(web::to(super::error::api_not_found)),
    );
}

fn attachment(name: String) -> ContentDisposition {
    ContentDisposition { disposition: DispositionType::Attachment, parameters: vec![DispositionParam::Filename(name)] }
}

#[derive(Deserialize)]
struct ImageQuery {
    /// `?download=1` (or `true`): as an attachment (the "with markup" download) rather
    /// than inline.
    download: Option<String>,
}

impl ImageQuery {
    fn download(&self) -> bool {
        matches!(self.download.as_deref(), Some("1" | "true"))
    }
}

#[get("/images/{id}/{variant}")]
async fn image_bytes(
    req: HttpRequest,
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    query: web::Query<ImageQuery>,
) -> Result<HttpResponse, Error> {
    let (id, variant) = path.into_inner();
    let not_found = || Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND);
    // A guest sees thumbnails and display sizes; the original is a download, and so is
    // the marked-up display size when asked for as a file.
    let action = if variant == "original" || (variant == "marked" && query.download()) { Action::DownloadPhoto } else { Action::ViewPhoto };
    let (image, guest) = viewable(&state, &viewer, &id, action).await?;
    if variant == "marked" {
        // A guest whose link does not show markup gets the photo as it is.
        let with_markup = match &guest {
            Some(guest) => guests::sees_markup(&state.svc, guest).await?,
            None => true,
        };
        return marked(&req, &state, &image, query.download(), with_markup).await;
    }
    let keys = photo_keys(&image.storage_key, extension_for(&image.content_type));
    let (key, content_type) = match variant.as_str() {
        "thumb" => (keys.thumb, "image/jpeg"),
        "display" => (keys.display, "image/jpeg"),
        "original" => (keys.original, image.content_type.as_str()),
        _ => return Err(not_found()),
    };
    // A photo's bytes never change under its id, so the id is a strong validator.
    let etag = EntityTag::new_strong(format!("{id}-{variant}"));
    let fresh = if_none_match(&req, &etag, true);
    // Private: the bytes are per-user authorised, so shared caches must not keep them.
    let cache = "private, max-age=31536000, immutable";
    if fresh {
        return Ok(HttpResponse::NotModified()
            .insert_header(header::ETag(etag))
            .insert_header((header::CACHE_CONTROL, cache))
            .finish());
    }
    let bytes = state.photos.get(&key).await.map_err(|e| match e {
        StorageError::NotFound(_) => not_found(),
        other => Error::from(other),
    })?;
    let mut resp = HttpResponse::Ok();
    resp.content_type(content_type)
        .insert_header(header::ETag(etag))
        .insert_header((header::CACHE_CONTROL, cache))
        // Already compressed; gzip would only cost CPU.
        .insert_header(ContentEncoding::Identity)
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if variant == "original" {
        resp.insert_header(attachment(image.original_name.clone()));
    }
    Ok(resp.body(bytes))
}

/// A photo either of the viewer's principals may fetch, with the guest it was fetched
/// as (none when the user's account may): the user's account first, then the guest
/// link the browser holds. Each is decided by the policy; neither widens the other,
/// and a refusal reads as "not found" so ids cannot be probed.
async fn viewable(state: &AppState, viewer: &Viewer, id: &str, action: Action) -> Result<(ImageRow, Option<Guest>), Error> {
    let mut refusal = Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND);
    if let Some(session) = &viewer.user {
        match photos::viewable(&state.svc, &Actor::of(&session.user), id).await {
            Ok(image) => return Ok((image, None)),
            Err(err) => refusal = err,
        }
    }
    match viewer.guest_pass(&state.svc).await {
        Some(pass) => Ok((guests::photo(&state.svc, &pass.guest, id, action).await?, Some(pass.guest))),
        None => Err(viewer.refused(refusal)),
    }
}

/// Whether the request's If-None-Match names `etag` (or, with `wildcard`, is `*`).
fn if_none_match(req: &HttpRequest, etag: &EntityTag, wildcard: bool) -> bool {
    let etag = etag.to_string();
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').map(str::trim).any(|t| t == etag || (wildcard && t == "*")))
}

/// The display size with the photo's markup drawn on (docs/FEATURES.md, "Markup on photos").
/// Markup changes, so its version is in the validator and the browser asks again each
/// time.
async fn marked(req: &HttpRequest, state: &AppState, image: &ImageRow, download: bool, with_markup: bool) -> Result<HttpResponse, Error> {
    let (version, shapes) = match with_markup {
        true => crate::domain::media::markup::shapes_of(&state.svc, &image.id).await?,
        false => (0, Vec::new()),
    };
    let etag = EntityTag::new_strong(format!("{}-marked-{version}{}", image.id, if with_markup { "" } else { "-bare" }));
    let cache = "private, no-cache";
    if if_none_match(req, &etag, false) {
        return Ok(HttpResponse::NotModified().insert_header(header::ETag(etag)).insert_header((header::CACHE_CONTROL, cache)).finish());
    }
    let bytes = flattened(state, image, shapes).await?;
    let mut resp = HttpResponse::Ok();
    resp.content_type("image/jpeg")
        .insert_header(header::ETag(etag))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header(ContentEncoding::Identity)
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if download {
        let name = photos::zip_names(std::slice::from_ref(image), |_| true).pop().unwrap_or_else(|| "photo (marked up).jpg".to_owned());
        resp.insert_header(attachment(name));
    }
    Ok(resp.body(bytes))
}

/// The photo's display size with `shapes` drawn on, on the image workers.
async fn flattened(state: &AppState, image: &ImageRow, shapes: Vec<protocol::Shape>) -> Result<Vec<u8>, Error> {
    let key = photo_keys(&image.storage_key, extension_for(&image.content_type)).display;
    let display = state.photos.get(&key).await.map_err(|e| match e {
        StorageError::NotFound(_) => Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND),
        other => Error::from(other),
    })?;
    state.svc.images.flatten(display, shapes).await.map_err(Error::internal)
}

#[derive(Deserialize)]
struct ZipQuery {
    #[serde(default)]
    favourites: bool,
    /// Marked-up photos as their display size with the markup drawn on.
    #[serde(default)]
    markup: bool,
}

/// All of a project's photos, or the user's favourites among them, as one zip of the
/// originals. Streamed: each photo is read and written in turn, so memory stays at one
/// photo however large the project.
#[get("/projects/{id}/photos.zip")]
async fn project_zip(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<ZipQuery>,
) -> Result<HttpResponse, Error> {
    let project_id = path.into_inner();
    let as_user = match &viewer.user {
        Some(session) => photos::downloadable(&state.svc, &Actor::of(&session.user), &project_id, query.favourites).await,
        None => Err(Error::new(ErrorCode::NotFound, crate::domain::projects::PROJECT_NOT_FOUND)),
    };
    // A guest's zip is what their link shows (all, or its maker's favourites).
    let (project, rows, with_markup) = match as_user {
        Ok((project, rows)) => (project, rows, query.markup),
        Err(err) => match viewer.guest_pass(&state.svc).await {
            Some(pass) => {
                let (project, rows) = guests::downloadable(&state.svc, &pass.guest, &project_id).await?;
                (project, rows, query.markup && guests::sees_markup(&state.svc, &pass.guest).await?)
            }
            None => return Err(viewer.refused(err)),
        },
    };
    let (writer, reader) = tokio::io::duplex(256 * 1024);
    let zip_state = state.clone();
    tokio::spawn(async move {
        if let Err(err) = write_zip(&zip_state, &rows, with_markup, writer).await {
            // Usually the client went away; the zip it got is cut short, which it sees.
            tracing::info!(error = %err, "photo zip stopped early");
        }
    });
    let what = match (query.favourites, query.markup) {
        (true, false) => "favourite photos",
        (true, true) => "favourite photos with markup",
        (false, false) => "photos",
        (false, true) => "photos with markup",
    };
    let title: String = project.title.chars().filter(|c| !c.is_control() && !matches!(c, '/' | '\\')).collect();
    Ok(HttpResponse::Ok()
        .content_type("application/zip")
        .insert_header(attachment(format!("{} {what}.zip", title.trim())))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .insert_header(ContentEncoding::Identity)
        .streaming(ReaderStream::new(reader)))
}

async fn write_zip(state: &AppState, rows: &[ImageRow], with_markup: bool, writer: tokio::io::DuplexStream) -> anyhow::Result<()> {
    let mut zip = ZipFileWriter::with_tokio(writer);
    let marked = |row: &ImageRow| with_markup && row.markup_count > 0;
    for (row, name) in rows.iter().zip(photos::zip_names(rows, marked)) {
        let bytes = if marked(row) {
            let drawn = match crate::domain::media::markup::shapes_of(&state.svc, &row.id).await {
                Ok((_, shapes)) => flattened(state, row, shapes).await,
                Err(err) => Err(err),
            };
            match drawn {
                Ok(bytes) => bytes::Bytes::from(bytes),
                Err(err) => {
                    tracing::warn!(image = %row.id, error = %err, "a marked-up photo is missing from its zip");
                    continue;
                }
            }
        } else {
            let key = photo_keys(&row.storage_key, extension_for(&row.content_type)).original;
            match state.photos.get(&key).await {
                Ok(bytes) => bytes,
                Err(err) => {
                    tracing::warn!(%key, error = %err, "a photo is missing from its zip");
                    continue;
                }
            }
        };
        // Photos are already compressed: stored entries cost no CPU and stream at once.
        let entry = ZipEntryBuilder::new(name.into(), Compression::Stored).last_modification_date(zip_date(row.created_at).into());
        zip.write_entry_whole(entry, &bytes).await?;
    }
    zip.close().await?;
    Ok(())
}

fn zip_date(ms: i64) -> ZipDateTimeBuilder {
    let at = time::OffsetDateTime::from_unix_timestamp(ms / 1000).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    ZipDateTimeBuilder::new()
        .year(at.year())
        .month(u32::from(u8::from(at.month())))
        .day(u32::from(at.day()))
        .hour(u32::from(at.hour()))
        .minute(u32::from(at.minute()))
        .second(u32::from(at.second()))
}
