//! Sequential consistency: `acyclic(po ∪ sync ∪ rf ∪ co ∪ fr)` (Kokologiannakis et al.,
//! PLDI 2019, App. A.1).
//!
//! Also home of helpers shared by the other models:
//! * [`po_sync_view`] / [`atomic_rf_view`]: hb views built from po, sync edges and
//!   (for SC, TSO and RA) rf between atomic accesses;
//! * [`Nav`] and [`on_cycle`]: O(graph) successor tables and a DFS that looks for a
//!   cycle through one event, for the incremental checks of SC and TSO.

use crate::atomicity;
use crate::relation::Base;
use crate::source_cache::{self, SourceCache};
use crate::MemoryModel;
use porf_graph::{EventId, Graph, LabelKind, Loc, View};

/// Sequential consistency.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sc;

impl MemoryModel for Sc {
    fn name(&self) -> &'static str {
        "sc"
    }
    /// [`crate::floor::hb_floor`]: the model is coherent with respect to its hb.
    fn co_floor(&self, g: &Graph, loc: porf_graph::Loc, view: &View) -> usize {
        crate::floor::hb_floor(g, loc, view, None)
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        atomic_rf_view(g, e)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        let nav = Nav::new(g);
        !on_cycle(g, e, |a, out| sc_succ(&nav, a, out))
    }
    /// For a read `r` that is the last event of its unjoined thread: `r` lies on a
    /// cycle iff the immediate co-successor of its source reaches `r`'s po-predecessor
    /// without `r`, decided from the set of events reaching that predecessor, computed
    /// once for all of `r`'s candidate sources ([`source_cache`]: why it is exact).
    ///
    /// [`source_cache`]: crate::source_cache
    fn consistent_source(&self, g: &Graph, r: EventId, cache: &mut SourceCache) -> bool {
        if !source_cache::applies(g, r) {
            return self.consistent_with(g, r);
        }
        let LabelKind::Read { loc, rf, .. } = g.label(r).kind else {
            unreachable!("source_cache::applies holds of reads only")
        };
        // `r`'s only out-edge: fr to the co-successor of its source ([`Nav::co_fr_succ`]).
        let nav = Nav::new(g);
        let ok = !nav
            .co_after(loc, rf)
            .is_some_and(|s| cache.reaches_pred(g, r, s, |a, out| sc_pred(&nav, a, out)));
        debug_assert_eq!(ok, self.consistent_with(g, r), "cached SC check of {r:?}");
        ok
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        if !atomicity::holds(g) {
            return false;
        }
        let b = Base::new(g);
        b.po.union(&b.sync)
            .union(&b.rf)
            .union(&b.co)
            .union(&b.fr)
            .is_acyclic()
    }
    /// VerifySC: exact, and polynomial for a fixed number of threads and locations.
    fn rf_consistent(&self, g: &Graph) -> Option<crate::rf::CoWitness> {
        self.rf_check(g).witness
    }
    /// VerifySC, saying whether its closure alone refuted the graph.
    fn rf_check(&self, g: &Graph) -> crate::rf::RfCheck {
        crate::rf::verify_sc::verify_sc_check(g)
    }
}

/// The successors of `a` in `po ∪ sync ∪ rf ∪ co ∪ fr` (co and fr immediate only,
/// which is enough for cycles: co is in the union).
fn sc_succ(nav: &Nav, a: EventId, out: &mut Vec<EventId>) {
    out.extend(nav.po_next(a));
    nav.sync_succ(a, out);
    nav.rf_succ(a, false, out);
    nav.co_fr_succ(a, out);
}

/// The predecessors of `a` in the relation [`sc_succ`] walks: exactly the events
/// whose successors there include `a`.
fn sc_pred(nav: &Nav, a: EventId, out: &mut Vec<EventId>) {
    out.extend(a.prev());
    nav.sync_pred(a, out);
    nav.rf_pred(a, out);
    nav.co_fr_pred(a, out);
}

