//! The /ws endpoint: who may connect, the Hello snapshot, bad frames, heartbeats, and
//! sessions that end while a socket is open.

use std::time::Duration;

use awc::http::StatusCode;
use protocol::{
    AddMilestone, ClientMsg, SetMilestoneDone, UpdateMilestone, CreateProject, CreateUser, ErrorCode, Event, LogEntry, MailPreferences, PasswordChange, ProfileUpdate, ProjectStatus, Request,
    Response, Role, ServerMsg, UpdatePhoto, UpdateProject, UpdateUser, PROTOCOL_VERSION,
};
use serde_json::json;

use crate::support::{for_each_backend, Options, TestServer, WorldSpec, ORIGIN};

/// People and no projects: what the tests of the socket itself need.
fn people() -> WorldSpec {
    WorldSpec { projects: 0, photos: 0, homeowners: 1, ..WorldSpec::default() }
}

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}/t.db", dir.path().display())
}

#[actix_web::test]
async fn upgrade_needs_a_session_and_an_allowed_origin() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options::default()).await;
    let world = server.world(people()).await;
    assert_eq!(server.ws(None, Some(ORIGIN)).await.err().map(|e| e.0), Some(StatusCode::UNAUTHORIZED));
    assert_eq!(server.ws(Some("forged-token"), Some(ORIGIN)).await.err().map(|e| e.0), Some(StatusCode::UNAUTHORIZED));
    let cookie = server.login(&world.users["admin"].email, &world.password).await;
    assert_eq!(
        server.ws(Some(&cookie), Some("https://evil.example")).await.err().map(|e| e.0),
        Some(StatusCode::FORBIDDEN)
    );
    assert!(server.ws(Some(&cookie), Some(ORIGIN)).await.is_ok());
    server.stop().await;
}

#[actix_web::test]
async fn hello_carries_the_user_and_only_the_projects_they_may_see() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        // Two projects of the company, each with its own homeowner, and another
        // company's that only the admin may see.
        let world = server.world(WorldSpec { projects: 2, photos: 1, homeowners: 2, stranger_project: true, ..WorldSpec::default() }).await;
        let mut seen = Vec::new();
        for (key, role) in [("admin", Role::Admin), ("owner", Role::Builder), ("homeowner", Role::Homeowner)] {
            let email = world.users[key].email.as_str();
            let cookie = server.login(email, &world.password).await;
            let mut ws = server.ws(Some(&cookie), Some(ORIGIN)).await.unwrap();
            let ServerMsg::Hello(hello) = ws.next_msg().await else { panic!("first frame must be Hello") };
            assert_eq!(hello.protocol_version, PROTOCOL_VERSION);
            assert_eq!((hello.user.email.as_str(), hello.user.role), (email, role));
            let projects = hello.snapshot.projects;
            assert!(!projects.is_empty(), "{email} sees projects");
            assert!(projects.windows(2).all(|w| w[0].updated_at >= w[1].updated_at), "newest first");
            match role {
                Role::Homeowner => assert!(projects.iter().all(|p| p.homeowner_id == hello.user.id)),
                // The projects of the builder's company.
                Role::Builder => assert!(projects.iter().all(|p| p.builder_id.is_some() && p.builder_id == hello.user.company_id)),
                Role::Admin => {}
            }
            seen.push(projects.len());
        }
        assert!(seen[0] > seen[1] && seen[1] > seen[2], "admin sees all, builder theirs, homeowner theirs: {seen:?}");
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn requests_are_answered_and_bad_frames_get_errors_without_killing_the_socket() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options::default()).await;
    let world = server.world(people()).await;
    let cookie = &world.users["homeowner"].session;
    let mut ws = server.ws(Some(cookie), Some(ORIGIN)).await.unwrap();
    assert!(matches!(ws.next_msg().await, ServerMsg::Hello(_)));

    ws.send(&ClientMsg { id: 1, request: Request::Ping(protocol::Ping {}) }).await;
    assert_eq!(ws.next_msg().await, ServerMsg::Reply { id: 1, response: Response::Pong });

    // Garbage bytes: an error with no id.
    ws.send_bytes(vec![0xc1, 0x00, 0xff]).await;
    match ws.next_msg().await {
        ServerMsg::Error { id: None, error } => assert_eq!(error.code, ErrorCode::BadRequest),
        other => panic!("expected an error, got {other:?}"),
    }
    // A well-formed envelope with an unknown request: the error names the request id.
    let bogus = rmp_serde::to_vec_named(&json!({"id": 7, "request": {"type": "drop_tables"}})).unwrap();
    ws.send_bytes(bogus).await;
    match ws.next_msg().await {
        ServerMsg::Error { id: Some(7), error } => {
            assert_eq!(error.code, ErrorCode::BadRequest);
            assert!(error.message.starts_with("Malformed message"), "{}", error.message);
        }
        other => panic!("expected an error for id 7, got {other:?}"),
    }
    // Deeply nested frame: refused, not recursed into.
    let mut deep = vec![0x91u8; 10_000];
    deep.push(0xc0);
    ws.send_bytes(deep).await;
    assert!(matches!(ws.next_msg().await, ServerMsg::Error { .. }));
    // Text frames are not our protocol.
    {
        use futures_util::SinkExt;
        ws.framed.send(awc::ws::Message::Text("hello".into())).await.unwrap();
    }
    assert!(matches!(ws.next_msg().await, ServerMsg::Error { id: None, .. }));

    // Still alive after all that.
    ws.send(&ClientMsg { id: 2, request: Request::Ping(protocol::Ping {}) }).await;
    assert_eq!(ws.next_msg().await, ServerMsg::Reply { id: 2, response: Response::Pong });

    // An oversize frame closes the socket with 1009 (message too big).
    ws.send_bytes(vec![0u8; protocol::MAX_FRAME_BYTES + 1]).await;
    assert_eq!(ws.close_code().await, Some(1009));
    server.stop().await;
}

