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
use sitecast::app::{build_state, serve, AppState};
use sitecast::config::Cli;
use sqlx::Connection;
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
            rt.block_on(async {
                if let Ok(mut conn) = sqlx::AnyConnection::connect(&admin_url).await {
                    let sql = format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)");
                    let _ = sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut conn).await;
                }
            });
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

async fn databases(dir: &Path) -> Vec<TestDb> {
    sqlx::any::install_default_drivers();
    let mut dbs = vec![TestDb {
        name: "sqlite",
        url: format!("sqlite://{}", dir.join(format!("test-{}.db", uuid::Uuid::new_v4())).display()),
        pg_drop: None,
    }];
    if let Some(admin_url) = postgres_admin_url() {
        let db = format!("sitecast_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = sqlx::AnyConnection::connect(&admin_url).await.expect("connect to TEST_DATABASE_URL");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{db}\"")))
            .execute(&mut conn)
            .await
            .expect("create throwaway database");
        let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
        url.set_path(&format!("/{db}"));
        dbs.push(TestDb { name: "postgres", url: url.to_string(), pg_drop: Some(PgDrop { admin_url, db }) });
    }
    dbs
}

/// Runs one test body against every backend: SQLite always, Postgres when configured.
pub async fn for_each_backend<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    let dir = TempDir::new().expect("temp dir");
    for db in databases(dir.path()).await {
        let name = db.name;
        eprintln!("-- on {name}");
        let db = body(db).await;
        db.cleanup().await;
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

    /// A multipart upload of `(file name, bytes)` parts, as a browser's form sends it.
    pub async fn upload(&self, project_id: &str, cookie: &str, files: &[(&str, &[u8])]) -> Resp {
        let (content_type, body) = multipart(files);
        self.post_bytes(&format!("/api/projects/{project_id}/photos"), &content_type, body, Some(cookie)).await
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
            let row: Option<(String,)> = sqlx::query_as(
                "SELECT body_text FROM mail_outbox WHERE to_address = $1 AND subject = $2 ORDER BY created_at DESC LIMIT 1",
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
        sqlx::query_scalar("SELECT COUNT(*) FROM mail_outbox WHERE to_address = $1")
            .bind(to)
            .fetch_one(self.state.store.pool())
            .await
            .expect("count mail")
    }

    /// Opens the WebSocket with a session cookie and an Origin.
    pub async fn ws(&self, cookie: Option<&str>, origin: Option<&str>) -> Result<WsClient, (StatusCode, Value)> {
        let mut req = self.client.ws(format!("{}/ws", self.ws_base)).max_frame_size(4 * 1024 * 1024);
        if let Some(c) = cookie {
            req = req.header("Cookie", format!("sitecast_session={c}"));
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
}

impl TestServer {
    /// Opens a guest's socket (`/ws/guest`) with a guest link's token as its cookie.
    pub async fn guest_ws(&self, token: Option<&str>, origin: Option<&str>) -> Result<WsClient, (StatusCode, Value)> {
        let mut req = self.client.ws(format!("{}/ws/guest", self.ws_base)).max_frame_size(4 * 1024 * 1024);
        if let Some(t) = token {
            req = req.header("Cookie", format!("sitecast_guest={t}"));
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

pub const BOUNDARY: &str = "----sitecast-test-boundary-7MA4YWxkTrZu0gW";

/// A multipart/form-data body with one `photos` part per file.
pub fn multipart(files: &[(&str, &[u8])]) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    for (name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"{name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
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
        self.state.live.hub.send(sitecast::live::hub::CountSockets).await.unwrap_or(usize::MAX)
    }
}
