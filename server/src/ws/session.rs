//! One actor per WebSocket connection. It knows the authenticated user (never trusting
//! the client for identity), decodes frames, answers requests, forwards events, and
//! closes peers that stop answering or stop reading.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actix::{Actor, ActorContext, ActorFutureExt, AsyncContext, ContextFutureSpawner, Handler, StreamHandler, WrapFuture};
use actix_web_actors::ws::{self, CloseCode, CloseReason};
use bytes::Bytes;
use futures_util::future::{FutureExt, Shared};
use protocol::{
    decode_client_msg, encode, reply, ApiError, ClientMsg, ErrorCode, Event, GuestHello, MilestonePlan, Request, RequestMessage, Role, ServerMsg,
    UserSummary, PROTOCOL_VERSION,
};
use tokio::sync::oneshot;
use tracing::Instrument;

use super::dispatch::{dispatch, dispatch_guest, RequestContext};
use crate::domain::sharing::guests::{self, GuestPass};
use crate::domain::shared::policy::{Actor as User, Guest};
use crate::domain::shared::services::Services;
use crate::domain::{snapshot, shared::views};
use crate::error::Error;
use crate::live::socket::{CutOff, SocketCommand, SocketHandle};
use crate::live::{Join, Live, Push, Refused, Subscribe, SubscribeGuest};
use crate::store::sessions;
use crate::store::users::{self, UserRow};

/// Close code for "your session ended": the client drops its state and signs in again.
pub const CLOSE_SESSION_ENDED: u16 = 4401;
/// Close code for "too many sockets" (per session or per user; see `live::hub`): the
/// client waits before it tries again.
pub const CLOSE_TOO_MANY_SOCKETS: u16 = 4429;
/// Frames waiting for a socket that does not read: past this many the socket is closed
/// (DESIGN.md §2: a peer that stops reading is closed, never buffered without limit).
pub const MAX_QUEUED_FRAMES: usize = 256;
/// Requests one socket may have in progress at once; more are refused, so one client's
/// burst cannot take every database connection from the others.
pub const MAX_IN_FLIGHT: usize = 8;
/// Requests per socket per 10 seconds.
pub const MAX_REQUESTS_PER_10S: u32 = 200;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Who is on the other end: a signed-in user, or a guest holding a link.
#[derive(Clone)]
pub enum Peer {
    /// `enrol_required`: the session must enrol a second factor first.
    User { session_id: String, user: UserRow, enrol_required: bool },
    Guest(GuestPass),
}

pub struct SessionActor {
    conn_id: u64,
    peer: Peer,
    svc: Services,
    live: Live,
    last_heard: Instant,
    heartbeat_interval: Duration,
    client_timeout: Duration,
    /// False until the Hello went out; events that arrive before are held back.
    ready: bool,
    backlog: Vec<Bytes>,
    /// The projects this socket follows (their actors know it by `conn_id`).
    subscriptions: HashSet<String>,
    in_flight: usize,
    window: (Instant, u32),
    cut_off: Option<CutOff>,
    /// Resolves when the last write this socket sent has been handled. Requests run
    /// concurrently, and a write awaits the database and the project actor before it
    /// applies, so without this a quick second change (a slider dragged, two saves)
    /// could overtake the first and leave the older value; and a read sent after a
    /// write could miss it.
    last_write: Option<Shared<oneshot::Receiver<()>>>,
    /// The upgrade request's span (with its request id): every line this socket
    /// logs is in it (`ops::logs`).
    span: tracing::Span,
}

pub struct SessionParts {
    pub peer: Peer,
    pub svc: Services,
    pub live: Live,
    /// How often the server pings, and how long a silent peer may stay.
    pub heartbeat: (Duration, Duration),
    pub cut_off: Option<CutOff>,
}

impl SessionActor {
    pub fn new(p: SessionParts) -> SessionActor {
        SessionActor {
            conn_id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            peer: p.peer,
            svc: p.svc,
            live: p.live,
            last_heard: Instant::now(),
            heartbeat_interval: p.heartbeat.0,
            client_timeout: p.heartbeat.1,
            ready: false,
            backlog: Vec::new(),
            subscriptions: HashSet::new(),
            in_flight: 0,
            window: (Instant::now(), 0),
            cut_off: p.cut_off,
            last_write: None,
            span: tracing::Span::current(),
        }
    }

