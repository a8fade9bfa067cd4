//! A progress report's PDF (docs/FEATURES.md, "Progress reports"), after the policy allows it:
//! to a user who may see the project's reports, or to the guest of that report's own
//! link. A report neither may see is answered like one that does not exist.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::{get, web, HttpResponse};
use serde::Deserialize;

use super::session::Viewer;
use super::AppState;
use crate::domain::shared::policy::Actor;
use crate::domain::sharing::reports;
use crate::error::Error;
use protocol::ErrorCode;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::scope("/reports").service(pdf));
}

#[derive(Deserialize)]
struct PdfQuery {
    /// `?inline=1` (or `true`): shown in the browser's viewer rather than saved.
    inline: Option<String>,
}

#[get("/{id}/pdf")]
async fn pdf(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<String>,
    query: web::Query<PdfQuery>,
) -> Result<HttpResponse, Error> {
    let (bytes, name) = pdf_for(&state, &viewer, &id).await?;
    let disposition = if matches!(query.inline.as_deref(), Some("1" | "true")) {
        DispositionType::Inline
    } else {
        DispositionType::Attachment
    };
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header(ContentDisposition { disposition, parameters: vec![DispositionParam::Filename(name)] })
        // Per-user authorised bytes: never kept by a shared cache.
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes))
}

/// The user's own access first, then the report link the browser holds; neither widens
/// the other.
async fn pdf_for(state: &AppState, viewer: &Viewer, id: &str) -> Result<(bytes::Bytes, String), Error> {
    let mut refusal = Error::new(ErrorCode::NotFound, reports::REPORT_NOT_FOUND);
    if let Some(session) = &viewer.user {
        match reports::pdf(&state.svc, &Actor::of(&session.user), id).await {
            Ok(found) => return Ok(found),
            Err(err) => refusal = err,
        }
    }
    match viewer.guest_pass(&state.svc).await {
        Some(pass) => reports::pdf_for_guest(&state.svc, &pass.guest, id).await,
        None => Err(viewer.refused(refusal)),
    }
}
