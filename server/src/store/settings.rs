//! The installation's settings.

use super::{Db, Result};

pub use sitecast_store_core::SettingsRow;

pub async fn get<'a>(db: impl Into<Db<'a>>) -> Result<SettingsRow> {
    backend!(db, settings::get())
}

pub async fn set<'a>(db: impl Into<Db<'a>>, settings: &SettingsRow) -> Result<()> {
    backend!(db, settings::set(settings))
}
