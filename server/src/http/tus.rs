//! Resumable uploads over tus 1.0 (https://tus.io/protocols/resumable-upload): the core
//! protocol with the creation, termination and expiration extensions, at
//! `/api/uploads`. The browser's `tus-js-client` speaks it; so can any tus client.
//!
//! This is how photos arrive, from the web app or any other client. The session cookie,
//! the Origin check (the middleware: POST, PATCH and DELETE), and the domain's policy
//! at creation and at every later request. This module only reads and writes tus
//! headers; what an upload may do is `domain::media::uploads`, and a finished one's photo
//! takes its turn among its project's changes through `Live`.
//!
//! Creation metadata (`Upload-Metadata`, base64 values): `projectId` (required),
//! `filename`, `caption`, `category`, `tags` (names joined with commas), `milestoneId` (a milestone of the project to tag
//! the photo with), and for a batch `batchId`, `batchSize`, `note`; or `held` (`1`): sent
//! ahead of publishing, the upload waits whole for `PublishUploads`, which names its
//! visit, caption and tags.
//! A finished upload's answers (the last PATCH, and HEAD afterwards) say what it became:
//! `Sitecast-Photo: <photo id>`, or `Sitecast-Refused: <reason, percent-encoded>`; a
//! held upload whose bytes are all here answers `Sitecast-Held: 1` until published.

use std::time::{Duration, UNIX_EPOCH};

use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue, HttpDate};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use protocol::{ErrorCode, ImageCategory};

use super::session::CurrentSession;
use super::AppState;
use crate::domain::media::photos::MAX_FILE_BYTES;
use crate::domain::shared::policy::Actor;
use crate::domain::media::uploads::{self, Finished, NewBatch, NewUpload, Status};
use crate::error::Error;

pub const TUS_VERSION: &str = "1.0.0";
const EXTENSIONS: &str = "creation,termination,expiration";
pub const OFFSET_CONTENT_TYPE: &str = "application/offset+octet-stream";

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/uploads")
            .route(web::method(actix_web::http::Method::OPTIONS).to(options))
            .route(web::post().to(create)),
    )
    .service(
        web::resource("/uploads/{id}")
            .route(web::method(actix_web::http::Method::OPTIONS).to(options))
            .route(web::head().to(head))
            .route(web::patch().to(patch))
            .route(web::delete().to(terminate)),
    );
}

fn h(name: &'static str) -> HeaderName {
    HeaderName::from_static(name)
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

/// Every tus answer, errors included, names the protocol version.
fn tus_response(status: StatusCode) -> actix_web::HttpResponseBuilder {
    let mut resp = HttpResponse::build(status);
    resp.insert_header((h("tus-resumable"), TUS_VERSION));
    resp.insert_header((header::CACHE_CONTROL, "no-store"));
    resp
}

fn failed(err: Error) -> HttpResponse {
    let mut resp = err.error_response();
    resp.headers_mut().insert(h("tus-resumable"), HeaderValue::from_static(TUS_VERSION));
    resp
}

fn bad_request(message: &str) -> HttpResponse {
    failed(Error::new(ErrorCode::BadRequest, message))
}

/// The 412 for a client that does not speak our version; `None` for one that does.
fn version_refused(req: &HttpRequest) -> Option<HttpResponse> {
    if header_str(req.headers(), "tus-resumable") == Some(TUS_VERSION) {
        return None;
    }
    Some(
        tus_response(StatusCode::PRECONDITION_FAILED)
            .insert_header((h("tus-version"), TUS_VERSION))
            .json(protocol::ApiError::new(ErrorCode::BadRequest, "This server speaks tus 1.0.0.")),
    )
}

async fn options() -> HttpResponse {
    tus_response(StatusCode::NO_CONTENT)
        .insert_header((h("tus-version"), TUS_VERSION))
        .insert_header((h("tus-extension"), EXTENSIONS))
        .insert_header((h("tus-max-size"), MAX_FILE_BYTES.to_string()))
        .finish()
}

/// `Upload-Metadata`: comma-separated `key base64value` pairs (a value may be absent).
pub fn parse_metadata(raw: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for pair in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mut parts = pair.splitn(2, ' ');
        let key = parts.next()?.to_owned();
        let value = match parts.next() {
            Some(v) => String::from_utf8(base64_decode(v.trim())?).ok()?,
            None => String::new(),
        };
        out.push((key, value));
    }
    Some(out)
}

/// Standard base64, as the tus metadata header carries it; padding is optional (the
/// spec's examples pad, some clients do not).
const METADATA_BASE64: GeneralPurpose =
    GeneralPurpose::new(&alphabet::STANDARD, GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent));

fn base64_decode(input: &str) -> Option<Vec<u8>> {
    METADATA_BASE64.decode(input).ok()
}

/// What stays as it is in a reason sent as a header value: letters, digits and the
/// marks `-_.~` (the rest is what `encodeURIComponent` would escape, and more).
const REASON_KEEPS: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// A reason as an ASCII header value, percent-encoded (the client decodes it with
/// `decodeURIComponent`).
pub fn percent_encode(text: &str) -> String {
    utf8_percent_encode(text, REASON_KEEPS).to_string()
}

fn http_date(ms: i64) -> String {
    HttpDate::from(UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64)).to_string()
}

fn with_status(mut resp: actix_web::HttpResponseBuilder, status: &Status) -> actix_web::HttpResponseBuilder {
    resp.insert_header((h("upload-offset"), status.offset.to_string()));
    resp.insert_header((h("upload-expires"), http_date(status.expires_at)));
    match &status.finished {
        Some(Finished::Photo(id)) => {
            resp.insert_header((h("sitecast-photo"), id.clone()));
        }
        Some(Finished::Refused(reason)) => {
            resp.insert_header((h("sitecast-refused"), percent_encode(reason)));
        }
        None if status.held => {
            resp.insert_header((h("sitecast-held"), "1"));
        }
        None => {}
    }
    resp
}

