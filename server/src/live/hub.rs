//! The Hub: which sockets are open, for which session and user. It fans each event
//! out to exactly the sockets whose user `policy::receives` it, sending the same
//! encoded bytes to each; it ends sessions' sockets; it caps sockets per session and
//! per user; and it keeps presence (`presence.rs`), which it reports to the other
//! instances through the exit like any change. Project actors live in `registry.rs`:
//! the hub never sees them.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{Actor, AsyncContext, Context, Handler, Message, MessageResult};
use bytes::Bytes;
use protocol::{encode, Event, Role, ServerMsg};

use super::presence::{self, Announcement, Presence};
use super::socket::{NotQueued, SocketCommand, SocketHandle};
use super::Exit;
use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Actor as User, Audience};
use crate::metric_names::{EVENTS_SENT, WS_CONNECTIONS, WS_OPENED, WS_RESTART_CLOSED, WS_SLOW_CLOSED};

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
    /// A guest's socket (docs/FEATURES.md, "The project's story"): `user_id` is the link's
    /// principal id. Guests are counted and ended like users but take no part in presence.
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

/// One user's sockets reconnect for a fresh snapshot: their place in their company
/// changed, and every check from now on must see the new one (docs/FEATURES.md,
/// "Builder companies").
#[derive(Message)]
#[rtype(result = "()")]
pub struct ResyncUser {
    pub user_id: String,
}

/// This instance is stopping: every socket is told to reconnect (1012), each at a
/// random moment within `window` so the clients do not all return at once; sockets
/// that join from now on are told at once. Answers how many sockets were told.
#[derive(Message)]
#[rtype(result = "usize")]
pub struct RestartAll {
    pub window: Duration,
}

/// A socket opened or closed its search results (docs/FEATURES.md, "Tags and search").
#[derive(Message)]
#[rtype(result = "()")]
pub struct Searching {
    pub conn_id: u64,
    pub on: bool,
}

#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSockets;

#[derive(Message)]
#[rtype(result = "HashSet<String>")]
pub struct OnlineUsers;

struct Conn {
    session_id: String,
    /// Whether the socket has search results open: only such sockets hear
    /// `search_changed`.
    searching: bool,
    /// The user behind the socket, as the policy sees them (a guest: its link's
    /// principal id, with no role of its own that reaches anything).
    user: User,
    socket: SocketHandle,
    guest: bool,
}

/// Who is connected, by socket: what the hub asks the policy about. Pure bookkeeping,
/// so the delivery rule is tested without sockets.
struct Index<C> {
    conns: HashMap<u64, C>,
    by_user: HashMap<String, Vec<u64>>,
    admins: HashSet<u64>,
}

impl<C> Index<C> {
    fn new() -> Index<C> {
        Index { conns: HashMap::new(), by_user: HashMap::new(), admins: HashSet::new() }
    }

    /// The sockets that receive an event for `audience`, each once, but those of
    /// `except` (a user is not told about their own presence). The index only narrows
    /// whom to ask — the sockets of the users the audience names, and the admins' —
    /// and `policy::receives` decides for each; subscribers and guests are reached
    /// through their project's actor, not here.
    fn receivers(&self, audience: &Audience, except: Option<&str>, user: impl Fn(&C) -> &User) -> Vec<u64> {
        let named: &[String] = match audience {
            Audience::Users(users) | Audience::Only(users) | Audience::Searchers(users) => users,
            Audience::Subscribers(_) | Audience::Guests { .. } => {
                tracing::error!("subscriber and guest events go through the project's actor, not the hub");
                return Vec::new();
            }
        };
        let candidates = self.admins.iter().chain(named.iter().flat_map(|u| self.by_user.get(u).into_iter().flatten()));
        let mut seen = HashSet::new();
        candidates
            .copied()
            .filter(|conn_id| seen.insert(*conn_id))
            .filter(|conn_id| {
                self.conns.get(conn_id).map(&user).is_some_and(|u| {
                    except != Some(u.id.as_str()) && policy::receives(u, audience, |_| false)
                })
            })
            .collect()
    }
}

pub struct Hub {
    exit: Exit,
    caps: SocketCaps,
    index: Index<Conn>,
    by_session: HashMap<String, usize>,
    presence: Presence,
    /// Set by `RestartAll`: the instance is stopping.
    restarting: bool,
    /// Sockets with search results open: none, and `search_changed` costs nothing.
    searching: SearchingCount,
}

