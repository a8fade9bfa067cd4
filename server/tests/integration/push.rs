//! Push notifications (docs/FEATURES.md, "Comments, notifications and mail") against a
//! push service on loopback (`scripts/push_service.py`), which hands out subscriptions as
//! a browser does and checks what arrives with independent implementations: the VAPID
//! signature with Python's `cryptography`, the RFC 8291 payload decrypted with
//! `http_ece`. Stored subscriptions, a new photo's push (title and link), the Push
//! preferences obeyed, a subscription the service reports gone deleted, and pushes ending
//! with the session.

use std::time::Duration;

use protocol::{ErrorCode, Event, MailPreferences, NotificationKind, Request, Response};
use serde_json::Value;
use sitecast::domain::messaging::push::{BAD_SUBSCRIPTION, NOT_A_PUSH_SERVICE};
use sitecast::store::outbox;

use crate::support::{for_each_backend, free_port, Helper, Options, TestServer, World, WorldSpec, WsClient, ORIGIN};
use crate::uploads::photo;

/// The homeowner's project, for the builder to upload to.
async fn push_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await
}

pub(crate) async fn service(port: u16, path: &str) -> Value {
    let mut resp = awc::Client::default().get(format!("http://127.0.0.1:{port}{path}")).send().await.expect("push service");
    serde_json::from_slice(&resp.body().await.unwrap()).unwrap()
}

pub(crate) async fn push_settings(ws: &mut WsClient, id: u32, request: Request) -> Result<protocol::PushSettings, protocol::ApiError> {
    match ws.request(id, request).await? {
        Response::PushSettings { settings } => Ok(settings),
        other => panic!("push settings expected, got {other:?}"),
    }
}

pub(crate) fn subscribe(subscription: &Value) -> Request {
    Request::SubscribePush(protocol::SubscribePush {
        endpoint: subscription["endpoint"].as_str().unwrap().to_owned(),
        p256dh: subscription["keys"]["p256dh"].as_str().unwrap().to_owned(),
        auth: subscription["keys"]["auth"].as_str().unwrap().to_owned(),
    })
}

