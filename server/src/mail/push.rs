//! Sends one queued push: encrypted for its browser (RFC 8291, aes128gcm), signed with
//! the server's VAPID key (RFC 8292) and POSTed to the browser's push service (RFC
//! 8030). A subscription the service says is gone (404, 410) is deleted with what
//! waits for it. Whether a push that did not go is tried again is the outbox worker's
//! (`worker`): a busy or failing service a few times with backoff, then the push is
//! dropped, since a notification hours late is noise and the notification centre and
//! mail still have it.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use web_push_native::jwt_simple::algorithms::ES256KeyPair;
use web_push_native::{p256, Auth, WebPushBuilder};

use super::Tried;
use crate::store::outbox::QueuedPush;
use crate::store::{push, Store};

/// How long a push service keeps an undelivered push for an offline device.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The push services subscriptions may name: host patterns (`*.push.apple.com` for
/// any subdomain, `127.0.0.1:4000` for one port). Plain `http` only for a loopback
/// host listed with its port (the tests' own push service). Shared, not copied: every
/// socket's `Services` holds it (a copy was 230 bytes a socket:
/// loadtest/README.md, "Beside the peers"). Checked when a browser subscribes and again
/// before every send.
#[derive(Clone, Debug)]
pub struct PushServices(std::sync::Arc<[String]>);

impl PushServices {
    /// Chrome and Edge (FCM, WNS), Firefox (Mozilla's autopush), Safari (Apple).
    pub const BROWSERS: &str = "fcm.googleapis.com,*.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com";

    pub fn browsers() -> PushServices {
        PushServices(Self::BROWSERS.split(',').map(str::to_owned).collect::<Vec<_>>().into())
    }

    pub fn parse(spec: &str) -> std::result::Result<PushServices, String> {
        let hosts: Vec<String> = spec.split(',').map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty()).collect();
        if hosts.is_empty() {
            return Err("name at least one push service".to_owned());
        }
        Ok(PushServices(hosts.into()))
    }

    /// Whether the server may send to `endpoint`: `https` to a listed host on the
    /// service's own port (443; a pattern that names a port allows that one only),
    /// with no credentials, and a host name whose every label is there (`a..b` and a
    /// trailing dot name hosts no pattern meant).
    pub fn allows(&self, endpoint: &str) -> bool {
        let Ok(url) = url::Url::parse(endpoint) else { return false };
        let Some(host) = url.host_str().map(str::to_ascii_lowercase) else { return false };
        if host.split('.').any(str::is_empty) || !url.username().is_empty() || url.password().is_some() {
            return false;
        }
        // `port()` is `None` for the scheme's own port, however it was written.
        let with_port = url.port_or_known_default().map(|p| format!("{host}:{p}"));
        let loopback = url.host().is_some_and(|h| match h {
            url::Host::Ipv4(ip) => ip.is_loopback(),
            url::Host::Ipv6(ip) => ip.is_loopback(),
            url::Host::Domain(_) => false,
        });
        self.0.iter().any(|pattern| {
            let with_its_port = Some(pattern) == with_port.as_ref();
            let named = with_its_port
                || url.port().is_none()
                    && match pattern.strip_prefix("*.") {
                        Some(parent) => host.ends_with(&format!(".{parent}")),
                        None => pattern == &host,
                    };
            let secure = url.scheme() == "https" || (url.scheme() == "http" && loopback && with_its_port);
            named && secure
        })
    }
}

/// The client pushes are sent with. It never follows a redirect: a push service
/// answering 3xx would otherwise have the server POST to an address no one checked.
pub fn client() -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()
}

pub struct PushSender {
    pub store: Store,
    pub key: ES256KeyPair,
    /// Who runs this server, for push services (`mailto:` or `https:`).
    pub contact: String,
    /// Made by `client()`.
    pub client: reqwest::Client,
    /// Where pushes may go: checked again before each send, so a subscription stored
    /// under older rules is not sent to a host the rules no longer allow.
    pub services: PushServices,
}

/// What the push service made of one push.
#[derive(Debug, PartialEq)]
enum Outcome {
    Sent,
    /// The subscription is no more.
    Gone,
    /// Try again later.
    Retry(String),
    /// It will never go (refused as malformed, or the subscription is unusable).
    Dropped(String),
}

