//! Comments on photos. Adding or deleting one changes its photo's `comment_count` in
//! the same statement batch, so the count a gallery shows is never off by a comment.

use super::{Db, Result};

pub use sitecast_store_core::{CommentRow, NewComment};

/// Inserts the comment and counts it on its photo (call inside a transaction).
pub async fn insert(tx: &mut super::Tx, c: &NewComment<'_>) -> Result<()> {
    backend!(tx, comments::insert(c))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<CommentRow>> {
    backend!(db, comments::find(id))
}

/// A photo's thread, oldest first.
pub async fn list_for_image<'a>(db: impl Into<Db<'a>>, image_id: &str) -> Result<Vec<CommentRow>> {
    backend!(db, comments::list_for_image(image_id))
}

/// False when the comment does not exist.
pub async fn update_body<'a>(db: impl Into<Db<'a>>, id: &str, body: &str, now: i64) -> Result<bool> {
    backend!(db, comments::update_body(id, body, now))
}

/// Deletes the comment and uncounts it (inside a transaction); false when it did not
/// exist.
pub async fn delete(tx: &mut super::Tx, id: &str, image_id: &str) -> Result<bool> {
    backend!(tx, comments::delete(id, image_id))
}

/// A photo's comment count as stored.
pub async fn count_of_image<'a>(db: impl Into<Db<'a>>, image_id: &str) -> Result<i64> {
    backend!(db, comments::count_of_image(image_id))
}
