//! HTTP: auth, photo bytes, health, the WebSocket upgrade and the web app. One file per
//! group of endpoints; handlers call the domain and map its errors in `error`.

pub mod auth;
pub mod conn;
pub mod contact;
pub mod error;
pub mod guest;
pub mod health;
pub mod mail;
pub mod media;
pub mod origin;
pub mod session;
pub mod site;
pub mod tus;
pub mod upload;
pub mod web_app;
pub mod ws;

use actix_web::web;

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
            .configure(site::routes)
            .configure(upload::routes)
            .configure(tus::routes)
            .default_service(web::to(error::api_not_found)),
    )
    .configure(media::routes)
    .configure(ws::routes);
}