    /// What this request waits for (the writes sent before it) and, for a write, the
    /// token whose drop tells later requests it is done.
    fn order(&mut self, write: bool) -> (Option<Shared<oneshot::Receiver<()>>>, Option<oneshot::Sender<()>>) {
        let after = self.last_write.clone();
        if !write {
            return (after, None);
        }
        let (done, done_rx) = oneshot::channel();
        self.last_write = Some(done_rx.shared());
        (after, Some(done))
    }

    /// The session and user ids this socket joins under: a guest's are its link's.
    fn join_ids(&self) -> (String, String) {
        match &self.peer {
            Peer::User { session_id, user, .. } => (session_id.clone(), user.id.clone()),
            Peer::Guest(pass) => {
                let principal = Guest::principal_id(&pass.guest.link_id);
                (format!("{principal}:{}", self.conn_id), principal)
            }
        }
    }

    /// How the hub and project actors reach this socket.
    fn socket_handle(&self, ctx: &mut ws::WebsocketContext<Self>) -> SocketHandle {
        SocketHandle {
            conn_id: self.conn_id,
            push: ctx.address().recipient(),
            control: ctx.address().recipient(),
            cut_off: self.cut_off.clone(),
        }
    }

    fn send(&self, ctx: &mut ws::WebsocketContext<Self>, msg: &ServerMsg) {
        match encode(msg) {
            Ok(bytes) => ctx.binary(bytes),
            Err(err) => tracing::error!(error = %err, "could not encode a server message"),
        }
    }

    fn reply_error(&self, ctx: &mut ws::WebsocketContext<Self>, id: Option<u32>, error: ApiError) {
        self.send(ctx, &ServerMsg::Error { id, error });
    }

    fn close(&self, ctx: &mut ws::WebsocketContext<Self>, code: CloseCode, description: &str) {
        ctx.close(Some(CloseReason { code, description: Some(description.to_owned()) }));
        ctx.stop();
    }

    /// Joins the hub first and reads the snapshot second, holding back events that
    /// arrive in between: the client gets a snapshot and then every later change.
    fn start_session(&mut self, ctx: &mut ws::WebsocketContext<Self>) {
        let Peer::User { session_id, user, .. } = self.peer.clone() else { return self.start_guest(ctx) };
        let store = self.svc.store.clone();
        let user_id = user.id.clone();
        async move { users::builders_of_homeowner(store.pool(), &user_id).await }
            .instrument(self.span.clone())
            .into_actor(self)
            .then(move |watchers, act, ctx| {
                let join = Join {
                    session_id: session_id.clone(),
                    user_id: user.id.clone(),
                    role: User::of(&user).role,
                    watchers: watchers.unwrap_or_default(),
                    socket: act.socket_handle(ctx),
                    guest: false,
                };
                let (store, live) = (act.svc.store.clone(), act.live.clone());
                async move {
                    if let Err(refused) = live.join(join).await? {
                        return Ok(Err(Some(refused)));
                    }
                    // A logout that ran between the upgrade's check and the join could
                    // not reach this socket: look again, now that it would.
                    if !sessions::exists(store.pool(), &session_id).await? {
                        return Ok(Err(None));
                    }
                    let online = live.online_users().await;
                    snapshot::hello(&store, &user, &online).await.map(|h| Ok(ServerMsg::Hello(h)))
                }
                .into_actor(act)
            })
            .map(|hello, act, ctx| act.greet(ctx, hello, "logged_out"))
            .wait(ctx);
    }

