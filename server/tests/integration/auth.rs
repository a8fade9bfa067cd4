//! Sign-up, confirmation, login, logout, forgot/reset and invitations over real HTTP.

use awc::http::StatusCode;
use protocol::Role;
use serde_json::{json, Value};
use sitecast::domain::identity::auth::InviteInput;
use sitecast::domain::shared::passwords::Passwords;

use crate::support::{for_each_backend, link_token, Options, TestServer, TestSql, WorldSpec, ORIGIN};

/// People and no projects: what the tests of signing in need.
fn people() -> WorldSpec {
    WorldSpec { projects: 0, photos: 0, homeowners: 1, ..WorldSpec::default() }
}

fn fields(body: &Value) -> Vec<(String, String)> {
    body["fields"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .map(|f| (f["field"].as_str().unwrap_or("").to_owned(), f["message"].as_str().unwrap_or("").to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

#[actix_web::test]
async fn every_form_rule_is_enforced_by_the_server_with_spec_messages() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;

    let r = server.post("/api/auth/login", json!({}), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.body["code"], "validation");
    assert_eq!(fields(&r.body), pairs(&[("email", "You must provide either an email or phone number and a password.")]));

    let r = server.post("/api/auth/login", json!({"email": "not-an-email", "password": "12345"}), None).await;
    assert_eq!(
        fields(&r.body),
        pairs(&[("email", "Please enter a valid email address."), ("password", "Password must be at least 6 characters.")])
    );
    assert_eq!(r.body["message"], "Please enter a valid email address.");

    let r = server.post("/api/auth/signup", json!({"email": "x@y.co", "password": "longenough", "confirmPassword": "longenough"}), None).await;
    assert_eq!(fields(&r.body), pairs(&[("role", "Please select a role.")]));

    let r = server
        .post("/api/auth/signup", json!({"role": "admin", "email": "x@y.co", "password": "longenough", "confirmPassword": "longenough"}), None)
        .await;
    assert_eq!(fields(&r.body), pairs(&[("role", "Please select a role.")]), "self-signup as admin is refused");

    let r = server
        .post("/api/auth/signup", json!({"role": "homeowner", "email": "bad", "password": "short", "confirmPassword": "other", "firstName": " ", "lastName": ""}), None)
        .await;
    assert_eq!(
        fields(&r.body),
        pairs(&[
            ("firstName", "First name is required"),
            ("lastName", "Last name is required"),
            ("email", "Please enter a valid email address."),
            ("password", "Password must be at least 8 characters long."),
            ("confirmPassword", "Passwords don't match"),
        ])
    );

    let r = server
        .post("/api/auth/signup", json!({"role": "builder", "email": "b@y.co", "password": "longenough", "confirmPassword": "longenough", "name": ""}), None)
        .await;
    assert_eq!(fields(&r.body), pairs(&[("name", "Name is required")]));

    let r = server.post("/api/auth/forgot", json!({"email": "nope"}), None).await;
    assert_eq!(fields(&r.body), pairs(&[("email", "Please enter a valid email address.")]));

    let r = server.post("/api/auth/reset", json!({"token": "t", "password": "abcde", "confirmPassword": "abcdf"}), None).await;
    assert_eq!(
        fields(&r.body),
        pairs(&[("password", "Password must be at least 6 characters."), ("confirmPassword", "Passwords don't match")])
    );

    // SPEC.md §5: a weak password comes back with every reason (the web app's rules).
    let r = server.post("/api/auth/reset", json!({"token": "t", "password": "111111", "confirmPassword": "111111"}), None).await;
    assert_eq!(
        fields(&r.body),
        pairs(&[
            ("password", "Password cannot be only numbers."),
            ("password", "Password cannot be a single repeated character."),
            ("password", "Password is too common. Choose one that is harder to guess."),
        ])
    );
    let r = server
        .post("/api/auth/signup", json!({"role": "builder", "email": "c@y.co", "password": "Password123", "confirmPassword": "Password123", "name": "Acme"}), None)
        .await;
    assert_eq!(fields(&r.body), pairs(&[("password", "Password is too common. Choose one that is harder to guess.")]));

    // Malformed bodies get our error shape, not a framework page.
    let r = server.post_with("/api/auth/login", json!("just a string"), &[("Origin", ORIGIN)]).await;
    assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let big = "x".repeat(40_000);
    let r = server.post("/api/auth/login", json!({"email": big, "password": "x"}), None).await;
    assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large")));
    let r = server.get("/api/nope", None).await;
    assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
    server.stop().await;
}

#[actix_web::test]
async fn sign_up_confirm_login_logout_on_each_backend() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let email = "New.Owner@Example.com";
        let r = server
            .post(
                "/api/auth/signup",
                json!({"role": "homeowner", "email": email, "password": "s3cret-pass", "confirmPassword": "s3cret-pass",
                       "firstName": "Nora", "lastName": "Owens", "name": "", "phone": ""}),
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        assert_eq!(r.body["email"], "new.owner@example.com", "emails are stored lowercased");

        // Unconfirmed: the right password gets "Email not confirmed"; a wrong one does not.
        let r = server.post("/api/auth/login", json!({"email": email, "password": "s3cret-pass"}), None).await;
        assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::FORBIDDEN, Some("Email not confirmed")));
        assert!(r.session_cookie.is_none());
        let r = server.post("/api/auth/login", json!({"email": email, "password": "wrong-pass"}), None).await;
        assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::UNAUTHORIZED, Some("Invalid login credentials")));

        // Signing up again with the same address says so (SPEC.md §8 "User Exists").
        let r = server
            .post("/api/auth/signup", json!({"role": "builder", "email": email, "password": "another-pass", "confirmPassword": "another-pass", "name": "Acme"}), None)
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT);
        assert_eq!(r.body["code"], "user_exists");
        assert_eq!(r.body["message"], "This email is already registered but not confirmed. Please check your email or try logging in.");

        let mail = server.wait_for_mail("new.owner@example.com", "Confirm your Sitecast account").await;
        assert!(mail.contains("Hi Nora,"));
        let token = link_token(&mail);
        let r = server.get(&format!("/api/auth/confirm?token={token}"), None).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER);
        assert_eq!(r.headers.get("location").unwrap(), "/login?confirmed=1");
        let r = server.get(&format!("/api/auth/confirm?token={token}"), None).await;
        assert_eq!(r.headers.get("location").unwrap(), "/login?confirm=invalid", "confirmation links work once");

        let r = server.post("/api/auth/login", json!({"email": email, "password": "s3cret-pass"}), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(r.body["user"]["role"], "homeowner");
        assert_eq!(r.body["user"]["name"], "Nora Owens");
        assert!(r.body["user"].get("passwordHash").is_none() && !r.body.to_string().contains("argon2"));
        let cookie = r.session_cookie.unwrap();
        let set_cookie = r.headers.get("set-cookie").unwrap().to_str().unwrap().to_owned();
        assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"), "{set_cookie}");

        let me = server.get("/api/auth/me", Some(&cookie)).await;
        assert_eq!((me.status, me.body["user"]["email"].as_str()), (StatusCode::OK, Some("new.owner@example.com")));
        // The token is stored hashed: the cookie value is nowhere in the database.
        let stored: i64 = TestSql::new("SELECT COUNT(*) FROM sessions WHERE token_hash = $1")
            .bind(&cookie)
            .scalar(server.state.store.pool())
            .await
            .unwrap();
        assert_eq!(stored, 0);

        let r = server.post("/api/auth/logout", json!({}), Some(&cookie)).await;
        assert_eq!(r.status, StatusCode::NO_CONTENT);
        let me = server.get("/api/auth/me", Some(&cookie)).await;
        assert_eq!((me.status, me.body["message"].as_str()), (StatusCode::UNAUTHORIZED, Some("Auth session missing!")));
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn forgot_and_reset_password_single_use_links_and_no_account_oracle() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = server.world(people()).await;
        let email = world.users["homeowner"].email.as_str();
        let old_cookie = server.login(email, &world.password).await;

        let known = server.post("/api/auth/forgot", json!({"email": email}), None).await;
        let unknown = server.post("/api/auth/forgot", json!({"email": "nobody@world.test"}), None).await;
        assert_eq!(known.status, StatusCode::OK);
        assert_eq!((known.status, &known.body), (unknown.status, &unknown.body), "same answer either way");
        assert_eq!(known.body["message"], "If an account exists for this email, a password reset link has been sent.");

        let mail = server.wait_for_mail(email, "Reset your Sitecast password").await;
        let token = link_token(&mail);
        assert!(mail.contains(&format!("{ORIGIN}/reset-password?token={token}")));
        assert_eq!(server.mail_count("nobody@world.test").await, 0);

        let check = server.get(&format!("/api/auth/reset/check?token={token}"), None).await;
        assert_eq!((check.body["kind"].as_str(), check.body["email"].as_str()), (Some("reset"), Some(email)));

        let r = server.post("/api/auth/reset", json!({"token": token, "password": "brand-new", "confirmPassword": "brand-new"}), None).await;
        assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::OK, Some("You can now log in with your new password.")));
        // Reused link.
        let r = server.post("/api/auth/reset", json!({"token": token, "password": "again-new", "confirmPassword": "again-new"}), None).await;
        assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_token")));
        assert_eq!(r.body["message"], "This link is invalid or has expired. Please request a new one.");
        let check = server.get(&format!("/api/auth/reset/check?token={token}"), None).await;
        assert_eq!(check.body["code"], "invalid_token");

        // The old session ended with the password change; old password is gone.
        assert_eq!(server.get("/api/auth/me", Some(&old_cookie)).await.status, StatusCode::UNAUTHORIZED);
        let r = server.post("/api/auth/login", json!({"email": email, "password": world.password}), None).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        server.login(email, "brand-new").await;

        // An expired link is refused even if never used.
        server.post("/api/auth/forgot", json!({"email": email}), None).await;
        let fresh = loop {
            let text = server.wait_for_mail(email, "Reset your Sitecast password").await;
            if link_token(&text) != token {
                break link_token(&text);
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        TestSql::per_backend(
            "UPDATE auth_tokens SET expires_at = 0 WHERE used_at IS NULL",
            "UPDATE auth_tokens SET expires_at = TIMESTAMPTZ 'epoch' WHERE used_at IS NULL",
        )
        .execute(server.state.store.pool())
        .await
        .unwrap();
        let r = server.post("/api/auth/reset", json!({"token": fresh, "password": "whatever1", "confirmPassword": "whatever1"}), None).await;
        assert_eq!(r.body["code"], "invalid_token");
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn invitation_link_sets_the_first_password() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    let (profile, link) = server
        .state
        .auth
        .invite(&InviteInput { email: "Invited@Example.com", role: Role::Admin, name: "Ida Vance", first_name: None, last_name: None, phone: Some("555"), builder_id: None, company: None })
        .await
        .unwrap();
    assert_eq!((profile.email.as_str(), profile.first_name.as_deref(), profile.last_name.as_deref()), ("invited@example.com", Some("Ida"), Some("Vance")));
    let mail = server.wait_for_mail("invited@example.com", "You're invited to Sitecast").await;
    assert!(mail.contains(&link) && link.starts_with(&format!("{ORIGIN}/reset-password?token=")));

    // No password yet: nothing logs in.
    let r = server.post("/api/auth/login", json!({"email": "invited@example.com", "password": "anything"}), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let again = server
        .state
        .auth
        .invite(&InviteInput { email: "invited@example.com", role: Role::Builder, name: "X", first_name: None, last_name: None, phone: None, builder_id: None, company: None })
        .await
        .unwrap_err();
    assert_eq!(again.api.message, "User with email invited@example.com already exists.");

    let token = link_token(&link);
    let check = server.get(&format!("/api/auth/reset/check?token={token}"), None).await;
    assert_eq!(check.body["kind"], "invite");
    let r = server.post("/api/auth/reset", json!({"token": token, "password": "first-pass", "confirmPassword": "first-pass"}), None).await;
    assert_eq!(r.status, StatusCode::OK);
    let cookie = server.login("invited@example.com", "first-pass").await;
    let me = server.get("/api/auth/me", Some(&cookie)).await;
    assert_eq!(me.body["user"]["role"], "admin");
    assert!(me.body["user"]["emailConfirmedAt"].is_number(), "accepting an invite proves the mailbox");
    server.stop().await;
}

#[actix_web::test]
async fn repeated_failures_lock_the_account_then_the_address() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = server.world(people()).await;
        let email = world.users["owner"].email.as_str();
        for _ in 0..5 {
            let r = wrong_password(&server, email).await;
            assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        }
        // Even the right password waits now.
        let r = server.post("/api/auth/login", json!({"email": email, "password": world.password}), None).await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.body["code"], "rate_limited");
        assert_eq!(r.body["message"], "Too many failed login attempts. Please try again in 15 minutes.");
        assert!(r.headers.get("retry-after").is_some());
        // Other accounts are unaffected until the address itself has failed too often;
        // the refused attempts above and a successful login did not count against it.
        let admin = world.users["admin"].email.as_str();
        server.login(admin, &world.password).await;
        for i in 0..15 {
            let r = wrong_password(&server, &format!("guess{i}@world.test")).await;
            assert_eq!(r.status, StatusCode::UNAUTHORIZED, "attempt {i}");
        }
        let r = server.post("/api/auth/login", json!({"email": admin, "password": world.password}), None).await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "20 failures from one address lock the address");
        server.stop().await;
        db
    })
    .await;
}

