//! Resumable uploads (tus 1.0) end to end: an upload cut off mid-file resumes from the
//! server's offset and each byte arrives once; batches complete with one mail that
//! carries their note; who may create and append; limits; expiry and the sweep.

use std::io::Cursor;
use std::time::Duration;

use awc::http::StatusCode;
use bytes::Bytes;
use image::{DynamicImage, ImageFormat};
use protocol::{Event, ImageCategory, NotificationKind, Project, Request, Response};
use sitecast::domain::media::photos::REASON_TRUNCATED;

use crate::support::{for_each_backend, Options, TestServer, TestSql, World, WorldSpec, ORIGIN};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// A noisy JPEG (so it does not compress to nothing) of about `w`×`h`.
pub(crate) fn photo(w: u32, h: u32) -> Vec<u8> {
    let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
        let n = x.wrapping_mul(2_654_435_761).wrapping_add(y.wrapping_mul(40_503));
        image::Rgb([(n >> 3) as u8, (n >> 11) as u8, (x + y) as u8])
    }));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

pub(crate) fn metadata(pairs: &[(&str, &str)]) -> String {
    crate::support::tus_metadata(pairs)
}

/// A tus client over awc, as a browser would send it: cookie, Origin, tus headers.
pub(crate) struct Tus<'a> {
    server: &'a TestServer,
    cookie: String,
    client: awc::Client,
}

pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) headers: awc::http::header::HeaderMap,
    pub(crate) body: serde_json::Value,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
    }

    fn offset(&self) -> u64 {
        self.header("upload-offset").expect("Upload-Offset").parse().unwrap()
    }
}

impl<'a> Tus<'a> {
    /// A tus client signed in with a session cookie.
    pub(crate) async fn new(server: &'a TestServer, cookie: &str) -> Tus<'a> {
        let cookie = cookie.to_owned();
        Tus { server, cookie, client: awc::Client::builder().timeout(Duration::from_secs(30)).finish() }
    }

    fn request(&self, method: awc::http::Method, path: &str) -> awc::ClientRequest {
        let url = if path.starts_with("http") { path.to_owned() } else { format!("{}{path}", self.server.base) };
        self.client
            .request(method, url)
            .insert_header(("Origin", ORIGIN))
            .insert_header(("Cookie", format!("sitecast_session={}", self.cookie)))
            .insert_header(("Tus-Resumable", "1.0.0"))
    }

    async fn answer(
        resp: Result<awc::ClientResponse<impl futures_util::Stream<Item = Result<Bytes, awc::error::PayloadError>> + Unpin>, awc::error::SendRequestError>,
    ) -> Answer {
        let mut resp = resp.expect("request sent");
        let bytes = resp.body().await.unwrap_or_default();
        Answer { status: resp.status(), headers: resp.headers().clone(), body: serde_json::from_slice(&bytes).unwrap_or_default() }
    }

    pub(crate) async fn create(&self, length: usize, meta: &[(&str, &str)]) -> Answer {
        let req = self
            .request(awc::http::Method::POST, "/api/uploads")
            .insert_header(("Upload-Length", length.to_string()))
            .insert_header(("Upload-Metadata", metadata(meta)));
        Tus::answer(req.send().await).await
    }

    pub(crate) async fn head(&self, location: &str) -> Answer {
        Tus::answer(self.request(awc::http::Method::HEAD, location).send().await).await
    }

    pub(crate) async fn patch(&self, location: &str, offset: u64, bytes: &[u8]) -> Answer {
        let req = self
            .request(awc::http::Method::PATCH, location)
            .insert_header(("Upload-Offset", offset.to_string()))
            .insert_header(("Content-Type", "application/offset+octet-stream"));
        Tus::answer(req.send_body(bytes.to_vec()).await).await
    }

    /// Sends `bytes` and then drops the connection before the request ends, as a phone
    /// losing coverage does.
    async fn patch_cut(&self, location: &str, offset: u64, bytes: &[u8]) {
        let first = Bytes::copy_from_slice(bytes);
        let body = futures_util::stream::iter(vec![
            Ok::<_, std::io::Error>(first),
            Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "coverage lost")),
        ]);
        let req = self
            .request(awc::http::Method::PATCH, location)
            .insert_header(("Upload-Offset", offset.to_string()))
            .insert_header(("Content-Type", "application/offset+octet-stream"));
        assert!(req.send_stream(body).await.is_err(), "the cut request must fail");
    }

    async fn delete(&self, location: &str) -> Answer {
        Tus::answer(self.request(awc::http::Method::DELETE, location).send().await).await
    }
}

