//! Ending a WebSocket whose peer stopped reading. The hub calls a [`CutOff`] when the
//! socket's queue passes its bound; the peer then gets a 1013 close frame ("Try Again
//! Later") where the socket can still take one, and the connection ends either way.
//!
//! Where a close frame can go. actix-web's HTTP/1 dispatcher owns the bytes: it pulls
//! encoded frames from the response stream (the actor's `WebsocketContext`, every item
//! a run of whole frames) into its write buffer while that holds under 32 KiB, and
//! writes the buffer to the socket as far as the kernel takes it. So the kernel's queue
//! may end in the middle of a frame, and bytes written beside the dispatcher could land
//! inside one. The only place a frame boundary is certain is the response stream,
//! between two items: [`CloseOnCutOff`] sits there, and once cut off it hands the
//! dispatcher the close frame instead of the actor's backlog, then ends the stream.
//!
//! It goes out when the dispatcher next polls the stream, which needs room in the
//! kernel's send buffer. So a cut-off requests the close frame, and then, on the worker
//! that owns the connection:
//! - the kernel reports the socket writable: the close frame follows the bytes already
//!   buffered. If the peer has not taken it all within [`CLOSE_GRACE`] the connection
//!   is shut down regardless.
//! - it does not (the peer let the send buffer fill): no byte can be added to the stream
//!   now, so the connection is shut down at once, as the only way to end it: the
//!   dispatcher is blocked writing and the actor is never polled again. The peer reads
//!   what the kernel had queued, which may end partway through a frame, then the end of
//!   the stream, with no close frame. (Had the dispatcher got part of the close frame in
//!   just before, the peer sees it cut short, which reads the same.)

use std::any::Any;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

#[cfg(target_os = "linux")]
use actix::{Arbiter, ArbiterHandle};
use actix::{Actor, StreamHandler};
use actix_http::ws::{CloseCode, CloseReason, Codec, Parser};
use actix_web::dev::Extensions;
use actix_web::{web, HttpRequest, HttpResponse};
use actix_web_actors::ws::{handshake, Message, ProtocolError, WebsocketContext};
use bytes::{Bytes, BytesMut};
use futures_util::task::AtomicWaker;
use futures_util::Stream;

