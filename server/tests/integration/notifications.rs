//! Notifications: what makes one and for whom (never anyone outside the project, never
//! the one who acted), read state across a user's sockets, paging, bad ids.

use std::io::Cursor;

use protocol::{
    CreateUser, ErrorCode, Event, MailPreferences, Notification, NotificationKind, ProjectStatus, Request, Response, Role, UpdateProject,
};
use serde_json::json;

use crate::support::{for_each_backend, link_token, Options, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// The homeowner's project with a photo and no comments, its company's owner, manager
/// and crew member on it.
async fn notice_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await
}

fn jpeg() -> Vec<u8> {
    let img = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(32, 24, |x, y| image::Rgb([x as u8 * 7, y as u8 * 9, 60])));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A homeowner with no project (invited, password set): an outsider to every project.
async fn outsider(server: &TestServer, admin: &mut WsClient) -> WsClient {
    const PASSWORD: &str = "outsider-pass";
    let email = "olive.outsider@example.com";
    let input = CreateUser {
        role: Role::Homeowner,
        email: email.to_owned(),
        first_name: "Olive".into(),
        last_name: "Outsider".into(),
        name: String::new(),
        phone: "555-0100".into(),
        builder_id: None,
    };
    admin.request(900, Request::CreateUser(input)).await.unwrap();
    let token = link_token(&server.wait_for_mail(email, "You're invited to Sitecast").await);
    let r = server.post("/api/auth/reset", json!({"token": token, "password": PASSWORD, "confirmPassword": PASSWORD}), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let cookie = server.login(email, PASSWORD).await;
    let mut ws = server.ws(Some(&cookie), Some(ORIGIN)).await.expect("socket opens");
    ws.next_msg().await;
    ws
}

async fn added(ws: &mut WsClient) -> (Notification, i64) {
    ws.event(|e| match e {
        Event::NotificationAdded { notification, unread } => Some((notification.clone(), *unread)),
        _ => None,
    })
    .await
}

/// The next notification of this kind (earlier ones of other kinds are skipped).
async fn added_of(ws: &mut WsClient, kind: NotificationKind) -> Notification {
    ws.event(|e| match e {
        Event::NotificationAdded { notification, .. } if notification.kind == kind => Some(notification.clone()),
        _ => None,
    })
    .await
}

async fn listed(ws: &mut WsClient, id: u32, before: Option<i64>) -> (Vec<Notification>, i64, bool) {
    match ws.request(id, Request::ListNotifications(protocol::ListNotifications { before })).await.unwrap() {
        Response::Notifications { notifications, unread, has_more } => (notifications, unread, has_more),
        other => panic!("expected notifications, got {other:?}"),
    }
}

#[actix_web::test]
async fn comments_mentions_photos_and_status_notify_their_people_only() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = notice_world(&server).await;
        let (owner, homeowner) = (&world.users["owner"], &world.users["homeowner"]);
        let (mut admin, admin_hello) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, _) = server.connect_as(&owner.session).await;
        let (mut builder_tab2, _) = server.connect_as(&owner.session).await;
        let (mut home, home_hello) = server.connect_as(&homeowner.session).await;
        let mut olive = outsider(&server, &mut admin).await;
        let maple = home_hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        let Response::Photos { photos, .. } = home.request(1, Request::ListPhotos(protocol::ListPhotos::first(maple.id.clone()))).await.unwrap() else {
            panic!()
        };
        let photo = photos[0].clone();
        let comment = |id: &str, body: &str| Request::AddComment(protocol::AddComment { image_id: id.to_owned(), body: body.to_owned() });

        // The homeowner mentions the builder, and someone who may not see the project.
        let mention = format!("@{} is this crack a problem? cc @Olive Outsider", owner.name);
        home.request(2, comment(&photo.id, &mention)).await.unwrap();
        let (n, unread) = added(&mut builder).await;
        assert_eq!((n.kind, unread), (NotificationKind::Mention, 1));
        assert_eq!(n.title, format!("{} mentioned you on a photo in {}", homeowner.name, maple.title));
        assert_eq!(n.link, format!("/projects/{}?photo={}", maple.id, photo.id));
        assert_eq!(n.actor_name.as_deref(), Some(homeowner.name.as_str()));
        assert!(n.body.starts_with(&format!("@{} is this crack", owner.name)));
        assert_eq!(added(&mut builder_tab2).await.0, n, "every socket of the user");

        // The builder answers: the homeowner hears of a reply; the builder is not told
        // of their own comment.
        builder.request(2, comment(&photo.id, "No, it is a shrinkage crack in the slab.")).await.unwrap();
        let (n, unread) = added(&mut home).await;
        assert_eq!((n.kind, unread), (NotificationKind::Reply, 1));
        // An admin comments: both earlier commenters hear of a reply.
        admin.request(3, comment(&photo.id, "Noted.")).await.unwrap();
        assert_eq!(added(&mut home).await.0.kind, NotificationKind::Reply);
        assert_eq!(added(&mut builder).await.0.kind, NotificationKind::Reply);

        // A status change: the homeowner and builder, not the admin who made it.
        let status = UpdateProject { id: maple.id.clone(), status: Some(ProjectStatus::OnHold), ..UpdateProject::default() };
        admin.request(4, Request::UpdateProject(status)).await.unwrap();
        let (n, _) = added(&mut home).await;
        assert_eq!((n.kind, n.title), (NotificationKind::StatusChange, format!("{} is now On Hold", maple.title)));
        assert_eq!(n.link, format!("/projects/{}", maple.id));
        assert_eq!(added(&mut builder).await.0.kind, NotificationKind::StatusChange);

        // One upload of two photos: one notification for the homeowner, none for the
        // builder who uploaded.
        let cookie = server.login(&owner.email, &world.password).await;
        let r = server.upload(&maple.id, &cookie, &[("a.jpg", &jpeg()), ("b.jpg", &jpeg())]).await;
        assert!(r.all_stored(), "{r}");
        let (n, unread) = added(&mut home).await;
        assert_eq!((n.kind, n.title, unread), (NotificationKind::NewPhotos, format!("2 new photos in {}", maple.title), 4));

        let (list, unread, more) = listed(&mut home, 5, None).await;
        let kinds: Vec<NotificationKind> = list.iter().map(|n| n.kind).collect();
        assert_eq!(kinds, [NotificationKind::NewPhotos, NotificationKind::StatusChange, NotificationKind::Reply, NotificationKind::Reply]);
        assert_eq!((unread, more), (4, false));
        let (list, unread, _) = listed(&mut admin, 5, None).await;
        assert!(list.is_empty() && unread == 0, "the admin acted and was mentioned by no one: {list:?}");
        let (list, unread, _) = listed(&mut olive, 1, None).await;
        assert!(list.is_empty() && unread == 0, "a mention of someone outside the project notifies no one: {list:?}");

        // Read state: one, then all; the user's other sockets follow.
        let (list, unread, _) = listed(&mut builder, 6, None).await;
        assert_eq!(unread, 3);
        assert_eq!(builder.request(7, Request::MarkNotificationRead(protocol::MarkNotificationRead { id: list[0].id.clone() })).await, Ok(Response::Done));
        assert_eq!(builder.request(8, Request::MarkNotificationRead(protocol::MarkNotificationRead { id: list[0].id.clone() })).await, Ok(Response::Done), "again: no error");
        let read = builder_tab2.event(|e| match e {
            Event::NotificationsRead { ids, all, unread } => Some((ids.clone(), *all, *unread)),
            _ => None,
        });
        assert_eq!(read.await, (vec![list[0].id.clone()], false, 2));
        // Someone else's or an unknown notification: not found, nothing changes.
        let (home_list, _, _) = listed(&mut home, 9, None).await;
        let err = builder.request(9, Request::MarkNotificationRead(protocol::MarkNotificationRead { id: home_list[0].id.clone() })).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Notification not found"));
        let err = builder.request(10, Request::MarkNotificationRead(protocol::MarkNotificationRead { id: "nope".into() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert_eq!(listed(&mut home, 10, None).await.1, 4, "the homeowner's stay unread");
        assert_eq!(builder.request(11, Request::MarkAllNotificationsRead(protocol::MarkAllNotificationsRead {})).await, Ok(Response::Done));
        let read = builder_tab2.event(|e| match e {
            Event::NotificationsRead { all, unread, .. } => Some((*all, *unread)),
            _ => None,
        });
        assert_eq!(read.await, (true, 0));
        let (list, unread, _) = listed(&mut builder, 12, None).await;
        assert!(unread == 0 && list.iter().all(|n| n.read_at.is_some()));

        // Paging: 20 at a time, newest first, until none remain.
        let pool = server.state.store.pool();
        // Ids are UUIDs (Postgres stores them as such); the last digits number the page entry.
        let page = |i: i64| format!("00000000-0000-4000-8000-{i:012}");
        for i in 0..25i64 {
            TestSql::per_backend(
                "INSERT INTO notifications (id, user_id, kind, project_id, title, body, created_at) VALUES ($1, $2, 'comment', $3, 't', '', $4)",
                "INSERT INTO notifications (id, user_id, kind, project_id, title, body, created_at) \
                 VALUES ($1::uuid, $2::uuid, 'comment', $3::uuid, 't', '', TIMESTAMPTZ 'epoch' + $4 * INTERVAL '1 millisecond')",
            )
            .bind(page(i))
            .bind(&admin_hello.user.id)
            .bind(&maple.id)
            .bind(1_000 + i)
            .execute(pool)
            .await
            .unwrap();
        }
        let (first, unread, more) = listed(&mut admin, 13, None).await;
        assert_eq!((first.len(), unread, more), (20, 25, true));
        assert_eq!(first[0].id, page(24));
        let (rest, _, more) = listed(&mut admin, 14, Some(first[19].created_at)).await;
        assert_eq!((rest.len(), more), (5, false));
        assert_eq!(rest[4].id, page(0));
        server.stop().await;
        db
    })
    .await;
}

