//! Push notifications (docs/FEATURES.md, "Comments, notifications and mail"): the
//! devices a person turned them on for, and the pushes queued for them. A notification
//! (`notifications::record`) is queued for each of its recipient's devices when they
//! want its kind pushed, in the transaction that made it, into the outbox; its worker
//! hands them to `mail::push`, which encrypts and sends them (RFC 8030/8291, VAPID).
//!
//! A subscription's endpoint is a URL the server will POST to, chosen by a browser:
//! only the push services browsers use are accepted (`PushServices`), never an address
//! on the server's own network.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use protocol::{ErrorCode, Notification, NotificationKind, PushDevice, PushSettings};
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};

use crate::domain::shared::policy::{Action, Actor};
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::store::push::{self as rows, NewPushSubscription};
use crate::store::outbox::{self, NewPush};
use crate::store::{keys, new_id, now_ms, security, users, StoreError, Tx};

pub const DEVICE_NOT_FOUND: &str = "Device not found";
pub const NOT_A_PUSH_SERVICE: &str = "This browser's push service is not one Sitecast can send to.";
pub const BAD_SUBSCRIPTION: &str = "This browser's push subscription is not valid.";
pub const TOO_MANY_DEVICES: &str = "Push notifications are on for 10 devices already: turn one off first.";
/// Devices one account may have push notifications on (phones, tablets, browsers).
pub const MAX_DEVICES: usize = 10;
const KEY_NAME: &str = "vapid";
/// A push subscription's endpoint, as browsers make them, is a few hundred characters.
const MAX_ENDPOINT: usize = 2048;

pub use crate::mail::push::PushServices;

/// The server's VAPID key pair, made once and shared by every instance (`keys`).
pub async fn vapid_key(svc: &Services) -> Result<ES256KeyPair> {
    let fresh = URL_SAFE_NO_PAD.encode(ES256KeyPair::generate().to_bytes());
    let stored = keys::get_or_create(svc.store.pool(), KEY_NAME, &fresh).await?;
    let bytes = URL_SAFE_NO_PAD.decode(stored).map_err(|_| Error::internal("the stored push key is not base64url"))?;
    ES256KeyPair::from_bytes(&bytes).map_err(|_| Error::internal("the stored push key is not a P-256 key"))
}

/// The public half, as browsers take it (`applicationServerKey`).
pub fn public_key(key: &ES256KeyPair) -> String {
    URL_SAFE_NO_PAD.encode(key.public_key().public_key().to_bytes_uncompressed())
}

pub async fn settings(svc: &Services, actor: &Actor, endpoint: Option<&str>) -> Result<PushSettings> {
    crate::domain::identity::security::allowed(actor, Action::ManageOwnNotifications)?;
    let key = vapid_key(svc).await?;
    let devices = rows::of_user(svc.store.pool(), &actor.id)
        .await?
        .into_iter()
        .map(|row| PushDevice { this_device: endpoint == Some(row.endpoint.as_str()), id: row.id, device: row.device, created_at: row.created_at })
        .collect();
    Ok(PushSettings { public_key: public_key(&key), devices })
}

/// Turns pushes on for the asking browser (its session's device). Subscribing again
/// replaces its keys; a browser another account subscribed before becomes this one's.
pub async fn subscribe(svc: &Services, actor: &Actor, session_id: &str, req: &protocol::SubscribePush) -> Result<PushSettings> {
    crate::domain::identity::security::allowed(actor, Action::ManageOwnNotifications)?;
    if req.endpoint.len() > MAX_ENDPOINT || !svc.push_services.allows(&req.endpoint) {
        return Err(Error::new(ErrorCode::Validation, NOT_A_PUSH_SERVICE));
    }
    check_keys(&req.p256dh, &req.auth).ok_or_else(|| Error::new(ErrorCode::Validation, BAD_SUBSCRIPTION))?;
    let pool = svc.store.pool();
    let sessions = security::devices(pool, &actor.id).await?;
    let this = sessions.iter().find(|s| s.id == session_id);
    let seen = crate::domain::identity::devices::device(this.and_then(|s| s.user_agent.as_deref()));
    let device = format!("{} on {}", seen.browser, seen.system);
    // One subscription per session (a browser has one: a new endpoint replaces its
    // old one) and `MAX_DEVICES` per account, decided with the account's row held, so
    // subscriptions racing on several instances cannot pass the cap together.
    let mut tx = svc.store.begin_write().await?;
    if !users::lock(&mut *tx, &actor.id).await? {
        return Err(Error::unauthorized());
    }
    rows::delete_others_of_session(&mut *tx, session_id, &req.endpoint).await?;
    let devices = rows::of_user(&mut *tx, &actor.id).await?;
    if devices.len() >= MAX_DEVICES && !devices.iter().any(|d| d.endpoint == req.endpoint) {
        return Err(Error::new(ErrorCode::Conflict, TOO_MANY_DEVICES));
    }
    rows::subscribe(
        &mut *tx,
        &NewPushSubscription {
            id: &new_id(),
            user_id: &actor.id,
            session_id,
            endpoint: &req.endpoint,
            p256dh: &req.p256dh,
            auth: &req.auth,
            device: &device,
            now: now_ms(),
        },
    )
    .await?;
    tx.commit().await?;
    settings(svc, actor, Some(&req.endpoint)).await
}

