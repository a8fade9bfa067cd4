//! Signed-in devices as people recognise them (docs/SECURITY.md, "Two-factor sign-in"):
//! the browser and system from a session's user agent, and where its address is when
//! that is known here, without asking anyone outside: this computer, a private network,
//! or a network the installation names (`SITECAST_NETWORK_NAMES`).

use protocol::DeviceSession;

use crate::domain::shared::auth::Places;
use crate::domain::shared::secrets::hash_token;
use crate::store::security::DeviceRow;

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

#[cfg(test)]
mod tests {
    use super::*;

    const CHROME_LINUX: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const SAFARI_IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    const SAFARI_IPAD: &str = "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1";
    const FIREFOX_MAC: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";

    fn seen(ua: Option<&str>) -> (String, String, &'static str) {
        let d = device(ua);
        (d.browser, d.system, d.kind)
    }

    #[test]
    fn user_agents_read_as_people_know_their_devices() {
        assert_eq!(seen(Some(CHROME_LINUX)), ("Chrome 131".into(), "Linux".into(), "desktop"));
        assert_eq!(seen(Some(SAFARI_IPHONE)), ("Safari 17".into(), "iOS 17.4".into(), "phone"));
        assert_eq!(seen(Some(SAFARI_IPAD)).2, "tablet");
        let (browser, system, kind) = seen(Some(FIREFOX_MAC));
        assert_eq!((browser.as_str(), kind), ("Firefox 128", "desktop"));
        assert!(system.starts_with("macOS"), "{system}");
        assert_eq!(seen(None), ("Unknown browser".into(), "Unknown system".into(), "other"));
        assert_eq!(seen(Some("curl/8.5")).2, "other", "a script is no desktop");
    }

    #[test]
    fn a_browser_update_is_not_a_new_device() {
        let older = CHROME_LINUX.replace("131.0.0.0", "120.0.0.0");
        assert_eq!(device_key(Some(CHROME_LINUX)), device_key(Some(&older)));
        assert_ne!(device_key(Some(CHROME_LINUX)), device_key(Some(FIREFOX_MAC)));
        assert_ne!(device_key(Some(SAFARI_IPHONE)), device_key(Some(FIREFOX_MAC)));
    }

    #[test]
    fn places_are_known_locally_or_not_at_all() {
        let places = Places::parse("10.20.0.0/16=Head office; 10.20.7.0/24 = Site trailer, 2001:db8::/32=Yard").unwrap();
        assert_eq!(places.place("10.20.7.9").as_deref(), Some("Site trailer"), "the most specific network");
        assert_eq!(places.place("10.20.1.1").as_deref(), Some("Head office"));
        assert_eq!(places.place("::ffff:10.20.1.1").as_deref(), Some("Head office"), "IPv4 seen through IPv6");
        assert_eq!(places.place("2001:db8::5").as_deref(), Some("Yard"));
        assert_eq!(places.place("127.0.0.1").as_deref(), Some("This computer"));
        assert_eq!(places.place("::1").as_deref(), Some("This computer"));
        assert_eq!(places.place("192.168.1.20").as_deref(), Some("Local network"));
        assert_eq!(places.place("fd00::1").as_deref(), Some("Local network"));
        assert_eq!(places.place("8.8.8.8"), None, "no outside look-up");
        assert_eq!(places.place("unknown"), None);
        assert!(Places::parse("10.0.0.0/8").unwrap_err().contains("NETWORK=NAME"));
        assert!(Places::parse("ten=Office").unwrap_err().contains("is not a network"));
        assert!(Places::parse("10.0.0.0/8= ").unwrap_err().contains("has no name"));
        assert!(Places::parse("").is_ok());
    }

    #[test]
    fn mail_times_are_plain() {
        assert_eq!(mail_time(1_795_625_807_658), "25 November 2026, 16:56 UTC");
    }
}
