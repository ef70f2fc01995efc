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

/// Release/acquire.
#[derive(Copy, Clone, Debug, Default)]
pub struct Ra;

impl MemoryModel for Ra {
    fn name(&self) -> &'static str {
        "ra"
    }
    /// [`crate::floor::hb_floor`]: the model is coherent with respect to its hb.
    fn co_floor(&self, g: &Graph, loc: porf_graph::Loc, view: &View) -> usize {
        crate::floor::hb_floor(g, loc, view, None)
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
/// Equivalently: no write co-after `e`'s rank (for a write: at or after it, `e`
/// excepted) is in `hb`, and no reader of one is. So only the co suffix after `e`'s
/// rank and its readers are looked at: O(1) for an event reading or placed co-last,
/// whatever the length of the location's history.
pub(crate) fn coherent_with(g: &Graph, e: EventId, hb: &View) -> bool {
    let lab = g.label(e);
    let Some(loc) = lab.loc() else {
        return true;
    };
    let from = match lab.kind {
        // Writes of rank > s: co indices s.. .
        LabelKind::Read { rf, .. } => g.co_pos(rf),
        // Writes of rank >= p: co indices p - 1.. (e itself excepted).
        _ => g.co_pos(Some(e)) - 1,
    };
    g.co(loc)[from..].iter().all(|&w| {
        (w == e || !hb.contains(w))
            && g.label(w)
                .readers
                .iter()
                .all(|&r| r == e || !hb.contains(r))
    })
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
