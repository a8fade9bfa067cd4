//! The one outbox: mail and pushes wait in one table and leave through one worker, each
//! kind by its own rules. Against a real SMTP server (aiosmtpd) and a real push service
//! (`scripts/push_service.py`) on loopback: a mail and a push queued together both go;
//! a push whose service keeps failing is retried with its backoff and dropped after
//! five tries while mail goes on, and mail is never dropped; a mail server that hangs
//! holds up mail only, and the lease it holds keeps a second worker off; two workers
//! (two instances on Postgres) racing for the queue send each message once.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use sitecast::mail::push::{client, PushSender};
use sitecast::mail::sender::MailSender;
use sitecast::mail::worker::{push_retry_delay_ms, OutboxWorker};
use sitecast::store::outbox::{self, NewMail, NewPush, OutboxPending};
use sitecast::store::{new_id, now_ms};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::push::{push_settings, received, service, subscribe};
use crate::support::{for_each_backend, free_port, maildir_messages, Helper, Options, TestServer, TestSql, WorldSpec};

async fn push_service() -> (Helper, u16) {
    let port = free_port();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/push_service.py");
    (Helper::start("python3", &[script, &port.to_string()], port).await, port)
}

fn options(smtp_port: u16, push_port: u16) -> Options {
    Options {
        smtp_url: Some(format!("smtp://127.0.0.1:{smtp_port}")),
        extra: vec![("push-services".into(), format!("127.0.0.1:{push_port}"))],
        ..Options::default()
    }
}

