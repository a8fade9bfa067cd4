//! Guest links (docs/FEATURES.md, "The project's story"): who may make and revoke them,
//! and what a guest may reach — only the linked project, only what the link allows, over
//! every request and every media route — and that a revoked or expired link stops at
//! once, open sockets too.

use awc::http::StatusCode;
use protocol::{
    CreateGuestLink, ErrorCode, Event, GuestHello, GuestLink, GuestPhotos, Project, ProjectImage, Request, Response,
    ServerMsg, UpdateProject,
};
use serde_json::json;

use crate::support::{for_each_backend, Options, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

const INACTIVE: &str = "This link is no longer active";

async fn start(url: &str) -> TestServer {
    TestServer::start(url, Options { ws_ping_secs: 30, ws_timeout_secs: 120, ..Options::default() }).await
}

/// The homeowner's project with two photos; a second homeowner, with no project; and
/// another company's project, which neither the homeowner nor the builder may see.
async fn guest_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 1, photos: 2, homeowners: 2, stranger_project: true, ..WorldSpec::default() }).await
}

fn token_of(url: &str) -> String {
    url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).expect("a guest URL")
}

async fn make_link(ws: &mut WsClient, id: u32, project_id: &str, photos: GuestPhotos, downloads: bool, days: Option<u32>) -> (GuestLink, String) {
    let input = CreateGuestLink { project_id: project_id.to_owned(), photos, downloads, expires_in_days: days };
    match ws.request(id, Request::CreateGuestLink(input)).await {
        Ok(Response::GuestLinkCreated { link, url }) => (link, token_of(&url)),
        other => panic!("creating a link: {other:?}"),
    }
}

async fn guest(server: &TestServer, token: &str) -> (WsClient, GuestHello) {
    let mut ws = server.guest_ws(Some(token), Some(ORIGIN)).await.expect("guest socket opens");
    match ws.next_msg().await {
        ServerMsg::GuestHello(hello) => (ws, hello),
        other => panic!("expected GuestHello first, got {other:?}"),
    }
}

async fn photos_of(ws: &mut WsClient, id: u32, project_id: &str) -> Vec<ProjectImage> {
    match ws.request(id, Request::ListPhotos(protocol::ListPhotos::first(project_id.to_owned()))).await {
        Ok(Response::Photos { photos, .. }) => photos,
        other => panic!("photos: {other:?}"),
    }
}

/// Waits for the link-ended notice and the 4401 close.
async fn link_ended(ws: &mut WsClient) {
    let reason = ws.event(|e| match e {
        Event::SessionEnded { reason } => Some(reason.clone()),
        _ => None,
    });
    assert_eq!(reason.await, "link_inactive");
    assert_eq!(ws.close_code().await, Some(4401));
}

/// Every request a signed-in user can make, by a guest: only looking at the linked
/// project is allowed.
fn every_request(linked: &str, other: &str, photo: &str) -> Vec<(Request, bool)> {
    let s = |v: &str| v.to_owned();
    vec![
        (Request::Ping(protocol::Ping {}), true),
        (Request::ListMilestones(protocol::ListMilestones { project_id: s(linked) }), true),
        (Request::ListTimeline(protocol::ListTimeline { project_id: s(linked), before: None }), true),
        (Request::ListMilestones(protocol::ListMilestones { project_id: s(other) }), false),
        (Request::ListTimeline(protocol::ListTimeline { project_id: s(other), before: None }), false),
        (Request::ListUsers(protocol::ListUsers::first(protocol::Role::Homeowner)), false),
        (Request::ListProjects(protocol::ListProjects::first()), false),
        (Request::GetProject(protocol::GetProject { id: s(linked) }), false),
        (Request::Subscribe(protocol::Subscribe { id: s(linked) }), false),
        // The link's photos, a page at a time (docs/FEATURES.md, "Big projects").
        (Request::ListPhotos(protocol::ListPhotos::first(s(linked))), true),
        (Request::ListPhotos(protocol::ListPhotos::first(s(other))), false),
        (Request::PublishUploads(protocol::PublishUploads {
            project_id: s(linked),
            batch_id: s("3f6c1f0e-9d1b-4b3a-9a43-0c1d2e3f4a5b"),
            note: None,
            milestone_id: None,
            tags: vec![],
            files: vec![],
        }), false),
        (Request::ListComments(protocol::ListComments { image_id: s(photo) }), false),
        (Request::AddComment(protocol::AddComment { image_id: s(photo), body: s("hi") }), false),
        (Request::SetFavourite(protocol::SetFavourite { image_id: s(photo), favourite: true }), false),
        (Request::UpdateProject(UpdateProject { id: s(linked), progress: Some(5), ..Default::default() }), false),
        (Request::DeletePhoto(protocol::DeletePhoto { id: s(photo) }), false),
        (Request::DeleteProject(protocol::DeleteProject { id: s(linked) }), false),
        (Request::ListNotifications(protocol::ListNotifications { before: None }), false),
        (Request::GetMailPreferences(protocol::GetMailPreferences {}), false),
        (Request::ListGuestLinks(protocol::ListGuestLinks { project_id: s(linked) }), false),
        (
            Request::CreateGuestLink(CreateGuestLink {
                project_id: s(linked),
                photos: GuestPhotos::All,
                downloads: true,
                expires_in_days: None,
            }),
            false,
        ),
        (Request::AddMilestoneTemplate(protocol::AddMilestoneTemplate { project_id: s(linked) }), false),
        // A guest has no account to secure.
        (Request::GetSecurity(protocol::GetSecurity {}), false),
        (Request::StartTotp(protocol::StartTotp {}), false),
        (Request::StartPasskey(protocol::StartPasskey {}), false),
        (Request::EndOtherSessions(protocol::EndOtherSessions {}), false),
        (Request::ResetFactors(protocol::ResetFactors { user_id: s(photo) }), false),
    ]
}