/// The server answers every request type with the reply `protocol::REPLIES` pairs with
/// it (the web client's `request()` is typed by that list and rejects anything else).
#[actix_web::test]
async fn every_request_type_is_answered_with_its_declared_reply() {
    for_each_backend(|db| async move {
        // Reached as localhost, where passkeys can be made.
        let server = TestServer::start(&db.url, crate::security::passkey_server()).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, comments: false, ..WorldSpec::default() }).await;
        let admin = &world.users["admin"];
        let (mut ws, _) = server.connect_as(&admin.session).await;
        let mut asked = std::collections::BTreeSet::new();
        let mut id = 0;
        let mut ask = async |request: Request| -> Response {
            id += 1;
            let response = ws.request(id, request.clone()).await.unwrap_or_else(|e| panic!("{request:?} failed: {e}"));
            assert!(
                protocol::answers(&request, &response),
                "{request:?} must be answered by {}, got {response:?}",
                request.reply_name()
            );
            asked.insert(wire_type(&request));
            response
        };

        ask(Request::Ping(protocol::Ping {})).await;
        ask(Request::ListUsers(protocol::ListUsers::first(Role::Homeowner))).await;
        let Response::User { user } = ask(Request::CreateUser(CreateUser {
            role: Role::Homeowner,
            email: "pairing@example.com".into(),
            first_name: "Pat".into(),
            last_name: "Pairing".into(),
            name: String::new(),
            phone: "555-0100".into(),
            builder_id: None,
        }))
        .await
        else {
            unreachable!()
        };
        ask(Request::UpdateUser(UpdateUser { id: user.id.clone(), phone: Some("555-0101".into()), ..Default::default() })).await;
        ask(Request::ListProjects(protocol::ListProjects::first())).await;
        let Response::Project { project } = ask(Request::CreateProject(CreateProject {
            title: "Pairing House".into(),
            description: String::new(),
            address: "1 Pair Lane".into(),
            homeowner_id: user.id.clone(),
            builder_id: None,
            status: ProjectStatus::Planning,
            progress: 0,
            progress_mode: None,
            milestones: None,
        }))
        .await
        else {
            unreachable!()
        };
        ask(Request::GetProject(protocol::GetProject { id: project.id.clone() })).await;
        ask(Request::UpdateProject(UpdateProject { id: project.id.clone(), progress: Some(10), ..Default::default() })).await;
        ask(Request::Subscribe(protocol::Subscribe { id: project.id.clone() })).await;
        ask(Request::Unsubscribe(protocol::Unsubscribe { id: project.id.clone() })).await;
        // The project's milestones and its timeline.
        let add = AddMilestone { project_id: project.id.clone(), name: "Framing".into(), target_date: Some("2026-06-01".into()) };
        let Response::Milestones { plan } = ask(Request::AddMilestone(add)).await else { unreachable!() };
        let milestone = plan.milestones[0].id.clone();
        ask(Request::ListMilestones(protocol::ListMilestones { project_id: project.id.clone() })).await;
        ask(Request::AddMilestoneTemplate(protocol::AddMilestoneTemplate { project_id: project.id.clone() })).await;
        ask(Request::UpdateMilestone(UpdateMilestone { id: milestone.clone(), name: Some("Wall framing".into()), target_date: None })).await;
        ask(Request::SetMilestoneDone(SetMilestoneDone { id: milestone.clone(), done: true, done_date: None })).await;
        ask(Request::MoveMilestone(protocol::MoveMilestone { id: milestone.clone(), position: 3 })).await;
        ask(Request::ListTimeline(protocol::ListTimeline { project_id: project.id.clone(), before: None })).await;
        ask(Request::DeleteMilestone(protocol::DeleteMilestone { id: milestone })).await;
        // The world's photo for the photo requests.
        let Response::Photos { photos, .. } = ask(Request::ListPhotos(protocol::ListPhotos::first(world.projects[0].id.clone()))).await else { unreachable!() };
        let photo = photos.into_iter().next().expect("the world's project has a photo");
        ask(Request::UpdatePhoto(UpdatePhoto { id: photo.id.clone(), caption: Some("Paired".into()), ..Default::default() })).await;
        ask(Request::SetFavourite(protocol::SetFavourite { image_id: photo.id.clone(), favourite: true })).await;
        ask(Request::ListComments(protocol::ListComments { image_id: photo.id.clone() })).await;
        let Response::Comment { comment } = ask(Request::AddComment(protocol::AddComment { image_id: photo.id.clone(), body: "Paired".into() })).await else {
            unreachable!()
        };
        ask(Request::EditComment(protocol::EditComment { id: comment.id.clone(), body: "Paired again".into() })).await;
        ask(Request::DeleteComment(protocol::DeleteComment { id: comment.id.clone() })).await;
        // Markup.
        ask(Request::GetMarkup(protocol::GetMarkup { image_id: photo.id.clone() })).await;
        let pin = protocol::Shape {
            id: "pin-1".into(),
            color: protocol::MarkupColor::Orange,
            width: protocol::StrokeWidth::Medium,
            geometry: protocol::Geometry::Pin { at: protocol::Point { x: 0.5, y: 0.5 }, note: "Paired".into() },
            author_id: String::new(),
        };
        ask(Request::SaveMarkup(protocol::SaveMarkup { image_id: photo.id.clone(), base_version: 0, shapes: vec![pin] })).await;
        // Tags, search and the installation's settings.
        ask(Request::ListTags(protocol::ListTags { project_id: photo.project_id.clone() })).await;
        let tag = protocol::TagPhotos {
            project_id: photo.project_id.clone(),
            image_ids: vec![photo.id.clone()],
            add_tags: vec!["Kitchen".into()],
            remove_tags: vec![],
        };
        ask(Request::TagPhotos(tag)).await;
        // A photo sent ahead of publishing, then published.
        let tus = crate::uploads::Tus::new(&server, &admin.session).await;
        let bytes = crate::uploads::photo(40, 30);
        let held = tus.create(bytes.len(), &[("projectId", &photo.project_id), ("filename", "ahead.jpg"), ("held", "1")]).await;
        let location = held.header("location").expect("an upload");
        assert_eq!(tus.patch(&location, 0, &bytes).await.header("sitecast-held").as_deref(), Some("1"));
        ask(Request::PublishUploads(protocol::PublishUploads {
            project_id: photo.project_id.clone(),
            batch_id: uuid::Uuid::new_v4().to_string(),
            note: None,
            milestone_id: None,
            tags: vec![],
            files: vec![protocol::PublishedFile { upload_id: location.rsplit('/').next().unwrap().to_owned(), caption: None, category: None }],
        }))
        .await;
        ask(Request::Search(protocol::Search { query: "kitch".into(), project_id: None, watch: true })).await;
        ask(Request::EndSearch(protocol::EndSearch {})).await;
        // Progress reports (made of the photo's project, shared and mailed once
        // ready, then deleted).
        let options = protocol::ReportOptions { per_page: 4, ..Default::default() };
        ask(Request::PreviewReport(protocol::PreviewReport { project_id: photo.project_id.clone(), options: options.clone() })).await;
        let Response::Report { report } = ask(Request::MakeReport(protocol::MakeReport { project_id: photo.project_id.clone(), options })).await
        else {
            unreachable!()
        };
        // Shared and mailed once it is ready.
        for _ in 0..600 {
            let Response::Reports { reports, .. } = ask(Request::ListReports(protocol::ListReports { project_id: photo.project_id.clone() })).await
            else {
                unreachable!()
            };
            if reports.iter().any(|r| r.id == report.id && r.status == protocol::ReportStatus::Ready) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        ask(Request::ShareReport(protocol::ShareReport { report_id: report.id.clone(), expires_in_days: Some(1) })).await;
        ask(Request::MailReport(protocol::MailReport { id: report.id.clone() })).await;
        ask(Request::DeleteReport(protocol::DeleteReport { id: report.id })).await;
        ask(Request::GetInstallationSettings(protocol::GetInstallationSettings {})).await;
        ask(Request::UpdateInstallationSettings(protocol::InstallationSettings {
            store_photo_locations: true,
            require_factor_admins: false,
            require_factor_company_leads: false,
        })).await;
        // A notification of the admin's own: the homeowner mentions them.
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let body = format!("@{} could you look at this?", admin.name);
        let image_id = world.projects[0].photos[0].id.clone();
        home.request(1, Request::AddComment(protocol::AddComment { image_id, body })).await.unwrap();
        let Response::Notifications { notifications, .. } = ask(Request::ListNotifications(protocol::ListNotifications { before: None })).await else { unreachable!() };
        let notice = notifications.first().expect("the mention notified the admin");
        ask(Request::MarkNotificationRead(protocol::MarkNotificationRead { id: notice.id.clone() })).await;
        ask(Request::MarkAllNotificationsRead(protocol::MarkAllNotificationsRead {})).await;
        let Response::MailPreferences { preferences } = ask(Request::GetMailPreferences(protocol::GetMailPreferences {})).await else { unreachable!() };
        ask(Request::UpdateMailPreferences(MailPreferences { status_changes: !preferences.status_changes, ..preferences })).await;
        // Guest links.
        let share = protocol::CreateGuestLink {
            project_id: project.id.clone(),
            photos: protocol::GuestPhotos::All,
            downloads: false,
            expires_in_days: Some(7),
        };
        let Response::GuestLinkCreated { link, .. } = ask(Request::CreateGuestLink(share)).await else { unreachable!() };
        ask(Request::ListGuestLinks(protocol::ListGuestLinks { project_id: project.id.clone() })).await;
        ask(Request::RevokeGuestLink(protocol::RevokeGuestLink { id: link.id })).await;
        // Companies, their members and a project's crew.
        ask(Request::ListCompanies(protocol::ListCompanies {})).await;
        let Response::Company { company } = ask(Request::CreateCompany(protocol::CreateCompany { name: "Pairing Builders".into() })).await
        else {
            unreachable!()
        };
        ask(Request::UpdateCompany(protocol::UpdateCompany { id: company.id.clone(), name: "Paired Builders".into() })).await;
        let invite = protocol::InviteMember {
            company_id: company.id.clone(),
            email: "paired.crew@example.com".into(),
            name: "Pat Crew".into(),
            phone: String::new(),
            company_role: protocol::CompanyRole::Crew,
            all_projects: false,
        };
        let Response::Company { company } = ask(Request::InviteMember(invite)).await else { unreachable!() };
        let member = company.members[0].id.clone();
        let moved = UpdateProject { id: project.id.clone(), builder_id: Some(company.id.clone()), ..Default::default() };
        ask(Request::UpdateProject(moved)).await;
        ask(Request::SetProjectCrew(protocol::SetProjectCrew { project_id: project.id.clone(), user_ids: vec![member.clone()] })).await;
        ask(Request::UpdateMember(protocol::UpdateMember { id: member.clone(), company_role: None, all_projects: Some(true) })).await;
        ask(Request::RemoveMember(protocol::RemoveMember { id: member })).await;
        ask(Request::CompanyDeletionImpact(protocol::CompanyDeletionImpact { id: company.id.clone() })).await;
        ask(Request::DeletePhoto(protocol::DeletePhoto { id: photo.id.clone() })).await;
        ask(Request::DeleteProject(protocol::DeleteProject { id: project.id.clone() })).await;
        ask(Request::DeleteCompany(protocol::DeleteCompany { id: company.id.clone() })).await;
        ask(Request::UserDeletionImpact(protocol::UserDeletionImpact { id: user.id.clone() })).await;
        ask(Request::DeleteUser(protocol::DeleteUser { id: user.id.clone() })).await;
        ask(Request::UpdateProfile(ProfileUpdate { first_name: "Avery".into(), last_name: "Admin".into(), ..ProfileUpdate::default() })).await;
        ask(Request::Log(LogEntry { level: "info".into(), message: "pairing test".into(), data: None })).await;
        ask(Request::ChangePassword(PasswordChange {
            current_password: world.password.clone(),
            new_password: "sitecast-paired".into(),
            confirm_password: "sitecast-paired".into(),
        }))
        .await;

        // Account security, in the order a person takes them: a passkey first (no factor to
        // prove yet), then the app, fresh factors, and taking them off again.
        let Response::Security { security } = ask(Request::GetSecurity(protocol::GetSecurity {})).await else { unreachable!() };
        assert!(security.passkeys.is_empty());
        let mut key = webauthn_authenticator_rs::softpasskey::SoftPasskey::new(true);
        let Response::PasskeyChallenge { challenge_id, options } = ask(Request::StartPasskey(protocol::StartPasskey {})).await else {
            unreachable!()
        };
        let credential = crate::security::register_with(&mut key, &options);
        let add = protocol::AddPasskey { challenge_id, name: "Desk key".into(), credential };
        let Response::Security { security } = ask(Request::AddPasskey(add)).await else { unreachable!() };
        let passkey = security.passkeys[0].id.clone();
        ask(Request::RenamePasskey(protocol::RenamePasskey { id: passkey.clone(), name: "Office key".into() })).await;
        let Response::TotpEnrolment { enrolment } = ask(Request::StartTotp(protocol::StartTotp {})).await else { unreachable!() };
        ask(Request::ConfirmTotp(protocol::ConfirmTotp { code: crate::security::code(&enrolment.secret, 0) })).await;
        ask(Request::NewRecoveryCodes(protocol::NewRecoveryCodes {})).await;
        ask(Request::VerifyFactor(protocol::VerifyFactor { code: crate::security::code(&enrolment.secret, 1) })).await;
        let Response::PasskeyChallenge { challenge_id, options } = ask(Request::StartFactorPasskey(protocol::StartFactorPasskey {})).await
        else {
            unreachable!()
        };
        let credential = crate::security::assert_with(&mut key, &options);
        ask(Request::VerifyFactorPasskey(protocol::VerifyFactorPasskey { challenge_id, credential })).await;
        ask(Request::RemoveTotp(protocol::RemoveTotp { password: "sitecast-paired".into() })).await;
        ask(Request::RemovePasskey(protocol::RemovePasskey { id: passkey, password: String::new() })).await;
        server.login(&admin.email, "sitecast-paired").await;
        let Response::Security { security } = ask(Request::GetSecurity(protocol::GetSecurity {})).await else { unreachable!() };
        let other = security.devices.iter().find(|d| !d.current).expect("the other session").id.clone();
        ask(Request::EndSession(protocol::EndSession { id: other })).await;
        ask(Request::EndOtherSessions(protocol::EndOtherSessions {})).await;
        let Response::UserPage { listings, .. } = ask(Request::ListUsers(protocol::ListUsers::first(Role::Homeowner))).await else { unreachable!() };
        let someone = listings.first().expect("a homeowner").user.id.clone();
        ask(Request::ResetFactors(protocol::ResetFactors { user_id: someone })).await;

        // Push notifications on this device, off on another, off here.
        let Response::PushSettings { settings } = ask(Request::GetPushSettings(protocol::GetPushSettings { endpoint: None })).await else {
            unreachable!()
        };
        assert!(settings.devices.is_empty());
        let browser_key = sitecast::domain::messaging::push::public_key(&web_push_native::jwt_simple::algorithms::ES256KeyPair::generate());
        let endpoint = "https://fcm.googleapis.com/fcm/send/paired-test";
        let subscription = protocol::SubscribePush { endpoint: endpoint.into(), p256dh: browser_key, auth: "AAECAwQFBgcICQoLDA0ODw".into() };
        let Response::PushSettings { settings } = ask(Request::SubscribePush(subscription.clone())).await else { unreachable!() };
        let device = settings.devices[0].id.clone();
        ask(Request::RemovePushDevice(protocol::RemovePushDevice { id: device, endpoint: None })).await;
        ask(Request::SubscribePush(subscription)).await;
        let Response::PushSettings { settings } = ask(Request::UnsubscribePush(protocol::UnsubscribePush { endpoint: endpoint.into() })).await else {
            unreachable!()
        };
        assert!(settings.devices.is_empty());

        let declared: std::collections::BTreeSet<String> = protocol::REPLIES.iter().map(|p| p.request_type()).collect();
        assert_eq!(asked, declared, "every request type was asked once");
        server.stop().await;
        db
    })
    .await;
}

