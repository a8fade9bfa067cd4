//! WebSocket transport: bytes in, protocol messages out. One `SessionActor` per socket;
//! `dispatch` routes each request to its handler (`handlers`, one per request type).

pub mod dispatch;
mod handlers;
pub mod session;
