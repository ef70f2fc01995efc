//! [`SourceCache`]: what the incremental check of one new read computes once for all
//! the candidate sources the explorer tries for it.
//!
//! An explorer adding read `r` sets each candidate source `w` in turn and asks
//! [`MemoryModel::consistent_with`]; between two questions only `r`'s source changes.
//! SC's check looks for a cycle through `r` by a forward DFS, which visits everything
//! after `r`'s new fr edge. The cache answers instead from the set of events that reach
//! `r`'s po-predecessor, computed once per read by a backward search.
//!
//! Why that is exact (SC: `po ∪ sync ∪ rf ∪ co ∪ fr`). Let `G_w` be the graph with `r`
//! reading `w`, and let `r` be a read, the last event of its thread, whose thread is not
//! joined (as for `r` porf-maximal, the contract of the incremental checks) and not its
//! thread's first event. Then
//! * `r`'s only out-edge is fr, to `s = co_next(w)` (no po-successor, no join, no
//!   readers); its in-edges are po from its predecessor `p` and rf from `w`;
//! * the graph without `r` (call it `H`) is the same for every `w`, and consistent by
//!   the contract, so acyclic.
//!
//! A cycle through `r` in `G_w` is `r → s →* x → r` with the path from `s` to `x`
//! avoiding `r`, so in `H`, and `x ∈ {p, w}`. `s` reaching `w` in `H` would close the
//! cycle `w →co s →* w` in `H`: impossible. So `G_w` has a cycle through `r` iff `s`
//! lies in `Anc(p)`, the events reaching `p` in `H` (`p` included), which does not
//! depend on `w`.
//!
//! When the preconditions do not hold, the model falls back to its plain check.
//!
//! [`MemoryModel::consistent_with`]: crate::MemoryModel::consistent_with

use crate::sc::Scratch;
use porf_graph::{EventId, Graph};

/// `Anc(p)` of the module documentation for the current read, computed at the first
/// question about it. Create one per explorer and call [`SourceCache::begin`] before
/// the candidate sources of each new read are tried.
#[derive(Default)]
pub struct SourceCache {
    /// The read `Anc` is about, once computed.
    read: Option<EventId>,
    /// Whether `Anc` is computed for `read`.
    ready: bool,
    /// `Anc`: the events visited since its search began.
    marks: Scratch,
}

impl SourceCache {
    /// Forgets the current read: the candidate sources of read `r` are about to be
    /// tried. Until the next `begin`, the graphs passed to the checks must differ only
    /// in `r`'s source (and `r`'s order and hb view).
    pub fn begin(&mut self, r: EventId) {
        self.read = Some(r);
        self.ready = false;
    }

    /// Whether `s` reaches `r`'s po-predecessor in `g` without `r` ([`applies`] must
    /// hold of `r`), `pred` pushing the predecessors of an event in the relation
    /// checked. The set of such events is computed at the first call after
    /// [`SourceCache::begin`] and reused: the caller ensures that between calls the
    /// relation differs only in `r`'s edges.
    pub(crate) fn reaches_pred(
        &mut self,
        g: &Graph,
        r: EventId,
        s: EventId,
        mut pred: impl FnMut(EventId, &mut Vec<EventId>),
    ) -> bool {
        debug_assert_eq!(self.read, Some(r), "SourceCache::begin not called for r");
        if !self.ready {
            self.ancestors(g, r, &mut pred);
            self.ready = true;
        }
        self.marks.visited(s)
    }

    /// Marks `Anc(p)`, `p` the po-predecessor of `r`: a backward DFS that never enters
    /// `r`.
    fn ancestors(
        &mut self,
        g: &Graph,
        r: EventId,
        pred: &mut impl FnMut(EventId, &mut Vec<EventId>),
    ) {
        self.marks.begin(g);
        let mut stack = std::mem::take(&mut self.marks.stack);
        stack.clear();
        stack.push(EventId::new(r.tid, r.idx - 1));
        while let Some(a) = stack.pop() {
            if a != r && self.marks.visit(a) {
                pred(a, &mut stack);
            }
        }
        self.marks.stack = stack;
    }
}

/// Whether `r` meets the preconditions of the cached check: a read, not its thread's
/// first event, the last one, and its thread not joined.
pub(crate) fn applies(g: &Graph, r: EventId) -> bool {
    r.idx > 0 && g.label(r).is_read() && g.last_of(r.tid) == Some(r) && g.joins_of(r.tid).is_empty()
}
