//! Photo bytes, each only after the policy allows it. A photo the user may not see is
//! answered exactly like a photo that does not exist, so ids cannot be probed.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType, EntityTag};
use actix_web::{get, web, HttpRequest, HttpResponse};
use protocol::ErrorCode;

use super::session::CurrentSession;
use crate::app::AppState;
use crate::domain::policy::{self, Actor, ProjectRef};
use crate::domain::views;
use crate::error::Error;
use crate::media::{extension_for, photo_keys, StorageError};
use crate::store::{images, projects};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(image_bytes);
}

const IMAGE_NOT_FOUND: &str = "Image not found";

#[get("/media/images/{id}/{variant}")]
async fn image_bytes(
    req: HttpRequest,
    state: web::Data<AppState>,
    CurrentSession(session): CurrentSession,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, Error> {
    let (id, variant) = path.into_inner();
    let not_found = || Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND);
    let image = images::find(state.store.pool(), &id).await?.ok_or_else(not_found)?;
    let project = projects::find(state.store.pool(), &image.project_id).await?.ok_or_else(not_found)?;
    let actor = Actor { id: session.user.id.clone(), role: views::profile(&session.user).role };
    let target = ProjectRef { homeowner_id: &project.homeowner_id, builder_id: project.builder_id.as_deref() };
    if !policy::can_view_project(&actor, target) {
        return Err(not_found());
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
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag.to_string() || t.trim() == "*"));
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
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if variant == "original" {
        resp.insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(image.original_name.clone())],
        });
    }
    Ok(resp.body(bytes))
}
