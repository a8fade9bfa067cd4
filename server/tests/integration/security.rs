//! Account security (docs/SECURITY.md, "Two-factor sign-in"), over HTTP and the socket on
//! each backend: enrolling an authenticator app, signing in with a code and with recovery
//! codes (each once, and wrong ones counted toward the lock), the fresh factor sensitive
//! actions want, the installation's requirement, the devices list and its sign-outs, a
//! new device's mail, and an administrator's reset.

use awc::http::StatusCode;
use protocol::{
    ApiError, ConfirmTotp, CreateGuestLink, EndOtherSessions, EndSession, ErrorCode, Event, InstallationSettings, RemoveTotp,
    Request, ResetFactors, Response, Security, TotpEnrolment, VerifyFactor,
};
use serde_json::{json, Value};

use webauthn_authenticator_rs::softpasskey::SoftPasskey;
use webauthn_authenticator_rs::WebauthnAuthenticator;
use webauthn_rs::prelude::{CreationChallengeResponse, RequestChallengeResponse};

use crate::support::{for_each_backend, Options, TestServer, World, WorldSpec, WsClient, ORIGIN};

/// The company's people and a project of theirs to act on.
async fn security_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await
}

/// The app's code for the time step `offset` steps from now (the server accepts the
/// steps either side of its own, once each).
pub fn code(secret: &str, offset: i64) -> String {
    let totp = totp_rs::Builder::new()
        .with_secret(totp_rs::Secret::try_from_base32(secret).expect("base32 secret"))
        .with_account_name("test")
        .build()
        .expect("a TOTP");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    totp.generate((now + offset * 30) as u64).to_string()
}

async fn open(server: &TestServer, cookie: &str) -> WsClient {
    let mut ws = server.ws(Some(cookie), Some(ORIGIN)).await.expect("socket opens");
    match ws.next_msg().await {
        protocol::ServerMsg::Hello(_) => ws,
        other => panic!("expected Hello first, got {other:?}"),
    }
}

async fn security(ws: &mut WsClient, id: u32, request: Request) -> Result<Security, ApiError> {
    match ws.request(id, request).await? {
        Response::Security { security } => Ok(security),
        other => panic!("expected security, got {other:?}"),
    }
}

/// Enrols an authenticator app on the socket's account: its secret and recovery codes.
pub async fn enrol(ws: &mut WsClient, id: u32) -> (String, Vec<String>) {
    let (secret, codes, _) = enrol_spending(ws, id).await;
    (secret, codes)
}

/// `enrol`, also returning the code that confirmed the app (spent by doing so). The
/// code is kept rather than computed again, as the clock may have moved to the next
/// time step meanwhile.
pub async fn enrol_spending(ws: &mut WsClient, id: u32) -> (String, Vec<String>, String) {
    let Ok(Response::TotpEnrolment { enrolment }) = ws.request(id, Request::StartTotp(protocol::StartTotp {})).await else {
        panic!("start_totp")
    };
    let TotpEnrolment { secret, uri, qr_svg } = enrolment;
    assert!(uri.starts_with("otpauth://totp/Sitecast:") && uri.contains(&format!("secret={secret}")), "{uri}");
    assert!(qr_svg.contains("<svg"), "a QR code as SVG");
    // A wrong code does not turn it on.
    let wrong = ws.request(id + 1, Request::ConfirmTotp(ConfirmTotp { code: "000000".into() })).await.unwrap_err();
    assert_eq!(wrong.fields[0].message, "Invalid verification code");
    let spent = code(&secret, 0);
    let Ok(Response::RecoveryCodes { codes }) = ws.request(id + 2, Request::ConfirmTotp(ConfirmTotp { code: spent.clone() })).await
    else {
        panic!("confirm_totp")
    };
    assert_eq!(codes.len(), 10);
    assert!(codes.iter().all(|c| c.len() == 11 && c.as_bytes()[5] == b'-'), "{codes:?}");
    (secret, codes, spent)
}

async fn password_step(server: &TestServer, email: &str, password: &str) -> Value {
    let r = server.post("/api/auth/login", json!({ "email": email, "password": password }), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.session_cookie.is_none(), "no session before the second factor");
    r.body["secondFactor"].clone()
}