async fn wrong_password(server: &TestServer, email: &str) -> crate::support::Resp {
    server.post("/api/auth/login", json!({"email": email, "password": "wrong-one"}), None).await
}

/// Two instances on one database, the way several sit behind fly.io's proxy.
fn two_instances(db_name: &str) -> bool {
    db_name == "postgres"
}

#[actix_web::test]
async fn wrong_passwords_spread_over_instances_lock_the_account_on_each() {
    for_each_backend(|db| async move {
        if !two_instances(db.name) {
            return db;
        }
        let a = TestServer::start(&db.url, Options::default()).await;
        let b = TestServer::start(&db.url, Options::default()).await;
        let world = a.world(people()).await;
        let email = world.users["homeowner"].email.as_str();
        for server in [&a, &b, &a, &b, &a] {
            assert_eq!(wrong_password(server, email).await.status, StatusCode::UNAUTHORIZED);
        }
        for (name, server) in [("A", &a), ("B", &b)] {
            let r = server.post("/api/auth/login", json!({"email": email, "password": world.password}), None).await;
            assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "locked on {name}");
        }
        // A password reset through either instance lifts the lock on both.
        a.post("/api/auth/forgot", json!({"email": email}), None).await;
        let token = link_token(&a.wait_for_mail(email, "Reset your Sitecast password").await);
        let r = b.post("/api/auth/reset", json!({"token": token, "password": "fresh-one", "confirmPassword": "fresh-one"}), None).await;
        assert_eq!(r.status, StatusCode::OK);
        a.login(email, "fresh-one").await;
        a.stop().await;
        b.stop().await;
        db
    })
    .await;
}

