//! Who is online, across instances. Pure bookkeeping: the hub tells it when a user's
//! first local socket opens or last one closes and what other instances report, and
//! it answers which presence changes to announce (to whom: `policy::presence_audience`).

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Another instance re-announces its online users this often; an instance silent for
/// three periods (it crashed) is taken as offline.
pub const REFRESH: Duration = Duration::from_secs(30);
pub const EXPIRY: Duration = Duration::from_secs(95);

/// A user came online or went offline, and the builders who may see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announcement {
    pub user_id: String,
    pub online: bool,
    pub watchers: Vec<String>,
}

#[derive(Default)]
pub struct Presence {
    /// Users online here: who may see each (builders with a project of theirs).
    local: HashMap<String, Vec<String>>,
    /// Users online on other instances: the instances and when each last said so,
    /// and who may see the user.
    remote: HashMap<String, (HashMap<String, Instant>, Vec<String>)>,
}

impl Presence {
    fn remote_online(&self, user_id: &str) -> bool {
        self.remote.get(user_id).is_some_and(|(instances, _)| !instances.is_empty())
    }

    pub fn is_online(&self, user_id: &str) -> bool {
        self.local.contains_key(user_id) || self.remote_online(user_id)
    }

    pub fn local_users(&self) -> impl Iterator<Item = &String> {
        self.local.keys()
    }

    /// Everyone online here or elsewhere.
    pub fn online_users(&self) -> impl Iterator<Item = &String> {
        let remote = self.remote.iter().filter(|(_, (i, _))| !i.is_empty()).map(|(u, _)| u);
        self.local.keys().chain(remote.filter(|u| !self.local.contains_key(*u)))
    }

    /// The user's first socket here opened (or a later one, with fresher watchers).
    pub fn local_joined(&mut self, user_id: &str, watchers: Vec<String>) -> Option<Announcement> {
        let was = self.is_online(user_id);
        self.local.insert(user_id.to_owned(), watchers.clone());
        (!was).then(|| Announcement { user_id: user_id.to_owned(), online: true, watchers })
    }

    /// The user's last socket here closed.
    pub fn local_left(&mut self, user_id: &str) -> Option<Announcement> {
        let watchers = self.local.remove(user_id)?;
        (!self.remote_online(user_id)).then(|| Announcement { user_id: user_id.to_owned(), online: false, watchers })
    }

    /// Builders who may now see a homeowner (their presence audience changed).
    pub fn set_watchers(&mut self, user_id: &str, watchers: Vec<String>) {
        if let Some(w) = self.local.get_mut(user_id) {
            *w = watchers.clone();
        }
        if let Some((_, w)) = self.remote.get_mut(user_id) {
            *w = watchers;
        }
    }

    /// What another instance reported.
    pub fn remote(
        &mut self,
        instance: &str,
        online: Vec<(String, Vec<String>)>,
        offline: Vec<(String, Vec<String>)>,
        now: Instant,
    ) -> Vec<Announcement> {
        let mut out = Vec::new();
        for (user, watchers) in online {
            let was = self.is_online(&user);
            let entry = self.remote.entry(user.clone()).or_default();
            entry.0.insert(instance.to_owned(), now);
            entry.1 = watchers.clone();
            if !was {
                out.push(Announcement { user_id: user, online: true, watchers });
            }
        }
        for (user, watchers) in offline {
            let was = self.is_online(&user);
            if let Some(entry) = self.remote.get_mut(&user) {
                entry.0.remove(instance);
                if entry.0.is_empty() {
                    self.remote.remove(&user);
                }
            }
            if was && !self.is_online(&user) {
                out.push(Announcement { user_id: user, online: false, watchers });
            }
        }
        out
    }

    /// Forgets instances silent past `EXPIRY`; their users go offline unless seen elsewhere.
    pub fn expire(&mut self, now: Instant) -> Vec<Announcement> {
        let mut gone = Vec::new();
        for (user, (instances, watchers)) in self.remote.iter_mut() {
            let before = instances.len();
            instances.retain(|_, seen| now.duration_since(*seen) < EXPIRY);
            if before > 0 && instances.is_empty() {
                gone.push((user.clone(), watchers.clone()));
            }
        }
        self.remote.retain(|_, (instances, _)| !instances.is_empty());
        gone.into_iter()
            .filter(|(user, _)| !self.is_online(user))
            .map(|(user_id, watchers)| Announcement { user_id, online: false, watchers })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_user_is_announced_once_whichever_instance_they_are_on() {
        let mut p = Presence::default();
        let now = Instant::now();
        assert_eq!(p.local_joined("h", w(&["b"])).map(|a| a.online), Some(true));
        assert_eq!(p.local_joined("h", w(&["b"])), None, "a second tab");
        assert!(p.remote("B", vec![("h".into(), w(&["b"]))], vec![], now).is_empty(), "online here already");
        assert_eq!(p.local_left("h"), None, "still online on B");
        let gone = p.remote("B", vec![], vec![("h".into(), w(&["b"]))], now);
        assert_eq!(gone, vec![Announcement { user_id: "h".into(), online: false, watchers: w(&["b"]) }]);
        assert!(!p.is_online("h"));
    }

    #[test]
    fn a_silent_instance_takes_its_users_offline() {
        let mut p = Presence::default();
        let then = Instant::now();
        let came = p.remote("B", vec![("h".into(), w(&[]))], vec![], then);
        assert_eq!(came.len(), 1);
        assert!(p.expire(then + Duration::from_secs(10)).is_empty());
        let gone = p.expire(then + EXPIRY + Duration::from_secs(1));
        assert_eq!(gone.len(), 1);
        assert!(!gone[0].online);
        assert_eq!(p.online_users().count(), 0);
    }
}
