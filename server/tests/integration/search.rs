//! Tags and search (docs/FEATURES.md, "Tags and search") over the socket, on both
//! databases: tagging in one go, prefix matching and ranking, what each role (and a
//! guest) finds — never anything in someone else's project — the index following every
//! kind of change, and open results hearing about changes live.

use std::io::Cursor;

use protocol::{
    ErrorCode, Event, GuestPhotos, InstallationSettings, Project, ProjectImage, Request, Response, SearchResults, ServerMsg, TagKind,
};
use sitecast::domain::media::tags::NOT_ALLOWED_TAG;

use crate::support::{for_each_backend, Options, TestServer, World, WorldSpec, WsClient, ORIGIN};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// Two projects of the homeowner with a photo each, and another company's project
/// (another homeowner's) that only the admin may see.
async fn search_world(server: &TestServer) -> World {
    let spec = WorldSpec { projects: 2, photos: 1, stranger_project: true, milestones: false, comments: false, ..WorldSpec::default() };
    server.world(spec).await
}

/// The search world as its three searchers have it open: the admin, the company's owner
/// and the homeowner, each on a socket, with the homeowner's first project (Maple) and
/// another company's (Oak).
struct Searchers {
    world: World,
    admin: WsClient,
    builder: WsClient,
    home: WsClient,
    home_hello: protocol::Hello,
    maple: Project,
    oak: Project,
}

async fn searchers(server: &TestServer) -> Searchers {
    let world = search_world(server).await;
    let stranger = world.stranger_project.clone().expect("another company's project");
    let (admin, admin_hello) = server.connect_as(&world.users["admin"].session).await;
    let (builder, _) = server.connect_as(&world.users["owner"].session).await;
    let (home, home_hello) = server.connect_as(&world.users["homeowner"].session).await;
    let maple = project(&home_hello, &world.projects[0].id);
    let oak = project(&admin_hello, &stranger.id);
    Searchers { world, admin, builder, home, home_hello, maple, oak }
}

fn jpeg(shade: u8) -> Vec<u8> {
    let img = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, shade])));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

pub async fn search(ws: &mut WsClient, id: u32, query: &str, watch: bool) -> Result<SearchResults, protocol::ApiError> {
    let request = Request::Search(protocol::Search { query: query.to_owned(), project_id: None, watch });
    match ws.request(id, request).await? {
        Response::SearchResults { results } => Ok(results),
        other => panic!("expected search results, got {other:?}"),
    }
}

pub async fn tag(ws: &mut WsClient, id: u32, project: &str, images: &[&str], add: &[&str], remove: &[&str]) -> Result<Vec<ProjectImage>, protocol::ApiError> {
    let request = Request::TagPhotos(protocol::TagPhotos {
        project_id: project.to_owned(),
        image_ids: images.iter().map(|s| (*s).to_owned()).collect(),
        add_tags: add.iter().map(|s| (*s).to_owned()).collect(),
        remove_tags: remove.iter().map(|s| (*s).to_owned()).collect(),
    });
    match ws.request(id, request).await? {
        Response::Tagged { photos } => Ok(photos),
        other => panic!("expected tagged, got {other:?}"),
    }
}

async fn caption(ws: &mut WsClient, id: u32, image: &str, text: &str) {
    let input = protocol::UpdatePhoto { id: image.to_owned(), caption: Some(text.to_owned()), ..Default::default() };
    ws.request(id, Request::UpdatePhoto(input)).await.expect("caption saved");
}

fn photo_ids(results: &SearchResults) -> Vec<String> {
    results.photos.iter().map(|h| h.photo.id.clone()).collect()
}

fn project(hello: &protocol::Hello, id: &str) -> Project {
    hello.snapshot.projects.iter().find(|p| p.id == id).unwrap_or_else(|| panic!("{id} is seen")).clone()
}

async fn photos_of(ws: &mut WsClient, id: u32, project: &str) -> Vec<ProjectImage> {
    match ws.request(id, Request::ListPhotos(protocol::ListPhotos::first(project.to_owned()))).await.unwrap() {
        Response::Photos { photos, .. } => photos,
        other => panic!("expected photos, got {other:?}"),
    }
}

/// The next `search_changed` this socket hears: its project.
pub async fn next_search_changed(ws: &mut WsClient) -> String {
    ws.event(|e| match e {
        Event::SearchChanged { project_id } => Some(project_id.clone()),
        _ => None,
    })
    .await
}

