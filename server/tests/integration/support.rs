//! Test harness: throwaway databases, a running server, and small HTTP/WebSocket clients.

#![allow(dead_code)]

use std::future::Future;
use std::path::Path;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::web;
use awc::http::StatusCode;
use clap::Parser;
use serde_json::Value;
use base64::Engine;
use sitecast::app::{build_state, serve};
use sitecast::config::Cli;
pub use sitecast::domain::seeding::world::{World, WorldSpec};
use sitecast::http::AppState;
use sitecast::store::Store;
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Connection, PgConnection};
use tempfile::TempDir;

/// The Origin a browser on our site sends.
pub const ORIGIN: &str = "http://sitecast.test";

/// A database for one test: a SQLite file in a temp dir, or a fresh Postgres database
/// that is dropped afterwards.
pub struct TestDb {
    pub name: &'static str,
    pub url: String,
    pg_drop: Option<PgDrop>,
}

/// Drops a throwaway Postgres database when the test ends, passed or panicked.
struct PgDrop {
    admin_url: String,
    db: String,
}

impl Drop for PgDrop {
    fn drop(&mut self) {
        let (admin_url, db) = (self.admin_url.clone(), self.db.clone());
        // Drop may run during a panic inside the test's runtime, so use a runtime of
        // its own on a thread of its own.
        let _ = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
            let _ = rt.block_on(throwaway_database(&admin_url, &db, Ddl::Drop));
        })
        .join();
    }
}

impl TestDb {
    pub async fn cleanup(self) {
        drop(self);
    }
}

fn postgres_admin_url() -> Option<String> {
    match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            // CI must exercise Postgres: a missing URL there is a failure, not a skip.
            assert!(
                std::env::var("CI").map(|v| v != "true").unwrap_or(true),
                "CI=true but TEST_DATABASE_URL is not set: the Postgres tests must run in CI"
            );
            eprintln!("TEST_DATABASE_URL not set: running on SQLite only");
            None
        }
    }
}

/// Every backend a test runs on: a SQLite file in `dir`, and a throwaway Postgres
/// database when `TEST_DATABASE_URL` is set (see `for_each_backend`). Both start as a
/// copy of a database already at the latest migration (`templates`), so a test pays for
/// a file copy or a `CREATE DATABASE … TEMPLATE`, not for running every migration.
pub async fn databases(dir: &Path) -> Vec<TestDb> {
    databases_at(dir, true).await
}

/// As `databases`, but empty: for a test that migrates them itself to an older schema.
pub async fn empty_databases(dir: &Path) -> Vec<TestDb> {
    databases_at(dir, false).await
}

async fn databases_at(dir: &Path, migrated: bool) -> Vec<TestDb> {
    let file = dir.join(format!("test-{}.db", uuid::Uuid::new_v4()));
    if migrated {
        std::fs::copy(templates::sqlite().await, &file).expect("copy the migrated SQLite template");
    }
    let mut dbs = vec![TestDb { name: "sqlite", url: format!("sqlite://{}", file.display()), pg_drop: None }];
    if let Some(admin_url) = postgres_admin_url() {
        let template = if migrated { Some(templates::postgres(&admin_url).await) } else { None };
        let db = format!("sitecast_test_{}", uuid::Uuid::new_v4().simple());
        let ddl = template.as_deref().map_or(Ddl::Create, Ddl::CreateFrom);
        throwaway_database(&admin_url, &db, ddl).await.expect("create a throwaway database on TEST_DATABASE_URL");
        let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
        url.set_path(&format!("/{db}"));
        dbs.push(TestDb { name: "postgres", url: url.to_string(), pg_drop: Some(PgDrop { admin_url, db }) });
    }
    dbs
}

/// A throwaway Postgres database alone (dropped with the `TestDb`), for a test about
/// Postgres itself (upgrade.rs): empty, not migrated; `None` where `databases` would
/// run on SQLite only.
pub async fn postgres_database() -> Option<TestDb> {
    let admin_url = postgres_admin_url()?;
    let db = format!("sitecast_test_{}", uuid::Uuid::new_v4().simple());
    throwaway_database(&admin_url, &db, Ddl::Create).await.expect("create a throwaway database on TEST_DATABASE_URL");
    let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
    url.set_path(&format!("/{db}"));
    Some(TestDb { name: "postgres", url: url.to_string(), pg_drop: Some(PgDrop { admin_url, db }) })
}

