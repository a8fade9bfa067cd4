//! The store interface the domain uses: one function per query, the same signature
//! whichever database runs. The backend is chosen once, from the database URL's scheme
//! at start-up; each backend is its own crate (`sitecast-store-sqlite`,
//! `sitecast-store-postgres`) with its database's native types, its own migration folder,
//! and every query checked at compile time against its own schema. The store never
//! decides who may do what — callers pass it already-authorised scopes.

/// Runs `module::function(args)` of the backend behind `db`: the one place the two
/// implementations meet.
macro_rules! backend {
    ($db:expr, $module:ident :: $function:ident ( $($arg:expr),* $(,)? )) => {{
        let db: $crate::store::Db<'_> = $db.into();
        match db {
            $crate::store::Db::Pool($crate::store::Store::Sqlite(pool)) => {
                let mut conn = pool.acquire().await?;
                sitecast_store_sqlite::$module::$function(&mut conn, $($arg),*).await
            }
            $crate::store::Db::Pool($crate::store::Store::Postgres(pool)) => {
                let mut conn = pool.acquire().await?;
                sitecast_store_postgres::$module::$function(&mut conn, $($arg),*).await
            }
            $crate::store::Db::Sqlite(conn) => sitecast_store_sqlite::$module::$function(conn, $($arg),*).await,
            $crate::store::Db::Postgres(conn) => sitecast_store_postgres::$module::$function(conn, $($arg),*).await,
        }
    }};
}


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
pub mod search;
pub mod security;
pub mod sessions;
pub mod settings;
pub mod tokens;
pub mod uploads;
pub mod users;

use std::ops::{Deref, DerefMut};

use sqlx::{PgConnection, PgPool, Postgres, Sqlite, SqliteConnection, SqlitePool};

pub use sitecast_store_core::{new_id, now_ms, MailPreferencesRow, Result, StoreError, TokenKind};
use sitecast_store_postgres as postgres;
use sitecast_store_sqlite as sqlite;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A pool of connections to the database the URL named.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Store {
    /// Connects with the backend's default pool size (see `connect_with_pool`).
    pub async fn connect(url: &str) -> Result<Store> {
        Store::connect_with_pool(url, None).await
    }

    /// Connects and runs pending migrations. The pool holds at most `max_connections`
    /// (default 16 on Postgres, 8 on SQLite).
    pub async fn connect_with_pool(url: &str, max_connections: Option<u32>) -> Result<Store> {
        Store::open(url, max_connections, true).await
    }

    /// Connects; with `migrate`, runs pending migrations, else refuses a database that
    /// is behind this build (a release step migrates it: `sitecast migrate`).
    pub async fn open(url: &str, max_connections: Option<u32>, migrate: bool) -> Result<Store> {
        if url.starts_with("sqlite:") {
            Ok(Store::Sqlite(sqlite::open(url, max_connections, migrate).await?))
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Store::Postgres(postgres::open(url, max_connections, migrate).await?))
        } else {
            Err(StoreError::UnsupportedUrl(redact(url)))
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Store::Sqlite(_) => Backend::Sqlite,
            Store::Postgres(_) => Backend::Postgres,
        }
    }

    /// The store itself, as the handle queries take outside a transaction.
    pub fn pool(&self) -> &Store {
        self
    }

    /// The Postgres pool, for LISTEN/NOTIFY (live::bus); none on SQLite.
    pub fn postgres_pool(&self) -> Option<&PgPool> {
        match self {
            Store::Postgres(pool) => Some(pool),
            Store::Sqlite(_) => None,
        }
    }

    /// Connections open now, and of those idle, and the most the pool opens (metrics).
    pub fn pool_stats(&self) -> (u32, usize, u32) {
        match self {
            Store::Sqlite(pool) => (pool.size(), pool.num_idle(), pool.options().get_max_connections()),
            Store::Postgres(pool) => (pool.size(), pool.num_idle(), pool.options().get_max_connections()),
        }
    }

    /// Whether the database answers a query (readiness).
    pub async fn ping(&self) -> Result<()> {
        backup::ping(self).await
    }

    /// Starts a transaction that will write. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads and then writes can fail
    /// with SQLITE_BUSY instead of waiting for the busy timeout.
    pub async fn begin_write(&self) -> Result<Tx> {
        Ok(Tx(match self {
            Store::Sqlite(pool) => TxConn::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
            Store::Postgres(pool) => TxConn::Postgres(pool.begin().await?),
        }))
    }

    pub async fn close(&self) {
        match self {
            Store::Sqlite(pool) => pool.close().await,
            Store::Postgres(pool) => pool.close().await,
        }
    }
}

/// A transaction on either backend. `&mut *tx` is what the query functions take, as
/// with a plain sqlx transaction.
pub struct Tx(TxConn);

pub enum TxConn {
    Sqlite(sqlx::Transaction<'static, Sqlite>),
    Postgres(sqlx::Transaction<'static, Postgres>),
}

impl Tx {
    pub async fn commit(self) -> Result<()> {
        match self.0 {
            TxConn::Sqlite(tx) => tx.commit().await?,
            TxConn::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }

    pub async fn rollback(self) -> Result<()> {
        match self.0 {
            TxConn::Sqlite(tx) => tx.rollback().await?,
            TxConn::Postgres(tx) => tx.rollback().await?,
        }
        Ok(())
    }
}

impl Deref for Tx {
    type Target = TxConn;
    fn deref(&self) -> &TxConn {
        &self.0
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut TxConn {
        &mut self.0
    }
}

/// Where a query runs: on a connection from the pool, or inside a transaction.
pub enum Db<'a> {
    Pool(&'a Store),
    Sqlite(&'a mut SqliteConnection),
    Postgres(&'a mut PgConnection),
}

impl<'a> From<&'a Store> for Db<'a> {
    fn from(store: &'a Store) -> Db<'a> {
        Db::Pool(store)
    }
}

impl<'a> From<&'a mut TxConn> for Db<'a> {
    fn from(tx: &'a mut TxConn) -> Db<'a> {
        match tx {
            TxConn::Sqlite(tx) => Db::Sqlite(tx),
            TxConn::Postgres(tx) => Db::Postgres(tx),
        }
    }
}

impl<'a> From<&'a mut Tx> for Db<'a> {
    fn from(tx: &'a mut Tx) -> Db<'a> {
        Db::from(&mut tx.0)
    }
}



/// Hides a password in a database URL before it reaches a log or an error.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every query of the server is checked at compile time against its backend's
    /// schema (docs/CONFIGURATION.md, "The store"), so none is built from a string at run time
    /// and none goes through the lowest-common-denominator `Any` driver.
    #[test]
    fn every_query_is_checked_at_compile_time() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["src", "store/core/src", "store/sqlite/src", "store/postgres/src"] {
            rust_files(&root.join(dir), &mut files);
        }
        assert!(files.len() > 50, "found the sources ({} files)", files.len());
        // Spelled in pieces so that this file does not match itself.
        let forbidden = [
            concat!("AssertSql", "Safe"),
            concat!("sqlx::", "Any"),
            concat!("Any", "Pool"),
            concat!("sqlx::", "query("),
            concat!("sqlx::", "query_as("),
            concat!("sqlx::", "query_scalar("),
            concat!("query_as", "::<"),
            concat!("query_scalar", "::<"),
            concat!("raw_", "sql("),
        ];
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for pattern in forbidden {
                assert!(!text.contains(pattern), "{} uses `{pattern}`: write the query with sqlx's macros", file.display());
            }
        }
    }
}
