//! The live model (DESIGN.md §2). The bus carries changes to every instance, where the
//! publisher turns them into events for their audiences; the hub knows every open
//! socket and presence; the registry runs a ProjectActor per live project, which
//! serialises that project's changes and subscriptions.
//!
//! One way out for changes: use cases return what they changed, and `Exit::publish`
//! (the one caller of `Bus::publish`) sends it on after the commit — for the
//! transports through `Live::publish`, for a project's turns from inside the turn, for
//! the hub's presence reports alike. One way in for a project's changes: `Live`'s
//! `Turns::take`, which runs a step in the project actor's turn. The transports (HTTP
//! handlers, the socket session) use `Live`'s methods and never reach the hub, the
//! registry or a project actor themselves.

pub mod bus;
pub mod hub;
pub mod plan;
pub mod presence;
pub mod project;
pub mod publisher;
pub mod registry;
pub mod socket;

use std::collections::HashSet;
use std::time::Duration;

use actix::{Actor, Addr};
use bytes::Bytes;
use futures_util::future::BoxFuture;

use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::Audience;
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::{Step, Turns};
use crate::error::{Error, Result};
use crate::store::Store;
use bus::Bus;
use hub::{CountSockets, Deliver, Hub, Leave, OnlineUsers, RestartAll, Searching, SearchingCount};
use registry::Registry;

pub use hub::{Join, Refused, SocketCaps};
pub use project::{GuestSubscribed, Subscribe, SubscribeGuest, Subscribed};

/// An encoded server frame, shared by every session it goes to (encoded once).
#[derive(actix::Message, Clone, Debug)]
#[rtype(result = "()")]
pub struct Push(pub Bytes);

/// The one way out for committed changes: to this instance's publisher and, with
/// Postgres, to every other instance's (DESIGN.md §2 "One path for every change").
#[derive(Clone)]
pub struct Exit {
    bus: Bus,
}

impl Exit {
    /// Publishes what a use case changed, in order, after its transaction committed.
    pub fn publish(&self, changes: Vec<Change>) {
        self.send(changes.into_iter().map(|c| (c, false)).collect());
    }

    /// Publishes what a project's turn changed, each with whether the project's actor
    /// has sent its open pages their part already.
    pub(crate) fn publish_from_turn(&self, changes: Vec<(Change, bool)>) {
        self.send(changes);
    }

    fn send(&self, changes: Vec<(Change, bool)>) {
        if !changes.is_empty() {
            self.bus.publish(changes);
        }
    }

    /// This instance's id, as other instances see it.
    pub fn instance(&self) -> &str {
        self.bus.instance()
    }

    /// Whether other instances may exist (they share a Postgres database).
    pub fn is_shared(&self) -> bool {
        self.bus.is_shared()
    }
}

/// The live parts, built in dependency order: the bus (and its exit) first, then the
/// hub and the registry (both given the exit), then the publisher that feeds them.
#[derive(Clone)]
pub struct Live {
    exit: Exit,
    hub: Addr<Hub>,
    registry: Addr<Registry>,
}

impl Live {
    pub async fn start(store: &Store, database_url: &str, svc: Services, caps: SocketCaps) -> Live {
        let (bus, inbound) = Bus::start(store, database_url).await;
        let exit = Exit { bus };
        let searching = SearchingCount::default();
        let hub = Hub::new(exit.clone(), caps, searching.clone()).start();
        let registry = Registry::new(svc, exit.clone()).start();
        tokio::spawn(publisher::run(inbound, store.clone(), hub.clone(), registry.clone(), searching));
        Live { exit, hub, registry }
    }

    /// Hands the transports' changes to the exit (`Exit::publish`), after the commit.
    pub fn publish(&self, changes: Vec<Change>) {
        self.exit.publish(changes);
    }

    /// Admits a socket, or says why not (too many for its session or user).
    pub async fn join(&self, join: Join) -> Result<std::result::Result<(), Refused>> {
        self.hub.send(join).await.map_err(Error::internal)
    }

    /// The socket opened (`on`) or closed its search results: while open, it hears
    /// `search_changed` (docs/FEATURES.md, "Tags and search").
    ///
    /// The hub has it in order with the socket's other messages at once; the returned
    /// future is done when the hub has counted it, which the publisher reads before it
    /// tells searchers of a change: awaited before the search runs, no change made
    /// meanwhile goes unheard.
    pub fn watch_search(&self, conn_id: u64, on: bool) -> impl std::future::Future<Output = ()> {
        let counted = self.hub.send(Searching { conn_id, on });
        async move {
            let _ = counted.await;
        }
    }

    /// The socket closed.
    pub fn leave(&self, conn_id: u64) {
        self.hub.do_send(Leave { conn_id });
    }

    /// Who is online, on this instance or another.
    pub async fn online_users(&self) -> HashSet<String> {
        self.hub.send(OnlineUsers).await.unwrap_or_default()
    }

    /// Sockets open on this instance.
    pub async fn count_sockets(&self) -> usize {
        self.hub.send(CountSockets).await.unwrap_or(0)
    }

    /// Tells every socket here to reconnect within `window` (a drain); answers how many.
    pub async fn restart_all(&self, window: Duration) -> usize {
        self.hub.send(RestartAll { window }).await.unwrap_or(0)
    }

    /// An encoded frame for an audience of users on this instance (the publisher's
    /// last step; project subscribers and guests are reached through their project).
    pub fn deliver(&self, frame: Bytes, audience: Audience) {
        self.hub.do_send(Deliver { frame, audience });
    }

    /// Subscribes a member's socket to a project in the project's turn, if they may
    /// see it.
    pub async fn subscribe(&self, project_id: &str, subscribe: Subscribe) -> Result<Subscribed> {
        registry::ask(&self.registry, project_id, subscribe).await.map_err(Error::internal)?
    }

    /// Subscribes a guest's socket to their link's project, if the link still shows it.
    pub async fn subscribe_guest(&self, project_id: &str, subscribe: SubscribeGuest) -> Result<GuestSubscribed> {
        registry::ask(&self.registry, project_id, subscribe).await.map_err(Error::internal)?
    }

    /// The socket no longer follows the project.
    pub fn unsubscribe(&self, project_id: &str, conn_id: u64) {
        self.registry.do_send(registry::Unsubscribe { project_id: project_id.to_owned(), conn_id });
    }

    /// Sockets subscribed to the project on this instance (none when its actor does
    /// not run).
    pub async fn count_subscribers(&self, project_id: &str) -> usize {
        self.registry.send(registry::CountSubscribers { project_id: project_id.to_owned() }).await.unwrap_or(0)
    }
}

/// A project's turns, its actor found through the registry at every step: an upload's
/// photos may arrive further apart than an idle project actor lives.
impl Turns for Live {
    fn take<T: Send + 'static>(&self, project_id: &str, step: Step<T>) -> BoxFuture<'static, Result<T>> {
        Box::pin(registry::take(self.registry.clone(), project_id.to_owned(), step))
    }
}
