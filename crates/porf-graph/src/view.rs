//! Vector clocks: a downward-closed set of events, one prefix length per thread.

use crate::label::EventId;
use smallvec::SmallVec;

/// Threads a view holds without a heap allocation. Every event carries two views
/// (porf and hb) that are copied and joined per event, so programs with up to this
/// many threads allocate none.
const INLINE_THREADS: usize = 8;

/// A set of events closed under program order: `v[t]` events of thread `t` (indices
/// `0..v[t]`) are in the view.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct View(SmallVec<[u32; INLINE_THREADS]>);

impl View {
    pub fn new() -> View {
        View(SmallVec::new())
    }
    /// Number of events of thread `t` in the view.
    #[inline]
    pub fn get(&self, t: u32) -> u32 {
        self.0.get(t as usize).copied().unwrap_or(0)
    }
    #[inline]
    pub fn contains(&self, e: EventId) -> bool {
        e.idx < self.get(e.tid)
    }
    /// Extends the view so that it contains `e` (and its po-predecessors).
    pub fn include(&mut self, e: EventId) {
        let t = e.tid as usize;
        if self.0.len() <= t {
            self.0.resize(t + 1, 0);
        }
        if self.0[t] <= e.idx {
            self.0[t] = e.idx + 1;
        }
    }
    /// Pointwise maximum.
    pub fn join(&mut self, other: &View) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            if *a < *b {
                *a = *b;
            }
        }
    }
    /// Sets the prefix length of thread `t`.
    pub fn set(&mut self, t: u32, len: u32) {
        let t = t as usize;
        if self.0.len() <= t {
            self.0.resize(t + 1, 0);
        }
        self.0[t] = len;
    }
    /// Number of thread slots the view mentions.
    pub fn width(&self) -> usize {
        self.0.len()
    }
    /// True iff every event of `self` is in `other`.
    pub fn le(&self, other: &View) -> bool {
        self.0
            .iter()
            .enumerate()
            .all(|(t, &n)| n <= other.get(t as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_and_contains() {
        let mut a = View::new();
        a.include(EventId::new(0, 2));
        let mut b = View::new();
        b.include(EventId::new(2, 0));
        a.join(&b);
        assert!(a.contains(EventId::new(0, 1)));
        assert!(a.contains(EventId::new(2, 0)));
        assert!(!a.contains(EventId::new(1, 0)));
        assert!(b.le(&a));
        assert!(!a.le(&b));
    }
}