/// Databases at the latest migration, made once per machine and migration set: each is
/// named by a hash of its backend's migration files, so a changed migration makes a new
/// one, and every test process (nextest runs each test in its own) copies the same one.
mod templates {
    use std::path::PathBuf;

    use sha2::{Digest, Sha256};
    use sqlx::{Connection, PgConnection};

    /// The hash of a backend's migrations (their names and contents, in order).
    fn migrations_hash(backend: &str) -> String {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../migrations").join(backend);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("the migrations folder").map(|e| e.expect("a migration").path()).collect();
        files.sort();
        let mut hash = Sha256::new();
        for file in files {
            hash.update(file.file_name().map(|n| n.as_encoded_bytes().to_vec()).unwrap_or_default());
            hash.update(std::fs::read(&file).expect("a migration's text"));
        }
        hex::encode(&hash.finalize()[..8])
    }

    /// A migrated SQLite file in the temp folder. Made under a temporary name and renamed
    /// into place, so a process that races another only ever sees a whole file.
    pub async fn sqlite() -> PathBuf {
        let path = std::env::temp_dir().join(format!("sitecast-template-{}.db", migrations_hash("sqlite")));
        if !path.exists() {
            let building = path.with_extension(format!("{}.db", uuid::Uuid::new_v4().simple()));
            let store = sitecast::store::Store::open(&format!("sqlite://{}", building.display()), Some(1), true).await.expect("migrate the SQLite template");
            store.close().await;
            std::fs::rename(&building, &path).expect("put the SQLite template in place");
        }
        path
    }

    /// A migrated Postgres database, made by whichever test process gets there first
    /// (an advisory lock keeps the others waiting until it exists).
    pub async fn postgres(admin_url: &str) -> String {
        let name = format!("sitecast_template_{}", migrations_hash("postgres"));
        let mut admin = PgConnection::connect(admin_url).await.expect("connect to TEST_DATABASE_URL");
        // Any constant, the same in every process of the suite.
        sqlx::query("SELECT pg_advisory_lock(7466001)").execute(&mut admin).await.expect("template lock");
        let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut admin)
            .await
            .expect("look for the template");
        if !exists {
            let building = format!("{name}_building");
            super::throwaway_database(admin_url, &building, super::Ddl::Drop).await.expect("drop a half-made template");
            super::throwaway_database(admin_url, &building, super::Ddl::Create).await.expect("create the template");
            let mut url = url::Url::parse(admin_url).expect("TEST_DATABASE_URL is a URL");
            url.set_path(&format!("/{building}"));
            let store = sitecast::store::Store::open(url.as_str(), Some(1), true).await.expect("migrate the Postgres template");
            store.close().await;
            super::throwaway_database(admin_url, &building, super::Ddl::RenameTo(&name)).await.expect("put the template in place");
        }
        sqlx::query("SELECT pg_advisory_unlock(7466001)").execute(&mut admin).await.expect("template unlock");
        let _ = admin.close().await;
        name
    }
}

enum Ddl<'a> {
    Create,
    /// A copy of a template database (`templates`).
    CreateFrom(&'a str),
    RenameTo(&'a str),
    Drop,
}

/// Creates, copies, renames or drops a throwaway Postgres database. A database's name
/// cannot be bound as a parameter, and none of these statements may run inside a
/// function (which could quote it with `format('%I')`), so names are written into the
/// statement: the suite's one SQL text made at run time, and only ever of names this
/// harness generated.
async fn throwaway_database(admin_url: &str, db: &str, ddl: Ddl<'_>) -> sqlx::Result<()> {
    let ours = |name: &str| {
        (name.starts_with("sitecast_test_") || name.starts_with("sitecast_template_"))
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    assert!(ours(db), "not a throwaway database's name: {db}");
    let sql = match ddl {
        Ddl::Create => format!("CREATE DATABASE \"{db}\""),
        Ddl::CreateFrom(template) => {
            assert!(ours(template), "not a template's name: {template}");
            format!("CREATE DATABASE \"{db}\" TEMPLATE \"{template}\"")
        }
        Ddl::RenameTo(name) => {
            assert!(ours(name), "not a throwaway database's name: {name}");
            format!("ALTER DATABASE \"{db}\" RENAME TO \"{name}\"")
        }
        Ddl::Drop => format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"),
    };
    let mut conn = PgConnection::connect(admin_url).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&mut conn).await?;
    conn.close().await
}

/// Runs one test body against every backend: SQLite always, Postgres when configured.
pub async fn for_each_backend<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    let dir = TempDir::new().expect("temp dir");
    run_on(databases(dir.path()).await, body).await;
}

