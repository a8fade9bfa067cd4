//! Photo markup (docs/FEATURES.md, "Markup on photos"): a versioned document per photo,
//! replaced whole.

use super::{Db, Result};

pub use sitecast_store_core::MarkupRow;

pub async fn find<'a>(db: impl Into<Db<'a>>, image_id: &str) -> Result<Option<MarkupRow>> {
    backend!(db, markups::find(image_id))
}

/// Stores `m` if the photo's markup is still at `base` (0: none yet) and writes the
/// photo's shape count; false when another change came first (inside a transaction).
pub async fn save(tx: &mut super::Tx, m: &MarkupRow, base: i64, shape_count: i64) -> Result<bool> {
    backend!(tx, markups::save(m, base, shape_count))
}
