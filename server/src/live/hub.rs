//! The Hub: which sockets are open, for which session and user; who is online; which
//! project actors are running. It fans each event out to exactly the sockets whose user
//! may see it, sending the same encoded bytes to each.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use actix::dev::SendError;
use actix::{Actor, Addr, AsyncContext, Context, Handler, Message, MessageResult, Recipient};
use bytes::Bytes;
use protocol::{encode, Event, Role, ServerMsg};

use super::bus::Bus;
use super::project::{Broadcast, ProjectActor};
use crate::domain::changes::Change;
use super::Push;
use crate::domain::services::Services;

/// What the hub can tell a socket to do besides pushing frames.
#[derive(Message, Clone, Debug)]
#[rtype(result = "()")]
pub enum SocketCommand {
    /// The session behind the socket is gone: say why, then close.
    End { reason: String },
    /// The socket fell too far behind; close it (the client reconnects and resyncs).
    TooSlow,
    /// Events may have been missed (the bus lost its connection): reconnect for a
    /// fresh snapshot.
    Resync,
}

/// Every socket reconnects for a fresh snapshot.
#[derive(Message)]
#[rtype(result = "()")]
pub struct ResyncAll;

#[derive(Message)]
#[rtype(result = "()")]
pub struct Join {
    pub conn_id: u64,
    pub session_id: String,
    pub user_id: String,
    pub role: Role,
    /// Builders who may see this user (for a homeowner): they get its presence.
    pub watchers: Vec<String>,
    pub push: Recipient<Push>,
    pub control: Recipient<SocketCommand>,
    /// Ends the connection at the socket level (when the peer stops reading).
    pub cut_off: Option<CutOff>,
}

/// Ends a connection whose peer stopped reading: a 1013 close frame when the socket can
/// still take one, else a shutdown underneath its actor (see `http::conn`).
pub type CutOff = std::sync::Arc<dyn Fn() + Send + Sync>;

#[derive(Message)]
#[rtype(result = "()")]
pub struct Leave {
    pub conn_id: u64,
}

/// Who an event is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Audience {
    /// Admins (who see everything) and these users.
    Users(Vec<String>),
    /// These users only: e.g. telling a builder a project left their view.
    Only(Vec<String>),
    /// The sockets subscribed to this project (through its project actor, which
    /// knows them and checked each one's access when it subscribed).
    Subscribers(String),
}

/// Sockets a project actor could not push to: their mailboxes are full.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Evict {
    pub conns: Vec<u64>,
}

/// A project's owners changed: its subscribers who may no longer see it are dropped.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Reauthorize {
    pub project_id: String,
    pub homeowner_id: String,
    pub builder_id: Option<String>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Deliver {
    pub frame: Bytes,
    pub audience: Audience,
}

/// Closes every socket of these sessions (logout).
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

#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSockets;

#[derive(Message)]
#[rtype(result = "HashSet<String>")]
pub struct OnlineUsers;

#[derive(Message)]
#[rtype(result = "Addr<ProjectActor>")]
pub struct ProjectActorFor {
    pub project_id: String,
}

#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct ProjectActorStopped {
    pub project_id: String,
    pub addr: Addr<ProjectActor>,
}

struct Conn {
    session_id: String,
    user_id: String,
    push: Recipient<Push>,
    control: Recipient<SocketCommand>,
    cut_off: Option<CutOff>,
}

pub struct Hub {
    svc: Services,
    bus: Option<Bus>,
    /// Users online on other instances: by user, the instances and when each last
    /// said so, and who may see the user.
    remote: HashMap<String, (HashMap<String, Instant>, Vec<String>)>,
    conns: HashMap<u64, Conn>,
    by_user: HashMap<String, Vec<u64>>,
    admins: HashSet<u64>,
    /// For online homeowners: the builders who may see them.
    watchers: HashMap<String, Vec<String>>,
    projects: HashMap<String, Addr<ProjectActor>>,
}

impl Hub {
    pub fn new(svc: Services) -> Hub {
        Hub {
            svc,
            bus: None,
            remote: HashMap::new(),
            conns: HashMap::new(),
            by_user: HashMap::new(),
            admins: HashSet::new(),
            watchers: HashMap::new(),
            projects: HashMap::new(),
        }
    }

    /// Sends a frame to one socket. A socket whose mailbox is full has stopped reading:
    /// it is dropped from the hub and told to close, so no queue grows without bound.
    /// One whose actor has just stopped is closing already; its `Leave` is on the way.
    fn send(&self, conn_id: u64, frame: &Bytes, slow: &mut Vec<u64>) {
        if let Some(conn) = self.conns.get(&conn_id) {
            if let Err(SendError::Full(_)) = conn.push.try_send(Push(frame.clone())) {
                slow.push(conn_id);
            }
        }
    }

    fn deliver(&mut self, frame: &Bytes, audience: &Audience) {
        self.deliver_except(frame, audience, None);
    }

