//! A progress report's PDF (issue 28), after the policy allows it: a report the user
//! may not see is answered like one that does not exist.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::{get, web, HttpResponse};
use serde::Deserialize;

use super::session::CurrentSession;
use super::AppState;
use crate::domain::policy::Actor;
use crate::domain::reports;
use crate::error::Error;

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
    session: CurrentSession,
    id: web::Path<String>,
    query: web::Query<PdfQuery>,
) -> Result<HttpResponse, Error> {
    let actor = Actor::of(&session.0.user);
    let (bytes, name) = reports::pdf(&state.svc, &actor, &id).await?;
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
