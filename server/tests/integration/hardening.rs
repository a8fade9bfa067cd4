//! What an attacker found in markup, reports, companies, two-factor sign-in and push,
//! each finding a test that failed before its fix, on both backends, and on two
//! instances sharing one Postgres database wherever the finding took two:
//!
//! - a member who loses the project takes every link they made with them, open
//!   sockets on every instance included;
//! - a report, its PDF and its link's page show nothing the report does not cover;
//! - wrong second-factor codes count per account until a sign-in completes, and behind
//!   a proxy only the proxy's own client-address header is believed;
//! - every HTTP route makes the socket's session checks (a session that must enrol
//!   first opens nothing else);
//! - a company keeps an owner however demotions and removals race;
//! - push subscriptions are capped and their keys exact;
//! - text that cannot be drawn is refused when saved and survives when stored;
//! - every action that grants or takes away power asks "Confirm it's you";
//! - and the smaller ones: crew invitations, invitation errors, a report link's
//!   markup, racing recovery codes, the zip of someone else's project, a missing PDF.

use std::future::Future;
use std::time::Duration;

use awc::http::StatusCode;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use protocol::{
    CompanyRole, CreateGuestLink, ErrorCode, Event, GuestPhotos, InstallationSettings, ReportOptions, ReportPhotos, Request,
    Response, ServerMsg, TimelineDetail,
};
use serde_json::json;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};

use crate::support::{for_each_backend, Options, TestDb, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

async fn start(url: &str, extra: &[(&str, &str)]) -> TestServer {
    let extra = extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    TestServer::start(url, Options { ws_ping_secs: 60, ws_timeout_secs: 600, extra, ..Options::default() }).await
}

/// Runs `body` on each backend with a world: on SQLite one instance (passed as both),
/// on Postgres two instances on the one database.
async fn on_each_backend<F, Fut>(spec: WorldSpec, body: F)
where
    F: Fn(TestServer, Option<TestServer>, World) -> Fut + Copy,
    Fut: Future<Output = (TestServer, Option<TestServer>)>,
{
    for_each_backend(|db: TestDb| {
        let spec = spec.clone();
        async move {
            let a = start(&db.url, &[]).await;
            let b = if db.name == "postgres" { Some(start(&db.url, &[]).await) } else { None };
            let world = a.world(spec).await;
            let (a, b) = body(a, b, world).await;
            a.stop().await;
            if let Some(b) = b {
                b.stop().await;
            }
            db
        }
    })
    .await;
}

async fn open(server: &TestServer, cookie: &str) -> WsClient {
    server.connect_as(cookie).await.0
}

fn token_of(url: &str) -> String {
    url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).expect("a guest URL")
}

async fn guest(server: &TestServer, token: &str) -> WsClient {
    let mut ws = server.guest_ws(Some(token), Some(ORIGIN)).await.expect("the guest socket opens");
    match ws.next_msg().await {
        ServerMsg::GuestHello(_) => ws,
        other => panic!("expected GuestHello first, got {other:?}"),
    }
}

async fn link_ended(ws: &mut WsClient, what: &str) {
    let reason = ws.event(|e| match e {
        Event::SessionEnded { reason } => Some(reason.clone()),
        _ => None,
    });
    let reason = tokio::time::timeout(Duration::from_secs(20), reason).await.unwrap_or_else(|_| panic!("{what}: the link ended"));
    assert_eq!(reason, "link_inactive", "{what}");
    assert_eq!(ws.close_code().await, Some(4401), "{what}");
}

async fn make_link(ws: &mut WsClient, id: u32, project_id: &str) -> String {
    let input = CreateGuestLink { project_id: project_id.to_owned(), photos: GuestPhotos::All, downloads: true, expires_in_days: Some(30) };
    match ws.request(id, Request::CreateGuestLink(input)).await {
        Ok(Response::GuestLinkCreated { url, .. }) => token_of(&url),
        other => panic!("creating a link: {other:?}"),
    }
}