/// A new homeowner's browser with pushes on: its subscription's id, and its number at
/// the push service.
async fn device(server: &TestServer, push_port: u16) -> (String, String) {
    let world = server.world(WorldSpec { projects: 0, photos: 0, ..WorldSpec::default() }).await;
    let (mut ws, _) = server.connect_with(&world.users["homeowner"].email, &world.password).await;
    let sub = service(push_port, "/subscribe").await;
    let settings = push_settings(&mut ws, 1, subscribe(&sub)).await.unwrap();
    let n = sub["endpoint"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    (settings.devices[0].id.clone(), n)
}

/// Queues mails `(to, subject)` and pushes `(subscription, tag)` in one transaction, as
/// a change that causes both does, and wakes the worker; their ids.
async fn queue(server: &TestServer, mails: &[(&str, &str)], pushes: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let mut tx = server.state.store.begin_write().await.unwrap();
    let mut ids = (Vec::new(), Vec::new());
    for (to, subject) in mails {
        let id = new_id();
        let mail = NewMail {
            id: &id,
            to_address: to,
            subject,
            body_text: "Text\n",
            body_html: "<p>HTML</p>",
            list_unsubscribe: None,
            attachment: None,
            now: now_ms(),
        };
        outbox::insert_mail(&mut tx, &mail).await.unwrap();
        ids.0.push(id);
    }
    for (subscription, tag) in pushes {
        let id = new_id();
        let payload = serde_json::json!({ "title": "A title", "body": "A body", "url": "/", "tag": tag }).to_string();
        outbox::insert_push(&mut tx, &NewPush { id: &id, subscription_id: subscription, payload: &payload, now: now_ms() }).await.unwrap();
        ids.1.push(id);
    }
    tx.commit().await.unwrap();
    server.state.auth.outbox.wake();
    ids
}

/// A queued message as the outbox holds it: attempts, last error, next attempt,
/// lease and when it was sent (times in milliseconds); `None` once it left the table.
type Row = (i32, Option<String>, i64, Option<i64>, Option<i64>);

async fn queued(server: &TestServer, id: &str) -> Option<Row> {
    TestSql::per_backend(
        "SELECT attempts, last_error, next_attempt_at, claimed_until, sent_at FROM outbox WHERE id = $1",
        "SELECT attempts, last_error, (EXTRACT(EPOCH FROM next_attempt_at) * 1000)::bigint, \
         (EXTRACT(EPOCH FROM claimed_until) * 1000)::bigint, (EXTRACT(EPOCH FROM sent_at) * 1000)::bigint \
         FROM outbox WHERE id = $1::uuid",
    )
    .bind(id)
    .fetch_optional(server.state.store.pool())
    .await
    .unwrap()
}

/// Makes a message due now instead of after its backoff.
async fn due_now(server: &TestServer, id: &str) {
    TestSql::per_backend(
        "UPDATE outbox SET next_attempt_at = 0 WHERE id = $1",
        "UPDATE outbox SET next_attempt_at = TIMESTAMPTZ 'epoch' WHERE id = $1::uuid",
    )
    .bind(id)
    .execute(server.state.store.pool())
    .await
    .unwrap();
}

async fn eventually<T>(what: &str, check: impl AsyncFn() -> Option<T>) -> T {
    for _ in 0..400 {
        if let Some(found) = check().await {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

async fn mail_arrives(maildir: &Path, subject: &str) -> String {
    let subject = format!("Subject: {subject}");
    eventually(&format!("{subject:?} at the SMTP server"), async || maildir_messages(maildir).into_iter().find(|m| m.contains(&subject))).await
}

/// A second worker on the same database, sending through the server's own transport
/// and push service (as a second instance's would).
async fn second_worker(server: &TestServer) -> (Arc<Notify>, CancellationToken, tokio::task::JoinHandle<()>) {
    let state = &server.state;
    let config = &state.config;
    let (wake, stop) = (Arc::new(Notify::new()), CancellationToken::new());
    let worker = OutboxWorker {
        store: state.store.clone(),
        mail: MailSender {
            transport: sitecast::app::mail_transport(config).unwrap(),
            files: state.photos.clone(),
            from: config.mail_from.parse().unwrap(),
        },
        push: Some(PushSender {
            store: state.store.clone(),
            key: sitecast::domain::messaging::push::vapid_key(&state.svc).await.ok().unwrap(),
            contact: config.push_contact(),
            client: client().unwrap(),
            services: config.push_services.clone(),
        }),
        wake: wake.clone(),
        stop: stop.clone(),
    };
    (wake, stop, tokio::spawn(worker.run()))
}

fn tags(pushes: &[Value]) -> BTreeSet<String> {
    pushes.iter().map(|p| p["payload"]["tag"].as_str().unwrap().to_owned()).collect()
}

fn subjects(maildir: &Path) -> BTreeSet<String> {
    maildir_messages(maildir)
        .iter()
        .filter_map(|m| m.lines().find_map(|l| l.strip_prefix("Subject: ")).map(str::to_owned))
        .collect()
}

#[actix_web::test]
async fn a_mail_and_a_push_queued_together_both_leave_through_the_one_worker() {
    for_each_backend(|db| async move {
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("maildir");
        let smtp_port = free_port();
        let _smtp = Helper::smtp(smtp_port, &maildir).await;
        let (_push, push_port) = push_service().await;
        let server = TestServer::start(&db.url, options(smtp_port, push_port)).await;
        let (subscription, _) = device(&server, push_port).await;

        let (mails, pushes) = queue(&server, &[("someone@example.com", "Both at once")], &[(&subscription, "both-at-once")]).await;
        let pushed = received(push_port, 1).await;
        assert_eq!(pushed[0]["payload"]["tag"], Value::from("both-at-once"), "decrypted by the push service: {pushed:?}");
        let mail = mail_arrives(&maildir, "Both at once").await;
        assert!(mail.contains("To: someone@example.com"), "{mail}");
        eventually("the outbox to empty", async || {
            (outbox::pending(server.state.store.pool()).await.unwrap() == OutboxPending::default()).then_some(())
        })
        .await;
        // The mail stays, marked sent after one try; the push left the table.
        let (attempts, error, _, lease, sent) = queued(&server, &mails[0]).await.expect("a sent mail stays");
        assert_eq!((attempts, error, lease), (1, None, None));
        assert!(sent.is_some());
        assert_eq!(queued(&server, &pushes[0]).await, None);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn a_failing_push_is_retried_then_dropped_while_mail_goes_on_and_mail_is_never_dropped() {
    for_each_backend(|db| async move {
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("maildir");
        let smtp_port = free_port();
        let smtp = Helper::smtp(smtp_port, &maildir).await;
        let (_push, push_port) = push_service().await;
        let server = TestServer::start(&db.url, options(smtp_port, push_port)).await;
        let (subscription, n) = device(&server, push_port).await;
        // The push service answers 503 for this browser from now on.
        awc::Client::default().post(format!("http://127.0.0.1:{push_port}/busy/{n}")).send().await.unwrap();

        let queued_at = now_ms();
        let (_, pushes) = queue(&server, &[("first@example.com", "First mail")], &[(&subscription, "failing")]).await;
        let push = pushes[0].clone();
        mail_arrives(&maildir, "First mail").await;

        // Each failure is recorded and waits the push's backoff (15 s, doubling); made
        // due at once here, it is tried again, up to five tries.
        let mut since = queued_at;
        for tries in 1..=4 {
            let (attempts, error, next, _, _) = eventually(&format!("try {tries} of the push to fail"), async || {
                queued(&server, &push).await.filter(|(attempts, _, _, lease, _)| *attempts == tries && lease.is_none())
            })
            .await;
            assert_eq!(attempts, tries);
            assert_eq!(error.as_deref(), Some("push service answered 503 Service Unavailable"));
            let delay = push_retry_delay_ms(tries);
            assert!(next >= since + delay && next <= now_ms() + delay, "try {tries}: due again after {delay} ms");
            if tries == 2 {
                // Mail queued meanwhile does not wait for the failing push.
                queue(&server, &[("second@example.com", "Second mail")], &[]).await;
                mail_arrives(&maildir, "Second mail").await;
            }
            since = now_ms();
            due_now(&server, &push).await;
        }
        eventually("the fifth failure to drop the push", async || queued(&server, &push).await.is_none().then_some(())).await;
        let turned_away = service(push_port, "/busy").await;
        assert_eq!(turned_away.as_array().unwrap().len(), 5, "five tries, then dropped: {turned_away}");
        assert!(service(push_port, "/received").await.as_array().unwrap().is_empty());

        // Mail, though, is tried for as long as it takes: past the push's five tries too.
        drop(smtp);
        let (mails, _) = queue(&server, &[("third@example.com", "Third mail")], &[]).await;
        let mail = mails[0].clone();
        eventually("the mail's first try to fail", async || queued(&server, &mail).await.filter(|q| q.0 == 1 && q.3.is_none())).await;
        TestSql::per_backend("UPDATE outbox SET attempts = 7 WHERE id = $1", "UPDATE outbox SET attempts = 7 WHERE id = $1::uuid")
            .bind(mail.as_str())
            .execute(server.state.store.pool())
            .await
            .unwrap();
        due_now(&server, &mail).await;
        server.state.auth.outbox.wake();
        let (_, error, next, _, sent) =
            eventually("the mail's eighth try to fail", async || queued(&server, &mail).await.filter(|q| q.0 == 8 && q.3.is_none())).await;
        assert!(error.is_some() && sent.is_none(), "still queued: {error:?}");
        assert!(next - now_ms() > 30 * 60 * 1000, "mail's backoff after eight tries is the hour: {next}");
        let _smtp = Helper::smtp(smtp_port, &maildir).await;
        due_now(&server, &mail).await;
        server.state.auth.outbox.wake();
        mail_arrives(&maildir, "Third mail").await;
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn a_hung_mail_server_holds_up_mail_only_and_its_lease_keeps_a_second_worker_off() {
    for_each_backend(|db| async move {
        // A mail server that takes connections and never says a word (lettre gives up
        // after 20 s; the test is done before).
        let hung = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let smtp_port = hung.local_addr().unwrap().port();
        let holding = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = hung.accept().await {
                held.push(socket);
            }
        });
        let (_push, push_port) = push_service().await;
        let server = TestServer::start(&db.url, options(smtp_port, push_port)).await;
        let (subscription, _) = device(&server, push_port).await;

        let started = Instant::now();
        let claimed_after = now_ms();
        let (mails, _) = queue(&server, &[("stuck@example.com", "Stuck")], &[(&subscription, "not-stuck")]).await;
        received(push_port, 1).await;
        assert!(started.elapsed() < Duration::from_secs(15), "the push did not wait for the mail: {:?}", started.elapsed());
        let mail = mails[0].clone();
        let (attempts, _, _, lease, sent) =
            eventually("the mail to be claimed", async || queued(&server, &mail).await.filter(|q| q.3.is_some())).await;
        let lease = lease.unwrap();
        assert_eq!((attempts, sent), (1, None));
        assert!(lease >= claimed_after + 120_000 && lease <= now_ms() + 120_000, "mail's lease is two minutes: {}", lease - claimed_after);

        // A second worker: the leased mail is not its to send; a new push goes once.
        let (wake, stop, second) = second_worker(&server).await;
        wake.notify_one();
        queue(&server, &[], &[(&subscription, "after-the-second-worker")]).await;
        wake.notify_one();
        assert_eq!(tags(&received(push_port, 2).await), ["after-the-second-worker".to_owned(), "not-stuck".to_owned()].into());
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(service(push_port, "/received").await.as_array().unwrap().len(), 2, "each push once");
        assert_eq!(queued(&server, &mail).await.map(|q| (q.0, q.3)), Some((1, Some(lease))), "the lease held: no second try");
        stop.cancel();
        tokio::time::timeout(Duration::from_secs(5), second).await.expect("the idle worker stops at once").unwrap();
        holding.abort();
        server.stop().await;
        db
    })
    .await;
}

/// Sends 12 mails and 12 pushes with two workers racing for them; each goes once.
async fn race(racers: [&TestServer; 2], subscription: &str, maildir: &Path, push_port: u16, extra_wake: Option<&Notify>) {
    let subjects_sent: Vec<String> = (0..12).map(|i| format!("Race {i:02}")).collect();
    let tags_sent: Vec<String> = (0..12).map(|i| format!("race-{i:02}")).collect();
    let mails: Vec<(&str, &str)> = subjects_sent.iter().map(|s| ("racer@example.com", s.as_str())).collect();
    let pushes: Vec<(&str, &str)> = tags_sent.iter().map(|t| (subscription, t.as_str())).collect();
    queue(racers[1], &mails, &pushes).await;
    racers[0].state.auth.outbox.wake();
    if let Some(wake) = extra_wake {
        wake.notify_one();
    }
    let pushed = received(push_port, 12).await;
    eventually("12 mails at the SMTP server", async || (maildir_messages(maildir).len() >= 12).then_some(())).await;
    eventually("the outbox to empty", async || {
        (outbox::pending(racers[0].state.store.pool()).await.unwrap() == OutboxPending::default()).then_some(())
    })
    .await;
    // Anything sent twice would have arrived by now.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let pushed_again = service(push_port, "/received").await;
    assert_eq!((pushed.len(), pushed_again.as_array().unwrap().len()), (12, 12), "each push once");
    assert_eq!(tags(&pushed), tags_sent.into_iter().collect());
    assert_eq!(maildir_messages(maildir).len(), 12, "each mail once");
    assert_eq!(subjects(maildir), subjects_sent.into_iter().collect());
}

#[actix_web::test]
async fn two_workers_racing_for_the_outbox_send_each_message_once() {
    for_each_backend(|db| async move {
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("maildir");
        let smtp_port = free_port();
        let _smtp = Helper::smtp(smtp_port, &maildir).await;
        let (_push, push_port) = push_service().await;
        let server = TestServer::start(&db.url, options(smtp_port, push_port)).await;
        let (subscription, _) = device(&server, push_port).await;
        let (wake, stop, second) = second_worker(&server).await;
        race([&server, &server], &subscription, &maildir, push_port, Some(&wake)).await;
        stop.cancel();
        tokio::time::timeout(Duration::from_secs(5), second).await.expect("the second worker stops").unwrap();
        server.stop().await;
        db
    })
    .await;
}

/// Two instances on one Postgres, each with its worker: the queue is theirs to share.
#[actix_web::test]
async fn two_instances_send_each_mail_and_push_once() {
    let Some(db) = crate::support::postgres_database().await else {
        assert!(std::env::var("CI").map(|v| v != "true").unwrap_or(true), "CI must run the two-instance tests");
        eprintln!("TEST_DATABASE_URL not set: skipping a two-instance test");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("maildir");
    let smtp_port = free_port();
    let _smtp = Helper::smtp(smtp_port, &maildir).await;
    let (_push, push_port) = push_service().await;
    let a = TestServer::start(&db.url, options(smtp_port, push_port)).await;
    let b = TestServer::start(&db.url, options(smtp_port, push_port)).await;
    let (subscription, _) = device(&a, push_port).await;
    race([&a, &b], &subscription, &maildir, push_port, None).await;
    a.stop().await;
    b.stop().await;
    db.cleanup().await;
}

/// The rows of the migration test: a homeowner's browser session with two devices,
/// pushes queued for them (one leased after two failed tries), and two mails.
const H: &str = "0c000000-0000-4000-8000-000000000001";
const SESSION: &str = "05000000-0000-4000-8000-000000000001";
const SUB_1: &str = "5b000000-0000-4000-8000-000000000001";
const SUB_2: &str = "5b000000-0000-4000-8000-000000000002";
const PUSH_DUE: &str = "9e000000-0000-4000-8000-000000000001";
const PUSH_LEASED: &str = "9e000000-0000-4000-8000-000000000002";
const PUSH_OTHER: &str = "9e000000-0000-4000-8000-000000000003";
const MAIL_DUE: &str = "3a000000-0000-4000-8000-000000000001";
const MAIL_SENT: &str = "3a000000-0000-4000-8000-000000000002";
/// 2024-11-24T17:36:52.345Z.
const T: i64 = 1_732_469_812_345;

/// Rows at the schema before 0018 (written as SQL, since this build's store speaks the
/// new one); `t` writes a time as the backend stores it.
fn rows_before_one_outbox(t: impl Fn(i64) -> String) -> Vec<String> {
    let push = |id: &str, sub: &str, tag: &str, created: i64, attempts: i32, next: i64, lease: Option<i64>, error: Option<&str>| {
        format!(
            "INSERT INTO push_outbox (id, subscription_id, payload, created_at, attempts, next_attempt_at, claimed_until, last_error) \
             VALUES ('{id}', '{sub}', '{{\"tag\":\"{tag}\"}}', {}, {attempts}, {}, {}, {})",
            t(created),
            t(next),
            lease.map_or("NULL".into(), &t),
            error.map_or("NULL".into(), |e| format!("'{e}'")),
        )
    };
    vec![
        format!("INSERT INTO users (id, email, role, name, created_at, updated_at) VALUES ('{H}', 'hana@x.test', 'homeowner', 'Hana Li', {}, {})", t(T), t(T)),
        format!(
            "INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at) VALUES ('{SESSION}', '{H}', 'hash', {}, {}, {})",
            t(T),
            t(T),
            t(T + 2_592_000_000)
        ),
        format!(
            "INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, device, created_at) VALUES \
             ('{SUB_1}', '{H}', '{SESSION}', 'https://web.push.apple.com/1', 'k', 'a', 'Safari on iOS', {}), \
             ('{SUB_2}', '{H}', '{SESSION}', 'https://fcm.googleapis.com/fcm/send/2', 'k', 'a', 'Chrome on Android', {})",
            t(T),
            t(T)
        ),
        push(PUSH_DUE, SUB_1, "due", T + 1, 0, T + 1, None, None),
        push(PUSH_LEASED, SUB_1, "leased", T + 2, 2, T + 100, Some(T + 60_000), Some("push service answered 503 Service Unavailable")),
        push(PUSH_OTHER, SUB_2, "other", T + 3, 0, T + 3, None, None),
        format!(
            "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, list_unsubscribe, \
             attachment_key, attachment_name, attachment_type) VALUES ('{MAIL_DUE}', 'hana@x.test', 'Your report', 'Text', '<p>HTML</p>', {}, 0, {}, \
             'https://sitecast.test/u', 'reports/r.pdf', 'r.pdf', 'application/pdf')",
            t(T + 4),
            t(T + 4)
        ),
        format!(
            "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, sent_at) \
             VALUES ('{MAIL_SENT}', 'hana@x.test', 'Sent', 'Text', '<p>HTML</p>', {}, 1, {}, {})",
            t(T + 5),
            t(T + 5),
            t(T + 6)
        ),
    ]
}

/// Migration 0018 on a database filled at the schema before it, on each backend: the
/// queued pushes move into the one outbox as they were (due times, tries, leases),
/// the mail stays as it was, and a push still goes with its subscription.
#[actix_web::test]
async fn a_database_at_the_previous_schema_moves_its_queued_pushes_into_the_one_outbox() {
    use sitecast::store::outbox::{OutboxKind, OutboxRow, Queued, QueuedMail, QueuedPush};
    use sitecast::store::{push, Store};
    crate::support::for_each_empty_backend(|db| async move {
        match db.name {
            "sqlite" => {
                let opts = db.url.parse::<sqlx::sqlite::SqliteConnectOptions>().unwrap().create_if_missing(true).foreign_keys(true);
                let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(opts).await.unwrap();
                sitecast_store_sqlite::MIGRATIONS.run_to(17, &pool).await.unwrap();
                for sql in rows_before_one_outbox(|ms| ms.to_string()) {
                    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
                }
                pool.close().await;
            }
            _ => {
                let pool = sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&db.url).await.unwrap();
                sitecast_store_postgres::MIGRATIONS.run_to(17, &pool).await.unwrap();
                for sql in rows_before_one_outbox(|ms| format!("TIMESTAMPTZ 'epoch' + {ms} * INTERVAL '1 millisecond'")) {
                    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
                }
                pool.close().await;
            }
        }
        let store = Store::open(&db.url, None, true).await.expect("the database migrates");
        let pool = store.pool();

        assert_eq!(outbox::pending(pool).await.unwrap(), OutboxPending { mail: 1, push: 3 });
        assert_eq!(outbox::next_due_at(pool, OutboxKind::Push).await.unwrap(), Some(T + 1));
        assert_eq!(outbox::next_due_at(pool, OutboxKind::Mail).await.unwrap(), Some(T + 4));
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, T + 100, 10).await.unwrap(), [PUSH_DUE, PUSH_OTHER], "leased until T + 60 000");
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, T + 60_000, 10).await.unwrap(), [PUSH_DUE, PUSH_OTHER, PUSH_LEASED]);
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, T + 60_000, 10).await.unwrap(), [MAIL_DUE]);
        assert_eq!(outbox::claim(pool, PUSH_LEASED, T + 59_999, T + 120_000).await.unwrap(), None, "the lease holds");
        let error: Option<String> = TestSql::per_backend("SELECT last_error FROM outbox WHERE id = $1", "SELECT last_error FROM outbox WHERE id = $1::uuid")
            .bind(PUSH_LEASED)
            .scalar(pool)
            .await
            .unwrap();
        assert_eq!(error.as_deref(), Some("push service answered 503 Service Unavailable"));
        assert_eq!(
            outbox::claim(pool, PUSH_LEASED, T + 60_000, T + 120_000).await.unwrap(),
            Some(OutboxRow {
                id: PUSH_LEASED.into(),
                attempts: 3,
                message: Queued::Push(QueuedPush { subscription_id: SUB_1.into(), payload: r#"{"tag":"leased"}"#.into() }),
            }),
            "its third try"
        );
        assert_eq!(
            outbox::claim(pool, MAIL_DUE, T + 60_000, T + 180_000).await.unwrap(),
            Some(OutboxRow {
                id: MAIL_DUE.into(),
                attempts: 1,
                message: Queued::Mail(QueuedMail {
                    to_address: "hana@x.test".into(),
                    subject: "Your report".into(),
                    body_text: "Text".into(),
                    body_html: "<p>HTML</p>".into(),
                    list_unsubscribe: Some("https://sitecast.test/u".into()),
                    attachment_key: Some("reports/r.pdf".into()),
                    attachment_name: Some("r.pdf".into()),
                    attachment_type: Some("application/pdf".into()),
                }),
            })
        );
        assert_eq!(outbox::claim(pool, MAIL_SENT, T + 60_000, T + 180_000).await.unwrap(), None, "sent mail stays sent");

        // A subscription deleted still takes its queued pushes with it.
        push::forget(pool, SUB_1).await.unwrap();
        assert_eq!(outbox::pending(pool).await.unwrap(), OutboxPending { mail: 1, push: 1 });
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, T + 200_000, 10).await.unwrap(), [PUSH_OTHER]);
        // The two queues' tables are gone.
        for gone in ["SELECT COUNT(*) FROM push_outbox", "SELECT COUNT(*) FROM mail_outbox"] {
            assert!(TestSql::new(gone).scalar::<i64>(pool).await.is_err(), "{gone}");
        }
        store.close().await;
        db
    })
    .await;
}