    /// Delivers to the audience, skipping the sockets of `except` (a user is not told
    /// about their own presence).
    fn deliver_except(&mut self, frame: &Bytes, audience: &Audience, except: Option<&str>) {
        let mut slow = Vec::new();
        let mut sent: HashSet<u64> = HashSet::with_capacity(self.admins.len());
        if let Some(user) = except {
            sent.extend(self.by_user.get(user).into_iter().flatten().copied());
        }
        let users = match audience {
            Audience::Subscribers(project_id) => {
                if let Some(addr) = self.projects.get(project_id) {
                    addr.do_send(Broadcast(frame.clone()));
                }
                return;
            }
            Audience::Users(users) => {
                for &conn in &self.admins {
                    if sent.insert(conn) {
                        self.send(conn, frame, &mut slow);
                    }
                }
                users
            }
            Audience::Only(users) => users,
        };
        for user in users {
            for &conn in self.by_user.get(user).map(Vec::as_slice).unwrap_or(&[]) {
                if sent.insert(conn) {
                    self.send(conn, frame, &mut slow);
                }
            }
        }
        self.evict(slow);
    }

    /// Drops sockets that stopped reading and ends their connections.
    fn evict(&mut self, conns: Vec<u64>) {
        for conn in conns {
            if let Some(c) = self.remove(conn) {
                tracing::warn!(conn, user = %c.user_id, "socket fell behind; disconnecting it");
                c.control.do_send(SocketCommand::TooSlow);
                // Its writer is blocked on a full socket, so the actor may never run
                // again to close it: end the connection underneath.
                if let Some(cut_off) = c.cut_off {
                    cut_off();
                }
            }
        }
    }

    fn remove(&mut self, conn_id: u64) -> Option<Conn> {
        let conn = self.conns.remove(&conn_id)?;
        self.admins.remove(&conn_id);
        let now_offline = match self.by_user.get_mut(&conn.user_id) {
            Some(list) => {
                list.retain(|c| *c != conn_id);
                list.is_empty()
            }
            None => false,
        };
        if now_offline {
            self.by_user.remove(&conn.user_id);
            let watchers = self.watchers.remove(&conn.user_id).unwrap_or_default();
            self.local_presence(&conn.user_id, false, watchers);
        }
        Some(conn)
    }

    fn remote_online(&self, user_id: &str) -> bool {
        self.remote.get(user_id).is_some_and(|(instances, _)| !instances.is_empty())
    }

    fn is_online(&self, user_id: &str) -> bool {
        self.by_user.contains_key(user_id) || self.remote_online(user_id)
    }

    /// A user's local presence flipped: tell the other instances, and the local
    /// audience unless the user is (still) online elsewhere.
    fn local_presence(&mut self, user_id: &str, online: bool, watchers: Vec<String>) {
        if let Some(bus) = &self.bus {
            let (on, off) = if online { (vec![user_id.to_owned()], vec![]) } else { (vec![], vec![user_id.to_owned()]) };
            bus.publish_remote(Change::Presence { instance: bus.instance().to_owned(), online: on, offline: off });
        }
        if !self.remote_online(user_id) {
            self.presence(user_id, online, watchers);
        }
    }

    fn presence(&mut self, user_id: &str, online: bool, mut watchers: Vec<String>) {
        let event = ServerMsg::Event { event: Event::Presence { user_id: user_id.to_owned(), online } };
        if let Ok(bytes) = encode(&event) {
            watchers.retain(|w| w != user_id);
            self.deliver_except(&Bytes::from(bytes), &Audience::Users(watchers), Some(user_id));
        }
    }
}

impl Actor for Hub {
    type Context = Context<Self>;
}

impl Handler<Join> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Join, _: &mut Context<Self>) {
        let first = !self.by_user.contains_key(&msg.user_id);
        if msg.role == Role::Admin {
            self.admins.insert(msg.conn_id);
        }
        self.by_user.entry(msg.user_id.clone()).or_default().push(msg.conn_id);
        self.conns.insert(
            msg.conn_id,
            Conn {
                session_id: msg.session_id,
                user_id: msg.user_id.clone(),
                push: msg.push,
                control: msg.control,
                cut_off: msg.cut_off,
            },
        );
        self.watchers.insert(msg.user_id.clone(), msg.watchers.clone());
        if first {
            self.local_presence(&msg.user_id, true, msg.watchers);
        }
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
        self.deliver(&msg.frame, &msg.audience);
    }
}

impl Handler<Evict> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Evict, _: &mut Context<Self>) {
        self.evict(msg.conns);
    }
}

impl Handler<Reauthorize> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Reauthorize, _: &mut Context<Self>) {
        if let Some(addr) = self.projects.get(&msg.project_id) {
            addr.do_send(msg);
        }
    }
}

impl Handler<EndSessions> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndSessions, _: &mut Context<Self>) {
        for conn in self.conns.values().filter(|c| msg.session_ids.contains(&c.session_id)) {
            conn.control.do_send(SocketCommand::End { reason: msg.reason.clone() });
        }
    }
}

