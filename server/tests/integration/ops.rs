//! Running it like a service: metrics that move, a drain that loses nothing, backup
//! and restore, migrations once per deploy, readiness, and JSON logs with request ids.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use awc::http::StatusCode;
use bytes::Bytes;
use clap::Parser;
use protocol::{Event, Request, Response};
use sitecast::config::{Cli, Config};
use sitecast::ops::backup::{backup, restore, DataLock};
use sitecast::ops::drain::{drain, DrainTimes};
use sitecast::ops::metrics;

use crate::support::{for_each_backend, free_port, tus_metadata, Options, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 3 % 256) as u8, (y * 7 % 256) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

fn config(data_dir: &Path, database_url: &str) -> Config {
    let args = ["sitecast", &format!("--data-dir={}", data_dir.display()), &format!("--database-url={database_url}")];
    Cli::try_parse_from(args).unwrap().config
}

/// `name{labels}` → value, for every sample line of a Prometheus text page.
fn samples(page: &str) -> HashMap<String, f64> {
    page.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.rsplit_once(' ').and_then(|(k, v)| Some((k.to_owned(), v.parse().ok()?))))
        .collect()
}

/// The sum of a series over all its labels.
fn total(samples: &HashMap<String, f64>, name: &str) -> f64 {
    samples
        .iter()
        .filter(|(k, _)| *k == name || k.starts_with(&format!("{name}{{")))
        .map(|(_, v)| v)
        .sum()
}

async fn scrape(addr: std::net::SocketAddr) -> String {
    let mut resp = awc::Client::default().get(format!("http://{addr}/metrics")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    String::from_utf8(resp.body().limit(8 * 1024 * 1024).await.unwrap().to_vec()).unwrap()
}

/// A world whose project has a photo, and that project as its homeowner's Hello has it.
async fn world_project(server: &TestServer) -> (World, protocol::Project) {
    let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
    let (_, hello) = server.connect_as(&world.users["homeowner"].session).await;
    let project = hello.snapshot.projects.into_iter().find(|p| p.id == world.projects[0].id).expect("the world's project");
    (world, project)
}

async fn subscribe(ws: &mut WsClient, id: u32, project: &str) -> Vec<protocol::ProjectImage> {
    match ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap() {
        Response::Subscribed { photos, .. } => photos,
        other => panic!("expected subscribed, got {other:?}"),
    }
}

#[actix_web::test]
async fn the_metrics_endpoint_lists_every_series_and_they_move() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    let (addr, endpoint) = metrics::serve(server.state.store.clone(), "127.0.0.1:0").unwrap();
    actix_web::rt::spawn(endpoint);
    let before = samples(&scrape(addr).await);

    // A socket opens, a change goes out to it, a photo is uploaded, a login fails.
    let (world, project) = world_project(&server).await;
    let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
    let (mut homeowner, _) = server.connect_as(&world.users["homeowner"].session).await;
    subscribe(&mut homeowner, 1, &project.id).await;
    let change = protocol::UpdateProject { id: project.id.clone(), progress: Some(61), ..Default::default() };
    admin.request(2, Request::UpdateProject(change)).await.unwrap();
    homeowner.event(|e| matches!(e, Event::ProjectUpdated { .. }).then_some(())).await;
    let r = server.upload(&project.id, &world.users["owner"].session, &[("site.jpg", &jpeg(320, 240))]).await;
    assert!(r.all_stored(), "{r}");
    let r = server.post("/api/auth/login", serde_json::json!({ "email": world.users["admin"].email, "password": "not-the-password" }), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    let page = scrape(addr).await;
    for name in metrics::ALL {
        assert!(page.contains(&format!("# TYPE {name} ")), "{name} is not listed:\n{page}");
    }
    let after = samples(&page);
    let moved = |name: &str| total(&after, name) > total(&before, name);
    assert!(total(&after, metrics::WS_CONNECTIONS) >= 2.0, "our two sockets are open");
    assert!(moved(metrics::WS_OPENED));
    assert!(moved(metrics::EVENTS_SENT));
    assert!(after.keys().any(|k| k.starts_with(metrics::EVENTS_SENT) && k.contains("audience=\"subscribers\"")));
    assert!(moved(&format!("{}_count", metrics::UPLOAD_SECONDS)));
    assert!(moved(&format!("{}_count", metrics::RENDITION_SECONDS)));
    assert!(moved(&format!("{}_count", metrics::HTTP_SECONDS)));
    assert!(moved(metrics::HTTP_REQUESTS));
    assert!(moved(metrics::LOGIN_FAILURES));
    assert!(after.contains_key(&format!("{}{{reason=\"invalid_credentials\"}}", metrics::LOGIN_FAILURES)));
    assert!(total(&after, metrics::DB_POOL_MAX) >= 1.0);
    assert!(after.contains_key(&format!("{}{{state=\"in_use\"}}", metrics::DB_POOL_CONNECTIONS)));
    for kind in ["mail", "push"] {
        assert!(after.contains_key(&format!("{}{{kind=\"{kind}\"}}", metrics::OUTBOX_PENDING)), "the outbox's {kind} level");
    }
    // Bounded labels: no id of anything appears in the page.
    for id in [&project.id, &project.homeowner_id] {
        assert!(!page.contains(id.as_str()), "an id leaked into a label");
    }
    server.stop().await;
}

/// An upload whose body is sent in two halves, the test deciding when the second goes.
/// A tus upload whose PATCH sends `first` now and the rest of its body when told
/// (the sender; dropping it ends the body). The answer: status and the stored photo.
async fn streamed_upload(
    server: &TestServer,
    project_id: &str,
    cookie: &str,
    length: usize,
    first: Vec<u8>,
) -> (tokio::sync::mpsc::Sender<Bytes>, tokio::sync::oneshot::Receiver<(StatusCode, Option<String>)>) {
    let client = awc::Client::builder().timeout(Duration::from_secs(120)).finish();
    let tus = |method: awc::http::Method, url: String| {
        client
            .request(method, url)
            .insert_header(("Origin", ORIGIN))
            .insert_header(("Cookie", format!("sitecast_session={cookie}")))
            .insert_header(("Tus-Resumable", "1.0.0"))
    };
    let meta = tus_metadata(&[("projectId", project_id), ("filename", "on-site.jpg")]);
    let created = tus(awc::http::Method::POST, format!("{}/api/uploads", server.base))
        .insert_header(("Upload-Length", length.to_string()))
        .insert_header(("Upload-Metadata", meta))
        .send()
        .await
        .expect("upload created");
    assert_eq!(created.status(), StatusCode::CREATED);
    let location = created.headers().get("location").unwrap().to_str().unwrap().to_owned();
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (Ok::<_, std::io::Error>(chunk), rx))
    });
    let request = tus(awc::http::Method::PATCH, format!("{}{location}", server.base))
        .insert_header(("Upload-Offset", "0"))
        .insert_header(("Content-Type", "application/offset+octet-stream"));
    let (done_tx, done_rx) = tokio::sync::oneshot::channel();
    actix_web::rt::spawn(async move {
        let resp = request.send_stream(stream).await.expect("upload answered");
        let photo = resp.headers().get("sitecast-photo").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let _ = done_tx.send((resp.status(), photo));
    });
    let _ = tx.try_send(Bytes::from(first));
    (tx, done_rx)
}

