//! The Hub: which sockets are open, for which session and user. It fans each event
//! out to exactly the sockets whose user is in the event's audience (decided by
//! `domain::policy`), sending the same encoded bytes to each; it ends sessions'
//! sockets; it caps sockets per session and per user; and it keeps presence
//! (`presence.rs`). Project actors live in `registry.rs`: the hub never sees them.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use actix::{Actor, AsyncContext, Context, Handler, Message, MessageResult};
use bytes::Bytes;
use protocol::{encode, Event, Role, ServerMsg};

use super::bus::Bus;
use super::presence::{self, Announcement, Presence};
use super::socket::{NotQueued, SocketCommand, SocketHandle};
use crate::domain::changes::Change;
use crate::domain::policy::{self, Audience};
use crate::ops::metrics::{EVENTS_SENT, WS_CONNECTIONS, WS_OPENED, WS_RESTART_CLOSED, WS_SLOW_CLOSED};

/// How many sockets one session and one user may have open here (the configuration's
/// `SITECAST_WS_MAX_PER_SESSION` and `SITECAST_WS_MAX_PER_USER`).
#[derive(Debug, Clone, Copy)]
pub struct SocketCaps {
    pub per_session: usize,
    pub per_user: usize,
}
/// Users per presence notification (Postgres NOTIFY payloads are at most 8000 bytes).
const PRESENCE_CHUNK: usize = 100;

/// Why a socket was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    TooManyForSession,
    TooManyForUser,
}

#[derive(Message)]
#[rtype(result = "Result<(), Refused>")]
pub struct Join {
    pub session_id: String,
    pub user_id: String,
    pub role: Role,
    /// Builders who may see this user (for a homeowner): they get its presence.
    pub watchers: Vec<String>,
    pub socket: SocketHandle,
    /// A guest's socket (issue 18): `user_id` is the link's principal id. Guests are
    /// counted and ended like users but take no part in presence.
    pub guest: bool,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Leave {
    pub conn_id: u64,
}

/// An encoded event for an audience of users (project subscribers are reached
/// through their project actor instead).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Deliver {
    pub frame: Bytes,
    pub audience: Audience,
}

/// Closes every socket of these sessions (logout), on this instance.
#[derive(Message)]
#[rtype(result = "()")]
pub struct EndSessions {
    pub session_ids: Vec<String>,
    pub reason: String,
}

/// Closes every socket of a user, but those of `keep_session`.
#[derive(Message)]
#[rtype(result = "()")]
pub struct EndUser {
    pub user_id: String,
    pub keep_session: Option<String>,
    pub reason: String,
}

/// Builders who may now see a homeowner (their presence audience changed).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Watchers {
    pub user_id: String,
    pub watchers: Vec<String>,
}

/// Presence reported by another instance, with who may see each user.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RemotePresence {
    pub instance: String,
    pub online: Vec<(String, Vec<String>)>,
    pub offline: Vec<(String, Vec<String>)>,
}

/// Every socket reconnects for a fresh snapshot.
#[derive(Message)]
#[rtype(result = "()")]
pub struct ResyncAll;

/// This instance is stopping: every socket is told to reconnect (1012), each at a
/// random moment within `window` so the clients do not all return at once; sockets
/// that join from now on are told at once. Answers how many sockets were told.
#[derive(Message)]
#[rtype(result = "usize")]
pub struct RestartAll {
    pub window: Duration,
}

#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSockets;

#[derive(Message)]
#[rtype(result = "HashSet<String>")]
pub struct OnlineUsers;

struct Conn {
    session_id: String,
    user_id: String,
    socket: SocketHandle,
    guest: bool,
}

pub struct Hub {
    bus: Bus,
    caps: SocketCaps,
    conns: HashMap<u64, Conn>,
    by_user: HashMap<String, Vec<u64>>,
    by_session: HashMap<String, usize>,
    admins: HashSet<u64>,
    presence: Presence,
    /// Set by `RestartAll`: the instance is stopping.
    restarting: bool,
}

impl Hub {
    pub fn new(bus: Bus, caps: SocketCaps) -> Hub {
        Hub {
            bus,
            caps,
            conns: HashMap::new(),
            by_user: HashMap::new(),
            by_session: HashMap::new(),
            admins: HashSet::new(),
            presence: Presence::default(),
            restarting: false,
        }
    }

