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
        !on_cycle(g, e, |a, out| {
            out.extend(nav.po_next(a));
            nav.sync_succ(a, out);
            nav.rf_succ(a, false, out);
            nav.co_fr_succ(a, out);
        })
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

/// Successor functions of a graph for the DFS-based checks. Only the joins are
/// tabulated (in O(graph), without hashing); everything else is read off the graph
/// when the DFS asks, so a check costs what its DFS visits.
pub(crate) struct Nav<'g> {
    g: &'g Graph,
    /// Thread → the `Join`s waiting for it (indexed by tid).
    joins: Vec<Vec<EventId>>,
}

impl<'g> Nav<'g> {
    pub(crate) fn new(g: &'g Graph) -> Nav<'g> {
        let mut joins = vec![Vec::new(); g.num_threads() as usize];
        for (e, lab) in g.events() {
            if let LabelKind::Join { child } = lab.kind {
                if let Some(j) = joins.get_mut(child as usize) {
                    j.push(e);
                }
            }
        }
        Nav { g, joins }
    }
    /// The po-successor of `a`, if any.
    pub(crate) fn po_next(&self, a: EventId) -> Option<EventId> {
        let n = a.next();
        self.g.contains(n).then_some(n)
    }
    /// Sync edges out of `a`: spawn → child start, last event of a thread → its joins.
    pub(crate) fn sync_succ(&self, a: EventId, out: &mut Vec<EventId>) {
        if let LabelKind::Spawn { child } = self.g.label(a).kind {
            if self.g.thread_exists(child) {
                out.push(EventId::new(child, 0));
            }
        }
        if self.g.last_of(a.tid) == Some(a) {
            if let Some(js) = self.joins.get(a.tid as usize) {
                out.extend(js);
            }
        }
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
/// Each event is expanded at most once.
pub(crate) fn on_cycle(
    g: &Graph,
    e: EventId,
    mut succ: impl FnMut(EventId, &mut Vec<EventId>),
) -> bool {
    let mut seen: Vec<Vec<bool>> = (0..g.num_threads())
        .map(|t| vec![false; g.thread_len(t) as usize])
        .collect();
    let mut stack = Vec::new();
    succ(e, &mut stack);
    while let Some(a) = stack.pop() {
        if a == e {
            return true;
        }
        let s = &mut seen[a.tid as usize][a.idx as usize];
        if !*s {
            *s = true;
            succ(a, &mut stack);
        }
    }
    false
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
