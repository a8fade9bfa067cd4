//! The public contact form.

use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::session::client_address;
use super::AppState;
use crate::domain::messaging::contact::ContactForm;
use crate::error::Error;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(contact);
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ContactBody {
    name: String,
    email: String,
    phone: Option<String>,
    message: String,
}

#[post("/contact")]
async fn contact(req: HttpRequest, state: web::Data<AppState>, body: web::Json<ContactBody>) -> Result<HttpResponse, Error> {
    let address = client_address(&req, &state.config);
    let form = ContactForm {
        name: &body.name,
        email: &body.email,
        phone: body.phone.as_deref().unwrap_or(""),
        message: &body.message,
    };
    let message = state.contact.submit(&form, &address).await?;
    Ok(HttpResponse::Ok().json(json!({ "message": message })))
}
