//! A project's timeline: one row per thing that happened, written in the
//! transaction of the change it records, read newest first by (created_at, id).

use super::{Db, Result};

pub use sitecast_store_core::{ActivityRow};

pub async fn insert<'a>(db: impl Into<Db<'a>>, a: &ActivityRow) -> Result<()> {
    backend!(db, activity::insert(a))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<ActivityRow>> {
    backend!(db, activity::find(id))
}

/// Up to `limit` of a project's entries, newest first, strictly older than `before`
/// (created_at, id) when given: a keyset page, so entries added meanwhile (all newer)
/// neither repeat nor hide older ones.
pub async fn page<'a>(db: impl Into<Db<'a>>, project_id: &str, before: Option<(i64, &str)>, limit: i64) -> Result<Vec<ActivityRow>> {
    backend!(db, activity::page(project_id, before, limit))
}

/// Deletes the entries about `subject_id` (a deleted comment's); answers their ids.
pub async fn delete_by_subject<'a>(db: impl Into<Db<'a>>, subject_id: &str) -> Result<Vec<String>> {
    backend!(db, activity::delete_by_subject(subject_id))
}

/// Deletes the entries about the comments on a photo (the photo is being deleted and
/// its comments with it); answers their ids. Call before deleting the photo.
pub async fn delete_for_comments_of_image<'a>(db: impl Into<Db<'a>>, image_id: &str) -> Result<Vec<String>> {
    backend!(db, activity::delete_for_comments_of_image(image_id))
}

/// How many entries a project has (tests and the demo seed's idempotence).
pub async fn count<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<i64> {
    backend!(db, activity::count(project_id))
}