    /// A guest's socket: joins the hub under its link (so a revocation anywhere reaches
    /// it), then watches the linked project in the project actor's turn, and greets
    /// with what the link shows. It closes when the link expires, even if nothing else
    /// happens.
    fn start_guest(&mut self, ctx: &mut ws::WebsocketContext<Self>) {
        let Peer::Guest(pass) = self.peer.clone() else { return };
        if let Some(at) = pass.expires_at {
            let left = u64::try_from(at - crate::store::now_ms()).unwrap_or(0);
            ctx.run_later(Duration::from_millis(left), |act, ctx| act.end(ctx, guests::LINK_INACTIVE_REASON));
        }
        let (session_id, user_id) = self.join_ids();
        let socket = self.socket_handle(ctx);
        let join = Join { session_id, user_id, role: Role::Homeowner, watchers: Vec::new(), socket: socket.clone(), guest: true };
        let (svc, live) = (self.svc.clone(), self.live.clone());
        async move {
            if let Err(refused) = live.join(join).await? {
                return Ok(Err(Some(refused)));
            }
            // A revocation between the upgrade's check and the join could not reach
            // this socket: look again, now that it would.
            let Ok(pass) = guests::pass_by_id(&svc, &pass.guest.link_id).await else { return Ok(Err(None)) };
            let watch = SubscribeGuest { guest: pass.guest.clone(), socket };
            let watched = match live.subscribe_guest(&pass.guest.project_id, watch).await {
                Ok(watched) => watched,
                Err(err) if err.code() == ErrorCode::InvalidToken => return Ok(Err(None)),
                Err(err) => return Err(err),
            };
            // A report link shows its report as it was made, not the project
            // (docs/FEATURES.md, "Progress reports").
            let hello = match &pass.guest.report_id {
                Some(_) => {
                    let report = match crate::domain::sharing::reports::shared(&svc, &pass.guest).await {
                        Ok(report) => report,
                        Err(err) if err.code() == ErrorCode::NotFound => return Ok(Err(None)),
                        Err(err) => return Err(err),
                    };
                    let milestones = MilestonePlan { project_id: watched.project.id.clone(), milestones: Vec::new(), version: 0 };
                    GuestHello {
                        protocol_version: PROTOCOL_VERSION,
                        server_time: crate::store::now_ms(),
                        access: pass.access,
                        project: watched.project,
                        milestones,
                        photos: Vec::new(),
                        photo_count: 0,
                        next_photos: None,
                        report: Some(Box::new(report)),
                    }
                }
                None => GuestHello {
                    protocol_version: PROTOCOL_VERSION,
                    server_time: crate::store::now_ms(),
                    access: pass.access,
                    project: watched.project,
                    milestones: watched.milestones,
                    photos: watched.photos,
                    photo_count: watched.photo_count,
                    next_photos: watched.next_photos,
                    report: None,
                },
            };
            Ok(Ok(ServerMsg::GuestHello(hello)))
        }
        .instrument(self.span.clone())
        .into_actor(self)
        .map(|outcome, act, ctx| {
            if let (Ok(Ok(_)), Peer::Guest(pass)) = (&outcome, &act.peer) {
                act.subscriptions.insert(pass.guest.project_id.clone());
            }
            act.greet(ctx, outcome, guests::LINK_INACTIVE_REASON)
        })
        .wait(ctx);
    }

    /// Sends the first frame, or closes: `Err(None)` means the session (or link) ended
    /// before the socket could be greeted, and `ended` says why.
    fn greet(
        &mut self,
        ctx: &mut ws::WebsocketContext<Self>,
        hello: Result<std::result::Result<ServerMsg, Option<Refused>>, Error>,
        ended: &str,
    ) {
        match hello {
            Ok(Err(None)) => self.end(ctx, ended),
            Ok(Err(Some(refused))) => {
                let why = match refused {
                    Refused::TooManyForSession => "Too many connections for this session",
                    Refused::TooManyForUser => "Too many connections for this account",
                };
                self.close(ctx, CloseCode::Other(CLOSE_TOO_MANY_SOCKETS), why);
            }
            Ok(Ok(hello)) => {
                self.send(ctx, &hello);
                self.ready = true;
                for frame in std::mem::take(&mut self.backlog) {
                    ctx.binary(frame);
                }
            }
            Err(err) => {
                let _span = self.span.clone().entered();
                err.log("building the snapshot");
                self.close(ctx, CloseCode::Error, "Could not load your data");
            }
        }
    }

    /// The session (or guest link) behind this socket is gone: say why, then close.
    fn end(&mut self, ctx: &mut ws::WebsocketContext<Self>, reason: &str) {
        self.send(ctx, &ServerMsg::Event { event: Event::SessionEnded { reason: reason.to_owned() } });
        self.close(ctx, CloseCode::Other(CLOSE_SESSION_ENDED), reason);
    }

