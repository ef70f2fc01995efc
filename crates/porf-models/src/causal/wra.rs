//! Weak release/acquire (WRA) of Lahav and Boker, "What's Decidable About Causally
//! Consistent Shared Memory?" (TOPLAS 2022, §3): irr-hb, weak-read-coherence
//! (`hb|loc; [W]; hb; rf⁻¹` irreflexive: no read reads a write hb-overwritten before
//! it) and weak-atomicity (no two RMWs read the same write). mo plays no role.
//!
//! Counting: an execution is (events, rf, co) as for every porf model; the co is any
//! order in which each RMW's write part immediately follows its source (porf's
//! representation of an RMW, see [`crate::causal`]). So every such co of a
//! WRA-consistent rf is an execution: the co-mode count multiplies the rf classes by
//! their co orders. [`Wra::consistent_with`] accepts every co position of a write for
//! that reason. What the optimal explorer needs beyond that: TruSt's maximality rule
//! assumes a read may always read the co-latest write, which fails here (co need not
//! agree with hb), so WRA says so
//! ([`MemoryModel::maximal_extensions_consistent`]) and the explorer dedupes its
//! backward revisits with a set of the graphs they produced instead (the
//! differential tests against the reference explorer check the counts).

use super::{hb_view, Causal};
use crate::rf::{self, CoWitness};
use crate::{atomicity, MemoryModel};
use porf_graph::{EventId, Graph, LabelKind, Loc, View};
use std::collections::HashMap;

/// Weak release/acquire.
#[derive(Copy, Clone, Debug, Default)]
pub struct Wra;

impl MemoryModel for Wra {
    fn name(&self) -> &'static str {
        "wra"
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        hb_view(g, e)
    }
    /// A new read must not read a write overwritten (in hb) before it; nothing else
    /// can change when a porf-maximal event is added (hb is porf, so acyclic by
    /// construction, and a new write is hb-before nothing). Every co position is
    /// allowed.
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        !rf::stale_by_hb(g, e)
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        atomicity::holds(g) && consistent_ignoring_co(g)
    }
    /// WRA does not depend on co: any co in which RMW chains are contiguous is a
    /// witness.
    fn rf_consistent(&self, g: &Graph) -> Option<CoWitness> {
        consistent_ignoring_co(g).then(|| chains_co(g))
    }
    fn has_data_races(&self) -> bool {
        false
    }
    /// False: reading the co-latest write may break weak-read-coherence, since co
    /// need not agree with hb.
    fn maximal_extensions_consistent(&self) -> bool {
        false
    }
}

/// The paper's WRA on (events, rf), straight from Table 1: irr-hb,
/// weak-read-coherence and weak-atomicity. The co stored in `g` is not read.
pub fn consistent_ignoring_co(g: &Graph) -> bool {
    let c = Causal::new(g);
    if !c.irr_hb() || !c.init_reads_coherent(g) {
        return false;
    }
    let hb_loc = c.hb.filter(|a, b| {
        let (la, lb) = (c.b.idx.label(g, a).loc(), c.b.idx.label(g, b).loc());
        la.is_some() && la == lb
    });
    let weak_read_coherence = hb_loc
        .compose(&c.writes(g))
        .compose(&c.hb)
        .compose(&c.b.rf.inverse())
        .is_irreflexive();
    weak_read_coherence && weakly_atomic(g)
}

/// weak-atomicity: `rf; [RMW]` is a partial function (an RMW is an exclusive read
/// whose write part is in the graph).
fn weakly_atomic(g: &Graph) -> bool {
    let mut taken: HashMap<(Loc, Option<EventId>), EventId> = HashMap::new();
    for (e, lab) in g.events() {
        if let LabelKind::Read { loc, rf, .. } = lab.kind {
            if atomicity::has_write_part(g, e) && taken.insert((loc, rf), e).is_some() {
                return false;
            }
        }
    }
    true
}

/// A co for `g` in which every RMW's write part immediately follows its source (RMW
/// chains are contiguous; the chain of the initialisation first, the others in
/// insertion order of their heads). Needs weak-atomicity (at most one RMW per source).
pub(crate) fn chains_co(g: &Graph) -> CoWitness {
    let mut out: CoWitness = Vec::new();
    let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
    locs.sort();
    for loc in locs {
        let mut writes: Vec<EventId> = g
            .loc_info(loc)
            .accesses
            .iter()
            .copied()
            .filter(|&w| g.label(w).is_write())
            .collect();
        writes.sort_by_key(|&w| g.label(w).stamp);
        // The exclusive write reading each source.
        let next: HashMap<Option<EventId>, EventId> = writes
            .iter()
            .filter(|&&w| g.label(w).is_exclusive_write())
            .map(|&w| (g.label(atomicity::read_part(w)).rf(), w))
            .collect();
        let mut order = Vec::with_capacity(writes.len());
        let follow = |head: Option<EventId>, order: &mut Vec<EventId>| {
            let mut cur = head;
            while let Some(&n) = next.get(&cur) {
                order.push(n);
                cur = Some(n);
            }
        };
        follow(None, &mut order);
        for &w in writes.iter().filter(|&&w| !g.label(w).is_exclusive_write()) {
            order.push(w);
            follow(Some(w), &mut order);
        }
        debug_assert_eq!(
            order.len(),
            writes.len(),
            "RMW chains must cover the writes"
        );
        out.push((loc, order));
    }
    out
}