#[actix_web::test]
async fn a_guest_sees_only_the_linked_project_and_only_what_the_link_allows() {
    for_each_backend(|db| async move {
        let server = start(&db.url).await;
        let world = guest_world(&server).await;
        let admin_session = world.users["admin"].session.clone();
        let (mut home, hello) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut admin, admin_hello) = server.connect_as(&admin_session).await;
        let linked: Project = hello.snapshot.projects.iter().find(|p| p.thumbnail_url.is_some()).cloned().expect("a project with photos");
        let stranger = world.stranger_project.as_ref().expect("another company's project");
        let other = admin_hello.snapshot.projects.iter().find(|p| p.id == stranger.id).cloned().expect("someone else's project");
        assert_ne!(other.homeowner_id, linked.homeowner_id);
        let photos = photos_of(&mut home, 1, &linked.id).await;
        let others = photos_of(&mut admin, 1, &other.id).await;
        assert!(photos.len() >= 2 && !others.is_empty());

        // Making links: the homeowner may; a wrong expiry is refused; the builder may
        // not share a project that is not theirs.
        let (all_link, all) = make_link(&mut home, 2, &linked.id, GuestPhotos::All, false, Some(7)).await;
        assert!(all_link.expires_at.is_some() && all_link.revoked_at.is_none());
        let bad = CreateGuestLink { project_id: linked.id.clone(), photos: GuestPhotos::All, downloads: false, expires_in_days: Some(2) };
        assert_eq!(home.request(3, Request::CreateGuestLink(bad)).await.unwrap_err().code, ErrorCode::Validation);
        let (mut builder, builder_hello) = server.connect_as(&world.users["owner"].session).await;
        if !builder_hello.snapshot.projects.iter().any(|p| p.id == other.id) {
            let theirs = CreateGuestLink { project_id: other.id.clone(), photos: GuestPhotos::All, downloads: true, expires_in_days: None };
            let err = builder.request(1, Request::CreateGuestLink(theirs)).await.unwrap_err();
            assert!(matches!(err.code, ErrorCode::Forbidden | ErrorCode::NotFound), "{err:?}");
        }
        // A favourites-only link with downloads, after favouriting one photo.
        let favourite = &photos[0];
        home.request(4, Request::SetFavourite(protocol::SetFavourite { image_id: favourite.id.clone(), favourite: true })).await.unwrap();
        let (_, favs) = make_link(&mut home, 5, &linked.id, GuestPhotos::Favourites, true, None).await;

        // Opening: a wrong token and the right one; the token becomes an HttpOnly cookie.
        let wrong = server.post("/api/guest/open", json!({"token": "not-a-token"}), None).await;
        assert_eq!((wrong.status, wrong.body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(INACTIVE)));
        let opened = server.post("/api/guest/open", json!({"token": all}), None).await;
        assert_eq!(opened.status, StatusCode::OK, "{}", opened.body);
        assert_eq!(opened.body["access"]["projectId"], linked.id.as_str());
        let cookie = opened.headers.get("set-cookie").unwrap().to_str().unwrap().to_owned();
        assert!(cookie.starts_with("sitecast_guest=") && cookie.contains("HttpOnly"), "{cookie}");

        // Media, all-photos link without downloads: thumbnails and display sizes of the
        // linked project's photos; no originals; nothing of any other project.
        for p in &photos {
            assert_eq!(server.guest_get(&p.thumb_url, &all).await.status, StatusCode::OK);
            assert_eq!(server.guest_get(&p.display_url, &all).await.status, StatusCode::OK);
            assert_eq!(server.guest_get(&p.download_url, &all).await.status, StatusCode::NOT_FOUND);
        }
        for p in &others {
            for url in [&p.thumb_url, &p.display_url, &p.download_url] {
                let r = server.guest_get(url, &all).await;
                assert_eq!(r.status, StatusCode::NOT_FOUND, "{url}");
                assert!(r.bytes.len() < 200, "no bytes leak");
            }
        }
        for project in [&linked.id, &other.id] {
            for query in ["", "?favourites=true"] {
                let zip = server.guest_get(&format!("/media/projects/{project}/photos.zip{query}"), &all).await;
                assert_eq!(zip.status, StatusCode::NOT_FOUND, "zip of {project}{query}");
            }
        }
        // Favourites link with downloads: only the favourite, original and zip included.
        assert_eq!(server.guest_get(&favourite.thumb_url, &favs).await.status, StatusCode::OK);
        assert_eq!(server.guest_get(&favourite.download_url, &favs).await.status, StatusCode::OK);
        assert_eq!(server.guest_get(&photos[1].thumb_url, &favs).await.status, StatusCode::NOT_FOUND);
        assert_eq!(server.guest_get(&others[0].download_url, &favs).await.status, StatusCode::NOT_FOUND);
        let zip = server.guest_get(&format!("/media/projects/{}/photos.zip", linked.id), &favs).await;
        assert_eq!(zip.status, StatusCode::OK);
        let names: Vec<String> = crate::photos::zip_entries(zip.bytes).await.into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, vec![favourite.original_name.clone()], "the zip holds the favourites only");
        assert_eq!(server.guest_get(&format!("/media/projects/{}/photos.zip", other.id), &favs).await.status, StatusCode::NOT_FOUND);

        // The socket: no cookie → 401, a foreign origin → 403, the link → its project.
        assert_eq!(server.guest_ws(None, Some(ORIGIN)).await.err().map(|e| e.0), Some(StatusCode::UNAUTHORIZED));
        assert_eq!(server.guest_ws(Some(&all), Some("https://evil.example")).await.err().map(|e| e.0), Some(StatusCode::FORBIDDEN));
        let (mut g, hello) = guest(&server, &all).await;
        assert_eq!(hello.project.id, linked.id);
        assert!(!hello.project.homeowner_name.contains('@'));
        assert_eq!(hello.photos.len(), photos.len());
        assert_eq!((hello.access.downloads, hello.access.photos), (false, GuestPhotos::All));
        let (mut fav_guest, fav_hello) = guest(&server, &favs).await;
        assert_eq!(fav_hello.photos.iter().map(|p| p.id.clone()).collect::<Vec<_>>(), vec![favourite.id.clone()]);

        // Every request a user may make: a guest only looks at the linked project.
        for (i, (request, allowed)) in every_request(&linked.id, &other.id, &favourite.id).into_iter().enumerate() {
            let outcome = g.request(100 + i as u32, request.clone()).await;
            match (allowed, outcome) {
                (true, Ok(response)) => assert!(protocol::answers(&request, &response), "{request:?} → {response:?}"),
                (false, Err(err)) => assert_eq!(err.code, ErrorCode::Forbidden, "{request:?}"),
                (allowed, outcome) => panic!("{request:?}: allowed {allowed}, got {outcome:?}"),
            }
        }

        // Live: a progress change reaches both guests; a new photo only the all-photos
        // guest until the maker favourites it, and it leaves when unfavourited.
        let progress = (linked.progress + 5) % 100;
        admin.request(10, Request::UpdateProject(UpdateProject { id: linked.id.clone(), progress: Some(progress), ..Default::default() })).await.unwrap();
        for ws in [&mut g, &mut fav_guest] {
            let seen = ws.event(|e| match e {
                Event::ProjectUpdated { project, actor } if project.id == linked.id => Some((project.progress, actor.clone())),
                _ => None,
            });
            assert_eq!(seen.await, (progress, None), "a guest sees the progress, not who changed it");
        }
        let r = server.upload(&linked.id, &admin_session, &[("guest-live.jpg", &jpeg())]).await;
        assert!(r.all_stored(), "{r}");
        let added = g.event(|e| match e {
            Event::PhotoAdded { photo } if photo.original_name == "guest-live.jpg" => Some(photo.id.clone()),
            _ => None,
        });
        let added = added.await;
        home.request(11, Request::SetFavourite(protocol::SetFavourite { image_id: added.clone(), favourite: true })).await.unwrap();
        let seen = fav_guest.event(|e| match e {
            Event::PhotoAdded { photo } => Some(photo.id.clone()),
            _ => None,
        });
        assert_eq!(seen.await, added, "the favourites guest did not see it before it was a favourite");
        home.request(12, Request::SetFavourite(protocol::SetFavourite { image_id: added.clone(), favourite: false })).await.unwrap();
        let gone = fav_guest.event(|e| match e {
            Event::PhotoDeleted { id, .. } => Some(id.clone()),
            _ => None,
        });
        assert_eq!(gone.await, added);

        // Managing: the builder cannot revoke the homeowner's link (it reads as
        // unknown); the admin lists everyone's; the homeowner revokes theirs and the
        // guest's page closes at once; the link, its cookie and its socket are dead.
        let err = builder.request(2, Request::RevokeGuestLink(protocol::RevokeGuestLink { id: all_link.id.clone() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        let Ok(Response::GuestLinks { links, .. }) = admin.request(13, Request::ListGuestLinks(protocol::ListGuestLinks { project_id: linked.id.clone() })).await else { panic!("list") };
        assert!(links.len() >= 2 && links.iter().all(|l| l.project_id == linked.id));
        let Ok(Response::GuestLinks { links: mine, .. }) = home.request(14, Request::ListGuestLinks(protocol::ListGuestLinks { project_id: linked.id.clone() })).await else { panic!("list") };
        assert!(mine.iter().any(|l| l.id == all_link.id && l.last_opened_at.is_some()), "the maker sees it was opened");
        home.request(15, Request::RevokeGuestLink(protocol::RevokeGuestLink { id: all_link.id.clone() })).await.unwrap();
        link_ended(&mut g).await;
        let again = server.post("/api/guest/open", json!({"token": all}), None).await;
        assert_eq!((again.status, again.body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(INACTIVE)));
        assert_eq!(server.guest_get(&photos[0].thumb_url, &all).await.status, StatusCode::UNAUTHORIZED);
        assert!(server.guest_ws(Some(&all), Some(ORIGIN)).await.is_err(), "no socket for a revoked link");
        // Revoking twice changes nothing and fails nothing.
        home.request(16, Request::RevokeGuestLink(protocol::RevokeGuestLink { id: all_link.id.clone() })).await.unwrap();

        // Expiry: a link that expires while its page is open closes it, and opens no more.
        let (soon_link, soon) = make_link(&mut home, 17, &linked.id, GuestPhotos::All, false, Some(1)).await;
        let expires = sitecast::store::now_ms() + 1500;
        TestSql::per_backend(
            "UPDATE guest_links SET expires_at = $1 WHERE id = $2",
            "UPDATE guest_links SET expires_at = TIMESTAMPTZ 'epoch' + $1 * INTERVAL '1 millisecond' WHERE id = $2::uuid",
        )
        .bind(expires)
        .bind(&soon_link.id)
        .execute(server.state.store.pool())
        .await
        .unwrap();
        let (mut soon_guest, _) = guest(&server, &soon).await;
        link_ended(&mut soon_guest).await;
        assert!(sitecast::store::now_ms() >= expires, "closed at expiry, not before");
        assert_eq!(server.post("/api/guest/open", json!({"token": soon}), None).await.status, StatusCode::BAD_REQUEST);

        // The maker losing the project ends their links: the project goes to another
        // homeowner and the favourites guest's page closes.
        let Ok(Response::UserPage { listings, .. }) = admin.request(90, Request::ListUsers(protocol::ListUsers::first(protocol::Role::Homeowner))).await else {
            panic!("the homeowners' table")
        };
        let Some(someone) = listings.iter().map(|l| &l.user).find(|u| u.id != linked.homeowner_id) else {
            panic!("the world has a second homeowner")
        };
        let moved = UpdateProject { id: linked.id.clone(), homeowner_id: Some(someone.id.clone()), ..Default::default() };
        admin.request(18, Request::UpdateProject(moved)).await.unwrap();
        link_ended(&mut fav_guest).await;
        assert_eq!(server.post("/api/guest/open", json!({"token": favs}), None).await.status, StatusCode::BAD_REQUEST);

        server.stop().await;
        db
    })
    .await;
}

/// A favourites link's guest was once told of photos the link does not share —
/// the project's cover in its first frame, and each new upload as the cover of a
/// `project_updated`. Nothing a guest receives names such a photo, in any field.
#[actix_web::test]
async fn a_favourites_link_names_no_photo_it_does_not_share() {
    for_each_backend(|db| async move {
        let server = start(&db.url).await;
        let world = guest_world(&server).await;
        let admin_session = world.users["admin"].session.clone();
        let (mut home, hello) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut admin, _) = server.connect_as(&admin_session).await;
        let linked = hello.snapshot.projects.iter().find(|p| p.thumbnail_url.is_some()).cloned().expect("a project with photos");
        let photos = photos_of(&mut home, 1, &linked.id).await;
        // The maker's one favourite is not the project's cover.
        let favourite = photos.iter().find(|p| Some(&p.thumb_url) != linked.thumbnail_url.as_ref()).cloned().expect("a photo besides the cover");
        home.request(2, Request::SetFavourite(protocol::SetFavourite { image_id: favourite.id.clone(), favourite: true })).await.unwrap();
        let (_, token) = make_link(&mut home, 3, &linked.id, GuestPhotos::Favourites, false, None).await;
        let unshared = |text: &str, photos: &[ProjectImage]| -> Vec<String> {
            photos.iter().filter(|p| p.id != favourite.id && text.contains(&p.id)).map(|p| p.id.clone()).collect()
        };

        let (mut g, hello) = guest(&server, &token).await;
        assert_eq!(hello.photos.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), vec![favourite.id.as_str()]);
        assert_eq!(hello.project.thumbnail_url, None, "the cover is not shared");
        assert_eq!(unshared(&serde_json::to_string(&hello).unwrap(), &photos), Vec::<String>::new(), "the first frame");

        // A new upload becomes the cover: the project changes, and so does its timeline.
        let r = server.upload(&linked.id, &admin_session, &[("not-shared.jpg", &jpeg())]).await;
        assert!(r.all_stored(), "{:?}", r.outcomes);
        let uploaded = r.photos[0].id.clone();
        // Then a change every guest hears, after which everything before it has arrived.
        let progress = (linked.progress + 5) % 100;
        admin.request(4, Request::UpdateProject(UpdateProject { id: linked.id.clone(), progress: Some(progress), ..Default::default() })).await.unwrap();
        let everything = photos_of(&mut admin, 5, &linked.id).await;
        assert!(everything.iter().any(|p| p.id == uploaded));
        let mut covers = Vec::new();
        loop {
            let msg = g.next_any().await;
            let text = serde_json::to_string(&msg).unwrap();
            assert_eq!(unshared(&text, &everything), Vec::<String>::new(), "{text}");
            if let ServerMsg::Event { event: Event::ProjectUpdated { project, .. } } = msg {
                covers.push(project.thumbnail_url.clone());
                if project.progress == progress {
                    break;
                }
            }
        }
        assert!(covers.len() >= 2 && covers.iter().all(Option::is_none), "the new cover went out, unnamed: {covers:?}");
        // The timeline, as the guest pages through it.
        let Ok(Response::Timeline { entries, .. }) = g.request(6, Request::ListTimeline(protocol::ListTimeline { project_id: linked.id.clone(), before: None })).await else {
            panic!("the timeline")
        };
        assert_eq!(unshared(&serde_json::to_string(&entries).unwrap(), &everything), Vec::<String>::new());

        // An all-photos link sees the cover.
        let (_, all) = make_link(&mut home, 7, &linked.id, GuestPhotos::All, false, None).await;
        let (_, all_hello) = guest(&server, &all).await;
        assert_eq!(all_hello.project.thumbnail_url, Some(format!("/media/images/{uploaded}/thumb")));
        server.stop().await;
        db
    })
    .await;
}

fn jpeg() -> Vec<u8> {
    let img = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, 90])));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}
