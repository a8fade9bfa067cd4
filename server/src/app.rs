//! Wiring: builds every part from the configuration once, and starts the HTTP server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::middleware::{from_fn, Compress};
use actix_web::{web, App, HttpServer};
use anyhow::Context;

use crate::config::Config;
use crate::domain::identity::auth::{Auth, SESSION_IDLE_MS};
use crate::domain::messaging::contact::Contact;
use crate::domain::seeding::demo;
use crate::domain::shared::passwords::Passwords;
use crate::domain::shared::services::Services;
use crate::domain::{media::photos, media::uploads};
use crate::http::{self, AppState};
use crate::live::{Live, SocketCaps};
use crate::mail::transport::{MailTransport, OutboxFolder, Smtp};
use crate::mail::push::PushSender;
use crate::mail::sender::MailSender;
use crate::mail::worker::OutboxWorker;
use crate::mail::Outbox;
use crate::media::local::LocalPhotoStore;
use crate::media::partials::Partials;
use crate::media::pool::ImagePool;
use crate::media::s3::{S3PhotoStore, S3Settings};
use crate::media::PhotoStore;
use crate::ops::Ops;
use crate::store::{now_ms, sessions, tokens, Store};

/// A running server: its address, a handle to stop it, and its state (for tests).
pub struct Running {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    pub state: web::Data<AppState>,
    pub server: actix_web::dev::Server,
}

pub fn photo_store(config: &Config) -> anyhow::Result<Arc<dyn PhotoStore>> {
    Ok(match config.photo_store.as_str() {
        "local" => Arc::new(LocalPhotoStore::new(config.photos_dir()).context("creating the photo folder")?),
        "s3" => Arc::new(S3PhotoStore::new(&S3Settings {
            bucket: &config.s3_bucket,
            endpoint: config.s3_endpoint.as_deref().context("SITECAST_S3_ENDPOINT is required for the s3 photo store")?,
            region: &config.s3_region,
            access_key_id: config.s3_access_key_id.as_deref().context("SITECAST_S3_ACCESS_KEY_ID is required")?,
            secret_access_key: config
                .s3_secret_access_key
                .as_deref()
                .context("SITECAST_S3_SECRET_ACCESS_KEY is required")?,
        })?),
        other => anyhow::bail!("unknown photo store {other:?} (expected local or s3)"),
    })
}

/// The program that decodes HEIF photos: the configured one, or this very program.
fn heif_decoder(config: &Config) -> anyhow::Result<std::path::PathBuf> {
    match &config.heif_decoder {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe().context("finding this program, to decode HEIF photos with"),
    }
}

pub fn mail_transport(config: &Config) -> anyhow::Result<Arc<dyn MailTransport>> {
    Ok(match &config.smtp_url {
        Some(url) => Arc::new(Smtp::from_url(url).map_err(|e| anyhow::anyhow!("SITECAST_SMTP_URL: {e}"))?),
        None => Arc::new(OutboxFolder::new(config.outbox_dir()).context("creating the mail outbox folder")?),
    })
}

/// Everything but the HTTP server: store, migrations, seeds, outbox worker, hub.
pub async fn build_state(config: Config) -> anyhow::Result<web::Data<AppState>> {
    // Every socket is a descriptor; the default soft limit of 1024 would cap
    // connections far below what the machine holds.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!(limit, "open file limit"),
        Err(err) => tracing::warn!(error = %err, "could not raise the open file limit"),
    }
    if config.test_worlds && !config.public_url_is_loopback() {
        anyhow::bail!(
            "SITECAST_TEST_WORLDS makes signed-in sessions for anyone who asks; it is for tests on this machine and is refused with the public URL {}",
            config.public_url
        );
    }
    std::fs::create_dir_all(&config.data_dir).context("creating the data directory")?;
    let store = Store::open(&config.database_url(), config.database_pool, config.migrate_on_start).await.context("opening the database")?;
    let photos = photo_store(&config)?;
    let passwords = Passwords::owasp()?;
    let outbox = Outbox::new();
    if config.demo && demo::seed(&store, photos.as_ref(), &passwords).await? {
        tracing::info!("seeded demo accounts (password {:?}) and demo projects", demo::DEMO_PASSWORD);
    }
    let from = config.mail_from.parse().context("SITECAST_MAIL_FROM is not a valid mailbox")?;
    let ops = Ops::new();
    let mail = MailSender { transport: mail_transport(&config)?, files: photos.clone(), from };
    let wake = outbox.waker();
    let contact = Contact::new(store.clone(), outbox.clone(), config.contact_email.clone());
    let auth = Auth::new(store.clone(), passwords, outbox, config.public_url.as_str()).with_places(config.network_names.clone());
    let (ws_ping_secs, ws_timeout_secs) = (config.ws_ping_secs, config.ws_timeout_secs);
    tracing::info!(photos = %photos.describe(), database = ?store.backend(), "storage ready");
    let partials = Partials::new(config.partial_uploads_dir()).context("creating the partial-upload folder")?;
    let svc = Services::new(store.clone(), auth.clone(), photos.clone(), ImagePool::per_core(heif_decoder(&config)?)?, partials)
        .with_push_services(config.push_services.clone());
    if let Err(err) = crate::domain::messaging::mail_preferences::ensure_key(&svc).await {
        err.log("creating the unsubscribe key");
    }
    let push = match crate::domain::messaging::push::vapid_key(&svc).await {
        Ok(key) => Some(PushSender {
            store: store.clone(),
            key,
            contact: config.push_contact(),
            client: crate::mail::push::client().context("making the push client")?,
            services: config.push_services.clone(),
        }),
        Err(err) => {
            err.log("reading the push key; push notifications are off");
            None
        }
    };
    let worker = OutboxWorker { store: store.clone(), mail, push, wake, stop: ops.outbox_stop.clone() };
    *ops.outbox_worker.lock().await = Some(tokio::spawn(worker.run()));
    tokio::spawn(comment_digests(svc.clone()));
    let caps = SocketCaps { per_session: config.ws_max_per_session, per_user: config.ws_max_per_user };
    let live = Live::start(&store, &config.database_url(), svc.clone(), caps).await;
    tokio::spawn(maintenance(svc.clone(), live.clone(), Duration::from_secs(config.orphan_grace_secs)));
    tokio::spawn(stale_reports(svc.clone(), live.clone()));
    Ok(web::Data::new(AppState {
        origins: config.origins(),
        config,
        store,
        auth,
        contact,
        photos,
        svc,
        live,
        heartbeat: (Duration::from_secs(ws_ping_secs.max(1)), Duration::from_secs(ws_timeout_secs.max(2))),
        ops,
    }))
}