/// Waits until the push service has received `n` pushes; answers them.
pub(crate) async fn received(port: u16, n: usize) -> Vec<Value> {
    for _ in 0..400 {
        let got = service(port, "/received").await;
        let got = got.as_array().unwrap().clone();
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the push service never received {n} pushes; refused: {}", service(port, "/refused").await);
}

async fn new_photos_notification(ws: &mut WsClient) -> protocol::Notification {
    ws.event(|e| match e {
        Event::NotificationAdded { notification, .. } if notification.kind == NotificationKind::NewPhotos => Some(notification.clone()),
        _ => None,
    })
    .await
}

#[actix_web::test]
async fn a_new_photo_is_pushed_encrypted_to_each_device_that_asked() {
    for_each_backend(|db| async move {
        let port = free_port();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/push_service.py");
        let _service = Helper::start("python3", &[script, &port.to_string()], port).await;
        let opts = Options { extra: vec![("push-services".into(), format!("127.0.0.1:{port}"))], ..Options::default() };
        let server = TestServer::start(&db.url, opts).await;
        let world = push_world(&server).await;
        let homeowner = world.users["homeowner"].email.as_str();
        // Signed in through the form, as a browser: the device is named for it.
        let (mut home, hello) = server.connect_with(homeowner, &world.password).await;
        let maple = hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();

        // The server's key, and no device yet.
        let settings = push_settings(&mut home, 1, Request::GetPushSettings(protocol::GetPushSettings { endpoint: None })).await.unwrap();
        assert_eq!(settings.public_key.len(), 87, "an uncompressed P-256 point, base64url");
        assert!(settings.devices.is_empty());

        // Only browsers' push services, and only real keys.
        let sub = service(port, "/subscribe").await;
        let mut elsewhere = sub.clone();
        elsewhere["endpoint"] = Value::from("https://169.254.169.254/latest/meta-data");
        let refused = push_settings(&mut home, 2, subscribe(&elsewhere)).await.unwrap_err();
        assert_eq!((refused.code, refused.message.as_str()), (ErrorCode::Validation, NOT_A_PUSH_SERVICE));
        let mut bad_keys = sub.clone();
        bad_keys["keys"]["auth"] = Value::from("c2hvcnQ");
        let refused = push_settings(&mut home, 3, subscribe(&bad_keys)).await.unwrap_err();
        assert_eq!((refused.code, refused.message.as_str()), (ErrorCode::Validation, BAD_SUBSCRIPTION));

        // This device turns them on.
        let settings = push_settings(&mut home, 4, subscribe(&sub)).await.unwrap();
        assert_eq!(settings.devices.len(), 1);
        assert!(settings.devices[0].this_device);
        assert!(settings.devices[0].device.contains(" on "), "{}", settings.devices[0].device);

        // A new photo: its notification, and the same as a push the device decrypts.
        let cookie = world.users["owner"].session.clone();
        let uploaded = server.upload(&maple.id, &cookie, &[("IMG_2001.jpg", &photo(640, 480))]).await;
        assert!(uploaded.all_stored());
        let notification = new_photos_notification(&mut home).await;
        let pushes = received(port, 1).await;
        let push = &pushes[0];
        assert_eq!(push["payload"]["title"], Value::from(notification.title.clone()));
        assert_eq!(push["payload"]["body"], Value::from(notification.body.clone()));
        assert_eq!(push["payload"]["url"], Value::from(notification.link.clone()));
        assert!(notification.link.starts_with(&format!("/projects/{}", maple.id)), "{}", notification.link);
        assert_eq!(push["payload"]["tag"], Value::from(notification.id.clone()));
        assert_eq!(push["vapid"]["sub"], Value::from("mailto:hello@sitecast.local"));
        assert_eq!(push["ttl"], Value::from("86400"));

        // Push off for new photos: the notification still comes, nothing is queued.
        let mut prefs = match home.request(5, Request::GetMailPreferences(protocol::GetMailPreferences {})).await.unwrap() {
            Response::MailPreferences { preferences } => preferences,
            other => panic!("{other:?}"),
        };
        assert!(prefs.push_new_photos, "on by default");
        prefs.push_new_photos = false;
        let saved = home.request(6, Request::UpdateMailPreferences(prefs)).await.unwrap();
        assert!(matches!(saved, Response::MailPreferences { preferences: MailPreferences { push_new_photos: false, new_photos: true, .. } }));
        server.upload(&maple.id, &cookie, &[("IMG_2002.jpg", &photo(640, 480))]).await;
        new_photos_notification(&mut home).await;
        // Queued in the notification's own transaction: nothing was.
        assert_eq!(outbox::pending(server.state.store.pool()).await.unwrap().push, 0);

        // The service says the subscription is gone: it is deleted.
        prefs.push_new_photos = true;
        home.request(7, Request::UpdateMailPreferences(prefs)).await.unwrap();
        let n = sub["endpoint"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
        awc::Client::default().post(format!("http://127.0.0.1:{port}/gone/{n}")).send().await.unwrap();
        server.upload(&maple.id, &cookie, &[("IMG_2003.jpg", &photo(640, 480))]).await;
        new_photos_notification(&mut home).await;
        let mut gone = false;
        for i in 0..200 {
            let settings = push_settings(&mut home, 100 + i, Request::GetPushSettings(protocol::GetPushSettings { endpoint: None })).await.unwrap();
            if settings.devices.is_empty() {
                gone = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(gone, "a gone subscription is deleted");
        assert_eq!(received(port, 1).await.len(), 1, "nothing more was delivered");

        // Pushes end with the session: signing out of a device stops them there.
        let other_cookie = server.login(homeowner, &world.password).await;
        let mut other = server.ws(Some(&other_cookie), Some(ORIGIN)).await.unwrap();
        other.next_msg().await;
        let second = service(port, "/subscribe").await;
        let settings = push_settings(&mut other, 1, subscribe(&second)).await.unwrap();
        assert_eq!(settings.devices.len(), 1);
        let out = server.post("/api/auth/logout", serde_json::json!({}), Some(&other_cookie)).await;
        assert!(out.status.is_success(), "{}", out.status);
        let settings = push_settings(&mut home, 400, Request::GetPushSettings(protocol::GetPushSettings { endpoint: None })).await.unwrap();
        assert!(settings.devices.is_empty(), "the signed-out device's subscription went with its session");

        // Another account's device cannot be removed by id: it is answered as unknown.
        let third = service(port, "/subscribe").await;
        let mine = push_settings(&mut home, 401, subscribe(&third)).await.unwrap();
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let refused = push_settings(&mut builder, 1, Request::RemovePushDevice(protocol::RemovePushDevice { id: mine.devices[0].id.clone(), endpoint: None }))
            .await
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::NotFound);
        server.stop().await;
        db
    })
    .await;
}

/// Two instances on one Postgres: a subscription made on A, photos uploaded on B, and
/// both instances' push workers racing for the queue: each push goes out exactly once.
#[actix_web::test]
async fn two_instances_send_each_push_once() {
    let Some(db) = crate::support::postgres_database().await else {
        assert!(std::env::var("CI").map(|v| v != "true").unwrap_or(true), "CI must run the two-instance tests");
        eprintln!("TEST_DATABASE_URL not set: skipping a two-instance test");
        return;
    };
    let port = free_port();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/push_service.py");
    let _service = Helper::start("python3", &[script, &port.to_string()], port).await;
    let opts = || Options { extra: vec![("push-services".into(), format!("127.0.0.1:{port}"))], ..Options::default() };
    let a = TestServer::start(&db.url, opts()).await;
    let b = TestServer::start(&db.url, opts()).await;
    let world = push_world(&a).await;
    let (mut home, hello) = a.connect_with(&world.users["homeowner"].email, &world.password).await;
    let maple = hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
    let sub = service(port, "/subscribe").await;
    push_settings(&mut home, 1, subscribe(&sub)).await.unwrap();
    let cookie = world.users["owner"].session.clone();
    for i in 0..4 {
        let uploaded = b.upload(&maple.id, &cookie, &[(&format!("IMG_30{i}.jpg"), &photo(320, 240))]).await;
        assert!(uploaded.all_stored());
        new_photos_notification(&mut home).await;
    }
    // Every push queued has been sent (a push leaves the queue once its service took it).
    let mut empty = false;
    for _ in 0..400 {
        if outbox::pending(a.state.store.pool()).await.unwrap().push == 0 {
            empty = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(empty, "the queue drains");
    let pushes = received(port, 4).await;
    let mut tags: Vec<&str> = pushes.iter().map(|p| p["payload"]["tag"].as_str().unwrap()).collect();
    tags.sort_unstable();
    tags.dedup();
    assert_eq!((pushes.len(), tags.len()), (4, 4), "four notifications, four pushes, none twice: {pushes:?}");
    a.stop().await;
    b.stop().await;
    db.cleanup().await;
}
