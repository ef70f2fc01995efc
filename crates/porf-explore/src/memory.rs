//! The memory limits of an exploration: the process's resident memory, watched by a
//! thread ([`MemoryWatch`], `--memory-limit`), and the depth of the explorers'
//! recursion, measured on their stack ([`StackGuard`]).
//!
//! Reading the resident set size costs a few microseconds (a read of
//! `/proc/self/statm`), too much for the explorers' innermost loops, so a watchdog
//! thread reads it every [`POLL`] and raises an [`AtomicBool`] once it reaches the
//! limit: polling costs the explorers one relaxed load, as the time limit does
//! ([`crate::deadline`]).
//!
//! Invariants: once [`MemoryWatch::exceeded`] returns true it returns true forever; it
//! returns true only after a reading at or above the limit, at most one [`POLL`]
//! (plus the time to read) after the memory got there, unless the machine is
//! overloaded. Dropping a `MemoryWatch` wakes and joins its thread.
//!
//! The explorers recurse once per event they add along a path of their search
//! (events a backward revisit removed included), on a thread with a [`crate::STACK`]
//! stack; [`StackGuard`] tells when that stack is nearly used up, so that a path too
//! long for it stops the exploration cleanly instead of overflowing the stack.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the watchdog reads the resident memory. At the fastest porf allocates
/// (about a gigabyte per second, building graphs), memory grows by a few megabytes
/// between two readings: well within the 10% the limit allows above it.
pub const POLL: Duration = Duration::from_millis(5);

/// The process's resident set size in bytes, where the OS reports it: the resident
/// page count of `/proc/self/statm` times the page size (one short read per poll),
/// else `VmRSS` in `/proc/self/status`.
pub fn rss_bytes() -> Option<u64> {
    match page_size() {
        Some(page) => {
            let s = std::fs::read_to_string("/proc/self/statm").ok()?;
            let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
            Some(pages * page)
        }
        None => rss_from_status(),
    }
}

/// `VmRSS` in `/proc/self/status`, in bytes.
fn rss_from_status() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The page size, `AT_PAGESZ` of the auxiliary vector (`/proc/self/auxv`: pairs of
/// native-endian words, type then value), read once.
fn page_size() -> Option<u64> {
    static PAGE: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *PAGE.get_or_init(|| {
        const AT_PAGESZ: usize = 6;
        const WORD: usize = std::mem::size_of::<usize>();
        let auxv = std::fs::read("/proc/self/auxv").ok()?;
        let word = |c: &[u8]| usize::from_ne_bytes(c.try_into().expect("word"));
        auxv.chunks_exact(2 * WORD)
            .find(|pair| word(&pair[..WORD]) == AT_PAGESZ)
            .map(|pair| word(&pair[WORD..]) as u64)
            .filter(|&p| p > 0)
    })
}

#[derive(Default)]
struct Shared {
    /// Set by the watchdog when the resident memory reached the limit.
    exceeded: AtomicBool,
    /// Set when the `MemoryWatch` is dropped: the watchdog must exit.
    done: Mutex<bool>,
    wake: Condvar,
}

/// A limit on the process's resident memory, watched by a background thread.
pub struct MemoryWatch {
    shared: Arc<Shared>,
    watchdog: Option<JoinHandle<()>>,
}

impl MemoryWatch {
    /// Starts watching for `limit` bytes of resident memory. Where the OS does not
    /// report it (no `/proc`), the limit is never reached.
    pub fn start(limit: u64) -> MemoryWatch {
        let shared = Arc::new(Shared::default());
        let watchdog = rss_bytes().and_then(|_| {
            let s = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("porf-memory".into())
                .stack_size(64 * 1024)
                .spawn(move || watch(limit, &s))
                .ok()
        });
        MemoryWatch { shared, watchdog }
    }

    /// True once the resident memory has reached the limit.
    #[inline]
    pub fn exceeded(&self) -> bool {
        self.shared.exceeded.load(Ordering::Relaxed)
    }
}

fn watch(limit: u64, s: &Shared) {
    let mut done = s.done.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if *done {
            return;
        }
        if rss_bytes().is_some_and(|r| r >= limit) {
            s.exceeded.store(true, Ordering::Relaxed);
            return;
        }
        done = match s.wake.wait_timeout(done, POLL) {
            Ok((d, _)) => d,
            Err(e) => e.into_inner().0,
        };
    }
}