/// As `for_each_backend`, on empty databases (a test of migrating an older schema).
pub async fn for_each_empty_backend<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    let dir = TempDir::new().expect("temp dir");
    run_on(empty_databases(dir.path()).await, body).await;
}

async fn run_on<F, Fut>(dbs: Vec<TestDb>, body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    for db in dbs {
        let name = db.name;
        eprintln!("-- on {name}");
        let db = body(db).await;
        db.cleanup().await;
    }
}

/// A test's own SQL, for what no store function does (counting rows, backdating a
/// time, breaking a constraint on purpose), run on whichever backend the store is.
/// Binds and fetches read like sqlx's: `TestSql::new(sql).bind(x).scalar(store)`.
///
/// The schemas differ where Postgres uses native types (SQLite keeps TEXT ids, INTEGER
/// milliseconds and 0/1 flags); a statement that touches such a column is written once
/// per backend with `TestSql::per_backend(sqlite, postgres)`, and on Postgres:
/// - an id compares with a bound text as `id = $1::uuid`, and reads as `id::text`;
/// - a time is written as `TIMESTAMPTZ 'epoch' + $1 * INTERVAL '1 millisecond'`
///   and read as `(EXTRACT(EPOCH FROM t) * 1000)::bigint`;
/// - a flag is `true`/`false`.
pub struct TestSql {
    sqlite: &'static str,
    postgres: &'static str,
    args: Vec<Arg>,
}

/// A value for `$n`: text (ids too, cast in the SQL on Postgres) or an integer.
pub enum Arg {
    Text(String),
    Int(i64),
}

impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Text(v.to_owned())
    }
}

impl From<&String> for Arg {
    fn from(v: &String) -> Arg {
        Arg::Text(v.clone())
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Text(v)
    }
}

impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::Int(v)
    }
}

/// What a `TestSql` row decodes into on either backend (a tuple of column types).
pub trait TestRow: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin {}
impl<T> TestRow for T where T: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin {}

impl TestSql {
    /// The same statement on both backends.
    pub fn new(sql: &'static str) -> TestSql {
        TestSql::per_backend(sql, sql)
    }

    /// SQLite's statement and Postgres's, with the same parameters.
    pub fn per_backend(sqlite: &'static str, postgres: &'static str) -> TestSql {
        TestSql { sqlite, postgres, args: Vec::new() }
    }

    pub fn bind(mut self, value: impl Into<Arg>) -> TestSql {
        self.args.push(value.into());
        self
    }

    fn arguments<A>(&self) -> A
    where
        A: sqlx::Arguments,
        String: for<'t> sqlx::Encode<'t, A::Database> + sqlx::Type<A::Database>,
        i64: for<'t> sqlx::Encode<'t, A::Database> + sqlx::Type<A::Database>,
    {
        let mut out = A::default();
        for arg in &self.args {
            match arg {
                Arg::Text(v) => out.add(v.clone()),
                Arg::Int(v) => out.add(*v),
            }
            .expect("text and integers always encode");
        }
        out
    }

    /// Runs the statement; the rows it changed.
    pub async fn execute(self, store: &Store) -> sqlx::Result<u64> {
        Ok(match store {
            Store::Sqlite(pool) => sqlx::query_with(self.sqlite, self.arguments::<SqliteArguments>()).execute(pool).await?.rows_affected(),
            Store::Postgres(pool) => sqlx::query_with(self.postgres, self.arguments::<PgArguments>()).execute(pool).await?.rows_affected(),
        })
    }

    pub async fn fetch_all<T: TestRow>(self, store: &Store) -> sqlx::Result<Vec<T>> {
        match store {
            Store::Sqlite(pool) => sqlx::query_as_with(self.sqlite, self.arguments::<SqliteArguments>()).fetch_all(pool).await,
            Store::Postgres(pool) => sqlx::query_as_with(self.postgres, self.arguments::<PgArguments>()).fetch_all(pool).await,
        }
    }

    pub async fn fetch_optional<T: TestRow>(self, store: &Store) -> sqlx::Result<Option<T>> {
        match store {
            Store::Sqlite(pool) => sqlx::query_as_with(self.sqlite, self.arguments::<SqliteArguments>()).fetch_optional(pool).await,
            Store::Postgres(pool) => sqlx::query_as_with(self.postgres, self.arguments::<PgArguments>()).fetch_optional(pool).await,
        }
    }

