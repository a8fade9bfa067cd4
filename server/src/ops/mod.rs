//! Running Sitecast as a service: Prometheus metrics on their own port, graceful
//! drain on SIGTERM/SIGINT, backup and restore of the embedded data, a lock that
//! says a server runs on a data folder, and machine-readable logs with request ids.
//! These parts watch the rest of the server; none of them changes what it does.

pub mod backup;
pub mod drain;
pub mod logs;
pub mod metrics;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::Mutex;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use drain::Uploads;

/// The operational state one server instance shares between its parts.
#[derive(Clone)]
pub struct Ops {
    /// Uploads being received or stored right now (the drain waits for them).
    pub uploads: Uploads,
    /// Set once a drain began: readiness answers 503 so the proxy sends nobody new.
    draining: Arc<AtomicBool>,
    /// Tells the outbox worker to stop after the sends in progress.
    pub outbox_stop: CancellationToken,
    /// The outbox worker's task, awaited by the drain.
    pub outbox_worker: Arc<Mutex<Option<JoinHandle<()>>>>,
}

impl Ops {
    pub fn new() -> Ops {
        metrics::install();
        Ops {
            uploads: Uploads::default(),
            draining: Arc::new(AtomicBool::new(false)),
            outbox_stop: CancellationToken::new(),
            outbox_worker: Arc::new(Mutex::new(None)),
        }
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    fn start_draining(&self) -> bool {
        !self.draining.swap(true, Ordering::SeqCst)
    }
}

impl Default for Ops {
    fn default() -> Self {
        Ops::new()
    }
}
