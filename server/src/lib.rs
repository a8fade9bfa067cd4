//! Sitecast's server. The folder layout is the architecture: `http` and `ws` move
//! bytes, `live` holds the actors, `domain` the use cases and the policy, `store` the
//! SQL, `media` photo storage and renditions, `mail` the outbox and its transports,
//! `workers` the low-priority threads CPU-heavy work runs on, `ops` metrics, drain,
//! backups and logs, `metric_names` the series they record, and `app` wires them.
//! Layers only look down; `architecture` (a test) keeps them so.

mod allocator;
pub mod app;
#[cfg(test)]
mod architecture;
pub mod config;
pub mod domain;
pub mod error;
pub mod http;
pub mod live;
pub mod mail;
pub mod media;
pub mod metric_names;
pub mod ops;
pub mod store;
pub mod workers;
pub mod ws;

/// rustls is compiled with two crypto back-ends (different dependencies want
/// different ones), so the process must pick one before any TLS connection.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
}
