//! Change notices between instances sharing a Postgres database (live::bus): NOTIFY
//! here, LISTEN on a connection of the bus's own.

use super::{Result, Store, StoreError};

/// Sends `payload` on `channel` to every instance listening; delivered when the
/// sending transaction (here, none) commits.
pub async fn notify(store: &Store, channel: &str, payload: &str) -> Result<()> {
    match store {
        Store::Postgres(pool) => sitecast_store_postgres::bus::notify(&mut *pool.acquire().await?, channel, payload).await,
        Store::Sqlite(_) => Err(StoreError::Unsupported("one SQLite instance has no one to notify")),
    }
}
