//! The one error shape on the wire: a stable code and a human message (SPEC.md §8).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request could not be read (malformed frame or body).
    BadRequest,
    /// The request was read but a field breaks a rule; `fields` says which.
    Validation,
    /// No valid session.
    Unauthorized,
    InvalidCredentials,
    EmailNotConfirmed,
    /// A one-time link that is unknown, used or expired.
    InvalidToken,
    Forbidden,
    NotFound,
    Conflict,
    UserExists,
    /// An update that would change nothing (SPEC.md §5 "No changes to update").
    NoChanges,
    RateLimited,
    TooLarge,
    UnsupportedMediaType,
    /// The action wants a second factor proved in the last 15 minutes; the
    /// client asks for one (`verify_factor`) and tries again.
    FactorRequired,
    /// This account must enrol a second factor before anything else.
    EnrolRequired,
    Internal,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    /// Per-field messages for `validation` errors; empty otherwise.
    #[serde(default)]
    pub fields: Vec<FieldError>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError { code, message: message.into(), fields: Vec::new() }
    }

    /// A validation error whose message is the first field's message.
    pub fn validation(fields: Vec<FieldError>) -> Self {
        let message = fields
            .first()
            .map(|f| f.message.clone())
            .unwrap_or_else(|| "Invalid request.".to_owned());
        ApiError { code: ErrorCode::Validation, message, fields }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}