impl Drop for MemoryWatch {
    fn drop(&mut self) {
        if let Some(h) = self.watchdog.take() {
            *self.shared.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.shared.wake.notify_all();
            let _ = h.join();
        }
    }
}

thread_local! {
    /// The address near the top of this thread's stack and the stack's size, on the
    /// exploration threads ([`enter_exploration_thread`]).
    static STACK_TOP: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// The address of a local of the caller's frame.
#[inline(always)]
fn here() -> usize {
    let x = 0u8;
    std::hint::black_box(&x) as *const u8 as usize
}

/// Notes, at the start of an exploration thread whose stack has `size` bytes, where
/// its stack begins.
pub(crate) fn enter_exploration_thread(size: usize) {
    STACK_TOP.with(|c| c.set(Some((here(), size))));
}

/// Tells when the explorer's recursion has used most of its thread's stack.
#[derive(Copy, Clone, Debug)]
pub struct StackGuard {
    /// The lowest address the recursion may reach (stacks grow down), `0` on a
    /// thread that is not an exploration thread (no check).
    floor: usize,
    /// The stack's size.
    size: usize,
}

impl StackGuard {
    /// The guard of the current thread: it trips when 7/8 of the stack is used,
    /// leaving the rest for the deepest step (a consistency check, a witness
    /// search) and the unwinding.
    pub fn current() -> StackGuard {
        match STACK_TOP.with(Cell::get) {
            Some((top, size)) => StackGuard {
                floor: top.saturating_sub(size / 8 * 7),
                size,
            },
            None => StackGuard { floor: 0, size: 0 },
        }
    }

    /// True when the stack is used beyond the guard's floor.
    #[inline]
    pub fn exhausted(&self) -> bool {
        here() < self.floor
    }

    /// The size of the stack guarded (0: none).
    pub fn size(&self) -> usize {
        self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statm_and_status_agree_within_a_few_pages() {
        let Some(page) = page_size() else {
            return;
        };
        assert!(page.is_power_of_two());
        // Other tests of this process allocate concurrently: one of a few pairs of
        // readings a moment apart must agree.
        let agree = (0..20).any(|_| {
            let (a, b) = (rss_bytes().unwrap(), rss_from_status().unwrap());
            a.abs_diff(b) < 64 * page
        });
        assert!(agree);
    }

    #[test]
    fn resident_memory_is_reported() {
        let r = rss_bytes().expect("Linux reports VmRSS");
        assert!(r > 0);
    }

    #[test]
    fn a_limit_below_the_current_memory_is_exceeded_at_once() {
        let w = MemoryWatch::start(1);
        let t = std::time::Instant::now();
        while !w.exceeded() {
            assert!(t.elapsed() < Duration::from_secs(10));
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_high_limit_is_not_exceeded_and_dropping_returns() {
        let w = MemoryWatch::start(u64::MAX);
        std::thread::sleep(POLL * 3);
        assert!(!w.exceeded());
        drop(w);
    }

    #[test]
    fn the_stack_guard_trips_deep_in_a_recursion() {
        fn depth(g: &StackGuard, n: u32) -> u32 {
            let pad = std::hint::black_box([0u8; 512]);
            if g.exhausted() {
                return n + pad[0] as u32;
            }
            depth(g, n + 1)
        }
        let levels = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                enter_exploration_thread(1 << 20);
                let g = StackGuard::current();
                depth(&g, 0)
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(levels > 100 && levels < 2048, "{levels}");
        assert_eq!(StackGuard::current().size(), 0, "not an exploration thread");
    }
}
