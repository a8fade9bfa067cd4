//! A project of many photos opens on its first page, and the rest come a page at a time
//! by cursor, in the gallery's order, each reply under its byte bound
//! (docs/FEATURES.md, "Big projects"). The projects are made by `sitecast seed`'s code.

use protocol::{
    ErrorCode, ListPhotos, ListProjects, ListUsers, ProjectImage, Request, Response, Role, FIRST_PHOTO_PAGE, FIRST_PROJECT_PAGE, PHOTO_PAGE, PHOTO_PAGE_BYTES,
    PROJECT_PAGE, USER_PAGE,
};
use sitecast::domain::media::photos::INVALID_PHOTO_CURSOR;
use sitecast::domain::projects::pages::INVALID_PROJECT_CURSOR;
use sitecast::domain::seeding::bulk::{self, Bulk, BulkSpec, BULK_PASSWORD};
use sitecast::store::images;

use crate::support::{for_each_backend, Options, TestServer, WorldSpec, WsClient};

async fn big_project(server: &TestServer, photos: usize) -> Bulk {
    let spec = BulkSpec { projects: 1, photos_per_project: photos, users: 1, visit_size: 25, days: 365 };
    bulk::seed(&server.state.store, server.state.photos.as_ref(), &server.state.auth.passwords, &spec, &mut |_, _| {})
        .await
        .expect("seed a big project")
}

/// What the wire carries for a page: the bound is on this.
fn weight(photos: &[ProjectImage]) -> usize {
    protocol::encode(&photos).expect("encodes").len()
}

struct Paged {
    pages: Vec<Vec<ProjectImage>>,
    favourites: Vec<String>,
}

/// Subscribes, then follows the cursors to the oldest photo.
async fn open_and_page_through(ws: &mut WsClient, project: &str) -> (u32, Paged) {
    let Ok(Response::Subscribed { photos, favourites, next_photos, photo_count, .. }) =
        ws.request(1, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await
    else {
        panic!("subscribed");
    };
    let mut paged = Paged { pages: vec![photos], favourites };
    let mut next = next_photos;
    let mut id = 2;
    while let Some(after) = next.take() {
        let request = ListPhotos { project_id: project.to_owned(), after: Some(after), limit: None, before: None };
        let Ok(Response::Photos { photos, favourites, next: more, .. }) = ws.request(id, Request::ListPhotos(request)).await else {
            panic!("a page of photos");
        };
        assert!(!photos.is_empty(), "a page with a cursor after it holds photos");
        paged.pages.push(photos);
        paged.favourites.extend(favourites);
        next = more;
        id += 1;
        assert!(id < 100, "paging ends");
    }
    (photo_count, paged)
}

/// The gallery's order: newest first by the date shown, then upload time, then id.
fn in_gallery_order(photos: &[ProjectImage]) -> bool {
    let key = |p: &ProjectImage| (std::cmp::Reverse(p.taken_at.unwrap_or(p.created_at)), std::cmp::Reverse(p.created_at), p.id.clone());
    photos.windows(2).all(|w| key(&w[0]) < key(&w[1]))
}

#[actix_web::test]
async fn a_big_project_opens_on_its_first_page_and_pages_through_every_photo_once() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let made = big_project(&server, 530).await;
        let (mut home, _) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        let project = &made.project_ids[0];

        let (count, paged) = open_and_page_through(&mut home, project).await;
        assert_eq!(count, 530);
        assert_eq!(paged.pages[0].len(), FIRST_PHOTO_PAGE as usize, "opening carries the first page only");
        let sizes: Vec<usize> = paged.pages.iter().map(Vec::len).collect();
        assert!(sizes[1..].iter().all(|n| *n <= PHOTO_PAGE as usize), "{sizes:?}");
        // Pages are as full as the byte bound lets them be: no short page but the last.
        let full = sizes[1..sizes.len() - 1].iter().min().copied().unwrap_or(PHOTO_PAGE as usize);
        assert!(full >= PHOTO_PAGE as usize * 3 / 4, "{sizes:?}");
        let all: Vec<ProjectImage> = paged.pages.concat();
        let unique: std::collections::HashSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(unique.len(), 530, "every photo exactly once");
        assert!(in_gallery_order(&all), "pages continue each other in the gallery's order");
        assert!(paged.pages.iter().all(|p| weight(p) <= PHOTO_PAGE_BYTES));
        // And each came in one frame under the bound on frames from clients: the test's
        // socket decodes with `protocol::decode`, which refuses a bigger one.

        // A smaller page on request, never a bigger one than the server's.
        for (id, limit) in [(200, 7), (201, 100_000)] {
            let request = ListPhotos { project_id: project.clone(), after: None, limit: Some(limit), before: None };
            let Ok(Response::Photos { photos, next, .. }) = home.request(id, Request::ListPhotos(request)).await else { panic!("photos") };
            if limit == 7 {
                assert_eq!(photos.len(), 7);
            } else {
                assert!(photos.len() <= PHOTO_PAGE as usize && photos.len() >= sizes[1], "{} photos", photos.len());
            }
            assert_eq!(photos[..], all[..photos.len()], "the first page is the newest photos");
            assert!(next.is_some());
        }
        // A month far back opens on one reply: the photos shown before a time, in order,
        // and the pages after it go on from there.
        let shown = |p: &ProjectImage| p.taken_at.unwrap_or(p.created_at);
        for (id, at) in [(210, shown(&all[300])), (211, shown(&all[0]) + 1), (212, shown(&all[529]))] {
            let from = all.iter().position(|p| shown(p) < at).unwrap_or(all.len());
            let request = ListPhotos { project_id: project.clone(), after: None, limit: Some(50), before: Some(at) };
            let Ok(Response::Photos { photos, next, .. }) = home.request(id, Request::ListPhotos(request)).await else { panic!("photos") };
            let expected = &all[from..(from + 50).min(all.len())];
            assert_eq!(photos.iter().map(|p| &p.id).collect::<Vec<_>>(), expected.iter().map(|p| &p.id).collect::<Vec<_>>(), "before {at}");
            assert_eq!(next.is_some(), from + 50 < all.len(), "before {at}");
            if let Some(next) = next {
                let request = ListPhotos { project_id: project.clone(), after: Some(next), limit: Some(10), before: None };
                let Ok(Response::Photos { photos, .. }) = home.request(id + 10, Request::ListPhotos(request)).await else { panic!("photos") };
                assert_eq!(photos[0].id, all[from + 50].id, "the next page goes on after a page that started at a time");
            }
        }
        db
    })
    .await;
}

