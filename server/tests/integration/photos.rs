//! Photos end to end: upload (over tus, as every photo arrives), renditions, storage
//! (folder and S3), live events, edits, favourites, zip downloads, mail, and what bad
//! input leaves behind. The tus protocol itself (resuming, limits) is `uploads.rs`'.

use std::io::Cursor;
use std::time::Duration;

use awc::http::StatusCode;
use image::{DynamicImage, ImageFormat};
use protocol::{ErrorCode, Event, ImageCategory, Project, ProjectImage, Request, Response, UpdatePhoto, UpdateProject};
use sitecast::media::fixtures::{app1, jpeg_with_exif};

use crate::support::{for_each_backend, free_port, maildir_messages, Helper, Options, TestServer, TestSql, World, WorldSpec, ORIGIN};

fn encoded(format: ImageFormat, w: u32, h: u32) -> Vec<u8> {
    let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x * 7 % 256) as u8, (y * 5 % 256) as u8, ((x + y) % 256) as u8])
    }));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A JPEG whose frame header claims 15000×15000 pixels (225 MP) in a few hundred bytes.
fn bomb() -> Vec<u8> {
    let mut bytes = encoded(ImageFormat::Jpeg, 8, 8);
    let sof = bytes.windows(2).position(|p| p == [0xFF, 0xC0]).unwrap();
    bytes[sof + 5..sof + 9].copy_from_slice(&[0x3A, 0x98, 0x3A, 0x98]);
    bytes
}

/// Heartbeats slow enough that a socket a test leaves unread for a while (a second
/// tab, a watcher during an upload) is not closed as silent when the suite runs slowly
/// on a busy machine.
fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// A world whose one project has `photos` photos, and that project as its homeowner's
/// Hello has it.
async fn world_with(server: &TestServer, spec: WorldSpec) -> (World, Project) {
    let world = server.world(spec).await;
    let (_, hello) = server.connect_as(&world.users["homeowner"].session).await;
    let project = hello.snapshot.projects.into_iter().find(|p| p.id == world.projects[0].id).expect("the world's project");
    (world, project)
}

fn photos(photos: usize) -> WorldSpec {
    WorldSpec { projects: 1, photos, milestones: false, comments: false, ..WorldSpec::default() }
}

async fn row_count(server: &TestServer) -> i64 {
    TestSql::new("SELECT COUNT(*) FROM project_images").scalar(server.state.store.pool()).await.unwrap()
}

async fn stored_keys(server: &TestServer) -> Vec<String> {
    server.state.photos.list("projects/").await.unwrap()
}

async fn subscribe(ws: &mut crate::support::WsClient, id: u32, project: &str) -> (Vec<ProjectImage>, Vec<String>) {
    match ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap() {
        Response::Subscribed { photos, favourites, .. } => (photos, favourites),
        other => panic!("expected subscribed, got {other:?}"),
    }
}