impl PushSender {
    /// Sends one push to its subscription. Only the store failing is an error: what
    /// the push service answered is in the `Tried`.
    pub async fn send(&self, queued: &QueuedPush) -> crate::store::Result<Tried> {
        let pool = self.store.pool();
        // Deleted meanwhile: its pushes went with it, and there is nowhere to send.
        let Some(subscription) = push::find(pool, &queued.subscription_id).await? else {
            return Ok(Tried::Finished);
        };
        let outcome = self.post(&subscription.endpoint, &subscription.p256dh, &subscription.auth, &queued.payload).await;
        let result = match &outcome {
            Outcome::Sent => "sent",
            Outcome::Gone => "gone",
            Outcome::Retry(_) => "retry",
            Outcome::Dropped(_) => "dropped",
        };
        metrics::counter!(crate::metric_names::PUSH_SENT, "result" => result).increment(1);
        Ok(match outcome {
            Outcome::Sent => Tried::Finished,
            Outcome::Gone => {
                tracing::info!(device = %subscription.device, "a push subscription is gone; deleted");
                // Its queued pushes, this one included, go with it (the outbox's key cascades).
                push::forget(pool, &subscription.id).await?;
                Tried::Finished
            }
            Outcome::Retry(error) => Tried::Failed(error),
            Outcome::Dropped(error) => Tried::Refused(error),
        })
    }

    async fn post(&self, endpoint: &str, p256dh: &str, auth: &str, payload: &str) -> Outcome {
        if !self.services.allows(endpoint) {
            return Outcome::Gone;
        }
        let request = match self.request(endpoint, p256dh, auth, payload) {
            Ok(request) => request,
            Err(why) => return Outcome::Dropped(why),
        };
        let sent = self.client.execute(request).await;
        match sent {
            Ok(resp) => match resp.status().as_u16() {
                200..=299 => Outcome::Sent,
                404 | 410 => Outcome::Gone,
                429 | 500..=599 => Outcome::Retry(format!("push service answered {}", resp.status())),
                _ => Outcome::Dropped(format!("push service answered {}", resp.status())),
            },
            Err(err) => Outcome::Retry(err.to_string()),
        }
    }

    /// The encrypted, signed request, as reqwest sends it.
    fn request(&self, endpoint: &str, p256dh: &str, auth: &str, payload: &str) -> Result<reqwest::Request, String> {
        let (public, secret) = browser_keys(p256dh, auth)?;
        let uri: http::Uri = endpoint.parse().map_err(|e: http::uri::InvalidUri| e.to_string())?;
        let mut built = WebPushBuilder::new(uri, public, secret)
            .with_valid_duration(TTL)
            .with_vapid(&self.key, &self.contact)
            .build(payload.as_bytes().to_vec())
            .map_err(|e| e.to_string())?;
        built.headers_mut().insert("Urgency", http::HeaderValue::from_static("normal"));
        let mut request = reqwest::Request::try_from(built).map_err(|e| e.to_string())?;
        *request.timeout_mut() = Some(Duration::from_secs(30));
        Ok(request)
    }
}

/// A browser's subscription keys (base64url): its P-256 public key and 16-byte auth
/// secret, or why they are not ones.
pub fn browser_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, Auth), String> {
    let point = exact_base64url(p256dh, 65).ok_or("the subscription's public key is not 65 bytes of base64url")?;
    if point.first() != Some(&0x04) {
        return Err("the subscription's public key is not an uncompressed P-256 point".to_owned());
    }
    let public = p256::PublicKey::from_sec1_bytes(&point).map_err(|e| e.to_string())?;
    let secret = exact_base64url(auth, 16).ok_or("the subscription's auth secret is not 16 bytes of base64url")?;
    Ok((public, Auth::clone_from_slice(&secret)))
}

/// `len` bytes as base64url: unpadded, or with exactly the padding that length has.
/// Anything longer (a key with 50,000 `=` after it) is not such a value.
fn exact_base64url(text: &str, len: usize) -> Option<Vec<u8>> {
    if !text.is_ascii() {
        return None;
    }
    let unpadded = (len * 4).div_ceil(3);
    let padded = len.div_ceil(3) * 4;
    let body = match text.len() {
        n if n == unpadded => text,
        n if n == padded && text[unpadded..].bytes().all(|b| b == b'=') => &text[..unpadded],
        _ => return None,
    };
    URL_SAFE_NO_PAD.decode(body).ok().filter(|bytes| bytes.len() == len)
}
