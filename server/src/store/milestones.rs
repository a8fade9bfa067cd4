//! A project's milestones, in their order. Who may change them, and how the
//! list stays dense, is `domain::projects::milestones`'s to decide; this only reads and writes.

use super::{Db, Result};

pub use sitecast_store_core::{MilestoneRow};

/// A project's milestones in order.
pub async fn list<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<Vec<MilestoneRow>> {
    backend!(db, milestones::list(project_id))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<MilestoneRow>> {
    backend!(db, milestones::find(id))
}

pub async fn insert<'a>(db: impl Into<Db<'a>>, m: &MilestoneRow) -> Result<()> {
    backend!(db, milestones::insert(m))
}

/// Writes a milestone's changeable fields as given.
pub async fn update<'a>(db: impl Into<Db<'a>>, m: &MilestoneRow) -> Result<()> {
    backend!(db, milestones::update(m))
}

/// Deletes a milestone; its photos lose their tag (ON DELETE SET NULL).
pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, milestones::delete(id))
}
