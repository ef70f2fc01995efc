//! Vector clocks: a downward-closed set of events, one prefix length per thread.

use crate::label::EventId;
use std::hash::{Hash, Hasher};

/// Threads a view holds without a heap allocation. Every event carries two views
/// (porf and hb) that are copied and joined per event, so programs with up to this
/// many threads allocate none, and a copy is a fixed-size copy of the slots.
const INLINE_THREADS: usize = 8;

/// A set of events closed under program order: `v[t]` events of thread `t` (indices
/// `0..v[t]`) are in the view.
///
/// Invariants: the view mentions `len` thread slots (its [`View::width`]); inline,
/// every slot at or beyond `len` is 0; on the heap, the vector's length is `len` (and
/// greater than [`INLINE_THREADS`]). Equality and hashing see the `len` slots only, so
/// a view with a trailing zero slot differs from one without it.
#[derive(Clone, Default)]
pub struct View {
    len: u32,
    slots: Slots,
}

#[derive(Clone)]
enum Slots {
    Inline([u32; INLINE_THREADS]),
    Heap(Vec<u32>),
}

impl Default for Slots {
    fn default() -> Slots {
        Slots::Inline([0; INLINE_THREADS])
    }
}

impl View {
    pub fn new() -> View {
        View::default()
    }
    #[inline]
    fn as_slice(&self) -> &[u32] {
        match &self.slots {
            Slots::Inline(a) => &a[..self.len as usize],
            Slots::Heap(v) => v,
        }
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [u32] {
        match &mut self.slots {
            Slots::Inline(a) => &mut a[..self.len as usize],
            Slots::Heap(v) => v,
        }
    }
    /// Widens the view to at least `n` slots (new slots 0).
    #[inline]
    fn widen(&mut self, n: usize) {
        if n <= self.len as usize {
            return;
        }
        match &mut self.slots {
            Slots::Inline(_) if n <= INLINE_THREADS => {}
            Slots::Inline(a) => {
                let mut v = a[..self.len as usize].to_vec();
                v.resize(n, 0);
                self.slots = Slots::Heap(v);
            }
            Slots::Heap(v) => v.resize(n, 0),
        }
        self.len = n as u32;
    }
    /// Number of events of thread `t` in the view.
    #[inline]
    pub fn get(&self, t: u32) -> u32 {
        match &self.slots {
            // Slots beyond `len` are 0.
            Slots::Inline(a) => a.get(t as usize).copied().unwrap_or(0),
            Slots::Heap(v) => v.get(t as usize).copied().unwrap_or(0),
        }
    }
    #[inline]
    pub fn contains(&self, e: EventId) -> bool {
        e.idx < self.get(e.tid)
    }
    /// Extends the view so that it contains `e` (and its po-predecessors).
    pub fn include(&mut self, e: EventId) {
        let t = e.tid as usize;
        self.widen(t + 1);
        let s = &mut self.as_mut_slice()[t];
        if *s <= e.idx {
            *s = e.idx + 1;
        }
    }
    /// Pointwise maximum.
    pub fn join(&mut self, other: &View) {
        self.widen(other.len as usize);
        for (a, b) in self.as_mut_slice().iter_mut().zip(other.as_slice()) {
            if *a < *b {
                *a = *b;
            }
        }
    }
    /// Sets the prefix length of thread `t`.
    pub fn set(&mut self, t: u32, len: u32) {
        let t = t as usize;
        self.widen(t + 1);
        self.as_mut_slice()[t] = len;
    }
    /// Number of thread slots the view mentions.
    pub fn width(&self) -> usize {
        self.len as usize
    }
    /// True iff every event of `self` is in `other`.
    pub fn le(&self, other: &View) -> bool {
        self.as_slice()
            .iter()
            .enumerate()
            .all(|(t, &n)| n <= other.get(t as u32))
    }
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for View {}

impl Hash for View {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("View").field(&self.as_slice()).finish()
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

    #[test]
    fn wide_views_spill_and_compare_by_slots() {
        let mut a = View::new();
        a.include(EventId::new(2, 4));
        let narrow = a.clone();
        a.set(11, 3);
        assert_eq!(a.width(), 12);
        assert_eq!((a.get(2), a.get(11), a.get(5), a.get(40)), (5, 3, 0, 0));
        let mut b = View::new();
        b.set(11, 7);
        b.join(&a);
        assert_eq!((b.get(2), b.get(11)), (5, 7));
        assert!(a.le(&b) && !b.le(&a) && narrow.le(&a));
        assert_eq!(a.clone(), a);
        assert_ne!(narrow, a);
        // A trailing zero slot makes a different view (as the slots' vector did).
        let mut c = narrow.clone();
        c.set(3, 0);
        assert_ne!(c, narrow);
        assert_eq!(format!("{narrow:?}"), "View([0, 0, 5])");
    }
}
