//! Mail leaves through the configured transport: the outbox folder by default, a real
//! SMTP server (aiosmtpd on loopback) when configured — and survives an SMTP outage.

use std::time::Duration;

use serde_json::json;

use crate::support::{free_port, maildir_messages, Helper, Options, TestServer, TestSql, WorldSpec};

/// People and no projects: someone to send a reset mail to.
fn people() -> WorldSpec {
    WorldSpec { projects: 0, photos: 0, ..WorldSpec::default() }
}

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}/t.db", dir.path().display())
}

async fn wait_until(what: &str, check: impl AsyncFn() -> bool) {
    for _ in 0..300 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

#[actix_web::test]
async fn default_transport_writes_eml_files_to_the_outbox_folder() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(&dir), Options::default()).await;
    let admin = server.world(people()).await.users["admin"].email.clone();
    server.post("/api/auth/forgot", json!({"email": admin}), None).await;
    let outbox = server.dir.path().join("outbox");
    let read = || -> Vec<String> {
        std::fs::read_dir(&outbox)
            .map(|es| es.filter_map(|e| e.ok()).filter_map(|e| std::fs::read_to_string(e.path()).ok()).collect())
            .unwrap_or_default()
    };
    wait_until("an .eml file", async || !read().is_empty()).await;
    let eml = read().remove(0);
    assert!(eml.contains("Subject: Reset your Sitecast password"), "{eml}");
    assert!(eml.contains(&format!("To: {admin}")));
    assert!(eml.contains("multipart/alternative"), "text and HTML parts");
    server.stop().await;
}

#[actix_web::test]
async fn mail_is_delivered_to_a_real_smtp_server() {
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("maildir");
    let port = free_port();
    let _smtp = Helper::smtp(port, &maildir).await;
    let server = TestServer::start(
        &sqlite_url(&dir),
        Options { smtp_url: Some(format!("smtp://127.0.0.1:{port}")), ..Options::default() },
    )
    .await;
    let homeowner = server.world(people()).await.users["homeowner"].email.clone();
    server.post("/api/auth/forgot", json!({"email": homeowner}), None).await;
    wait_until("the SMTP server to receive the mail", async || !maildir_messages(&maildir).is_empty()).await;
    let msg = maildir_messages(&maildir).remove(0);
    assert!(msg.contains("Subject: Reset your Sitecast password"), "{msg}");
    assert!(msg.contains(&format!("To: {homeowner}")));
    assert!(msg.contains("From: Sitecast <no-reply@sitecast.local>"));
    // The file lands before the SMTP server's answer reaches the worker, which then
    // marks the mail sent: wait for that rather than race it.
    let pending = async || -> i64 {
        TestSql::new("SELECT COUNT(*) FROM outbox WHERE kind = 'mail' AND sent_at IS NULL")
            .scalar(server.state.store.pool())
            .await
            .unwrap()
    };
    wait_until("the delivered mail to be marked sent", async || pending().await == 0).await;
    assert_eq!(pending().await, 0);
    server.stop().await;
}

#[actix_web::test]
async fn an_smtp_outage_delays_mail_but_loses_none() {
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("maildir");
    let port = free_port();
    // Nothing listens on the port yet: the SMTP server is "down".
    let server = TestServer::start(
        &sqlite_url(&dir),
        Options { smtp_url: Some(format!("smtp://127.0.0.1:{port}")), ..Options::default() },
    )
    .await;
    let owner = server.world(people()).await.users["owner"].email.clone();
    server.post("/api/auth/forgot", json!({"email": owner}), None).await;
    let pool = server.state.store.pool().clone();
    let mut failed = None;
    for _ in 0..300 {
        let row: Option<(i32, Option<String>, Option<i64>)> = TestSql::per_backend(
            "SELECT attempts, last_error, sent_at FROM outbox WHERE to_address = $1",
            "SELECT attempts, last_error, (EXTRACT(EPOCH FROM sent_at) * 1000)::bigint FROM outbox WHERE to_address = $1",
        )
        .bind(&owner)
        .fetch_optional(&pool)
        .await
        .unwrap();
        if let Some(r @ (_, Some(_), _)) = row {
            failed = Some(r);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (attempts, error, sent_at) = failed.expect("the first attempt fails and is recorded");
    assert!(attempts >= 1 && sent_at.is_none(), "attempts={attempts} error={error:?}");

    // The server comes back; make the retry due now instead of in 30 s.
    let _smtp = Helper::smtp(port, &maildir).await;
    TestSql::per_backend("UPDATE outbox SET next_attempt_at = 0", "UPDATE outbox SET next_attempt_at = TIMESTAMPTZ 'epoch'")
        .execute(&pool)
        .await
        .unwrap();
    server.state.auth.outbox.wake();
    wait_until("the retried mail to arrive", async || !maildir_messages(&maildir).is_empty()).await;
    assert!(maildir_messages(&maildir)[0].contains(&format!("To: {owner}")));
    server.stop().await;
}