impl Handler<EndUser> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndUser, _: &mut Context<Self>) {
        let ending = self
            .conns
            .values()
            .filter(|c| c.user_id == msg.user_id && msg.keep_session.as_deref() != Some(c.session_id.as_str()));
        for conn in ending {
            conn.control.do_send(SocketCommand::End { reason: msg.reason.clone() });
        }
    }
}

/// Gives the hub the bus once both exist, so presence can reach other instances.
#[derive(Message)]
#[rtype(result = "()")]
pub struct AttachBus(pub Bus);

/// Presence reported by another instance, with who may see each user.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RemotePresence {
    pub instance: String,
    pub online: Vec<(String, Vec<String>)>,
    pub offline: Vec<(String, Vec<String>)>,
}

/// Another instance re-announces its online users this often; an instance silent for
/// three periods (it crashed) is taken as offline.
const PRESENCE_REFRESH: Duration = Duration::from_secs(30);
const PRESENCE_EXPIRY: Duration = Duration::from_secs(95);
/// Users per presence notification (Postgres NOTIFY payloads are at most 8000 bytes).
const PRESENCE_CHUNK: usize = 100;

impl Handler<AttachBus> for Hub {
    type Result = ();
    fn handle(&mut self, AttachBus(bus): AttachBus, ctx: &mut Context<Self>) {
        let shared = bus.is_shared();
        self.bus = Some(bus);
        if !shared {
            return;
        }
        ctx.run_interval(PRESENCE_REFRESH, |hub, _| {
            if let Some(bus) = &hub.bus {
                let users: Vec<String> = hub.by_user.keys().cloned().collect();
                for chunk in users.chunks(PRESENCE_CHUNK) {
                    bus.publish_remote(Change::Presence {
                        instance: bus.instance().to_owned(),
                        online: chunk.to_vec(),
                        offline: vec![],
                    });
                }
            }
            let mut gone = Vec::new();
            for (user, (instances, watchers)) in hub.remote.iter_mut() {
                let before = instances.len();
                instances.retain(|_, seen| seen.elapsed() < PRESENCE_EXPIRY);
                if before > 0 && instances.is_empty() {
                    gone.push((user.clone(), watchers.clone()));
                }
            }
            for (user, watchers) in gone {
                if !hub.is_online(&user) {
                    hub.presence(&user, false, watchers);
                }
            }
        });
    }
}

impl Handler<RemotePresence> for Hub {
    type Result = ();
    fn handle(&mut self, msg: RemotePresence, _: &mut Context<Self>) {
        for (user, watchers) in msg.online {
            let was = self.is_online(&user);
            let entry = self.remote.entry(user.clone()).or_default();
            entry.0.insert(msg.instance.clone(), Instant::now());
            entry.1 = watchers.clone();
            if !was {
                self.presence(&user, true, watchers);
            }
        }
        for (user, watchers) in msg.offline {
            let was = self.is_online(&user);
            if let Some(entry) = self.remote.get_mut(&user) {
                entry.0.remove(&msg.instance);
                if entry.0.is_empty() {
                    self.remote.remove(&user);
                }
            }
            if was && !self.is_online(&user) {
                self.presence(&user, false, watchers);
            }
        }
    }
}

impl Handler<ResyncAll> for Hub {
    type Result = ();
    fn handle(&mut self, _: ResyncAll, _: &mut Context<Self>) {
        for conn in self.conns.values() {
            conn.control.do_send(SocketCommand::Resync);
        }
    }
}

impl Handler<Watchers> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Watchers, _: &mut Context<Self>) {
        // Only online users have a presence audience to keep current.
        if let Some(watchers) = self.watchers.get_mut(&msg.user_id) {
            *watchers = msg.watchers;
        }
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
        let remote = self.remote.iter().filter(|(_, (i, _))| !i.is_empty()).map(|(u, _)| u.clone());
        MessageResult(self.by_user.keys().cloned().chain(remote).collect())
    }
}

impl Handler<ProjectActorFor> for Hub {
    type Result = MessageResult<ProjectActorFor>;
    fn handle(&mut self, msg: ProjectActorFor, ctx: &mut Context<Self>) -> Self::Result {
        if let Some(addr) = self.projects.get(&msg.project_id).filter(|a| a.connected()) {
            return MessageResult(addr.clone());
        }
        let addr = ProjectActor::new(msg.project_id.clone(), self.svc.clone(), ctx.address(), self.bus.clone()).start();
        self.projects.insert(msg.project_id, addr.clone());
        MessageResult(addr)
    }
}

impl Handler<ProjectActorStopped> for Hub {
    type Result = ();
    fn handle(&mut self, msg: ProjectActorStopped, _: &mut Context<Self>) {
        if self.projects.get(&msg.project_id) == Some(&msg.addr) {
            self.projects.remove(&msg.project_id);
        }
    }
}