/// Finding 1: a site manager's guest link, open on both instances, ends on both the
/// moment the owner removes the manager; a link the owner made stays and hears on.
#[actix_web::test]
async fn a_removed_members_guest_links_end_at_once_on_every_instance() {
    let spec = WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() };
    on_each_backend(spec, |a, b, world| async move {
        let on_b = b.as_ref().unwrap_or(&a);
        let project = world.projects[0].id.clone();
        let mut manager = open(&a, &world.users["manager"].session).await;
        let by_manager = make_link(&mut manager, 1, &project).await;
        let mut owner = open(&a, &world.users["owner"].session).await;
        let by_owner = make_link(&mut owner, 1, &project).await;
        let (mut guest_a, mut guest_b, mut kept) = (guest(&a, &by_manager).await, guest(on_b, &by_manager).await, guest(on_b, &by_owner).await);

        let removed = owner.request(2, Request::RemoveMember(protocol::RemoveMember { id: world.users["manager"].id.clone() })).await;
        assert!(removed.is_ok(), "{removed:?}");
        link_ended(&mut guest_a, "the manager's link on A").await;
        link_ended(&mut guest_b, "the manager's link on B").await;
        assert!(a.guest_ws(Some(&by_manager), Some(ORIGIN)).await.is_err(), "no new socket opens for it");
        let photo = &world.projects[0].photos[0].id;
        assert_eq!(a.guest_get(&format!("/media/images/{photo}/thumb"), &by_manager).await.status, StatusCode::UNAUTHORIZED);

        // The owner's link is theirs, not the manager's: it still hears the project.
        let mut admin = open(&a, &world.users["admin"].session).await;
        let change = protocol::UpdateProject { id: project.clone(), progress: Some(42), ..Default::default() };
        admin.request(3, Request::UpdateProject(change)).await.unwrap();
        let heard = kept.event(|e| match e {
            Event::ProjectUpdated { project, .. } if project.progress == 42 => Some(()),
            _ => None,
        });
        tokio::time::timeout(Duration::from_secs(20), heard).await.expect("the owner's link still hears the project");
        (a, b)
    })
    .await;
}

fn today() -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::OffsetDateTime::now_utc().date().format(&format).unwrap()
}

async fn until_ready(ws: &mut WsClient, id: &str) {
    let done = ws.event(|e| match e {
        Event::ReportChanged { report } if report.id == id && report.status != protocol::ReportStatus::Generating => Some(report.status),
        _ => None,
    });
    let status = tokio::time::timeout(Duration::from_secs(120), done).await.expect("the report is made");
    assert_eq!(status, protocol::ReportStatus::Ready);
}

/// Makes a report on the world's first project as its owner, waits until it is
/// ready, and shares it: the report's id and its link's token.
async fn shared_report(ws: &mut WsClient, id: u32, project: &str, options: ReportOptions) -> (String, String) {
    // The project's open pages watch its reports being made.
    ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap();
    let make = protocol::MakeReport { project_id: project.to_owned(), options };
    let Ok(Response::Report { report }) = ws.request(id, Request::MakeReport(make)).await else { panic!("make a report") };
    until_ready(ws, &report.id).await;
    let share = protocol::ShareReport { report_id: report.id.clone(), expires_in_days: Some(7) };
    let Ok(Response::GuestLinkCreated { url, .. }) = ws.request(id + 1, Request::ShareReport(share)).await else { panic!("share") };
    (report.id, token_of(&url))
}

fn named_photos(entries: &[protocol::TimelineEntry]) -> Vec<String> {
    entries
        .iter()
        .flat_map(|e| match &e.detail {
            TimelineDetail::PhotosAdded { photos, .. } => photos.iter().map(|p| p.id.clone()).collect(),
            TimelineDetail::Comment { photo, .. } | TimelineDetail::MarkedUp { photo } => vec![photo.id.clone()],
            _ => Vec::new(),
        })
        .collect()
}

