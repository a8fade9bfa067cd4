
use super::{Db, Result};

pub use sitecast_store_core::{ImageRow, Meta};

/// Inserts a photo. Its milestone tag is kept only if the milestone is still one of
/// the project's: an upload tagged at its start may finish after the milestone went.
pub async fn insert<'a>(db: impl Into<Db<'a>>, img: &ImageRow) -> Result<()> {
    backend!(db, images::insert(img))
}

/// A project's photos, newest first (SPEC.md §7 images) by the date they show: taken
/// (EXIF) when known, uploaded otherwise; equal dates by upload time, then id, so the
/// order is the same on every read and matches the web gallery's.
pub async fn list_for_project<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<Vec<ImageRow>> {
    backend!(db, images::list_for_project(project_id))
}

/// A page of a project's photos in `list_for_project`'s order: the first `limit`, or
/// the `limit` after the photo `after` names by (shown date, upload time, id).
pub async fn page_for_project<'a>(db: impl Into<Db<'a>>, project_id: &str, after: Option<(i64, i64, &str)>, limit: i64) -> Result<Vec<ImageRow>> {
    backend!(db, images::page_for_project(project_id, after, limit))
}

pub async fn count_for_project<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<i64> {
    backend!(db, images::count_for_project(project_id))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<ImageRow>> {
    backend!(db, images::find(id))
}

/// Every stored-object prefix the database knows of.
pub async fn all_storage_keys<'a>(db: impl Into<Db<'a>>) -> Result<Vec<String>> {
    backend!(db, images::all_storage_keys())
}

/// Stored-object prefixes of every photo of the given projects.
pub async fn storage_keys_of_projects<'a>(db: impl Into<Db<'a>>, project_ids: &[String]) -> Result<Vec<(String, String)>> {
    backend!(db, images::storage_keys_of_projects(project_ids))
}

/// Caption, category and milestone tag; bumps the version. False when the photo does
/// not exist.
pub async fn update_meta<'a>(db: impl Into<Db<'a>>, id: &str, meta: &Meta<'_>, now: i64) -> Result<bool> {
    backend!(db, images::update_meta(id, meta, now))
}

pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, images::delete(id))
}

/// A user's favourites among a project's photos, newest photo first.
pub async fn favourites_in_project<'a>(db: impl Into<Db<'a>>, user_id: &str, project_id: &str) -> Result<Vec<ImageRow>> {
    backend!(db, images::favourites_in_project(user_id, project_id))
}

/// Ids of a user's favourites in a project (SPEC.md §7: only imageId is read back).
pub async fn favourite_ids<'a>(db: impl Into<Db<'a>>, user_id: &str, project_id: &str) -> Result<Vec<String>> {
    backend!(db, images::favourite_ids(user_id, project_id))
}

/// Adds a favourite; one that exists already is left as it is (and is no error).
pub async fn add_favourite<'a>(db: impl Into<Db<'a>>, user_id: &str, image: &ImageRow, now: i64) -> Result<bool> {
    backend!(db, images::add_favourite(user_id, image, now))
}

pub async fn remove_favourite<'a>(db: impl Into<Db<'a>>, user_id: &str, image_id: &str) -> Result<bool> {
    backend!(db, images::remove_favourite(user_id, image_id))
}

/// Whether a user has favourited a photo.
pub async fn is_favourite<'a>(db: impl Into<Db<'a>>, user_id: &str, image_id: &str) -> Result<bool> {
    backend!(db, images::is_favourite(user_id, image_id))
}

/// Untags every photo tagged with a milestone (before the milestone is deleted, so the
/// photos' versions move with their tag); answers their ids.
pub async fn untag_milestone<'a>(db: impl Into<Db<'a>>, milestone_id: &str, now: i64) -> Result<Vec<String>> {
    backend!(db, images::untag_milestone(milestone_id, now))
}

/// The first `limit` photos of one upload batch (a site visit), in the order they
/// were stored.
pub async fn of_batch<'a>(db: impl Into<Db<'a>>, batch_id: &str, limit: i64) -> Result<Vec<String>> {
    backend!(db, images::of_batch(batch_id, limit))
}

/// Which of `ids` are photos of the project still: one query for a page of timeline
/// entries' strips.
pub async fn existing_of_project<'a>(db: impl Into<Db<'a>>, project_id: &str, ids: &[String]) -> Result<Vec<String>> {
    backend!(db, images::existing_of_project(project_id, ids))
}

/// Replaces a photo's tags; bumps its version. False when the photo does not exist.
pub async fn set_tags<'a>(db: impl Into<Db<'a>>, id: &str, tags: &[String], now: i64) -> Result<bool> {
    backend!(db, images::set_tags(id, tags, now))
}

/// The photos of `ids` that exist, in no particular order.
pub async fn find_many<'a>(db: impl Into<Db<'a>>, ids: &[String]) -> Result<Vec<ImageRow>> {
    backend!(db, images::find_many(ids))
}

/// Each tag a project's photos carry (case aside), with how many carry it.
pub async fn tag_counts<'a>(db: impl Into<Db<'a>>, project_id: &str) -> Result<Vec<(String, i64)>> {
    backend!(db, images::tag_counts(project_id))
}

/// How many photos have a location kept.
pub async fn count_with_location<'a>(db: impl Into<Db<'a>>) -> Result<i64> {
    backend!(db, images::count_with_location())
}

/// Forgets every photo's location; answers how many had one.
pub async fn forget_locations<'a>(db: impl Into<Db<'a>>) -> Result<u64> {
    backend!(db, images::forget_locations())
}
