//! One-click unsubscribe (RFC 8058; docs/FEATURES.md, "Comments, notifications and mail"): the
//! one HTTP endpoint of mail preferences. A mail client POSTs `List-Unsubscribe=One-Click`
//! to the URL in `List-Unsubscribe`; the web app's unsubscribe page POSTs the same URL.
//! No session: the signed token is the proof.

use actix_web::{post, web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::AppState;
use crate::domain::messaging::mail_preferences;
use crate::error::Error;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(unsubscribe);
}

#[derive(Deserialize)]
struct TokenQuery {
    token: String,
}

/// The body (form `List-Unsubscribe=One-Click`, or JSON from the web page) is not
/// read: the token in the URL says everything, and RFC 8058 asks for nothing more.
#[post("/mail/unsubscribe")]
async fn unsubscribe(state: web::Data<AppState>, query: web::Query<TokenQuery>) -> Result<HttpResponse, Error> {
    let kind = mail_preferences::unsubscribe(&state.svc, &query.token).await?;
    Ok(HttpResponse::Ok().json(json!({ "kind": kind.as_str() })))
}