#[actix_web::test]
async fn uploads_each_format_live_to_watchers_and_mail_the_homeowner_once() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_with(&server, photos(2)).await;
        let homeowner_email = world.users["homeowner"].email.as_str();
        let (mut watcher, _) = server.connect_as(&world.users["homeowner"].session).await;
        let (before, _) = subscribe(&mut watcher, 1, &project.id).await;
        let builder = server.login(&world.users["owner"].email, &world.password).await;
        let mails_before = server.mail_count(homeowner_email).await;

        // Orientation 6 (camera turned), taken 2025-06-14 09:30 at +02:00.
        let turned = jpeg_with_exif(&encoded(ImageFormat::Jpeg, 640, 480), &app1(6, "2025:06:14 09:30:00", Some("+02:00")));
        let png = encoded(ImageFormat::Png, 300, 200);
        let (gif, webp) = (encoded(ImageFormat::Gif, 120, 90), encoded(ImageFormat::WebP, 200, 100));
        let files: Vec<(&str, &[u8])> = vec![
            ("Kitchen framing.jpg", &turned),
            ("plan.png", &png),
            ("notes.jpg", b"these are my site notes, not a photo"),
            ("crane.gif", &gif),
            ("deck.webp", &webp),
        ];
        let r = server.upload(&project.id, &builder, &files).await;
        assert_eq!(r.refused(), [("notes.jpg", sitecast::domain::media::photos::REASON_NOT_IMAGE)], "{r}");
        let stored = r.photos.clone();
        let names: Vec<&str> = stored.iter().map(|p| p.original_name.as_str()).collect();
        assert_eq!(names, ["Kitchen framing.jpg", "plan.png", "crane.gif", "deck.webp"]);
        let captions: Vec<Option<&str>> = stored.iter().map(|p| p.caption.as_deref()).collect();
        assert_eq!(captions, [Some("Kitchen framing"), Some("plan"), Some("crane"), Some("deck")]);
        assert!(stored.iter().all(|p| p.category == ImageCategory::Other));
        // EXIF orientation applied; capture time kept, placed by its offset.
        assert_eq!((stored[0].width, stored[0].height), (480, 640));
        assert_eq!(stored[0].taken_at, Some(1_749_893_400_000 - 2 * 3_600_000));
        assert_eq!(stored[1].taken_at, None);

        // The watcher sees each photo arrive and the project's new thumbnail. Photo
        // events pass through the project's actor and project events do not, so the
        // two kinds may interleave either way.
        let newest = stored.iter().max_by_key(|p| (p.created_at, p.id.clone())).unwrap();
        let (mut seen, mut thumb_moved) = (Vec::new(), false);
        while seen.len() < 4 || !thumb_moved {
            match watcher.event(|e| match e {
                Event::PhotoAdded { photo } => Some(Ok(photo.id.clone())),
                Event::ProjectUpdated { project: p, .. } => Some(Err(p.thumbnail_url.clone())),
                _ => None,
            }).await {
                Ok(id) => seen.push(id),
                Err(thumb) => thumb_moved |= thumb.as_deref() == Some(newest.thumb_url.as_str()),
            }
        }
        seen.sort();
        let mut ids: Vec<String> = stored.iter().map(|p| p.id.clone()).collect();
        ids.sort();
        assert_eq!(seen, ids);

        // Listing: newest first, four more than before.
        let listed = match watcher.request(2, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await.unwrap() {
            Response::Photos { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        assert_eq!(listed.len(), before.len() + 4);
        // By the date a photo shows: taken when known, uploaded otherwise.
        let shown = |p: &ProjectImage| p.taken_at.unwrap_or(p.created_at);
        assert!(listed.windows(2).all(|w| shown(&w[0]) >= shown(&w[1])));

        // The original comes back byte for byte, under its own name.
        let homeowner = server.login(homeowner_email, &world.password).await;
        let original = server.get(&stored[1].download_url, Some(&homeowner)).await;
        assert_eq!(original.status, StatusCode::OK);
        assert_eq!(original.bytes, png);
        assert_eq!(original.headers.get("content-type").unwrap(), "image/png");
        assert!(original.headers.get("content-disposition").unwrap().to_str().unwrap().contains("plan.png"));
        let display = server.get(&stored[0].display_url, Some(&homeowner)).await;
        let img = image::load_from_memory(&display.bytes).unwrap();
        assert_eq!((img.width(), img.height()), (480, 640));

        // One mail for the batch, to the homeowner, with a link to the project.
        let text = server.wait_for_mail(homeowner_email, &format!("4 new photos in {}", project.title)).await;
        assert!(text.contains(&format!("{ORIGIN}/projects/{}", project.id)), "{text}");
        assert_eq!(server.mail_count(homeowner_email).await, mails_before + 1);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn who_may_upload_and_fetch() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), slow_beats()).await;
    // A second homeowner, with no project of their own.
    let (world, project) = world_with(&server, WorldSpec { homeowners: 2, ..photos(1) }).await;
    let jpeg = encoded(ImageFormat::Jpeg, 64, 48);
    let rows = row_count(&server).await;

    let homeowner = server.login(&world.users["homeowner"].email, &world.password).await;
    let r = server.upload(&project.id, &homeowner, &[("a.jpg", &jpeg)]).await;
    let (status, body) = r.error().expect("refused");
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["message"], "You don't have permission to upload photos to this project.");
    let nowhere = server.upload("no-such-project", &homeowner, &[("a.jpg", &jpeg)]).await;
    let (status, body) = nowhere.error().expect("refused");
    assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Project not found")));
    assert_eq!(row_count(&server).await, rows);

    // The admin may upload anywhere; the photo's bytes are the project's people's only.
    let admin = server.login(&world.users["admin"].email, &world.password).await;
    let r = server.upload(&project.id, &admin, &[("porch.jpg", &jpeg)]).await;
    assert!(r.all_stored(), "{r}");
    let photo = r.photos[0].clone();
    for url in [&photo.thumb_url, &photo.display_url, &photo.download_url] {
        assert_eq!(server.get(url, Some(&homeowner)).await.status, StatusCode::OK);
    }
    // Another homeowner, guessing the id, gets what a missing photo gets.
    let token = server.login(&world.users["homeowner2"].email, &world.password).await;
    for url in [&photo.thumb_url, &photo.download_url] {
        let r = server.get(url, Some(&token)).await;
        assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Image not found")));
    }
    let mut ws = server.ws(Some(&token), Some(ORIGIN)).await.unwrap();
    ws.next_msg().await;
    let err = ws.request(1, Request::SetFavourite(protocol::SetFavourite { image_id: photo.id.clone(), favourite: true })).await.unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"));
    let err = ws.request(2, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await.unwrap_err();
    assert_eq!(err.message, "You don't have access to this project");
    // Bytes routes tell no more than a missing project: "not found", as for any id.
    let zip = server.get(&format!("/media/projects/{}/photos.zip", project.id), Some(&token)).await;
    assert_eq!((zip.status, zip.body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Project not found")));
    server.stop().await;
}

#[actix_web::test]
async fn bad_files_are_refused_with_reasons_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), slow_beats()).await;
    let (world, project) = world_with(&server, photos(1)).await;
    let builder = world.users["owner"].session.clone();
    let (rows, keys) = (row_count(&server).await, stored_keys(&server).await);

    let r = server.upload(&project.id, &builder, &[("notes.jpg", b"plain text, renamed")]).await;
    assert_eq!(r.refused(), [("notes.jpg", sitecast::domain::media::photos::REASON_NOT_IMAGE)], "{r}");
    assert!(r.photos.is_empty());

    let r = server.upload(&project.id, &builder, &[("huge.jpg", &bomb())]).await;
    assert_eq!(r.refused(), [("huge.jpg", "Larger than the 64 megapixel limit")], "{r}");

    // Over the per-file limit: refused when declared, its bytes never taken.
    let mut big = encoded(ImageFormat::Jpeg, 64, 64);
    big.resize(31 * 1024 * 1024, 0);
    let ok = encoded(ImageFormat::Png, 40, 30);
    let r = server.upload(&project.id, &builder, &[("big.jpg", &big), ("small.png", &ok)]).await;
    let (status, body) = r.error().expect("the big one refused");
    assert_eq!((status, body["message"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("Larger than the 30 MB limit")));
    assert_eq!(r.photos.len(), 1, "{r}");
    let small = r.photos[0].clone();

    // A photo cut short (the first third of it: decoders would fill the rest with
    // grey) and text behind a GIF signature are refused with what is really wrong.
    let whole = encoded(ImageFormat::Jpeg, 640, 480);
    let gif_text: &[u8] = b"GIF89a\nSite notes: framing inspected, windows arrive Tuesday.";
    let r = server.upload(&project.id, &builder, &[("broken.jpg", &whole[..whole.len() / 3]), ("notes.gif", gif_text)]).await;
    let reasons: Vec<&str> = r.refused().into_iter().map(|(_, reason)| reason).collect();
    assert_eq!(reasons, [sitecast::domain::media::photos::REASON_TRUNCATED, "Damaged: named like an image but not a valid GIF file"], "{r}");

    assert_eq!(row_count(&server).await, rows + 1);
    let mut expected = keys.clone();
    let prefix = format!("projects/{}/{}", project.id, small.id);
    expected.extend(["original.png", "display.jpg", "thumb.jpg"].map(|f| format!("{prefix}/{f}")));
    expected.sort();
    let mut now = stored_keys(&server).await;
    now.sort();
    assert_eq!(now, expected, "only the one good photo's files were added");
    server.stop().await;
}

