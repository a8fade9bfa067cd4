//! HTTP: auth, resumable photo uploads, photo bytes, health, the WebSocket upgrade and
//! the web app. One file per group of endpoints; handlers call the domain (and hand
//! what it changed to `Live::publish`) and map its errors in `error`.

pub mod auth;
pub mod conn;
pub mod contact;
pub mod error;
pub mod guest;
pub mod health;
pub mod mail;
pub mod media;
pub mod origin;
pub mod reports;
pub mod session;
pub mod site;
pub mod testing;
pub mod tus;
pub mod web_app;
pub mod ws;

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;

use crate::config::Config;
use crate::domain::identity::auth::Auth;
use crate::domain::messaging::contact::Contact;
use crate::domain::shared::services::Services;
use crate::live::Live;
use crate::media::PhotoStore;
use crate::ops::Ops;
use crate::store::Store;

/// Shared by every request handler and socket (built by `app::build_state`).
pub struct AppState {
    pub config: Config,
    pub store: Store,
    pub auth: Auth,
    pub contact: Contact,
    pub photos: Arc<dyn PhotoStore>,
    pub svc: Services,
    /// Where changes go out (`Live::publish`), sockets register and projects take turns.
    pub live: Live,
    /// Origins allowed to open sockets and post (from the configuration).
    pub origins: Vec<String>,
    /// Heartbeat interval and peer timeout of every socket.
    pub heartbeat: (Duration, Duration),
    /// Uploads in flight, drain state, the outbox worker's stop (`ops`).
    pub ops: Ops,
}

/// Largest JSON body: the longest form (contact, with a 5,000-character message) still
/// fits when every character takes four bytes, so a too-long field gets its own
/// message from validation instead of a bare 413.
pub const MAX_JSON_BYTES: usize = 32 * 1024;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .configure(auth::routes)
            .configure(contact::routes)
            .configure(guest::routes)
            .configure(health::routes)
            .configure(mail::routes)
            .configure(reports::routes)
            .configure(site::routes)
            .configure(testing::routes)
            .configure(tus::routes)
            .default_service(web::to(error::api_not_found)),
    )
    .configure(media::routes)
    .configure(ws::routes);
}