    pub async fn fetch_one<T: TestRow>(self, store: &Store) -> sqlx::Result<T> {
        match store {
            Store::Sqlite(pool) => sqlx::query_as_with(self.sqlite, self.arguments::<SqliteArguments>()).fetch_one(pool).await,
            Store::Postgres(pool) => sqlx::query_as_with(self.postgres, self.arguments::<PgArguments>()).fetch_one(pool).await,
        }
    }

    /// The first column of the one row.
    pub async fn scalar<T>(self, store: &Store) -> sqlx::Result<T>
    where
        (T,): TestRow,
    {
        self.fetch_one::<(T,)>(store).await.map(|(v,)| v)
    }
}

pub struct Options {
    pub demo: bool,
    pub smtp_url: Option<String>,
    pub ws_ping_secs: u64,
    pub ws_timeout_secs: u64,
    pub extra: Vec<(String, String)>,
    /// Instead of a fresh temp dir (to start on data left by an earlier run).
    pub data_dir: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options { demo: false, smtp_url: None, ws_ping_secs: 15, ws_timeout_secs: 45, extra: Vec::new(), data_dir: None }
    }
}

pub struct TestServer {
    pub base: String,
    pub ws_base: String,
    pub state: web::Data<AppState>,
    handle: ServerHandle,
    pub dir: TempDir,
    client: awc::Client,
}

pub struct Resp {
    pub status: StatusCode,
    pub body: Value,
    pub session_cookie: Option<String>,
    pub headers: awc::http::header::HeaderMap,
    pub bytes: Vec<u8>,
}

impl TestServer {
    pub async fn start(database_url: &str, opts: Options) -> TestServer {
        sitecast::install_crypto_provider();
        let dir = TempDir::new().expect("temp dir");
        let mut args: Vec<String> = vec![
            "sitecast".into(),
            format!("--data-dir={}", opts.data_dir.as_deref().unwrap_or(dir.path()).display()),
            format!("--database-url={database_url}"),
            format!("--public-url={}", opts.extra.iter().find(|(k, _)| k == "public-url").map_or(ORIGIN, |(_, v)| v.as_str())),
            format!("--demo={}", opts.demo),
            format!("--ws-ping-secs={}", opts.ws_ping_secs),
            format!("--ws-timeout-secs={}", opts.ws_timeout_secs),
            format!("--web-dir={}", dir.path().join("no-web").display()),
        ];
        if !opts.extra.iter().any(|(k, _)| k == "heif-decoder") {
            // The server program itself, as in production (this test binary is not it).
            args.push(format!("--heif-decoder={}", env!("CARGO_BIN_EXE_sitecast")));
        }
        if let Some(smtp) = &opts.smtp_url {
            args.push(format!("--smtp-url={smtp}"));
        }
        for (k, v) in opts.extra.iter().filter(|(k, _)| k != "public-url") {
            args.push(format!("--{k}={v}"));
        }
        let cli = Cli::try_parse_from(args).expect("valid test config");
        let state = build_state(cli.config).await.expect("server state");
        let running = serve(state, "127.0.0.1:0").expect("bind");
        let handle = running.handle.clone();
        actix_web::rt::spawn(running.server);
        TestServer {
            base: format!("http://{}", running.addr),
            ws_base: format!("ws://{}", running.addr),
            state: running.state,
            handle,
            dir,
            client: awc::Client::builder().disable_redirects().timeout(Duration::from_secs(30)).finish(),
        }
    }

    /// The HTTP server's handle (a drain pauses and stops it).
    pub fn server_handle(&self) -> ServerHandle {
        self.handle.clone()
    }

    pub async fn stop(self) {
        self.handle.stop(false).await;
        self.state.store.close().await;
    }

