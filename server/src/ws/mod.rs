//! WebSocket transport: bytes in, protocol messages out. One `SessionActor` per socket.

pub mod session;