async fn create(req: HttpRequest, state: web::Data<AppState>, CurrentSession(session): CurrentSession) -> HttpResponse {
    if let Some(resp) = version_refused(&req) {
        return resp;
    }
    let headers = req.headers();
    if headers.contains_key("upload-defer-length") {
        return bad_request("Declare the upload's length when creating it.");
    }
    let Some(length) = header_str(headers, "upload-length").and_then(|v| v.parse::<u64>().ok()) else {
        return bad_request("Upload-Length is required.");
    };
    let Some(metadata) = parse_metadata(header_str(headers, "upload-metadata").unwrap_or_default()) else {
        return bad_request("Upload-Metadata is not valid.");
    };
    let get = |key: &str| metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).filter(|v| !v.is_empty());
    let Some(project_id) = get("projectId") else {
        return bad_request("Upload-Metadata must name the projectId.");
    };
    let category = match get("category") {
        Some(c) => match ImageCategory::parse(&c) {
            Some(c) => Some(c),
            None => return bad_request("Unknown photo category."),
        },
        None => None,
    };
    let batch = match get("batchId") {
        Some(id) => {
            let Some(files) = get("batchSize").and_then(|n| n.parse::<u64>().ok()) else {
                return bad_request("A batch needs its batchSize.");
            };
            Some(NewBatch { id, files, note: get("note") })
        }
        None => None,
    };
    let new = NewUpload {
        project_id,
        file_name: get("filename").or_else(|| get("name")).unwrap_or_default(),
        length,
        caption: get("caption"),
        category,
        batch,
        milestone_id: get("milestoneId"),
        tags: get("tags"),
        held: match get("held").as_deref() {
            None | Some("0") => false,
            Some("1") => true,
            Some(_) => return bad_request("Upload-Metadata's held is 1 or 0."),
        },
    };
    match uploads::create(&state.svc, &Actor::of(&session.user), new).await {
        Ok(status) => {
            let location = format!("/api/uploads/{}", status.id);
            with_status(tus_response(StatusCode::CREATED), &status).insert_header((header::LOCATION, location)).finish()
        }
        Err(err) => failed(err),
    }
}

async fn head(
    req: HttpRequest,
    state: web::Data<AppState>,
    CurrentSession(session): CurrentSession,
    path: web::Path<String>,
) -> HttpResponse {
    if let Some(resp) = version_refused(&req) {
        return resp;
    }
    match uploads::status(&state.svc, &Actor::of(&session.user), &path.into_inner(), &state.live).await {
        Ok(status) => with_status(tus_response(StatusCode::OK), &status)
            .insert_header((h("upload-length"), status.length.to_string()))
            .finish(),
        Err(err) => failed(err),
    }
}

async fn patch(
    req: HttpRequest,
    state: web::Data<AppState>,
    CurrentSession(session): CurrentSession,
    path: web::Path<String>,
    payload: web::Payload,
) -> HttpResponse {
    if let Some(resp) = version_refused(&req) {
        return resp;
    }
    let headers = req.headers();
    if header_str(headers, "content-type").map(str::to_ascii_lowercase).as_deref() != Some(OFFSET_CONTENT_TYPE) {
        return failed(Error::new(ErrorCode::UnsupportedMediaType, "Send upload bytes as application/offset+octet-stream."));
    }
    let Some(offset) = header_str(headers, "upload-offset").and_then(|v| v.parse::<u64>().ok()) else {
        return bad_request("Upload-Offset is required.");
    };
    // A chunk (and the photo it may finish) is counted until its answer goes out: a
    // drain waits for it (`ops::drain`), so a restart does not cut a chunk in half.
    let _in_flight = state.ops.uploads.begin();
    let actor = Actor::of(&session.user);
    match uploads::append(&state.svc, &actor, &path.into_inner(), offset, payload, &state.live).await {
        Ok(status) => with_status(tus_response(StatusCode::NO_CONTENT), &status).finish(),
        Err(err) => failed(err),
    }
}

async fn terminate(
    req: HttpRequest,
    state: web::Data<AppState>,
    CurrentSession(session): CurrentSession,
    path: web::Path<String>,
) -> HttpResponse {
    if let Some(resp) = version_refused(&req) {
        return resp;
    }
    match uploads::terminate(&state.svc, &Actor::of(&session.user), &path.into_inner(), &state.live).await {
        Ok(()) => tus_response(StatusCode::NO_CONTENT).finish(),
        Err(err) => failed(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_pairs_are_base64_decoded() {
        let parsed = parse_metadata("filename a2l0Y2hlbi5qcGc=,projectId cDE, empty,note RnJhbWluZyDinJM=").unwrap();
        assert_eq!(
            parsed,
            vec![
                ("filename".to_owned(), "kitchen.jpg".to_owned()),
                ("projectId".to_owned(), "p1".to_owned()),
                ("empty".to_owned(), String::new()),
                ("note".to_owned(), "Framing ✓".to_owned()),
            ]
        );
        assert!(parse_metadata("filename !!!").is_none());
        assert_eq!(parse_metadata("").unwrap(), vec![]);
    }

    #[test]
    fn reasons_are_ascii_header_values() {
        assert_eq!(percent_encode("Not an image (JPEG) — ok"), "Not%20an%20image%20%28JPEG%29%20%E2%80%94%20ok");
    }
}
