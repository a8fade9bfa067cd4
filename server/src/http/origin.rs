//! Cross-site request defence in depth: besides SameSite cookies, a state-changing
//! request or WebSocket upgrade that names a foreign Origin is refused with 403.
//! Requests without an Origin (curl, load tools) are let through: browsers always send
//! one on these requests, and the session cookie is still required.

use actix_web::body::EitherBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse};
use protocol::{ApiError, ErrorCode};

use super::AppState;

pub const FOREIGN_ORIGIN: &str = "Requests from this origin are not allowed.";

/// Whether the request's Origin, if any, is one of ours.
pub fn origin_allowed(req: &HttpRequest, allowed: &[String]) -> bool {
    match req.headers().get(header::ORIGIN) {
        None => true,
        Some(origin) => origin
            .to_str()
            .map(|o| allowed.iter().any(|a| a.eq_ignore_ascii_case(o.trim_end_matches('/'))))
            .unwrap_or(false),
    }
}

pub fn forbidden() -> HttpResponse {
    HttpResponse::Forbidden().json(ApiError::new(ErrorCode::Forbidden, FOREIGN_ORIGIN))
}

pub async fn guard(
    req: ServiceRequest,
    next: Next<impl actix_web::body::MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl actix_web::body::MessageBody>>, actix_web::Error> {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let allowed = req
        .app_data::<web::Data<AppState>>()
        .map(|s| safe || origin_allowed(req.request(), &s.origins))
        .unwrap_or(true);
    if !allowed {
        return Ok(req.into_response(forbidden()).map_into_right_body());
    }
    next.call(req).await.map(ServiceResponse::map_into_left_body)
}
