//! The memory image decoding may hold at once, across the process. Each decode
//! reserves what it will allocate (width × height × channels × bytes per channel of
//! every buffer it fills, plus its renditions) before it allocates it, and waits while
//! other decodes hold the rest. A pixel bound alone let one 0.5 MB 8000×8000 16-bit
//! PNG take 949 MB (loadtest/README.md, memory-bounded decoding).

use std::sync::{Condvar, Mutex, PoisonError};

/// What all decodes together may hold: two 64-megapixel photos in 8-bit RGB, or one
/// with room for a dozen phone photos beside it; the 1 GB VM keeps half for the rest.
pub const DECODE_BUDGET_BYTES: u64 = 448 * 1024 * 1024;

pub struct Budget {
    limit: u64,
    state: Mutex<State>,
    freed: Condvar,
}

#[derive(Default)]
struct State {
    used: u64,
    /// The most ever held at once (for tests and the load test's figure).
    high_water: u64,
}

/// Held while a decode runs; gives its bytes back when dropped.
pub struct Reservation<'a> {
    budget: &'a Budget,
    bytes: u64,
}

impl Budget {
    pub const fn new(limit: u64) -> Budget {
        Budget { limit, state: Mutex::new(State { used: 0, high_water: 0 }), freed: Condvar::new() }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Waits until `bytes` fit beside what others hold; `None` when they never can.
    pub fn reserve(&self, bytes: u64) -> Option<Reservation<'_>> {
        if bytes > self.limit {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.used + bytes > self.limit {
            state = self.freed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.used += bytes;
        state.high_water = state.high_water.max(state.used);
        Some(Reservation { budget: self, bytes })
    }

    pub fn high_water(&self) -> u64 {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).high_water
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut state = self.budget.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.used -= self.bytes;
        drop(state);
        self.budget.freed.notify_all();
    }
}

/// The process's decode budget.
pub static DECODES: Budget = Budget::new(DECODE_BUDGET_BYTES);

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_reservation_waits_for_room_and_too_much_is_refused() {
        let budget = Arc::new(Budget::new(100));
        assert!(budget.reserve(101).is_none());
        let first = budget.reserve(70).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let waiting = {
            let budget = budget.clone();
            std::thread::spawn(move || {
                let held = budget.reserve(50).unwrap();
                tx.send(()).unwrap();
                drop(held);
            })
        };
        // 70 + 50 > 100: the second waits until the first is given back.
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        drop(first);
        rx.recv().unwrap();
        waiting.join().unwrap();
        assert_eq!(budget.high_water(), 70);
        let _all = budget.reserve(100).unwrap();
        assert_eq!(budget.high_water(), 100);
    }
}
