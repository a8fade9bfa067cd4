//! A handle on each connection's socket, so the hub can cut off a WebSocket peer that
//! stopped reading. Such a connection's writer is blocked on a full socket and its actor
//! is never polled again; shutting the socket down is the only way to end it.

use std::any::Any;
use std::os::fd::AsFd;
use std::sync::Arc;

use actix_web::dev::Extensions;

/// A duplicate of the connection's descriptor. Shutting it down ends the connection;
/// being a duplicate, it can never hit an unrelated socket that reused the number.
#[derive(Clone)]
pub struct ConnSocket(pub Arc<socket2::Socket>);

impl ConnSocket {
    pub fn shutdown(&self) {
        let _ = self.0.shutdown(std::net::Shutdown::Both);
    }
}

pub fn on_connect(conn: &dyn Any, ext: &mut Extensions) {
    if let Some(stream) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
        if let Ok(fd) = stream.as_fd().try_clone_to_owned() {
            ext.insert(ConnSocket(Arc::new(socket2::Socket::from(fd))));
        }
    }
}
