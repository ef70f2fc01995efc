//! Early notice of an execution that keeps growing: the first graph of a run to reach
//! a threshold (well below [`crate::Config::max_events_per_execution`]) is recorded
//! once, for the front end to name the loop that grows it while the run goes on.
//!
//! Invariant: at most one [`Growth`] is ever recorded per [`GrowthWatch`] (the first
//! recorder to cross the threshold wins), and recording one changes nothing about the
//! exploration.

use crate::stats::Growth;
use std::sync::OnceLock;

/// The threshold and the first graph that reached it (shared by every recorder of a
/// run, read by a display thread).
#[derive(Debug)]
pub struct GrowthWatch {
    /// Events of one execution at which the notice is given.
    pub threshold: u64,
    seen: OnceLock<Growth>,
}

impl GrowthWatch {
    pub fn new(threshold: u64) -> GrowthWatch {
        GrowthWatch {
            threshold,
            seen: OnceLock::new(),
        }
    }

    /// The first graph that reached the threshold, if one has.
    pub fn seen(&self) -> Option<Growth> {
        self.seen.get().copied()
    }

    /// Records `g` unless a graph was recorded before.
    pub(crate) fn record(&self, g: Growth) {
        let _ = self.seen.set(g);
    }
}

/// The threshold for a run whose executions may have `max` events at most: a tenth of
/// it, but at least 2 events (so a small limit still leaves a notice before it).
pub fn threshold(max: u64) -> u64 {
    (max / 10).max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_growth_is_kept() {
        let w = GrowthWatch::new(10);
        assert_eq!(w.seen(), None);
        let g = |events| Growth {
            events,
            ..Growth::default()
        };
        w.record(g(10));
        w.record(g(20));
        assert_eq!(w.seen().map(|g| g.events), Some(10));
        assert_eq!(threshold(100_000), 10_000);
        assert_eq!(threshold(5), 2);
    }
}