/// Finding 2: a report of one photo with comments off, shared as a link: its "what
/// changed" names no other photo and no comment, in the link's hello and in the PDF.
#[actix_web::test]
async fn a_report_and_its_link_show_only_what_the_report_covers() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 4, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let project = &world.projects[0];
        let mut owner = open(&server, &world.users["owner"].session).await;
        let question = format!("Is this sag normal {}", world.tag);
        let comment = protocol::AddComment { image_id: project.photos[1].id.clone(), body: question.clone() };
        owner.request(1, Request::AddComment(comment)).await.unwrap();
        let options = ReportOptions {
            from: Some("2000-01-01".into()),
            to: Some(today()),
            photos: ReportPhotos::Picked,
            picked: vec![project.photos[0].id.clone()],
            per_page: 1,
            comments: false,
            ..ReportOptions::default()
        };
        let (report_id, token) = shared_report(&mut owner, 2, &project.id, options).await;

        let mut ws = server.guest_ws(Some(&token), Some(ORIGIN)).await.expect("the report link opens");
        let ServerMsg::GuestHello(hello) = ws.next_msg().await else { panic!("a hello") };
        let content = hello.report.expect("the report").content.expect("its content");
        let shown: Vec<String> = content.sections.iter().flat_map(|s| s.photos.iter().map(|p| p.photo.id.clone())).collect();
        assert_eq!(shown, vec![project.photos[0].id.clone()]);
        let cover = project.photos.last().unwrap().id.clone();
        for named in named_photos(&content.changes) {
            assert!(named == project.photos[0].id || named == cover, "what changed names a photo the report does not show: {named}");
        }
        assert!(!content.changes.iter().any(|e| matches!(e.detail, TimelineDetail::Comment { .. })), "no comment: the report has none");
        assert!(!content.changes.is_empty(), "the report still says what changed to what it shows");

        let pdf = server.guest_get(&format!("/api/reports/{report_id}/pdf"), &token).await;
        assert_eq!(pdf.status, StatusCode::OK);
        if crate::reports::poppler() {
            let text = crate::reports::pdf_text(server.dir.path(), &pdf.bytes);
            assert!(!text.contains("sag normal"), "the PDF prints no comment:\n{text}");
        }

        // With comments on and the commented photo in it, the entry is there: the cut
        // is the report's choices, not a blanket removal.
        let options = ReportOptions {
            from: Some("2000-01-01".into()),
            to: Some(today()),
            photos: ReportPhotos::Picked,
            picked: vec![project.photos[1].id.clone()],
            per_page: 1,
            comments: true,
            ..ReportOptions::default()
        };
        let preview = protocol::PreviewReport { project_id: project.id.clone(), options };
        let Ok(Response::ReportPreview { content, .. }) = owner.request(9, Request::PreviewReport(preview)).await else { panic!("preview") };
        assert!(content.changes.iter().any(|e| matches!(&e.detail, TimelineDetail::Comment { excerpt, .. } if excerpt.contains("sag normal"))));
        server.stop().await;
        db
    })
    .await;
}

async fn password_step(server: &TestServer, email: &str, password: &str) -> (StatusCode, Option<String>) {
    let r = server.post("/api/auth/login", json!({ "email": email, "password": password }), None).await;
    (r.status, r.body["secondFactor"]["ticket"].as_str().map(str::to_owned))
}

/// Finding 3: password + four wrong codes, repeated over both instances, checks no
/// more than five wrong codes before the account is locked; a completed sign-in is
/// what clears the count.
#[actix_web::test]
async fn wrong_second_factor_codes_count_per_account_until_a_sign_in_completes() {
    let spec = WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() };
    on_each_backend(spec, |a, b, world| async move {
        let on_b = b.as_ref().unwrap_or(&a);
        let email = world.users["homeowner"].email.clone();
        let mut here = open(&a, &world.users["homeowner"].session).await;
        crate::security::enrol(&mut here, 1).await;
        let (mut checked, mut refused) = (0, 0);
        'rounds: for round in 0..5 {
            let server = if round % 2 == 0 { &a } else { on_b };
            let (status, ticket) = password_step(server, &email, &world.password).await;
            if status == StatusCode::TOO_MANY_REQUESTS {
                refused += 1;
                break;
            }
            let ticket = ticket.expect("a second step");
            for attempt in 0..4 {
                let server = if attempt % 2 == 0 { on_b } else { &a };
                let r = server.post("/api/auth/login/code", json!({ "ticket": ticket, "code": "000000" }), None).await;
                match r.status {
                    StatusCode::UNAUTHORIZED => checked += 1,
                    StatusCode::TOO_MANY_REQUESTS => {
                        refused += 1;
                        break 'rounds;
                    }
                    other => panic!("a wrong code answered {other}: {}", r.body),
                }
            }
        }
        assert!(checked <= 5, "{checked} wrong codes were checked");
        assert!(refused > 0, "the account was locked");
        // Locked now for the rest of the window, right password or not.
        assert_eq!(password_step(&a, &email, &world.password).await.0, StatusCode::TOO_MANY_REQUESTS);
        (a, b)
    })
    .await;
}

