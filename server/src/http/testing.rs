//! Test worlds for the browser tests (`domain::seeding::world`). Answers only on a server started
//! with `--test-worlds`, which the configuration allows on a loopback public URL alone;
//! on every other server the route is the API's ordinary 404.

use actix_web::{post, web, HttpResponse};
use serde_json::json;

use super::error::api_not_found;
use super::session::cookie_name;
use super::AppState;
use crate::domain::seeding::world::{self, WorldSpec};
use crate::error::Error;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(make_world);
}

/// Makes a world and answers it with the session cookie's name, so a test can sign
/// each of its people in by setting that cookie (Playwright's `storageState`).
#[post("/testing/world")]
async fn make_world(state: web::Data<AppState>, spec: web::Json<WorldSpec>) -> Result<HttpResponse, Error> {
    if !state.config.test_worlds {
        return api_not_found().await;
    }
    let world = world::make(&state.store, state.photos.as_ref(), &state.auth.passwords, &spec).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({ "cookie": cookie_name(state.config.secure_cookies()), "world": world })))
}
