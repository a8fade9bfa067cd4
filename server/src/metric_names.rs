//! The names of every Prometheus series, in one module that imports nothing: the parts
//! that record metrics (live, media, mail, domain) name a series here without
//! depending on `ops`, which installs the recorder and serves the page.
//!
//! Names carry their unit (`_seconds`, `_total`); labels come from small fixed sets
//! (no user, project or socket ids), so the number of series stays bounded however
//! many people use the site.

pub const WS_CONNECTIONS: &str = "sitecast_ws_connections";
pub const WS_OPENED: &str = "sitecast_ws_connections_opened_total";
pub const WS_SLOW_CLOSED: &str = "sitecast_ws_slow_disconnects_total";
pub const WS_RESTART_CLOSED: &str = "sitecast_ws_restart_closes_total";
pub const EVENTS_SENT: &str = "sitecast_events_sent_total";
pub const UPLOAD_SECONDS: &str = "sitecast_upload_duration_seconds";
pub const UPLOADS_IN_FLIGHT: &str = "sitecast_uploads_in_flight";
pub const RENDITION_SECONDS: &str = "sitecast_rendition_duration_seconds";
pub const OUTBOX_PENDING: &str = "sitecast_outbox_pending";
pub const MAIL_SENT: &str = "sitecast_mail_sends_total";
pub const PUSH_SENT: &str = "sitecast_push_sends_total";
pub const DB_POOL_CONNECTIONS: &str = "sitecast_db_pool_connections";
pub const DB_POOL_MAX: &str = "sitecast_db_pool_max_connections";
pub const LOGIN_FAILURES: &str = "sitecast_login_failures_total";
pub const HTTP_REQUESTS: &str = "sitecast_http_requests_total";
pub const HTTP_SECONDS: &str = "sitecast_http_request_duration_seconds";

/// Every series, as an operator reads the endpoint; a test checks each is listed.
pub const ALL: &[&str] = &[
    WS_CONNECTIONS,
    WS_OPENED,
    WS_SLOW_CLOSED,
    WS_RESTART_CLOSED,
    EVENTS_SENT,
    UPLOAD_SECONDS,
    UPLOADS_IN_FLIGHT,
    RENDITION_SECONDS,
    OUTBOX_PENDING,
    MAIL_SENT,
    PUSH_SENT,
    DB_POOL_CONNECTIONS,
    DB_POOL_MAX,
    LOGIN_FAILURES,
    HTTP_REQUESTS,
    HTTP_SECONDS,
];