/// Finding 3, behind a proxy: only the proxy's own header names the client. A
/// rotating `X-Forwarded-For` is not a new address per request (a 30-account spray is
/// stopped at the address's twenty), while `Fly-Client-IP`, which fly.io's proxy writes,
/// is believed.
#[actix_web::test]
async fn behind_a_proxy_only_its_own_client_address_header_is_believed() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[("trust-proxy", "true")]).await;
        let mut statuses = Vec::new();
        for i in 0..30 {
            let forwarded = format!("10.{}.{}.7", i / 200, i % 200);
            let r = server
                .post_with(
                    "/api/auth/login",
                    json!({ "email": format!("spray-{i}@example.com"), "password": "Summer2026!" }),
                    &[("X-Forwarded-For", forwarded.as_str())],
                )
                .await;
            statuses.push(r.status.as_u16());
        }
        assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 20, "{statuses:?}");
        assert!(statuses[20..].iter().all(|s| *s == 429), "the address is locked after twenty: {statuses:?}");

        // The proxy's header names another client: its own window.
        let r = server
            .post_with(
                "/api/auth/login",
                json!({ "email": "someone@example.com", "password": "Summer2026!" }),
                &[("Fly-Client-IP", "203.0.113.9"), ("X-Forwarded-For", "10.0.0.1")],
            )
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
        // A client's own Fly-Client-IP before the proxy's: the last one counts.
        let spoofed = server
            .post_with("/api/auth/login", json!({ "email": "x@example.com", "password": "Summer2026!" }), &[("Fly-Client-IP", "not an address")])
            .await;
        assert_eq!(spoofed.status, StatusCode::TOO_MANY_REQUESTS, "an unreadable header is the peer's address, which is locked");
        server.stop().await;
        db
    })
    .await;
}

/// Finding 4: a session that must enrol a second factor first gets 403 `enrol_required`
/// from originals, the zip, report PDFs and uploads, as from the socket; `/me` still
/// tells its page to lead it to enrolment.
#[actix_web::test]
async fn a_session_that_must_enrol_first_opens_no_http_route() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let project = &world.projects[0];
        let mut owner = open(&server, &world.users["owner"].session).await;
        let options = ReportOptions { per_page: 1, ..ReportOptions::default() };
        let (report_id, _) = shared_report(&mut owner, 1, &project.id, options).await;
        let mut admin = open(&server, &world.users["admin"].session).await;
        let settings = InstallationSettings { store_photo_locations: true, require_factor_admins: false, require_factor_company_leads: true };
        admin.request(1, Request::UpdateInstallationSettings(settings)).await.unwrap();

        let r = server.post("/api/auth/login", json!({ "email": world.users["owner"].email, "password": world.password }), None).await;
        assert_eq!(r.body["enrolRequired"], true, "{}", r.body);
        let cookie = r.session_cookie.expect("a session, to enrol with");
        let photo = &project.photos[0].id;
        for path in [
            format!("/media/images/{photo}/original"),
            format!("/media/images/{photo}/display"),
            format!("/media/projects/{}/photos.zip", project.id),
            format!("/api/reports/{report_id}/pdf"),
        ] {
            let r = server.get(&path, Some(&cookie)).await;
            assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::FORBIDDEN, Some("enrol_required")), "{path}");
        }
        let cookie_header = format!("{}={cookie}", server.cookie_name());
        let upload = server
            .post_with(
                "/api/uploads",
                json!({}),
                &[("Cookie", cookie_header.as_str()), ("Tus-Resumable", "1.0.0"), ("Upload-Length", "10")],
            )
            .await;
        assert_eq!(upload.status, StatusCode::FORBIDDEN, "{}", upload.body);
        let me = server.get("/api/auth/me", Some(&cookie)).await;
        assert_eq!((me.status, &me.body["enrolRequired"]), (StatusCode::OK, &json!(true)));
        // The same account's earlier session, made before the requirement, still works.
        assert_eq!(server.get(&format!("/media/images/{photo}/original"), Some(&world.users["owner"].session)).await.status, StatusCode::OK);
        server.stop().await;
        db
    })
    .await;
}

async fn set_owner(server: &TestServer, user_id: &str, company_id: &str) {
    TestSql::per_backend(
        "UPDATE users SET company_id = $1, company_role = 'owner' WHERE id = $2",
        "UPDATE users SET company_id = $1::uuid, company_role = 'owner' WHERE id = $2::uuid",
    )
    .bind(company_id)
    .bind(user_id)
    .execute(&server.state.svc.store)
    .await
    .unwrap();
}

async fn owners(server: &TestServer, company_id: &str) -> i64 {
    TestSql::per_backend(
        "SELECT COUNT(*) FROM users WHERE company_id = $1 AND company_role = 'owner'",
        "SELECT COUNT(*) FROM users WHERE company_id = $1::uuid AND company_role = 'owner'",
    )
    .bind(company_id)
    .scalar(&server.state.svc.store)
    .await
    .unwrap()
}