/// A subscription's keys, exactly as RFC 8291 §3.2 and the Push API give them: an
/// uncompressed P-256 point (65 bytes) and a 16-byte secret, base64url (the padding
/// some encoders add allowed, nothing else), read as the sender reads them.
fn check_keys(p256dh: &str, auth: &str) -> Option<()> {
    crate::mail::push::browser_keys(p256dh, auth).ok().map(|_| ())
}

/// Turns pushes off for the asking browser; off already is fine.
pub async fn unsubscribe(svc: &Services, actor: &Actor, endpoint: &str) -> Result<PushSettings> {
    crate::domain::identity::security::allowed(actor, Action::ManageOwnNotifications)?;
    rows::delete_by_endpoint(svc.store.pool(), &actor.id, endpoint).await?;
    settings(svc, actor, None).await
}

/// Turns pushes off for another of the account's devices; someone else's device is
/// answered like an unknown one.
pub async fn remove(svc: &Services, actor: &Actor, id: &str, endpoint: Option<&str>) -> Result<PushSettings> {
    crate::domain::identity::security::allowed(actor, Action::ManageOwnNotifications)?;
    let removed = if crate::domain::shared::validation::could_be_id(id) { rows::delete(svc.store.pool(), &actor.id, id).await? } else { 0 };
    if removed == 0 {
        return Err(Error::new(ErrorCode::NotFound, DEVICE_NOT_FOUND));
    }
    settings(svc, actor, endpoint).await
}

/// What the service worker shows (`web/src/sw/push.ts`): title, text, the page a tap
/// opens and a tag (one notification per tag on a device).
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct Payload {
    pub title: String,
    pub body: String,
    pub url: String,
    pub tag: String,
}

