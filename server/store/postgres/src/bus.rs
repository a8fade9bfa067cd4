//! Postgres's NOTIFY, which carries live events between instances (the server's
//! live::bus LISTENs on its own connection).

use sitecast_store_core::Result;
use sqlx::PgConnection;

/// Sends `payload` on `channel` to every listening connection. `pg_notify` takes both
/// as values (NOTIFY itself takes neither as a parameter); inside a transaction the
/// notification goes out when it commits, and not at all if it rolls back.
pub async fn notify(c: &mut PgConnection, channel: &str, payload: &str) -> Result<()> {
    sqlx::query!("SELECT pg_notify($1, $2)", channel, payload).execute(&mut *c).await?;
    Ok(())
}