/// Finding 5: two admins demoting, or removing, a company's two owners at the same
/// moment (on two instances): one wins, the other is told the company needs an owner,
/// and the company always keeps one. Raced many times.
#[actix_web::test]
async fn a_company_keeps_an_owner_however_demotions_and_removals_race() {
    let spec = WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() };
    on_each_backend(spec, |a, b, world| async move {
        let on_b = b.as_ref().unwrap_or(&a);
        let company = world.company.id.clone();
        let (first, second) = (world.users["owner"].id.clone(), world.users["manager"].id.clone());
        let (mut admin_a, mut admin_b) = (open(&a, &world.users["admin"].session).await, open(on_b, &world.users["admin"].session).await);
        for round in 0..8u32 {
            set_owner(&a, &first, &company).await;
            set_owner(&a, &second, &company).await;
            let (one, two) = if round % 2 == 0 {
                let demote = |id: &str| Request::UpdateMember(protocol::UpdateMember { id: id.to_owned(), company_role: Some(CompanyRole::Manager), all_projects: None });
                (demote(&first), demote(&second))
            } else {
                let remove = |id: &str| Request::RemoveMember(protocol::RemoveMember { id: id.to_owned() });
                (remove(&first), remove(&second))
            };
            let (ra, rb) = futures_util::join!(admin_a.request(10 + round, one), admin_b.request(10 + round, two));
            let refused: Vec<_> = [&ra, &rb].into_iter().filter_map(|r| r.as_ref().err()).collect();
            assert_eq!(refused.len(), 1, "round {round}: exactly one is refused: {ra:?} / {rb:?}");
            assert_eq!((refused[0].code, refused[0].message.as_str()), (ErrorCode::Conflict, sitecast::domain::companies::NEEDS_AN_OWNER));
            assert_eq!(owners(&a, &company).await, 1, "round {round}: one owner left");
        }
        (a, b)
    })
    .await;
}

fn p256dh() -> String {
    URL_SAFE_NO_PAD.encode(ES256KeyPair::generate().public_key().public_key().to_bytes_uncompressed())
}

fn subscription(endpoint: &str, p256dh: &str, auth: &str) -> Request {
    Request::SubscribePush(protocol::SubscribePush { endpoint: endpoint.to_owned(), p256dh: p256dh.to_owned(), auth: auth.to_owned() })
}

/// Finding 6: one browser session holds one subscription (a new one replaces it), an
/// account at most ten, also when they race on two instances; keys are exactly what
/// RFC 8291 says (padding as base64url has it, nothing more).
#[actix_web::test]
async fn push_subscriptions_are_capped_and_their_keys_exact() {
    let spec = WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() };
    on_each_backend(spec, |a, b, world| async move {
        let on_b = b.as_ref().unwrap_or(&a);
        let auth = URL_SAFE_NO_PAD.encode([9u8; 16]);
        let endpoint = |i: usize| format!("https://fcm.googleapis.com/fcm/send/{}-{i}", world.tag);
        let mut ws = open(&a, &world.users["homeowner"].session).await;
        for i in 0..25 {
            let r = ws.request(1 + i as u32, subscription(&endpoint(i), &p256dh(), &auth)).await;
            let Ok(Response::PushSettings { settings }) = r else { panic!("subscribe {i}: {r:?}") };
            assert_eq!(settings.devices.len(), 1, "a session's new subscription replaces its old one");
        }
        // Keys: padded as base64url pads is fine; 50,000 `=` or a short key is not.
        let padded = format!("{}=", p256dh());
        assert!(ws.request(40, subscription(&endpoint(100), &padded, &format!("{auth}=="))).await.is_ok());
        for (key, secret) in [
            (format!("{}{}", p256dh(), "=".repeat(50_000)), auth.clone()),
            (p256dh(), format!("{auth}{}", "=".repeat(100))),
            (p256dh()[..80].to_owned(), auth.clone()),
            (p256dh(), URL_SAFE_NO_PAD.encode([9u8; 17])),
        ] {
            let err = ws.request(41, subscription(&endpoint(101), &key, &secret)).await.unwrap_err();
            assert_eq!((err.code, err.message.as_str()), (ErrorCode::Validation, sitecast::domain::messaging::push::BAD_SUBSCRIPTION));
        }

        // Ten more sessions of the account, racing over both instances: ten devices in all.
        let mut sockets = Vec::new();
        for i in 0..11 {
            let cookie = a.login(&world.users["homeowner"].email, &world.password).await;
            sockets.push(open(if i % 2 == 0 { &a } else { on_b }, &cookie).await);
        }
        let tries = sockets.iter_mut().enumerate().map(|(i, ws)| {
            let (endpoint, key, auth) = (endpoint(200 + i), p256dh(), auth.clone());
            async move { ws.request(1, subscription(&endpoint, &key, &auth)).await }
        });
        let results = futures_util::future::join_all(tries).await;
        let refused: Vec<_> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(refused.len(), 2, "{} of 11 were refused; the first session holds one device already", refused.len());
        assert!(refused.iter().all(|e| e.code == ErrorCode::Conflict && e.message == sitecast::domain::messaging::push::TOO_MANY_DEVICES));
        let Ok(Response::PushSettings { settings }) = ws.request(60, Request::GetPushSettings(protocol::GetPushSettings { endpoint: None })).await else {
            panic!("settings")
        };
        assert_eq!(settings.devices.len(), sitecast::domain::messaging::push::MAX_DEVICES);
        (a, b)
    })
    .await;
}

