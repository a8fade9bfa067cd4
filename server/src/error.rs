//! The server's one error type: the wire error (code + SPEC.md message) plus an internal
//! cause that is logged and never sent. Mapped to HTTP in `http::error` and to a
//! WebSocket reply in `ws`, nowhere else.

use std::time::Duration;

use protocol::{ApiError, ErrorCode, FieldError};

use crate::store::StoreError;

pub const UNEXPECTED: &str = "An unexpected error occurred. Please try again.";

#[derive(Debug)]
pub struct Error {
    pub api: ApiError,
    /// For `rate_limited`: when the client may try again.
    pub retry_after: Option<Duration>,
    cause: Option<Box<dyn std::error::Error + Send + Sync>>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { api: ApiError::new(code, message), retry_after: None, cause: None }
    }

    pub fn validation(fields: Vec<FieldError>) -> Self {
        Error { api: ApiError::validation(fields), retry_after: None, cause: None }
    }

    /// A validation error on one field.
    pub fn field(field: &str, message: &str) -> Self {
        Error::validation(vec![FieldError { field: field.to_owned(), message: message.to_owned() }])
    }

    pub fn internal(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Error {
            api: ApiError::new(ErrorCode::Internal, UNEXPECTED),
            retry_after: None,
            cause: Some(cause.into()),
        }
    }

    pub fn unauthorized() -> Self {
        Error::new(ErrorCode::Unauthorized, "Auth session missing!")
    }

    pub fn rate_limited(message: impl Into<String>, retry_after: Duration) -> Self {
        Error { retry_after: Some(retry_after), ..Error::new(ErrorCode::RateLimited, message) }
    }

    pub fn code(&self) -> ErrorCode {
        self.api.code
    }

    pub fn cause(&self) -> Option<&(dyn std::error::Error + Send + Sync)> {
        self.cause.as_deref()
    }

    /// Logs the internal cause, if any; called once at the edge that answers the client.
    pub fn log(&self, context: &str) {
        if let Some(cause) = &self.cause {
            tracing::error!(%context, error = %cause, "request failed");
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "{} ({cause})", self.api),
            None => write!(f, "{}", self.api),
        }
    }
}

impl std::error::Error for Error {}

/// A company keeps an owner (the companies' rule, and the database's: a race past the
/// use case's check is refused by the schema and reads the same).
pub const NEEDS_AN_OWNER: &str = "A company needs an owner: make another member its owner first.";

impl From<StoreError> for Error {
    fn from(err: StoreError) -> Self {
        match err {
            // The database's own rules, raced past a use case's check, read as that check.
            StoreError::Invariant(sitecast_store_core::COMPANY_NEEDS_OWNER) => Error::new(ErrorCode::Conflict, NEEDS_AN_OWNER),
            err => Error::internal(err),
        }
    }
}

impl From<crate::media::StorageError> for Error {
    fn from(err: crate::media::StorageError) -> Self {
        Error::internal(err)
    }
}
