//! One actor per WebSocket connection. It knows the authenticated user (never trusting
//! the client for identity), decodes frames, answers requests, forwards what the hub
//! says, and closes peers that stop answering.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actix::{Actor, ActorContext, Addr, AsyncContext, Handler, StreamHandler};
use actix_web_actors::ws::{self, CloseCode, CloseReason};
use protocol::{decode_client_msg, encode, ApiError, ClientMsg, ErrorCode, Event, Request, Response, ServerMsg};

use crate::live::hub::{Hub, Join, Leave, SocketCommand};

/// Close code for "your session ended": the client drops its state and signs in again.
pub const CLOSE_SESSION_ENDED: u16 = 4401;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

pub struct SessionActor {
    conn_id: u64,
    session_id: String,
    user_id: String,
    hub: Addr<Hub>,
    last_heard: Instant,
    /// The encoded `Hello`, sent as the first frame.
    hello: Option<Vec<u8>>,
    heartbeat_interval: Duration,
    client_timeout: Duration,
}

impl SessionActor {
    /// `heartbeat`: how often the server pings (browsers answer pings without app
    /// code) and how long a silent peer may stay before it is closed.
    pub fn new(
        session_id: String,
        user_id: String,
        hub: Addr<Hub>,
        hello: Vec<u8>,
        heartbeat: (Duration, Duration),
    ) -> SessionActor {
        SessionActor {
            conn_id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            session_id,
            user_id,
            hub,
            last_heard: Instant::now(),
            hello: Some(hello),
            heartbeat_interval: heartbeat.0,
            client_timeout: heartbeat.1,
        }
    }

    fn send(&self, ctx: &mut ws::WebsocketContext<Self>, msg: &ServerMsg) {
        match encode(msg) {
            Ok(bytes) => ctx.binary(bytes),
            Err(err) => tracing::error!(error = %err, "could not encode a server message"),
        }
    }

    fn reply_error(&self, ctx: &mut ws::WebsocketContext<Self>, id: Option<u32>, code: ErrorCode, message: String) {
        self.send(ctx, &ServerMsg::Error { id, error: ApiError::new(code, message) });
    }

    fn handle_frame(&mut self, ctx: &mut ws::WebsocketContext<Self>, bytes: &[u8]) {
        match decode_client_msg(bytes) {
            Ok(ClientMsg { id, request }) => {
                let response = match request {
                    Request::Ping => Response::Pong,
                };
                self.send(ctx, &ServerMsg::Reply { id, response });
            }
            Err((id, err)) => {
                self.reply_error(ctx, id, ErrorCode::BadRequest, format!("Malformed message: {err}"));
            }
        }
    }

    fn close(&self, ctx: &mut ws::WebsocketContext<Self>, code: CloseCode, description: &str) {
        ctx.close(Some(CloseReason { code, description: Some(description.to_owned()) }));
        ctx.stop();
    }
}

impl Actor for SessionActor {
    type Context = ws::WebsocketContext<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        self.hub.do_send(Join {
            conn_id: self.conn_id,
            session_id: self.session_id.clone(),
            user_id: self.user_id.clone(),
            socket: ctx.address().recipient(),
        });
        if let Some(hello) = self.hello.take() {
            ctx.binary(hello);
        }
        ctx.run_interval(self.heartbeat_interval, |act, ctx| {
            if act.last_heard.elapsed() > act.client_timeout {
                tracing::debug!(conn = act.conn_id, "peer stopped answering; closing");
                act.close(ctx, CloseCode::Away, "Heartbeat timeout");
            } else {
                ctx.ping(b"");
            }
        });
    }

    fn stopped(&mut self, _: &mut Self::Context) {
        self.hub.do_send(Leave { conn_id: self.conn_id });
    }
}

impl StreamHandler<Result<ws::Message, ws::ProtocolError>> for SessionActor {
    fn handle(&mut self, item: Result<ws::Message, ws::ProtocolError>, ctx: &mut Self::Context) {
        self.last_heard = Instant::now();
        match item {
            Ok(ws::Message::Binary(bytes)) => self.handle_frame(ctx, &bytes),
            Ok(ws::Message::Ping(bytes)) => ctx.pong(&bytes),
            Ok(ws::Message::Pong(_)) | Ok(ws::Message::Nop) => {}
            Ok(ws::Message::Text(_)) => self.reply_error(
                ctx,
                None,
                ErrorCode::BadRequest,
                "Text frames are not supported; send MessagePack in binary frames.".to_owned(),
            ),
            Ok(ws::Message::Continuation(_)) => {
                self.close(ctx, CloseCode::Unsupported, "Fragmented messages are not supported")
            }
            Ok(ws::Message::Close(reason)) => {
                ctx.close(reason);
                ctx.stop();
            }
            Err(ws::ProtocolError::Overflow) => self.close(ctx, CloseCode::Size, "Frame too large"),
            Err(err) => {
                tracing::debug!(conn = self.conn_id, error = %err, "WebSocket protocol error");
                self.close(ctx, CloseCode::Protocol, "Protocol error");
            }
        }
    }
}

impl Handler<SocketCommand> for SessionActor {
    type Result = ();

    fn handle(&mut self, cmd: SocketCommand, ctx: &mut Self::Context) {
        match cmd {
            SocketCommand::End { reason } => {
                self.send(ctx, &ServerMsg::Event { event: Event::SessionEnded { reason: reason.clone() } });
                self.close(ctx, CloseCode::Other(CLOSE_SESSION_ENDED), &reason);
            }
        }
    }
}