/// A request's `type` tag, as clients send it.
fn wire_type(request: &Request) -> String {
    let value: serde_json::Value = rmp_serde::from_slice(&rmp_serde::to_vec_named(request).unwrap()).unwrap();
    value["type"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn logout_and_password_reset_close_open_sockets() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options::default()).await;
    let world = server.world(people()).await;
    let owner = &world.users["owner"].email;
    let cookie = server.login(owner, &world.password).await;
    let other_tab = server.login(owner, &world.password).await;
    let mut ws = server.ws(Some(&cookie), Some(ORIGIN)).await.unwrap();
    let mut other = server.ws(Some(&other_tab), Some(ORIGIN)).await.unwrap();
    assert!(matches!(ws.next_msg().await, ServerMsg::Hello(_)));
    assert!(matches!(other.next_msg().await, ServerMsg::Hello(_)));

    server.post("/api/auth/logout", json!({}), Some(&cookie)).await;
    assert_eq!(
        ws.next_msg().await,
        ServerMsg::Event { event: Event::SessionEnded { reason: "logged_out".into() } }
    );
    assert_eq!(ws.close_code().await, Some(4401));
    assert_eq!(server.ws(Some(&cookie), Some(ORIGIN)).await.err().map(|e| e.0), Some(StatusCode::UNAUTHORIZED));

    // The other session survives a logout elsewhere...
    other.send(&ClientMsg { id: 1, request: Request::Ping(protocol::Ping {}) }).await;
    assert_eq!(other.next_msg().await, ServerMsg::Reply { id: 1, response: Response::Pong });
    // ...but not a password reset.
    server.post("/api/auth/forgot", json!({"email": owner}), None).await;
    let mail = server.wait_for_mail(owner, "Reset your Sitecast password").await;
    let token = crate::support::link_token(&mail);
    server.post("/api/auth/reset", json!({"token": token, "password": "changed!", "confirmPassword": "changed!"}), None).await;
    assert_eq!(
        other.next_msg().await,
        ServerMsg::Event { event: Event::SessionEnded { reason: "password_changed".into() } }
    );
    assert_eq!(other.close_code().await, Some(4401));
    server.stop().await;
}