#[actix_web::test]
async fn a_drain_finishes_the_upload_in_flight_tells_sockets_1012_and_loses_nothing() {
    for_each_backend(|db| async move {
        let data = tempfile::tempdir().unwrap();
        let opts = || Options {
            data_dir: Some(data.path().to_owned()),
            ws_ping_secs: 60,
            ws_timeout_secs: 600,
            ..Options::default()
        };
        let url = if db.name == "sqlite" { format!("sqlite://{}/sitecast.db", data.path().display()) } else { db.url.clone() };
        let server = TestServer::start(&url, opts()).await;
        let (world, project) = world_project(&server).await;
        let (mut watcher, _) = server.connect_as(&world.users["homeowner"].session).await;
        let before = subscribe(&mut watcher, 1, &project.id).await.len();

        // The upload's first half arrives; the second is still on its way when the drain starts.
        let builder = world.users["owner"].session.clone();
        let body = jpeg(640, 480);
        let half = body.len() / 2;
        let (rest, answer) = streamed_upload(&server, &project.id, &builder, body.len(), body[..half].to_vec()).await;
        while server.state.ops.uploads.running() == 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let times = DrainTimes { uploads: Duration::from_secs(60), window: Duration::from_secs(1), outbox: Duration::from_secs(10) };
        let (state, handle) = (server.state.clone(), server.server_handle());
        let drained = actix_web::rt::spawn(async move { drain(&state.ops, &state.live, &state.store, &handle, times).await });
        while !server.state.ops.is_draining() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(server.state.ops.uploads.running(), 1, "the drain waits for the upload");
        rest.send(Bytes::from(body[half..].to_vec())).await.unwrap();
        drop(rest);

        let (status, photo) = answer.await.unwrap();
        assert_eq!(status, StatusCode::NO_CONTENT, "the upload in flight completes");
        let photo_id = photo.expect("the photo it became");

        // The open socket is told to reconnect (to another instance, or this one restarted).
        assert_eq!(watcher.close_code().await, Some(1012), "the socket is told to reconnect");
        let drained = drained.await.unwrap();
        assert_eq!(drained.uploads_cut, 0);
        assert!(drained.sockets >= 1);
        assert!(drained.outbox_flushed, "the outbox worker stopped after its sends");

        // No orphan and no loss: the photo's row and all three files are there.
        let keys = server.state.photos.list(&format!("projects/{}/{photo_id}/", project.id)).await.unwrap();
        assert_eq!(keys.len(), 3, "original, display and thumbnail: {keys:?}");
        let server_dir = data.path().to_owned();
        server.stop().await;

        // The restarted instance has it; the client reconnects and sees it.
        let restarted = TestServer::start(&url, Options { data_dir: Some(server_dir), ..opts() }).await;
        let (mut watcher, _) = restarted.connect_as(&world.users["homeowner"].session).await;
        let photos = subscribe(&mut watcher, 1, &project.id).await;
        assert_eq!(photos.len(), before + 1);
        assert!(photos.iter().any(|p| p.id == photo_id));
        restarted.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn readiness_asks_the_database_and_the_photo_store() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    let r = server.get("/api/ready", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["status"], "ready");
    assert_eq!(r.body["database"], "ok");
    assert_eq!(r.body["photoStore"], "ok");
    assert!(r.headers.get("x-request-id").is_some(), "every answer carries its request id");
    let r = server.get_with("/api/health", None, &[("X-Request-Id", "probe-42")]).await;
    assert_eq!(r.headers.get("x-request-id").unwrap(), "probe-42", "a proxy's id is kept");
    let r = server.get_with("/api/health", None, &[("X-Request-Id", "bad id\twith spaces")]).await;
    assert_ne!(r.headers.get("x-request-id").unwrap(), "bad id\twith spaces");
    server.state.store.close().await;
    let r = server.get("/api/ready", None).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.body["database"], "failing");
}

#[actix_web::test]
async fn a_release_step_migrates_and_instances_refuse_a_database_that_is_behind() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/fresh.db", dir.path().display());
    let err = sitecast::store::Store::open(&url, None, false).await.err().expect("an unmigrated database is refused");
    assert!(err.to_string().contains("run `sitecast migrate`"), "{err}");
    let store = sitecast::store::Store::open(&url, None, true).await.unwrap();
    store.close().await;
    let store = sitecast::store::Store::open(&url, None, false).await.expect("migrated: accepted");
    store.close().await;
}