/// Queues `notice` for each of `user_id`'s devices, when they want its kind pushed;
/// inside the transaction that records it.
pub async fn queue(tx: &mut Tx, user_id: &str, notice: &Notification) -> std::result::Result<(), StoreError> {
    let Some(prefs) = users::mail_preferences(&mut **tx, user_id).await? else { return Ok(()) };
    let wanted = match notice.kind {
        NotificationKind::NewPhotos => prefs.push_new_photos,
        NotificationKind::Comment | NotificationKind::Reply | NotificationKind::Mention => prefs.push_comments,
        NotificationKind::StatusChange => prefs.push_status_changes,
    };
    if !wanted {
        return Ok(());
    }
    let devices = rows::of_user(&mut **tx, user_id).await?;
    if devices.is_empty() {
        return Ok(());
    }
    let payload = Payload { title: notice.title.clone(), body: notice.body.clone(), url: notice.link.clone(), tag: notice.id.clone() };
    let payload = serde_json::to_string(&payload).map_err(|_| StoreError::Unsupported("a push payload that is not JSON"))?;
    let now = now_ms();
    for device in devices {
        outbox::insert_push(&mut **tx, &NewPush { id: &new_id(), subscription_id: &device.id, payload: &payload, now }).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_browser_push_services_are_sent_to() {
        let browsers = PushServices::parse(PushServices::BROWSERS).unwrap();
        for ok in [
            "https://fcm.googleapis.com/fcm/send/abc:def",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
            "https://web.push.apple.com/QGmN",
            "https://wns2-db5p.notify.windows.com/w/?token=x",
        ] {
            assert!(browsers.allows(ok), "{ok}");
        }
        for refused in [
            "http://fcm.googleapis.com/fcm/send/abc",
            "https://fcm.googleapis.com.evil.example/x",
            "https://evilpush.apple.com/x",
            "https://push.apple.com/x",
            "https://127.0.0.1/x",
            "https://169.254.169.254/latest/meta-data",
            "https://user:pw@fcm.googleapis.com/x",
            "file:///etc/passwd",
            "not a url",
        ] {
            assert!(!browsers.allows(refused), "{refused}");
        }
        // The tests' loopback service: plain http, that host and port only.
        let local = PushServices::parse("127.0.0.1:4010").unwrap();
        assert!(local.allows("http://127.0.0.1:4010/push/1"));
        assert!(!local.allows("http://127.0.0.1:4011/push/1"));
        assert!(!local.allows("http://localhost:4010/push/1"));
        assert!(PushServices::parse(" , ").is_err());
    }

    #[test]
    fn subscription_keys_are_checked() {
        let key = ES256KeyPair::generate();
        let point = public_key(&key);
        let auth = URL_SAFE_NO_PAD.encode([7u8; 16]);
        assert!(check_keys(&point, &auth).is_some());
        assert!(check_keys(&point, &URL_SAFE_NO_PAD.encode([7u8; 15])).is_none());
        assert!(check_keys("BAAA", &auth).is_none());
        assert!(check_keys("not base64!", &auth).is_none());
    }

    #[test]
    fn only_the_services_own_port_and_whole_host_names_are_sent_to() {
        let browsers = PushServices::browsers();
        assert!(browsers.allows("https://fcm.googleapis.com:443/fcm/send/x"), "the service's own port, written out");
        for refused in [
            "https://fcm.googleapis.com:22/x",
            "https://fcm.googleapis.com:6379/x",
            "https://fcm.googleapis.com:0/x",
            "https://fcm.googleapis.com:8443/x",
            "https://web.push.apple.com:25/x",
            "https://fcm.googleapis.com./x",
            "https://a..push.apple.com/x",
            "https://.push.apple.com/x",
        ] {
            assert!(!browsers.allows(refused), "{refused}");
        }
    }

    /// Any endpoint a browser could send: allowed exactly when it is `https` to a
    /// listed host (or a subdomain of a `*.` one), every label present, on port 443,
    /// without credentials.
    #[test]
    fn any_endpoint_is_allowed_exactly_when_the_rules_say() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        let label = prop_oneof![
            2 => prop::sample::select(vec!["fcm", "googleapis", "com", "push", "apple", "services", "mozilla", "notify", "windows", "web", "evil", "updates"]).prop_map(str::to_owned),
            1 => Just(String::new()),
            1 => prop::collection::vec(prop::sample::select(vec!['a', 'q', 'z', '0', '7', '-']), 1..7).prop_map(|cs| cs.into_iter().collect::<String>()),
        ];
        let host = prop::collection::vec(label, 1..6).prop_map(|labels| labels.join("."));
        let endpoint = (
            prop::sample::select(vec!["https", "http", "ftp"]),
            any::<bool>(),
            host,
            prop::option::of(prop::sample::select(vec![443u16, 80, 22, 0, 6379, 8443, 4010])),
            prop::collection::vec(prop::sample::select(vec!['a', 'Z', '9', '/', '_', '-']), 0..12).prop_map(|cs| cs.into_iter().collect::<String>()),
        );
        let browsers = PushServices::browsers();
        let rules = |scheme: &str, credentials: bool, host: &str, port: Option<u16>| {
            let named = host == "fcm.googleapis.com"
                || ["push.services.mozilla.com", "push.apple.com", "notify.windows.com"].iter().any(|parent| host.ends_with(&format!(".{parent}")));
            scheme == "https" && !credentials && !host.split('.').any(str::is_empty) && matches!(port, None | Some(443)) && named
        };
        let config = Config { cases: 2_000, failure_persistence: None, ..Config::default() };
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[33; 32]));
        runner
            .run(&endpoint, |(scheme, credentials, host, port, path)| {
                let userinfo = if credentials { "user:pw@" } else { "" };
                let port_text = port.map(|p| format!(":{p}")).unwrap_or_default();
                let url = format!("{scheme}://{userinfo}{host}{port_text}/{path}");
                // A host the URL parser itself refuses is refused all the more.
                let expected = url::Url::parse(&url).is_ok() && rules(scheme, credentials, &host, port);
                prop_assert_eq!(browsers.allows(&url), expected, "{}", url);
                Ok(())
            })
            .unwrap();
    }

    /// Any key a client could send: a public key is taken only as the 65-byte point in
    /// base64url (with no padding, or its one `=`), an auth secret only as 16 bytes
    /// (no padding, or its `==`).
    #[test]
    fn any_subscription_key_is_taken_exactly_when_rfc_8291_says() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        let point = URL_SAFE_NO_PAD.decode(public_key(&ES256KeyPair::generate())).unwrap();
        let case = (prop::collection::vec(any::<u8>(), 0..80), 0usize..5, 0usize..5, prop::collection::vec(any::<u8>(), 0..24));
        let config = Config { cases: 1_000, failure_persistence: None, ..Config::default() };
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[21; 32]));
        runner
            .run(&case, |(noise, key_pad, auth_pad, secret)| {
                let secret_text = format!("{}{}", URL_SAFE_NO_PAD.encode(&secret), "=".repeat(auth_pad));
                let secret_ok = secret.len() == 16 && matches!(auth_pad, 0 | 2);
                // The real point, padded some way: taken when its padding is base64url's.
                let real = format!("{}{}", URL_SAFE_NO_PAD.encode(&point), "=".repeat(key_pad));
                prop_assert_eq!(check_keys(&real, &secret_text).is_some(), matches!(key_pad, 0 | 1) && secret_ok);
                // Anything else as a point: never taken unless it is one.
                let noise_text = URL_SAFE_NO_PAD.encode(&noise);
                let taken = check_keys(&noise_text, &URL_SAFE_NO_PAD.encode([7u8; 16])).is_some();
                prop_assert!(!taken || (noise.len() == 65 && noise[0] == 4), "{} taken", noise_text);
                Ok(())
            })
            .unwrap();
    }
}