async fn code_step(server: &TestServer, ticket: &str, code: &str) -> (StatusCode, Value, Option<String>) {
    let r = server.post("/api/auth/login/code", json!({ "ticket": ticket, "code": code }), None).await;
    (r.status, r.body, r.session_cookie)
}

#[actix_web::test]
async fn an_authenticator_app_guards_sign_in_and_each_code_works_once() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = security_world(&server).await;
        let (homeowner, password) = (world.users["homeowner"].email.as_str(), world.password.as_str());
        // The world's session is the account's one signed-in device.
        let mut ws = open(&server, &world.users["homeowner"].session).await;
        let before = security(&mut ws, 1, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(!before.totp && before.passkeys.is_empty() && !before.required && before.factor_at.is_none());
        assert_eq!(before.devices.len(), 1);
        assert!(before.devices[0].current);
        assert_eq!(before.devices[0].place.as_deref(), Some("This computer"), "a loopback address is named, nothing looked up");

        let (secret, codes, spent) = enrol_spending(&mut ws, 2).await;
        // Enrolling proved the factor in this session.
        let now = security(&mut ws, 10, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(now.totp && now.factor_at.is_some());
        assert_eq!(now.recovery_codes_left, 10);

        // Sign-in now asks for the second factor, on a ticket, without a session.
        let step = password_step(&server, homeowner, password).await;
        assert_eq!(step["methods"], json!(["totp", "recovery"]));
        let ticket = step["ticket"].as_str().unwrap().to_owned();
        let (status, body, none) = code_step(&server, &ticket, "123 456").await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::UNAUTHORIZED, Some("Invalid verification code")));
        assert!(none.is_none());
        // The code already used to enrol is spent; the next step's is not.
        let (status, _, _) = code_step(&server, &ticket, &spent).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "the enrolment's code works once");
        let next = code(&secret, 1);
        let (status, body, session) = code_step(&server, &ticket, &next).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(session.is_some() && body["user"]["email"] == homeowner && body["enrolRequired"] == false);
        // The ticket is spent, and the same code on a new ticket is refused.
        let (status, body, _) = code_step(&server, &ticket, &next).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("This sign-in has expired. Please sign in again.")));
        let ticket = password_step(&server, homeowner, password).await["ticket"].as_str().unwrap().to_owned();
        let (status, _, _) = code_step(&server, &ticket, &next).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "a code works once");

        // A recovery code, typed any way, works once.
        let typed = codes[3].to_uppercase().replace('-', " ");
        let (status, body, session) = code_step(&server, &ticket, &typed).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(session.is_some());
        let ticket = password_step(&server, homeowner, password).await["ticket"].as_str().unwrap().to_owned();
        let (status, body, _) = code_step(&server, &ticket, &codes[3]).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::UNAUTHORIZED, Some("Invalid verification code")));
        let left = security(&mut ws, 11, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert_eq!(left.recovery_codes_left, 9);
        assert_eq!(left.devices.len(), 3, "this session and the two signed in with a second factor");

        // Wrong codes count toward the failed-login lock like wrong passwords (a right
        // password or code starts the count afresh): after the wrong recovery code
        // above, four more, and the sixth attempt in the window is refused.
        for _ in 0..4 {
            let (status, _, _) = code_step(&server, &ticket, "999999").await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
        let (status, body, _) = code_step(&server, &ticket, &codes[4]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert!(body["message"].as_str().unwrap().starts_with("Too many failed login attempts."));

        // Turning the app off needs the password and a fresh factor (this session
        // proved one when it enrolled); then sign-in is the password alone again.
        let refused = security(&mut ws, 12, Request::RemoveTotp(RemoveTotp { password: "wrong".into() })).await.unwrap_err();
        assert_eq!(refused.fields[0].message, "Your password is not right.");
        let refused = security(&mut ws, 13, Request::RemoveTotp(RemoveTotp { password: String::new() })).await.unwrap_err();
        assert_eq!(refused.fields[0].message, "Enter your password to confirm.");
        let off = security(&mut ws, 14, Request::RemoveTotp(RemoveTotp { password: password.into() })).await.unwrap();
        assert!(!off.totp && off.recovery_codes_left == 0);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn sensitive_actions_want_a_fresh_factor_and_required_accounts_enrol_first() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = security_world(&server).await;
        let (owner, manager_email, password) = (world.users["owner"].email.as_str(), world.users["manager"].email.as_str(), world.password.as_str());
        // Two sessions; the app is enrolled in the first, so the second proved nothing.
        let first = server.login(owner, password).await;
        let second = server.login(owner, password).await;
        let mut ws = open(&server, &first).await;
        let (secret, _) = enrol(&mut ws, 1).await;
        let mut other = open(&server, &second).await;
        let hello_projects = match other.request(5, Request::ListProjects(protocol::ListProjects::first())).await {
            Ok(Response::Projects { projects, .. }) => projects,
            other => panic!("{other:?}"),
        };
        let project_id = hello_projects[0].id.clone();
        let share = || {
            Request::CreateGuestLink(CreateGuestLink {
                project_id: project_id.clone(),
                photos: protocol::GuestPhotos::All,
                downloads: false,
                expires_in_days: Some(7),
            })
        };
        let refused = other.request(6, share()).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::FactorRequired);
        assert_eq!(refused.message, "Confirm it's you with your authenticator app or a passkey to continue.");
        // What the role may never do is refused as such, not met with "Confirm it's you".
        let never = other.request(20, Request::DeleteUser(protocol::DeleteUser { id: project_id.clone() })).await.unwrap_err();
        assert!(matches!(never.code, ErrorCode::Forbidden | ErrorCode::NotFound), "{never:?}");
        let wrong = other.request(7, Request::VerifyFactor(VerifyFactor { code: "000000".into() })).await.unwrap_err();
        assert_eq!(wrong.fields[0].message, "Invalid verification code");
        other.request(8, Request::VerifyFactor(VerifyFactor { code: code(&secret, 1) })).await.unwrap();
        assert!(matches!(other.request(9, share()).await, Ok(Response::GuestLinkCreated { .. })), "made after the factor");

        // An admin requires a factor of companies' owners and managers: the manager,
        // who has none, is led to enrol at their next sign-in, and may do nothing else
        // until they have.
        let mut admin = open(&server, &world.users["admin"].session).await;
        let rules = InstallationSettings { store_photo_locations: true, require_factor_admins: false, require_factor_company_leads: true };
        let Ok(Response::InstallationSettings { settings, .. }) = admin.request(1, Request::UpdateInstallationSettings(rules)).await else {
            panic!("settings")
        };
        assert!(settings.require_factor_company_leads && !settings.require_factor_admins);
        let r = server.post("/api/auth/login", json!({ "email": manager_email, "password": password }), None).await;
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(r.body["enrolRequired"], true);
        let cookie = r.session_cookie.expect("a session, to enrol in");
        assert_eq!(server.get("/api/auth/me", Some(&cookie)).await.body["enrolRequired"], true);
        let mut manager = open(&server, &cookie).await;
        let refused = manager.request(1, Request::ListProjects(protocol::ListProjects::first())).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::EnrolRequired);
        let required = security(&mut manager, 2, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(required.required);
        enrol(&mut manager, 3).await;
        assert_eq!(manager.close_code().await, Some(1012), "reconnects as an enrolled session");
        let mut manager = open(&server, &cookie).await;
        assert!(matches!(manager.request(10, Request::ListProjects(protocol::ListProjects::first())).await, Ok(Response::Projects { .. })));
        assert_eq!(server.get("/api/auth/me", Some(&cookie)).await.body["enrolRequired"], false);
        // The only factor of a required account stays.
        let kept = manager.request(11, Request::RemoveTotp(RemoveTotp { password: password.into() })).await.unwrap_err();
        assert_eq!(kept.message, "Your administrator requires a second factor: add another one before removing this one.");
        // Crew and homeowners are not asked.
        let r = server.post("/api/auth/login", json!({ "email": world.users["crew"].email, "password": password }), None).await;
        assert_eq!(r.body["enrolRequired"], false);

        // An administrator resets the owner's factors (with a fresh factor of their
        // own, which they have none of): mailed, and the owner signs in with the
        // password alone.
        let Some(owner_id) = server.get("/api/auth/me", Some(&first)).await.body["user"]["id"].as_str().map(str::to_owned) else {
            panic!("me")
        };
        let unknown = ws_reset(&mut admin, 2, "0190a0b4-7d2e-7abc-8def-0123456789ab").await.unwrap_err();
        assert_eq!(unknown.code, ErrorCode::NotFound);
        let refused = ws_reset(&mut manager, 12, &owner_id).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::Forbidden, "only administrators");
        ws_reset(&mut admin, 3, &owner_id).await.unwrap();
        let mail = server.wait_for_mail(owner, "Your Sitecast sign-in factors were reset").await;
        assert!(mail.contains("removed the authenticator app, recovery codes and passkeys"), "{mail}");
        let r = server.post("/api/auth/login", json!({ "email": owner, "password": password }), None).await;
        assert!(r.session_cookie.is_some() && r.body.get("secondFactor").is_none(), "{}", r.body);

        // The operator's way back in for the last administrator (`sitecast reset-factors`).
        let manager_factors = security(&mut manager, 13, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(manager_factors.totp);
        // As an operator types it: spaces around, capitals.
        sitecast::domain::identity::security::reset_factors_of(&server.state.svc, &format!(" {} ", manager_email.to_uppercase())).await.unwrap();
        let mail = server.wait_for_mail(manager_email, "Your Sitecast sign-in factors were reset").await;
        assert!(mail.contains("the operator of this Sitecast installation removed"), "{mail}");
        let unknown = sitecast::domain::identity::security::reset_factors_of(&server.state.svc, "nobody@example.com").await.unwrap_err();
        assert_eq!(unknown.code(), ErrorCode::NotFound);
        server.stop().await;
        db
    })
    .await;
}

