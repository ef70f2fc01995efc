//! Which psc edges adding one event can create, in a graph with seq_cst fences: the
//! exact condition under which adding `e` cannot close a psc cycle.
//!
//! Setting: `e` is added porf-maximally to a graph whose psc (either flavour of
//! [`super::psc_acyclic`]; Lahav et al., PLDI 2017, "Repairing sequential consistency
//! in C/C++11", for herd's) is acyclic. Nothing is po- or hb-after `e`; `e` has no
//! readers unless the graph says so. Then:
//!
//! 1. **Among the other events, po, hb, co, rf and eco are unchanged.** po and rf
//!    trivially; hb = `(po ∪ sw)⁺` gains only pairs ending at `e` (the only new sw
//!    edges end at `e`, and nothing leaves `e`); co of `e`'s location only gains pairs
//!    with `e`; fr = `rf⁻¹; co` between two other events is unchanged; an eco path
//!    through `e` (`a co e co b`, `a rf e fr b`, `a fr e co b`; `e` has no readers)
//!    has a direct counterpart (`a co b`, `a co b`, `a fr b`) because co is total on
//!    a location. Hence every `scb` pair between other events is unchanged
//!    (herd's `po|≠loc; hb; po|≠loc` and GenMC's `po; hb; po` would need an hb edge
//!    out of `e`, or `e po b`).
//! 2. **A new psc edge `x → y` between two other events uses `e` as the start of its
//!    `scb` step or as the `a` of `hb; eco; hb`.** The other places are excluded by
//!    1 and by nothing being hb-after `e`: as the end `y'` of `scb` or the `b` of
//!    `eco`, the following `hb?; [F^sc]` would have to end at `e`. In both cases `x`
//!    is an SC fence with `x hb e`, and `e` has an `scb` or eco successor among the
//!    other events.
//! 3. **Edges out of `e` itself**: `e`'s `scb` successors are its co/fr successors
//!    (and, GenMC, its readers): no po, hb, `po; hb; po` or `hb|loc` pair leaves `e`;
//!    an SC fence `e` has no `scb` successor at all and no hb successor.
//!
//! So when `e` has no eco successor (a write placed co-last and unread, a read of the
//! co-latest write) or is an SC fence, psc gains no edge leaving `e` and no edge
//! between other events: every new edge ends at `e`, and a cycle would need an edge
//! leaving it. The graph stays psc-acyclic. Likewise when `e` is not seq_cst (no psc
//! edge touches it) and no SC fence is hb-before `e` (2 needs one). Otherwise
//! ([`Verdict::Unknown`]) the caller checks the whole graph.

use porf_graph::{EventId, Graph, LabelKind, MemOrder, View};

/// What [`classify`] can tell without a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Adding `e` creates no psc cycle (proved in the module docs).
    Acyclic,
    /// New psc edges may close a cycle: check the whole graph.
    Unknown,
}

/// Classifies the addition of `e` (porf-maximal, hb view `hb_e`) to `g`, whose psc
/// was acyclic without it. O(1) when `e` has no eco successor or is an SC fence;
/// otherwise, for a non-SC `e`, a scan of `e`'s hb prefix for an SC fence.
pub(crate) fn classify(g: &Graph, e: EventId, hb_e: &View) -> Verdict {
    let lab = g.label(e);
    let sc = lab.ord() == Some(MemOrder::SeqCst);
    let has_eco_successor = match lab.kind {
        LabelKind::Fence { .. } => false,
        LabelKind::Read { loc, rf, .. } => g.co_pos(rf) < g.co(loc).len(),
        LabelKind::Write { loc, .. } => {
            g.co_pos(Some(e)) < g.co(loc).len() || !lab.readers.is_empty()
        }
        // Thread events and the like have no location: no psc edge leaves them
        // and nothing is eco-after them.
        _ => false,
    };
    if !has_eco_successor {
        return Verdict::Acyclic;
    }
    if !sc && !sc_fence_in(g, e, hb_e) {
        return Verdict::Acyclic;
    }
    Verdict::Unknown
}

/// Is some SC fence other than `e` in the hb view `hb_e`?
fn sc_fence_in(g: &Graph, e: EventId, hb_e: &View) -> bool {
    (0..g.num_threads()).any(|t| {
        let n = hb_e.get(t).min(g.thread_len(t));
        g.thread(t).range(..n as usize).enumerate().any(|(i, l)| {
            EventId::new(t, i as u32) != e
                && matches!(
                    l.kind,
                    LabelKind::Fence {
                        ord: MemOrder::SeqCst
                    }
                )
        })
    })
}
