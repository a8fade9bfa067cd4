//! Sitecast's store on SQLite, the embedded default: one file, WAL, foreign keys on, a
//! busy timeout, write transactions `BEGIN IMMEDIATE` (the server's `Store` does that).
//! Ids are UUID text, times integer UTC milliseconds, flags 0/1 integers read as
//! booleans. Every query is checked at compile time against `migrations/sqlite` (the
//! committed `.sqlx` data; `scripts/sqlx-prepare.sh` renews it).

pub mod activity;
pub mod backup;
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
mod tags;
pub mod users;

use std::str::FromStr;
use std::time::Duration;

use sitecast_store_core::{Result, StoreError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub static MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../../migrations/sqlite");

/// Opens (creating the file and its folder when missing) a pool of at most
/// `max_connections` (default 8); with `migrate`, runs pending migrations, else
/// refuses a database behind this build.
pub async fn open(url: &str, max_connections: Option<u32>, migrate: bool) -> Result<SqlitePool> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        // WAL lets readers run beside the writer; the busy timeout makes a second
        // writer wait rather than fail; foreign keys keep deletes from leaving rows
        // dangling.
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(5))
        .foreign_keys(true);
    if let Some(dir) = options.get_filename().parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let pool = SqlitePoolOptions::new()
        // SQLite has one writer at a time; a handful of readers in WAL mode is all
        // the parallelism it can use.
        .max_connections(max_connections.unwrap_or(8))
        .connect_with(options)
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
