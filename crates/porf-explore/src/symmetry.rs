//! Symmetry reduction for the optimal explorer (GenMC 0.11's SR: its
//! `SymmetryChecker`, `-disable-sr`; Kokologiannakis, Marmanis and Vafeiadis,
//! "Unblocking Dynamic Partial Order Reduction", CAV 2023, whose GenMC it ships in).
//!
//! A thread `u` may be declared *symmetric* to an earlier thread `p`
//! (`Symmetry::Declared`, GenMC's `__VERIFIER_spawn_symmetric`), or the front end may
//! vouch that nothing in the program tells threads running its entry function apart
//! (`Symmetry::Auto`; then `p` is the nearest such sibling, as GenMC finds one). The
//! pair is taken ([`predecessor`]) when `p` was spawned by the same parent with the
//! same entry and argument and nothing the parent did between the two spawns can tell
//! them apart (no access, join, free or block-size query: both threads then start
//! from the same hb prefix but for the spawn events themselves), and `p` has no other
//! symmetric successor. Every execution then has a twin with the two threads' events
//! swapped, reaching the same final memory and the same errors.
//!
//! The reduction keeps, of each pair of twins, the one where at the first index `i`
//! at which the two threads' events stop being indistinguishable reads
//! ([`Graph::shares_symmetric_prefix`]), the successor's event is not eco-before the
//! predecessor's: for two writes of one location, the predecessor's comes first in
//! co; for two reads of one location, the predecessor reads a write co-before or
//! equal to the successor's. [`consistent`] is asked where GenMC asks `isSymmetryOK`
//! (`isRevisitValid`): of every non-maximal rf or co choice (a forward revisit in
//! GenMC's terms), of every backward-revisited read, and of an RMW's write part after
//! either; the maximal choice (co-latest source, co-last place) is explored whatever
//! it says, as GenMC relies on extensibility there. porf-graph's porf views include
//! the predecessor's events up to the shared prefix (`porf_graph::symmetry`), so a
//! backward revisit by the successor keeps them. The scheduler runs the lowest-numbered enabled thread, and a predecessor's
//! tid is lower than its successor's, as GenMC schedules a thread's first schedulable
//! symmetric predecessor first.
//!
//! Exactness is checked, not only argued: `porf-c/tests/differential_symmetry.rs`
//! compares outcomes and error kinds with the reduction on and off and with the
//! reference explorer on random programs of symmetric threads. The counts of GenMC's
//! `tests/correct/sr` programs equal GenMC's (`scripts/genmc_bench.py`).

use porf_graph::symmetry::same_kind;
use porf_graph::{Action, EventId, Graph, LabelKind, Symmetry, Tid, Val};

/// `action` without a spawn's symmetry.
pub(crate) fn undeclared(action: Action) -> Action {
    match action {
        Action::Spawn {
            entry, arg, src, ..
        } => Action::Spawn {
            entry,
            arg,
            symmetric: Symmetry::Asymmetric,
            src,
        },
        a => a,
    }
}

/// The symmetric predecessor of a thread spawned now by `parent` running
/// `entry(arg)`, as `sym` asks (the module's conditions): the declared thread, or
/// (`Auto`) the nearest sibling spawned with the same entry and argument.
pub(crate) fn predecessor(
    g: &Graph,
    parent: Tid,
    entry: u32,
    arg: Val,
    sym: Symmetry,
) -> Option<Tid> {
    let declared = match sym {
        Symmetry::Asymmetric => return None,
        Symmetry::Auto => None,
        Symmetry::Declared(p) => Some(p),
    };
    let events = g.thread(parent);
    for i in (0..events.len()).rev() {
        match events[i].kind {
            LabelKind::Spawn {
                child,
                entry: e,
                arg: a,
                ..
            } if declared.is_none_or(|p| p == child) && (e, a) == (entry, arg) => {
                return g.symm_succ(child).is_none().then_some(child);
            }
            LabelKind::Spawn { child, .. } if declared == Some(child) => return None,
            // Something after which the two threads' hb prefixes differ.
            LabelKind::Read { .. }
            | LabelKind::Write { .. }
            | LabelKind::Join { .. }
            | LabelKind::Free { .. }
            | LabelKind::BlockSize { .. } => return None,
            _ => {}
        }
    }
    None
}

/// Whether access `e` (its rf or co place chosen) keeps the symmetry order with every
/// symmetric predecessor and successor of its thread (the module's rule; GenMC's
/// `isSymmetryOK`).
pub(crate) fn consistent(g: &Graph, e: EventId) -> bool {
    if !g.label(e).is_access() {
        return true;
    }
    let mut p = g.symm_pred(e.tid);
    while let Some(q) = p {
        if ordered_wrongly(g, q, e.tid, e.idx) {
            return false;
        }
        p = g.symm_pred(q);
    }
    let mut s = g.symm_succ(e.tid);
    while let Some(u) = s {
        if ordered_wrongly(g, e.tid, u, e.idx) {
            return false;
        }
        s = g.symm_succ(u);
    }
    true
}

/// Whether predecessor `p` and successor `u` share their prefix below `idx` and
/// `u`'s event at `idx` is eco-before `p`'s, of the same kind.
fn ordered_wrongly(g: &Graph, p: Tid, u: Tid, idx: u32) -> bool {
    if idx >= g.thread_len(u) || !g.shares_symmetric_prefix(p, u, idx) {
        return false;
    }
    let (a, b) = (EventId::new(u, idx), EventId::new(p, idx));
    let (la, lb) = (g.label(a), g.label(b));
    if !same_kind(&la.kind, &lb.kind) || la.loc() != lb.loc() {
        return false;
    }
    match (&la.kind, &lb.kind) {
        (LabelKind::Write { .. }, LabelKind::Write { .. }) => {
            in_co(g, a) && in_co(g, b) && g.co_pos(Some(a)) < g.co_pos(Some(b))
        }
        (LabelKind::Read { rf: ra, .. }, LabelKind::Read { rf: rb, .. }) => {
            g.co_pos(*ra) < g.co_pos(*rb)
        }
        _ => false,
    }
}

/// Whether write `w` has its place in co.
fn in_co(g: &Graph, w: EventId) -> bool {
    let loc = g.label(w).loc().unwrap();
    g.co(loc).contains(&w)
}
