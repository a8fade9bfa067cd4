//! Keys the server signs with, stored once for every instance to share.

use super::{Db, Result};

/// The key called `name`; `fresh` becomes it when there is none yet (the first
/// instance to ask wins, the others read what it stored). Read first, so that once the
/// key exists this never writes (it is called inside other writers' transactions on
/// SQLite's single writer).
pub async fn get_or_create<'a>(db: impl Into<Db<'a>>, name: &str, fresh: &str) -> Result<String> {
    backend!(db, keys::get_or_create(name, fresh))
}
