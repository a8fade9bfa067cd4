//! Markup on photos (docs/FEATURES.md, "Markup on photos") over the socket and as
//! downloads: who may draw, pin and see it, what bad documents and stale versions get,
//! that each change reaches the photo's viewers live (guests whose link shows it too) and
//! no one else, one timeline entry per editing session, and the marked-up downloads.

use awc::http::StatusCode;
use protocol::{
    ErrorCode, Event, Geometry, GuestPhotos, Markup, MarkupColor, Point, Project, ProjectImage, Request, Response, ServerMsg,
    Shape, StrokeWidth,
};
use sitecast::domain::media::markup::{MARKUP_CHANGED, NOT_ALLOWED_DRAW, PINS_ONLY, TOO_MANY_SHAPES};

use crate::support::{for_each_backend, Options, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// A project of the first homeowner with two photos, and one of a second homeowner
/// (photos the first may not see).
async fn markup_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 2, photos: 2, homeowners: 2, milestones: false, comments: false, ..WorldSpec::default() }).await
}

fn p(x: f32, y: f32) -> Point {
    Point { x, y }
}

pub fn shape(id: &str, color: MarkupColor, geometry: Geometry) -> Shape {
    Shape { id: id.to_owned(), color, width: StrokeWidth::Thick, geometry, author_id: String::new() }
}

pub fn arrow(id: &str) -> Shape {
    shape(id, MarkupColor::Red, Geometry::Arrow { from: p(0.2, 0.2), to: p(0.6, 0.5) })
}

fn label(id: &str) -> Shape {
    shape(id, MarkupColor::Yellow, Geometry::Text { at: p(0.1, 0.7), text: "Crack here".into() })
}

fn pin(id: &str, note: &str) -> Shape {
    shape(id, MarkupColor::Blue, Geometry::Pin { at: p(0.8, 0.3), note: note.into() })
}

async fn subscribe(ws: &mut WsClient, id: u32, project: &str) -> Vec<ProjectImage> {
    match ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap() {
        Response::Subscribed { photos, .. } => photos,
        other => panic!("expected subscribed, got {other:?}"),
    }
}

pub async fn save(ws: &mut WsClient, id: u32, image: &str, base: i64, shapes: Vec<Shape>) -> Result<Markup, protocol::ApiError> {
    let request = Request::SaveMarkup(protocol::SaveMarkup { image_id: image.to_owned(), base_version: base, shapes });
    match ws.request(id, request).await? {
        Response::Markup { markup } => Ok(markup),
        other => panic!("expected markup, got {other:?}"),
    }
}

async fn get(ws: &mut WsClient, id: u32, image: &str) -> Result<Markup, protocol::ApiError> {
    match ws.request(id, Request::GetMarkup(protocol::GetMarkup { image_id: image.to_owned() })).await? {
        Response::Markup { markup } => Ok(markup),
        other => panic!("expected markup, got {other:?}"),
    }
}

/// The next markup event: the document's version and who changed it.
pub async fn next_markup(ws: &mut WsClient) -> (Markup, Option<String>) {
    ws.event(|e| match e {
        Event::MarkupChanged { markup, actor } => Some((markup.clone(), actor.as_ref().map(|a| a.email.clone()))),
        _ => None,
    })
    .await
}

