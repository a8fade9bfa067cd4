//! Every setting, read once at start-up from flags or `SITECAST_*` environment
//! variables. docs/CONFIGURATION.md lists them with their defaults.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use url::Url;

#[derive(Parser, Debug)]
#[command(name = "sitecast", version, about = "Sitecast: construction-progress photos, live")]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the server (the default).
    Serve,
    /// Invite a user by email; prints the invitation link and queues the invite mail.
    /// This is how the first admin of a deployment without demo accounts is created.
    Invite {
        #[arg(long)]
        email: String,
        #[arg(long, default_value = "admin")]
        role: String,
        /// Full name ("First Last" for admins and homeowners, company name for builders).
        #[arg(long)]
        name: String,
        #[arg(long)]
        phone: Option<String>,
    },
    /// Remove a user's authenticator app, recovery codes and passkeys, and
    /// mail them: the way back in for an administrator no other administrator can reset.
    ResetFactors {
        #[arg(long)]
        email: String,
    },
    /// Apply pending database migrations and exit (fly.toml's release command runs it
    /// once per deploy, before any instance starts).
    Migrate,
    /// Write a consistent copy of the SQLite database and the photo folder to a new
    /// folder, while the server runs. With Postgres or S3, use their own tools (the
    /// docs/OPERATIONS.md says which).
    Backup {
        /// A folder that does not exist yet, or is empty.
        #[arg(long)]
        to: PathBuf,
    },
    /// Bring back a backup into this instance's data folder. The server must be
    /// stopped; the data replaced is moved aside, not deleted.
    Restore {
        /// A folder written by `sitecast backup`.
        #[arg(long)]
        from: PathBuf,
    },
    /// Add big data for benchmarks and trials of big projects: a builder company with
    /// its projects, each a year of site visits, and their homeowners. Prints the
    /// accounts to sign in with (docs/OPERATIONS.md, "Big data").
    Seed {
        #[arg(long, default_value_t = 1)]
        projects: usize,
        #[arg(long, default_value_t = 2_000)]
        photos_per_project: usize,
        /// Homeowners; the projects are shared among them.
        #[arg(long, default_value_t = 1)]
        users: usize,
        /// Photos per site visit.
        #[arg(long, default_value_t = 25)]
        visit_size: usize,
        /// How many days back the first visit is.
        #[arg(long, default_value_t = 365)]
        days: u32,
    },
    /// The HEIC/HEIF decode worker the server starts per iPhone photo (stdin/stdout;
    /// see `media::heif_worker`). Not for people.
    #[command(hide = true)]
    DecodeHeif,
}