#[actix_web::test]
async fn files_without_a_row_are_swept_at_start_up() {
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/t.db", data.path().display());
    // Photos with rows, there before the start-up that sweeps.
    let server = TestServer::start(&url, Options { data_dir: Some(data.path().to_owned()), ..slow_beats() }).await;
    server.world(photos(3)).await;
    server.stop().await;
    let photos = data.path().join("photos/projects/p1");
    // What a crash between writing a photo's files and its row leaves: an old one
    // (any pre-v7 id counts as old) and one written just now (maybe still uploading).
    let old = photos.join(uuid::Uuid::new_v4().to_string());
    let fresh = photos.join(uuid::Uuid::now_v7().to_string());
    for dir in [&old, &fresh] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("thumb.jpg"), b"x").unwrap();
        std::fs::write(dir.join("original.jpg"), b"x").unwrap();
    }
    let server = TestServer::start(&url, Options { data_dir: Some(data.path().to_owned()), ..slow_beats() }).await;
    let mut swept = false;
    for _ in 0..100 {
        if !old.join("thumb.jpg").exists() {
            swept = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(swept, "the orphan was removed at start-up");
    assert!(!old.join("original.jpg").exists());
    assert!(fresh.join("thumb.jpg").exists(), "young files are left for their upload to finish");
    // The world's photos, which have rows, are all still there.
    let rows = row_count(&server).await as usize;
    let kept = stored_keys(&server).await.into_iter().filter(|k| !k.starts_with("projects/p1/")).count();
    assert_eq!(kept, rows * 3);
    // With no grace, the young orphan goes too.
    assert_eq!(sitecast::domain::media::photos::sweep_orphans(&server.state.svc, Duration::ZERO).await.unwrap(), 1);
    assert!(!fresh.join("thumb.jpg").exists());
    server.stop().await;
}

#[actix_web::test]
async fn edits_deletes_and_favourites_over_the_socket() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let (world, project) = world_with(&server, photos(2)).await;
        let homeowner_email = world.users["homeowner"].email.as_str();
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut home_tab2, _) = server.connect_as(&server.login(homeowner_email, &world.password).await).await;
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (photos, favourites) = subscribe(&mut home, 1, &project.id).await;
        assert!(favourites.is_empty());
        let (newest, second) = (photos[0].clone(), photos[1].clone());
        assert_eq!(project.thumbnail_url.as_deref(), Some(newest.thumb_url.as_str()));

        // Builders edit; the subscribed homeowner sees it.
        let edit = UpdatePhoto { id: second.id.clone(), caption: Some("  Slab cured  ".into()), category: Some(ImageCategory::Finishes), milestone_id: None };
        let Response::Photo { photo } = builder.request(1, Request::UpdatePhoto(edit)).await.unwrap() else { panic!() };
        assert_eq!((photo.caption.as_deref(), photo.category, photo.version), (Some("Slab cured"), ImageCategory::Finishes, second.version + 1));
        let seen = home.event(|e| match e {
            Event::PhotoUpdated { photo } => Some(photo.clone()),
            _ => None,
        }).await;
        assert_eq!(seen, photo);
        let long = UpdatePhoto { id: second.id.clone(), caption: Some("x".repeat(501)), category: None, milestone_id: None };
        let err = builder.request(2, Request::UpdatePhoto(long)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Validation, "Caption must be at most 500 characters."));
        let err = home.request(2, Request::UpdatePhoto(UpdatePhoto { id: second.id.clone(), caption: Some("mine".into()), category: None, milestone_id: None })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        let err = builder.request(3, Request::UpdatePhoto(UpdatePhoto { id: "nope".into(), ..UpdatePhoto::default() })).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"));

        // Favourites: idempotent, and the user's other tab hears each real change once.
        for id in 3..5 {
            let r = home.request(id, Request::SetFavourite(protocol::SetFavourite { image_id: newest.id.clone(), favourite: true })).await;
            assert_eq!(r, Ok(Response::Done));
        }
        let changed = home_tab2.event(|e| match e {
            Event::FavouriteChanged { image_id, favourite, .. } => Some((image_id.clone(), *favourite)),
            _ => None,
        }).await;
        assert_eq!(changed, (newest.id.clone(), true));
        let Response::Photos { favourites, .. } = home_tab2.request(1, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await.unwrap() else { panic!() };
        assert_eq!(favourites, vec![newest.id.clone()]);

        // Only admins delete; the thumbnail moves to the next newest photo.
        let err = builder.request(4, Request::DeletePhoto(protocol::DeletePhoto { id: newest.id.clone() })).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, "Only administrators can delete photos."));
        assert_eq!(admin.request(1, Request::DeletePhoto(protocol::DeletePhoto { id: newest.id.clone() })).await, Ok(Response::Done));
        // Either may come first (photo events pass through the project's actor).
        let (mut gone, mut cover) = (None, None);
        while gone.is_none() || cover.is_none() {
            match home.event(|e| match e {
                Event::PhotoDeleted { id, .. } => Some(Ok(id.clone())),
                Event::ProjectUpdated { project: p, .. } if p.id == project.id => Some(Err(p.thumbnail_url.clone())),
                _ => None,
            }).await {
                Ok(id) => gone = Some(id),
                Err(thumb) => cover = Some(thumb),
            }
        }
        assert_eq!(gone, Some(newest.id.clone()));
        assert_eq!(cover.flatten().as_deref(), Some(second.thumb_url.as_str()));
        let homeowner = server.login(homeowner_email, &world.password).await;
        assert_eq!(server.get(&newest.thumb_url, Some(&homeowner)).await.status, StatusCode::NOT_FOUND);
        assert!(stored_keys(&server).await.iter().all(|k| !k.contains(&newest.id)), "its files are gone");
        let err = admin.request(2, Request::DeletePhoto(protocol::DeletePhoto { id: newest.id.clone() })).await.unwrap_err();
        assert_eq!(err.message, "Image not found");
        // The favourite went with the photo.
        let Response::Photos { favourites, .. } = home.request(5, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await.unwrap() else { panic!() };
        assert!(favourites.is_empty());
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn an_admin_picks_the_thumbnail_and_it_stays_until_its_photo_goes() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        // Another company's project, whose photo is not this project's.
        let (world, project) = world_with(&server, WorldSpec { stranger_project: true, ..photos(3) }).await;
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (photos, _) = subscribe(&mut home, 1, &project.id).await;
        let (newest, older, oldest) = (photos[0].clone(), photos[1].clone(), photos[2].clone());
        assert!(!project.thumbnail_pinned);
        let pick = |id: &str| Request::UpdateProject(UpdateProject { id: project.id.clone(), thumbnail_id: Some(id.into()), ..UpdateProject::default() });

        // Builders and homeowners may not pick; an unknown photo or another project's is refused.
        assert_eq!(builder.request(1, pick(&older.id)).await.unwrap_err().code, ErrorCode::Forbidden);
        assert_eq!(home.request(2, pick(&older.id)).await.unwrap_err().code, ErrorCode::Forbidden);
        let err = admin.request(1, pick("nope")).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Validation, "That photo is not in this project."));
        let foreign: String = TestSql::per_backend(
            "SELECT id FROM project_images WHERE project_id <> $1 LIMIT 1",
            "SELECT id::text FROM project_images WHERE project_id <> $1::uuid LIMIT 1",
        )
        .bind(&project.id)
        .scalar(server.state.store.pool())
        .await
        .unwrap();
        assert_eq!(admin.request(2, pick(&foreign)).await.unwrap_err().code, ErrorCode::Validation);

        // The admin's pick reaches the homeowner live and survives a new upload.
        let Response::Project { project: picked } = admin.request(3, pick(&older.id)).await.unwrap() else { panic!() };
        assert!(picked.thumbnail_pinned);
        assert_eq!(picked.thumbnail_url.as_deref(), Some(older.thumb_url.as_str()));
        let seen = home.event(|e| match e {
            Event::ProjectUpdated { project: p, .. } if p.thumbnail_pinned => Some(p.thumbnail_url.clone()),
            _ => None,
        }).await;
        assert_eq!(seen.as_deref(), Some(older.thumb_url.as_str()));
        let session = server.login(&world.users["owner"].email, &world.password).await;
        let png = encoded(ImageFormat::Png, 30, 20);
        assert!(server.upload(&project.id, &session, &[("new.png", &png)]).await.all_stored());
        let Response::Project { project: now } = admin.request(4, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else { panic!() };
        assert_eq!((now.thumbnail_url.as_deref(), now.thumbnail_pinned), (Some(older.thumb_url.as_str()), true));

        // Deleting the picked photo hands the thumbnail back to the newest one.
        assert_eq!(admin.request(5, Request::DeletePhoto(protocol::DeletePhoto { id: older.id.clone() })).await, Ok(Response::Done));
        let Response::Photos { photos: left, .. } = admin.request(6, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await.unwrap() else { panic!() };
        let Response::Project { project: now } = admin.request(7, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else { panic!() };
        assert_eq!((now.thumbnail_url.as_deref(), now.thumbnail_pinned), (Some(left[0].thumb_url.as_str()), false));

        // Pinning again and then asking for the newest unpins it.
        admin.request(8, pick(&oldest.id)).await.unwrap();
        let Response::Project { project: back } = admin.request(9, pick("")).await.unwrap() else { panic!() };
        assert_eq!((back.thumbnail_url.as_deref(), back.thumbnail_pinned), (Some(left[0].thumb_url.as_str()), false));
        assert_ne!(left[0].id, newest.id, "the upload is newer than the world's photos");
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn downloads_all_photos_or_my_favourites_as_a_zip() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), slow_beats()).await;
    let (world, project) = world_with(&server, photos(2)).await;
    let builder = server.login(&world.users["owner"].email, &world.password).await;
    let twin = encoded(ImageFormat::Png, 30, 20);
    let r = server.upload(&project.id, &builder, &[("IMG_1.png", &twin), ("IMG_1.png", &twin)]).await;
    assert!(r.all_stored(), "{r}");
    let (mut ws, _) = server.connect_as(&world.users["homeowner"].session).await;
    let (photos, _) = subscribe(&mut ws, 1, &project.id).await;
    let homeowner = server.login(&world.users["homeowner"].email, &world.password).await;

    let path = format!("/media/projects/{}/photos.zip", project.id);
    let none = server.get(&format!("{path}?favourites=true"), Some(&homeowner)).await;
    assert_eq!((none.status, none.body["message"].as_str()), (StatusCode::NOT_FOUND, Some("There are no photos to download.")));

    let all = server.get(&path, Some(&homeowner)).await;
    assert_eq!(all.status, StatusCode::OK);
    assert_eq!(all.headers.get("content-type").unwrap(), "application/zip");
    let disposition = all.headers.get("content-disposition").unwrap().to_str().unwrap().to_owned();
    assert!(disposition.contains(&format!("{} photos.zip", project.title)), "{disposition}");
    let entries = zip_entries(all.bytes).await;
    assert_eq!(entries.len(), photos.len());
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"IMG_1.png") && names.contains(&"IMG_1 (2).png"), "{names:?}");
    assert!(entries.iter().any(|(n, bytes)| n == "IMG_1.png" && *bytes == twin));

    ws.request(2, Request::SetFavourite(protocol::SetFavourite { image_id: photos[2].id.clone(), favourite: true })).await.unwrap();
    let favs = server.get(&format!("{path}?favourites=true"), Some(&homeowner)).await;
    let entries = zip_entries(favs.bytes).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].0, photos[2].original_name);
    assert_eq!(server.get(&path, None).await.status, StatusCode::UNAUTHORIZED);
    server.stop().await;
}

