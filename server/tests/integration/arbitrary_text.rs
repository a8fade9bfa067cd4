//! The input rules (docs/LIMITS.md), as a property: arbitrary text (NUL and every other
//! control character, unusual Unicode, very long strings) through every text field of
//! every request that carries one (each socket request, a guest's socket, each HTTP form,
//! tus metadata, ids in paths and queries) against the real server on SQLite, and on
//! Postgres when `TEST_DATABASE_URL` is set. No answer may be an internal error, and the
//! server keeps answering.
//!
//! The server runs on a thread of its own; proptest drives the cases from the test's
//! thread through a client runtime there, so a failing case shrinks to the smallest
//! text that fails. Each field's runner has its own fixed seed: every run sends the
//! same cases.

use std::cell::RefCell;
use std::time::Duration;

use awc::http::Method;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use protocol::{
    AddMilestone, CreateGuestLink, CreateProject, CreateUser, ErrorCode, GuestPhotos, LogEntry, PasswordChange, ProfileUpdate,
    ProjectStatus, Request, Response, Role, ServerMsg, SetMilestoneDone, UpdateMilestone, UpdatePhoto, UpdateProject, UpdateUser,
};
use serde_json::{json, Value};

use crate::support::{databases, Options, TestServer, World, WorldSpec, WsClient, ORIGIN};
use crate::uploads::metadata;

/// Random texts per field, besides the fixed ones: modest, so that every field of both
/// backends runs in well under a minute of a debug build.
const CASES: u32 = 6;
/// Requests one socket carries before the test opens a fresh one: the server allows a
/// socket 200 per 10 s, and a refusal for that would test nothing.
const PER_SOCKET: u32 = 150;

/// What every field gets, whatever the seed: the inputs that once failed, and the edges.
fn fixed_texts() -> Vec<String> {
    vec![
        String::new(),
        "\u{0}".into(),
        "a\u{0}b".into(),
        "\u{1b}[2J\u{1b}[31mred".into(),
        "Maple\r\nBcc: everyone@example.com".into(),
        "\t".into(),
        "\u{7f}\u{85}\u{9b}".into(),
        "🏗️ \u{202e}gpj.exe\u{200b}\u{feff}\u{10ffff}".into(),
        "%00%0d%0a../../etc/passwd'--".into(),
        "x".repeat(5_001),
        // 36 KB: past an HTTP body's 32 KiB, within a socket frame's 64 KiB.
        "🏗".repeat(9_000),
    ]
}

fn character() -> impl Strategy<Value = char> {
    let odd = prop::sample::select(vec![
        '\u{0}', '\u{1}', '\u{7}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{a0}',
        '\u{301}', '\u{200b}', '\u{200d}', '\u{200e}', '\u{202e}', '\u{2028}', '\u{2029}', '\u{2066}', '\u{fe0f}', '\u{feff}',
        '\u{fffd}', '\u{ffff}', '\u{e000}', '\u{1f3d7}', '\u{10ffff}', 'é', 'ß', 'İ', '@', '.', '/', '\\', '%', '\'', '"', '<',
        '&', ' ', '-',
    ]);
    prop_oneof![4 => any::<char>(), 3 => odd, 3 => prop::char::range('a', 'z'), 1 => prop::char::range('\u{0}', '\u{1f}')]
}

fn text() -> impl Strategy<Value = String> {
    let short = prop::collection::vec(character(), 0..24).prop_map(|cs| cs.into_iter().collect::<String>());
    // Around the names', titles' and captions' limits (100 to 300).
    let edge = prop::collection::vec(character(), 90..330).prop_map(|cs| cs.into_iter().collect::<String>());
    let long = (prop::collection::vec(character(), 0..8), 990usize..9_000, any::<bool>()).prop_map(|(tail, n, wide)| {
        let mut text = if wide { "é".repeat(n) } else { "x".repeat(n) };
        text.extend(tail);
        text
    });
    prop_oneof![6 => short, 2 => edge, 1 => long]
}

/// What the test's world gives the requests to name, so that the text under test
/// is the only thing in its request that can be wrong.
struct Ids {
    project: String,
    homeowner: String,
    builder: String,
    photo: String,
    comment: String,
    milestone: String,
}