/// Binds and starts serving; the returned server future must be awaited or spawned.
pub fn serve(state: web::Data<AppState>, bind: &str) -> anyhow::Result<Running> {
    let web_dir = state.config.web_dir.clone();
    let app_state = state.clone();
    let server = HttpServer::new(move || {
        App::new()
            .app_data(app_state.clone())
            .app_data(web::JsonConfig::default().limit(http::MAX_JSON_BYTES).error_handler(http::error::json_error))
            .app_data(web::QueryConfig::default().error_handler(http::error::query_error))
            .app_data(web::PathConfig::default().error_handler(http::error::path_error))
            .wrap(from_fn(http::origin::guard))
            .wrap(Compress::default())
            .wrap(from_fn(crate::ops::logs::request_span))
            .configure(http::routes)
            .configure(http::web_app::routes(web_dir.clone()))
    })
    .on_connect(http::conn::on_connect)
    .bind(bind)
    .with_context(|| format!("binding {bind}"))?;
    let addr = *server.addrs().first().context("no address bound")?;
    // SIGTERM and SIGINT drain the instance (`ops::drain`) instead of actix's stop,
    // which would drop open sockets without telling them to reconnect.
    let server = server.shutdown_timeout(5).disable_signals().run();
    Ok(Running { addr, handle: server.handle(), state, server })
}

/// Every half minute: a digest mail to each user whose first waiting comment
/// notification is a few minutes old: one mail, not one per comment
/// (docs/FEATURES.md, "Comments, notifications and mail").
async fn comment_digests(svc: Services) {
    let mut tick = tokio::time::interval(Duration::from_secs(30));
    loop {
        tick.tick().await;
        let cutoff = now_ms() - crate::domain::messaging::notifications::DIGEST_DELAY_MS;
        if let Err(err) = crate::domain::messaging::notifications::send_comment_digests(&svc, cutoff).await {
            err.log("sending comment digests");
        }
    }
}

/// At start-up and then every minute: reports left "being made" by an instance that
/// stopped are marked failed (docs/FEATURES.md, "Progress reports"), so their makers can make
/// them again.
async fn stale_reports(svc: Services, live: Live) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    loop {
        tick.tick().await;
        match crate::domain::sharing::reports::fail_stale(&svc).await {
            Ok(changes) => live.publish(changes),
            Err(err) => err.log("failing interrupted reports"),
        }
    }
}

/// At start-up and then hourly: expired sessions, one-time tokens, old notifications
/// and abandoned resumable uploads; every sixth hour (and at start-up) photo files that
/// no row refers to.
async fn maintenance(svc: Services, live: Live, orphan_grace: Duration) {
    let store = svc.store.clone();
    let mut tick = tokio::time::interval(Duration::from_secs(3600));
    for round in 0u64.. {
        tick.tick().await;
        if round % 6 == 0 {
            match photos::sweep_orphans(&svc, orphan_grace).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(photos = n, "removed the files of photos with no row"),
                Err(err) => err.log("sweeping orphaned photo files"),
            }
        }
        // A batch the sweep completes is announced in its project's turn, like any other.
        match uploads::sweep(&svc, orphan_grace, &live).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(uploads = n, "removed expired or abandoned uploads"),
            Err(err) => err.log("sweeping expired uploads"),
        }
        let now = now_ms();
        if let Err(err) = sessions::delete_expired(store.pool(), now, now - SESSION_IDLE_MS).await {
            tracing::warn!(error = %err, "session clean-up failed");
        }
        // Used or expired links are kept a week for support questions, then dropped.
        if let Err(err) = tokens::delete_stale(store.pool(), now - 7 * 24 * 3600 * 1000).await {
            tracing::warn!(error = %err, "token clean-up failed");
        }
        if let Err(err) = crate::store::login_failures::delete_expired(store.pool(), now).await {
            tracing::warn!(error = %err, "login-limit clean-up failed");
        }
        // Notifications are kept 90 days (docs/FEATURES.md, "Comments, notifications and mail").
        let cutoff = now - crate::domain::messaging::notifications::KEEP_DAYS * 24 * 3600 * 1000;
        if let Err(err) = crate::store::notifications::delete_older_than(store.pool(), cutoff).await {
            tracing::warn!(error = %err, "notification clean-up failed");
        }
    }
}
