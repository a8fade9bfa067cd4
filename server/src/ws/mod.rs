//! WebSocket transport: bytes in, protocol messages out. One `SessionActor` per socket;
//! `dispatch` routes each request to its use case.

pub mod dispatch;
pub mod session;