async fn ws_reset(ws: &mut WsClient, id: u32, user_id: &str) -> Result<Response, ApiError> {
    ws.request(id, Request::ResetFactors(ResetFactors { user_id: user_id.to_owned() })).await
}

#[actix_web::test]
async fn the_devices_list_signs_sessions_out_and_a_new_device_is_mailed() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = security_world(&server).await;
        let (homeowner, password) = (world.users["homeowner"].email.as_str(), world.password.as_str());
        let phone_ua = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
        let desk_ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        let sign_in = |ua: &'static str| {
            let server = &server;
            async move {
                let r = server
                    .post_with(
                        "/api/auth/login",
                        json!({ "email": homeowner, "password": password }),
                        &[("Origin", ORIGIN), ("User-Agent", ua)],
                    )
                    .await;
                r.session_cookie.expect("signed in")
            }
        };
        let desk = sign_in(desk_ua).await;
        let mails_before = server.mail_count(homeowner).await;
        let desk_again = sign_in(desk_ua).await;
        assert_eq!(server.mail_count(homeowner).await, mails_before, "a browser the account used before is not news");
        let phone = sign_in(phone_ua).await;
        let mail = server.wait_for_mail(homeowner, "New sign-in to your Sitecast account").await;
        assert!(mail.contains("from Safari 17 on iOS 17.4 (This computer)"), "{mail}");

        let mut here = open(&server, &desk).await;
        let mut on_phone = open(&server, &phone).await;
        let mut again = open(&server, &desk_again).await;
        let list = security(&mut here, 1, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(list.devices.len() >= 3);
        assert!(list.devices[0].current, "this session first");
        let iphone = list.devices.iter().find(|d| d.system.starts_with("iOS")).expect("the phone");
        assert_eq!((iphone.browser.as_str(), iphone.kind.as_str()), ("Safari 17", "phone"));
        let chrome = &list.devices[0];
        assert_eq!((chrome.browser.as_str(), chrome.system.as_str(), chrome.kind.as_str()), ("Chrome 131", "Linux", "desktop"));

        // One session signed out: its socket ends with the reason, its cookie is dead.
        let phone_id = iphone.id.clone();
        let after = security(&mut here, 2, Request::EndSession(EndSession { id: phone_id.clone() })).await.unwrap();
        assert!(after.devices.iter().all(|d| d.id != phone_id));
        let reason = on_phone.event(|e| match e {
            Event::SessionEnded { reason } => Some(reason.clone()),
            _ => None,
        });
        assert_eq!(reason.await, "signed_out_elsewhere");
        assert_eq!(server.get("/api/auth/me", Some(&phone)).await.status, StatusCode::UNAUTHORIZED);
        // Not someone else's, not this one.
        let refused = security(&mut here, 3, Request::EndSession(EndSession { id: phone_id })).await.unwrap_err();
        assert_eq!(refused.message, "That is not one of your sessions.");
        let own = list.devices[0].id.clone();
        let refused = security(&mut here, 4, Request::EndSession(EndSession { id: own })).await.unwrap_err();
        assert_eq!(refused.message, "To end this session, sign out.");
        let mut admin = open(&server, &world.users["admin"].session).await;
        let admins = security(&mut admin, 1, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        let theirs = admins.devices[0].id.clone();
        let refused = security(&mut here, 5, Request::EndSession(EndSession { id: theirs })).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::NotFound);

        // Everywhere else: the other desk session ends, this one stays.
        let left = security(&mut here, 6, Request::EndOtherSessions(EndOtherSessions {})).await.unwrap();
        assert_eq!(left.devices.len(), 1);
        let reason = again.event(|e| match e {
            Event::SessionEnded { reason } => Some(reason.clone()),
            _ => None,
        });
        assert_eq!(reason.await, "signed_out_elsewhere");
        assert!(matches!(here.request(7, Request::Ping(protocol::Ping {})).await, Ok(Response::Pong)));
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn sign_in_s_second_step_refuses_bad_input_without_a_500() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = security_world(&server).await;
        for body in [json!({}), json!({"ticket": "nope", "code": "123456"}), json!({"ticket": 5, "code": []})] {
            let r = server.post("/api/auth/login/code", body.clone(), None).await;
            assert!(r.status == StatusCode::BAD_REQUEST, "{body} → {} {}", r.status, r.body);
        }
        for body in [json!({"challengeId": "nope", "credential": {}}), json!({"challengeId": "x", "credential": "not an object"})] {
            let r = server.post("/api/auth/passkey", body.clone(), None).await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body} → {}", r.body);
        }
        // Options for a password-less sign-in: a challenge, no credentials named.
        let r = server.post("/api/auth/passkey/options", json!({}), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert!(r.body["options"]["publicKey"]["challenge"].is_string());
        assert!(r.body["options"]["publicKey"].get("allowCredentials").is_none_or(|a| a.as_array().is_some_and(Vec::is_empty)));
        assert_eq!(r.body["options"]["publicKey"]["rpId"], "sitecast.test");
        // Its challenge answered with garbage: refused, and spent.
        let challenge = r.body["challengeId"].as_str().unwrap();
        let bogus = json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {"clientDataJSON": "e30", "authenticatorData": "AAAA", "signature": "AAAA"}});
        let r = server.post("/api/auth/passkey", json!({"challengeId": challenge, "credential": bogus}), None).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
        assert_eq!(r.body["message"], "This passkey is not set up for any Sitecast account.");
        let r = server.post("/api/auth/passkey", json!({"challengeId": challenge, "credential": bogus}), None).await;
        assert_eq!(r.body["message"], "That took too long. Please try again.");

        // Begun without an account, each stores a challenge: an address may begin sixty
        // a minute (one was begun above).
        let mut statuses = Vec::new();
        for _ in 0..60 {
            statuses.push(server.post("/api/auth/passkey/options", json!({}), None).await.status);
        }
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 59, "{statuses:?}");
        assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));

        // A passkey's creation options ask for a discoverable credential where possible.
        let mut ws = open(&server, &world.users["homeowner"].session).await;
        let Ok(Response::PasskeyChallenge { options, .. }) = ws.request(1, Request::StartPasskey(protocol::StartPasskey {})).await else {
            panic!("start_passkey")
        };
        let options: Value = serde_json::from_str(&options).unwrap();
        assert_eq!(options["publicKey"]["authenticatorSelection"]["residentKey"], "preferred");
        assert_eq!(options["publicKey"]["rp"]["id"], "sitecast.test");
        assert_eq!(options["publicKey"]["user"]["name"], world.users["homeowner"].email.as_str());
        server.stop().await;
        db
    })
    .await;
}

