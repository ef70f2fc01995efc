//! The causally consistent models of Lahav and Boker, "What's Decidable About Causally
//! Consistent Shared Memory?" (TOPLAS 2022, §3, Table 1), under the paper's reading:
//! **every access is release/acquire**, whatever its C memory order, so
//!
//! * hb = `(po ∪ rf ∪ sync)⁺` (sync: spawn → child start, child end → join), the
//!   initialisation hb-before every event; a read synchronises with every write it
//!   reads, so hb is porf;
//! * there are no data races ([`crate::MemoryModel::has_data_races`] is false);
//! * fences add nothing (po already orders everything a fence could).
//!
//! The models ([`wra`], [`sra`]; the paper's RA is porf's `ra` on programs whose
//! accesses are all release/acquire, see the `causal_ra` tests of `porf-explore`):
//!
//! | model | constraints |
//! |---|---|
//! | WRA | irr-hb, weak-read-coherence (`hb|loc; [W]; hb; rf⁻¹` irreflexive), weak-atomicity (no two RMWs read one write) |
//! | SRA | strong-write-coherence (`(hb ∪ mo)⁺` irreflexive), read-coherence (`mo; hb; rf⁻¹` irreflexive), atomicity (`mo; mo; rf⁻¹` irreflexive on RMWs) |
//!
//! porf splits an RMW into an exclusive read and an exclusive write, po-adjacent, and
//! represents it with the write placed immediately co-after the read's source (that
//! is what [`crate::atomicity::holds`] checks besides weak atomicity). Under SRA this
//! is the paper's atomicity; under WRA, where mo plays no role, it is only porf's
//! representation: a WRA execution is (events, rf, co) with co any order of the
//! writes in which each RMW's write part follows its source immediately, and WRA's
//! co-mode count is the number of such pairs (every such co of a WRA-consistent rf).
//!
//! [`op`] holds the paper's operational memory systems opWRA and opSRA (§4), an
//! independent checker the tests compare with the declarative definitions.

pub mod op;
pub mod sra;
mod sra_search;
pub mod wra;

use crate::relation::{Base, Relation};
use crate::sc::po_sync_view;
use porf_graph::{EventId, Graph, LabelKind, View};

/// The hb view of a new event `e` under the causal models: its po and sync
/// predecessors' views, joined with its rf source's view (every read acquires, every
/// write releases). Equal to `e`'s porf view. Uses the hb views stored in `g`.
pub(crate) fn hb_view(g: &Graph, e: EventId) -> View {
    let mut v = po_sync_view(g, e);
    if let LabelKind::Read { rf: Some(w), .. } = g.label(e).kind {
        v.join(&g.label(w).hb);
    }
    v
}

/// The declarative relations of a graph shared by the causal models: its primitive
/// relations and hb = `(po ∪ rf ∪ sync)⁺`, computed from scratch (hb views stored in
/// the graph are ignored).
pub(crate) struct Causal {
    pub b: Base,
    pub hb: Relation,
}

impl Causal {
    pub fn new(g: &Graph) -> Causal {
        let b = Base::new(g);
        let hb = b.porf().closure();
        Causal { b, hb }
    }

    /// irr-hb.
    pub fn irr_hb(&self) -> bool {
        self.hb.is_irreflexive()
    }

    /// Every read of the initialisation is hb-after no write of its location: the part
    /// of weak-read-coherence and read-coherence that involves the initialisation
    /// write, which is hb- and mo-before every write of its location (it is not an
    /// event of porf's graphs, so it is not in the relations).
    pub fn init_reads_coherent(&self, g: &Graph) -> bool {
        let b = &self.b;
        (0..b.len()).all(|i| match b.idx.label(g, i).kind {
            LabelKind::Read { loc, rf: None, .. } => g
                .loc_info(loc)
                .accesses
                .iter()
                .all(|&w| !g.label(w).is_write() || !self.hb.contains(b.idx.of(w), i)),
            _ => true,
        })
    }

    /// `[W]` over the graph's events.
    pub fn writes(&self, g: &Graph) -> Relation {
        Relation::identity(self.b.len(), |i| self.b.idx.label(g, i).is_write())
    }
}

#[cfg(test)]
mod tests;