/// Finding 8: a label holding U+FFFF or U+FFFE is refused when saved; one stored before
/// that rule (written here straight to the table) is drawn without it, for the
/// marked-up download and the zip alike.
#[actix_web::test]
async fn text_that_xml_cannot_hold_is_refused_and_stored_text_still_draws() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let image = world.projects[0].photos[0].id.clone();
        let mut ws = open(&server, &world.users["owner"].session).await;
        for bad in ["Crack \u{FFFF} here", "Crack \u{FFFE} here", "Crack \u{FDD0} here"] {
            let label = crate::markup::shape("l", protocol::MarkupColor::Red, protocol::Geometry::Text { at: protocol::Point { x: 0.5, y: 0.5 }, text: bad.into() });
            let err = crate::markup::save(&mut ws, 1, &image, 0, vec![label]).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::Validation, "{bad:?}");
            assert_eq!(err.fields[0].message, "Label cannot contain control characters.");
        }
        let label = crate::markup::shape("l", protocol::MarkupColor::Red, protocol::Geometry::Text { at: protocol::Point { x: 0.5, y: 0.5 }, text: "PLACEHOLDER".into() });
        crate::markup::save(&mut ws, 2, &image, 0, vec![label]).await.unwrap();
        TestSql::per_backend(
            "UPDATE photo_markups SET shapes = replace(shapes, 'PLACEHOLDER', 'a' || char(65535) || char(65534) || 'b') WHERE image_id = $1",
            "UPDATE photo_markups SET shapes = replace(shapes::text, 'PLACEHOLDER', 'a' || chr(65535) || chr(65534) || 'b')::jsonb WHERE image_id = $1::uuid",
        )
        .bind(image.as_str())
        .execute(&server.state.svc.store)
        .await
        .unwrap();
        let session = world.users["homeowner"].session.clone();
        let marked = server.get(&format!("/media/images/{image}/marked"), Some(&session)).await;
        assert_eq!(marked.status, StatusCode::OK, "{}", marked.body);
        assert!(image::load_from_memory(&marked.bytes).is_ok(), "a JPEG");
        let zip = server.get(&format!("/media/projects/{}/photos.zip?markup=true", world.projects[0].id), Some(&session)).await;
        assert_eq!(zip.status, StatusCode::OK);
        let entries = crate::photos::zip_entries(zip.bytes).await;
        assert_eq!(entries.len(), 1, "the marked-up photo is in the zip");
        assert!(image::load_from_memory(&entries[0].1).is_ok(), "drawn");
        server.stop().await;
        db
    })
    .await;
}

/// Makes the session's proof of a second factor older than the 15-minute window.
async fn stale_factor(server: &TestServer, session_cookie: &str) {
    let hash = sitecast::domain::shared::secrets::hash_token(session_cookie);
    TestSql::per_backend(
        "UPDATE sessions SET factor_at = 1 WHERE token_hash = $1",
        "UPDATE sessions SET factor_at = TIMESTAMPTZ 'epoch' + INTERVAL '1 millisecond' WHERE token_hash = $1",
    )
    .bind(hash.as_str())
    .execute(&server.state.svc.store)
    .await
    .unwrap();
}

