//! Graceful drain: what a SIGTERM or SIGINT does (fly.io sends one on every deploy and
//! waits `kill_timeout` before it kills).
//!
//! 1. Stop accepting connections, and answer readiness with 503 so the proxy routes
//!    new visitors elsewhere.
//! 2. Let uploads in flight finish, up to `SITECAST_DRAIN_UPLOAD_SECS`: their photos
//!    are stored, published and mailed about like any other.
//! 3. Tell every socket to reconnect (close code 1012), each at a random moment in
//!    `SITECAST_DRAIN_WINDOW_SECS`, so ten thousand clients do not arrive at the other
//!    instances in the same second. The web client reconnects at once on 1012.
//! 4. Let the outbox worker finish the sends in progress, a mail's and a push's (a
//!    message is marked done only after the transport or push service took it; one cut
//!    off mid-send is sent again when its lease runs out, not lost).
//! 5. Stop the HTTP server and close the database pool.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::dev::ServerHandle;
use metrics::{gauge, histogram};
use tokio::sync::Notify;

use super::Ops;
use crate::live::Live;
use crate::metric_names::{UPLOADS_IN_FLIGHT, UPLOAD_SECONDS};
use crate::store::Store;

/// Counts upload requests in flight, so the drain can wait for them.
#[derive(Clone, Default)]
pub struct Uploads {
    inner: Arc<UploadsInner>,
}

#[derive(Default)]
struct UploadsInner {
    running: AtomicUsize,
    idle: Notify,
}

/// One upload in flight; dropping it (the answer went out, or the client left) ends it.
pub struct UploadGuard {
    uploads: Uploads,
    started: Instant,
}

impl Uploads {
    pub fn begin(&self) -> UploadGuard {
        self.inner.running.fetch_add(1, Ordering::SeqCst);
        gauge!(UPLOADS_IN_FLIGHT).increment(1.0);
        UploadGuard { uploads: self.clone(), started: Instant::now() }
    }

    pub fn running(&self) -> usize {
        self.inner.running.load(Ordering::SeqCst)
    }

    /// Waits until no upload runs, or the deadline passes; true when none runs.
    pub async fn wait_idle(&self, deadline: Duration) -> bool {
        let until = tokio::time::Instant::now() + deadline;
        loop {
            let idle = self.inner.idle.notified();
            if self.running() == 0 {
                return true;
            }
            if tokio::time::timeout_at(until, idle).await.is_err() {
                return self.running() == 0;
            }
        }
    }
}

impl Drop for UploadGuard {
    fn drop(&mut self) {
        histogram!(UPLOAD_SECONDS).record(self.started.elapsed().as_secs_f64());
        gauge!(UPLOADS_IN_FLIGHT).decrement(1.0);
        if self.uploads.inner.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.uploads.inner.idle.notify_waiters();
        }
    }
}

/// How long each step of a drain may take.
#[derive(Debug, Clone, Copy)]
pub struct DrainTimes {
    /// Uploads in flight have this long to finish.
    pub uploads: Duration,
    /// Sockets are told to reconnect at random moments spread over this long.
    pub window: Duration,
    /// The outbox worker has this long to finish its sends.
    pub outbox: Duration,
}

impl DrainTimes {
    pub fn from_config(config: &crate::config::Config) -> DrainTimes {
        DrainTimes {
            uploads: Duration::from_secs(config.drain_upload_secs),
            window: Duration::from_secs(config.drain_window_secs),
            outbox: Duration::from_secs(10),
        }
    }
}

/// What a drain did, for its log line and for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drained {
    /// Uploads that were still running when their deadline passed.
    pub uploads_cut: usize,
    /// Sockets told to reconnect.
    pub sockets: usize,
    /// Whether the outbox worker stopped in time.
    pub outbox_flushed: bool,
}

/// Waits for SIGTERM or SIGINT, then drains; resolves once the server has stopped.
pub async fn on_signal(ops: Ops, live: Live, store: Store, server: ServerHandle, times: DrainTimes) {
    let signal = wait_for_signal().await;
    tracing::info!(signal, "stopping: draining uploads, sockets and the outbox");
    let drained = drain(&ops, &live, &store, &server, times).await;
    tracing::info!(
        uploads_cut = drained.uploads_cut,
        sockets = drained.sockets,
        outbox_flushed = drained.outbox_flushed,
        "drained; exiting"
    );
}

#[cfg(unix)]
async fn wait_for_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = tokio::signal::ctrl_c() => "SIGINT",
        },
        Err(err) => {
            tracing::warn!(error = %err, "cannot listen for SIGTERM; only SIGINT drains");
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    }
}

#[cfg(not(unix))]
async fn wait_for_signal() -> &'static str {
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}

/// Runs the drain (see the module comment). A second call while one runs does nothing.
pub async fn drain(ops: &Ops, live: &Live, store: &Store, server: &ServerHandle, times: DrainTimes) -> Drained {
    if !ops.start_draining() {
        return Drained { uploads_cut: 0, sockets: 0, outbox_flushed: false };
    }
    server.pause().await;

    let uploads_cut = if ops.uploads.wait_idle(times.uploads).await { 0 } else { ops.uploads.running() };
    if uploads_cut > 0 {
        tracing::warn!(uploads = uploads_cut, "uploads still running at their drain deadline; they will be cut off");
    }

    let sockets = live.restart_all(times.window).await;
    // Each socket closes at its moment in the window; then a moment for the close
    // frames to be written before the server stops.
    tokio::time::sleep(times.window).await;
    let settle = tokio::time::Instant::now() + Duration::from_secs(2);
    while live.count_sockets().await > 0 && tokio::time::Instant::now() < settle {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    ops.outbox_stop.cancel();
    let worker = ops.outbox_worker.lock().await.take();
    let outbox_flushed = match worker {
        Some(task) => tokio::time::timeout(times.outbox, task).await.is_ok(),
        None => true,
    };

    server.stop(true).await;
    store.close().await;
    Drained { uploads_cut, sockets, outbox_flushed }
}
