//! Prometheus metrics, served on their own address (`SITECAST_METRICS_BIND`, default
//! loopback) so they are never public. The series' names are in `crate::metric_names`.
//!
//! Counters and histograms are recorded where things happen (`metrics::counter!`);
//! levels that live elsewhere (the outbox depth, the database pool) are read when
//! Prometheus scrapes, so they are never stale and cost nothing in between.

use std::net::SocketAddr;
use std::sync::OnceLock;

use actix_web::{web, App, HttpResponse, HttpServer};
use anyhow::Context;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

pub use crate::metric_names::*;
use crate::store::{outbox, Store};


/// Upload and request times span milliseconds (a small form) to minutes (fifty
/// 30 MB photos over a site's mobile link).
const SECONDS_BUCKETS: &[f64] = &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's recorder once (tests start several servers in one process;
/// they share it, as the instances of one process would).
pub fn install() {
    HANDLE.get_or_init(|| {
        let installed = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), SECONDS_BUCKETS)
            .and_then(|b| b.install_recorder());
        match installed {
            Ok(handle) => {
                describe();
                Some(handle)
            }
            Err(err) => {
                tracing::warn!(error = %err, "metrics are off: could not install the recorder");
                None
            }
        }
    });
}

fn describe() {
    describe_gauge!(WS_CONNECTIONS, Unit::Count, "WebSocket connections open on this instance");
    describe_counter!(WS_OPENED, Unit::Count, "WebSocket connections admitted");
    describe_counter!(WS_SLOW_CLOSED, Unit::Count, "Sockets cut off because they stopped reading (close code 1013)");
    describe_counter!(WS_RESTART_CLOSED, Unit::Count, "Sockets told to reconnect elsewhere because this instance is stopping (1012)");
    describe_counter!(EVENTS_SENT, Unit::Count, "Event frames queued to sockets, by who they were for (users or a project's subscribers)");
    describe_histogram!(UPLOAD_SECONDS, Unit::Seconds, "Photo upload requests, from the first byte read to the answer");
    describe_gauge!(UPLOADS_IN_FLIGHT, Unit::Count, "Photo upload requests being received or stored");
    describe_histogram!(RENDITION_SECONDS, Unit::Seconds, "Decoding one photo and making its display image and thumbnail");
    describe_gauge!(OUTBOX_PENDING, Unit::Count, "Messages waiting in the outbox (all instances), by kind (mail or push), read at scrape time");
    describe_counter!(MAIL_SENT, Unit::Count, "Mail send attempts by this instance, by result (sent or failed)");
    describe_counter!(PUSH_SENT, Unit::Count, "Push notifications sent to browsers' push services, by result (sent, gone, retry or dropped)");
    describe_gauge!(DB_POOL_CONNECTIONS, Unit::Count, "Database connections of this instance's pool, by state (idle or in_use)");
    describe_gauge!(DB_POOL_MAX, Unit::Count, "The most database connections this instance opens");
    describe_counter!(LOGIN_FAILURES, Unit::Count, "Refused logins, by reason (invalid_credentials or rate_limited)");
    describe_counter!(HTTP_REQUESTS, Unit::Count, "HTTP requests answered, by method and status class");
    describe_histogram!(HTTP_SECONDS, Unit::Seconds, "HTTP request handling time, by method");
    // Counters and levels start at zero, every label of them, so they are listed (and
    // Prometheus' rate() sees the first increment) before anything happens.
    for name in [WS_OPENED, WS_SLOW_CLOSED, WS_RESTART_CLOSED] {
        counter!(name).increment(0);
    }
    for audience in ["users", "subscribers"] {
        counter!(EVENTS_SENT, "audience" => audience).increment(0);
    }
    for result in ["sent", "failed"] {
        counter!(MAIL_SENT, "result" => result).increment(0);
    }
    for result in ["sent", "gone", "retry", "dropped"] {
        counter!(PUSH_SENT, "result" => result).increment(0);
    }
    for reason in ["invalid_credentials", "rate_limited"] {
        counter!(LOGIN_FAILURES, "reason" => reason).increment(0);
    }
    gauge!(WS_CONNECTIONS).increment(0.0);
    gauge!(UPLOADS_IN_FLIGHT).increment(0.0);
}

/// Reads the levels kept elsewhere, then renders every series in Prometheus' text format.
pub async fn render(store: &Store) -> Option<String> {
    let handle = HANDLE.get().cloned().flatten()?;
    match outbox::pending(store.pool()).await {
        Ok(pending) => {
            gauge!(OUTBOX_PENDING, "kind" => "mail").set(pending.mail as f64);
            gauge!(OUTBOX_PENDING, "kind" => "push").set(pending.push as f64);
        }
        Err(err) => tracing::warn!(error = %err, "metrics: could not count the outbox"),
    }
    let (size, idle, max) = store.pool_stats();
    let (size, idle) = (f64::from(size), idle as f64);
    gauge!(DB_POOL_CONNECTIONS, "state" => "idle").set(idle);
    gauge!(DB_POOL_CONNECTIONS, "state" => "in_use").set((size - idle).max(0.0));
    gauge!(DB_POOL_MAX).set(f64::from(max));
    handle.run_upkeep();
    Some(handle.render())
}

async fn scrape(store: web::Data<Store>) -> HttpResponse {
    match render(&store).await {
        Some(body) => HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(body),
        None => HttpResponse::ServiceUnavailable().body("metrics are off"),
    }
}

/// The metrics endpoint (`GET /metrics`) on its own address, with one worker: a
/// scrape every few seconds needs no more, and it stays apart from the site's port.
pub fn serve(store: Store, bind: &str) -> anyhow::Result<(SocketAddr, actix_web::dev::Server)> {
    let store = web::Data::new(store);
    let server = HttpServer::new(move || {
        App::new().app_data(store.clone()).route("/metrics", web::get().to(scrape))
    })
    .workers(1)
    .disable_signals()
    .bind(bind)
    .with_context(|| format!("binding the metrics address {bind}"))?;
    let addr = *server.addrs().first().context("no metrics address bound")?;
    Ok((addr, server.shutdown_timeout(1).run()))
}