enum Call {
    /// Over the admin's socket.
    Ws(Request),
    /// Over the socket of a guest with an all-photos link to `Ids::project`.
    Guest(Request),
    /// JSON, signed out (the contact form, sign-up, login…): path and body.
    Post(String, Value),
    /// With the admin's session.
    Get(String),
    /// With the admin's session and the tus headers, no body (HEAD, PATCH, DELETE).
    Tus(Method, String),
    /// A tus creation with this metadata, with the admin's session; an upload it
    /// creates is discarded at once (a person may hold 100).
    TusCreate(Vec<(&'static str, String)>),
    /// An empty multipart upload to this path, with the admin's session.
    Multipart(String),
}

/// One text field of one request: its name, and the request with the text in it.
type Slot = (&'static str, fn(&Ids, String) -> Call);

fn invite(role: Role) -> CreateUser {
    CreateUser {
        role,
        email: "invitee@example.com".into(),
        first_name: "Fuzz".into(),
        last_name: "Case".into(),
        name: "Fuzz Builders".into(),
        phone: "555 0100".into(),
        builder_id: None,
    }
}

fn new_project(ids: &Ids) -> CreateProject {
    CreateProject {
        title: "Fuzz".into(),
        description: String::new(),
        address: "1 Fuzz Lane".into(),
        homeowner_id: ids.homeowner.clone(),
        builder_id: None,
        status: ProjectStatus::Planning,
        progress: 0,
        progress_mode: None,
        milestones: None,
    }
}

fn edit_project(ids: &Ids, input: UpdateProject) -> Call {
    Call::Ws(Request::UpdateProject(UpdateProject { id: ids.project.clone(), ..input }))
}

fn edit_user(id: &str, input: UpdateUser) -> Call {
    Call::Ws(Request::UpdateUser(UpdateUser { id: id.to_owned(), ..input }))
}

fn profile(input: ProfileUpdate) -> Call {
    Call::Ws(Request::UpdateProfile(ProfileUpdate { first_name: "Ada".into(), last_name: "Admin".into(), ..input }))
}

/// The current password is wrong unless it is the text: nothing here may change the
/// admin's password under the rest of the test.
fn password(current: &str, new: &str, confirm: &str) -> Call {
    let change = PasswordChange { current_password: current.into(), new_password: new.into(), confirm_password: confirm.into() };
    Call::Ws(Request::ChangePassword(change))
}

fn log(level: &str, message: &str, data: Option<String>) -> Call {
    Call::Ws(Request::Log(LogEntry { level: level.into(), message: message.into(), data }))
}

fn contact(field: &str, text: String) -> Call {
    let mut body = json!({"name": "Dana", "email": "dana@example.com", "phone": "555 0100", "message": "Hello"});
    body[field] = Value::String(text);
    Call::Post("/api/contact".into(), body)
}

fn sign_up(field: &str, text: String) -> Call {
    let mut body = json!({
        "role": "homeowner", "email": "fuzz@example.com", "password": "brand-new-pass", "confirmPassword": "brand-new-pass",
        "firstName": "Fuzz", "lastName": "Case", "name": "", "phone": "555 0100",
    });
    body[field] = Value::String(text);
    Call::Post("/api/auth/signup".into(), body)
}

fn reset(field: &str, text: String) -> Call {
    let mut body = json!({"token": "not-a-token", "password": "brand-new-pass", "confirmPassword": "brand-new-pass"});
    body[field] = Value::String(text);
    Call::Post("/api/auth/reset".into(), body)
}

fn tus(ids: &Ids, key: &'static str, text: String) -> Call {
    // A header, not a body: a text cut to just past the longest metadata rule (a note).
    let text: String = text.chars().take(1_100).collect();
    let mut meta = vec![("projectId", ids.project.clone()), ("filename", "fuzz.jpg".to_owned())];
    if matches!(key, "batchId" | "batchSize" | "note") {
        meta.extend([("batchId", uuid::Uuid::new_v4().to_string()), ("batchSize", "1".to_owned()), ("note", "Site visit".to_owned())]);
    }
    match meta.iter_mut().find(|(k, _)| *k == key) {
        Some((_, value)) => *value = text,
        None => meta.push((key, text)),
    }
    Call::TusCreate(meta)
}

/// A text as one percent-encoded path segment or query value, cut short enough for a
/// request line.
fn encoded(text: &str) -> String {
    let mut out = String::new();
    for b in text.chars().take(300).collect::<String>().bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn slots() -> Vec<Slot> {
    vec![
        ("create_user.email", |_, t| Call::Ws(Request::CreateUser(CreateUser { email: t, ..invite(Role::Homeowner) }))),
        ("create_user.first_name", |_, t| Call::Ws(Request::CreateUser(CreateUser { first_name: t, ..invite(Role::Homeowner) }))),
        ("create_user.last_name", |_, t| Call::Ws(Request::CreateUser(CreateUser { last_name: t, ..invite(Role::Admin) }))),
        ("create_user.name", |_, t| Call::Ws(Request::CreateUser(CreateUser { name: t, ..invite(Role::Builder) }))),
        ("create_user.phone", |_, t| Call::Ws(Request::CreateUser(CreateUser { phone: t, ..invite(Role::Builder) }))),
        ("create_user.builder_id", |_, t| Call::Ws(Request::CreateUser(CreateUser { builder_id: Some(t), ..invite(Role::Homeowner) }))),
        ("update_user.id", |_, t| edit_user(&t, UpdateUser { phone: Some("555".into()), ..Default::default() })),
        ("update_user.first_name", |ids, t| edit_user(&ids.homeowner, UpdateUser { first_name: Some(t), ..Default::default() })),
        ("update_user.last_name", |ids, t| edit_user(&ids.homeowner, UpdateUser { last_name: Some(t), ..Default::default() })),
        ("update_user.name", |ids, t| edit_user(&ids.builder, UpdateUser { name: Some(t), ..Default::default() })),
        ("update_user.phone", |ids, t| edit_user(&ids.homeowner, UpdateUser { phone: Some(t), ..Default::default() })),
        ("delete_user.id", |_, t| Call::Ws(Request::DeleteUser(protocol::DeleteUser { id: t }))),
        ("user_deletion_impact.id", |_, t| Call::Ws(Request::UserDeletionImpact(protocol::UserDeletionImpact { id: t }))),
        ("get_project.id", |_, t| Call::Ws(Request::GetProject(protocol::GetProject { id: t }))),
        ("delete_project.id", |_, t| Call::Ws(Request::DeleteProject(protocol::DeleteProject { id: t }))),
        ("subscribe.id", |_, t| Call::Ws(Request::Subscribe(protocol::Subscribe { id: t }))),
        ("unsubscribe.id", |_, t| Call::Ws(Request::Unsubscribe(protocol::Unsubscribe { id: t }))),
        ("create_project.title", |ids, t| Call::Ws(Request::CreateProject(CreateProject { title: t, ..new_project(ids) }))),
        ("create_project.description", |ids, t| Call::Ws(Request::CreateProject(CreateProject { description: t, ..new_project(ids) }))),
        ("create_project.address", |ids, t| Call::Ws(Request::CreateProject(CreateProject { address: t, ..new_project(ids) }))),
        ("create_project.homeowner_id", |ids, t| Call::Ws(Request::CreateProject(CreateProject { homeowner_id: t, ..new_project(ids) }))),
        ("create_project.builder_id", |ids, t| Call::Ws(Request::CreateProject(CreateProject { builder_id: Some(t), ..new_project(ids) }))),
        ("update_project.id", |_, t| Call::Ws(Request::UpdateProject(UpdateProject { id: t, progress: Some(5), ..Default::default() }))),
        ("update_project.title", |ids, t| edit_project(ids, UpdateProject { title: Some(t), ..Default::default() })),
        ("update_project.description", |ids, t| edit_project(ids, UpdateProject { description: Some(t), ..Default::default() })),
        ("update_project.address", |ids, t| edit_project(ids, UpdateProject { address: Some(t), ..Default::default() })),
        ("update_project.homeowner_id", |ids, t| edit_project(ids, UpdateProject { homeowner_id: Some(t), ..Default::default() })),
        ("update_project.builder_id", |ids, t| edit_project(ids, UpdateProject { builder_id: Some(t), ..Default::default() })),
        ("update_project.thumbnail_id", |ids, t| edit_project(ids, UpdateProject { thumbnail_id: Some(t), ..Default::default() })),
        ("update_profile.first_name", |_, t| profile(ProfileUpdate { first_name: t, ..Default::default() })),
        ("update_profile.last_name", |_, t| profile(ProfileUpdate { last_name: t, ..Default::default() })),
        ("update_profile.phone", |_, t| profile(ProfileUpdate { phone: t, ..Default::default() })),
        ("update_profile.name", |_, t| profile(ProfileUpdate { name: Some(t), ..Default::default() })),
        ("change_password.current_password", |_, t| password(&t, "brand-new-pass", "brand-new-pass")),
        ("change_password.new_password", |_, t| password("not-the-password", &t, "brand-new-pass")),
        ("change_password.confirm_password", |_, t| password("not-the-password", "brand-new-pass", &t)),
        ("log.level", |_, t| log(&t, "boom", None)),
        ("log.message", |_, t| log("error", &t, None)),
        ("log.data", |_, t| log("error", "boom", Some(t))),
        ("list_photos.project_id", |_, t| Call::Ws(Request::ListPhotos(protocol::ListPhotos::first(t)))),
        ("update_photo.id", |_, t| Call::Ws(Request::UpdatePhoto(UpdatePhoto { id: t, caption: Some("x".into()), ..Default::default() }))),
        ("update_photo.caption", |ids, t| Call::Ws(Request::UpdatePhoto(UpdatePhoto { id: ids.photo.clone(), caption: Some(t), ..Default::default() }))),
        ("update_photo.milestone_id", |ids, t| {
            Call::Ws(Request::UpdatePhoto(UpdatePhoto { id: ids.photo.clone(), milestone_id: Some(t), ..Default::default() }))
        }),
        ("delete_photo.id", |_, t| Call::Ws(Request::DeletePhoto(protocol::DeletePhoto { id: t }))),
        ("set_favourite.image_id", |_, t| Call::Ws(Request::SetFavourite(protocol::SetFavourite { image_id: t, favourite: true }))),
        ("list_comments.image_id", |_, t| Call::Ws(Request::ListComments(protocol::ListComments { image_id: t }))),
        ("add_comment.image_id", |_, t| Call::Ws(Request::AddComment(protocol::AddComment { image_id: t, body: "Looks good".into() }))),
        ("add_comment.body", |ids, t| Call::Ws(Request::AddComment(protocol::AddComment { image_id: ids.photo.clone(), body: t }))),
        ("edit_comment.id", |_, t| Call::Ws(Request::EditComment(protocol::EditComment { id: t, body: "Edited".into() }))),
        ("edit_comment.body", |ids, t| Call::Ws(Request::EditComment(protocol::EditComment { id: ids.comment.clone(), body: t }))),
        ("delete_comment.id", |_, t| Call::Ws(Request::DeleteComment(protocol::DeleteComment { id: t }))),
        ("mark_notification_read.id", |_, t| Call::Ws(Request::MarkNotificationRead(protocol::MarkNotificationRead { id: t }))),
        ("list_milestones.project_id", |_, t| Call::Ws(Request::ListMilestones(protocol::ListMilestones { project_id: t }))),
        ("add_milestone.project_id", |_, t| Call::Ws(Request::AddMilestone(AddMilestone { project_id: t, name: "Roof".into(), target_date: None }))),
        ("add_milestone.name", |ids, t| Call::Ws(Request::AddMilestone(AddMilestone { project_id: ids.project.clone(), name: t, target_date: None }))),
        ("add_milestone.target_date", |ids, t| {
            Call::Ws(Request::AddMilestone(AddMilestone { project_id: ids.project.clone(), name: "Roof".into(), target_date: Some(t) }))
        }),
        ("add_milestone_template.project_id", |_, t| Call::Ws(Request::AddMilestoneTemplate(protocol::AddMilestoneTemplate { project_id: t }))),
        ("update_milestone.id", |_, t| Call::Ws(Request::UpdateMilestone(UpdateMilestone { id: t, name: Some("Roof".into()), target_date: None }))),
        ("update_milestone.name", |ids, t| Call::Ws(Request::UpdateMilestone(UpdateMilestone { id: ids.milestone.clone(), name: Some(t), target_date: None }))),
        ("update_milestone.target_date", |ids, t| {
            Call::Ws(Request::UpdateMilestone(UpdateMilestone { id: ids.milestone.clone(), name: None, target_date: Some(t) }))
        }),
        ("set_milestone_done.id", |_, t| Call::Ws(Request::SetMilestoneDone(SetMilestoneDone { id: t, done: true, done_date: None }))),
        ("set_milestone_done.done_date", |ids, t| {
            Call::Ws(Request::SetMilestoneDone(SetMilestoneDone { id: ids.milestone.clone(), done: true, done_date: Some(t) }))
        }),
        ("move_milestone.id", |_, t| Call::Ws(Request::MoveMilestone(protocol::MoveMilestone { id: t, position: 0 }))),
        ("delete_milestone.id", |_, t| Call::Ws(Request::DeleteMilestone(protocol::DeleteMilestone { id: t }))),
        ("list_timeline.project_id", |_, t| Call::Ws(Request::ListTimeline(protocol::ListTimeline { project_id: t, before: None }))),
        ("list_timeline.before", |ids, t| Call::Ws(Request::ListTimeline(protocol::ListTimeline { project_id: ids.project.clone(), before: Some(t) }))),
        ("create_guest_link.project_id", |_, t| {
            Call::Ws(Request::CreateGuestLink(CreateGuestLink { project_id: t, photos: GuestPhotos::All, downloads: false, expires_in_days: None }))
        }),
        ("list_guest_links.project_id", |_, t| Call::Ws(Request::ListGuestLinks(protocol::ListGuestLinks { project_id: t }))),
        ("revoke_guest_link.id", |_, t| Call::Ws(Request::RevokeGuestLink(protocol::RevokeGuestLink { id: t }))),
        ("guest.list_milestones.project_id", |_, t| Call::Guest(Request::ListMilestones(protocol::ListMilestones { project_id: t }))),
        ("guest.list_timeline.project_id", |_, t| Call::Guest(Request::ListTimeline(protocol::ListTimeline { project_id: t, before: None }))),
        ("guest.list_timeline.before", |ids, t| Call::Guest(Request::ListTimeline(protocol::ListTimeline { project_id: ids.project.clone(), before: Some(t) }))),
        ("guest.get_project.id", |_, t| Call::Guest(Request::GetProject(protocol::GetProject { id: t }))),
        ("contact.name", |_, t| contact("name", t)),
        ("contact.email", |_, t| contact("email", t)),
        ("contact.phone", |_, t| contact("phone", t)),
        ("contact.message", |_, t| contact("message", t)),
        ("signup.role", |_, t| sign_up("role", t)),
        ("signup.email", |_, t| sign_up("email", t)),
        ("signup.password", |_, t| sign_up("password", t)),
        ("signup.confirm_password", |_, t| sign_up("confirmPassword", t)),
        ("signup.first_name", |_, t| sign_up("firstName", t)),
        ("signup.last_name", |_, t| sign_up("lastName", t)),
        ("signup.name", |_, t| {
            let Call::Post(path, mut body) = sign_up("name", t) else { unreachable!() };
            body["role"] = json!("builder");
            Call::Post(path, body)
        }),
        ("signup.phone", |_, t| sign_up("phone", t)),
        ("login.email", |_, t| Call::Post("/api/auth/login".into(), json!({"email": t, "password": "not-the-password"}))),
        ("login.password", |_, t| Call::Post("/api/auth/login".into(), json!({"email": "nobody@example.com", "password": t}))),
        ("forgot.email", |_, t| Call::Post("/api/auth/forgot".into(), json!({"email": t}))),
        ("reset.token", |_, t| reset("token", t)),
        ("reset.password", |_, t| reset("password", t)),
        ("reset.confirm_password", |_, t| reset("confirmPassword", t)),
        ("reset_check.token", |_, t| Call::Get(format!("/api/auth/reset/check?token={}", encoded(&t)))),
        ("confirm.token", |_, t| Call::Get(format!("/api/auth/confirm?token={}", encoded(&t)))),
        ("unsubscribe.token", |_, t| Call::Post(format!("/api/mail/unsubscribe?token={}", encoded(&t)), json!({}))),
        ("guest_open.token", |_, t| Call::Post("/api/guest/open".into(), json!({"token": t}))),
        ("tus.project_id", |ids, t| tus(ids, "projectId", t)),
        ("tus.filename", |ids, t| tus(ids, "filename", t)),
        ("tus.caption", |ids, t| tus(ids, "caption", t)),
        ("tus.category", |ids, t| tus(ids, "category", t)),
        ("tus.milestone_id", |ids, t| tus(ids, "milestoneId", t)),
        ("tus.batch_id", |ids, t| tus(ids, "batchId", t)),
        ("tus.batch_size", |ids, t| tus(ids, "batchSize", t)),
        ("tus.note", |ids, t| tus(ids, "note", t)),
        ("tus.head.id", |_, t| Call::Tus(Method::HEAD, format!("/api/uploads/{}", encoded(&t)))),
        ("tus.patch.id", |_, t| Call::Tus(Method::PATCH, format!("/api/uploads/{}", encoded(&t)))),
        ("tus.delete.id", |_, t| Call::Tus(Method::DELETE, format!("/api/uploads/{}", encoded(&t)))),
        ("upload.project_id", |_, t| Call::Multipart(format!("/api/projects/{}/photos", encoded(&t)))),
        ("media.image_id", |_, t| Call::Get(format!("/media/images/{}/thumb", encoded(&t)))),
        ("media.variant", |ids, t| Call::Get(format!("/media/images/{}/{}", ids.photo, encoded(&t)))),
        ("media.zip.project_id", |_, t| Call::Get(format!("/media/projects/{}/photos.zip", encoded(&t)))),
        ("media.path", |_, t| Call::Get(format!("/media/{}", encoded(&t)))),
    ]
}

/// The server, on a thread (and actix system) of its own, with a world made on it.
struct ServerThread {
    base: String,
    ws_base: String,
    world: World,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ServerThread {
    fn start(url: String) -> ServerThread {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let options = Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() };
                let server = TestServer::start(&url, options).await;
                let world = server.world(WorldSpec { projects: 1, photos: 1, ..WorldSpec::default() }).await;
                let _ = ready_tx.send((server.base.clone(), server.ws_base.clone(), world));
                let _ = stopped.await;
                server.stop().await;
            });
        });
        let (base, ws_base, world) = ready_rx.recv().expect("the server started");
        ServerThread { base, ws_base, world, stop: Some(stop), thread: Some(thread) }
    }

    fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the server thread ends cleanly");
        }
    }
}

/// The admin's session and sockets, and a guest's socket, as the cases use them.
struct Session {
    http: awc::Client,
    base: String,
    ws_base: String,
    cookie: String,
    guest_token: String,
    admin: WsClient,
    guest: WsClient,
    /// Requests sent on each of the two sockets since it opened.
    sent: (u32, u32),
    next_id: u32,
}

impl Session {
    async fn open(base: &str, ws_base: &str, world: &World) -> (Session, Ids) {
        let http = awc::Client::builder().disable_redirects().timeout(Duration::from_secs(60)).finish();
        let login = http
            .post(format!("{base}/api/auth/login"))
            .insert_header(("Origin", ORIGIN))
            .send_json(&json!({"email": world.users["admin"].email, "password": world.password}))
            .await
            .expect("login");
        let cookie = login.cookies().expect("cookies").iter().find(|c| c.name() == "sitecast_session").expect("a session").value().to_owned();
        let mut admin = socket(&http, &format!("{ws_base}/ws"), &format!("sitecast_session={cookie}")).await;
        let ServerMsg::Hello(hello) = admin.next_msg().await else { panic!("a Hello first") };
        let project = hello.snapshot.projects.iter().find(|p| p.thumbnail_url.is_some() && p.builder_id.is_some()).cloned().expect("a project with photos");
        let Ok(Response::Photos { photos, .. }) = admin.request(1, Request::ListPhotos(protocol::ListPhotos::first(project.id.clone()))).await else { panic!("photos") };
        let Ok(Response::Comment { comment }) = admin.request(2, Request::AddComment(protocol::AddComment { image_id: photos[0].id.clone(), body: "Fuzz target".into() })).await
        else {
            panic!("a comment")
        };
        let add = AddMilestone { project_id: project.id.clone(), name: "Fuzz target".into(), target_date: None };
        let Ok(Response::Milestones { plan }) = admin.request(3, Request::AddMilestone(add)).await else { panic!("a milestone") };
        let link = CreateGuestLink { project_id: project.id.clone(), photos: GuestPhotos::All, downloads: true, expires_in_days: None };
        let Ok(Response::GuestLinkCreated { url, .. }) = admin.request(4, Request::CreateGuestLink(link)).await else { panic!("a guest link") };
        let guest_token = url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).expect("a guest URL");
        let mut guest = socket(&http, &format!("{ws_base}/ws/guest"), &format!("sitecast_guest={guest_token}")).await;
        assert!(matches!(guest.next_msg().await, ServerMsg::GuestHello(_)), "a guest's Hello first");
        let ids = Ids {
            project: project.id.clone(),
            homeowner: project.homeowner_id.clone(),
            builder: project.builder_id.clone().unwrap_or_default(),
            photo: photos[0].id.clone(),
            comment: comment.id,
            milestone: plan.milestones.iter().find(|m| m.name == "Fuzz target").map(|m| m.id.clone()).expect("the milestone"),
        };
        let session =
            Session { http, base: base.to_owned(), ws_base: ws_base.to_owned(), cookie, guest_token, admin, guest, sent: (4, 0), next_id: 10 };
        (session, ids)
    }

    fn signed_in(&self, req: awc::ClientRequest) -> awc::ClientRequest {
        req.insert_header(("Origin", ORIGIN)).insert_header(("Cookie", format!("sitecast_session={}", self.cookie)))
    }

    /// Sends one case. `Err` says what was wrong with the answer: an internal error.
    async fn answer(&mut self, call: Call) -> Result<(), String> {
        self.next_id += 1;
        let id = self.next_id;
        let sent = match call {
            Call::Ws(request) => {
                if self.sent.0 >= PER_SOCKET {
                    close(&mut self.admin).await;
                    self.admin = socket(&self.http, &format!("{}/ws", self.ws_base), &format!("sitecast_session={}", self.cookie)).await;
                    assert!(matches!(self.admin.next_msg().await, ServerMsg::Hello(_)), "a Hello first");
                    self.sent.0 = 0;
                }
                self.sent.0 += 1;
                return match self.admin.request(id, request).await {
                    Err(err) if err.code == ErrorCode::Internal => Err(format!("{err:?}")),
                    _ => Ok(()),
                };
            }
            Call::Guest(request) => {
                if self.sent.1 >= PER_SOCKET {
                    close(&mut self.guest).await;
                    self.guest = socket(&self.http, &format!("{}/ws/guest", self.ws_base), &format!("sitecast_guest={}", self.guest_token)).await;
                    assert!(matches!(self.guest.next_msg().await, ServerMsg::GuestHello(_)), "a guest's Hello first");
                    self.sent.1 = 0;
                }
                self.sent.1 += 1;
                return match self.guest.request(id, request).await {
                    Err(err) if err.code == ErrorCode::Internal => Err(format!("{err:?}")),
                    _ => Ok(()),
                };
            }
            Call::Post(path, body) => self.http.post(format!("{}{path}", self.base)).insert_header(("Origin", ORIGIN)).send_json(&body).await,
            Call::Get(path) => self.signed_in(self.http.get(format!("{}{path}", self.base))).send().await,
            Call::Tus(method, path) => {
                let req = self.signed_in(self.http.request(method, format!("{}{path}", self.base))).insert_header(("Tus-Resumable", "1.0.0"));
                req.insert_header(("Upload-Offset", "0")).insert_header(("Content-Type", "application/offset+octet-stream")).send().await
            }
            Call::TusCreate(meta) => {
                let pairs: Vec<(&str, &str)> = meta.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let req = self
                    .signed_in(self.http.post(format!("{}/api/uploads", self.base)))
                    .insert_header(("Tus-Resumable", "1.0.0"))
                    .insert_header(("Upload-Length", "100"))
                    .insert_header(("Upload-Metadata", metadata(&pairs)));
                let created = req.send().await;
                if let Ok(resp) = &created {
                    if let Some(location) = resp.headers().get("location").and_then(|v| v.to_str().ok()) {
                        let url = if location.starts_with("http") { location.to_owned() } else { format!("{}{location}", self.base) };
                        let discard = self.signed_in(self.http.delete(url)).insert_header(("Tus-Resumable", "1.0.0")).send().await;
                        let status = discard.map(|r| r.status()).map_err(|e| e.to_string())?;
                        if status.is_server_error() {
                            return Err(format!("discarding the upload answered {status}"));
                        }
                    }
                }
                created
            }
            Call::Multipart(path) => {
                let req = self.signed_in(self.http.post(format!("{}{path}", self.base)));
                req.insert_header(("Content-Type", "multipart/form-data; boundary=fuzz")).send_body("--fuzz--\r\n").await
            }
        };
        let mut resp = sent.map_err(|e| format!("no answer: {e}"))?;
        let status = resp.status();
        let body: Value = serde_json::from_slice(&resp.body().limit(1 << 20).await.unwrap_or_default()).unwrap_or_default();
        if status.is_server_error() || body["code"] == "internal" {
            return Err(format!("{status}: {body}"));
        }
        Ok(())
    }

    /// After every case: the sockets and HTTP still answer.
    async fn still_answering(&mut self) {
        self.next_id += 1;
        assert_eq!(self.admin.request(self.next_id, Request::Ping(protocol::Ping {})).await, Ok(Response::Pong));
        self.next_id += 1;
        assert_eq!(self.guest.request(self.next_id, Request::Ping(protocol::Ping {})).await, Ok(Response::Pong));
        let health = self.http.get(format!("{}/api/health", self.base)).send().await.expect("health answers");
        assert!(health.status().is_success(), "health: {}", health.status());
    }
}