/// Finding 10: an administrator with a second factor proved long ago is asked to
/// confirm it's them before making an administrator, changing the installation's
/// sign-in rules, making or changing a company's owners, or removing a member — and
/// not for inviting a homeowner.
#[actix_web::test]
async fn every_action_that_grants_or_takes_away_power_asks_for_a_fresh_factor() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let admin_session = world.users["admin"].session.clone();
        let mut admin = open(&server, &admin_session).await;
        crate::security::enrol(&mut admin, 1).await;
        stale_factor(&server, &admin_session).await;
        let new_user = |role: protocol::Role, email: String| {
            Request::CreateUser(protocol::CreateUser {
                role,
                email,
                first_name: "Ada".into(),
                last_name: "Stone".into(),
                name: String::new(),
                phone: "555-0100".into(),
                builder_id: None,
            })
        };
        let asks = [
            new_user(protocol::Role::Admin, format!("admin-{}@example.com", world.tag)),
            Request::UpdateInstallationSettings(InstallationSettings {
                store_photo_locations: true,
                require_factor_admins: false,
                require_factor_company_leads: false,
            }),
            Request::InviteMember(protocol::InviteMember {
                company_id: world.company.id.clone(),
                email: format!("owner-{}@example.com", world.tag),
                name: "Olive Owner".into(),
                phone: String::new(),
                company_role: CompanyRole::Owner,
                all_projects: false,
            }),
            Request::UpdateMember(protocol::UpdateMember { id: world.users["crew"].id.clone(), company_role: Some(CompanyRole::Manager), all_projects: None }),
            Request::RemoveMember(protocol::RemoveMember { id: world.users["crew"].id.clone() }),
        ];
        for (i, request) in asks.into_iter().enumerate() {
            let what = format!("{request:?}");
            let err = admin.request(10 + i as u32, request).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::FactorRequired, "{what}");
        }
        let homeowner = admin.request(20, new_user(protocol::Role::Homeowner, format!("home-{}@example.com", world.tag))).await;
        assert!(homeowner.is_ok(), "inviting a homeowner grants no power: {homeowner:?}");
        server.stop().await;
        db
    })
    .await;
}

/// Finding 11: a manager's crew invitation cannot let crew see every project; an
/// owner's can.
#[actix_web::test]
async fn only_an_owner_lets_invited_crew_see_every_project() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let invite = |email: String| {
            Request::InviteMember(protocol::InviteMember {
                company_id: world.company.id.clone(),
                email,
                name: "Carl Crew".into(),
                phone: String::new(),
                company_role: CompanyRole::Crew,
                all_projects: true,
            })
        };
        let mut manager = open(&server, &world.users["manager"].session).await;
        let err = manager.request(1, invite(format!("crew-a-{}@example.com", world.tag))).await.unwrap_err();
        assert_eq!((err.fields[0].field.as_str(), err.fields[0].message.as_str()), ("allProjects", sitecast::domain::companies::ALL_PROJECTS_OWNERS_ONLY));
        let mut owner = open(&server, &world.users["owner"].session).await;
        let Ok(Response::Company { company }) = owner.request(1, invite(format!("crew-b-{}@example.com", world.tag))).await else {
            panic!("the owner invites")
        };
        assert!(company.members.iter().any(|m| m.email == format!("crew-b-{}@example.com", world.tag) && m.all_projects));
        server.stop().await;
        db
    })
    .await;
}

/// Finding 11: a report made without markup shows its cover photo without markup to
/// its link's guest too (as `get_markup` refuses them).
#[actix_web::test]
async fn a_report_link_shows_no_markup_its_report_leaves_out() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 2, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let project = &world.projects[0];
        let cover = project.photos.last().unwrap().id.clone();
        let mut owner = open(&server, &world.users["owner"].session).await;
        let rect = crate::markup::shape(
            "r",
            protocol::MarkupColor::Red,
            protocol::Geometry::Rect { from: protocol::Point { x: 0.1, y: 0.1 }, to: protocol::Point { x: 0.9, y: 0.9 } },
        );
        crate::markup::save(&mut owner, 1, &cover, 0, vec![rect]).await.unwrap();
        let options = ReportOptions { per_page: 1, markup: false, ..ReportOptions::default() };
        let (_, token) = shared_report(&mut owner, 2, &project.id, options).await;
        let red = |bytes: &[u8]| {
            let img = image::load_from_memory(bytes).expect("a JPEG").to_rgb8();
            img.pixels().filter(|p| p[0] > 180 && p[1] < 90 && p[2] < 90).count()
        };
        let owners = server.get(&format!("/media/images/{cover}/marked"), Some(&world.users["owner"].session)).await;
        assert!(red(&owners.bytes) > 0, "the owner sees the markup");
        let guests = server.guest_get(&format!("/media/images/{cover}/marked"), &token).await;
        assert_eq!(guests.status, StatusCode::OK);
        assert_eq!(red(&guests.bytes), 0, "the report link's guest does not");
        server.stop().await;
        db
    })
    .await;
}

