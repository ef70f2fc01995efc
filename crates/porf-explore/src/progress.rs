//! Live counters of a running exploration, for a progress display on another thread.
//!
//! The explorers' [`Recorder`](crate::record::Recorder)s add to a shared [`Progress`]
//! (several recorders may share one: every counter is an atomic that is only ever
//! added to), and a display thread reads it with relaxed loads. A recorder adds one
//! relaxed `fetch_add` per maximal execution and one compare-and-swap for the share of
//! the tree done, a few nanoseconds against the microseconds an execution costs.
//!
//! **The estimate of the total.** GenMC's `--estimate` runs random probes before
//! exploring: each probe descends the tree taking one child at random at every branch,
//! and the product of the branching factors it met is an unbiased estimate of the
//! number of leaves (Knuth, "Estimating the efficiency of backtrack programs", 1975).
//! porf reads the same measure off the exploration itself instead of probing first:
//! give the root weight 1 and split a node's weight equally among its children; the
//! weight of a subtree is the probability that a random probe enters it. The weight of
//! the subtrees already finished, [`Progress::fraction_done`], is the probability that
//! a probe lands in the explored part, and
//!
//! `estimated total = maximal executions so far / fraction_done`.
//!
//! It is exact on a tree whose leaves are spread as evenly as the probes are (every
//! node's children equally large), and otherwise an estimate: subtrees explored first
//! that are larger or smaller than their siblings move it up or down until the
//! exploration reaches the others. A branch whose children are not all known when it
//! is entered (a write's backward revisits: which of them are performed is only known
//! when each is tried) counts every candidate as a child; a candidate that turns out
//! not to be explored is a subtree with no leaves, as in Knuth's estimator.
//!
//! Invariants: the counters only grow; `fraction_done` is in `[0, 1]` up to rounding,
//! and reaches 1 (up to rounding) exactly when an exploration that records branches
//! ends unstopped.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counters shared between the explorers and a display (see the module documentation).
#[derive(Debug, Default)]
pub struct Progress {
    complete: AtomicU64,
    blocked: AtomicU64,
    /// The weight of the finished subtrees, an `f64` in its bit pattern (sum over every
    /// recorder).
    done: AtomicU64,
    /// The share done is not tracked ([`Progress::disable_estimate`]).
    no_estimate: AtomicBool,
    /// The most events any execution explored so far had.
    peak_events: AtomicU64,
}

impl Progress {
    /// Complete executions counted so far.
    pub fn complete(&self) -> u64 {
        self.complete.load(Ordering::Relaxed)
    }

    /// Blocked executions counted so far.
    pub fn blocked(&self) -> u64 {
        self.blocked.load(Ordering::Relaxed)
    }

    /// The share of the exploration tree finished, weighted as a random probe would
    /// enter it: 0 at the start, 1 at the end (only explorers that record their
    /// branches move it; others leave it at 0).
    pub fn fraction_done(&self) -> f64 {
        if self.no_estimate.load(Ordering::Relaxed) {
            return 0.0;
        }
        f64::from_bits(self.done.load(Ordering::Relaxed)).clamp(0.0, 1.0)
    }

    /// The estimated number of maximal (complete and blocked) executions of the whole
    /// exploration, once some share of the tree is done: `None` before (see the module
    /// documentation for how it is computed and what it is not).
    pub fn estimated_total(&self) -> Option<f64> {
        let f = self.fraction_done();
        let seen = (self.complete() + self.blocked()) as f64;
        (f > 0.0 && seen > 0.0).then(|| (seen / f).max(seen))
    }

    /// No share done and no estimate from now on: for explorations whose recorders do
    /// not each see a whole tree (subtrees handed between worker threads, a shard's
    /// filtered tree), where the weights would be counted wrongly.
    pub fn disable_estimate(&self) {
        self.no_estimate.store(true, Ordering::Relaxed);
    }

    /// The most events any execution explored so far had (it grows while an
    /// execution keeps growing).
    pub fn peak_events(&self) -> u64 {
        self.peak_events.load(Ordering::Relaxed)
    }

    /// An execution of `n` events was seen.
    pub(crate) fn note_size(&self, n: u64) {
        self.peak_events.fetch_max(n, Ordering::Relaxed);
    }

    pub(crate) fn add_complete(&self) {
        self.complete.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn add_blocked(&self) {
        self.blocked.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn add_done(&self, w: f64) {
        if w <= 0.0 {
            return;
        }
        let _ = self
            .done
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some((f64::from_bits(b) + w).to_bits())
            });
    }
}

