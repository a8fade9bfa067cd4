//! Guest links: read-only links to one project, stored by the hash of their
//! token. The store keeps rows; whether a link still opens is the domain's call.

use super::{Db, Result};

pub use sitecast_store_core::{GuestLinkRow, NewGuestLink};

pub async fn insert<'a>(db: impl Into<Db<'a>>, link: &NewGuestLink<'_>) -> Result<()> {
    backend!(db, guest_links::insert(link))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<GuestLinkRow>> {
    backend!(db, guest_links::find(id))
}

pub async fn find_by_token<'a>(db: impl Into<Db<'a>>, token_hash: &str) -> Result<Option<GuestLinkRow>> {
    backend!(db, guest_links::find_by_token(token_hash))
}

/// A project's links, newest first: all of them, or those one person made.
pub async fn list_for_project<'a>(db: impl Into<Db<'a>>, project_id: &str, made_by: Option<&str>) -> Result<Vec<GuestLinkRow>> {
    backend!(db, guest_links::list_for_project(project_id, made_by))
}

/// Revokes a link once: false when it was revoked already.
pub async fn revoke<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<bool> {
    backend!(db, guest_links::revoke(id, now))
}

pub async fn touch<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, guest_links::touch(id, now))
}

/// The links that show a report (they go with it).
pub async fn ids_for_report<'a>(db: impl Into<Db<'a>>, report_id: &str) -> Result<Vec<String>> {
    backend!(db, guest_links::ids_for_report(report_id))
}
