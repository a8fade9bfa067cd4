//! The WebSocket upgrade: an allowed Origin and a valid session, or no socket.

use actix_web::{get, web, HttpRequest, HttpResponse};
use actix_web_actors::ws::WsResponseBuilder;

use super::origin::{forbidden, origin_allowed};
use super::session::session_token;
use crate::app::AppState;
use crate::domain::snapshot;
use crate::error::Error;
use crate::ws::session::SessionActor;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(upgrade);
}

#[get("/ws")]
async fn upgrade(req: HttpRequest, stream: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, actix_web::Error> {
    if !origin_allowed(&req, &state.origins) {
        return Ok(forbidden());
    }
    let token = session_token(&req, state.config.secure_cookies()).ok_or_else(Error::unauthorized)?;
    let session = state.auth.authenticate(&token).await?.ok_or_else(Error::unauthorized)?;
    let hello = snapshot::hello(&state.store, &session.user).await?;
    let hello = protocol::encode(&protocol::ServerMsg::Hello(hello)).map_err(Error::internal)?;
    let actor = SessionActor::new(session.session_id, session.user.id, state.hub.clone(), hello, state.heartbeat);
    WsResponseBuilder::new(actor, &req, stream).frame_size(protocol::MAX_FRAME_BYTES).start()
}
