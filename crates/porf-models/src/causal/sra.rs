//! Strong release/acquire (SRA) of Lahav and Boker, "What's Decidable About Causally
//! Consistent Shared Memory?" (TOPLAS 2022, §3): strong-write-coherence
//! (`(hb ∪ mo)⁺` irreflexive: mo agrees with hb globally, across locations),
//! read-coherence (`mo; hb; rf⁻¹` irreflexive) and atomicity (an RMW reads its
//! immediate mo-predecessor). mo is porf's co.
//!
//! rf mode ([`Sra::rf_consistent`]) is exact and avoids the brute force over co: see
//! [`super::sra_search`].

use super::{hb_view, sra_search, Causal};
use crate::rf::CoWitness;
use crate::{atomicity, MemoryModel};
use porf_graph::{EventId, Graph, LabelKind, View};

/// Strong release/acquire.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sra;

impl MemoryModel for Sra {
    fn name(&self) -> &'static str {
        "sra"
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        hb_view(g, e)
    }
    /// A new read: read-coherence (no write of its location in its hb is co-after its
    /// source). A new write: no `(hb ∪ co)` cycle through it ([`no_cycle_through`]).
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        let lab = g.label(e);
        match lab.kind {
            LabelKind::Read { loc, rf, .. } => {
                let src = g.co_pos(rf);
                g.co(loc)
                    .iter()
                    .enumerate()
                    .all(|(i, &w)| i < src || !lab.hb.contains(w))
            }
            LabelKind::Write { .. } => no_cycle_through(g, e),
            _ => true,
        }
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        if !atomicity::holds(g) {
            return false;
        }
        let c = Causal::new(g);
        let strong_write_coherence = c.hb.union(&c.b.co).is_acyclic();
        let read_coherence =
            c.b.co
                .compose(&c.hb)
                .compose(&c.b.rf.inverse())
                .is_irreflexive();
        strong_write_coherence && read_coherence && c.init_reads_coherent(g)
    }
    /// Exact, by a search over linearisations of hb ([`super::sra_search`]).
    fn rf_consistent(&self, g: &Graph) -> Option<CoWitness> {
        sra_search::search(g)
    }
    fn has_data_races(&self) -> bool {
        false
    }
}

/// Whether the just-placed write `e` (hb-maximal; the rest of `g` consistent) lies on
/// no `(hb ∪ co)` cycle. Such a cycle would leave `e` by co to a later write and come
/// back by hb from a strict hb-predecessor of `e` (a co edge into `e` would close a
/// cycle without `e`). So: the set of events from which `(hb ∪ co)*` reaches a strict
/// hb-predecessor of `e` — hb-downward and co-downward closed — must not contain `e`'s
/// co-successor. Costs O(rounds × writes), rounds ≤ locations + 1.
fn no_cycle_through(g: &Graph, e: EventId) -> bool {
    let loc = g.label(e).loc().expect("a write has a location");
    let Some(next) = g.co_next(loc, Some(e)) else {
        return true;
    };
    let mut reach = g.label(e).hb.clone();
    reach.set(e.tid, e.idx);
    let locs: Vec<&[EventId]> = g.locations().map(|(l, _)| g.co(*l)).collect();
    loop {
        let mut grew = false;
        for co in &locs {
            // Everything co-before the co-latest write already reached.
            let Some(last) = co.iter().rposition(|&w| reach.contains(w)) else {
                continue;
            };
            for &w in &co[..last] {
                if !g.label(w).hb.le(&reach) {
                    reach.join(&g.label(w).hb);
                    grew = true;
                }
            }
        }
        if reach.contains(next) {
            return false;
        }
        if !grew {
            return true;
        }
    }
}