#[actix_web::test]
async fn tagged_photos_are_found_by_word_starts_best_first_and_only_by_those_who_may_see_them() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let Searchers { world, mut admin, mut builder, mut home, home_hello: _, maple, oak } = searchers(&server).await;
        let cookie = world.users["owner"].session.clone();

        // Three new photos, tagged in one go; the suggestion's spelling wins.
        let uploaded = server.upload(&maple.id, &cookie, &[("a.jpg", &jpeg(10)), ("b.jpg", &jpeg(20)), ("c.jpg", &jpeg(30))]).await;
        assert!(uploaded.all_stored(), "{:?}", uploaded.outcomes);
        let ids: Vec<&str> = uploaded.photos.iter().map(|p| p.id.as_str()).collect();
        let tagged = tag(&mut builder, 1, &maple.id, &ids, &["kitchen", "Electrical", "Kitchen"], &[]).await.unwrap();
        assert_eq!(tagged.len(), 3);
        assert!(tagged.iter().all(|p| p.tags == ["Kitchen", "Electrical"] && p.version == 2), "{tagged:?}");
        // Tagging again changes nothing and bumps nothing.
        let again = tag(&mut builder, 2, &maple.id, &ids[..1], &["KITCHEN"], &[]).await.unwrap();
        assert_eq!((again[0].version, again[0].tags.len()), (2, 2));

        // The homeowner finds them by a word's start, and by two; never by its middle.
        let found = search(&mut home, 1, "kitch", false).await.unwrap();
        for id in &ids {
            assert!(photo_ids(&found).contains(&(*id).to_owned()), "{id} found by 'kitch': {found:?}");
        }
        assert!(found.photos.iter().all(|h| h.project_title == maple.title));
        assert_eq!(found.query, "kitch");
        let both = search(&mut home, 2, "Kitch, ELEC", false).await.unwrap();
        assert_eq!(both.photos.len(), 3, "{both:?}");
        assert!(search(&mut home, 3, "itchen", false).await.unwrap().photos.is_empty());
        assert!(search(&mut home, 4, "kitch plumb", false).await.unwrap().photos.is_empty(), "every word must match");
        let blank = search(&mut home, 5, "  ,. ", false).await.unwrap();
        assert!(blank.photos.is_empty() && blank.projects.is_empty() && blank.comments.is_empty());

        // Ranking: a word in the caption ranks above the same word in a milestone name.
        let plan = match builder
            .request(3, Request::AddMilestone(protocol::AddMilestone { project_id: maple.id.clone(), name: "Zebrawood trim".into(), target_date: None }))
            .await
            .unwrap()
        {
            Response::Milestones { plan } => plan,
            other => panic!("{other:?}"),
        };
        let milestone = plan.milestones.iter().find(|m| m.name == "Zebrawood trim").unwrap().id.clone();
        let input = protocol::UpdatePhoto { id: ids[0].to_owned(), milestone_id: Some(milestone.clone()), ..Default::default() };
        builder.request(4, Request::UpdatePhoto(input)).await.unwrap();
        caption(&mut builder, 5, ids[1], "Zebrawood shelving, left wall").await;
        let ranked = search(&mut home, 6, "zebra", false).await.unwrap();
        assert_eq!(photo_ids(&ranked)[..2], [ids[1].to_owned(), ids[0].to_owned()], "{ranked:?}");
        assert_eq!(ranked.photos[1].milestone.as_deref(), Some("Zebrawood trim"));
        // And the other way round, so that one of the two puts the caption's word on the
        // older photo: it still ranks first (newest first only among equals).
        let yew = protocol::AddMilestone { project_id: maple.id.clone(), name: "Yewwood trim".into(), target_date: None };
        let plan = match builder.request(40, Request::AddMilestone(yew)).await.unwrap() {
            Response::Milestones { plan } => plan,
            other => panic!("{other:?}"),
        };
        let yew = plan.milestones.iter().find(|m| m.name == "Yewwood trim").unwrap().id.clone();
        let input = protocol::UpdatePhoto { id: ids[1].to_owned(), milestone_id: Some(yew), ..Default::default() };
        builder.request(41, Request::UpdatePhoto(input)).await.unwrap();
        caption(&mut builder, 42, ids[0], "Yewwood bench, right wall").await;
        let reversed = search(&mut home, 40, "yew", false).await.unwrap();
        assert_eq!(photo_ids(&reversed)[..2], [ids[0].to_owned(), ids[1].to_owned()], "{reversed:?}");
        // The project is found by its milestone, and says so.
        let maple_hit = ranked.projects.iter().find(|h| h.project.id == maple.id).expect("the project by its milestone");
        assert_eq!(maple_hit.milestone.as_deref(), Some("Zebrawood trim"));
        // A renamed milestone is found by its new name at once, and no longer by the old.
        let rename = protocol::UpdateMilestone { id: milestone.clone(), name: Some("Walnut trim".into()), ..Default::default() };
        builder.request(7, Request::UpdateMilestone(rename)).await.unwrap();
        assert_eq!(photo_ids(&search(&mut home, 7, "walnut", false).await.unwrap()), [ids[0].to_owned()]);
        assert_eq!(photo_ids(&search(&mut home, 8, "zebra", false).await.unwrap()), [ids[1].to_owned()]);
        // Deleting the milestone takes its name off its photos too.
        builder.request(8, Request::DeleteMilestone(protocol::DeleteMilestone { id: milestone })).await.unwrap();
        assert!(search(&mut home, 9, "walnut", false).await.unwrap().photos.is_empty());

        // Comments are found and name their project; a word in someone else's project
        // (another company's, another homeowner's) is found by no one else.
        let comment = protocol::AddComment { image_id: ids[2].to_owned(), body: "Is the vapour barrier lapped at the sill?".into() };
        home.request(10, Request::AddComment(comment)).await.unwrap();
        let oak_photo = photos_of(&mut admin, 1, &oak.id).await[0].clone();
        caption(&mut admin, 2, &oak_photo.id, "Quillwort vapour test").await;
        let comment = protocol::AddComment { image_id: oak_photo.id.clone(), body: "Quillwort barrier here".into() };
        admin.request(3, Request::AddComment(comment)).await.unwrap();
        let by_builder = search(&mut builder, 9, "vapour barr", false).await.unwrap();
        assert_eq!(by_builder.comments.len(), 1, "{by_builder:?}");
        assert_eq!((by_builder.comments[0].comment.image_id.as_str(), by_builder.comments[0].project_title.as_str()), (ids[2], maple.title.as_str()));
        for (who, ws) in [("homeowner", &mut home), ("builder", &mut builder)] {
            let planted = search(ws, 20, "quillwort", false).await.unwrap();
            assert!(planted.photos.is_empty() && planted.comments.is_empty() && planted.projects.is_empty(), "{who}: {planted:?}");
            assert!(!planted.more_photos, "{who}: nothing counted either");
        }
        let oak_word = search(&mut home, 21, "elsewhere house", false).await.unwrap();
        assert!(oak_word.projects.iter().all(|h| h.project.id != oak.id), "{oak_word:?}");
        let by_admin = search(&mut admin, 4, "quillwort", false).await.unwrap();
        assert_eq!((by_admin.photos.len(), by_admin.comments.len()), (1, 1), "{by_admin:?}");
        // Narrowed to one project: only that project's; one the searcher may not see is unknown.
        let narrowed = Request::Search(protocol::Search { query: "vapour".into(), project_id: Some(maple.id.clone()), watch: false });
        let Ok(Response::SearchResults { results }) = admin.request(5, narrowed).await else { panic!("narrowed search") };
        assert!(results.photos.is_empty() && results.projects.is_empty() && results.comments.len() == 1, "{results:?}");
        let theirs = Request::Search(protocol::Search { query: "quillwort".into(), project_id: Some(oak.id.clone()), watch: false });
        assert_eq!(home.request(22, theirs).await.unwrap_err().code, ErrorCode::Forbidden);

        // People: admins only.
        let people = search(&mut admin, 6, &format!("homeowner {}", world.tag), false).await.unwrap();
        assert!(people.people.iter().any(|p| p.email == world.users["homeowner"].email), "{people:?}");
        assert!(search(&mut builder, 10, "homeowner", false).await.unwrap().people.is_empty());

        // A deleted comment and a deleted photo are no longer found.
        let Ok(Response::Comments { comments, .. }) =
            home.request(23, Request::ListComments(protocol::ListComments { image_id: ids[2].to_owned() })).await
        else {
            panic!("comments")
        };
        home.request(24, Request::DeleteComment(protocol::DeleteComment { id: comments[0].id.clone() })).await.unwrap();
        assert!(search(&mut builder, 11, "vapour", false).await.unwrap().comments.is_empty());
        admin.request(7, Request::DeletePhoto(protocol::DeletePhoto { id: ids[1].to_owned() })).await.unwrap();
        assert!(search(&mut home, 25, "zebrawood", false).await.unwrap().photos.is_empty());

        // The project's tags, most used first, then suggestions.
        let Ok(Response::Tags { tags, .. }) = home.request(26, Request::ListTags(protocol::ListTags { project_id: maple.id.clone() })).await else {
            panic!("tags")
        };
        let kitchen = tags.iter().find(|t| t.name == "Kitchen").unwrap();
        assert_eq!((kitchen.kind, kitchen.photos), (TagKind::Area, 2));
        assert_eq!(tags.iter().filter(|t| t.name.eq_ignore_ascii_case("kitchen")).count(), 1);
        assert!(tags.iter().any(|t| t.name == "Plumbing" && t.photos == 0 && t.kind == TagKind::Trade));
        assert!(tags.windows(2).all(|w| w[0].photos >= w[1].photos), "{tags:?}");

        // Who may tag, and bad tags: each refused with its reason, nothing changed.
        let refused = tag(&mut home, 27, &maple.id, &ids[..1], &["Mine"], &[]).await.unwrap_err();
        assert_eq!((refused.code, refused.message.as_str()), (ErrorCode::Forbidden, NOT_ALLOWED_TAG));
        let foreign = tag(&mut builder, 12, &maple.id, &[oak_photo.id.as_str()], &["Mine"], &[]).await.unwrap_err();
        assert_eq!(foreign.code, ErrorCode::NotFound);
        for (bad, field) in [(vec!["a,b"], "addTags"), (vec!["   "], "addTags"), (vec![], "addTags")] {
            let err = tag(&mut builder, 13, &maple.id, &ids[..1], &bad, &[]).await.unwrap_err();
            assert_eq!((err.code, err.fields.first().map(|f| f.field.as_str())), (ErrorCode::Validation, Some(field)), "{bad:?}");
        }
        let many: Vec<String> = (0..19).map(|i| format!("extra {i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let err = tag(&mut builder, 14, &maple.id, &ids[..1], &many, &[]).await.unwrap_err();
        assert_eq!(err.fields.first().map(|f| f.message.clone()), Some(sitecast::domain::media::tags::too_many_message()));
        assert_eq!(photos_of(&mut builder, 15, &maple.id).await.iter().find(|p| p.id == ids[0]).unwrap().tags, ["Kitchen", "Electrical"]);
        let long = search(&mut home, 28, &"x".repeat(201), false).await.unwrap_err();
        assert_eq!(long.fields.first().map(|f| f.field.as_str()), Some("query"));

        // A guest of the homeowner's favourites finds only the shared photos, and no
        // comments, people or locations.
        home.request(29, Request::SetFavourite(protocol::SetFavourite { image_id: ids[0].to_owned(), favourite: true })).await.unwrap();
        let input = protocol::CreateGuestLink { project_id: maple.id.clone(), photos: GuestPhotos::Favourites, downloads: false, expires_in_days: None };
        let Ok(Response::GuestLinkCreated { url, .. }) = home.request(30, Request::CreateGuestLink(input)).await else { panic!("link") };
        let token = url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).unwrap();
        let mut guest = server.guest_ws(Some(&token), Some(ORIGIN)).await.expect("guest socket");
        assert!(matches!(guest.next_msg().await, ServerMsg::GuestHello(_)));
        let found = search(&mut guest, 1, "kitchen", false).await.unwrap();
        assert_eq!(photo_ids(&found), [ids[0].to_owned()], "{found:?}");
        assert_eq!(found.project_id.as_deref(), Some(maple.id.as_str()));
        assert!(found.comments.is_empty() && found.people.is_empty() && found.projects.is_empty());
        let elsewhere = Request::Search(protocol::Search { query: "quillwort".into(), project_id: Some(oak.id.clone()), watch: false });
        let Ok(Response::SearchResults { results }) = guest.request(2, elsewhere).await else { panic!("guest search") };
        assert!(results.photos.is_empty(), "a guest searches their link's project whatever they name");
        assert!(tag(&mut guest, 3, &maple.id, &ids[..1], &["x"], &[]).await.is_err());

        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn open_results_hear_of_changes_they_may_see_and_nothing_else() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let Searchers { world, mut admin, mut builder, mut home, home_hello, maple, oak } = searchers(&server).await;
        let photo = photos_of(&mut builder, 1, &maple.id).await[0].clone();

        assert!(search(&mut home, 1, "xylophone", true).await.unwrap().photos.is_empty());
        assert!(search(&mut builder, 2, "xylophone", true).await.unwrap().photos.is_empty());
        // A change in a project the builder and homeowner do not see tells them nothing:
        // the first notice each hears is the change to their project that follows it.
        let oak_photo = photos_of(&mut admin, 1, &oak.id).await[0].clone();
        caption(&mut admin, 2, &oak_photo.id, "Xylophone-shaped trench").await;
        caption(&mut admin, 3, &photo.id, "Xylophone joists").await;
        assert_eq!(next_search_changed(&mut home).await, maple.id);
        assert_eq!(next_search_changed(&mut builder).await, maple.id);
        let again = search(&mut home, 2, "xylophone", true).await.unwrap();
        assert_eq!(photo_ids(&again), vec![photo.id.clone()], "{again:?}");

        // Tags, comments and milestones are searchable changes too.
        tag(&mut admin, 4, &maple.id, &[photo.id.as_str()], &["Stairs"], &[]).await.unwrap();
        assert_eq!(next_search_changed(&mut home).await, maple.id);
        assert_eq!(photo_ids(&search(&mut home, 3, "stairs xylo", true).await.unwrap()), vec![photo.id.clone()]);
        let comment = protocol::AddComment { image_id: photo.id.clone(), body: "Xylophone? Really?".into() };
        builder.request(3, Request::AddComment(comment)).await.unwrap();
        assert_eq!(next_search_changed(&mut home).await, maple.id);
        assert_eq!(search(&mut home, 4, "xylophone", true).await.unwrap().comments.len(), 1);

        // Closed results hear nothing more, nor do sockets that never searched: a change
        // made meanwhile (the first project) is not what they hear first once they search
        // again; a later one (the second) is. (Each socket's watch reaches the hub before
        // its reply.)
        let lakeview = project(&home_hello, &world.projects[1].id);
        let lake_photo = photos_of(&mut admin, 7, &lakeview.id).await[0].clone();
        home.request(5, Request::EndSearch(protocol::EndSearch {})).await.unwrap();
        let (mut quiet, _) = server.connect_as(&world.users["homeowner"].session).await;
        // The admin opens results now, and hearing of the change means the hub has
        // delivered it to every socket that was searching.
        search(&mut admin, 40, "xylophone", true).await.unwrap();
        caption(&mut admin, 5, &photo.id, "Xylophone joists, sistered").await;
        assert_eq!(next_search_changed(&mut admin).await, maple.id);
        for ws in [&mut home, &mut quiet] {
            search(ws, 50, "xylophone", true).await.unwrap();
        }
        caption(&mut admin, 6, &lake_photo.id, "Xylophone porch").await;
        assert_eq!(next_search_changed(&mut home).await, lakeview.id);
        assert_eq!(next_search_changed(&mut quiet).await, lakeview.id);

        // A photo keeps where it was taken (EXIF GPS) until an admin turns locations
        // off, which forgets every one kept; photos stored after keep none.
        let cookie = world.users["owner"].session.clone();
        let gps = |shade| sitecast::media::fixtures::jpeg_with_exif(&jpeg(shade), &sitecast::media::fixtures::gps_app1(40.748_44, -73.985_66));
        let placed = server.upload(&maple.id, &cookie, &[("gps.jpg", &gps(40))]).await;
        let at = placed.photos[0].location.expect("a location from EXIF");
        assert!((at.lat - 40.748_44).abs() < 1e-6 && (at.lon + 73.985_66).abs() < 1e-6, "{at:?}");
        let get = Request::GetInstallationSettings(protocol::GetInstallationSettings {});
        let Ok(Response::InstallationSettings { settings, photos_with_location }) = admin.request(7, get.clone()).await else { panic!("settings") };
        assert_eq!((settings.store_photo_locations, photos_with_location), (true, 1));
        let off = Request::UpdateInstallationSettings(InstallationSettings { store_photo_locations: false, require_factor_admins: false, require_factor_company_leads: false });
        assert_eq!(home.request(7, off.clone()).await.unwrap_err().code, ErrorCode::Forbidden);
        assert_eq!(home.request(8, get).await.unwrap_err().code, ErrorCode::Forbidden);
        let Ok(Response::InstallationSettings { settings, photos_with_location }) = admin.request(8, off).await else { panic!("settings") };
        assert_eq!((settings.store_photo_locations, photos_with_location), (false, 0));
        let listed = photos_of(&mut builder, 20, &maple.id).await;
        assert!(listed.iter().all(|p| p.location.is_none()), "every location forgotten");
        let later = server.upload(&maple.id, &cookie, &[("gps2.jpg", &gps(50))]).await;
        assert_eq!(later.photos[0].location, None);
        server.stop().await;
        db
    })
    .await;
}