    fn handle_frame(&mut self, ctx: &mut ws::WebsocketContext<Self>, bytes: &[u8]) {
        let ClientMsg { id, request } = match decode_client_msg(bytes) {
            Ok(msg) => msg,
            Err((id, err)) => {
                return self.reply_error(ctx, id, ApiError::new(ErrorCode::BadRequest, format!("Malformed message: {err}")));
            }
        };
        if let Err(error) = self.admit() {
            return self.reply_error(ctx, Some(id), error);
        }
        self.in_flight += 1;
        // Writes in the order sent; any request after the writes before it (the protocol's
        // request table says which requests write).
        let (after, done) = self.order(request.writes());
        let peer = match &self.peer {
            Peer::User { session_id, user, enrol_required } => Ok((session_id.clone(), User::of(user), *enrol_required)),
            Peer::Guest(pass) => Err(pass.guest.clone()),
        };
        let (session_id, actor, enrol_required) = match peer {
            Ok(user) => user,
            Err(guest) => {
                let svc = self.svc.clone();
                async move { dispatch_guest(&svc, &guest, request).await }
                    .instrument(self.span.clone())
                    .into_actor(self)
                    .map(move |outcome, act, ctx| {
                        act.in_flight -= 1;
                        drop(done);
                        match outcome {
                            Ok(response) => act.send(ctx, &ServerMsg::Reply { id, response }),
                            Err(err) => act.fail(ctx, id, err),
                        }
                    })
                    .spawn(ctx);
                return;
            }
        };
        match request {
            Request::Subscribe(subscribe) => self.subscribe(ctx, id, subscribe, actor, after),
            Request::Unsubscribe(protocol::Unsubscribe { id: project_id }) => {
                if self.subscriptions.remove(&project_id) {
                    self.live.unsubscribe(&project_id, self.conn_id);
                }
                self.in_flight -= 1;
                let done: <protocol::Unsubscribe as RequestMessage>::Reply = reply::Done {};
                self.send(ctx, &ServerMsg::Reply { id, response: done.into() });
            }
            other => {
                // Set before the search runs, so a change made meanwhile is heard.
                let watching = match &other {
                    Request::Search(search) => Some(self.live.watch_search(self.conn_id, search.watch)),
                    Request::EndSearch(_) => Some(self.live.watch_search(self.conn_id, false)),
                    _ => None,
                };
                let cx = RequestContext { svc: self.svc.clone(), live: self.live.clone(), actor, session_id, enrol_required };
                async move {
                    if let Some(after) = after {
                        let _ = after.await;
                    }
                    if let Some(watching) = watching {
                        watching.await;
                    }
                    let outcome = dispatch(cx, other).await;
                    drop(done);
                    outcome
                }
                .instrument(self.span.clone())
                .into_actor(self)
                .map(move |outcome, act, ctx| {
                    act.in_flight -= 1;
                    match outcome {
                        Ok((response, changes)) => {
                            act.live.publish(changes);
                            act.send(ctx, &ServerMsg::Reply { id, response });
                        }
                        Err(err) => act.fail(ctx, id, err),
                    }
                })
                .spawn(ctx);
            }
        }
    }

    fn fail(&self, ctx: &mut ws::WebsocketContext<Self>, id: u32, err: Error) {
        let _span = self.span.enter();
        err.log("request");
        self.reply_error(ctx, Some(id), err.api);
    }

    /// Admission control: a cap on concurrent requests and a rate per socket.
    fn admit(&mut self) -> std::result::Result<(), ApiError> {
        if self.in_flight >= MAX_IN_FLIGHT {
            return Err(ApiError::new(ErrorCode::RateLimited, "Too many requests at once. Please wait for the answers."));
        }
        let (start, count) = &mut self.window;
        if start.elapsed() >= Duration::from_secs(10) {
            *start = Instant::now();
            *count = 0;
        }
        *count += 1;
        if *count > MAX_REQUESTS_PER_10S {
            return Err(ApiError::new(ErrorCode::RateLimited, "Too many requests. Please slow down."));
        }
        Ok(())
    }