    pub fn cookie_name(&self) -> &'static str {
        "sitecast_session"
    }

    async fn finish(mut resp: awc::ClientResponse<impl futures_util::Stream<Item = Result<bytes::Bytes, awc::error::PayloadError>> + Unpin>) -> Resp {
        let session_cookie = resp
            .cookies()
            .ok()
            .and_then(|cs| cs.iter().find(|c| c.name() == "sitecast_session").map(|c| c.value().to_owned()));
        let bytes = resp.body().limit(64 * 1024 * 1024).await.map(|b| b.to_vec()).unwrap_or_default();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Resp { status: resp.status(), body, session_cookie, headers: resp.headers().clone(), bytes }
    }

    pub async fn post(&self, path: &str, json: Value, cookie: Option<&str>) -> Resp {
        let mut req = self.client.post(format!("{}{path}", self.base)).insert_header(("Origin", ORIGIN));
        if let Some(c) = cookie {
            req = req.insert_header(("Cookie", format!("sitecast_session={c}")));
        }
        TestServer::finish(req.send_json(&json).await.expect("POST")).await
    }

    pub async fn post_with(&self, path: &str, json: Value, headers: &[(&str, &str)]) -> Resp {
        let mut req = self.client.post(format!("{}{path}", self.base));
        for (k, v) in headers {
            req = req.insert_header((*k, *v));
        }
        TestServer::finish(req.send_json(&json).await.expect("POST")).await
    }

    /// Uploads `(file name, bytes)` files as one site visit over tus, as the web app
    /// does: the files within the size limits in one batch (the app leaves the others
    /// out of it; they are created alone, for the server to refuse), each created and
    /// then sent whole in one PATCH. Answers what each file became.
    pub async fn upload(&self, project_id: &str, cookie: &str, files: &[(&str, &[u8])]) -> Uploaded {
        let fits = |bytes: &[u8]| !bytes.is_empty() && bytes.len() <= sitecast::domain::media::photos::MAX_FILE_BYTES;
        let batch_id = uuid::Uuid::new_v4().to_string();
        let batch_size = files.iter().filter(|(_, bytes)| fits(bytes)).count().to_string();
        let tus = |method: awc::http::Method, url: String| {
            self.client
                .request(method, url)
                .insert_header(("Origin", ORIGIN))
                .insert_header(("Cookie", format!("sitecast_session={cookie}")))
                .insert_header(("Tus-Resumable", "1.0.0"))
        };
        let mut outcomes = Vec::new();
        for (name, bytes) in files {
            let mut meta = vec![("projectId", project_id), ("filename", *name)];
            if fits(bytes) {
                meta.extend([("batchId", batch_id.as_str()), ("batchSize", batch_size.as_str())]);
            }
            let created = tus(awc::http::Method::POST, format!("{}/api/uploads", self.base))
                .insert_header(("Upload-Length", bytes.len().to_string()))
                .insert_header(("Upload-Metadata", tus_metadata(&meta)))
                .send()
                .await
                .expect("POST /api/uploads");
            let created = TestServer::finish(created).await;
            let Some(location) = created.headers.get("location").and_then(|l| l.to_str().ok()) else {
                outcomes.push((name.to_string(), Outcome::Error(created.status, created.body)));
                continue;
            };
            let patched = tus(awc::http::Method::PATCH, format!("{}{location}", self.base))
                .insert_header(("Upload-Offset", "0"))
                .insert_header(("Content-Type", "application/offset+octet-stream"))
                .send_body(bytes.to_vec())
                .await
                .expect("PATCH an upload");
            let patched = TestServer::finish(patched).await;
            let header = |n: &str| patched.headers.get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
            let outcome = match (header("sitecast-photo"), header("sitecast-refused")) {
                (Some(id), _) => Outcome::Stored(id),
                (None, Some(reason)) => Outcome::Refused(percent_encoding::percent_decode_str(&reason).decode_utf8_lossy().into_owned()),
                (None, None) => Outcome::Error(patched.status, patched.body),
            };
            outcomes.push((name.to_string(), outcome));
        }
        // The stored photos as the uploader's listing has them, in the order sent.
        let ids: Vec<&str> = outcomes.iter().filter_map(|(_, o)| if let Outcome::Stored(id) = o { Some(id.as_str()) } else { None }).collect();
        let mut photos = Vec::new();
        if !ids.is_empty() {
            let mut ws = self.ws(Some(cookie), Some(ORIGIN)).await.expect("the uploader's socket");
            ws.next_msg().await;
            let listed = match ws.request(1, protocol::Request::ListPhotos(protocol::ListPhotos::first(project_id.to_owned()))).await {
                Ok(protocol::Response::Photos { photos, .. }) => photos,
                other => panic!("photos expected: {other:?}"),
            };
            for id in ids {
                photos.push(listed.iter().find(|p| p.id == id).expect("a stored photo is listed").clone());
            }
        }
        Uploaded { outcomes, photos }
    }

    pub async fn post_bytes(&self, path: &str, content_type: &str, body: Vec<u8>, cookie: Option<&str>) -> Resp {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .insert_header(("Origin", ORIGIN))
            .insert_header(("Content-Type", content_type));
        if let Some(c) = cookie {
            req = req.insert_header(("Cookie", format!("sitecast_session={c}")));
        }
        TestServer::finish(req.send_body(body).await.expect("POST")).await
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Resp {
        self.get_with(path, cookie, &[]).await
    }

    pub async fn get_with(&self, path: &str, cookie: Option<&str>, headers: &[(&str, &str)]) -> Resp {
        let mut req = self.client.get(format!("{}{path}", self.base));
        if let Some(c) = cookie {
            req = req.insert_header(("Cookie", format!("sitecast_session={c}")));
        }
        for (k, v) in headers {
            req = req.insert_header((*k, *v));
        }
        TestServer::finish(req.send().await.expect("GET")).await
    }

    /// Makes a test's own world on this server's database (`domain::seeding::world`): a company
    /// with owner, manager and crew, an admin, homeowners and projects with photos, each
    /// person with a signed-in session (`world.users["owner"].session` is a cookie).
    pub async fn world(&self, spec: WorldSpec) -> World {
        sitecast::domain::seeding::world::make(&self.state.store, self.state.photos.as_ref(), &self.state.auth.passwords, &spec)
            .await
            .expect("make a test world")
    }

    /// Opens a socket with a session cookie (a world person's `session`, or one `login`
    /// returned) and reads its Hello.
    pub async fn connect_as(&self, session: &str) -> (WsClient, protocol::Hello) {
        let mut ws = self.ws(Some(session), Some(ORIGIN)).await.expect("socket opens");
        match ws.next_msg().await {
            protocol::ServerMsg::Hello(hello) => (ws, hello),
            other => panic!("expected Hello first, got {other:?}"),
        }
    }

    /// Signs in through the form, so on a session of its own (another tab or device),
    /// and opens a socket on it.
    pub async fn connect_with(&self, email: &str, password: &str) -> (WsClient, protocol::Hello) {
        self.connect_as(&self.login(email, password).await).await
    }

    /// Logs in and returns the session cookie's value.
    pub async fn login(&self, email: &str, password: &str) -> String {
        let r = self.post("/api/auth/login", serde_json::json!({ "email": email, "password": password }), None).await;
        assert_eq!(r.status, StatusCode::OK, "login of {email} failed: {}", r.body);
        r.session_cookie.expect("login sets the session cookie")
    }

    /// The newest queued mail to an address: (subject, text body). Waits up to 10 s,
    /// because some mail (password reset) is queued in the background.
    pub async fn wait_for_mail(&self, to: &str, subject: &str) -> String {
        for _ in 0..200 {
            let row: Option<(String,)> = TestSql::new(
                "SELECT body_text FROM outbox WHERE to_address = $1 AND subject = $2 ORDER BY created_at DESC LIMIT 1",
            )
            .bind(to)
            .bind(subject)
            .fetch_optional(self.state.store.pool())
            .await
            .expect("query outbox");
            if let Some((text,)) = row {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no mail {subject:?} to {to}");
    }

    pub async fn mail_count(&self, to: &str) -> i64 {
        TestSql::new("SELECT COUNT(*) FROM outbox WHERE to_address = $1")
            .bind(to)
            .scalar(self.state.store.pool())
            .await
            .expect("count mail")
    }

    /// Opens the WebSocket with a session cookie and an Origin.
    pub async fn ws(&self, cookie: Option<&str>, origin: Option<&str>) -> Result<WsClient, (StatusCode, Value)> {
        self.open_ws("/ws", cookie.map(|c| format!("sitecast_session={c}")), origin).await
    }

    /// Opens a guest's socket (`/ws/guest`) with a guest link's token as its cookie.
    pub async fn guest_ws(&self, token: Option<&str>, origin: Option<&str>) -> Result<WsClient, (StatusCode, Value)> {
        self.open_ws("/ws/guest", token.map(|t| format!("sitecast_guest={t}")), origin).await
    }

    async fn open_ws(&self, path: &str, cookie: Option<String>, origin: Option<&str>) -> Result<WsClient, (StatusCode, Value)> {
        let mut req = self.client.ws(format!("{}{path}", self.ws_base)).max_frame_size(4 * 1024 * 1024);
        if let Some(c) = cookie {
            req = req.header("Cookie", c);
        }
        if let Some(o) = origin {
            req = req.origin(o);
        }
        match req.connect().await {
            Ok((_, framed)) => Ok(WsClient::new(framed)),
            Err(awc::error::WsClientError::InvalidResponseStatus(status)) => Err((status, Value::Null)),
            Err(other) => panic!("websocket connect failed: {other}"),
        }
    }

    /// GET as a guest holding a link's token (and no session).
    pub async fn guest_get(&self, path: &str, token: &str) -> Resp {
        self.get_with(path, None, &[("Cookie", &format!("sitecast_guest={token}"))]).await
    }
}

/// tus `Upload-Metadata`: `key base64(value)` pairs.
pub fn tus_metadata(pairs: &[(&str, &str)]) -> String {
    let b64 = |v: &str| base64::engine::general_purpose::STANDARD.encode(v);
    pairs.iter().map(|(k, v)| format!("{k} {}", b64(v))).collect::<Vec<_>>().join(",")
}

/// What one file of an upload became.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Stored, as the photo with this id.
    Stored(String),
    /// Refused once its bytes were in, with the reason (not an image, damaged, …).
    Refused(String),
    /// Refused before that (at creation: who may upload, the size) or not stored for
    /// a failure of ours: the error answer.
    Error(StatusCode, Value),
}

/// What an upload of several files came to (`TestServer::upload`).
#[derive(Debug)]
pub struct Uploaded {
    /// Each file, in the order sent.
    pub outcomes: Vec<(String, Outcome)>,
    /// The stored photos, in the order sent.
    pub photos: Vec<protocol::ProjectImage>,
}

impl Uploaded {
    pub fn all_stored(&self) -> bool {
        self.outcomes.iter().all(|(_, o)| matches!(o, Outcome::Stored(_)))
    }

    /// The files refused once sent: (name, reason).
    pub fn refused(&self) -> Vec<(&str, &str)> {
        self.outcomes
            .iter()
            .filter_map(|(n, o)| if let Outcome::Refused(r) = o { Some((n.as_str(), r.as_str())) } else { None })
            .collect()
    }

    /// The first error answer, if any.
    pub fn error(&self) -> Option<(StatusCode, &Value)> {
        self.outcomes.iter().find_map(|(_, o)| if let Outcome::Error(s, b) = o { Some((*s, b)) } else { None })
    }
}

impl std::fmt::Display for Uploaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.outcomes)
    }
}