    /// Delivers to the audience, skipping the sockets of `except` (a user is not told
    /// about their own presence). Sockets that stopped reading are cut off.
    fn deliver(&mut self, frame: &Bytes, audience: &Audience, except: Option<&str>) {
        let skip: HashSet<u64> = except.and_then(|u| self.by_user.get(u)).into_iter().flatten().copied().collect();
        let targets: Vec<u64> = match audience {
            Audience::Subscribers(_) | Audience::Guests { .. } => {
                tracing::error!("subscriber and guest events go through the project's actor, not the hub");
                return;
            }
            Audience::Users(users) => {
                let admins = self.admins.iter().filter(|c| !skip.contains(c)).copied();
                admins.chain(self.users_conns(users, &skip)).collect()
            }
            Audience::Only(users) => self.users_conns(users, &skip),
        };
        let mut slow = Vec::new();
        let mut seen = HashSet::with_capacity(targets.len());
        let mut sent = 0u64;
        for conn_id in targets {
            if !seen.insert(conn_id) {
                continue;
            }
            if let Some(conn) = self.conns.get(&conn_id) {
                // A closed one is leaving already: its Leave follows.
                match conn.socket.push(frame) {
                    Ok(()) => sent += 1,
                    Err(NotQueued::Full) => slow.push(conn_id),
                    Err(NotQueued::Gone) => {}
                }
            }
        }
        metrics::counter!(EVENTS_SENT, "audience" => "users").increment(sent);
        self.evict(slow);
    }

    fn users_conns(&self, users: &[String], skip: &HashSet<u64>) -> Vec<u64> {
        users
            .iter()
            .flat_map(|u| self.by_user.get(u).map(Vec::as_slice).unwrap_or(&[]))
            .filter(|c| !skip.contains(c))
            .copied()
            .collect()
    }

    /// Drops sockets that stopped reading and ends their connections.
    fn evict(&mut self, conns: Vec<u64>) {
        for conn in conns {
            if let Some(c) = self.remove(conn) {
                tracing::warn!(conn, user = %c.user_id, "socket fell behind; disconnecting it");
                metrics::counter!(WS_SLOW_CLOSED).increment(1);
                c.socket.cut_off_slow();
            }
        }
    }

    fn remove(&mut self, conn_id: u64) -> Option<Conn> {
        let conn = self.conns.remove(&conn_id)?;
        metrics::gauge!(WS_CONNECTIONS).decrement(1.0);
        self.admins.remove(&conn_id);
        if let Some(n) = self.by_session.get_mut(&conn.session_id) {
            *n -= 1;
            if *n == 0 {
                self.by_session.remove(&conn.session_id);
            }
        }
        let now_offline = match self.by_user.get_mut(&conn.user_id) {
            Some(list) => {
                list.retain(|c| *c != conn_id);
                list.is_empty()
            }
            None => false,
        };
        if now_offline {
            self.by_user.remove(&conn.user_id);
        }
        if now_offline && !conn.guest {
            self.tell_instances(&conn.user_id, false);
            if let Some(a) = self.presence.local_left(&conn.user_id) {
                self.announce(a);
            }
        }
        Some(conn)
    }

    /// A user's presence here flipped: the other instances hear of it.
    fn tell_instances(&self, user_id: &str, online: bool) {
        let (on, off) = if online { (vec![user_id.to_owned()], vec![]) } else { (vec![], vec![user_id.to_owned()]) };
        self.bus.publish_remote(Change::Presence { instance: self.bus.instance().to_owned(), online: on, offline: off });
    }

    fn announce(&mut self, a: Announcement) {
        let event = ServerMsg::Event { event: Event::Presence { user_id: a.user_id.clone(), online: a.online } };
        if let Ok(bytes) = encode(&event) {
            let audience = policy::presence_audience(&a.user_id, &a.watchers);
            self.deliver(&Bytes::from(bytes), &audience, Some(&a.user_id));
        }
    }

    fn refresh_presence(&mut self) {
        let users: Vec<String> = self.presence.local_users().cloned().collect();
        for chunk in users.chunks(PRESENCE_CHUNK) {
            self.bus.publish_remote(Change::Presence {
                instance: self.bus.instance().to_owned(),
                online: chunk.to_vec(),
                offline: vec![],
            });
        }
        for a in self.presence.expire(Instant::now()) {
            self.announce(a);
        }
    }

    fn end(&self, reason: &str, which: impl Fn(&Conn) -> bool) {
        for conn in self.conns.values().filter(|c| which(c)) {
            conn.socket.command(SocketCommand::End { reason: reason.to_owned() });
        }
    }
}