/// A world whose project has a photo, and that project as its homeowner's Hello has it.
async fn world_project(server: &TestServer) -> (World, Project) {
    let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
    let (_, hello) = server.connect_as(&world.users["homeowner"].session).await;
    let project = hello.snapshot.projects.into_iter().find(|p| p.id == world.projects[0].id).expect("the world's project");
    (world, project)
}

async fn partial_files(server: &TestServer) -> usize {
    std::fs::read_dir(server.dir.path().join("uploads")).map(|d| d.count()).unwrap_or(0)
}

/// Waits until the server has written `at_least` bytes of the upload (the cut request's
/// bytes are written as they arrive, after the client gave up on it).
async fn offset_reaches(tus: &Tus<'_>, location: &str, at_least: u64) -> u64 {
    for _ in 0..200 {
        let head = tus.head(location).await;
        assert_eq!(head.status, StatusCode::OK);
        if head.offset() >= at_least {
            return head.offset();
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the server never reached offset {at_least}");
}

#[actix_web::test]
async fn a_cut_upload_resumes_from_the_servers_offset_and_the_batch_mails_its_note() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_project(&server).await;
        let homeowner = world.users["homeowner"].email.as_str();
        let (mut watcher, _) = server.connect_as(&world.users["homeowner"].session).await;
        match watcher.request(1, Request::Subscribe(protocol::Subscribe { id: project.id.clone() })).await.unwrap() {
            Response::Subscribed { .. } => {}
            other => panic!("expected subscribed, got {other:?}"),
        }
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let mails_before = server.mail_count(homeowner).await;

        let file = photo(1600, 1200);
        assert!(file.len() > 200_000, "{} bytes", file.len());
        let note = "Framing inspected; windows arrive Tuesday";
        let batch = uuid::Uuid::new_v4().to_string();
        let created = tus
            .create(file.len(), &[
                ("projectId", &project.id),
                ("filename", "IMG_0412.jpg"),
                ("caption", "North wall framing"),
                ("category", "structural"),
                ("batchId", &batch),
                ("batchSize", "2"),
                ("note", note),
            ])
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        assert_eq!(created.header("tus-resumable").as_deref(), Some("1.0.0"));
        assert!(created.header("upload-expires").is_some());
        let location = created.header("location").expect("Location");

        // The connection drops 40% of the way through the file.
        let cut = file.len() * 2 / 5;
        tus.patch_cut(&location, 0, &file[..cut]).await;
        let offset = offset_reaches(&tus, &location, 1).await;
        assert!(offset <= cut as u64, "the server has {offset} of {cut} sent bytes");
        // Resuming from anywhere but the server's offset is refused, and changes nothing.
        let wrong = tus.patch(&location, 0, &file).await;
        assert_eq!(wrong.status, StatusCode::CONFLICT);
        assert_eq!(tus.head(&location).await.offset(), offset);
        // From the offset: only the rest is sent, and it completes the file.
        let rest = tus.patch(&location, offset, &file[offset as usize..]).await;
        assert_eq!(rest.status, StatusCode::NO_CONTENT, "{}", rest.body);
        assert_eq!(rest.offset(), file.len() as u64);
        let photo_id = rest.header("sitecast-photo").expect("the photo it became");
        // Each byte was received once: what is stored is the file, byte for byte.
        let stored = server.state.svc.partials.offset(location.rsplit('/').next().unwrap()).await.unwrap();
        assert_eq!(stored, None, "the partial bytes are gone");
        let added = watcher
            .event(|e| match e {
                Event::PhotoAdded { photo } => Some(photo.clone()),
                _ => None,
            })
            .await;
        assert_eq!(added.id, photo_id);
        assert_eq!((added.caption.as_deref(), added.category), (Some("North wall framing"), ImageCategory::Structural));
        assert_eq!(added.original_name, "IMG_0412.jpg");
        // The photo keeps its site visit's note, for the gallery and the lightbox.
        assert_eq!(added.visit_note.as_deref(), Some(note));
        let cookie = tus.cookie.clone();
        let original = server.get(&added.download_url, Some(&cookie)).await;
        assert_eq!(original.status, StatusCode::OK);
        assert_eq!(original.bytes, file);
        // Asking again (a client that lost the answer) says the same, stores nothing new.
        let again = tus.head(&location).await;
        assert_eq!((again.offset(), again.header("sitecast-photo")), (file.len() as u64, Some(photo_id.clone())));
        assert_eq!(tus.patch(&location, file.len() as u64, &[]).await.status, StatusCode::NO_CONTENT);

        // No mail until the batch's second file finishes: a truncated photo, refused.
        assert_eq!(server.mail_count(homeowner).await, mails_before);
        let truncated = &file[..file.len() / 3];
        let second = tus
            .create(truncated.len(), &[("projectId", &project.id), ("filename", "IMG_0413.jpg"), ("batchId", &batch), ("batchSize", "2")])
            .await;
        assert_eq!(second.status, StatusCode::CREATED, "{}", second.body);
        let refused = tus.patch(&second.header("location").unwrap(), 0, truncated).await;
        assert_eq!(refused.status, StatusCode::NO_CONTENT);
        let reason = refused.header("sitecast-refused").expect("why it was refused");
        assert_eq!(reason, sitecast::http::tus::percent_encode(REASON_TRUNCATED));
        // A third file is past the batch's declared size.
        let third = tus.create(10, &[("projectId", &project.id), ("batchId", &batch), ("batchSize", "2")]).await;
        assert_eq!(third.status, StatusCode::PAYLOAD_TOO_LARGE);
        // A visit's id is a UUID in its one written form, like every id.
        for id in ["load-1f3a9c0e77", "193a1e4f2b3-9c4d5e6f7a8b9", &batch.to_uppercase()] {
            let odd = tus.create(10, &[("projectId", &project.id), ("batchId", id), ("batchSize", "1")]).await;
            assert_eq!(odd.status, StatusCode::BAD_REQUEST, "{id}: {}", odd.body);
        }

        let subject = format!("1 new photo in {}", project.title);
        let text = server.wait_for_mail(homeowner, &subject).await;
        assert!(text.contains(note), "{text}");
        // The homeowner is notified once for the visit, live, linking to the project.
        let notice = watcher
            .event(|e| match e {
                Event::NotificationAdded { notification, .. } => Some(notification.clone()),
                _ => None,
            })
            .await;
        assert_eq!((notice.kind, notice.project_id.as_deref()), (NotificationKind::NewPhotos, Some(project.id.as_str())));
        assert_eq!(notice.title, subject);
        assert_eq!(server.mail_count(homeowner).await, mails_before + 1);
        let photos: i64 =
            TestSql::per_backend("SELECT COUNT(*) FROM project_images WHERE id = $1", "SELECT COUNT(*) FROM project_images WHERE id = $1::uuid")
                .bind(&photo_id)
                .scalar(server.state.store.pool())
                .await
                .unwrap();
        assert_eq!(photos, 1);
        assert_eq!(partial_files(&server).await, 0);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn who_may_create_and_append() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_project(&server).await;
        let file = photo(320, 240);
        let meta = [("projectId", project.id.as_str()), ("filename", "a.jpg")];

        // The homeowner may not create an upload on their own project.
        let homeowner = Tus::new(&server, &world.users["homeowner"].session).await;
        let r = homeowner.create(file.len(), &meta).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN);
        assert_eq!(r.body["message"], "You don't have permission to upload photos to this project.");
        // Without a session, or from a foreign site, nothing is created.
        let anonymous = awc::Client::new()
            .post(format!("{}/api/uploads", server.base))
            .insert_header(("Tus-Resumable", "1.0.0"))
            .insert_header(("Upload-Length", file.len().to_string()))
            .insert_header(("Upload-Metadata", metadata(&meta)))
            .send()
            .await
            .unwrap();
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
        let builder = Tus::new(&server, &world.users["owner"].session).await;
        let foreign = builder
            .client
            .post(format!("{}/api/uploads", server.base))
            .insert_header(("Origin", "https://evil.example"))
            .insert_header(("Cookie", format!("sitecast_session={}", builder.cookie)))
            .insert_header(("Tus-Resumable", "1.0.0"))
            .insert_header(("Upload-Length", file.len().to_string()))
            .insert_header(("Upload-Metadata", metadata(&meta)))
            .send()
            .await
            .unwrap();
        assert_eq!(foreign.status(), StatusCode::FORBIDDEN);

        // The builder creates one; nobody else may append to it or read or end it.
        let created = builder.create(file.len(), &meta).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let location = created.header("location").unwrap();
        for (status, what) in [
            (homeowner.patch(&location, 0, &file[..100]).await.status, "append"),
            (homeowner.head(&location).await.status, "status"),
            (homeowner.delete(&location).await.status, "terminate"),
        ] {
            assert_eq!(status, StatusCode::NOT_FOUND, "the homeowner's {what}");
        }
        assert_eq!(builder.patch(&location, 0, &file[..100]).await.status, StatusCode::NO_CONTENT);

        // Once the builder is no longer on the project (a builder of another project
        // now), the next chunk is refused and nothing more is written.
        TestSql::per_backend("UPDATE projects SET company_id = NULL WHERE id = $1", "UPDATE projects SET company_id = NULL WHERE id = $1::uuid")
            .bind(&project.id)
            .execute(server.state.store.pool())
            .await
            .unwrap();
        let refused = builder.patch(&location, 100, &file[100..]).await;
        assert!(matches!(refused.status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND), "{}", refused.status);
        assert_eq!(server.state.svc.partials.offset(location.rsplit('/').next().unwrap()).await.unwrap(), Some(100));
        let again = builder.create(file.len(), &meta).await;
        assert!(matches!(again.status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND), "{}", again.status);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn sizes_counts_and_protocol_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), slow_beats()).await;
    let (world, project) = world_project(&server).await;
    let tus = Tus::new(&server, &world.users["owner"].session).await;
    let meta = [("projectId", project.id.as_str()), ("filename", "a.jpg")];

    let options = awc::Client::new().options(format!("{}/api/uploads", server.base)).send().await.unwrap();
    assert_eq!(options.status(), StatusCode::NO_CONTENT);
    assert_eq!(options.headers().get("tus-version").unwrap(), "1.0.0");
    assert_eq!(options.headers().get("tus-extension").unwrap(), "creation,termination,expiration");
    assert_eq!(options.headers().get("tus-max-size").unwrap(), &(30 * 1024 * 1024).to_string());

    let big = tus.create(30 * 1024 * 1024 + 1, &meta).await;
    assert_eq!((big.status, big.body["message"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("Larger than the 30 MB limit")));
    assert_eq!(tus.create(0, &meta).await.status, StatusCode::BAD_REQUEST);
    let batch = uuid::Uuid::new_v4().to_string();
    let over = tus.create(10, &[("projectId", &project.id), ("batchId", &batch), ("batchSize", "51")]).await;
    assert_eq!((over.status, over.body["message"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("Over the limit of 50 photos per upload")));
    let unversioned = tus.client.post(format!("{}/api/uploads", server.base))
        .insert_header(("Origin", ORIGIN))
        .insert_header(("Cookie", format!("sitecast_session={}", tus.cookie)))
        .insert_header(("Upload-Length", "10"))
        .insert_header(("Upload-Metadata", metadata(&meta)))
        .send()
        .await
        .unwrap();
    assert_eq!(unversioned.status(), StatusCode::PRECONDITION_FAILED);

    let created = tus.create(10, &meta).await;
    let location = created.header("location").unwrap();
    // More than declared: refused, and none of it kept.
    assert_eq!(tus.patch(&location, 0, b"0123456789AB").await.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(tus.head(&location).await.offset(), 0);
    let wrong_type = tus
        .request(awc::http::Method::PATCH, &location)
        .insert_header(("Upload-Offset", "0"))
        .insert_header(("Content-Type", "application/octet-stream"))
        .send_body("01234")
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Discarded: gone, and so are its bytes.
    assert_eq!(tus.patch(&location, 0, b"01234").await.status, StatusCode::NO_CONTENT);
    assert_eq!(tus.delete(&location).await.status, StatusCode::NO_CONTENT);
    assert_eq!(tus.head(&location).await.status, StatusCode::NOT_FOUND);
    assert_eq!(partial_files(&server).await, 0);

    // At most a hundred unfinished uploads per person.
    for i in 0..sitecast::domain::media::uploads::MAX_OPEN_UPLOADS {
        assert_eq!(tus.create(10, &meta).await.status, StatusCode::CREATED, "upload {i}");
    }
    let one_more = tus.create(10, &meta).await;
    assert_eq!(one_more.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(one_more.body["message"], sitecast::domain::media::uploads::too_many_open());
    server.stop().await;
}

#[actix_web::test]
async fn an_abandoned_upload_expires_and_is_swept() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_project(&server).await;
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let created = tus.create(1000, &[("projectId", &project.id), ("filename", "a.jpg")]).await;
        let location = created.header("location").unwrap();
        let id = location.rsplit('/').next().unwrap().to_owned();
        assert_eq!(tus.patch(&location, 0, &[7u8; 400]).await.status, StatusCode::NO_CONTENT);
        // A partial file whose row never made it (a crash between the two).
        std::fs::write(server.dir.path().join("uploads/0000-orphan.part"), b"x").unwrap();
        let sweep = || sitecast::domain::media::uploads::sweep(&server.state.svc, Duration::ZERO, &server.state.live);

        // Still fresh: the sweep leaves it (and only removes the orphan).
        assert_eq!(sweep().await.unwrap(), 1);
        assert_eq!(tus.head(&location).await.offset(), 400);
        // Past its expiry: refused at once, and swept.
        TestSql::per_backend(
            "UPDATE uploads SET expires_at = $1 WHERE id = $2",
            "UPDATE uploads SET expires_at = TIMESTAMPTZ 'epoch' + $1 * INTERVAL '1 millisecond' WHERE id = $2::uuid",
        )
        .bind(sitecast::store::now_ms() - 1)
        .bind(&id)
        .execute(server.state.store.pool())
        .await
        .unwrap();
        assert_eq!(tus.head(&location).await.status, StatusCode::NOT_FOUND);
        assert_eq!(tus.patch(&location, 400, &[7u8; 600]).await.status, StatusCode::NOT_FOUND);
        assert_eq!(sweep().await.unwrap(), 1);
        assert_eq!(partial_files(&server).await, 0);
        let rows: i64 = TestSql::new("SELECT COUNT(*) FROM uploads").scalar(server.state.store.pool()).await.unwrap();
        assert_eq!(rows, 0);
        server.stop().await;
        db
    })
    .await;
}