/// Browsers (and the software key) make passkeys only on https or localhost: servers
/// that test them are reached as http://localhost (the test client's Origin stays
/// allowed beside it).
pub fn passkey_server() -> Options {
    Options {
        extra: vec![("public-url".into(), "http://localhost".into()), ("allowed-origins".into(), ORIGIN.into())],
        ..Options::default()
    }
}

fn origin() -> url::Url {
    url::Url::parse("http://localhost").expect("the passkey origin")
}

/// Adds a passkey made by `key` (a software authenticator) to the socket's account.
pub async fn add_passkey(ws: &mut WsClient, id: u32, key: &mut SoftPasskey, name: &str) -> Result<Security, ApiError> {
    let Ok(Response::PasskeyChallenge { challenge_id, options }) = ws.request(id, Request::StartPasskey(protocol::StartPasskey {})).await
    else {
        panic!("start_passkey")
    };
    let credential = register_with(key, &options);
    security(ws, id + 1, Request::AddPasskey(protocol::AddPasskey { challenge_id, name: name.into(), credential })).await
}

/// Answers creation options (JSON) with a new credential of `key`, as JSON.
pub fn register_with(key: &mut SoftPasskey, options: &str) -> String {
    let options: CreationChallengeResponse = serde_json::from_str(options).expect("creation options");
    let credential = key.do_registration(origin(), options).unwrap_or_else(|e| panic!("the authenticator makes no credential: {e:?}"));
    serde_json::to_string(&credential).unwrap()
}