impl Actor for Hub {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.bus.is_shared() {
            ctx.run_interval(presence::REFRESH, |hub, _| hub.refresh_presence());
        }
    }
}

impl Handler<Join> for Hub {
    type Result = Result<(), Refused>;
    fn handle(&mut self, msg: Join, _: &mut Context<Self>) -> Result<(), Refused> {
        if self.by_session.get(&msg.session_id).copied().unwrap_or(0) >= self.caps.per_session {
            return Err(Refused::TooManyForSession);
        }
        if self.by_user.get(&msg.user_id).map_or(0, Vec::len) >= self.caps.per_user {
            return Err(Refused::TooManyForUser);
        }
        let conn_id = msg.socket.conn_id;
        let first = !self.by_user.contains_key(&msg.user_id) && !msg.guest;
        if msg.role == Role::Admin && !msg.guest {
            self.admins.insert(conn_id);
        }
        self.by_user.entry(msg.user_id.clone()).or_default().push(conn_id);
        *self.by_session.entry(msg.session_id.clone()).or_default() += 1;
        if self.restarting {
            msg.socket.command(SocketCommand::Restart);
        }
        let guest = msg.guest;
        self.conns.insert(conn_id, Conn { session_id: msg.session_id, user_id: msg.user_id.clone(), socket: msg.socket, guest });
        metrics::gauge!(WS_CONNECTIONS).increment(1.0);
        metrics::counter!(WS_OPENED).increment(1);
        if first {
            self.tell_instances(&msg.user_id, true);
        }
        if guest {
            return Ok(());
        }
        if let Some(a) = self.presence.local_joined(&msg.user_id, msg.watchers) {
            self.announce(a);
        }
        Ok(())
    }
}

impl Handler<Leave> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Leave, _: &mut Context<Self>) {
        self.remove(msg.conn_id);
    }
}

impl Handler<Deliver> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Deliver, _: &mut Context<Self>) {
        self.deliver(&msg.frame, &msg.audience, None);
    }
}

impl Handler<EndSessions> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndSessions, _: &mut Context<Self>) {
        self.end(&msg.reason, |c| msg.session_ids.contains(&c.session_id));
    }
}

impl Handler<EndUser> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndUser, _: &mut Context<Self>) {
        self.end(&msg.reason, |c| c.user_id == msg.user_id && msg.keep_session.as_deref() != Some(c.session_id.as_str()));
    }
}

impl Handler<RemotePresence> for Hub {
    type Result = ();
    fn handle(&mut self, msg: RemotePresence, _: &mut Context<Self>) {
        for a in self.presence.remote(&msg.instance, msg.online, msg.offline, Instant::now()) {
            self.announce(a);
        }
    }
}

impl Handler<ResyncAll> for Hub {
    type Result = ();
    fn handle(&mut self, _: ResyncAll, _: &mut Context<Self>) {
        for conn in self.conns.values() {
            conn.socket.command(SocketCommand::Resync);
        }
    }
}

impl Handler<RestartAll> for Hub {
    type Result = usize;
    fn handle(&mut self, msg: RestartAll, ctx: &mut Context<Self>) -> usize {
        use rand::Rng;
        self.restarting = true;
        let window_ms = msg.window.as_millis().max(1) as u64;
        let mut rng = rand::thread_rng();
        for &conn_id in self.conns.keys() {
            let at = Duration::from_millis(rng.gen_range(0..window_ms));
            ctx.run_later(at, move |hub, _| {
                if let Some(conn) = hub.conns.get(&conn_id) {
                    conn.socket.command(SocketCommand::Restart);
                    metrics::counter!(WS_RESTART_CLOSED).increment(1);
                }
            });
        }
        self.conns.len()
    }
}

impl Handler<Watchers> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Watchers, _: &mut Context<Self>) {
        self.presence.set_watchers(&msg.user_id, msg.watchers);
    }
}

impl Handler<CountSockets> for Hub {
    type Result = usize;
    fn handle(&mut self, _: CountSockets, _: &mut Context<Self>) -> usize {
        self.conns.len()
    }
}

impl Handler<OnlineUsers> for Hub {
    type Result = MessageResult<OnlineUsers>;
    fn handle(&mut self, _: OnlineUsers, _: &mut Context<Self>) -> Self::Result {
        MessageResult(self.presence.online_users().cloned().collect())
    }
}