pub(crate) fn publish_request(project_id: &str, batch_id: &str, files: &[(&str, &str)], note: &str) -> Request {
    Request::PublishUploads(protocol::PublishUploads {
        project_id: project_id.to_owned(),
        batch_id: batch_id.to_owned(),
        note: Some(note.to_owned()),
        milestone_id: None,
        tags: vec!["Kitchen".into()],
        files: files
            .iter()
            .map(|(upload_id, caption)| protocol::PublishedFile {
                upload_id: (*upload_id).to_owned(),
                caption: Some((*caption).to_owned()),
                category: Some(ImageCategory::Interior),
            })
            .collect(),
    })
}

pub(crate) fn upload_id(location: &str) -> &str {
    location.rsplit('/').next().unwrap()
}

pub(crate) async fn photo_rows(server: &TestServer, project_id: &str) -> i64 {
    TestSql::per_backend(
        "SELECT COUNT(*) FROM project_images WHERE project_id = $1",
        "SELECT COUNT(*) FROM project_images WHERE project_id = $1::uuid",
    )
    .bind(project_id)
    .scalar(server.state.store.pool())
    .await
    .unwrap()
}

#[actix_web::test]
async fn held_uploads_wait_whole_until_published_then_become_one_visit() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_project(&server).await;
        let homeowner = world.users["homeowner"].email.as_str();
        let (mut watcher, _) = server.connect_as(&world.users["homeowner"].session).await;
        let Ok(Response::Subscribed { .. }) = watcher.request(1, Request::Subscribe(protocol::Subscribe { id: project.id.clone() })).await else {
            panic!("subscribed")
        };
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let photos_before = photo_rows(&server, &project.id).await;
        let mails_before = server.mail_count(homeowner).await;

        // Two photos chosen: their bytes go at once, before any caption or note.
        let (first, second) = (photo(900, 600), photo(800, 600));
        let held = [("projectId", project.id.as_str()), ("filename", "IMG_1.jpg"), ("held", "1")];
        let a = tus.create(first.len(), &held).await;
        let b = tus.create(second.len(), &held).await;
        assert_eq!((a.status, b.status), (StatusCode::CREATED, StatusCode::CREATED), "{} {}", a.body, b.body);
        let (a, b) = (a.header("location").unwrap(), b.header("location").unwrap());
        let whole = tus.patch(&a, 0, &first).await;
        assert_eq!(whole.status, StatusCode::NO_CONTENT, "{}", whole.body);
        assert_eq!(whole.offset(), first.len() as u64);
        assert_eq!(whole.header("sitecast-held").as_deref(), Some("1"), "whole, it waits to be published");
        assert_eq!(whole.header("sitecast-photo"), None);
        let asked = tus.head(&a).await;
        assert_eq!((asked.header("sitecast-held").as_deref(), asked.header("sitecast-photo")), (Some("1"), None));
        let half = second.len() / 2;
        assert_eq!(tus.patch(&b, 0, &second[..half]).await.status, StatusCode::NO_CONTENT);
        assert_eq!(tus.head(&b).await.header("sitecast-held"), None, "not whole yet");
        // Nothing is a photo yet, and nobody heard of it.
        assert_eq!(photo_rows(&server, &project.id).await, photos_before);

        // A held upload joins its visit when published, not at creation.
        let batch = uuid::Uuid::new_v4().to_string();
        let mixed = tus.create(10, &[("projectId", &project.id), ("held", "1"), ("batchId", &batch), ("batchSize", "1")]).await;
        assert_eq!(mixed.status, StatusCode::BAD_REQUEST, "{}", mixed.body);
        // Only the uploader publishes their uploads.
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let theirs = home.request(2, publish_request(&project.id, &batch, &[(upload_id(&a), "x")], "")).await;
        assert!(theirs.is_err(), "{theirs:?}");
        let nothing = builder.request(2, publish_request(&project.id, &batch, &[], "")).await;
        assert_eq!(nothing.unwrap_err().message, sitecast::domain::media::uploads::NOTHING_TO_PUBLISH);

        let note = "Cabinets in; counters next week";
        let files = [(upload_id(&a), "Island cabinets"), (upload_id(&b), "Pantry wall")];
        let published = builder.request(3, publish_request(&project.id, &batch, &files, note)).await;
        assert!(matches!(published, Ok(Response::Done)), "{published:?}");
        // The whole one becomes a photo by itself, with what publishing gave it.
        let added = watcher
            .event(|e| match e {
                Event::PhotoAdded { photo } => Some(photo.clone()),
                _ => None,
            })
            .await;
        assert_eq!((added.caption.as_deref(), added.category), (Some("Island cabinets"), ImageCategory::Interior));
        assert_eq!((added.visit_note.as_deref(), added.tags.clone()), (Some(note), vec!["Kitchen".to_owned()]));
        let learned = tus.head(&a).await;
        assert_eq!(learned.header("sitecast-photo").as_deref(), Some(added.id.as_str()));
        assert_eq!(learned.header("sitecast-held"), None);
        // Sent again after a lost answer: the same answer, nothing twice.
        let again = builder.request(4, publish_request(&project.id, &batch, &files, note)).await;
        assert!(matches!(again, Ok(Response::Done)), "{again:?}");
        // Under another visit: they were published already.
        let other = builder.request(5, publish_request(&project.id, &uuid::Uuid::new_v4().to_string(), &files, note)).await;
        assert_eq!(other.unwrap_err().message, sitecast::domain::media::uploads::ALREADY_PUBLISHED);

        // The rest of the second arrives: it is stored on its last byte, and the visit
        // mails its note once.
        let rest = tus.patch(&b, half as u64, &second[half..]).await;
        assert_eq!(rest.status, StatusCode::NO_CONTENT, "{}", rest.body);
        assert!(rest.header("sitecast-photo").is_some(), "stored on its last byte");
        let text = server.wait_for_mail(homeowner, &format!("2 new photos in {}", project.title)).await;
        assert!(text.contains(note), "{text}");
        assert_eq!(server.mail_count(homeowner).await, mails_before + 1);
        assert_eq!(photo_rows(&server, &project.id).await, photos_before + 2);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn racing_publishes_of_one_selection_release_it_once() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_project(&server).await;
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let (mut one, _) = server.connect_as(&world.users["owner"].session).await;
        let (mut two, _) = server.connect_as(&world.users["owner"].session).await;
        let bytes = photo(64, 48);
        let before = photo_rows(&server, &project.id).await;
        for round in 0..6u32 {
            let mut ids = Vec::new();
            for _ in 0..2 {
                let created = tus.create(bytes.len(), &[("projectId", &project.id), ("filename", "r.jpg"), ("held", "1")]).await;
                let location = created.header("location").unwrap();
                assert_eq!(tus.patch(&location, 0, &bytes).await.header("sitecast-held").as_deref(), Some("1"));
                ids.push(upload_id(&location).to_owned());
            }
            let files: Vec<(&str, &str)> = ids.iter().map(|id| (id.as_str(), "race")).collect();
            let (x, y) = (uuid::Uuid::new_v4().to_string(), uuid::Uuid::new_v4().to_string());
            let (first, second) = futures_util::future::join(
                one.request(10 + round, publish_request(&project.id, &x, &files, "")),
                two.request(10 + round, publish_request(&project.id, &y, &files, "")),
            )
            .await;
            let won = [&first, &second].iter().filter(|r| matches!(r, Ok(Response::Done))).count();
            assert_eq!(won, 1, "round {round}: {first:?} / {second:?}");
            let lost = if first.is_ok() { second } else { first };
            assert_eq!(lost.unwrap_err().message, sitecast::domain::media::uploads::ALREADY_PUBLISHED);
            for id in &ids {
                let location = format!("/api/uploads/{id}");
                let mut stored = None;
                for _ in 0..200 {
                    stored = tus.head(&location).await.header("sitecast-photo");
                    if stored.is_some() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                assert!(stored.is_some(), "round {round}: {id} became a photo");
            }
        }
        // Each file became one photo: never two for one upload.
        assert_eq!(photo_rows(&server, &project.id).await, before + 12);
        server.stop().await;
        db
    })
    .await;
}
