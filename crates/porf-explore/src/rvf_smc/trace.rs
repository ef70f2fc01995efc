//! A trace realised as a porf graph, and the VerifySC-rvf instance of one.
//!
//! Invariant of a [`Trace`]: the graph's insertion order *is* the trace; each read
//! reads the latest write of its location before it (`None`: no write before it); each
//! location's co lists its writes in trace order; every read has its good writes in
//! `good`, writes of its location with the value it reads, and reads one of them.
//! Threads' machine states depend only on the values their reads returned, so a
//! witness of the same events and good writes keeps every machine state: realising it
//! ([`realise`]) only rebuilds the graph.

use crate::state::State;
use porf_graph::{Action, EventId, Graph, LabelKind, Program};
use porf_models::rvf::Instance;
use porf_models::MemoryModel;
use std::collections::HashMap;

/// Each read's good writes (`None`: the initialisation).
pub(super) type GoodW = HashMap<EventId, Vec<Option<EventId>>>;

/// A trace and the good writes it satisfies.
pub(super) struct Trace<P: Program> {
    pub st: State<P>,
    pub good: GoodW,
}

impl<P: Program> Clone for Trace<P> {
    fn clone(&self) -> Self {
        Trace {
            st: self.st.clone(),
            good: self.good.clone(),
        }
    }
}

impl<P: Program> Trace<P> {
    /// Removes every event with stamp `>= stamp` (and the good writes of its reads).
    pub fn truncate(&mut self, stamp: usize) {
        for &e in &self.st.g.insertion_order()[stamp..] {
            self.good.remove(&e);
        }
        self.st.truncate(stamp);
    }
}

/// Whether performing `a` adds a read (plain, RMW, lock or trylock).
pub(super) fn is_read_action(a: &Action) -> bool {
    matches!(
        a,
        Action::Load { .. } | Action::Rmw { .. } | Action::Lock { .. } | Action::TryLock { .. }
    )
}

/// The events of `old` in the order `order` (a witness of them): a new graph whose
/// insertion order is `order`, each read reading the latest write before it, hb views
/// recomputed. (Machine states stay valid for it: they depend only on values.)
pub(super) fn realise(old: &Graph, order: &[EventId], model: &dyn MemoryModel) -> Graph {
    debug_assert_eq!(order.len(), old.len());
    let mut g = Graph::new();
    let mut locs: Vec<_> = old
        .locations()
        .map(|(l, i)| (*l, i.init_val, i.block))
        .collect();
    locs.sort_by_key(|(l, _, _)| *l);
    for (l, init, block) in locs {
        g.ensure_loc(l, init, block);
    }
    for &e in order {
        let lab = old.label(e);
        let mut kind = lab.kind.clone();
        if let LabelKind::Read { loc, rf, .. } = &mut kind {
            *rf = g.co_max(*loc);
        }
        let ne = g.add(e.tid, kind, lab.src);
        debug_assert_eq!(ne, e, "a witness respects po");
        let hb = model.hb_view(&g, ne);
        g.label_mut(ne).hb = hb;
        if let Some(loc) = lab.loc().filter(|_| lab.is_write()) {
            let n = g.co(loc).len();
            g.co_insert(ne, n + 1);
        }
    }
    g
}

/// The VerifySC-rvf instance of `g`'s events with good writes `good`.
pub(super) fn instance(g: &Graph, good: &GoodW) -> Instance {
    Instance::from_graph(g, |r| good.get(&r).cloned().unwrap_or_default())
}