/// The `token=` parameter of the first link in a mail.
pub fn link_token(text: &str) -> String {
    let start = text.find("token=").expect("a link with a token") + "token=".len();
    text[start..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect()
}

pub struct WsClient {
    pub framed: actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>,
    /// Messages read while waiting for a reply, handed out again by `next_any`.
    pending: std::collections::VecDeque<protocol::ServerMsg>,
}

impl WsClient {
    pub fn new(framed: actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>) -> WsClient {
        WsClient { framed, pending: Default::default() }
    }

    /// The next frame, or None when the stream ends; fails the test after 20 s of silence
    /// (generous: the suite shares two cores with image work and Chromium).
    pub async fn next_frame(&mut self) -> Option<awc::ws::Frame> {
        use futures_util::StreamExt;
        match tokio::time::timeout(Duration::from_secs(20), self.framed.next()).await {
            Ok(Some(Ok(frame))) => Some(frame),
            Ok(Some(Err(_))) | Ok(None) => None,
            Err(_) => panic!("no frame within 20 s"),
        }
    }

    /// The next decoded server message, skipping pings.
    pub async fn next_any(&mut self) -> protocol::ServerMsg {
        if let Some(msg) = self.pending.pop_front() {
            return msg;
        }
        loop {
            match self.next_frame().await {
                Some(awc::ws::Frame::Binary(bytes)) => return protocol::decode(&bytes).expect("server frame decodes"),
                Some(awc::ws::Frame::Ping(_)) | Some(awc::ws::Frame::Pong(_)) => continue,
                other => panic!("expected a binary frame, got {other:?}"),
            }
        }
    }

    /// The next decoded server message, skipping pings and presence and viewer
    /// notices (other people coming and going), which tests of them read with `next_any`.
    pub async fn next_msg(&mut self) -> protocol::ServerMsg {
        loop {
            match self.next_any().await {
                protocol::ServerMsg::Event { event: protocol::Event::Presence { .. } | protocol::Event::Viewers { .. } } => {}
                msg => return msg,
            }
        }
    }

    /// Sends a request and waits for its reply (or error); events that arrive first
    /// are kept for `next_any` and `event`.
    pub async fn request(&mut self, id: u32, request: protocol::Request) -> Result<protocol::Response, protocol::ApiError> {
        self.send(&protocol::ClientMsg { id, request }).await;
        let mut held = std::collections::VecDeque::new();
        let outcome = loop {
            let msg = match self.pending.pop_front() {
                Some(msg) => msg,
                None => self.read_msg().await,
            };
            match msg {
                protocol::ServerMsg::Reply { id: got, response } if got == id => break Ok(response),
                protocol::ServerMsg::Error { id: Some(got), error } if got == id => break Err(error),
                other => held.push_back(other),
            }
        };
        held.extend(self.pending.drain(..));
        self.pending = held;
        outcome
    }

    async fn read_msg(&mut self) -> protocol::ServerMsg {
        loop {
            match self.next_frame().await {
                Some(awc::ws::Frame::Binary(bytes)) => return protocol::decode(&bytes).expect("server frame decodes"),
                Some(awc::ws::Frame::Ping(_)) | Some(awc::ws::Frame::Pong(_)) => continue,
                other => panic!("expected a binary frame, got {other:?}"),
            }
        }
    }

    /// Waits for the first event matching `pick`, skipping everything else.
    pub async fn event<T>(&mut self, mut pick: impl FnMut(&protocol::Event) -> Option<T>) -> T {
        loop {
            if let protocol::ServerMsg::Event { event } = self.next_any().await {
                if let Some(found) = pick(&event) {
                    return found;
                }
            }
        }
    }

    /// Waits for the close frame, skipping anything before it; returns its code.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            match self.next_frame().await {
                Some(awc::ws::Frame::Close(reason)) => return reason.map(|r| r.code.into()),
                Some(_) => continue,
                None => return None,
            }
        }
    }

    pub async fn send_bytes(&mut self, bytes: Vec<u8>) {
        use futures_util::SinkExt;
        self.framed.send(awc::ws::Message::Binary(bytes.into())).await.expect("send frame");
    }

    pub async fn send(&mut self, msg: &protocol::ClientMsg) {
        self.send_bytes(protocol::encode(msg).expect("encode")).await;
    }
}