async fn marked_up_entries(server: &TestServer, image: &str) -> i64 {
    TestSql::per_backend(
        "SELECT COUNT(*) FROM project_activity WHERE kind = 'marked_up' AND subject_id = $1",
        "SELECT COUNT(*) FROM project_activity WHERE kind = 'marked_up' AND subject_id = $1::uuid",
    )
    .bind(image)
    .scalar(server.state.store.pool())
    .await
    .unwrap()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[actix_web::test]
async fn builders_draw_homeowners_pin_and_everyone_who_sees_the_photo_sees_it_live() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = markup_world(&server).await;
        let (owner_email, homeowner_email) = (world.users["owner"].email.as_str(), world.users["homeowner"].email.as_str());
        let (mut admin, admin_hello) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, home_hello) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut home_tab, _) = server.connect_as(&world.users["homeowner"].session).await;
        let maple: Project = home_hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        // A photo of a project the homeowner does not own.
        let mut foreign = None;
        for other in admin_hello.snapshot.projects.iter().filter(|p| p.homeowner_id != maple.homeowner_id) {
            if let Some(photo) = subscribe(&mut admin, 900, &other.id).await.first() {
                foreign = Some(photo.clone());
                break;
            }
        }
        let foreign = foreign.expect("a photo of another homeowner");
        let photos = subscribe(&mut builder, 1, &maple.id).await;
        subscribe(&mut home_tab, 1, &maple.id).await;
        let photo = photos[0].clone();
        assert_eq!(photo.markup_count, 0);
        let blank = get(&mut home, 1, &photo.id).await.unwrap();
        assert_eq!((blank.version, blank.shapes.len(), blank.project_id.as_str()), (0, 0, maple.id.as_str()));

        // A guest of a link to every photo, and one of the homeowner's favourites (none).
        let (_, all) = make_link(&mut home, 2, &maple.id, GuestPhotos::All, false).await;
        let (_, favs) = make_link(&mut home, 3, &maple.id, GuestPhotos::Favourites, false).await;
        let mut guest_all = guest(&server, &all).await;
        let mut guest_favs = guest(&server, &favs).await;

        // The builder draws an arrow and a label: stored as theirs, and everyone
        // watching the project sees it, once, with who drew it.
        let drawn = save(&mut builder, 2, &photo.id, 0, vec![arrow("a1"), label("t1")]).await.unwrap();
        assert_eq!(drawn.version, 1);
        let builder_id = drawn.updated_by.as_ref().map(|u| u.id.clone()).unwrap();
        assert!(drawn.shapes.iter().all(|s| s.author_id == builder_id), "{drawn:?}");
        assert_eq!(drawn.authors.iter().map(|a| a.email.as_str()).collect::<Vec<_>>(), [owner_email]);
        let (seen, actor) = next_markup(&mut home_tab).await;
        assert_eq!((seen.clone(), actor.as_deref()), (drawn.clone(), Some(owner_email)));
        let (by_guest, guest_actor) = next_markup(&mut guest_all).await;
        assert_eq!((by_guest.version, by_guest.shapes.clone(), guest_actor), (1, drawn.shapes.clone(), None));
        assert!(by_guest.authors.iter().all(|a| a.email.is_empty()), "guests see names only: {by_guest:?}");
        // The favourites link does not show the photo: no event, and asking is "not found".
        let err = get(&mut guest_favs, 1, &photo.id).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"));
        assert_eq!(get(&mut guest_all, 2, &photo.id).await.unwrap().shapes, drawn.shapes);
        let listed = match builder.request(3, Request::ListPhotos(protocol::ListPhotos::first(maple.id.clone()))).await.unwrap() {
            Response::Photos { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        assert_eq!(listed.iter().find(|x| x.id == photo.id).unwrap().markup_count, 2);

        // The homeowner may ask with a pin, but draws nothing else and leaves the
        // builder's shapes alone; refusals store nothing.
        let mut arrows_too = drawn.shapes.clone();
        arrows_too.push(arrow("h-arrow"));
        let err = save(&mut home, 4, &photo.id, 1, arrows_too).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, PINS_ONLY));
        let err = save(&mut home, 5, &photo.id, 1, vec![pin("h1", "Is this crack a problem?")]).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, PINS_ONLY));
        let mut with_pin = drawn.shapes.clone();
        with_pin.push(pin("h1", "Is this crack a problem?"));
        let pinned = save(&mut home, 6, &photo.id, 1, with_pin).await.unwrap();
        assert_eq!(pinned.version, 2);
        assert_ne!(pinned.shapes[2].author_id, builder_id);
        // The builder's socket had its own change first, then the homeowner's.
        assert_eq!(next_markup(&mut builder).await.0.version, 1);
        let (seen, actor) = next_markup(&mut builder).await;
        assert_eq!((seen.version, actor.as_deref()), (2, Some(homeowner_email)));

        // Someone who saved from an older version is told, and nothing changes.
        let err = save(&mut builder, 7, &photo.id, 1, vec![]).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Conflict, MARKUP_CHANGED));
        // Documents past the bounds are refused with a field error.
        let many: Vec<Shape> = (0..101).map(|i| arrow(&format!("a{i}"))).collect();
        let err = save(&mut builder, 8, &photo.id, 2, many).await.unwrap_err();
        assert_eq!((err.code, err.fields[0].field.as_str(), err.fields[0].message.as_str()), (ErrorCode::Validation, "shapes", TOO_MANY_SHAPES));
        let off = vec![shape("x", MarkupColor::Red, Geometry::Line { from: p(-1.0, 0.0), to: p(0.5, 2.0) })];
        assert_eq!(save(&mut builder, 9, &photo.id, 2, off).await.unwrap_err().code, ErrorCode::Validation);
        assert_eq!(get(&mut builder, 10, &photo.id).await.unwrap(), pinned);

        // Not the homeowner's photo: answered like an unknown one, for reads and writes.
        for (i, id) in [foreign.id.as_str(), "no-such-photo", "00000000-0000-0000-0000-000000000000"].into_iter().enumerate() {
            let err = get(&mut home, 20 + i as u32, id).await.unwrap_err();
            assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"), "{id}");
            let err = save(&mut home, 30 + i as u32, id, 0, vec![pin("p", "")]).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::NotFound, "{id}");
        }
        // Guests only look.
        let err = save(&mut guest_all, 3, &photo.id, 2, vec![]).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);

        // One timeline entry per editing session: the builder's two quick changes are
        // one, the homeowner's pin another.
        assert_eq!(marked_up_entries(&server, &photo.id).await, 2);
        let moved: Vec<Shape> = pinned.shapes.iter().filter(|s| s.id != "a1").cloned().collect();
        let after = save(&mut builder, 11, &photo.id, 2, moved).await.unwrap();
        assert_eq!(after.shapes.len(), 2);
        assert_eq!(marked_up_entries(&server, &photo.id).await, 3, "the builder's change after the homeowner's is a new session");
        let mut again = after.shapes.clone();
        again.push(arrow("a2"));
        save(&mut builder, 12, &photo.id, 3, again).await.unwrap();
        assert_eq!(marked_up_entries(&server, &photo.id).await, 3);

        // The homeowner removes their own pin; the builder's label and arrow stay.
        let current = get(&mut home, 40, &photo.id).await.unwrap();
        let without_pin: Vec<Shape> = current.shapes.iter().filter(|s| s.id != "h1").cloned().collect();
        let cleared = save(&mut home, 41, &photo.id, current.version, without_pin).await.unwrap();
        assert_eq!(cleared.shapes.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["t1", "a2"]);
        let _ = NOT_ALLOWED_DRAW;
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn downloads_with_markup_draw_it_on_the_display_size_and_leave_originals_untouched() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = markup_world(&server).await;
        let (mut builder, hello) = server.connect_as(&world.users["owner"].session).await;
        let maple = hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        let photos = subscribe(&mut builder, 1, &maple.id).await;
        let (photo, plain) = (photos[0].clone(), photos[1].clone());
        let cookie = server.login(&world.users["owner"].email, &world.password).await;
        let display = server.get(&photo.display_url, Some(&cookie)).await;
        let original = server.get(&photo.download_url, Some(&cookie)).await;
        save(&mut builder, 2, &photo.id, 0, vec![arrow("a1"), label("t1"), pin("p1", "Here")]).await.unwrap();

        let marked = server.get(&format!("/media/images/{}/marked", photo.id), Some(&cookie)).await;
        assert_eq!(marked.status, StatusCode::OK);
        assert_eq!(marked.headers.get("content-type").unwrap(), "image/jpeg");
        assert!(marked.headers.get("content-disposition").is_none(), "inline unless asked for as a file");
        let drawn = image::load_from_memory(&marked.bytes).unwrap().to_rgb8();
        let shown = image::load_from_memory(&display.bytes).unwrap().to_rgb8();
        assert_eq!(drawn.dimensions(), shown.dimensions());
        // The arrow's shaft, halfway along it, is red on the download and not on the photo.
        let (w, h) = drawn.dimensions();
        let (x, y) = ((0.4 * w as f32) as u32, (0.35 * h as f32) as u32);
        let red = |px: &image::Rgb<u8>| px[0] > 170 && px[1] < 110 && px[2] < 110;
        assert!(red(drawn.get_pixel(x, y)), "{:?}", drawn.get_pixel(x, y));
        assert!(!red(shown.get_pixel(x, y)));
        // The original is untouched.
        assert_eq!(server.get(&photo.download_url, Some(&cookie)).await.bytes, original.bytes);
        let file = server.get(&format!("/media/images/{}/marked?download=1", photo.id), Some(&cookie)).await;
        let disposition = file.headers.get("content-disposition").unwrap().to_str().unwrap().to_owned();
        assert!(disposition.starts_with("attachment") && disposition.contains("(marked up).jpg"), "{disposition}");
        // Its validator follows the markup's version.
        let etag = marked.headers.get("etag").unwrap().to_str().unwrap().to_owned();
        let again = server.get_with(&format!("/media/images/{}/marked", photo.id), Some(&cookie), &[("If-None-Match", &etag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        save(&mut builder, 3, &photo.id, 1, vec![]).await.unwrap();
        let changed = server.get_with(&format!("/media/images/{}/marked", photo.id), Some(&cookie), &[("If-None-Match", &etag)]).await;
        assert_eq!(changed.status, StatusCode::OK);
        save(&mut builder, 4, &photo.id, 2, vec![arrow("a1"), label("t1"), pin("p1", "Here")]).await.unwrap();
        let marked = server.get(&format!("/media/images/{}/marked", photo.id), Some(&cookie)).await;

        // The zip with markup: the marked-up photo drawn (the same bytes), the others
        // as their originals; without it, originals only.
        let zip = server.get(&format!("/media/projects/{}/photos.zip?markup=true", maple.id), Some(&cookie)).await;
        assert_eq!(zip.status, StatusCode::OK);
        assert!(contains(&zip.bytes, &marked.bytes), "the zip holds the marked-up photo");
        assert!(contains(&zip.bytes, b"(marked up).jpg"));
        let plain_original = server.get(&plain.download_url, Some(&cookie)).await;
        assert!(contains(&zip.bytes, &plain_original.bytes), "an unmarked photo comes as its original");
        assert!(!contains(&zip.bytes, &original.bytes), "the marked-up photo replaces its original");
        let zip = server.get(&format!("/media/projects/{}/photos.zip", maple.id), Some(&cookie)).await;
        assert!(contains(&zip.bytes, &original.bytes) && !contains(&zip.bytes, b"(marked up)"));

        // Someone who may not see the photo gets "not found"; a guest whose link has no
        // downloads sees the drawing but may not download it.
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let (_, token) = make_link(&mut home, 1, &maple.id, GuestPhotos::All, false).await;
        let inline = server.guest_get(&format!("/media/images/{}/marked", photo.id), &token).await;
        assert_eq!(inline.status, StatusCode::OK);
        let file = server.guest_get(&format!("/media/images/{}/marked?download=1", photo.id), &token).await;
        assert_eq!(file.status, StatusCode::NOT_FOUND);
        assert_eq!(server.get(&format!("/media/images/{}/marked", photo.id), None).await.status, StatusCode::UNAUTHORIZED);
        server.stop().await;
        db
    })
    .await;
}

