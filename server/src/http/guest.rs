//! Opening a guest link (docs/FEATURES.md, "The project's story"): the token from the link's
//! URL becomes an HttpOnly cookie, which the guest's socket (`/ws/guest`) and photo
//! requests then carry.

use actix_web::{post, web, HttpResponse};
use serde::{Deserialize, Serialize};

use super::session::guest_cookie;
use super::AppState;
use crate::error::Error;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::scope("/guest").service(open));
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct OpenBody {
    token: String,
}

#[derive(Serialize)]
struct AccessBody {
    access: protocol::GuestAccess,
}

/// An unknown, revoked or expired link, or one whose maker lost the project, all get
/// the same "This link is no longer active".
#[post("/open")]
async fn open(state: web::Data<AppState>, body: web::Json<OpenBody>) -> Result<HttpResponse, Error> {
    let pass = crate::domain::sharing::guests::open(&state.svc, &body.token).await?;
    Ok(HttpResponse::Ok()
        .cookie(guest_cookie(body.token.trim().to_owned(), state.config.secure_cookies()))
        .json(AccessBody { access: pass.access }))
}