/// Counting happens before the password check, atomically in the database: a burst of
/// concurrent guesses, spread over two instances, gets exactly five passwords checked
/// and the rest refused, however the requests interleave. Repeated, because a
/// check-then-record limiter passes a lucky round.
#[actix_web::test]
async fn concurrent_guesses_get_five_checks_and_no_more() {
    for_each_backend(|db| async move {
        let a = TestServer::start(&db.url, Options::default()).await;
        // SQLite serves one instance: the burst all goes to it.
        let b = if two_instances(db.name) {
            Some(TestServer::start(&db.url, Options::default()).await)
        } else {
            None
        };
        let servers: Vec<&TestServer> = [Some(&a), b.as_ref()].into_iter().flatten().collect();
        let world = a.world(people()).await;
        let email = world.users["owner"].email.as_str();
        for round in 0..25 {
            // Each round starts unlocked (and the address's twenty are not used up).
            TestSql::new("DELETE FROM login_failures").execute(a.state.store.pool()).await.unwrap();
            let burst = (0..20).map(|i| wrong_password(servers[i % servers.len()], email));
            let statuses: Vec<StatusCode> = futures_util::future::join_all(burst).await.into_iter().map(|r| r.status).collect();
            let checked = statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
            let refused = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
            assert_eq!((checked, refused), (5, 15), "round {round}: {statuses:?}");
            for server in &servers {
                let r = server.post("/api/auth/login", json!({"email": email, "password": world.password}), None).await;
                assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "round {round}: the right password waits too");
            }
        }
        a.stop().await;
        if let Some(b) = b {
            b.stop().await;
        }
        db
    })
    .await;
}

