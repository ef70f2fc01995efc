//! Release/acquire as GenMC's `--ra` (its Kater-generated `RADriver`): RC11 without
//! the SC axiom. Accesses keep their C11 modes: hb is RC11's (`sw` from release
//! writes and fences to acquire reads and fences, through release sequences), so a
//! relaxed flag does not publish data; seq_cst accesses and fences count only as
//! acq/rel, since there is no psc.
//!
//! * hb = `(po ∪ sync ∪ sw)⁺` ([`Rc11::hb_view`]);
//! * coherence: `irreflexive(hb; eco?)` with `eco = (rf ∪ co ∪ fr)⁺`;
//! * atomicity, and `acyclic(porf)` (checked by [`MemoryModel::is_consistent`]; the
//!   explorer guarantees it, so the incremental check does not look at it).
//!
//! (The all-accesses-release/acquire RA of Lahav and Boker, "What's Decidable
//! About Causally Consistent Shared Memory?", is a different model.)
//!
//! Also home of the coherence checks shared with RC11 ([`coherent_with`],
//! [`coherent`]), which only depend on hb.

use crate::atomicity;
use crate::rc11::{hb_relation, Flavor, Rc11};
use crate::relation::{Base, Relation};
use crate::{rf, MemoryModel};
use porf_graph::{EventId, Graph, LabelKind, View};
use std::collections::HashMap;

/// Release/acquire.
#[derive(Copy, Clone, Debug, Default)]
pub struct Ra;

impl MemoryModel for Ra {
    fn name(&self) -> &'static str {
        "ra"
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        Rc11.hb_view(g, e)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        coherent_with(g, e, &self.hb_view(g, e))
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        if !atomicity::holds(g) {
            return false;
        }
        let b = Base::new(g);
        b.porf().is_acyclic() && coherent(&hb_relation(g, &b, Flavor::Herd), &b.eco())
    }
    /// Writes-before ([`crate::rf::wb`]): polynomial.
    fn rf_consistent(&self, g: &Graph) -> Option<rf::CoWitness> {
        rf::wb::check(g, rf::wb::Psc::Absent).witness
    }
}

/// `irreflexive(hb; eco?)` for a strict hb and eco.
pub(crate) fn coherent(hb: &Relation, eco: &Relation) -> bool {
    hb.is_irreflexive() && hb.compose(eco).is_irreflexive()
}

/// The incremental coherence check: no `a` in `hb` (the reflexive hb prefix of `e`)
/// is eco-after `e`. Since `e` is porf-maximal (so hb-maximal, with no readers) and
/// the rest of the graph is coherent, any `hb; eco?` cycle through `e` has this form.
///
/// Writes are ranked by co position (init = 0) and a read by its source's rank:
/// * a read `e` of source rank `s`: every access of the location in `hb` must have
///   rank ≤ `s`;
/// * a write `e` of rank `p`: every other access of the location in `hb` must have
///   rank < `p`.
///
/// Costs O(accesses + co of `e`'s location).
pub(crate) fn coherent_with(g: &Graph, e: EventId, hb: &View) -> bool {
    let lab = g.label(e);
    let Some(loc) = lab.loc() else {
        return true;
    };
    let pos: HashMap<EventId, usize> = g
        .co(loc)
        .iter()
        .enumerate()
        .map(|(i, &w)| (w, i + 1))
        .collect();
    let rank = |a: EventId| match g.label(a).kind {
        LabelKind::Read { rf, .. } => rf.map_or(0, |w| pos[&w]),
        _ => pos[&a],
    };
    let mine = rank(e);
    let others = g
        .loc_info(loc)
        .accesses
        .iter()
        .filter(|&&a| a != e && hb.contains(a));
    match lab.kind {
        LabelKind::Read { .. } => others.into_iter().all(|&a| rank(a) <= mine),
        _ => others.into_iter().all(|&a| rank(a) < mine),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::testkit::{self, Expect};

    #[test]
    fn litmus_shapes() {
        testkit::check_shapes(
            &Ra,
            Expect {
                sb: true,
                sb_sc: true,
                mp: true,
                mp_fences: false,
                sb_fences: true,
                lb: false,
                corr: false,
                two_plus_two_w: true,
            },
        );
    }

    #[test]
    fn execution_counts() {
        testkit::check_counts(&Ra);
    }
}