#[actix_web::test]
async fn a_peer_that_stops_answering_pings_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options { ws_ping_secs: 1, ws_timeout_secs: 2, ..Options::default() }).await;
    let world = server.world(people()).await;
    let mut ws = server.ws(Some(&world.users["homeowner"].session), Some(ORIGIN)).await.unwrap();
    assert!(matches!(ws.next_msg().await, ServerMsg::Hello(_)));
    // This client reads but never answers: the server pings, then gives up.
    let mut pings = 0;
    let code = loop {
        match ws.next_frame().await {
            Some(awc::ws::Frame::Ping(_)) => pings += 1,
            Some(awc::ws::Frame::Close(reason)) => break reason.map(|r| u16::from(r.code)),
            Some(_) => {}
            None => break None,
        }
    };
    assert!(pings >= 1, "the server pinged before giving up");
    assert_eq!(code, Some(1001));
    // The hub forgets closed sockets.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.get("/api/health", None).await.body["sockets"], 0);
    server.stop().await;
}

#[actix_web::test]
async fn a_peer_that_answers_pings_stays_connected() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options { ws_ping_secs: 1, ws_timeout_secs: 2, ..Options::default() }).await;
    let world = server.world(people()).await;
    let mut ws = server.ws(Some(&world.users["homeowner"].session), Some(ORIGIN)).await.unwrap();
    assert!(matches!(ws.next_msg().await, ServerMsg::Hello(_)));
    let mut pongs = 0;
    while pongs < 4 {
        match ws.next_frame().await {
            Some(awc::ws::Frame::Ping(bytes)) => {
                use futures_util::SinkExt;
                ws.framed.send(awc::ws::Message::Pong(bytes)).await.unwrap();
                pongs += 1;
            }
            Some(awc::ws::Frame::Binary(_)) => {}
            other => panic!("expected only pings and frames while idle, got {other:?}"),
        }
    }
    ws.send(&ClientMsg { id: 9, request: Request::Ping(protocol::Ping {}) }).await;
    assert_eq!(ws.next_msg().await, ServerMsg::Reply { id: 9, response: Response::Pong });
    server.stop().await;
}

