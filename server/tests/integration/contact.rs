//! The public contact form: validated, stored, and mailed to the team.

use awc::http::StatusCode;
use serde_json::json;

use crate::support::{Options, TestServer, TestSql};

#[actix_web::test]
async fn contact_messages_are_validated_stored_and_mailed() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&format!("sqlite://{}/t.db", dir.path().display()), Options::default()).await;

    let r = server.post("/api/contact", json!({"name": "", "email": "x", "message": " "}), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let fields: Vec<(&str, &str)> = r.body["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap(), f["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fields,
        [("name", "Name is required"), ("email", "Please enter a valid email address."), ("message", "Message is required")]
    );

    let r = server
        .post("/api/contact", json!({"name": "Dana <b>", "email": "dana@example.com", "phone": null, "message": "When is the next site visit?"}), None)
        .await;
    assert_eq!((r.status, r.body["message"].as_str()), (StatusCode::OK, Some("Message sent successfully!")));
    let stored: (String, Option<String>, String) =
        TestSql::new("SELECT email, phone, message FROM contact_messages").fetch_one(server.state.store.pool()).await.unwrap();
    assert_eq!(stored, ("dana@example.com".into(), None, "When is the next site visit?".into()));
    let mail = server.wait_for_mail("hello@sitecast.local", "Contact form: Dana <b>").await;
    assert!(mail.contains("From: Dana <b> <dana@example.com>") && mail.contains("When is the next site visit?"));
    let html: String = TestSql::new("SELECT body_html FROM outbox WHERE to_address = 'hello@sitecast.local'")
        .scalar(server.state.store.pool())
        .await
        .unwrap();
    assert!(html.contains("Dana &lt;b&gt;") && !html.contains("Dana <b>"));

    // A flood from one address is cut off after five.
    for _ in 0..4 {
        server.post("/api/contact", json!({"name": "D", "email": "d@example.com", "message": "m"}), None).await;
    }
    let r = server.post("/api/contact", json!({"name": "D", "email": "d@example.com", "message": "m"}), None).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    server.stop().await;
}
