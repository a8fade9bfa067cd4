//! Sign-in's handles, built once at start-up: the password hasher, the outbox its
//! mails go to, its rate limits, the WebAuthn relying party and the networks the
//! devices list names. Identity's use cases are its methods (`identity::auth`,
//! `identity::security`); it sits here because every use case's `Services` holds it.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use ipnet::IpNet;
use url::Url;
use webauthn_rs::{Webauthn, WebauthnBuilder};

use super::limiter::Limiter;
use crate::domain::shared::passwords::Passwords;
use crate::mail::Outbox;
use crate::store::Store;

/// The name authenticator apps and passkey prompts show.
pub const ISSUER: &str = "Sitecast";

/// Everything the auth use cases need, built once at start-up.
#[derive(Clone)]
pub struct Auth {
    pub store: Store,
    pub passwords: Passwords,
    pub outbox: Outbox,
    pub(crate) limits: Arc<Limits>,
    /// Turns an app path into an absolute link for mails.
    link_base: Arc<str>,
    /// The WebAuthn relying party for passkeys (docs/SECURITY.md, "Two-factor sign-in"):
    /// None where passkeys cannot work, on an installation served from a bare,
    /// non-loopback address.
    pub webauthn: Option<Arc<webauthn_rs::Webauthn>>,
    /// Networks the devices list names.
    pub places: Arc<Places>,
}

pub(crate) struct Limits {
    pub(crate) mail_address: Limiter,
    /// Passkey sign-ins begun without an account (each stores a challenge), per address.
    pub(crate) passkey_address: Limiter,
}

impl Auth {
    pub fn new(store: Store, passwords: Passwords, outbox: Outbox, link_base: &str) -> Auth {
        let window = Duration::from_secs(15 * 60);
        Auth {
            store,
            passwords,
            outbox,
            limits: Arc::new(Limits {
                // Sign-up and reset requests send mail; cap them per address.
                mail_address: Limiter::new(10, window),
                passkey_address: Limiter::new(60, Duration::from_secs(60)),
            }),
            link_base: link_base.trim_end_matches('/').into(),
            webauthn: url::Url::parse(link_base).ok().and_then(|url| relying_party(&url)),
            places: Arc::new(Places::default()),
        }
    }

    pub fn with_places(mut self, places: Places) -> Auth {
        self.places = Arc::new(places);
        self
    }

    /// An app path as an absolute link for mails.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.link_base)
    }
}

/// The relying party: the public URL's domain. A loopback address (a local run, the
/// tests) is "localhost", which browsers treat as secure; passkeys need a domain name,
/// so an installation served from another bare address has none.
pub fn relying_party(public_url: &Url) -> Option<Arc<Webauthn>> {
    let (rp_id, origin) = match public_url.host() {
        Some(url::Host::Domain(domain)) => (domain.to_owned(), public_url.clone()),
        Some(url::Host::Ipv4(ip)) if ip.is_loopback() => ("localhost".to_owned(), localhost(public_url)?),
        Some(url::Host::Ipv6(ip)) if ip.is_loopback() => ("localhost".to_owned(), localhost(public_url)?),
        _ => return None,
    };
    let builder = WebauthnBuilder::new(&rp_id, &origin).ok()?.rp_name(ISSUER);
    // A local run is reached on whichever port it was given.
    let builder = builder.allow_any_port(rp_id == "localhost");
    builder.build().ok().map(Arc::new)
}

fn localhost(url: &Url) -> Option<Url> {
    let mut url = url.clone();
    url.set_host(Some("localhost")).ok()?;
    Some(url)
}

/// Networks the installation names: "10.20.0.0/16=Head office, 192.168.7.0/24=Site trailer".
#[derive(Debug, Clone, Default)]
pub struct Places {
    named: Vec<(IpNet, String)>,
}

impl Places {
    pub fn parse(spec: &str) -> Result<Places, String> {
        let mut named = Vec::new();
        for item in spec.split([',', ';']).map(str::trim).filter(|i| !i.is_empty()) {
            let (net, name) = item.split_once('=').ok_or_else(|| format!("\"{item}\" is not NETWORK=NAME"))?;
            let net: IpNet = net.trim().parse().map_err(|_| format!("\"{}\" is not a network like 10.0.0.0/8", net.trim()))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("the network {net} has no name"));
            }
            named.push((net, name.to_owned()));
        }
        // The most specific network names an address.
        named.sort_by_key(|(net, _)| std::cmp::Reverse(net.prefix_len()));
        Ok(Places { named })
    }

    /// Where an address is, when that is known here.
    pub fn place(&self, ip: &str) -> Option<String> {
        let ip: IpAddr = ip.parse().ok()?;
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
            v4 => v4,
        };
        if let Some((_, name)) = self.named.iter().find(|(net, _)| net.contains(&ip)) {
            return Some(name.clone());
        }
        let private = match ip {
            IpAddr::V4(v4) => v4.is_private() || v4.is_link_local(),
            IpAddr::V6(v6) => v6.is_unique_local() || v6.is_unicast_link_local(),
        };
        if ip.is_loopback() {
            Some("This computer".to_owned())
        } else if private {
            Some("Local network".to_owned())
        } else {
            None
        }
    }
}
