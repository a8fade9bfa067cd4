//! Bad inputs (docs/LIMITS.md): control characters in text (a NUL answered 500 on Postgres; CR,
//! LF and ESC were stored raw and mailed) are refused on every input with a field
//! error, on both databases; ids holding them read as unknown.

use awc::http::StatusCode;
use protocol::{
    ApiError, CreateProject, CreateUser, ErrorCode, LogEntry, ProfileUpdate, ProjectStatus, Request, Response, Role,
    UpdatePhoto, UpdateProject, UpdateUser,
};
use serde_json::{json, Value};

use crate::support::{for_each_backend, Options, TestServer, WorldSpec, WsClient};
use crate::uploads::Tus;

fn one_line(label: &str) -> String {
    format!("{label} cannot contain line breaks or control characters.")
}

fn many_lines(label: &str) -> String {
    format!("{label} cannot contain control characters.")
}

fn fields_of(body: &Value) -> Vec<(String, String)> {
    body["fields"]
        .as_array()
        .map(|fields| fields.iter().map(|f| (f["field"].as_str().unwrap_or("").to_owned(), f["message"].as_str().unwrap_or("").to_owned())).collect())
        .unwrap_or_default()
}

/// A refused request: a validation error naming exactly `field` with `message`.
fn refused(outcome: Result<Response, ApiError>, field: &str, message: &str) {
    match outcome {
        Err(err) => {
            assert_eq!(err.code, ErrorCode::Validation, "{err:?}");
            let fields: Vec<(&str, &str)> = err.fields.iter().map(|f| (f.field.as_str(), f.message.as_str())).collect();
            assert_eq!(fields, vec![(field, message)]);
        }
        Ok(response) => panic!("{field}: accepted ({response:?})"),
    }
}

fn unknown(outcome: Result<Response, ApiError>, what: &str) {
    match outcome {
        Err(err) => assert_eq!(err.code, ErrorCode::NotFound, "{what}: {err:?}"),
        Ok(response) => panic!("{what}: {response:?}"),
    }
}

async fn start(url: &str) -> TestServer {
    TestServer::start(url, Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }).await
}