#[derive(Args, Debug, Clone)]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "SITECAST_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Public address of the site, used in mail links and as the default allowed Origin.
    #[arg(long, env = "SITECAST_PUBLIC_URL", default_value = "http://localhost:8080")]
    pub public_url: Url,
    /// Directory for the SQLite file, local photos and the mail outbox.
    #[arg(long, env = "SITECAST_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// `sqlite://…` or `postgres://…`; defaults to `DATABASE_URL`, then to
    /// `sqlite://<data dir>/sitecast.db`.
    #[arg(long, env = "SITECAST_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Most database connections this instance opens (default 16 on Postgres, 8 on
    /// SQLite). With several instances on one Postgres, keep instances × this below
    /// the database's `max_connections`.
    #[arg(long, env = "SITECAST_DATABASE_POOL", value_parser = clap::value_parser!(u32).range(1..))]
    pub database_pool: Option<u32>,
    /// Extra origins allowed to open the WebSocket and post forms (comma-separated);
    /// the public URL's origin is always allowed.
    #[arg(long, env = "SITECAST_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Networks named in the signed-in devices list, for places known here:
    /// "10.20.0.0/16=Head office, 192.168.7.0/24=Site trailer". Loopback and private
    /// addresses are named without it; nothing is looked up outside.
    #[arg(long, env = "SITECAST_NETWORK_NAMES", default_value = "", value_parser = parse_places)]
    pub network_names: crate::domain::shared::auth::Places,
    /// Push services browsers' subscriptions may name (comma-separated hosts; `*.` for
    /// subdomains, `host:port` for one port). The default is every major browser's.
    #[arg(long, env = "SITECAST_PUSH_SERVICES", default_value = crate::domain::messaging::push::PushServices::BROWSERS, value_parser = crate::domain::messaging::push::PushServices::parse)]
    pub push_services: crate::domain::messaging::push::PushServices,
    /// Who push services may contact about this server's pushes (VAPID `sub`):
    /// `mailto:…` or `https://…`; the contact email by default.
    #[arg(long, env = "SITECAST_PUSH_CONTACT")]
    pub push_contact: Option<String>,
    /// The program started (as `PROGRAM decode-heif`) to decode each HEIC/HEIF photo in
    /// a process of its own; this program by default.
    #[arg(long, env = "SITECAST_HEIF_DECODER")]
    pub heif_decoder: Option<PathBuf>,
    /// Built web app to serve.
    #[arg(long, env = "SITECAST_WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,
    /// Seed the demo accounts and demo projects (idempotent).
    #[arg(long, env = "SITECAST_DEMO", default_value_t = true, action = clap::ArgAction::Set)]
    pub demo: bool,
    /// Answer `POST /api/testing/world` (`domain::seeding::world`): worlds of users with signed-in
    /// sessions, for the browser tests. Refused at start-up unless the public URL is a
    /// loopback address, so no deployed server can be made to hand out sessions.
    #[arg(long, env = "SITECAST_TEST_WORLDS", default_value_t = false, action = clap::ArgAction::Set)]
    pub test_worlds: bool,
    /// `smtps://user:pass@host:465` (TLS), `smtp://user:pass@host:587?tls=required`
    /// (STARTTLS) or `smtp://host:25` (plain, for a relay on loopback); unset writes
    /// mail to `<data dir>/outbox`.
    #[arg(long, env = "SITECAST_SMTP_URL")]
    pub smtp_url: Option<String>,
    /// Sender of every mail.
    #[arg(long, env = "SITECAST_MAIL_FROM", default_value = "Sitecast <no-reply@sitecast.local>")]
    pub mail_from: String,
    /// Where contact-form messages are mailed.
    #[arg(long, env = "SITECAST_CONTACT_EMAIL", default_value = "hello@sitecast.local")]
    pub contact_email: String,
    /// Where photos live: `local` (under the data dir) or `s3`.
    #[arg(long, env = "SITECAST_PHOTO_STORE", default_value = "local")]
    pub photo_store: String,
    #[arg(long, env = "SITECAST_S3_BUCKET", default_value = "sitecast-photos")]
    pub s3_bucket: String,
    /// S3 endpoint, e.g. `https://fly.storage.tigris.dev` or `http://127.0.0.1:9000`.
    #[arg(long, env = "SITECAST_S3_ENDPOINT")]
    pub s3_endpoint: Option<String>,
    #[arg(long, env = "SITECAST_S3_REGION", default_value = "auto")]
    pub s3_region: String,
    #[arg(long, env = "SITECAST_S3_ACCESS_KEY_ID", hide_env_values = true)]
    pub s3_access_key_id: Option<String>,
    #[arg(long, env = "SITECAST_S3_SECRET_ACCESS_KEY", hide_env_values = true)]
    pub s3_secret_access_key: Option<String>,
    /// Seconds between the server's WebSocket pings.
    #[arg(long, env = "SITECAST_WS_PING_SECS", default_value_t = 15)]
    pub ws_ping_secs: u64,
    /// Seconds of silence (no pong, no frame) after which a socket is closed.
    #[arg(long, env = "SITECAST_WS_TIMEOUT_SECS", default_value_t = 45)]
    pub ws_timeout_secs: u64,
    /// Sockets one session (one browser) may have open on an instance: a person with
    /// many tabs stays well under it; a script opening sockets in a loop does not.
    #[arg(long, env = "SITECAST_WS_MAX_PER_SESSION", default_value_t = 20)]
    pub ws_max_per_session: usize,
    /// Sockets one user may have open on an instance, over all their devices.
    #[arg(long, env = "SITECAST_WS_MAX_PER_USER", default_value_t = 50)]
    pub ws_max_per_user: usize,
    /// Stored photo files with no database row are removed at start-up and every six
    /// hours once they are this old. Keep it above the longest single-photo store
    /// when several instances share one bucket.
    #[arg(long, env = "SITECAST_ORPHAN_GRACE_SECS", default_value_t = 900)]
    pub orphan_grace_secs: u64,
    /// Take the client address from the proxy's own header (`client_ip_header`), only
    /// behind a proxy that sets it, such as fly.io's; otherwise the peer address is used.
    #[arg(long, env = "SITECAST_TRUST_PROXY", default_value_t = false, action = clap::ArgAction::Set)]
    pub trust_proxy: bool,
    /// The header in which the trusted proxy names the client's address. Only a header
    /// the proxy itself writes, replacing any the client sent: fly.io's `Fly-Client-IP`.
    /// Never `X-Forwarded-For` or `Forwarded`, whose first values are the client's own.
    #[arg(long, env = "SITECAST_CLIENT_IP_HEADER", default_value = "Fly-Client-IP")]
    pub client_ip_header: String,
    /// Where Prometheus scrapes `GET /metrics`: an address of its own, so metrics are
    /// not public (`off` serves none).
    #[arg(long, env = "SITECAST_METRICS_BIND", default_value = "127.0.0.1:9091")]
    pub metrics_bind: String,
    /// `text` for people, `json` for machines (one object per line, with request ids).
    #[arg(long, env = "SITECAST_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// On SIGTERM/SIGINT, uploads in flight have this many seconds to finish.
    #[arg(long, env = "SITECAST_DRAIN_UPLOAD_SECS", default_value_t = 20)]
    pub drain_upload_secs: u64,
    /// On SIGTERM/SIGINT, sockets are told to reconnect (1012) at random moments over
    /// this many seconds, so they do not all arrive at the other instances at once.
    #[arg(long, env = "SITECAST_DRAIN_WINDOW_SECS", default_value_t = 5)]
    pub drain_window_secs: u64,
    /// Run pending migrations at start-up. Off where a release step runs
    /// `sitecast migrate` once per deploy (fly.toml): the server then refuses to start
    /// on a database that is behind.
    #[arg(long, env = "SITECAST_MIGRATE_ON_START", default_value_t = true, action = clap::ArgAction::Set)]
    pub migrate_on_start: bool,
}

