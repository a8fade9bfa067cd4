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
    /// A value the schema allows but this build does not know (a newer build wrote it,
    /// or someone edited the row by hand). Never read as a default.
    #[error("unknown value {value:?} in {column}")]
    Corrupt { column: &'static str, value: String },
    /// Something only the other backend does (a SQLite file copy on Postgres).
    #[error("not supported on this database: {0}")]
    Unsupported(&'static str),
    /// A rule the schema holds refused the write (its name, as the migration raises it).
    #[error("the database refused the write: {0}")]
    Invariant(&'static str),
    #[error("database error: {0}")]
    Database(sqlx::Error),
}

/// A company with members always has an owner (migration 0017's trigger).
pub const COMPANY_NEEDS_OWNER: &str = "company_needs_owner";

/// The rules the migrations raise by name.
const INVARIANTS: [&str; 1] = [COMPANY_NEEDS_OWNER];

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match &err {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::UniqueViolation,
            sqlx::Error::Database(db) => match INVARIANTS.into_iter().find(|name| db.message().contains(name)) {
                Some(name) => StoreError::Invariant(name),
                None => StoreError::Database(err),
            },
            _ => StoreError::Database(err),
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;