async fn prefs(ws: &mut WsClient, id: u32) -> MailPreferences {
    match ws.request(id, Request::GetMailPreferences(protocol::GetMailPreferences {})).await.unwrap() {
        Response::MailPreferences { preferences } => preferences,
        other => panic!("expected preferences, got {other:?}"),
    }
}

async fn set_prefs(ws: &mut WsClient, id: u32, preferences: MailPreferences) {
    let r = ws.request(id, Request::UpdateMailPreferences(preferences)).await.unwrap();
    assert_eq!(r, Response::MailPreferences { preferences });
}

async fn mails(server: &TestServer, to: &str) -> Vec<(String, String, Option<String>)> {
    TestSql::new("SELECT subject, body_text, list_unsubscribe FROM outbox WHERE to_address = $1 ORDER BY created_at, id")
        .bind(to)
        .fetch_all(server.state.store.pool())
        .await
        .unwrap()
}

#[actix_web::test]
async fn mail_preferences_digests_and_one_click_unsubscribe() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = notice_world(&server).await;
        let (owner, homeowner) = (world.users["owner"].email.as_str(), world.users["homeowner"].email.as_str());
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, builder_hello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, home_hello) = server.connect_as(&world.users["homeowner"].session).await;
        let maple = home_hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        let Response::Photos { photos, .. } = home.request(1, Request::ListPhotos(protocol::ListPhotos::first(maple.id.clone()))).await.unwrap() else {
            panic!()
        };
        let photo = photos[0].clone();
        let comment = |body: &str| Request::AddComment(protocol::AddComment { image_id: photo.id.clone(), body: body.to_owned() });
        assert_eq!(prefs(&mut home, 2).await, MailPreferences { new_photos: true, comments: true, status_changes: false, push_new_photos: true, push_comments: true, push_status_changes: true }, "the defaults");
        let before = mails(&server, homeowner).await.len();

        // Three comments in a row: one digest mail, not three.
        for (i, body) in ["First coat of paint is on.", "Second coat tomorrow.", "Trim goes in Friday."].into_iter().enumerate() {
            builder.request(10 + i as u32, comment(body)).await.unwrap();
        }
        let svc = &server.state.svc;
        // Nothing is old enough yet for a real cutoff of a few minutes ago.
        let cutoff = sitecast::store::now_ms() - sitecast::domain::messaging::notifications::DIGEST_DELAY_MS;
        assert_eq!(sitecast::domain::messaging::notifications::send_comment_digests(svc, cutoff).await.unwrap(), 0, "they wait for each other");
        // The homeowner's, and those of the company's manager and the crew member on the
        // project, who follow its comments too.
        assert_eq!(sitecast::domain::messaging::notifications::send_comment_digests(svc, i64::MAX).await.unwrap(), 3);
        assert_eq!(sitecast::domain::messaging::notifications::send_comment_digests(svc, i64::MAX).await.unwrap(), 0, "each goes out once");
        let sent = mails(&server, homeowner).await;
        assert_eq!(sent.len(), before + 1);
        let (subject, text, one_click) = sent.last().unwrap().clone();
        assert_eq!(subject, "3 new comments on Sitecast");
        for body in ["First coat of paint is on.", "Second coat tomorrow.", "Trim goes in Friday."] {
            assert!(text.contains(body), "{text}");
        }
        assert!(text.contains(&format!("/projects/{}?photo={}", maple.id, photo.id)), "links to the photo");
        assert!(text.contains("/profile-settings#email"), "the footer links to the preferences");
        let one_click = one_click.expect("List-Unsubscribe URL");
        let path = one_click.split_once("/api/").map(|(_, p)| format!("/api/{p}")).unwrap();

        // A forged link (another user's id under this signature) is refused.
        let token = path.split_once("token=").unwrap().1.to_owned();
        let forged = token.replacen(&home_hello.user.id, &builder_hello.user.id, 1);
        let r = server.post(&format!("/api/mail/unsubscribe?token={forged}"), json!({}), None).await;
        assert_eq!(r.body["code"], "invalid_token", "{}", r.body);
        assert!(prefs(&mut builder, 3).await.comments, "the builder's preferences are untouched");
        // The real one works signed out (RFC 8058 one-click POST), and twice.
        for _ in 0..2 {
            let r = server.post(&path, json!({}), None).await;
            assert_eq!((r.status.as_u16(), r.body["kind"].as_str()), (200, Some("comments")), "{}", r.body);
        }
        assert_eq!(prefs(&mut home, 4).await, MailPreferences { new_photos: true, comments: false, status_changes: false, push_new_photos: true, push_comments: true, push_status_changes: true });

        // Comments back on: replaying the old mail's link must not undo that later
        // choice, on any instance, however often it is replayed
        // (docs/FEATURES.md, "Comments, notifications and mail").
        set_prefs(&mut home, 30, MailPreferences { new_photos: true, comments: true, status_changes: false, push_new_photos: true, push_comments: true, push_status_changes: true }).await;
        for _ in 0..2 {
            let r = server.post(&path, json!({}), None).await;
            assert_eq!((r.status.as_u16(), r.body["code"].as_str()), (400, Some("invalid_token")), "{}", r.body);
            assert_eq!(r.body["message"], sitecast::domain::messaging::mail_preferences::SUPERSEDED_LINK);
        }
        assert!(prefs(&mut home, 31).await.comments, "the later choice stands");
        set_prefs(&mut home, 32, MailPreferences { new_photos: true, comments: false, status_changes: false, push_new_photos: true, push_comments: true, push_status_changes: true }).await;

        // Comments off: notifications still come, no digest mail.
        builder.request(20, comment("Painters are done.")).await.unwrap();
        let seen = home.event(|e| match e {
            Event::NotificationAdded { notification, .. } if notification.body == "Painters are done." => Some(notification.kind),
            _ => None,
        });
        assert_eq!(seen.await, NotificationKind::Comment);
        // The company's manager and crew member on the project still get theirs; not the homeowner.
        assert_eq!(sitecast::domain::messaging::notifications::send_comment_digests(svc, i64::MAX).await.unwrap(), 2);
        assert_eq!(mails(&server, homeowner).await.len(), before + 1);

        // New photos off: no mail for an upload; status changes on: a mail for one.
        set_prefs(&mut home, 5, MailPreferences { new_photos: false, comments: false, status_changes: true, push_new_photos: true, push_comments: true, push_status_changes: true }).await;
        let cookie = server.login(owner, &world.password).await;
        let r = server.upload(&maple.id, &cookie, &[("c.jpg", &jpeg())]).await;
        assert!(r.all_stored(), "{r}");
        added_of(&mut home, NotificationKind::NewPhotos).await;
        let status = UpdateProject { id: maple.id.clone(), status: Some(ProjectStatus::Completed), ..UpdateProject::default() };
        admin.request(6, Request::UpdateProject(status)).await.unwrap();
        let completed = format!("{} is now Completed", maple.title);
        let text = server.wait_for_mail(homeowner, &completed).await;
        assert!(text.contains("/unsubscribe?token="));
        let subjects: Vec<String> = mails(&server, homeowner).await.into_iter().skip(before + 1).map(|m| m.0).collect();
        assert_eq!(subjects, vec![completed], "no new-photos mail");
        // The builder kept the default (status mails off): none for them.
        assert!(mails(&server, owner).await.iter().all(|m| !m.0.contains("is now")));
        server.stop().await;
        db
    })
    .await;
}
