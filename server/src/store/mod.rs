//! SQL, and nothing else: one portable store over sqlx's `Any` driver. The backend is
//! chosen once from the URL's scheme; each backend runs its own migration folder.
//! Queries use `$n` placeholders, which both drivers accept. The store never decides who
//! may do what — callers pass it already-authorised scopes.

pub mod activity;
pub mod backup;
pub mod comments;
pub mod contact;
pub mod guest_links;
pub mod images;
pub mod keys;
pub mod login_failures;
pub mod logs;
pub mod milestones;
pub mod notifications;
pub mod outbox;
pub mod projects;
pub mod sessions;
pub mod tokens;
pub mod uploads;
pub mod users;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, Executor, Transaction};

pub type Tx = Transaction<'static, Any>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("unsupported database URL (expected sqlite:// or postgres://): {0}")]
    UnsupportedUrl(String),
    #[error("a row with this unique value already exists")]
    UniqueViolation,
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("the database is at migration {at} but this build needs {needs}: run `sitecast migrate` first")]
    MigrationsPending { at: i64, needs: i64 },
    #[error("database error: {0}")]
    Database(sqlx::Error),
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match &err {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::UniqueViolation,
            _ => StoreError::Database(err),
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

impl Store {
    /// Connects with the backend's default pool size (see `connect_with_pool`).
    pub async fn connect(url: &str) -> Result<Store> {
        Store::connect_with_pool(url, None).await
    }

    /// Connects, applies the backend's pragmas, and runs pending migrations. The pool
    /// holds at most `max_connections` (default 16 on Postgres, 8 on SQLite).
    pub async fn connect_with_pool(url: &str, max_connections: Option<u32>) -> Result<Store> {
        Store::open(url, max_connections, true).await
    }

    /// Connects; with `migrate`, runs pending migrations, else refuses a database that
    /// is behind this build (a release step migrates it: `sitecast migrate`).
    pub async fn open(url: &str, max_connections: Option<u32>, migrate: bool) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::UnsupportedUrl(redact(url)));
        };
        let pool = match backend {
            Backend::Sqlite => {
                let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
                let path = path.split('?').next().unwrap_or(path);
                if let Some(dir) = std::path::Path::new(path).parent() {
                    if !dir.as_os_str().is_empty() {
                        std::fs::create_dir_all(dir)?;
                    }
                }
                let url = if url.contains('?') { url.to_owned() } else { format!("{url}?mode=rwc") };
                let options = AnyConnectOptions::from_str(&url)?;
                AnyPoolOptions::new()
                    // SQLite has one writer at a time; a handful of readers in WAL mode
                    // is all the parallelism it can use.
                    .max_connections(max_connections.unwrap_or(8))
                    .after_connect(|conn, _meta| {
                        Box::pin(async move {
                            // WAL lets readers run beside the writer; the busy timeout makes a
                            // second writer wait rather than fail; foreign keys keep deletes
                            // from leaving rows dangling.
                            conn.execute(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                                 PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;",
                            )
                            .await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?
            }
            Backend::Postgres => {
                let options = AnyConnectOptions::from_str(url)?;
                AnyPoolOptions::new()
                    .max_connections(max_connections.unwrap_or(16))
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_with(options)
                    .await?
            }
        };
        let store = Store { pool, backend };
        if migrate {
            store.migrator().run(&store.pool).await?;
        } else {
            let needs = store.migrator().iter().map(|m| m.version).max().unwrap_or(0);
            let at = backup::applied_migration(&store.pool).await?;
            if at < needs {
                return Err(StoreError::MigrationsPending { at, needs });
            }
        }
        Ok(store)
    }

    fn migrator(&self) -> &'static sqlx::migrate::Migrator {
        match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        }
    }

    /// Whether the database answers a query (readiness).
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Starts a transaction that will write. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads and then writes can fail
    /// with SQLITE_BUSY instead of waiting for the busy timeout.
    pub async fn begin_write(&self) -> Result<Tx> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    pub async fn close(&self) {
        self.pool.close().await;
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

/// Milliseconds since the Unix epoch, the time unit of every stored timestamp.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
