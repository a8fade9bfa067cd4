//! Input bounds (docs/LIMITS.md): every free-text field has a longest value, checked by
//! the server over HTTP and over the socket. Too long is a field error, and nothing is
//! stored or sent to anyone.

use awc::http::StatusCode;
use protocol::{
    ApiError, CreateProject, CreateUser, ErrorCode, Event, LogEntry, PasswordChange, ProfileUpdate, ProjectStatus, Request,
    Response, Role, UpdatePhoto, UpdateProject, UpdateUser,
};
use serde_json::{json, Value};
use sitecast::store::users;

use crate::support::{for_each_backend, Options, TestServer, TestSql, WorldSpec};

/// The reported case: a first name of 30,000 characters used to be stored and fanned out.
const HUGE: usize = 30_000;

fn http_fields(body: &Value) -> Vec<(String, String)> {
    body["fields"]
        .as_array()
        .map(|fs| fs.iter().map(|f| (f["field"].as_str().unwrap_or("").to_owned(), f["message"].as_str().unwrap_or("").to_owned())).collect())
        .unwrap_or_default()
}

fn ws_fields(err: &ApiError) -> Vec<(String, String)> {
    assert_eq!(err.code, ErrorCode::Validation, "{err:?}");
    err.fields.iter().map(|f| (f.field.clone(), f.message.clone())).collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

async fn count(server: &TestServer, sql: &'static str) -> i64 {
    TestSql::new(sql).scalar(server.state.store.pool()).await.unwrap()
}

#[actix_web::test]
async fn oversized_fields_are_refused_over_http_and_nothing_is_stored() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let huge = "x".repeat(HUGE);
        let pool = server.state.store.pool();

        // Sign-up.
        let r = server
            .post(
                "/api/auth/signup",
                json!({"role": "homeowner", "email": "long@example.com", "password": "longenough", "confirmPassword": "longenough",
                       "firstName": huge, "lastName": "Lee", "phone": "5".repeat(41)}),
                None,
            )
            .await;
        assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("validation")));
        assert_eq!(
            http_fields(&r.body),
            pairs(&[("firstName", "First name must be at most 100 characters."), ("phone", "Phone must be at most 40 characters.")])
        );
        assert_eq!(r.body["message"], "First name must be at most 100 characters.");
        let r = server
            .post(
                "/api/auth/signup",
                json!({"role": "builder", "email": format!("{}@example.com", "b".repeat(250)), "password": "p".repeat(257),
                       "confirmPassword": "p".repeat(257), "name": "n".repeat(201)}),
                None,
            )
            .await;
        assert_eq!(
            http_fields(&r.body),
            pairs(&[
                ("name", "Name must be at most 200 characters."),
                ("email", "Email must be at most 254 characters."),
                ("password", "Password must be at most 256 characters."),
            ])
        );
        assert!(users::find_by_email(pool, "long@example.com").await.unwrap().is_none());
        assert_eq!(count(&server, "SELECT COUNT(*) FROM users").await, 0);
        assert_eq!(count(&server, "SELECT COUNT(*) FROM outbox WHERE kind = 'mail'").await, 0);

        // Login, forgot and reset.
        let r = server.post("/api/auth/login", json!({"email": "a@example.com", "password": "p".repeat(257)}), None).await;
        assert_eq!(http_fields(&r.body), pairs(&[("password", "Password must be at most 256 characters.")]));
        let r = server.post("/api/auth/forgot", json!({"email": format!("{huge}@example.com")}), None).await;
        assert_eq!(http_fields(&r.body), pairs(&[("email", "Email must be at most 254 characters.")]));
        let long_password = "p".repeat(257);
        let r = server.post("/api/auth/reset", json!({"token": "t", "password": long_password, "confirmPassword": long_password}), None).await;
        assert_eq!(http_fields(&r.body), pairs(&[("password", "Password must be at most 256 characters.")]));

        // Contact form.
        let r = server
            .post("/api/contact", json!({"name": "n".repeat(201), "email": "dana@example.com", "phone": "5".repeat(41), "message": "m".repeat(5_001)}), None)
            .await;
        assert_eq!(
            http_fields(&r.body),
            pairs(&[
                ("name", "Name must be at most 200 characters."),
                ("phone", "Phone must be at most 40 characters."),
                ("message", "Message must be at most 5000 characters."),
            ])
        );
        // At the limit, in four-byte characters, the form still fits the request size.
        let r = server
            .post("/api/contact", json!({"name": "D", "email": "dana@example.com", "message": "🏗".repeat(5_000)}), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(count(&server, "SELECT COUNT(*) FROM contact_messages").await, 1);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn oversized_fields_are_refused_over_the_socket_and_nothing_is_stored_or_sent() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let pool = server.state.store.pool();
        let huge = "x".repeat(HUGE);
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, bhello) = server.connect_as(&world.users["owner"].session).await;
        let (mut homeowner, hhello) = server.connect_as(&world.users["homeowner"].session).await;
        let me = hhello.user.id.clone();
        let (first_name, last_name) = (hhello.user.first_name.clone().unwrap_or_default(), hhello.user.last_name.clone().unwrap_or_default());

        // The reported case: the homeowner's own profile, which every admin would receive.
        let update = |first: &str, phone: &str| {
            Request::UpdateProfile(ProfileUpdate { first_name: first.into(), last_name: last_name.clone(), phone: phone.into(), name: None })
        };
        let err = homeowner.request(1, update(&huge, "")).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("firstName", "First name must be at most 100 characters.")]));
        assert_eq!(err.message, "First name must be at most 100 characters.");
        let err = homeowner.request(2, update(&first_name, &"5".repeat(41))).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("phone", "Phone must be at most 40 characters.")]));
        let stored = users::find_by_id(pool, &me).await.unwrap().unwrap();
        assert_eq!((stored.first_name.as_deref(), stored.phone.as_deref(), stored.version), (Some(first_name.as_str()), hhello.user.phone.as_deref(), hhello.user.version));
        // Nothing went out: the first update the admin hears of is the next valid one.
        let first_at_limit = "J".repeat(100);
        homeowner.request(3, update(&first_at_limit, "")).await.unwrap();
        let heard = admin
            .event(|e| match e {
                Event::UserUpdated { user } if user.id == me => Some(user.first_name.clone()),
                _ => None,
            })
            .await;
        assert_eq!(heard, Some(first_at_limit));

        let change = |new: &str| {
            Request::ChangePassword(PasswordChange { current_password: world.password.clone(), new_password: new.into(), confirm_password: new.into() })
        };
        let err = homeowner.request(4, change(&"p".repeat(257))).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("newPassword", "Password must be at most 256 characters.")]));
        server.login(&world.users["homeowner"].email, &world.password).await;

        let log = Request::Log(LogEntry { level: "info".into(), message: "page".into(), data: Some(huge.clone()) });
        assert_eq!(ws_fields(&homeowner.request(5, log).await.unwrap_err()), pairs(&[("data", "Data must be at most 8000 characters.")]));
        assert_eq!(count(&server, "SELECT COUNT(*) FROM logs").await, 0);

        // Users: invite and edit.
        let invite = CreateUser {
            role: Role::Homeowner,
            email: "new.owner@example.com".into(),
            first_name: huge.clone(),
            last_name: "Lee".into(),
            name: String::new(),
            phone: "555".into(),
            builder_id: None,
        };
        let err = admin.request(6, Request::CreateUser(invite.clone())).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("firstName", "First name must be at most 100 characters.")]));
        let company = CreateUser { role: Role::Builder, first_name: String::new(), name: "n".repeat(201), ..invite };
        let err = admin.request(7, Request::CreateUser(company)).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("name", "Name must be at most 200 characters.")]));
        assert!(users::find_by_email(pool, "new.owner@example.com").await.unwrap().is_none());
        assert_eq!(count(&server, "SELECT COUNT(*) FROM outbox WHERE to_address = 'new.owner@example.com'").await, 0);

        let edit = UpdateUser { id: me.clone(), first_name: Some(huge.clone()), last_name: Some("l".repeat(101)), ..Default::default() };
        let err = builder.request(8, Request::UpdateUser(edit)).await.unwrap_err();
        assert_eq!(
            ws_fields(&err),
            pairs(&[("firstName", "First name must be at most 100 characters."), ("lastName", "Last name must be at most 100 characters.")])
        );
        let edit = UpdateUser { id: bhello.user.id.clone(), name: Some(huge.clone()), ..Default::default() };
        let err = admin.request(9, Request::UpdateUser(edit)).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("name", "Name must be at most 200 characters.")]));
        assert_eq!(users::find_by_id(pool, &bhello.user.id).await.unwrap().unwrap().name.as_deref(), Some(world.users["owner"].name.as_str()));

        // Projects.
        let new = CreateProject {
            title: huge.clone(),
            description: String::new(),
            address: "1 Long Road".into(),
            homeowner_id: me.clone(),
            builder_id: None,
            status: ProjectStatus::Planning,
            progress: 0,
            progress_mode: None,
            milestones: None,
        };
        let projects_before = count(&server, "SELECT COUNT(*) FROM projects").await;
        let err = admin.request(10, Request::CreateProject(new)).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("title", "Title must be at most 200 characters.")]));
        assert_eq!(count(&server, "SELECT COUNT(*) FROM projects").await, projects_before);
        let project = bhello.snapshot.projects.first().expect("the builder has projects").clone();
        let edit = UpdateProject { id: project.id.clone(), address: Some("a".repeat(301)), ..Default::default() };
        let err = builder.request(11, Request::UpdateProject(edit)).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("address", "Address must be at most 300 characters.")]));

        // Photos.
        let mut photo = None;
        for p in &bhello.snapshot.projects {
            let Response::Photos { photos, .. } = builder.request(12, Request::ListPhotos(protocol::ListPhotos::first(p.id.clone()))).await.unwrap() else {
                panic!("photos")
            };
            if let Some(first) = photos.into_iter().next() {
                photo = Some(first);
                break;
            }
        }
        let photo = photo.expect("the builder's projects have photos");
        let edit = UpdatePhoto { id: photo.id.clone(), caption: Some(huge.clone()), category: None, milestone_id: None };
        let err = builder.request(13, Request::UpdatePhoto(edit)).await.unwrap_err();
        assert_eq!(ws_fields(&err), pairs(&[("caption", "Caption must be at most 500 characters.")]));

        // None of it reached the store.
        let Response::Project { project: after } = builder.request(14, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else {
            panic!("project")
        };
        assert_eq!((after.address, after.version), (project.address, project.version));
        let Response::Photos { photos, .. } = builder.request(15, Request::ListPhotos(protocol::ListPhotos::first(photo.project_id.clone()))).await.unwrap() else {
            panic!("photos")
        };
        assert_eq!(photos.iter().find(|p| p.id == photo.id), Some(&photo));
        server.stop().await;
        db
    })
    .await;
}
