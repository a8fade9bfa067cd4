//! Photo bytes are served only after the policy allows it.

use awc::http::StatusCode;
use protocol::ServerMsg;

use crate::support::{Options, TestServer, WorldSpec, ORIGIN};

async fn visible_thumbs(server: &TestServer, cookie: &str) -> Vec<String> {
    let mut ws = server.ws(Some(cookie), Some(ORIGIN)).await.unwrap();
    let ServerMsg::Hello(hello) = ws.next_msg().await else { panic!("hello first") };
    hello.snapshot.projects.into_iter().filter_map(|p| p.thumbnail_url).collect()
}

#[actix_web::test]
async fn photo_bytes_need_a_session_and_access_to_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    // Two homeowners' projects with a photo each.
    let world = server.world(WorldSpec { projects: 2, photos: 1, homeowners: 2, milestones: false, comments: false, ..WorldSpec::default() }).await;
    let homeowner = server.login(&world.users["homeowner"].email, &world.password).await;
    let admin = server.login(&world.users["admin"].email, &world.password).await;
    let builder = server.login(&world.users["owner"].email, &world.password).await;
    // A photo larger than a thumbnail, as the newest (so the cover) of the homeowner's
    // project: its original is told apart from its renditions by size.
    let large = server.upload(&world.projects[0].id, &builder, &[("large.jpg", &jpeg(800, 600))]).await;
    assert!(large.all_stored(), "{large}");

    let own = visible_thumbs(&server, &homeowner).await;
    let all = visible_thumbs(&server, &admin).await;
    let others: Vec<&String> = all.iter().filter(|u| !own.contains(u)).collect();
    assert!(!own.is_empty() && !others.is_empty());

    let r = server.get(&own[0], Some(&homeowner)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers.get("content-type").unwrap(), "image/jpeg");
    assert!(image_dimensions(&r.bytes).0 <= 480, "a thumbnail is small");
    assert_eq!(r.headers.get("cache-control").unwrap(), "private, max-age=31536000, immutable");
    let etag = r.headers.get("etag").unwrap().to_str().unwrap().to_owned();
    let again = server.get_with(&own[0], Some(&homeowner), &[("If-None-Match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);

    // Guessing another homeowner's photo id gets exactly what a missing photo gets.
    for url in &others {
        let r = server.get(url, Some(&homeowner)).await;
        assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Image not found")));
        assert!(r.bytes.len() < 200, "no image bytes leak");
    }
    let missing = server.get("/media/images/00000000-0000-0000-0000-000000000000/thumb", Some(&homeowner)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(server.get(&own[0], None).await.status, StatusCode::UNAUTHORIZED);

    // The builder of the neighbour's project may see it; an admin sees everything.
    let builder_sees = visible_thumbs(&server, &builder).await;
    for url in &builder_sees {
        assert_eq!(server.get(url, Some(&builder)).await.status, StatusCode::OK);
    }
    for url in &all {
        assert_eq!(server.get(url, Some(&admin)).await.status, StatusCode::OK);
    }

    let original = own[0].replace("/thumb", "/original");
    let r = server.get(&original, Some(&homeowner)).await;
    assert_eq!(r.status, StatusCode::OK);
    let disposition = r.headers.get("content-disposition").unwrap().to_str().unwrap().to_owned();
    assert!(disposition.starts_with("attachment") && disposition.contains(".jpg"), "{disposition}");
    assert!(image_dimensions(&r.bytes).0 > 480);
    let display = server.get(&own[0].replace("/thumb", "/display"), Some(&homeowner)).await;
    assert!(image_dimensions(&display.bytes).0 <= 1600);
    assert_eq!(server.get(&own[0].replace("/thumb", "/raw"), Some(&homeowner)).await.status, StatusCode::NOT_FOUND);
    server.stop().await;
}

fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 251) as u8, (y % 241) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

fn image_dimensions(bytes: &[u8]) -> (u32, u32) {
    let img = image::load_from_memory(bytes).expect("an image");
    (img.width(), img.height())
}

/// An unknown path under `/media` is a 404, as under `/api`, never the web app's page
/// (it used to answer 200 with index.html).
#[actix_web::test]
async fn unknown_media_paths_are_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    let world = server.world(WorldSpec { projects: 0, photos: 0, ..WorldSpec::default() }).await;
    // The web app, as a build leaves it: any other path answers its page.
    let web = server.dir.path().join("no-web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>Sitecast</title>").unwrap();
    let page = server.get("/projects/anything", None).await;
    assert_eq!(page.status, StatusCode::OK, "the web app answers its own routes");
    let cookie = world.users["admin"].session.clone();
    for path in [
        "/media",
        "/media/",
        "/media/anything",
        "/media/images",
        "/media/images/x",
        "/media/images/x/thumb/extra",
        "/media/projects/x",
        "/media/projects/x/photos.tar",
    ] {
        for cookie in [None, Some(cookie.as_str())] {
            let r = server.get(path, cookie).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{path} (signed in: {})", cookie.is_some());
            assert_eq!(r.body["code"], "not_found", "{path}: {}", String::from_utf8_lossy(&r.bytes));
        }
    }
    let r = server.get("/media/images/x/thumb", Some(&cookie)).await;
    assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Image not found")), "known routes still answer");
    server.stop().await;
}