    /// Subscribes this socket to a project it may see: it then hears who else views it.
    /// The check and the subscription happen in one turn of the project's actor, so a
    /// change of the project's owners falls wholly before or after them.
    fn subscribe(
        &mut self,
        ctx: &mut ws::WebsocketContext<Self>,
        id: u32,
        request: protocol::Subscribe,
        user: User,
        after: Option<Shared<oneshot::Receiver<()>>>,
    ) {
        let live = self.live.clone();
        let Peer::User { user: row, .. } = &self.peer else { return };
        let viewer: UserSummary = views::summary(row);
        let socket = self.socket_handle(ctx);
        async move {
            if let Some(after) = after {
                let _ = after.await;
            }
            // Photos stored meanwhile are in the list, their events or both; clients
            // merge by id and version.
            let s = live.subscribe(&request.id, Subscribe { user, viewer, socket }).await?;
            let subscribed: <protocol::Subscribe as RequestMessage>::Reply = reply::Subscribed {
                milestones: s.milestones,
                project: s.project,
                viewers: s.viewers,
                photos: s.photos,
                favourites: s.favourites,
                next_photos: s.next_photos,
                photo_count: s.photo_count,
            };
            Ok::<_, Error>(subscribed)
        }
        .instrument(self.span.clone())
        .into_actor(self)
        .map(move |outcome, act, ctx| {
            act.in_flight -= 1;
            match outcome {
                Ok(subscribed) => {
                    act.subscriptions.insert(subscribed.project.id.clone());
                    act.send(ctx, &ServerMsg::Reply { id, response: subscribed.into() });
                }
                Err(err) => act.fail(ctx, id, err),
            }
        })
        .spawn(ctx);
    }
}

impl Actor for SessionActor {
    type Context = ws::WebsocketContext<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let span = self.span.clone();
        let _span = span.enter();
        // The bound on frames queued for this socket: the hub's try_send fails past it.
        ctx.set_mailbox_capacity(MAX_QUEUED_FRAMES);
        self.start_session(ctx);
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
        let _span = self.span.enter();
        self.live.leave(self.conn_id);
        for project_id in &self.subscriptions {
            self.live.unsubscribe(project_id, self.conn_id);
        }
    }
}

impl StreamHandler<std::result::Result<ws::Message, ws::ProtocolError>> for SessionActor {
    fn handle(&mut self, item: std::result::Result<ws::Message, ws::ProtocolError>, ctx: &mut Self::Context) {
        let span = self.span.clone();
        let _span = span.enter();
        self.last_heard = Instant::now();
        match item {
            Ok(ws::Message::Binary(bytes)) => self.handle_frame(ctx, &bytes),
            Ok(ws::Message::Ping(bytes)) => ctx.pong(&bytes),
            Ok(ws::Message::Pong(_)) | Ok(ws::Message::Nop) => {}
            Ok(ws::Message::Text(_)) => self.reply_error(
                ctx,
                None,
                ApiError::new(ErrorCode::BadRequest, "Text frames are not supported; send MessagePack in binary frames."),
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

impl Handler<Push> for SessionActor {
    type Result = ();

    fn handle(&mut self, Push(frame): Push, ctx: &mut Self::Context) {
        if self.ready {
            ctx.binary(frame);
        } else if self.backlog.len() < MAX_QUEUED_FRAMES {
            self.backlog.push(frame);
        } else {
            self.close(ctx, CloseCode::Again, "Connection too slow");
        }
    }
}

impl Handler<SocketCommand> for SessionActor {
    type Result = ();

    fn handle(&mut self, cmd: SocketCommand, ctx: &mut Self::Context) {
        let span = self.span.clone();
        let _span = span.enter();
        match cmd {
            SocketCommand::End { reason } => self.end(ctx, &reason),
            SocketCommand::TooSlow => self.close(ctx, CloseCode::Again, "Connection too slow"),
            SocketCommand::Resync => self.close(ctx, CloseCode::Restart, "Reconnect to resynchronise"),
            SocketCommand::Restart => self.close(ctx, CloseCode::Restart, "Server restarting"),
        }
    }
}