#[actix_web::test]
async fn favourites_come_with_the_page_that_holds_them() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let made = big_project(&server, 300).await;
        let (mut home, _) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        let project = &made.project_ids[0];
        let (_, paged) = open_and_page_through(&mut home, project).await;
        let (newest, oldest) = (paged.pages[0][3].id.clone(), paged.pages.last().unwrap().last().unwrap().id.clone());
        for (id, image) in [(10, &newest), (11, &oldest)] {
            let set = protocol::SetFavourite { image_id: image.clone(), favourite: true };
            home.request(id, Request::SetFavourite(set)).await.expect("favourited");
        }

        let (_, paged) = open_and_page_through(&mut home, project).await;
        let mut favourites = paged.favourites.clone();
        favourites.sort();
        let mut expected = vec![newest.clone(), oldest.clone()];
        expected.sort();
        assert_eq!(favourites, expected, "each favourite once, with its page");
        db
    })
    .await;
}

#[actix_web::test]
async fn long_captions_end_a_page_early_and_the_next_page_goes_on_from_there() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let made = big_project(&server, 260).await;
        let project = &made.project_ids[0];
        let caption = "A very long caption that describes the framing, the sheathing and the window rough openings. ".repeat(6);
        let caption = &caption[..500];
        for row in images::list_for_project(server.state.store.pool(), project).await.unwrap() {
            let meta = images::Meta { caption: Some(caption), category: row.category, milestone_id: None };
            images::update_meta(server.state.store.pool(), &row.id, &meta, row.updated_at + 1).await.unwrap();
        }
        let (mut home, _) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;

        let (_, paged) = open_and_page_through(&mut home, project).await;
        let sizes: Vec<usize> = paged.pages.iter().map(Vec::len).collect();
        assert!(sizes[1] < PHOTO_PAGE as usize, "a heavy page ends early: {sizes:?}");
        assert!(paged.pages.iter().all(|p| weight(p) <= PHOTO_PAGE_BYTES), "{sizes:?}");
        let all = paged.pages.concat();
        assert_eq!(all.len(), 260, "nothing skipped where a page ended early");
        assert!(in_gallery_order(&all));
        db
    })
    .await;
}

#[actix_web::test]
async fn paging_refuses_made_up_cursors_and_people_outside_the_project() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let made = big_project(&server, 70).await;
        let project = &made.project_ids[0];
        let (mut home, _) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        for (id, bad) in [(1, "yesterday"), (2, "1.2"), (3, "1.2.x' OR 1=1"), (4, "-5.2.abc")] {
            let request = ListPhotos { project_id: project.clone(), after: Some(bad.to_owned()), limit: None, before: None };
            let err = home.request(id, Request::ListPhotos(request)).await.expect_err("refused");
            assert_eq!((err.code, err.message.as_str()), (ErrorCode::BadRequest, INVALID_PHOTO_CURSOR), "{bad:?}");
        }

        // A homeowner of another builder's project sees none of these photos, by page
        // or by opening.
        let world = server.world(WorldSpec { photos: 1, ..WorldSpec::default() }).await;
        let (mut stranger, _) = server.connect_as(&world.users["homeowner"].session).await;
        let err = stranger.request(1, Request::ListPhotos(ListPhotos::first(project.clone()))).await.expect_err("refused");
        assert_eq!(err.code, ErrorCode::Forbidden);
        let err = stranger.request(2, Request::Subscribe(protocol::Subscribe { id: project.clone() })).await.expect_err("refused");
        assert_eq!(err.code, ErrorCode::Forbidden);
        db
    })
    .await;
}

