//! What the web app needs to know before sign-in.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;

use super::AppState;
use crate::domain::seeding::demo;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(config);
}

#[derive(Serialize)]
struct DemoAccount {
    role: &'static str,
    email: &'static str,
}

#[derive(Serialize)]
struct Demo {
    password: &'static str,
    accounts: Vec<DemoAccount>,
}

#[derive(Serialize)]
struct SiteConfig {
    demo: Option<Demo>,
}

/// The demo accounts for the login page's buttons, only when demo mode is on.
#[get("/config")]
async fn config(state: web::Data<AppState>) -> HttpResponse {
    let demo = state.config.demo.then(|| Demo {
        password: demo::DEMO_PASSWORD,
        accounts: demo::ACCOUNTS.iter().map(|a| DemoAccount { role: a.role.as_str(), email: a.email }).collect(),
    });
    HttpResponse::Ok().json(SiteConfig { demo })
}
