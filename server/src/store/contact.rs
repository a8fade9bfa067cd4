
use super::{Db, Result};

pub use sitecast_store_core::{NewContactMessage};

pub async fn insert<'a>(db: impl Into<Db<'a>>, m: &NewContactMessage<'_>) -> Result<()> {
    backend!(db, contact::insert(m))
}