#[actix_web::test]
async fn seeding_makes_what_it_was_asked_for_and_refuses_a_mistyped_number() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let spec = BulkSpec { projects: 3, photos_per_project: 40, users: 5, visit_size: 10, days: 90 };
        let made = bulk::seed(&server.state.store, server.state.photos.as_ref(), &server.state.auth.passwords, &spec, &mut |_, _| {}).await.unwrap();
        assert_eq!(made.project_ids.len(), 3);
        for project in &made.project_ids {
            let photos = images::list_for_project(server.state.store.pool(), project).await.unwrap();
            assert_eq!(photos.len(), 40);
            // Every photo's files are its own: the bytes route serves each.
            let thumb = server.state.photos.get(&format!("{}/thumb.jpg", photos[0].storage_key)).await;
            assert!(thumb.is_ok(), "the newest photo's thumbnail is stored");
        }
        // The builder sees all three projects, the admin too; a homeowner their own.
        let (_, owner) = server.connect_with(&made.owner_email, BULK_PASSWORD).await;
        assert_eq!(owner.snapshot.projects.iter().filter(|p| made.project_ids.contains(&p.id)).count(), 3);
        let (_, admin) = server.connect_with(&made.admin_email, BULK_PASSWORD).await;
        assert_eq!(admin.snapshot.projects.iter().filter(|p| made.project_ids.contains(&p.id)).count(), 3);
        let (_, home) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        assert_eq!(home.snapshot.projects.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), [made.project_ids[0].as_str()]);

        let too_many = BulkSpec { projects: 10, photos_per_project: bulk::MAX_PHOTOS_PER_PROJECT, ..spec };
        let refused = bulk::seed(&server.state.store, server.state.photos.as_ref(), &server.state.auth.passwords, &too_many, &mut |_, _| {}).await;
        assert!(refused.is_err());
        db
    })
    .await;
}

/// A guest link's page of a big project pages like the members' gallery: the hello
/// carries the first page and the count, `list_photos` the rest; a favourites link
/// carries its maker's picks however far apart they lie.
#[actix_web::test]
async fn a_guest_link_to_a_big_project_opens_on_its_first_page_and_pages_through_the_rest() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let made = big_project(&server, 330).await;
        let project = &made.project_ids[0];
        let (mut home, _) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        let (_, member) = open_and_page_through(&mut home, project).await;
        let every: Vec<ProjectImage> = member.pages.concat();
        let picks = [every[2].id.clone(), every[170].id.clone(), every[329].id.clone()];
        for (id, image) in picks.iter().enumerate() {
            let set = protocol::SetFavourite { image_id: image.clone(), favourite: true };
            home.request(300 + id as u32, Request::SetFavourite(set)).await.expect("favourited");
        }
        let mut tokens = Vec::new();
        for (id, photos) in [(310, protocol::GuestPhotos::All), (311, protocol::GuestPhotos::Favourites)] {
            let input = protocol::CreateGuestLink { project_id: project.clone(), photos, downloads: false, expires_in_days: None };
            let Ok(Response::GuestLinkCreated { url, .. }) = home.request(id, Request::CreateGuestLink(input)).await else { panic!("link") };
            tokens.push(url.rsplit_once("/guest/").expect("a guest URL").1.to_owned());
        }

        let mut guest = server.guest_ws(Some(&tokens[0]), Some(crate::support::ORIGIN)).await.expect("guest socket");
        let protocol::ServerMsg::GuestHello(hello) = guest.next_msg().await else { panic!("guest hello") };
        assert_eq!((hello.photos.len(), hello.photo_count), (FIRST_PHOTO_PAGE as usize, 330));
        let mut seen = hello.photos.clone();
        let mut next = hello.next_photos.clone();
        let mut id = 1;
        while let Some(after) = next.take() {
            let request = ListPhotos { project_id: project.clone(), after: Some(after), limit: None, before: None };
            let Ok(Response::Photos { photos, favourites, next: more, .. }) = guest.request(id, Request::ListPhotos(request)).await else {
                panic!("a guest's page");
            };
            assert!(favourites.is_empty(), "a guest has no favourites");
            assert!(weight(&photos) <= PHOTO_PAGE_BYTES);
            seen.extend(photos);
            next = more;
            id += 1;
            assert!(id < 20, "paging ends");
        }
        let ids = |photos: &[ProjectImage]| photos.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&seen), ids(&every), "every photo once, in order");
        // What a guest gets of a photo is the guests' view: never who uploaded it.
        assert!(seen.iter().all(|p| p.uploaded_by.is_none()));
        // Another project's photos are not the link's to page.
        let other = ListPhotos { project_id: uuid::Uuid::new_v4().to_string(), after: None, limit: None, before: None };
        assert!(guest.request(50, Request::ListPhotos(other)).await.is_err());

        let mut picked = server.guest_ws(Some(&tokens[1]), Some(crate::support::ORIGIN)).await.expect("guest socket");
        let protocol::ServerMsg::GuestHello(hello) = picked.next_msg().await else { panic!("guest hello") };
        assert_eq!(hello.photos.iter().map(|p| p.id.clone()).collect::<Vec<_>>(), picks.to_vec(), "the picks, newest first");
        assert_eq!((hello.photo_count, hello.next_photos.clone()), (3, None));
        db
    })
    .await;
}

