//! Symmetric threads in a graph (the graph side of symmetry reduction, after GenMC
//! 0.11's `SymmetryChecker`; the reduction itself is `porf-explore`'s `symmetry.rs`).
//!
//! A thread's *symmetric predecessor* is the thread its spawn event names
//! (`LabelKind::Spawn::symm`): spawned before it by the same parent, running the same
//! function on the same argument. Two such threads *share a prefix* up to index `i`
//! when their events before `i` have the same kinds and are reads only (or events
//! touching no memory), each pair reading from the same write or from the
//! same-index write of its own thread: up to there, neither thread can be told from
//! the other.
//!
//! Invariant: the porf view of an event of a thread with a symmetric predecessor `p`
//! also holds `p`'s events up to their shared prefix ([`Graph::symmetric_prefix`]), so
//! a backward revisit by that thread's writes keeps them (and never revisits them).

use crate::action::Tid;
use crate::graph::Graph;
use crate::label::{EventId, LabelKind};
use crate::view::View;

impl Graph {
    /// Thread `t`'s symmetric predecessor, if its spawn names one.
    pub fn symm_pred(&self, t: Tid) -> Option<Tid> {
        let start = self.thread(t).first()?;
        let LabelKind::Start { parent: Some(s) } = start.kind else {
            return None;
        };
        self.spawn_symm(s)
    }

    /// The symmetric predecessor named by spawn event `s`.
    fn spawn_symm(&self, s: EventId) -> Option<Tid> {
        match self.label(s).kind {
            LabelKind::Spawn { symm, .. } => symm.filter(|&p| self.thread_exists(p)),
            _ => None,
        }
    }

    /// The thread whose symmetric predecessor is `t`, if any.
    pub fn symm_succ(&self, t: Tid) -> Option<Tid> {
        (t + 1..self.num_threads()).find(|&u| self.symm_pred(u) == Some(t))
    }

    /// GenMC's largest shared prefix of thread `p` with thread `t` below index `idx`:
    /// `min(idx, len(p) - 1)` when every pair of events below that index matches,
    /// else the index before the first pair that does not.
    pub fn symmetric_prefix(&self, p: Tid, t: Tid, idx: u32) -> Option<u32> {
        let (tp, tt) = (self.thread(p), self.thread(t));
        let limit = idx.min(tp.len().checked_sub(1)? as u32);
        for j in 0..limit {
            let (a, b) = (&tp[j as usize], &tt[j as usize]);
            if !same_kind(&a.kind, &b.kind) {
                return j.checked_sub(1);
            }
            match (&a.kind, &b.kind) {
                (LabelKind::Read { rf: ra, .. }, LabelKind::Read { rf: rb, .. }) => {
                    let own = matches!((ra, rb), (Some(x), Some(y))
                        if x.tid == p && y.tid == t && x.idx == y.idx);
                    if !own && ra != rb {
                        return j.checked_sub(1);
                    }
                }
                (LabelKind::Write { .. }, _) => return j.checked_sub(1),
                _ => {}
            }
        }
        Some(limit)
    }

    /// Whether threads `p` and `t` share a prefix up to `idx` and `p` has an event at
    /// `idx`.
    pub fn shares_symmetric_prefix(&self, p: Tid, t: Tid, idx: u32) -> bool {
        self.symmetric_prefix(p, t, idx) == Some(idx)
    }

    /// What event `e` (of thread `e.tid`, its kind `kind`) adds to its porf view
    /// through its thread's symmetric predecessor (the module invariant).
    pub(crate) fn symmetric_porf(&self, e: EventId, kind: &LabelKind) -> Option<View> {
        let p = match kind {
            LabelKind::Start { parent: Some(s) } => self.spawn_symm(*s)?,
            _ => self.symm_pred(e.tid)?,
        };
        let si = self.symmetric_prefix(p, e.tid, e.idx)?;
        Some(self.label(EventId::new(p, si)).porf.clone())
    }
}

/// Whether two events are of the same kind for symmetry: the same variant, and for
/// accesses the same read or write kind.
pub fn same_kind(a: &LabelKind, b: &LabelKind) -> bool {
    match (a, b) {
        (LabelKind::Read { kind: x, .. }, LabelKind::Read { kind: y, .. }) => x == y,
        (LabelKind::Write { kind: x, .. }, LabelKind::Write { kind: y, .. }) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}
