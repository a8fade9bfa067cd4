//! Fixed-window counters keyed by address, capping the mail-sending endpoints (every
//! request counts). In memory, per instance: with several instances a client gets the
//! limit once per instance, which still bounds the mail it can cause. Failed logins,
//! which guard accounts, are counted in the database instead (`login_limit`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Limiter {
    max: u32,
    window: Duration,
    entries: Mutex<HashMap<String, (u32, Instant)>>,
}

/// Beyond this many keys, expired ones are dropped so the map cannot grow unbounded.
const PRUNE_ABOVE: usize = 10_000;

impl Limiter {
    pub fn new(max: u32, window: Duration) -> Limiter {
        Limiter { max, window, entries: Mutex::new(HashMap::new()) }
    }

    /// `Err(wait)` when the key has used up its window.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        match entries.get(key) {
            Some(&(count, start)) if count >= self.max && now.duration_since(start) < self.window => {
                Err(self.window - now.duration_since(start))
            }
            _ => Ok(()),
        }
    }

    pub fn record(&self, key: &str) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() > PRUNE_ABOVE {
            let window = self.window;
            entries.retain(|_, (_, start)| now.duration_since(*start) < window);
        }
        let entry = entries.entry(key.to_owned()).or_insert((0, now));
        if now.duration_since(entry.1) >= self.window {
            *entry = (0, now);
        }
        entry.0 += 1;
    }

    /// Checks and counts in one step (for endpoints limited on every request).
    pub fn hit(&self, key: &str) -> Result<(), Duration> {
        self.check(key)?;
        self.record(key);
        Ok(())
    }
}

/// "N minutes", rounded up, for the 429 messages.
pub fn minutes(wait: Duration) -> u64 {
    wait.as_secs().div_ceil(60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_after_max_per_key() {
        let l = Limiter::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert!(l.check("a").is_ok());
            l.record("a");
        }
        let wait = l.check("a").unwrap_err();
        assert!(wait <= Duration::from_secs(60) && wait > Duration::from_secs(50));
        assert!(l.check("b").is_ok(), "keys are independent");
    }

    #[test]
    fn window_expiry_restarts_the_count() {
        let l = Limiter::new(1, Duration::from_millis(1));
        l.record("k");
        std::thread::sleep(Duration::from_millis(5));
        assert!(l.check("k").is_ok());
        l.record("k");
        assert!(l.hit("k").is_err());
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes(Duration::from_secs(1)), 1);
        assert_eq!(minutes(Duration::from_secs(61)), 2);
        assert_eq!(minutes(Duration::from_secs(900)), 15);
    }
}