/// A node of the exploration tree being explored, as [`Tree`] tracks it: returned by
/// [`Tree::branch`] and given back to [`Tree::child`] and [`Tree::end`].
#[derive(Copy, Clone, Debug)]
#[must_use = "a branch must be ended with Tree::end"]
pub struct Branch {
    /// The node's weight.
    weight: f64,
    /// The weight done when the node was entered.
    base: f64,
    /// Its number of children (at least 1).
    n: usize,
}

impl Branch {
    /// The index of the last child (for a branch whose last child is explored by the
    /// caller after the others).
    pub fn last(&self) -> usize {
        self.n - 1
    }
}

/// One recorder's position in the exploration tree: the weight of the node being
/// explored and the weight finished so far (see the module documentation).
#[derive(Debug)]
pub(crate) struct Tree {
    weight: f64,
    done: f64,
    /// What of `done` was added to the shared [`Progress`] already.
    published: f64,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree {
            weight: 1.0,
            done: 0.0,
            published: 0.0,
        }
    }
}

impl Tree {
    /// Entering a node with `n` children (`n` 0 is taken as 1).
    pub(crate) fn branch(&mut self, n: usize) -> Branch {
        Branch {
            weight: self.weight,
            base: self.done,
            n: n.max(1),
        }
    }

    /// Entering child `i` of `b`: every child before it is finished.
    pub(crate) fn child(&mut self, b: &Branch, i: usize) {
        let w = b.weight / b.n as f64;
        self.weight = w;
        self.done = self.done.max(b.base + w * i.min(b.n) as f64);
    }

    /// Leaving `b`: all of it is finished.
    pub(crate) fn end(&mut self, b: Branch) {
        self.weight = b.weight;
        self.done = self.done.max(b.base + b.weight);
    }

    /// Adds what was finished since the last call to `p`.
    pub(crate) fn publish(&mut self, p: &Progress) {
        let d = self.done - self.published;
        if d > 0.0 {
            p.add_done(d);
            self.published = self.done;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks a complete tree given as branching factors per level, counting leaves as
    /// an explorer would; returns the leaves.
    fn walk(t: &mut Tree, p: &Progress, levels: &[usize]) -> u64 {
        let Some((&n, rest)) = levels.split_first() else {
            p.add_complete();
            t.publish(p);
            return 1;
        };
        let b = t.branch(n);
        let mut leaves = 0;
        for i in 0..n {
            t.child(&b, i);
            leaves += walk(t, p, rest);
        }
        t.end(b);
        t.publish(p);
        leaves
    }

    #[test]
    fn a_finished_tree_is_all_done_and_the_estimate_is_its_size() {
        let (mut t, p) = (Tree::default(), Progress::default());
        // 3 * 2 * 4 = 24 leaves.
        let leaves = walk(&mut t, &p, &[3, 2, 4]);
        assert_eq!(leaves, 24);
        assert!((p.fraction_done() - 1.0).abs() < 1e-12);
        let est = p.estimated_total().unwrap();
        assert!((est - 24.0).abs() < 1e-9, "{est}");
    }

    #[test]
    fn a_uniform_tree_is_estimated_exactly_halfway() {
        let (mut t, p) = (Tree::default(), Progress::default());
        // Root with 2 children, each a uniform tree of 5 * 3 = 15 leaves: after the
        // first child the share done is 1/2 and the estimate 15 / (1/2) = 30.
        let b = t.branch(2);
        t.child(&b, 0);
        walk(&mut t, &p, &[5, 3]);
        t.child(&b, 1);
        t.publish(&p);
        assert!((p.fraction_done() - 0.5).abs() < 1e-12);
        assert!((p.estimated_total().unwrap() - 30.0).abs() < 1e-9);
    }

    #[test]
    fn publishing_adds_only_what_is_new() {
        let (mut t, p) = (Tree::default(), Progress::default());
        let b = t.branch(4);
        t.child(&b, 1);
        t.publish(&p);
        t.publish(&p);
        assert!((p.fraction_done() - 0.25).abs() < 1e-12);
        // A second recorder's share adds to the same counter.
        p.add_done(0.5);
        t.end(b);
        t.publish(&p);
        assert!((p.fraction_done() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn nothing_done_no_estimate() {
        let p = Progress::default();
        assert_eq!(p.estimated_total(), None);
        p.add_blocked();
        assert_eq!(p.estimated_total(), None);
        assert_eq!(p.blocked(), 1);
    }
}
