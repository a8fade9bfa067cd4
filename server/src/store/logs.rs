
use super::{Db, Result};

pub async fn insert<'a>(db: impl Into<Db<'a>>, id: &str, user_id: &str, level: &str, message: &str, data: Option<&str>, now: i64) -> Result<()> {
    backend!(db, logs::insert(id, user_id, level, message, data, now))
}