#[actix_web::test]
async fn control_characters_are_refused_on_every_text_input() {
    for_each_backend(|db| async move {
        let server = start(&db.url).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, comments: false, ..WorldSpec::default() }).await;
        let admin_email = world.users["admin"].email.as_str();
        let admin_session = world.users["admin"].session.as_str();

        // Signed out: the contact form and sign-up.
        let contact = |name: &str, message: &str| json!({"name": name, "email": "dana@example.com", "message": message});
        let r = server.post("/api/contact", contact("Dana\u{0}", "Hello"), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("name".into(), one_line("Name"))]));
        let r = server.post("/api/contact", contact("Dana", "Hi\u{1b}[2J\u{0}"), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("message".into(), many_lines("Message"))]));
        let r = server.post("/api/contact", contact("Dana\r\nBcc: all@example.com", "Hello"), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("name".into(), one_line("Name"))]));
        assert_eq!(server.mail_count("hello@sitecast.local").await, 0, "nothing refused is mailed");
        // A message is many lines, tabs included.
        let r = server.post("/api/contact", contact("Dana", "Two lines:\r\nthe second\tindented"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);

        let sign_up = |first: &str, phone: &str| {
            json!({"role": "homeowner", "email": "new@example.com", "password": "brand-new-pass", "confirmPassword": "brand-new-pass",
                   "firstName": first, "lastName": "Lee", "phone": phone})
        };
        let r = server.post("/api/auth/signup", sign_up("Ana\u{0}", ""), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("firstName".into(), one_line("First name"))]));
        let r = server.post("/api/auth/signup", sign_up("Ana", "555\u{7}"), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("phone".into(), one_line("Phone"))]));
        let r = server.post("/api/auth/login", json!({"email": format!("{admin_email}\u{0}"), "password": world.password}), None).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("email".into(), one_line("Email"))]));
        let r = server.post("/api/auth/forgot", json!({"email": "a\u{0}@example.com"}), None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);

        // Signed in, over the socket.
        let (mut admin, hello) = server.connect_as(admin_session).await;
        let project = hello.snapshot.projects.iter().find(|p| p.thumbnail_url.is_some()).cloned().expect("a project with photos");
        let Ok(Response::UserPage { listings, .. }) = admin.request(90, Request::ListUsers(protocol::ListUsers::first(Role::Homeowner))).await else {
            panic!("the homeowners' table")
        };
        let homeowner = listings.into_iter().next().expect("a homeowner").user;
        let update = |input: UpdateProject| Request::UpdateProject(UpdateProject { id: project.id.clone(), ..input });
        refused(admin.request(1, update(UpdateProject { title: Some("Maple\r\nBcc: x@example.com".into()), ..Default::default() })).await, "title", &one_line("Title"));
        refused(admin.request(2, update(UpdateProject { title: Some("\u{1b}[31mMaple".into()), ..Default::default() })).await, "title", &one_line("Title"));
        refused(admin.request(3, update(UpdateProject { address: Some("1 Main St\u{0}".into()), ..Default::default() })).await, "address", &one_line("Address"));
        refused(admin.request(4, update(UpdateProject { description: Some("Slab\u{0}".into()), ..Default::default() })).await, "description", &many_lines("Description"));
        let Ok(Response::Project { project: described }) =
            admin.request(5, update(UpdateProject { description: Some("Slab poured.\nFraming next\tweek.".into()), ..Default::default() })).await
        else {
            panic!("a description is many lines")
        };
        assert_eq!((described.title, described.description.as_str()), (project.title.clone(), "Slab poured.\nFraming next\tweek."));

        let create = CreateProject {
            title: "New\u{0}build".into(),
            description: String::new(),
            address: "2 Oak Ave".into(),
            homeowner_id: homeowner.id.clone(),
            builder_id: None,
            status: ProjectStatus::Planning,
            progress: 0,
            progress_mode: None,
            milestones: None,
        };
        refused(admin.request(6, Request::CreateProject(create)).await, "title", &one_line("Title"));

        let Ok(Response::Photos { photos, .. }) = admin.request(7, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await else { panic!("photos") };
        let photo = photos[0].clone();
        let caption = UpdatePhoto { id: photo.id.clone(), caption: Some("Kitchen\u{0}".into()), ..Default::default() };
        refused(admin.request(8, Request::UpdatePhoto(caption)).await, "caption", &one_line("Caption"));
        let tab = UpdatePhoto { id: photo.id.clone(), caption: Some("Kitchen\tnorth".into()), ..Default::default() };
        refused(admin.request(9, Request::UpdatePhoto(tab)).await, "caption", &one_line("Caption"));

        let profile = ProfileUpdate { first_name: "Ada\u{0}".into(), last_name: "Admin".into(), ..Default::default() };
        refused(admin.request(10, Request::UpdateProfile(profile)).await, "firstName", &one_line("First name"));
        let user = UpdateUser { id: homeowner.id.clone(), last_name: Some("Lee\u{1b}".into()), ..Default::default() };
        refused(admin.request(11, Request::UpdateUser(user)).await, "lastName", &one_line("Last name"));
        let invite = CreateUser {
            role: Role::Homeowner,
            email: "invitee@example.com".into(),
            first_name: "In\nvitee".into(),
            last_name: "Person".into(),
            name: String::new(),
            phone: "555 0100".into(),
            builder_id: None,
        };
        refused(admin.request(12, Request::CreateUser(invite)).await, "firstName", &one_line("First name"));
        let builder = CreateUser { role: Role::Builder, name: "Acme\u{0} Builders".into(), first_name: String::new(), ..invite_template() };
        refused(admin.request(13, Request::CreateUser(builder)).await, "name", &one_line("Name"));
        let log = |message: &str, data: Option<&str>| Request::Log(LogEntry { level: "error".into(), message: message.into(), data: data.map(Into::into) });
        refused(admin.request(14, log("boom\u{0}", None)).await, "message", &many_lines("Message"));
        refused(admin.request(15, log("boom", Some("{\"a\":\"\u{0}\"}"))).await, "data", &many_lines("Data"));
        assert!(admin.request(16, log("Error: boom\n    at render (App.tsx:3)", Some("{\n\t\"a\": 1\n}"))).await.is_ok(), "a stack trace is many lines");

        refused(admin.request(17, Request::AddComment(protocol::AddComment { image_id: photo.id.clone(), body: "Nice\u{0}".into() })).await, "body", &many_lines("Comment"));
        let Ok(Response::Comment { comment }) = admin.request(18, Request::AddComment(protocol::AddComment { image_id: photo.id.clone(), body: "Is this\n\tok?".into() })).await else {
            panic!("a comment is many lines")
        };
        assert_eq!(comment.body, "Is this\n\tok?");
        refused(admin.request(19, Request::EditComment(protocol::EditComment { id: comment.id.clone(), body: "\u{1b}[2J".into() })).await, "body", &many_lines("Comment"));
        let add = |name: &str| Request::AddMilestone(protocol::AddMilestone { project_id: project.id.clone(), name: name.into(), target_date: None });
        refused(admin.request(20, add("Roof\u{7}")).await, "name", &one_line("Name"));
        let Ok(Response::Milestones { plan }) = admin.request(21, add("Roof")).await else { panic!("a milestone") };
        let roof = plan.milestones.iter().find(|m| m.name == "Roof").cloned().expect("the new milestone");
        let rename = protocol::UpdateMilestone { id: roof.id.clone(), name: Some("Roof\r\n".into()), target_date: None };
        refused(admin.request(22, Request::UpdateMilestone(rename)).await, "name", &one_line("Name"));

        // Ids, cursors and tokens holding a control character name nothing.
        let nul = || "0190a0b4\u{0}".to_owned();
        unknown(admin.request(30, Request::GetProject(protocol::GetProject { id: nul() })).await, "project");
        unknown(admin.request(31, Request::UpdateProject(UpdateProject { id: nul(), title: Some("x".into()), ..Default::default() })).await, "project update");
        unknown(admin.request(32, Request::UpdatePhoto(UpdatePhoto { id: nul(), caption: Some("x".into()), ..Default::default() })).await, "photo");
        unknown(admin.request(33, Request::SetFavourite(protocol::SetFavourite { image_id: nul(), favourite: true })).await, "favourite");
        unknown(admin.request(34, Request::ListComments(protocol::ListComments { image_id: nul() })).await, "comments");
        unknown(admin.request(35, Request::DeleteComment(protocol::DeleteComment { id: nul() })).await, "comment");
        unknown(admin.request(36, Request::DeleteUser(protocol::DeleteUser { id: nul() })).await, "user");
        unknown(admin.request(37, Request::MarkNotificationRead(protocol::MarkNotificationRead { id: nul() })).await, "notification");
        unknown(admin.request(38, Request::RevokeGuestLink(protocol::RevokeGuestLink { id: nul() })).await, "guest link");
        unknown(admin.request(39, Request::DeleteMilestone(protocol::DeleteMilestone { id: nul() })).await, "milestone");
        unknown(admin.request(40, Request::Subscribe(protocol::Subscribe { id: nul() })).await, "subscription");
        let moved = update(UpdateProject { homeowner_id: Some(nul()), ..Default::default() });
        refused(admin.request(41, moved).await, "homeownerId", sitecast::domain::projects::HOMEOWNER_NOT_FOUND);
        let cover = update(UpdateProject { thumbnail_id: Some(nul()), ..Default::default() });
        refused(admin.request(42, cover).await, "thumbnailId", sitecast::domain::projects::THUMBNAIL_NOT_IN_PROJECT);
        let tagged = UpdatePhoto { id: photo.id.clone(), milestone_id: Some(nul()), ..Default::default() };
        refused(admin.request(43, Request::UpdatePhoto(tagged)).await, "milestoneId", sitecast::domain::projects::milestones::NOT_IN_PROJECT);
        let timeline = admin.request(44, Request::ListTimeline(protocol::ListTimeline { project_id: project.id.clone(), before: Some(format!("5.{}", nul())) })).await;
        assert_eq!(timeline.unwrap_err().code, ErrorCode::BadRequest);
        assert_eq!(server.get("/media/images/0190a0b4%00/thumb", Some(admin_session)).await.status, StatusCode::NOT_FOUND);

        // Nothing refused was stored: the project is as the one accepted change left it.
        let Ok(Response::Project { project: now }) = admin.request(50, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await else { panic!("project") };
        assert_eq!((now.title, now.address, now.description), (project.title.clone(), project.address.clone(), "Slab poured.\nFraming next\tweek.".to_owned()));

        // Resumable uploads: `Upload-Metadata` values are base64, so anything can be in
        // one. A file's name is cut, never refused: it loses what it cannot hold.
        let tus = Tus::new(&server, admin_session).await;
        let jpeg = crate::uploads::photo(64, 48);
        let r = tus.create(jpeg.len(), &[("projectId", &project.id), ("filename", "site\u{0}\u{1b}visit.jpg"), ("caption", "Porch\u{0}")]).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("caption".into(), one_line("Caption"))]));
        let batch_id = uuid::Uuid::new_v4().to_string();
        let batch = [("projectId", project.id.as_str()), ("filename", "a.jpg"), ("batchId", &batch_id), ("batchSize", "1"), ("note", "Windows\u{0} in")];
        let r = tus.create(jpeg.len(), &batch).await;
        assert_eq!((r.status, fields_of(&r.body)), (StatusCode::BAD_REQUEST, vec![("note".into(), many_lines("Note"))]));
        let r = tus.create(jpeg.len(), &[("projectId", "p\u{0}"), ("filename", "a.jpg")]).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
        let r = tus.create(jpeg.len(), &[("projectId", &project.id), ("filename", "site\u{0}\u{1b}visit\n.jpg")]).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        let location = r.header("location").expect("a Location");
        let r = tus.patch(&location, 0, &jpeg).await;
        assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
        let stored = r.header("sitecast-photo").expect("stored as a photo");
        let Ok(Response::Photos { photos, .. }) = admin.request(51, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await else { panic!("photos") };
        let uploaded = photos.iter().find(|p| p.id == stored).expect("the uploaded photo");
        assert_eq!(uploaded.original_name, "sitevisit.jpg");

        // The project's timeline carries no control character either: what was refused
        // never got there.
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let Ok(Response::Timeline { entries, .. }) = home.request(1, Request::ListTimeline(protocol::ListTimeline { project_id: project.id.clone(), before: None })).await else { panic!("timeline") };
        let text = serde_json::to_string(&entries).unwrap();
        assert!(!text.contains("\\u0000") && !text.contains("\\u001b"), "{text}");
        close(&mut admin).await;
        close(&mut home).await;
        server.stop().await;
        db
    })
    .await;
}

fn invite_template() -> CreateUser {
    CreateUser {
        role: Role::Homeowner,
        email: "acme@example.com".into(),
        first_name: String::new(),
        last_name: String::new(),
        name: String::new(),
        phone: "555 0101".into(),
        builder_id: None,
    }
}

async fn close(ws: &mut WsClient) {
    use futures_util::SinkExt;
    let _ = ws.framed.send(awc::ws::Message::Close(None)).await;
}