/// A session may hold 20 sockets and a user 50 (over all their sessions) by default;
/// one more is closed with 4429 before its Hello, and the others carry on.
const PER_SESSION: usize = 20;
const PER_USER: usize = 50;

#[actix_web::test]
async fn sockets_are_capped_per_session_and_per_user() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options { ws_ping_secs: 30, ws_timeout_secs: 120, ..Options::default() }).await;
    let world = server.world(people()).await;
    let homeowner = &world.users["homeowner"].email;
    let open = |cookie: String| {
        let server = &server;
        async move {
            let mut ws = server.ws(Some(&cookie), Some(ORIGIN)).await.expect("upgrade");
            match ws.next_any().await {
                ServerMsg::Hello(_) => ws,
                other => panic!("expected Hello, got {other:?}"),
            }
        }
    };
    let first = server.login(homeowner, &world.password).await;
    let mut held = Vec::new();
    for _ in 0..PER_SESSION {
        held.push(open(first.clone()).await);
    }
    let mut over = server.ws(Some(&first), Some(ORIGIN)).await.expect("upgrade");
    assert_eq!(over.close_code().await, Some(4429), "the 21st socket of one session");
    // Other sessions of the same user may open more, up to the user's cap.
    let mut cookie = server.login(homeowner, &world.password).await;
    let mut in_session = 0;
    while held.len() < PER_USER {
        if in_session == PER_SESSION {
            cookie = server.login(homeowner, &world.password).await;
            in_session = 0;
        }
        held.push(open(cookie.clone()).await);
        in_session += 1;
    }
    let fresh = server.login(homeowner, &world.password).await;
    let mut over = server.ws(Some(&fresh), Some(ORIGIN)).await.expect("upgrade");
    assert_eq!(over.close_code().await, Some(4429), "the 51st socket of one user");
    assert!(matches!(held[0].request(1, Request::Ping(protocol::Ping {})).await, Ok(Response::Pong)), "the others carry on");
    // A closed socket makes room again.
    drop(held.pop());
    let mut again = None;
    for _ in 0..100 {
        if server.count_sockets().await < PER_USER {
            again = Some(open(fresh.clone()).await);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "room after a socket closed");
    server.stop().await;
}

