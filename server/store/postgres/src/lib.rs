//! Sitecast's store on Postgres, for production and several instances: ids are `uuid`,
//! times `timestamptz`, flags `boolean`, calendar dates `date`, JSON `jsonb`. The rows
//! it returns are the domain's (ids as text, times as UTC milliseconds); the
//! conversions live in `convert`. Every query is checked at compile time against
//! `migrations/postgres` (the committed `.sqlx` data; `scripts/sqlx-prepare.sh` renews it).

pub mod activity;
pub mod backup;
pub mod bus;
pub mod comments;
pub mod companies;
pub mod contact;
pub mod guest_links;
pub mod images;
pub mod keys;
pub mod login_failures;
pub mod logs;
pub mod markups;
pub mod milestones;
pub mod notifications;
pub mod outbox;
pub mod projects;
pub mod push;
pub mod reports;
pub mod sessions;
pub mod tokens;
pub mod uploads;
pub mod search;
pub mod security;
pub mod settings;
pub mod users;

mod convert;

use std::time::Duration;

use sitecast_store_core::{Result, StoreError};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

pub static MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../../migrations/postgres");

/// Connects a pool of at most `max_connections` (default 16); with `migrate`, runs
/// pending migrations (converting an older schema in place), else refuses a database
/// behind this build.
pub async fn open(url: &str, max_connections: Option<u32>, migrate: bool) -> Result<PgPool> {
    let pool = PgPoolOptions::new()
        .max_connections(max_connections.unwrap_or(16))
        .acquire_timeout(Duration::from_secs(10))
        .connect(url)
        .await?;
    if migrate {
        MIGRATIONS.run(&pool).await?;
    } else {
        let needs = MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0);
        let at = backup::applied_migration(&mut *pool.acquire().await?).await?;
        if at < needs {
            return Err(StoreError::MigrationsPending { at, needs });
        }
    }
    Ok(pool)
}
