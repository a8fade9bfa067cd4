//! The live model (DESIGN.md §2). The bus carries changes to every instance, where the
//! publisher turns them into events for their audiences; the hub knows every open
//! socket and presence; the registry runs a ProjectActor per live project, which
//! serialises that project's changes and subscriptions.
//!
//! `Live::publish` is the one way out for changes: use cases return what they changed,
//! and the transports (HTTP handlers, the socket session) hand it here after the
//! commit. Nothing else tells sockets about changes.

pub mod bus;
pub mod hub;
pub mod presence;
pub mod project;
pub mod publisher;
pub mod registry;
pub mod socket;

use actix::{Actor, Addr};
use bytes::Bytes;

use crate::domain::changes::Change;
use crate::domain::services::Services;
use crate::store::Store;
use bus::Bus;
use hub::{Hub, SocketCaps};
use registry::Registry;

/// An encoded server frame, shared by every session it goes to (encoded once).
#[derive(actix::Message, Clone, Debug)]
#[rtype(result = "()")]
pub struct Push(pub Bytes);

/// The live parts, built in dependency order: the bus first, then the hub and the
/// registry (both given the bus), then the publisher that feeds them.
#[derive(Clone)]
pub struct Live {
    pub bus: Bus,
    pub hub: Addr<Hub>,
    pub registry: Addr<Registry>,
}

impl Live {
    pub fn start(store: &Store, database_url: &str, svc: Services, caps: SocketCaps) -> Live {
        let (bus, inbound) = Bus::start(store, database_url);
        let hub = Hub::new(bus.clone(), caps).start();
        let registry = Registry::new(svc, bus.clone()).start();
        tokio::spawn(publisher::run(inbound, store.clone(), hub.clone(), registry.clone()));
        Live { bus, hub, registry }
    }

    /// Publishes what a use case changed, in order, after its transaction committed:
    /// to this instance's sockets and, with Postgres, every other instance's.
    pub fn publish(&self, changes: Vec<Change>) {
        if !changes.is_empty() {
            self.bus.publish(changes);
        }
    }
}