/// `make run` serves http://localhost:8080; a newcomer who opens http://127.0.0.1:8080
/// reaches the same server, and may sign in there. Elsewhere only the public origin is ours.
#[actix_web::test]
async fn loopback_spellings_of_a_loopback_public_url_are_the_same_site() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options { extra: vec![("public-url".into(), "http://localhost:8080".into())], ..Options::default() };
    let local = TestServer::start(&sqlite_url(&dir), opts).await;
    let world = local.world(people()).await;
    let login = json!({"email": world.users["admin"].email, "password": world.password});
    for origin in ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"] {
        let r = local.post_with("/api/auth/login", login.clone(), &[("Origin", origin)]).await;
        assert_eq!(r.status, StatusCode::OK, "{origin}: {}", r.body);
    }
    for origin in ["http://127.0.0.1:9999", "https://127.0.0.1:8080", "http://localhost.evil.example:8080"] {
        let r = local.post_with("/api/auth/login", login.clone(), &[("Origin", origin)]).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{origin}");
    }
    local.stop().await;

    let dir = tempfile::tempdir().unwrap();
    let public = TestServer::start(&sqlite_url(&dir), Options::default()).await;
    let world = public.world(people()).await;
    let login = json!({"email": world.users["admin"].email, "password": world.password});
    let r = public.post_with("/api/auth/login", login.clone(), &[("Origin", "http://localhost:8080")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "a public deployment does not take loopback origins");
    public.stop().await;
}
