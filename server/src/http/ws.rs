//! The WebSocket upgrade: an allowed Origin and a valid session, or no socket.

use actix_web::{get, web, HttpRequest, HttpResponse};

use super::conn::start_websocket;
use super::origin::{forbidden, origin_allowed};
use super::session::{guest_token, session_token};
use super::AppState;
use crate::error::Error;
use crate::ws::session::{Peer, SessionActor, SessionParts};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(upgrade).service(upgrade_guest);
}

#[get("/ws")]
async fn upgrade(req: HttpRequest, stream: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, actix_web::Error> {
    if !origin_allowed(&req, &state.origins) {
        return Ok(forbidden());
    }
    let token = session_token(&req, state.config.secure_cookies()).ok_or_else(Error::unauthorized)?;
    let session = state.auth.authenticate(&token).await?.ok_or_else(Error::unauthorized)?;
    start_websocket(&req, stream, protocol::MAX_FRAME_BYTES, |cut_off| {
        SessionActor::new(SessionParts {
            peer: Peer::User { session_id: session.session_id, user: session.user, enrol_required: session.enrol_required },
            svc: state.svc.clone(),
            live: state.live.clone(),
            heartbeat: state.heartbeat,
            cut_off: Some(cut_off),
        })
    })
}

/// A guest's socket: an allowed Origin and a link that still opens.
#[get("/ws/guest")]
async fn upgrade_guest(
    req: HttpRequest,
    stream: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, actix_web::Error> {
    if !origin_allowed(&req, &state.origins) {
        return Ok(forbidden());
    }
    let token = guest_token(&req, state.config.secure_cookies()).ok_or_else(Error::unauthorized)?;
    let pass = crate::domain::sharing::guests::pass_for(&state.svc, &token).await?;
    start_websocket(&req, stream, protocol::MAX_FRAME_BYTES, |cut_off| {
        SessionActor::new(SessionParts {
            peer: Peer::Guest(pass),
            svc: state.svc.clone(),
            live: state.live.clone(),
            heartbeat: state.heartbeat,
            cut_off: Some(cut_off),
        })
    })
}
