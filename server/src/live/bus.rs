//! How a change reaches every instance. With SQLite there is one instance and the bus
//! is a channel to the local publisher. With Postgres every change is also sent with
//! NOTIFY (ids and versions only, after the write committed); each instance LISTENs and
//! feeds the others' changes to its own publisher. No home-made cluster protocol.
//!
//! The bus is the first live part built, wrapped in the `Exit` that the hub and the
//! project actors are given when they start; what arrives from it goes to the
//! publisher as `Inbound`.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::postgres::PgListener;
use tokio::sync::{mpsc, oneshot};

use crate::domain::shared::changes::Change;
use crate::store::{Backend, Store};

pub const CHANNEL: &str = "sitecast_changes";

/// How long start-up waits for the first LISTEN before serving without it.
const LISTEN_WAIT: Duration = Duration::from_secs(10);

#[derive(Serialize, Deserialize)]
struct Envelope {
    /// The instance that made the change; it has delivered it locally already.
    i: String,
    c: Change,
}

/// What the publisher receives from the bus.
#[derive(Debug)]
pub enum Inbound {
    /// A committed change, from this instance (`remote` false) or another one.
    /// `sent_to_pages`: this instance's project actor already sent what the change
    /// brings the project's open pages, from the turn that made it (`plan::carried`).
    Change { change: Change, remote: bool, sent_to_pages: bool },
    /// The listener had to reconnect: notifications may have been missed, so sockets
    /// should resynchronise.
    Lost,
}

#[derive(Clone)]
pub struct Bus {
    local: mpsc::UnboundedSender<Inbound>,
    remote: Option<mpsc::UnboundedSender<Change>>,
    instance: String,
}

impl Bus {
    /// Starts the bus; the receiver is the publisher's. With Postgres it returns once
    /// this instance LISTENs (or after `LISTEN_WAIT`, warning): an instance that served
    /// sockets before it listened would miss the others' changes made meanwhile.
    pub async fn start(store: &Store, database_url: &str) -> (Bus, mpsc::UnboundedReceiver<Inbound>) {
        let (local, inbound) = mpsc::unbounded_channel();
        let instance = uuid::Uuid::new_v4().to_string();
        if store.backend() != Backend::Postgres {
            return (Bus { local, remote: None, instance }, inbound);
        }
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(notify(store.clone(), instance.clone(), rx));
        let (ready, listening) = oneshot::channel();
        tokio::spawn(listen(database_url.to_owned(), instance.clone(), local.clone(), ready));
        if tokio::time::timeout(LISTEN_WAIT, listening).await.is_err() {
            tracing::warn!("not yet listening for other instances' changes; serving anyway and retrying");
        }
        (Bus { local, remote: Some(tx), instance }, inbound)
    }

    /// This instance's id, as other instances see it.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Whether other instances may exist (they share a Postgres database).
    pub fn is_shared(&self) -> bool {
        self.remote.is_some()
    }

    /// Publishes changes, in order, after their transaction committed: to this
    /// instance's publisher and to the other instances (which send everything a change
    /// brings, pages included). Only `Exit` calls it.
    pub(super) fn publish(&self, changes: Vec<(Change, bool)>) {
        for (change, sent_to_pages) in changes {
            if let Some(remote) = &self.remote {
                let _ = remote.send(change.clone());
            }
            let _ = self.local.send(Inbound::Change { change, remote: false, sent_to_pages });
        }
    }
}

/// Sends NOTIFYs one at a time, so other instances see changes in this instance's order.
async fn notify(store: Store, instance: String, mut rx: mpsc::UnboundedReceiver<Change>) {
    while let Some(change) = rx.recv().await {
        let payload = match serde_json::to_string(&Envelope { i: instance.clone(), c: change }) {
            Ok(p) => p,
            Err(err) => {
                tracing::error!(error = %err, "could not serialise a change");
                continue;
            }
        };
        // Until it goes: a dropped notice could be a move of a project to other people,
        // which the other instances must hear before any later change. Later changes
        // wait behind it, in order.
        let mut attempt = 0u32;
        while let Err(err) = crate::store::bus::notify(&store, CHANNEL, &payload).await {
            tracing::warn!(error = %err, attempt, "NOTIFY failed; retrying");
            tokio::time::sleep(Duration::from_millis(200 << attempt.min(5))).await;
            attempt += 1;
        }
    }
}

async fn listen(url: String, instance: String, local: mpsc::UnboundedSender<Inbound>, ready: oneshot::Sender<()>) {
    let mut backoff = Duration::from_millis(250);
    let mut ready = Some(ready);
    let mut first = true;
    loop {
        match PgListener::connect(&url).await {
            Ok(mut listener) => match listener.listen(CHANNEL).await {
                Ok(()) => {
                    if !first {
                        tracing::warn!("change listener reconnected; asking sockets to resynchronise");
                        let _ = local.send(Inbound::Lost);
                    }
                    first = false;
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(());
                    }
                    backoff = Duration::from_millis(250);
                    loop {
                        // try_recv says Ok(None) when the connection dropped (sqlx then
                        // reconnects on the next call): treat that as a loss too.
                        match listener.try_recv().await {
                            Ok(Some(note)) => match serde_json::from_str::<Envelope>(note.payload()) {
                                Ok(env) if env.i != instance => {
                                    let _ = local.send(Inbound::Change { change: env.c, remote: true, sent_to_pages: false });
                                }
                                Ok(_) => {}
                                Err(err) => tracing::warn!(error = %err, "ignoring a malformed change notification"),
                            },
                            Ok(None) => break,
                            Err(err) => {
                                tracing::warn!(error = %err, "change listener failed");
                                break;
                            }
                        }
                    }
                }
                Err(err) => tracing::warn!(error = %err, "could not LISTEN for changes"),
            },
            Err(err) => tracing::warn!(error = %err, "could not connect the change listener"),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(10));
    }
}
