//! Builder companies (docs/FEATURES.md, "Builder companies").

use super::{Db, Result};

pub use sitecast_store_core::CompanyRow;

pub async fn insert<'a>(db: impl Into<Db<'a>>, id: &str, name: &str, now: i64) -> Result<()> {
    backend!(db, companies::insert(id, name, now))
}

pub async fn find<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<CompanyRow>> {
    backend!(db, companies::find(id))
}

/// Every company, by name.
pub async fn list_all<'a>(db: impl Into<Db<'a>>) -> Result<Vec<CompanyRow>> {
    backend!(db, companies::list_all())
}

/// Renames it (`name`), or only moves its version on (its members or projects changed).
pub async fn touch<'a>(db: impl Into<Db<'a>>, id: &str, name: Option<&str>, now: i64) -> Result<bool> {
    backend!(db, companies::touch(id, name, now))
}

/// Its projects go with it; remove its members' accounts first.
pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, companies::delete(id))
}
