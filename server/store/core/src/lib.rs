//! What every store backend shares: the rows it returns and the fields it writes, in the
//! domain's own types (ids as text, times as UTC milliseconds, enums as enums), and the
//! one error type of the store layer. The SQL lives in one crate per backend
//! (`sitecast-store-sqlite`, `sitecast-store-postgres`), each in its database's native
//! types and checked at compile time against its own schema; the server picks one at
//! start-up from the database URL.

pub mod rows;

#[cfg(feature = "examples")]
mod examples;
mod error;
mod migrations;
mod stored;

pub use error::{Result, StoreError, COMPANY_NEEDS_OWNER};
pub use migrations::applied_version;
pub use rows::*;
pub use stored::{decode, decode_opt, Stored, TokenKind};

/// 9999-12-31T23:59:59.999Z, later than any time a row holds (EXIF years have four
/// digits) and still a time both backends store: a page "after" it is the first page.
pub const PAST_EVERY_PHOTO: i64 = 253_402_300_799_999;

/// Milliseconds since the Unix epoch, the time unit of the domain.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
