//! A wall-clock deadline that the explorers can poll in their innermost loops.
//!
//! Reading the clock costs about 60 ns on the machines porf runs on (more than many
//! explorer steps), so the deadline is watched by a thread that sleeps until it and
//! then sets an [`AtomicBool`]: polling is one relaxed load (about 1 ns), cheap enough
//! to check before every consistency check of every candidate.
//!
//! Invariants: once [`Deadline::passed`] returns true it returns true forever; it
//! returns true no earlier than the deadline, and, the watchdog thread being woken by
//! the OS timer, a few milliseconds after it at most unless the machine is
//! overloaded. Dropping a `Deadline` wakes and joins its thread, so an exploration
//! that ends early does not wait for the deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Shared between the explorer and the watchdog thread.
#[derive(Default)]
struct Shared {
    /// Set by the watchdog at the deadline.
    passed: AtomicBool,
    /// Set when the `Deadline` is dropped: the watchdog must exit.
    done: Mutex<bool>,
    wake: Condvar,
}

/// A deadline watched by a background thread.
pub struct Deadline {
    at: Instant,
    shared: Arc<Shared>,
    /// `None` if the deadline had passed already or the thread could not be started
    /// (then [`Deadline::passed`] reads the clock itself).
    watchdog: Option<JoinHandle<()>>,
}

impl Deadline {
    /// Starts watching `at`.
    pub fn start(at: Instant) -> Deadline {
        let shared = Arc::new(Shared::default());
        let watchdog = if Instant::now() >= at {
            shared.passed.store(true, Ordering::Relaxed);
            None
        } else {
            let s = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("porf-deadline".into())
                .stack_size(64 * 1024)
                .spawn(move || watch(at, &s))
                .ok()
        };
        Deadline {
            at,
            shared,
            watchdog,
        }
    }

    /// True once the deadline has passed.
    #[inline]
    pub fn passed(&self) -> bool {
        if self.shared.passed.load(Ordering::Relaxed) {
            return true;
        }
        if self.watchdog.is_none() && Instant::now() >= self.at {
            self.shared.passed.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// The watchdog: sleeps until `at` (or until told to exit) and raises the flag.
fn watch(at: Instant, s: &Shared) {
    let mut done = s.done.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if *done {
            return;
        }
        let now = Instant::now();
        if now >= at {
            s.passed.store(true, Ordering::Relaxed);
            return;
        }
        done = match s.wake.wait_timeout(done, at - now) {
            Ok((d, _)) => d,
            Err(e) => e.into_inner().0,
        };
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        if let Some(h) = self.watchdog.take() {
            *self.shared.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.shared.wake.notify_all();
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn passes_at_the_deadline_and_not_before() {
        let start = Instant::now();
        let d = Deadline::start(start + Duration::from_millis(50));
        assert!(!d.passed() || start.elapsed() >= Duration::from_millis(50));
        while !d.passed() {
            std::thread::yield_now();
        }
        assert!(start.elapsed() >= Duration::from_millis(50));
        assert!(d.passed());
    }

    #[test]
    fn a_past_deadline_has_passed() {
        let d = Deadline::start(Instant::now());
        assert!(d.passed());
    }

    #[test]
    fn dropping_does_not_wait_for_the_deadline() {
        let start = Instant::now();
        let d = Deadline::start(start + Duration::from_secs(3600));
        assert!(!d.passed());
        drop(d);
        assert!(start.elapsed() < Duration::from_secs(60));
    }
}