/// Two people saving from the same version at once: exactly one change is stored, the
/// other is told someone else changed it, every time.
#[actix_web::test]
async fn racing_saves_from_one_version_store_exactly_one() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = markup_world(&server).await;
        let (mut builder, hello) = server.connect_as(&world.users["owner"].session).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let maple = hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        let photo = subscribe(&mut builder, 1, &maple.id).await[0].clone();
        for round in 0..20u32 {
            let base = get(&mut admin, 1000 + round, &photo.id).await.unwrap().version;
            let (a, b) = futures_util::join!(
                save(&mut builder, 100 + round, &photo.id, base, vec![arrow(&format!("b{round}"))]),
                save(&mut admin, 200 + round, &photo.id, base, vec![label(&format!("a{round}"))]),
            );
            let stored = get(&mut admin, 300 + round, &photo.id).await.unwrap();
            assert_eq!(stored.version, base + 1, "round {round}");
            match (a, b) {
                (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => {
                    assert_eq!(lost.code, ErrorCode::Conflict, "round {round}");
                    assert_eq!(won, stored, "round {round}");
                }
                other => panic!("round {round}: exactly one save wins, got {other:?}"),
            }
        }
        server.stop().await;
        db
    })
    .await;
}

async fn make_link(ws: &mut WsClient, id: u32, project_id: &str, photos: GuestPhotos, downloads: bool) -> (String, String) {
    let input = protocol::CreateGuestLink { project_id: project_id.to_owned(), photos, downloads, expires_in_days: None };
    match ws.request(id, Request::CreateGuestLink(input)).await {
        Ok(Response::GuestLinkCreated { link, url }) => (link.id, url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).unwrap()),
        other => panic!("creating a link: {other:?}"),
    }
}

async fn guest(server: &TestServer, token: &str) -> WsClient {
    let mut ws = server.guest_ws(Some(token), Some(ORIGIN)).await.expect("guest socket opens");
    match ws.next_msg().await {
        ServerMsg::GuestHello(_) => ws,
        other => panic!("expected GuestHello first, got {other:?}"),
    }
}