/// `{e}` ∪ hb of `e`'s po-predecessor ∪ hb of its spawn event (for a `Start`) ∪ hb of
/// the child's last event (for a `Join`). Uses the hb views stored in `g`.
pub(crate) fn po_sync_view(g: &Graph, e: EventId) -> View {
    let mut v = e.prev().map(|p| g.label(p).hb.clone()).unwrap_or_default();
    match g.label(e).kind {
        LabelKind::Start { parent: Some(p) } => v.join(&g.label(p).hb),
        LabelKind::Join { child } => {
            if let Some(fin) = g.last_of(child) {
                v.join(&g.label(fin).hb);
            }
        }
        _ => {}
    }
    v.include(e);
    v
}

/// [`po_sync_view`], plus: an atomic read of an atomic write `w` gets hb(`w`).
/// The hb of SC, TSO and RA (where every atomic access is release/acquire).
pub(crate) fn atomic_rf_view(g: &Graph, e: EventId) -> View {
    let mut v = po_sync_view(g, e);
    if let LabelKind::Read {
        ord, rf: Some(w), ..
    } = g.label(e).kind
    {
        let wl = g.label(w);
        if ord.is_atomic() && wl.ord().is_some_and(|o| o.is_atomic()) {
            v.join(&wl.hb);
        }
    }
    v
}

/// Successor functions of a graph for the DFS-based checks. Nothing is tabulated:
/// every successor is read off the graph (joins through [`Graph::joins_of`]) when the
/// DFS asks, so building one is O(1) and a check costs what its DFS visits.
pub(crate) struct Nav<'g> {
    g: &'g Graph,
}

