//! A handle on each connection's socket, so the hub can cut off a WebSocket peer that
//! stopped reading. Such a connection's writer is blocked on a full socket and its actor
//! is never polled again; shutting the socket down is the only way to end it.

use std::any::Any;

#[cfg(target_os = "linux")]
use actix::{Arbiter, ArbiterHandle};
use actix_web::dev::Extensions;

/// The connection's descriptor number, the kernel's cookie for its socket, and the
/// worker that owns the connection. Only that worker ever closes the descriptor, so
/// the shutdown runs there: between checking the cookie and shutting down, the
/// number cannot be closed and handed to another connection. No duplicate descriptor
/// is kept, so a held socket costs one descriptor, not two.
#[cfg(target_os = "linux")]
#[derive(Clone)]
pub struct ConnSocket {
    fd: std::os::fd::RawFd,
    cookie: u64,
    owner: ArbiterHandle,
}

#[cfg(target_os = "linux")]
impl ConnSocket {
    fn of(stream: &actix_web::rt::net::TcpStream) -> Option<ConnSocket> {
        use std::os::fd::AsRawFd;
        let cookie = socket2::SockRef::from(stream).cookie().ok()?;
        Some(ConnSocket {
            fd: stream.as_raw_fd(),
            cookie,
            owner: Arbiter::current(),
        })
    }

    /// Ends the connection, if it is still the one this handle was made for.
    pub fn shutdown(&self) {
        let (fd, cookie) = (self.fd, self.cookie);
        self.owner.spawn_fn(move || {
            // SAFETY: borrowed for two system calls on the owning worker, which is the
            // only closer of this number; if it was closed already, or now belongs to
            // another socket, the cookie differs (or the call fails) and nothing is done.
            let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
            let socket = socket2::SockRef::from(&fd);
            if socket.cookie().ok() == Some(cookie) {
                let _ = socket.shutdown(std::net::Shutdown::Both);
            }
        });
    }
}

/// Elsewhere (no socket cookies): a duplicate of the descriptor, which can never hit
/// an unrelated socket that reused the number, at the cost of a second descriptor.
#[cfg(not(target_os = "linux"))]
#[derive(Clone)]
pub struct ConnSocket(std::sync::Arc<socket2::Socket>);

#[cfg(not(target_os = "linux"))]
impl ConnSocket {
    fn of(stream: &actix_web::rt::net::TcpStream) -> Option<ConnSocket> {
        use std::os::fd::AsFd;
        let fd = stream.as_fd().try_clone_to_owned().ok()?;
        Some(ConnSocket(std::sync::Arc::new(socket2::Socket::from(fd))))
    }

    pub fn shutdown(&self) {
        let _ = self.0.shutdown(std::net::Shutdown::Both);
    }
}

pub fn on_connect(conn: &dyn Any, ext: &mut Extensions) {
    if let Some(socket) = conn
        .downcast_ref::<actix_web::rt::net::TcpStream>()
        .and_then(ConnSocket::of)
    {
        ext.insert(socket);
    }
}