/// How log lines are written (`ops::logs` writes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, with the span's fields (the request id) in `span`.
    Json,
}

impl Config {
    /// The configured URL, else `DATABASE_URL` (what `fly postgres attach` sets), else
    /// the embedded SQLite file under the data directory.
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("sitecast.db").display()))
    }

    pub fn photos_dir(&self) -> PathBuf {
        self.data_dir.join("photos")
    }

    /// The SQLite file, when the database is SQLite.
    pub fn sqlite_path(&self) -> Option<PathBuf> {
        let url = self.database_url();
        let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
        Some(PathBuf::from(path.split('?').next().unwrap_or(path)))
    }

    /// Bytes of unfinished resumable uploads, whichever store keeps the photos.
    pub fn partial_uploads_dir(&self) -> PathBuf {
        self.data_dir.join("uploads")
    }

    /// The VAPID contact: as configured, or the contact email as a `mailto:` URL.
    pub fn push_contact(&self) -> String {
        self.push_contact.clone().unwrap_or_else(|| format!("mailto:{}", self.contact_email))
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    /// Cookies get `Secure` and the `__Host-` prefix whenever the site is served over TLS.
    pub fn secure_cookies(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// Origins allowed to open the WebSocket and post forms, as `scheme://host[:port]`.
    pub fn origins(&self) -> Vec<String> {
        let mut origins = loopback_aliases(&self.public_url);
        origins.extend(
            self.allowed_origins
                .iter()
                .map(|o| o.trim().trim_end_matches('/').to_owned())
                .filter(|o| !o.is_empty()),
        );
        origins
    }

    /// Whether the public URL names this machine (`localhost`, `127.0.0.1`, `[::1]`).
    pub fn public_url_is_loopback(&self) -> bool {
        is_loopback(&self.public_url)
    }

    /// A link to a page of the web app, e.g. `link("/reset-password?token=…")`.
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{}", self.public_url.as_str().trim_end_matches('/'), path_and_query)
    }
}

fn parse_places(spec: &str) -> Result<crate::domain::shared::auth::Places, String> {
    crate::domain::shared::auth::Places::parse(spec)
}

/// The public URL's origin and, when it is a loopback address, its other loopback
/// spellings: `make run` serves `http://localhost:8080`, and a newcomer who opens
/// `http://127.0.0.1:8080` (or `[::1]`) reaches the same server, so it is the same site.
fn loopback_aliases(public_url: &Url) -> Vec<String> {
    let own = public_url.origin().ascii_serialization();
    let mut origins = vec![own.clone()];
    if is_loopback(public_url) {
        let port = public_url.port().map(|p| format!(":{p}")).unwrap_or_default();
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            let alias = format!("{}://{host}{port}", public_url.scheme());
            if alias != own {
                origins.push(alias);
            }
        }
    }
    origins
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(url: &str) -> Vec<String> {
        loopback_aliases(&Url::parse(url).unwrap())
    }

    #[test]
    fn a_loopback_public_url_allows_every_loopback_spelling_of_it() {
        assert_eq!(origins("http://localhost:8080"), ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"]);
        assert_eq!(origins("http://127.0.0.1:8099/"), ["http://127.0.0.1:8099", "http://localhost:8099", "http://[::1]:8099"]);
        assert_eq!(origins("http://[::1]"), ["http://[::1]", "http://localhost", "http://127.0.0.1"]);
    }

    #[test]
    fn a_public_url_elsewhere_allows_only_itself() {
        assert_eq!(origins("https://sitecast.fly.dev"), ["https://sitecast.fly.dev"]);
        assert_eq!(origins("http://192.168.1.20:8080"), ["http://192.168.1.20:8080"]);
        assert_eq!(origins("http://localhost.example.com:8080"), ["http://localhost.example.com:8080"]);
    }
}
