
use super::{Db, Result};

pub use sitecast_store_core::{ProjectRow, ProjectFields, ProjectScope};

/// Projects in scope, most recently updated first (SPEC.md §2 projects page).
pub async fn list<'a>(db: impl Into<Db<'a>>, scope: &ProjectScope) -> Result<Vec<ProjectRow>> {
    backend!(db, projects::list(scope))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<ProjectRow>> {
    backend!(db, projects::find(id))
}

pub async fn insert<'a>(db: impl Into<Db<'a>>, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    backend!(db, projects::insert(id, f, now))
}

pub async fn set_thumbnail<'a>(db: impl Into<Db<'a>>, id: &str, image_id: Option<&str>, now: i64) -> Result<()> {
    backend!(db, projects::set_thumbnail(id, image_id, now))
}

pub async fn count_for_homeowner<'a>(db: impl Into<Db<'a>>, homeowner_id: &str) -> Result<i64> {
    backend!(db, projects::count_for_homeowner(homeowner_id))
}

/// Writes every field (as given) and bumps the version.
pub async fn update<'a>(db: impl Into<Db<'a>>, id: &str, f: &ProjectFields<'_>, now: i64) -> Result<()> {
    backend!(db, projects::update(id, f, now))
}

/// As `update`, only if the project is still at `version`: false when another change
/// (on this instance or another) got there first, so nothing it did is overwritten.
pub async fn update_at_version<'a>(db: impl Into<Db<'a>>, id: &str, f: &ProjectFields<'_>, now: i64, version: i64) -> Result<bool> {
    backend!(db, projects::update_at_version(id, f, now, version))
}

pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, projects::delete(id))
}

/// Ids and versions of a homeowner's projects (deleted with them).
pub async fn ids_of_homeowner<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<(String, i64)>> {
    backend!(db, projects::ids_of_homeowner(user_id))
}

/// Ids and versions of a company's projects (deleted with it).
pub async fn ids_of_company<'a>(db: impl Into<Db<'a>>, company_id: &str) -> Result<Vec<(String, i64)>> {
    backend!(db, projects::ids_of_company(company_id))
}

/// The ids of the projects in scope.
pub async fn ids_in_scope<'a>(db: impl Into<Db<'a>>, scope: &ProjectScope) -> Result<Vec<String>> {
    backend!(db, projects::ids_in_scope(scope))
}

/// How many projects a homeowner has and how many photos they hold: what deleting the
/// homeowner removes with them.
pub async fn deletion_counts<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<(i64, i64)> {
    backend!(db, projects::deletion_counts(user_id))
}

/// How many projects a company builds and how many photos they hold.
pub async fn company_deletion_counts<'a>(db: impl Into<Db<'a>>, company_id: &str) -> Result<(i64, i64)> {
    backend!(db, projects::company_deletion_counts(company_id))
}

/// For a builder's homeowner table: how many of each homeowner's projects they see.
pub async fn homeowner_counts_in_company<'a>(db: impl Into<Db<'a>>, company_id: &str, crew_of: Option<&str>) -> Result<Vec<(String, i64)>> {
    backend!(db, projects::homeowner_counts_in_company(company_id, crew_of))
}

/// Makes the project's crew exactly `user_ids`; the caller moves the project's version on.
pub async fn set_crew<'a>(db: impl Into<Db<'a>>, id: &str, user_ids: &[String], now: i64) -> Result<()> {
    backend!(db, projects::set_crew(id, user_ids, now))
}

/// The id of the project's newest photo, if it has any.
pub async fn newest_image_id<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<String>> {
    backend!(db, projects::newest_image_id(id))
}

/// Points the project's thumbnail at its newest photo (SPEC.md §4), or at none when it
/// has no photos left, unless an admin picked one that still exists (deleting the
/// picked photo nulls the column, which hands the thumbnail back to the newest).
/// One statement, so it is right however uploads and deletes interleave; the version
/// moves only when the thumbnail does.
pub async fn refresh_thumbnail<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<bool> {
    backend!(db, projects::refresh_thumbnail(id, now))
}