/// How many of this instance's sockets have search results open. The hub counts; the
/// publisher reads it, and skips even reading a change's project when it is zero.
#[derive(Clone, Default)]
pub struct SearchingCount(Arc<AtomicUsize>);

impl SearchingCount {
    pub fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed) > 0
    }

    fn add(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    fn remove(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Hub {
    pub fn new(exit: Exit, caps: SocketCaps, searching: SearchingCount) -> Hub {
        Hub {
            exit,
            caps,
            index: Index::new(),
            by_session: HashMap::new(),
            presence: Presence::default(),
            restarting: false,
            searching,
        }
    }

    /// Delivers to the audience, skipping the sockets of `except`. Sockets that
    /// stopped reading are cut off.
    fn deliver(&mut self, frame: &Bytes, audience: &Audience, except: Option<&str>) {
        let searchers_only = matches!(audience, Audience::Searchers(_));
        if searchers_only && !self.searching.any() {
            return;
        }
        let targets = self.index.receivers(audience, except, |c| &c.user);
        let mut slow = Vec::new();
        let mut sent = 0u64;
        for conn_id in targets {
            if let Some(conn) = self.index.conns.get(&conn_id).filter(|c| c.searching || !searchers_only) {
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

    /// Drops sockets that stopped reading and ends their connections.
    fn evict(&mut self, conns: Vec<u64>) {
        for conn in conns {
            if let Some(c) = self.remove(conn) {
                tracing::warn!(conn, user = %c.user.id, "socket fell behind; disconnecting it");
                metrics::counter!(WS_SLOW_CLOSED).increment(1);
                c.socket.cut_off_slow();
            }
        }
    }

    fn remove(&mut self, conn_id: u64) -> Option<Conn> {
        let conn = self.index.conns.remove(&conn_id)?;
        metrics::gauge!(WS_CONNECTIONS).decrement(1.0);
        if conn.searching {
            self.searching.remove();
        }
        self.index.admins.remove(&conn_id);
        if let Some(n) = self.by_session.get_mut(&conn.session_id) {
            *n -= 1;
            if *n == 0 {
                self.by_session.remove(&conn.session_id);
            }
        }
        let user_id = &conn.user.id;
        let now_offline = match self.index.by_user.get_mut(user_id) {
            Some(list) => {
                list.retain(|c| *c != conn_id);
                list.is_empty()
            }
            None => false,
        };
        if now_offline {
            self.index.by_user.remove(user_id);
        }
        if now_offline && !conn.guest {
            self.tell_instances(user_id, false);
            if let Some(a) = self.presence.local_left(user_id) {
                self.announce(a);
            }
        }
        Some(conn)
    }

    /// A user's presence here flipped: the other instances hear of it. (This
    /// instance's own publisher passes its presence over: it is known here already.)
    fn tell_instances(&self, user_id: &str, online: bool) {
        if !self.exit.is_shared() {
            return;
        }
        let (on, off) = if online { (vec![user_id.to_owned()], vec![]) } else { (vec![], vec![user_id.to_owned()]) };
        self.exit.publish(vec![Change::Presence { instance: self.exit.instance().to_owned(), online: on, offline: off }]);
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
        let reports = users.chunks(PRESENCE_CHUNK).map(|chunk| Change::Presence {
            instance: self.exit.instance().to_owned(),
            online: chunk.to_vec(),
            offline: vec![],
        });
        self.exit.publish(reports.collect());
        for a in self.presence.expire(Instant::now()) {
            self.announce(a);
        }
    }

    fn end(&self, reason: &str, which: impl Fn(&Conn) -> bool) {
        for conn in self.index.conns.values().filter(|c| which(c)) {
            conn.socket.command(SocketCommand::End { reason: reason.to_owned() });
        }
    }
}

impl Actor for Hub {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.exit.is_shared() {
            ctx.run_interval(presence::REFRESH, |hub, _| hub.refresh_presence());
        }
    }
}

impl Handler<Searching> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Searching, _: &mut Context<Self>) {
        if let Some(conn) = self.index.conns.get_mut(&msg.conn_id) {
            if conn.searching != msg.on {
                conn.searching = msg.on;
                if msg.on {
                    self.searching.add();
                } else {
                    self.searching.remove();
                }
            }
        }
    }
}

impl Handler<Join> for Hub {
    type Result = Result<(), Refused>;
    fn handle(&mut self, msg: Join, _: &mut Context<Self>) -> Result<(), Refused> {
        if self.by_session.get(&msg.session_id).copied().unwrap_or(0) >= self.caps.per_session {
            return Err(Refused::TooManyForSession);
        }
        if self.index.by_user.get(&msg.user_id).map_or(0, Vec::len) >= self.caps.per_user {
            return Err(Refused::TooManyForUser);
        }
        let conn_id = msg.socket.conn_id;
        let first = !self.index.by_user.contains_key(&msg.user_id) && !msg.guest;
        // A guest is no user: whatever role it is given, it never counts as an admin.
        let role = if msg.guest { Role::Homeowner } else { msg.role };
        if role == Role::Admin {
            self.index.admins.insert(conn_id);
        }
        self.index.by_user.entry(msg.user_id.clone()).or_default().push(conn_id);
        *self.by_session.entry(msg.session_id.clone()).or_default() += 1;
        if self.restarting {
            msg.socket.command(SocketCommand::Restart);
        }
        let guest = msg.guest;
        // The hub delivers to users by id (and to admins); a builder's company plays
        // no part in that, so none is kept here.
        let user = User::new(msg.user_id.clone(), role);
        self.index.conns.insert(conn_id, Conn { session_id: msg.session_id, searching: false, user, socket: msg.socket, guest });
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
        self.end(&msg.reason, |c| c.user.id == msg.user_id && msg.keep_session.as_deref() != Some(c.session_id.as_str()));
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
        for conn in self.index.conns.values() {
            conn.socket.command(SocketCommand::Resync);
        }
    }
}

impl Handler<ResyncUser> for Hub {
    type Result = ();
    fn handle(&mut self, msg: ResyncUser, _: &mut Context<Self>) {
        for conn_id in self.index.by_user.get(&msg.user_id).into_iter().flatten() {
            if let Some(conn) = self.index.conns.get(conn_id) {
                conn.socket.command(SocketCommand::Resync);
            }
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
        for &conn_id in self.index.conns.keys() {
            let at = Duration::from_millis(rng.gen_range(0..window_ms));
            ctx.run_later(at, move |hub, _| {
                if let Some(conn) = hub.index.conns.get(&conn_id) {
                    conn.socket.command(SocketCommand::Restart);
                    metrics::counter!(WS_RESTART_CLOSED).increment(1);
                }
            });
        }
        self.index.conns.len()
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
        self.index.conns.len()
    }
}

impl Handler<OnlineUsers> for Hub {
    type Result = MessageResult<OnlineUsers>;
    fn handle(&mut self, _: OnlineUsers, _: &mut Context<Self>) -> Self::Result {
        MessageResult(self.presence.online_users().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str, role: Role) -> User {
        User::new(id, role)
    }

    /// Every socket, every audience the hub is given: the index picks exactly the
    /// sockets whose user `policy::receives` the event, each once, but the excepted.
    #[test]
    fn the_hub_delivers_to_whom_the_policy_says() {
        let people = [
            user("a1", Role::Admin),
            user("a2", Role::Admin),
            user("b1", Role::Builder),
            user("h1", Role::Homeowner),
            user("h2", Role::Homeowner),
            user("guest:l1", Role::Homeowner),
        ];
        let mut index: Index<User> = Index::new();
        // Two sockets for some: an event still reaches each socket once.
        for (conn, who) in people.iter().chain(&people[..3]).enumerate() {
            let conn = conn as u64;
            if who.role == Role::Admin {
                index.admins.insert(conn);
            }
            index.by_user.entry(who.id.clone()).or_default().push(conn);
            index.conns.insert(conn, who.clone());
        }
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let audiences = [
            Audience::Users(ids(&["h1", "b1"])),
            Audience::Users(ids(&[])),
            Audience::Users(ids(&["nobody", "h1", "h1"])),
            Audience::Only(ids(&["h2", "a1"])),
            Audience::Only(ids(&["guest:l1"])),
            Audience::Only(ids(&[])),
            policy::presence_audience("h1", &ids(&["b1", "h1"])),
        ];
        for audience in &audiences {
            for except in [None, Some("h1"), Some("a1")] {
                let mut picked = index.receivers(audience, except, |u| u);
                picked.sort_unstable();
                let mut expected: Vec<u64> = index
                    .conns
                    .iter()
                    .filter(|(_, u)| except != Some(u.id.as_str()) && policy::receives(u, audience, |_| false))
                    .map(|(c, _)| *c)
                    .collect();
                expected.sort_unstable();
                assert_eq!(picked, expected, "{audience:?} except {except:?}");
            }
        }
        assert!(index.receivers(&Audience::Subscribers("p".into()), None, |u| u).is_empty());
    }
}