#[actix_web::test]
async fn backup_then_restore_into_a_fresh_folder_gives_the_same_users_projects_and_photo_bytes() {
    let live_dir = tempfile::tempdir().unwrap();
    let live_url = format!("sqlite://{}/sitecast.db", live_dir.path().display());
    let server = TestServer::start(&live_url, Options { data_dir: Some(live_dir.path().to_owned()), ..Options::default() }).await;
    let (world, project) = world_project(&server).await;
    let builder = world.users["owner"].session.clone();
    let r = server.upload(&project.id, &builder, &[("backed-up.jpg", &jpeg(500, 300))]).await;
    assert!(r.all_stored(), "{r}");

    // Online: the server keeps running while the backup is taken.
    let backups = tempfile::tempdir().unwrap();
    let to = backups.path().join("b1");
    let manifest = backup(&config(live_dir.path(), &live_url), &to).await.unwrap();
    assert!(manifest.photos >= 1);
    assert_eq!(manifest.dropped_photos, 0);
    assert!(backup(&config(live_dir.path(), &live_url), &to).await.is_err(), "never into a folder with data");

    // Restore into a fresh data folder: refused while a server holds it, done once stopped.
    let fresh = tempfile::tempdir().unwrap();
    let fresh_url = format!("sqlite://{}/sitecast.db", fresh.path().display());
    let running = DataLock::acquire(fresh.path()).unwrap();
    let err = restore(&config(fresh.path(), &fresh_url), &to).await.unwrap_err();
    assert!(err.to_string().contains("running"), "{err}");
    drop(running);
    let restored = restore(&config(fresh.path(), &fresh_url), &to).await.unwrap();
    assert_eq!(restored.manifest, manifest);
    assert!(restored.set_aside.is_none(), "nothing was there to set aside");

    let copy = TestServer::start(&fresh_url, Options { data_dir: Some(fresh.path().to_owned()), ..Options::default() }).await;
    for sql in ["SELECT id || ' ' || email FROM users ORDER BY id", "SELECT id || ' ' || title || ' ' || version FROM projects ORDER BY id"] {
        let rows = |s: &TestServer| {
            let pool = s.state.store.pool().clone();
            async move { TestSql::new(sql).fetch_all::<(String,)>(&pool).await.unwrap() }
        };
        assert_eq!(rows(&server).await, rows(&copy).await, "{sql}");
    }
    let keys = server.state.photos.list("projects/").await.unwrap();
    assert_eq!(keys, copy.state.photos.list("projects/").await.unwrap());
    assert!(keys.len() >= 3);
    for key in &keys {
        assert_eq!(server.state.photos.get(key).await.unwrap(), copy.state.photos.get(key).await.unwrap(), "{key}");
    }
    // And people sign in to the copy as before.
    copy.login(&world.users["admin"].email, &world.password).await;

    // Restoring over data moves that data aside instead of deleting it.
    copy.stop().await;
    let again = restore(&config(fresh.path(), &fresh_url), &to).await.unwrap();
    let aside = again.set_aside.expect("the replaced data is kept");
    assert!(aside.join("sitecast.db").is_file());
    server.stop().await;
}

