//! Progress reports (docs/FEATURES.md, "Progress reports"): their rows and progress.

use super::{Db, Result};

pub use sitecast_store_core::ReportRow;

/// The most reports a project's list shows.
pub const LIST_LIMIT: i64 = 100;

/// A new report, with what it shows as JSON text (`content`).
pub async fn insert<'a>(db: impl Into<Db<'a>>, r: &ReportRow, content: &str) -> Result<()> {
    backend!(db, reports::insert(r, content))
}

/// What a report shows as it was made (JSON text): `None` when there is no such report,
/// `Some(None)` for one made before its content was kept.
pub async fn content<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<Option<String>>> {
    backend!(db, reports::content(id))
}

/// Records that a report was mailed to `to` (a display name); false when it is gone.
pub async fn mark_mailed<'a>(db: impl Into<Db<'a>>, id: &str, to: &str, now: i64) -> Result<bool> {
    backend!(db, reports::mark_mailed(id, to, now))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<ReportRow>> {
    backend!(db, reports::find(id))
}

/// A project's reports, newest first (at most `LIST_LIMIT`).
pub async fn list_for_project<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<Vec<ReportRow>> {
    backend!(db, reports::list_for_project(project_id, LIST_LIMIT))
}

/// Moves a report being made on to `done` photos; false when it is no longer being made.
pub async fn progress<'a>(db: impl Into<Db<'a>>, id: &str, done: i32, now: i64) -> Result<bool> {
    backend!(db, reports::progress(id, done, now))
}

/// Marks a report being made ready; false when it is gone or no longer being made.
pub async fn finish<'a>(db: impl Into<Db<'a>>, id: &str, pages: i32, byte_size: i64, storage_key: &str, now: i64) -> Result<bool> {
    backend!(db, reports::finish(id, pages, byte_size, storage_key, now))
}

/// Marks a report being made failed; false when it is not being made.
pub async fn fail<'a>(db: impl Into<Db<'a>>, id: &str, error: &str, now: i64) -> Result<bool> {
    backend!(db, reports::fail(id, error, now))
}

/// Marks failed every report being made that has not moved since `before`; answers
/// their ids and projects.
pub async fn fail_stale<'a>(db: impl Into<Db<'a>>, before: i64, error: &str, now: i64) -> Result<Vec<(String, String)>> {
    backend!(db, reports::fail_stale(before, error, now))
}

/// Deletes a report row: `None` when there was none, else its stored file's key.
pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<Option<String>>> {
    backend!(db, reports::delete(id))
}

/// The stored files of these projects' reports.
pub async fn storage_keys_of_projects<'a>(db: impl Into<Db<'a>>, project_ids: &[String]) -> Result<Vec<String>> {
    backend!(db, reports::storage_keys_of_projects(project_ids))
}