/// Answers a request challenge (JSON) with `key`.
pub fn assert_with(key: &mut SoftPasskey, options: &str) -> String {
    let options: RequestChallengeResponse = serde_json::from_str(options).expect("request options");
    serde_json::to_string(&key.do_authentication(origin(), options).expect("the authenticator signs")).unwrap()
}

#[actix_web::test]
async fn passkeys_are_added_named_used_as_a_second_factor_and_removed() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, passkey_server()).await;
        let world = security_world(&server).await;
        let (homeowner, password) = (world.users["homeowner"].email.as_str(), world.password.as_str());
        let mut ws = open(&server, &world.users["homeowner"].session).await;
        let mut key = SoftPasskey::new(true);
        let added = add_passkey(&mut ws, 1, &mut key, "  Work laptop ").await.unwrap();
        assert_eq!(added.passkeys.len(), 1);
        assert_eq!(added.passkeys[0].name, "Work laptop");
        assert!(added.passkeys[0].last_used_at.is_none() && added.factor_at.is_some());
        let id = added.passkeys[0].id.clone();
        let renamed = security(&mut ws, 3, Request::RenamePasskey(protocol::RenamePasskey { id: id.clone(), name: "Phone".into() })).await;
        assert_eq!(renamed.unwrap().passkeys[0].name, "Phone");
        let blank = security(&mut ws, 4, Request::RenamePasskey(protocol::RenamePasskey { id: id.clone(), name: " ".into() })).await;
        assert_eq!(blank.unwrap_err().fields[0].message, "Give the passkey a name.");
        // The same authenticator twice is excluded by the options; a replayed answer
        // to a spent challenge is refused.
        let Ok(Response::PasskeyChallenge { challenge_id, .. }) = ws.request(5, Request::StartPasskey(protocol::StartPasskey {})).await
        else {
            panic!("start")
        };
        let garbage = Request::AddPasskey(protocol::AddPasskey { challenge_id: challenge_id.clone(), name: "X".into(), credential: "{]".into() });
        assert_eq!(ws.request(6, garbage).await.unwrap_err().message, "That passkey could not be used. Please try again.");
        let again = Request::AddPasskey(protocol::AddPasskey { challenge_id, name: "X".into(), credential: "{}".into() });
        assert_eq!(ws.request(7, again).await.unwrap_err().message, "That took too long. Please try again.");

        // Sign-in: the password, then the passkey on the sign-in's ticket.
        let step = password_step(&server, homeowner, password).await;
        assert_eq!(step["methods"], json!(["passkey"]));
        let r = server.post("/api/auth/passkey/options", json!({ "ticket": step["ticket"] }), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let allowed = r.body["options"]["publicKey"]["allowCredentials"].as_array().map(Vec::len);
        assert_eq!(allowed, Some(1), "the account's passkey is named");
        let answer = assert_with(&mut key, &r.body["options"].to_string());
        let answer: Value = serde_json::from_str(&answer).unwrap();
        let signed = server.post("/api/auth/passkey", json!({ "challengeId": r.body["challengeId"], "credential": answer }), None).await;
        assert_eq!(signed.status, StatusCode::OK, "{}", signed.body);
        assert!(signed.session_cookie.is_some());
        assert_eq!(signed.body["user"]["email"], homeowner);
        let replay = server.post("/api/auth/passkey", json!({ "challengeId": r.body["challengeId"], "credential": answer }), None).await;
        assert_eq!(replay.body["message"], "That took too long. Please try again.");
        // Its ticket went with it.
        let r = server.post("/api/auth/login/code", json!({ "ticket": step["ticket"], "code": "123456" }), None).await;
        assert_eq!(r.body["message"], "This sign-in has expired. Please sign in again.");
        // Another account's passkey does not finish this account's sign-in.
        let mut stranger_key = SoftPasskey::new(true);
        let mut stranger = open(&server, &world.users["owner"].session).await;
        add_passkey(&mut stranger, 1, &mut stranger_key, "Owner's key").await.unwrap();
        let step = password_step(&server, homeowner, password).await;
        let r = server.post("/api/auth/passkey/options", json!({ "ticket": step["ticket"] }), None).await;
        let mut options: Value = r.body["options"].clone();
        // (Point the request at the stranger's credential, as a forged client would.)
        let stranger_security = security(&mut stranger, 3, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert_eq!(stranger_security.passkeys.len(), 1);
        options["publicKey"]["allowCredentials"] = json!([]);
        let forged = key_answer_or_none(&mut stranger_key, &options);
        if let Some(forged) = forged {
            let r = server.post("/api/auth/passkey", json!({ "challengeId": r.body["challengeId"], "credential": forged }), None).await;
            assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
        }
        let used = security(&mut ws, 8, Request::GetSecurity(protocol::GetSecurity {})).await.unwrap();
        assert!(used.passkeys[0].last_used_at.is_some(), "its use is recorded");

        // Proving the factor again with the passkey (what a sensitive action asks for
        // after 15 minutes), then removing the passkey without the password: the
        // passkey just used stands for it.
        let signed_cookie = signed.session_cookie.clone().unwrap();
        let mut other = open(&server, &signed_cookie).await;
        let Ok(Response::PasskeyChallenge { challenge_id, options }) =
            other.request(1, Request::StartFactorPasskey(protocol::StartFactorPasskey {})).await
        else {
            panic!("step-up options")
        };
        let credential = assert_with(&mut key, &options);
        other.request(2, Request::VerifyFactorPasskey(protocol::VerifyFactorPasskey { challenge_id, credential })).await.unwrap();
        let removed = security(&mut other, 3, Request::RemovePasskey(protocol::RemovePasskey { id, password: String::new() })).await.unwrap();
        assert!(removed.passkeys.is_empty());
        let r = server.post("/api/auth/login", json!({ "email": homeowner, "password": password }), None).await;
        assert!(r.session_cookie.is_some(), "the password alone again");
        server.stop().await;
        db
    })
    .await;
}

/// The software key's answer to options naming no credential, if it gives one (it
/// keeps no discoverable credentials, so it may not).
fn key_answer_or_none(key: &mut SoftPasskey, options: &Value) -> Option<Value> {
    let options: RequestChallengeResponse = serde_json::from_value(options.clone()).ok()?;
    key.do_authentication(origin(), options).ok().map(|c| serde_json::to_value(&c).unwrap())
}