impl<'g> Nav<'g> {
    pub(crate) fn new(g: &'g Graph) -> Nav<'g> {
        Nav { g }
    }
    /// The po-successor of `a`, if any.
    pub(crate) fn po_next(&self, a: EventId) -> Option<EventId> {
        let n = a.next();
        self.g.contains(n).then_some(n)
    }
    /// Sync edges out of `a`: spawn → child start, last event of a thread → its joins.
    pub(crate) fn sync_succ(&self, a: EventId, out: &mut Vec<EventId>) {
        if let LabelKind::Spawn { child, .. } = self.g.label(a).kind {
            if self.g.thread_exists(child) {
                out.push(EventId::new(child, 0));
            }
        }
        if self.g.last_of(a.tid) == Some(a) {
            out.extend(self.g.joins_of(a.tid));
        }
    }
    /// Sync edges into `a`: the spawn of `a`'s thread into its first event, and the
    /// last event of a thread into each of its joins (the inverse of
    /// [`Nav::sync_succ`]).
    pub(crate) fn sync_pred(&self, a: EventId, out: &mut Vec<EventId>) {
        match self.g.label(a).kind {
            LabelKind::Start { parent: Some(p) } if a.idx == 0 => {
                if matches!(self.g.label(p).kind, LabelKind::Spawn { child, .. } if child == a.tid)
                {
                    out.push(p);
                }
            }
            // Every `Join { child }` is in `joins_of(child)` (the graph's invariant).
            LabelKind::Join { child } => out.extend(self.g.last_of(child)),
            _ => {}
        }
    }
    /// The rf edge into read `a`, if any (the inverse of [`Nav::rf_succ`] with
    /// `external_only` false).
    pub(crate) fn rf_pred(&self, a: EventId, out: &mut Vec<EventId>) {
        if let LabelKind::Read { rf: Some(w), .. } = self.g.label(a).kind {
            if self.g.label(w).is_write() {
                out.push(w);
            }
        }
    }
    /// co and fr edges into write `a` (the inverse of [`Nav::co_fr_succ`]): its
    /// immediate co-predecessor, and the reads of its location reading from that
    /// co-predecessor (or from the initialisation, for the co-first write).
    pub(crate) fn co_fr_pred(&self, a: EventId, out: &mut Vec<EventId>) {
        let LabelKind::Write { loc, .. } = self.g.label(a).kind else {
            return;
        };
        let before = self.g.co_pos(Some(a)) - 1;
        let prev = before.checked_sub(1).map(|i| self.g.co(loc)[i]);
        out.extend(prev);
        out.extend(
            self.g
                .readers(loc, prev)
                .iter()
                .filter(|&&b| self.g.label(b).loc() == Some(loc)),
        );
    }
    /// rf edges out of write `a` (only to other threads if `external_only`).
    pub(crate) fn rf_succ(&self, a: EventId, external_only: bool, out: &mut Vec<EventId>) {
        let lab = self.g.label(a);
        if lab.is_write() {
            out.extend(
                lab.readers
                    .iter()
                    .filter(|r| !external_only || r.tid != a.tid),
            );
        }
    }
    /// The immediate co-successor of `w` (`None` = initialisation) at `loc`.
    pub(crate) fn co_after(&self, loc: Loc, w: Option<EventId>) -> Option<EventId> {
        self.g.co_next(loc, w)
    }
    /// co out of a write (its immediate co-successor) and fr out of a read (the
    /// immediate co-successor of its source); enough for cycles, as co is in the union.
    pub(crate) fn co_fr_succ(&self, a: EventId, out: &mut Vec<EventId>) {
        match self.g.label(a).kind {
            LabelKind::Write { loc, .. } => out.extend(self.co_after(loc, Some(a))),
            LabelKind::Read { loc, rf, .. } => out.extend(self.co_after(loc, rf)),
            _ => {}
        }
    }
}

/// True iff `e` lies on a cycle of the relation whose successors `succ` pushes.
/// Each event is expanded at most once. The visited set and the stack are scratch
/// buffers kept per OS thread ([`Scratch`]), so a check allocates nothing once warm and
/// costs what its DFS visits, not the size of the graph.
pub(crate) fn on_cycle(
    g: &Graph,
    e: EventId,
    mut succ: impl FnMut(EventId, &mut Vec<EventId>),
) -> bool {
    SCRATCH.with(|cell| {
        let mut guard = cell.take();
        let sc = guard.get_or_insert_with(Scratch::default);
        sc.begin(g);
        let mut stack = std::mem::take(&mut sc.stack);
        stack.clear();
        succ(e, &mut stack);
        let mut found = false;
        while let Some(a) = stack.pop() {
            if a == e {
                found = true;
                break;
            }
            if sc.visit(a) {
                succ(a, &mut stack);
            }
        }
        sc.stack = stack;
        cell.set(guard);
        found
    })
}

thread_local! {
    /// [`on_cycle`]'s buffers (taken out while in use, so a nested call, which does
    /// not happen today, would simply get fresh ones).
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// A visited set over events, cleared in O(1) by bumping a generation: `marks[t][i]
/// == gen` iff event `(t, i)` was visited since the last [`Scratch::begin`].
#[derive(Default)]
pub(crate) struct Scratch {
    marks: Vec<Vec<u32>>,
    gen: u32,
    /// A work stack for the search the marks serve.
    pub(crate) stack: Vec<EventId>,
}

impl Scratch {
    pub(crate) fn begin(&mut self, g: &Graph) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            // Wrapped around: old marks could collide with the new generation.
            self.marks.iter_mut().for_each(|m| m.fill(0));
            self.gen = 1;
        }
        let n = g.num_threads() as usize;
        if self.marks.len() < n {
            self.marks.resize_with(n, Vec::new);
        }
        for (t, m) in self.marks.iter_mut().enumerate().take(n) {
            let len = g.thread_len(t as u32) as usize;
            if m.len() < len {
                m.resize(len.max(2 * m.len()), 0);
            }
        }
    }
    /// Marks `a` visited; true iff it was not yet.
    pub(crate) fn visit(&mut self, a: EventId) -> bool {
        let m = &mut self.marks[a.tid as usize][a.idx as usize];
        let fresh = *m != self.gen;
        *m = self.gen;
        fresh
    }
    /// Whether `a` was visited since the last [`Scratch::begin`] (false for an event
    /// the graph of that `begin` did not have).
    pub(crate) fn visited(&self, a: EventId) -> bool {
        self.marks
            .get(a.tid as usize)
            .and_then(|m| m.get(a.idx as usize))
            == Some(&self.gen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::testkit::{self, Expect};

    #[test]
    fn litmus_shapes() {
        testkit::check_shapes(
            &Sc,
            Expect {
                sb: false,
                sb_sc: false,
                mp: false,
                mp_fences: false,
                sb_fences: false,
                lb: false,
                corr: false,
                two_plus_two_w: false,
            },
        );
    }

    #[test]
    fn execution_counts() {
        testkit::check_counts(&Sc);
    }
}