/// How long a peer that was cut off, but whose socket still had room, has to take what
/// was buffered and the close frame, before its connection is shut down regardless.
pub const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// The reason sent with the close frame.
pub const TOO_SLOW: &str = "Connection too slow";

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

    /// Runs `f` on the socket on the owning worker, if the connection is still the one
    /// this handle was made for.
    fn with_socket(fd: std::os::fd::RawFd, cookie: u64, f: impl FnOnce(socket2::SockRef<'_>)) {
        // SAFETY: borrowed for a few system calls on the owning worker, which is the only
        // closer of this number; if it was closed already, or now belongs to another
        // socket, the cookie differs (or the call fails) and nothing is done.
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
        let socket = socket2::SockRef::from(&fd);
        if socket.cookie().ok() == Some(cookie) {
            f(socket);
        }
    }

    /// Shuts the connection down now if the kernel will not take more bytes, else
    /// after [`CLOSE_GRACE`] (see the module comment).
    fn end(&self) {
        let (fd, cookie) = (self.fd, self.cookie);
        self.owner.spawn(async move {
            let mut writable = false;
            ConnSocket::with_socket(fd, cookie, |socket| {
                writable = is_writable(&socket);
                if !writable {
                    let _ = socket.shutdown(std::net::Shutdown::Both);
                }
            });
            if writable {
                tokio::time::sleep(CLOSE_GRACE).await;
                ConnSocket::with_socket(fd, cookie, |socket| {
                    let _ = socket.shutdown(std::net::Shutdown::Both);
                });
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

    /// As on Linux, from the caller's thread.
    fn end(&self) {
        if !is_writable(&socket2::SockRef::from(&*self.0)) {
            let _ = self.0.shutdown(std::net::Shutdown::Both);
            return;
        }
        let socket = self.0.clone();
        actix_web::rt::spawn(async move {
            tokio::time::sleep(CLOSE_GRACE).await;
            let _ = socket.shutdown(std::net::Shutdown::Both);
        });
    }
}

/// Whether the kernel would take more bytes now (POLLOUT, as the dispatcher's reactor
/// sees it): false once the send buffer is (nearly) full, and on a broken connection.
fn is_writable(socket: &socket2::SockRef<'_>) -> bool {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd { fd: socket.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
    // SAFETY: one valid pollfd for the length given; a zero timeout never blocks.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    ready == 1 && poll.revents & libc::POLLOUT != 0 && poll.revents & (libc::POLLERR | libc::POLLHUP) == 0
}

pub fn on_connect(conn: &dyn Any, ext: &mut Extensions) {
    if let Some(socket) = conn
        .downcast_ref::<actix_web::rt::net::TcpStream>()
        .and_then(ConnSocket::of)
    {
        ext.insert(socket);
    }
}

/// Tells a [`CloseOnCutOff`] stream, from any thread, to close.
#[derive(Default)]
struct CloseSignal {
    requested: AtomicBool,
    waker: AtomicWaker,
}

impl CloseSignal {
    fn request(&self) {
        self.requested.store(true, Ordering::Release);
        self.waker.wake();
    }
}

/// Ends the connection of a peer that stopped reading (the hub's `CutOff`).
pub type CutOff = Arc<dyn Fn() + Send + Sync>;

/// Answers a WebSocket upgrade (what `WsResponseBuilder::start` does) with the actor's
/// frames passing through [`CloseOnCutOff`]. `actor` is given the connection's cut-off:
/// see the module comment; without a TCP socket underneath it only requests the close.
pub fn start_websocket<A>(
    req: &HttpRequest,
    payload: web::Payload,
    max_frame_bytes: usize,
    actor: impl FnOnce(CutOff) -> A,
) -> Result<HttpResponse, actix_web::Error>
where
    A: Actor<Context = WebsocketContext<A>> + StreamHandler<Result<Message, ProtocolError>>,
{
    let mut response = handshake(req)?;
    let close = Arc::new(CloseSignal::default());
    let signal = close.clone();
    let socket = req.conn_data::<ConnSocket>().cloned();
    let cut_off: CutOff = Arc::new(move || {
        // At once, from any thread: whenever the dispatcher next polls the stream, the
        // close frame comes instead of the backlog.
        signal.request();
        if let Some(socket) = &socket {
            socket.end();
        }
    });
    let frames = WebsocketContext::with_codec(actor(cut_off), payload, Codec::new().max_size(max_frame_bytes));
    Ok(response.streaming(CloseOnCutOff::new(frames, close)))
}

/// A WebSocket response stream (items of whole frames) that, once its [`CloseSignal`]
/// is requested, yields a 1013 close frame instead of what the inner stream would
/// have, then ends. Dropping the inner stream stops the actor and drops its backlog.
struct CloseOnCutOff<S> {
    inner: Option<Pin<Box<S>>>,
    signal: Arc<CloseSignal>,
    /// The inner stream has sent a close frame of its own: no second one follows.
    closed: bool,
}

impl<S> CloseOnCutOff<S> {
    fn new(inner: S, signal: Arc<CloseSignal>) -> CloseOnCutOff<S> {
        CloseOnCutOff { inner: Some(Box::pin(inner)), signal, closed: false }
    }
}

impl<S, E> Stream for CloseOnCutOff<S>
where
    S: Stream<Item = Result<Bytes, E>>,
{
    type Item = Result<Bytes, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        this.signal.waker.register(cx.waker());
        if this.signal.requested.load(Ordering::Acquire) && !this.closed {
            this.inner = None;
            let mut frame = BytesMut::new();
            let reason = CloseReason { code: CloseCode::Again, description: Some(TOO_SLOW.to_owned()) };
            Parser::write_close(&mut frame, Some(reason), false);
            return Poll::Ready(Some(Ok(frame.freeze())));
        }
        let item = inner.as_mut().poll_next(cx);
        match &item {
            Poll::Ready(Some(Ok(frames))) => this.closed |= has_close_frame(frames),
            Poll::Ready(None) => this.inner = None,
            _ => {}
        }
        item
    }
}

/// Whether a run of whole server frames holds a close frame (RFC 6455 §5.2 headers:
/// opcode in the low bits of byte 0; payload length in 7 bits, or 16 or 64 after).
fn has_close_frame(mut frames: &[u8]) -> bool {
    const CLOSE: u8 = 0x8;
    while let [first, second, rest @ ..] = frames {
        if first & 0x0F == CLOSE {
            return true;
        }
        let (len, rest) = match second & 0x7F {
            126 => match rest.split_first_chunk::<2>() {
                Some((n, rest)) => (u64::from(u16::from_be_bytes(*n)), rest),
                None => return false,
            },
            127 => match rest.split_first_chunk::<8>() {
                Some((n, rest)) => (u64::from_be_bytes(*n), rest),
                None => return false,
            },
            n => (u64::from(n), rest),
        };
        let mask = if second & 0x80 != 0 { 4 } else { 0 };
        let skip = usize::try_from(len).unwrap_or(usize::MAX).saturating_add(mask);
        frames = rest.get(skip..).unwrap_or(&[]);
    }
    false
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;

    use super::*;

    fn frame(op: actix_http::ws::OpCode, payload: &[u8]) -> Bytes {
        let mut buf = BytesMut::new();
        Parser::write_message(&mut buf, payload, op, true, false);
        buf.freeze()
    }

    #[test]
    fn finds_a_close_frame_after_frames_of_every_length_encoding() {
        use actix_http::ws::OpCode;
        let mut run = BytesMut::new();
        for len in [0, 125, 126, 65_535, 65_536] {
            run.extend_from_slice(&frame(OpCode::Binary, &vec![0x88; len]));
        }
        assert!(!has_close_frame(&run), "payload bytes that look like a close header are skipped");
        run.extend_from_slice(&frame(OpCode::Close, &[0x03, 0xE8]));
        assert!(has_close_frame(&run));
        assert!(!has_close_frame(&frame(OpCode::Ping, b"")));
        assert!(!has_close_frame(&[]));
    }

    #[actix_web::test]
    async fn once_requested_yields_a_1013_close_instead_of_the_backlog_then_ends() {
        use actix_codec::Decoder;
        use actix_http::ws::{Codec, Frame, OpCode};
        let backlog = futures_util::stream::iter((0..3).map(|_| Ok::<_, ()>(frame(OpCode::Binary, b"event"))));
        let signal = Arc::new(CloseSignal::default());
        let mut stream = CloseOnCutOff::new(backlog, signal.clone());
        assert_eq!(stream.next().await, Some(Ok(frame(OpCode::Binary, b"event"))));
        signal.request();
        let close = stream.next().await.and_then(Result::ok).expect("a close frame");
        let mut client = Codec::new().client_mode();
        match client.decode(&mut BytesMut::from(&close[..])) {
            Ok(Some(Frame::Close(Some(reason)))) => {
                assert_eq!((reason.code, reason.description.as_deref()), (CloseCode::Again, Some(TOO_SLOW)));
            }
            other => panic!("expected a close frame, got {other:?}"),
        }
        assert_eq!(stream.next().await, None, "the rest of the backlog is dropped");
    }

    #[actix_web::test]
    async fn a_stream_that_closed_itself_gets_no_second_close() {
        use actix_http::ws::OpCode;
        let own_close = frame(OpCode::Close, &[0x03, 0xE9]);
        let inner = futures_util::stream::iter([Ok::<_, ()>(own_close.clone()), Ok(frame(OpCode::Binary, b"late"))]);
        let signal = Arc::new(CloseSignal::default());
        let mut stream = CloseOnCutOff::new(inner, signal.clone());
        assert_eq!(stream.next().await, Some(Ok(own_close)));
        signal.request();
        assert_eq!(stream.next().await, Some(Ok(frame(OpCode::Binary, b"late"))));
        assert_eq!(stream.next().await, None);
    }

    #[test]
    fn a_request_wakes_a_waiting_dispatcher() {
        struct Wakes(std::sync::atomic::AtomicUsize);
        impl futures_util::task::ArcWake for Wakes {
            fn wake_by_ref(this: &Arc<Self>) {
                this.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let wakes = Arc::new(Wakes(Default::default()));
        let waker = futures_util::task::waker(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        let signal = Arc::new(CloseSignal::default());
        let mut stream = CloseOnCutOff::new(futures_util::stream::pending::<Result<Bytes, ()>>(), signal.clone());
        assert!(Pin::new(&mut stream).poll_next(&mut cx).is_pending());
        signal.request();
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1, "the dispatcher waiting on the stream is woken");
        match Pin::new(&mut stream).poll_next(&mut cx) {
            Poll::Ready(Some(Ok(close))) => assert!(has_close_frame(&close)),
            other => panic!("expected the close frame, got {other:?}"),
        }
    }
}