/// An admin of many projects and many people is greeted in one small frame: the first
/// page of projects, the other admins and the builders; the rest of the projects come
/// by cursor, and homeowners are searched and paged by the server.
#[actix_web::test]
async fn an_admin_of_many_projects_and_people_gets_a_small_hello_and_pages_the_rest() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let spec = BulkSpec { projects: 130, photos_per_project: 0, users: 260, visit_size: 10, days: 30 };
        let made = bulk::seed(&server.state.store, server.state.photos.as_ref(), &server.state.auth.passwords, &spec, &mut |_, _| {}).await.unwrap();
        // A homeowner online: the admin hears of them though no homeowner is held.
        let (_home, home_hello) = server.connect_with(&made.homeowner_email, BULK_PASSWORD).await;
        let (mut admin, hello) = server.connect_with(&made.admin_email, BULK_PASSWORD).await;

        let bytes = protocol::encode(&hello).unwrap().len();
        assert!(bytes <= PHOTO_PAGE_BYTES, "the hello weighs {bytes} bytes");
        assert_eq!((hello.snapshot.projects.len(), hello.snapshot.project_count), (FIRST_PROJECT_PAGE, 130));
        assert!(hello.snapshot.users.iter().all(|u| u.role != Role::Homeowner), "homeowners are searched, not held");
        assert!(hello.snapshot.users.iter().any(|u| u.role == Role::Builder));
        assert!(hello.snapshot.online.contains(&home_hello.user.id));

        let mut all = hello.snapshot.projects.clone();
        let mut next = hello.snapshot.next_projects.clone();
        let mut id = 1;
        while let Some(after) = next.take() {
            let Ok(Response::Projects { projects, next: more }) = admin.request(id, Request::ListProjects(ListProjects { after: Some(after) })).await else {
                panic!("a page of projects")
            };
            assert!(!projects.is_empty() && projects.len() <= PROJECT_PAGE);
            assert!(protocol::encode(&projects).unwrap().len() <= PHOTO_PAGE_BYTES);
            all.extend(projects);
            next = more;
            id += 1;
            assert!(id < 20, "paging ends");
        }
        let ids: std::collections::HashSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!((all.len(), ids.len()), (130, 130), "every project exactly once");
        assert!(made.project_ids.iter().all(|p| ids.contains(p.as_str())));
        assert!(all.windows(2).all(|w| w[0].updated_at >= w[1].updated_at), "newest update first");
        let bad = admin.request(50, Request::ListProjects(ListProjects { after: Some("soon.x".into()) })).await.unwrap_err();
        assert_eq!((bad.code, bad.message.as_str()), (ErrorCode::BadRequest, INVALID_PROJECT_CURSOR));

        // The homeowners' table: counted, paged and searched by the server.
        let Ok(Response::UserPage { listings, total, counts, page_size, .. }) = admin.request(51, Request::ListUsers(ListUsers::first(Role::Homeowner))).await else {
            panic!("a page of homeowners")
        };
        assert_eq!((counts.homeowners, total, listings.len(), page_size), (260, 260, USER_PAGE as usize, USER_PAGE));
        let last = ListUsers { page: 99, ..ListUsers::first(Role::Homeowner) };
        let Ok(Response::UserPage { listings, page, .. }) = admin.request(52, Request::ListUsers(last)).await else { panic!("the last page") };
        assert_eq!((page, listings.len()), (5, 10));
        let wanted = format!("homeowner137.{}", made.tag);
        let Ok(Response::UserPage { listings, total, .. }) = admin.request(53, Request::ListUsers(ListUsers::search(Role::Homeowner, wanted.to_uppercase()))).await else {
            panic!("a search")
        };
        assert_eq!(total, 1);
        assert!(listings[0].user.email.starts_with(&wanted));
        db
    })
    .await;
}