async fn socket(http: &awc::Client, url: &str, cookie: &str) -> WsClient {
    let (_, framed) = http
        .ws(url)
        .max_frame_size(4 * 1024 * 1024)
        .header("Cookie", cookie)
        .origin(ORIGIN)
        .connect()
        .await
        .unwrap_or_else(|e| panic!("socket {url}: {e}"));
    WsClient::new(framed)
}

async fn close(ws: &mut WsClient) {
    use futures_util::SinkExt;
    let _ = ws.framed.send(awc::ws::Message::Close(None)).await;
}

fn seed(slot: usize) -> [u8; 32] {
    let mut seed = [26u8; 32];
    seed[..8].copy_from_slice(&(slot as u64).to_le_bytes());
    seed
}

fn shown(text: &str) -> String {
    let head: String = text.chars().take(60).collect();
    format!("{head:?} ({} characters)", text.chars().count())
}

#[test]
fn arbitrary_text_in_any_request_is_never_an_internal_error() {
    let dir = tempfile::tempdir().unwrap();
    let client = actix_web::rt::System::new();
    for db in client.block_on(databases(dir.path())) {
        eprintln!("-- on {}", db.name);
        let started = std::time::Instant::now();
        let server = ServerThread::start(db.url.clone());
        let (session, ids) = client.block_on(Session::open(&server.base, &server.ws_base, &server.world));
        let session = RefCell::new(session);
        let config = Config { cases: CASES, failure_persistence: None, max_shrink_iters: 256, ..Config::default() };
        let slots = slots();
        for (i, (field, request)) in slots.iter().enumerate() {
            for text in fixed_texts() {
                let answered = client.block_on(session.borrow_mut().answer(request(&ids, text.clone())));
                assert!(answered.is_ok(), "{field} on {}, with {}: {}", db.name, shown(&text), answered.unwrap_err());
            }
            let mut runner = TestRunner::new_with_rng(config.clone(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed(i)));
            let outcome = runner.run(&text(), |text| {
                let answered = client.block_on(session.borrow_mut().answer(request(&ids, text)));
                answered.map_err(TestCaseError::fail)
            });
            if let Err(failure) = outcome {
                panic!("{field} on {}: {failure}", db.name);
            }
            client.block_on(session.borrow_mut().still_answering());
        }
        eprintln!("{} fields on {} in {:.1} s", slots.len(), db.name, started.elapsed().as_secs_f64());
        drop(session);
        server.stop();
        client.block_on(db.cleanup());
    }
}
