use actix_web::{get, web, HttpResponse};
use serde_json::json;

use super::AppState;
use crate::error::Error;
use crate::media::StorageError;
use crate::store::outbox;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(health).service(ready);
}

/// Liveness for fly.io's checks: answers 200 only when the database answers.
/// (Readiness, which also asks the photo store and says when the instance drains, is `/ready`.)
#[get("/health")]
async fn health(state: web::Data<AppState>) -> Result<HttpResponse, Error> {
    let pending = outbox::pending(state.store.pool()).await?;
    let sockets = state.live.count_sockets().await;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({ "status": "ok", "pendingMail": pending.mail, "pendingPush": pending.push, "sockets": sockets })))
}

/// Readiness: whether this instance should get traffic. 503 while it drains (it is
/// stopping), or when the database or the photo store does not answer.
#[get("/ready")]
async fn ready(state: web::Data<AppState>) -> HttpResponse {
    let draining = state.ops.is_draining();
    let database = state.store.ping().await.map_err(|e| e.to_string());
    // A key no photo has: "not found" is the store answering.
    let photos = match state.photos.get("ready-check/none").await {
        Ok(_) | Err(StorageError::NotFound(_)) => Ok(()),
        Err(err) => Err(err.to_string()),
    };
    let ok = !draining && database.is_ok() && photos.is_ok();
    if let Err(err) = &database {
        tracing::warn!(error = %err, "readiness: the database does not answer");
    }
    if let Err(err) = &photos {
        tracing::warn!(error = %err, "readiness: the photo store does not answer");
    }
    let word = |r: &Result<(), String>| if r.is_ok() { "ok" } else { "failing" };
    let body = json!({
        "status": if ok { "ready" } else if draining { "draining" } else { "unavailable" },
        "database": word(&database),
        "photoStore": word(&photos),
    });
    let mut res = if ok { HttpResponse::Ok() } else { HttpResponse::ServiceUnavailable() };
    res.insert_header(("Cache-Control", "no-store")).json(body)
}
