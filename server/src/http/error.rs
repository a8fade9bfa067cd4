//! The one place a domain error becomes an HTTP response.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use protocol::{ApiError, ErrorCode};

use crate::error::Error;

pub fn status_for(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::BadRequest | ErrorCode::Validation | ErrorCode::InvalidToken | ErrorCode::NoChanges => {
            StatusCode::BAD_REQUEST
        }
        ErrorCode::Unauthorized | ErrorCode::InvalidCredentials => StatusCode::UNAUTHORIZED,
        ErrorCode::EmailNotConfirmed | ErrorCode::Forbidden | ErrorCode::FactorRequired | ErrorCode::EnrolRequired => {
            StatusCode::FORBIDDEN
        }
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::Conflict | ErrorCode::UserExists => StatusCode::CONFLICT,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ResponseError for Error {
    fn status_code(&self) -> StatusCode {
        status_for(self.code())
    }

    fn error_response(&self) -> HttpResponse {
        self.log("http");
        let mut resp = HttpResponse::build(self.status_code());
        if let Some(wait) = self.retry_after {
            resp.insert_header((header::RETRY_AFTER, wait.as_secs().max(1).to_string()));
        }
        resp.json(&self.api)
    }
}

/// Unknown `/api/...` and `/media/...` paths answer JSON, not the web app's HTML.
pub async fn api_not_found() -> Result<HttpResponse, Error> {
    Err(Error::new(ErrorCode::NotFound, "Not found"))
}

/// Malformed or oversize JSON bodies get our error shape instead of actix's text.
pub fn json_error(err: actix_web::error::JsonPayloadError, _: &actix_web::HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as J;
    let api = match &err {
        J::OverflowKnownLength { .. } | J::Overflow { .. } => {
            ApiError::new(ErrorCode::TooLarge, "Request body is too large.")
        }
        J::ContentType => ApiError::new(ErrorCode::UnsupportedMediaType, "Expected a JSON body."),
        _ => ApiError::new(ErrorCode::BadRequest, format!("Invalid request body: {err}")),
    };
    let status = status_for(api.code);
    actix_web::error::InternalError::from_response(err, HttpResponse::build(status).json(api)).into()
}

pub fn query_error(err: actix_web::error::QueryPayloadError, _: &actix_web::HttpRequest) -> actix_web::Error {
    let api = ApiError::new(ErrorCode::BadRequest, format!("Invalid query: {err}"));
    actix_web::error::InternalError::from_response(err, HttpResponse::BadRequest().json(api)).into()
}

pub fn path_error(err: actix_web::error::PathError, _: &actix_web::HttpRequest) -> actix_web::Error {
    let api = ApiError::new(ErrorCode::NotFound, "Not found");
    actix_web::error::InternalError::from_response(err, HttpResponse::NotFound().json(api)).into()
}
