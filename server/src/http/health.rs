use actix_web::{get, web, HttpResponse};
use serde_json::json;

use crate::app::AppState;
use crate::error::Error;
use crate::live::hub::CountSockets;
use crate::store::outbox;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(health);
}

/// Liveness for fly.io's checks: answers 200 only when the database answers.
#[get("/health")]
async fn health(state: web::Data<AppState>) -> Result<HttpResponse, Error> {
    let pending_mail = outbox::pending_count(state.store.pool()).await?;
    let sockets = state.live.hub.send(CountSockets).await.unwrap_or(0);
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({ "status": "ok", "pendingMail": pending_mail, "sockets": sockets })))
}