/// Finding 11: two different recovery codes sent with one ticket to both instances at
/// once: one signs in, and the other code is not used up.
#[actix_web::test]
async fn racing_recovery_codes_use_up_only_the_one_that_signed_in() {
    let spec = WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() };
    on_each_backend(spec, |a, b, world| async move {
        let on_b = b.as_ref().unwrap_or(&a);
        let email = world.users["homeowner"].email.clone();
        let mut here = open(&a, &world.users["homeowner"].session).await;
        let (_, codes) = crate::security::enrol(&mut here, 1).await;
        for round in 0..3 {
            let (first, second) = (&codes[2 * round], &codes[2 * round + 1]);
            let ticket = password_step(&a, &email, &world.password).await.1.expect("a ticket");
            let (ra, rb) = futures_util::join!(
                a.post("/api/auth/login/code", json!({ "ticket": ticket, "code": first }), None),
                on_b.post("/api/auth/login/code", json!({ "ticket": ticket, "code": second }), None),
            );
            let won = [ra.status.as_u16(), rb.status.as_u16()];
            assert_eq!(won.iter().filter(|s| **s == 200).count(), 1, "round {round}: {won:?}");
            let loser = if ra.status == StatusCode::OK { second } else { first };
            let ticket = password_step(&a, &email, &world.password).await.1.expect("a ticket");
            let r = on_b.post("/api/auth/login/code", json!({ "ticket": ticket, "code": loser }), None).await;
            assert_eq!(r.status, StatusCode::OK, "round {round}: the losing code still works: {}", r.body);
        }
        (a, b)
    })
    .await;
}

/// Finding 11: bytes routes tell nothing of what a viewer may not see: the zip of
/// another company's project answers as an unknown id does, and a ready report whose
/// file is gone answers 404, as photo bytes do.
#[actix_web::test]
async fn bytes_routes_answer_not_found_alike_and_a_missing_pdf_is_not_a_500() {
    for_each_backend(|db: TestDb| async move {
        let server = start(&db.url, &[]).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, stranger_project: true, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let session = world.users["homeowner"].session.clone();
        let stranger = world.stranger_project.as_ref().expect("another company's project");
        let theirs = server.get(&format!("/media/projects/{}/photos.zip", stranger.id), Some(&session)).await;
        let unknown = server.get(&format!("/media/projects/{}/photos.zip", uuid::Uuid::new_v4()), Some(&session)).await;
        assert_eq!((theirs.status, &theirs.body), (unknown.status, &unknown.body));
        assert_eq!(theirs.status, StatusCode::NOT_FOUND);

        let mut owner = open(&server, &world.users["owner"].session).await;
        let options = ReportOptions { per_page: 1, ..ReportOptions::default() };
        let (report_id, _) = shared_report(&mut owner, 1, &world.projects[0].id, options).await;
        let key: String = TestSql::per_backend("SELECT storage_key FROM reports WHERE id = $1", "SELECT storage_key FROM reports WHERE id = $1::uuid")
            .bind(report_id.as_str())
            .scalar(&server.state.svc.store)
            .await
            .unwrap();
        std::fs::remove_file(server.dir.path().join("photos").join(&key)).expect("the PDF's file");
        let r = server.get(&format!("/api/reports/{report_id}/pdf"), Some(&world.users["owner"].session)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
        server.stop().await;
        db
    })
    .await;
}

/// Finding 7: a push service answering 307 is not followed (the sender's client is
/// the only way pushes go out; which hosts and ports it may reach is `PushServices`'
/// unit test).
#[actix_web::test]
async fn the_push_client_follows_no_redirect() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let target = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let redirector = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let to = format!("http://{}/elsewhere", target.local_addr().unwrap());
    let from = format!("http://{}/push", redirector.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut conn, _) = redirector.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let _ = conn.read(&mut buf).await;
        let answer = format!("HTTP/1.1 307 Temporary Redirect\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        conn.write_all(answer.as_bytes()).await.unwrap();
    });
    let client = sitecast::mail::push::client().unwrap();
    let r = client.post(from).body("x").send().await.expect("an answer");
    assert_eq!(r.status().as_u16(), 307, "the redirect is the answer");
    let followed = tokio::time::timeout(Duration::from_millis(500), target.accept()).await;
    assert!(followed.is_err(), "the redirect's target was never contacted");
}