/// The real binary with `SITECAST_LOG_FORMAT=json`: every line is a JSON object, each
/// request's lines carry its id, and SIGTERM drains and exits cleanly.
#[actix_web::test]
async fn json_logs_parse_line_by_line_and_sigterm_drains_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let (port, metrics_port) = (free_port(), free_port());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sitecast"))
        .arg("serve")
        .env("SITECAST_LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .env("SITECAST_BIND", format!("127.0.0.1:{port}"))
        .env("SITECAST_METRICS_BIND", format!("127.0.0.1:{metrics_port}"))
        .env("SITECAST_PUBLIC_URL", format!("http://localhost:{port}"))
        .env("SITECAST_DATA_DIR", dir.path())
        .env("SITECAST_DEMO", "false")
        .env("SITECAST_DRAIN_WINDOW_SECS", "1")
        .env("SITECAST_WEB_DIR", dir.path().join("no-web"))
        .env_remove("SITECAST_DATABASE_URL")
        .env_remove("DATABASE_URL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let client = awc::Client::default();
    let mut up = false;
    for _ in 0..600 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "the server did not start");
    let resp = client
        .post(format!("http://127.0.0.1:{port}/api/auth/login"))
        .insert_header(("X-Request-Id", "login-7"))
        .send_json(&serde_json::json!({ "email": "nobody@example.com", "password": "wrong-password" }))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let page = scrape(format!("127.0.0.1:{metrics_port}").parse().unwrap()).await;
    assert!(page.contains("sitecast_login_failures_total{reason=\"invalid_credentials\"} 1"), "{page}");
    // A second server on the same data folder is refused (that lock is also what
    // `sitecast restore` checks).
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_sitecast"))
        .arg("serve")
        .env("SITECAST_BIND", "127.0.0.1:0")
        .env("SITECAST_METRICS_BIND", "off")
        .env("SITECAST_DATA_DIR", dir.path())
        .env_remove("SITECAST_DATABASE_URL")
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("is running on"), "{}", String::from_utf8_lossy(&second.stderr));

    // SAFETY: signals the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let output = tokio::task::spawn_blocking(move || {
        let status = child.wait().unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
        (status, out)
    })
    .await
    .unwrap();
    assert!(output.0.success(), "a drained server exits cleanly: {:?}", output.0);
    let lines: Vec<serde_json::Value> = output
        .1
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(lines.iter().all(|l| l["level"].is_string() && l["message"].is_string() && l["timestamp"].is_string()));
    let login: Vec<_> = lines.iter().filter(|l| l["span"]["request_id"] == "login-7").collect();
    assert!(!login.is_empty(), "the request's lines carry its id");
    assert!(login.iter().any(|l| l["status"] == 401 && l["span"]["path"] == "/api/auth/login"));
    let running = lines.iter().find(|l| l["message"].as_str().unwrap_or("").starts_with("Sitecast is running")).unwrap();
    assert_eq!(running["message"], format!("Sitecast is running: open http://localhost:{port}/"));
    assert!(lines.iter().any(|l| l["message"] == "drained; exiting"));
}
