//! Signed-in devices as people recognise them (issue 31): the browser and system from
//! a session's user agent, and where its address is when that is known here, without
//! asking anyone outside: this computer, a private network, or a network the
//! installation names (`SITECAST_NETWORK_NAMES`).

use std::net::IpAddr;

use ipnet::IpNet;
use protocol::DeviceSession;

use super::secrets::hash_token;
use crate::store::security::DeviceRow;

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

/// Browser, system and kind of device, read from a user agent.
pub struct Device {
    pub browser: String,
    pub system: String,
    pub kind: &'static str,
}

pub fn device(user_agent: Option<&str>) -> Device {
    let parser = woothee::parser::Parser::new();
    let parsed = user_agent.and_then(|ua| parser.parse(ua));
    let Some(ua) = parsed else {
        return Device { browser: "Unknown browser".to_owned(), system: "Unknown system".to_owned(), kind: "other" };
    };
    let browser = match (ua.name, ua.version) {
        ("UNKNOWN", _) => "Unknown browser".to_owned(),
        (name, version) => match version.split('.').next().filter(|v| !v.is_empty() && *v != "UNKNOWN") {
            Some(major) => format!("{name} {major}"),
            None => name.to_owned(),
        },
    };
    // woothee names Apple's systems by device; people know them as iOS and macOS.
    let os = match ua.os {
        "iPhone" | "iPad" | "iPod" => "iOS",
        "Mac OSX" => "macOS",
        other => other,
    };
    let system = match (os, ua.os_version.as_ref()) {
        ("UNKNOWN", _) => "Unknown system".to_owned(),
        (os, version) if !version.is_empty() && version != "UNKNOWN" && !os.contains(version) => format!("{os} {version}"),
        (os, _) => os.to_owned(),
    };
    let kind = match ua.category {
        "pc" => "desktop",
        "smartphone" | "mobilephone" => "phone",
        _ => "other",
    };
    // woothee calls tablets smartphones; an iPad or an Android without "Mobile" is one.
    let tablet = user_agent.is_some_and(|ua| ua.contains("iPad") || (ua.contains("Android") && !ua.contains("Mobile")));
    Device { browser, system, kind: if tablet { "tablet" } else { kind } }
}

/// What a new-device mail is keyed by: the browser and system, not their versions
/// (an update is not a new device).
pub fn device_key(user_agent: Option<&str>) -> String {
    let parser = woothee::parser::Parser::new();
    let parsed = user_agent.and_then(|ua| parser.parse(ua));
    let (name, os) = parsed.map(|ua| (ua.name, ua.os)).unwrap_or(("UNKNOWN", "UNKNOWN"));
    hash_token(&format!("device:{name}:{os}"))
}

pub fn describe(row: &DeviceRow, current: bool, places: &Places) -> DeviceSession {
    let d = device(row.user_agent.as_deref());
    DeviceSession {
        id: row.id.clone(),
        browser: d.browser,
        system: d.system,
        kind: d.kind.to_owned(),
        place: row.ip.as_deref().and_then(|ip| places.place(ip)),
        ip: row.ip.clone(),
        signed_in_at: row.created_at,
        last_active_at: row.last_seen_at,
        current,
    }
}

/// A moment as a mail states it: "25 November 2026, 17:42 UTC".
pub fn mail_time(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) {
        Ok(t) => format!("{} {} {}, {:02}:{:02} UTC", t.day(), t.month(), t.year(), t.hour(), t.minute()),
        Err(_) => "an unknown time".to_owned(),
    }
}