pub(crate) async fn zip_entries(bytes: Vec<u8>) -> Vec<(String, Vec<u8>)> {
    let zip = async_zip::base::read::mem::ZipFileReader::new(bytes).await.expect("a valid zip");
    let mut out = Vec::new();
    for i in 0..zip.file().entries().len() {
        let name = zip.file().entries()[i].filename().as_str().unwrap().to_owned();
        let mut reader = zip.reader_with_entry(i).await.unwrap();
        let mut data = Vec::new();
        reader.read_to_end_checked(&mut data).await.unwrap();
        out.push((name, data));
    }
    out
}

#[actix_web::test]
async fn s3_backend_and_smtp_end_to_end() {
    let s3_port = free_port();
    let s3_port_arg = s3_port.to_string();
    let moto = Helper::start("moto_server", &["-H", "127.0.0.1", "-p", &s3_port_arg], s3_port).await;
    let endpoint = format!("http://127.0.0.1:{s3_port}");
    sitecast::install_crypto_provider();
    let region = s3::Region::Custom { region: "eu-west-1".into(), endpoint: endpoint.clone() };
    let creds = s3::creds::Credentials::new(Some("test"), Some("test"), None, None, None).unwrap();
    s3::Bucket::create_with_path_style("sitecast-photos", region, creds, s3::BucketConfiguration::default()).await.unwrap();
    let smtp_port = free_port();
    let mail_root = tempfile::tempdir().unwrap();
    // aiosmtpd sets a Maildir up only where none exists.
    let maildir = mail_root.path().join("maildir");
    let _smtp = Helper::smtp(smtp_port, &maildir).await;

    let dir = tempfile::tempdir().unwrap();
    let extra = [
        ("photo-store", "s3"),
        ("s3-bucket", "sitecast-photos"),
        ("s3-endpoint", endpoint.as_str()),
        ("s3-region", "eu-west-1"),
        ("s3-access-key-id", "test"),
        ("s3-secret-access-key", "test"),
    ]
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .to_vec();
    let server = TestServer::start(
        &format!("sqlite://{}/t.db", dir.path().display()),
        Options { smtp_url: Some(format!("smtp://127.0.0.1:{smtp_port}")), extra, ..slow_beats() },
    )
    .await;
    let (world, project) = world_with(&server, photos(1)).await;
    let admin = server.login(&world.users["admin"].email, &world.password).await;
    let jpeg = encoded(ImageFormat::Jpeg, 900, 600);
    let r = server.upload(&project.id, &admin, &[("a.jpg", &jpeg), ("b.jpg", &jpeg)]).await;
    assert!(r.all_stored(), "{r}");
    let stored = r.photos.clone();
    let homeowner_email = world.users["homeowner"].email.as_str();
    let homeowner = server.login(homeowner_email, &world.password).await;
    let original = server.get(&stored[0].download_url, Some(&homeowner)).await;
    assert_eq!((original.status, original.bytes == jpeg), (StatusCode::OK, true));
    let keys = server.state.photos.list(&format!("projects/{}/{}/", project.id, stored[0].id)).await.unwrap();
    assert_eq!(keys.len(), 3, "{keys:?}");

    let (mut ws, _) = server.connect_as(&world.users["admin"].session).await;
    assert_eq!(ws.request(1, Request::DeletePhoto(protocol::DeletePhoto { id: stored[0].id.clone() })).await, Ok(Response::Done));
    assert!(server.state.photos.list(&format!("projects/{}/{}/", project.id, stored[0].id)).await.unwrap().is_empty());

    // The batch's one mail reaches the SMTP server.
    let mut found = None;
    for _ in 0..200 {
        found = maildir_messages(&maildir).into_iter().find(|m| m.contains(&format!("2 new photos in {}", project.title)));
        if found.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mail = found.unwrap_or_else(|| panic!("no new-photos mail over SMTP; got {:?}", maildir_messages(&maildir)));
    assert!(mail.contains(homeowner_email));

    // Storage goes down: the upload says so (it stays unfinished, for the client to
    // try again), and no row is left without its files.
    let rows = row_count(&server).await;
    drop(moto);
    let r = server.upload(&project.id, &admin, &[("c.jpg", &jpeg)]).await;
    let (status, body) = r.error().expect("the store failed");
    assert_eq!((status, body["message"].as_str()), (StatusCode::INTERNAL_SERVER_ERROR, Some("c.jpg: Failed to upload file to storage")));
    assert_eq!(row_count(&server).await, rows);
    server.stop().await;
}