/// A helper process (SMTP or S3 server) on a free loopback port, killed on drop.
pub struct Helper {
    child: std::process::Child,
    pub port: u16,
}

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("free port")
}

impl Helper {
    /// Starts `program args…` and waits until it accepts connections on `port`.
    pub async fn start(program: &str, args: &[&str], port: u16) -> Helper {
        let child = std::process::Command::new(program)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {program} (the test command installs it): {e}"));
        let helper = Helper { child, port };
        for _ in 0..300 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return helper;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{program} did not start listening on {port}");
    }

    /// aiosmtpd writing every received message into a Maildir.
    pub async fn smtp(port: u16, maildir: &Path) -> Helper {
        let listen = format!("127.0.0.1:{port}");
        let dir = maildir.display().to_string();
        Helper::start("python3", &["-m", "aiosmtpd", "-n", "-l", &listen, "-c", "aiosmtpd.handlers.Mailbox", &dir], port).await
    }
}

/// Every message file in a Maildir (aiosmtpd's Mailbox handler writes to `new/`).
pub fn maildir_messages(maildir: &Path) -> Vec<String> {
    std::fs::read_dir(maildir.join("new"))
        .map(|entries| entries.filter_map(|e| e.ok()).filter_map(|e| std::fs::read_to_string(e.path()).ok()).collect())
        .unwrap_or_default()
}

impl TestServer {
    /// Logs in with the demo password, opens a socket and reads its Hello.
    pub async fn connect(&self, email: &str) -> (WsClient, protocol::Hello) {
        let cookie = self.login(email, "sitecast-demo").await;
        let mut ws = self.ws(Some(&cookie), Some(ORIGIN)).await.expect("socket opens");
        match ws.next_msg().await {
            protocol::ServerMsg::Hello(hello) => (ws, hello),
            other => panic!("expected Hello first, got {other:?}"),
        }
    }

    pub async fn count_sockets(&self) -> usize {
        self.state.live.count_sockets().await
    }
}