#[actix_web::test]
async fn foreign_origins_cannot_post_and_demo_config_is_published() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options { demo: true, ..Options::default() }).await;
    let r = server
        .post_with("/api/auth/login", json!({"email": "admin@sitecast.demo", "password": "sitecast-demo"}), &[("Origin", "https://evil.example")])
        .await;
    assert_eq!((r.status, r.body["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));
    assert!(r.session_cookie.is_none());
    let config = server.get("/api/config", None).await;
    assert_eq!(config.body["demo"]["password"], "sitecast-demo");
    let roles: Vec<&str> = config.body["demo"]["accounts"].as_array().unwrap().iter().filter_map(|a| a["role"].as_str()).collect();
    assert_eq!(roles, ["admin", "builder", "homeowner"]);
    let health = server.get("/api/health", None).await;
    assert_eq!(health.body["status"], "ok");
    server.stop().await;

    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;
    assert!(server.get("/api/config", None).await.body["demo"].is_null(), "no demo accounts when demo is off");
    let r = server.post("/api/auth/login", json!({"email": "admin@sitecast.demo", "password": "sitecast-demo"}), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    server.stop().await;
}

#[actix_web::test]
async fn demo_seeding_is_idempotent_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/t.db", dir.path().display());
    let server = TestServer::start(&url, Options { demo: true, ..Options::default() }).await;
    let count = async |s: &TestServer, sql: &'static str| TestSql::new(sql).scalar::<i64>(s.state.store.pool()).await.unwrap();
    let counts = async |s: &TestServer| {
        (
            count(s, "SELECT COUNT(*) FROM users").await,
            count(s, "SELECT COUNT(*) FROM projects").await,
            count(s, "SELECT COUNT(*) FROM project_images").await,
        )
    };
    let before = counts(&server).await;
    assert_eq!(before.0, 6, "four people and the demo company's manager and crew member");
    assert!(before.1 >= 3 && before.2 >= 3 * before.1 / 2, "a few projects, several photos each: {before:?}");
    server.stop().await;
    let server = TestServer::start(&url, Options { demo: true, ..Options::default() }).await;
    let after = counts(&server).await;
    assert_eq!(before, after);
    server.stop().await;
}

/// Hashes made with the earlier default (19 MiB, t=2) still log in, and that login
/// stores a fresh hash with the current settings; a wrong password changes nothing.
#[actix_web::test]
async fn older_password_hashes_log_in_and_are_rehashed() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let (profile, _) = server
            .state
            .auth
            .invite(&InviteInput { email: "olga@example.com", role: Role::Homeowner, name: "Olga Old", first_name: None, last_name: None, phone: None, builder_id: None, company: None })
            .await
            .unwrap();
        let earlier = Passwords::with_params(argon2::Params::new(19 * 1024, 2, 1, None).unwrap()).unwrap();
        let old = earlier.hash("kept-since-2024").await.unwrap();
        assert!(old.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        let pool = server.state.store.pool();
        TestSql::per_backend(
            "UPDATE users SET password_hash = $1, email_confirmed_at = $2 WHERE id = $3",
            "UPDATE users SET password_hash = $1, email_confirmed_at = TIMESTAMPTZ 'epoch' + $2 * INTERVAL '1 millisecond' WHERE id = $3::uuid",
        )
        .bind(&old)
        .bind(1_i64)
        .bind(&profile.id)
        .execute(pool)
        .await
        .unwrap();
        let stored = || async {
            TestSql::per_backend("SELECT password_hash FROM users WHERE id = $1", "SELECT password_hash FROM users WHERE id = $1::uuid")
                .bind(&profile.id)
                .scalar::<String>(pool)
                .await
                .unwrap()
        };

        let r = server.post("/api/auth/login", json!({"email": "olga@example.com", "password": "not-the-one"}), None).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        assert_eq!(stored().await, old, "a wrong password does not rehash");

        let cookie = server.login("olga@example.com", "kept-since-2024").await;
        let fresh = stored().await;
        assert!(fresh.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "rehashed with the current settings: {fresh}");
        assert_eq!(server.get("/api/auth/me", Some(&cookie)).await.status, StatusCode::OK);

        // The fresh hash logs in and is left alone from now on.
        server.login("olga@example.com", "kept-since-2024").await;
        assert_eq!(stored().await, fresh);
        server.stop().await;
        db
    })
    .await;
}
