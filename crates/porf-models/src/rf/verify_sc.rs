//! VerifySC: the exact reads-from consistency check of sequential consistency, from
//! "Stateless Model Checking under a Reads-Value-From Equivalence" (Agarwal, Chatterjee,
//! Pathak, Pavlogiannis, Toman, CAV 2021): Alg. 1 with the greedy moves and the closure
//! of its §4.2.
//!
//! The question: given (events, po, rf), is there a coherence order under which the
//! graph is SC-consistent (`acyclic(po ∪ sync ∪ rf ∪ co ∪ fr)` plus RMW atomicity)?
//! Equivalently: is there a *witness*, a total order of all events that respects po and
//! sync, in which every read sees (is after, with no write of its location in between)
//! its source write — or no write of its location at all when it reads the
//! initialisation — and every RMW's write part immediately follows its read part? The
//! coherence order is then the order of each location's writes in the witness.
//!
//! **Adapting good-writes to fixed rf.** The paper decides reads-*value*-from: each read
//! may read any write of a set `GoodW(r)` (the writes of the value it returned). porf
//! fixes each read's source, so here `GoodW(r) = {rf(r)}`, with the initialisation as a
//! virtual write preceding every event (active at a location until the first write
//! there). Consequences, all in `search.rs` and `closure.rs`:
//! a read is executable iff its own source is the active write; a location is held by
//! an unexecuted read iff that read's source is the active write (never an older one,
//! by the witness-prefix invariant), so a write is executable iff no unexecuted read
//! must still see the active write; the paper's memory map (the *thread* of each active
//! write) and the active write itself determine each other, so states store the write;
//! the closure rules, stated for sets `Cl(r)`, collapse to the three rules of
//! reads-from closure; and greedy rule (2) of §4.2 becomes "an executable write no read
//! must see". RMWs follow the paper's App. A: the read part is executed only together
//! with its write part, which then needs its location unheld by every *other* read.
//! Two RMWs reading one write thus never both execute: no witness.
//!
//! **Cost.** `O(n^{k+1} · k^{d+1})` in the worst case for `n` events, `k` threads and
//! `d` locations (Theorem 4.1 of the paper; see `search.rs` for the
//! state count), plus the closure, polynomial: each added pair costs `O(n·k)` and the
//! saturation rounds cost `O(reads · writes + rmws · k)`. Instances where every write
//! some read must see is forced by the greedy moves need a single search state. In
//! practice (`cost_on_fifty_event_graphs` in the crate's tests) a 50-to-65-event graph
//! takes tens of microseconds and a 250-event one under a few milliseconds.
//!
//! [`extend`] is the incremental check: when the new event can be placed last, the
//! previous witness extends and no search is needed.

mod closure;
mod instance;
mod search;
#[cfg(test)]
mod tests;

pub use search::SearchStats;

use super::{CoWitness, DecidedBy, RfCheck};
use instance::{Ev, Id, Instance};
use porf_graph::{EventId, Graph, LabelKind};

/// Some coherence order under which `g` is SC-consistent, or `None` if none exists.
/// Ignores the `co` lists stored in `g`. Agrees with [`super::brute_force`] on every
/// graph (`Some` iff it finds an order).
pub fn verify_sc(g: &Graph) -> Option<CoWitness> {
    verify_sc_with_stats(g, &mut SearchStats::default())
}

/// [`verify_sc`], reporting how many witness states the search reached (0 when the
/// closure already refutes the graph).
pub fn verify_sc_with_stats(g: &Graph, stats: &mut SearchStats) -> Option<CoWitness> {
    verify_sc_check_with_stats(g, stats).witness
}

/// [`verify_sc`] as an [`RfCheck`]: [`DecidedBy::Closure`] when the closure alone
/// refutes the graph, else [`DecidedBy::Search`] (VerifySC has no local pre-check).
pub fn verify_sc_check(g: &Graph) -> RfCheck {
    verify_sc_check_with_stats(g, &mut SearchStats::default())
}

/// [`verify_sc_check`], reporting the search's states as [`verify_sc_with_stats`].
pub fn verify_sc_check_with_stats(g: &Graph, stats: &mut SearchStats) -> RfCheck {
    let inst = Instance::new(g);
    let Some(p) = closure::closure(&inst) else {
        return RfCheck::refuted(DecidedBy::Closure);
    };
    let witness = search::search(&inst, &p, stats).map(|trace| coherence(&inst, &trace));
    RfCheck::searched(witness)
}

/// The coherence order a witness trace induces: each location's writes in trace order,
/// for every location the graph accesses (sorted by location).
fn coherence(inst: &Instance, trace: &[Id]) -> CoWitness {
    let mut co: CoWitness = inst.locs.iter().map(|&l| (l, Vec::new())).collect();
    for &e in trace {
        if let Ev::Write { loc, .. } = inst.ev[e as usize] {
            co[loc as usize].1.push(inst.events[e as usize]);
        }
    }
    co
}

/// The incremental check: `prev` is a witness of `g` without `e`, where `e` is
/// porf-maximal in `g` (the last event of its thread, read by no one, no event after it
/// in sync). If `e` can go last in a witness trace — it is not a read, or a read (or an
/// RMW write part) whose source is the co-latest write of its location in `prev` —
/// returns `prev` with `e` appended to its location's co: nothing in
/// `po ∪ sync ∪ rf ∪ co ∪ fr` leaves `e` then, so no cycle and no atomicity violation
/// is new. Otherwise `None`: `e` may or may not be consistent, ask [`verify_sc`].
/// O(n) for `n` events (a copy of `prev` and a scan for joins of `e`'s thread).
pub fn extend(g: &Graph, e: EventId, prev: &CoWitness) -> Option<CoWitness> {
    let lab = g.label(e);
    debug_assert!(lab.readers.is_empty() && g.last_of(e.tid) == Some(e));
    // Edges out of `e` in sync: to a started child, or (as the last event of its
    // thread) to a join of its thread. Neither exists for a porf-maximal `e`; checked.
    let spawned = matches!(lab.kind, LabelKind::Spawn { child, .. } if g.thread_exists(child));
    let joined = g
        .events()
        .any(|(_, l)| matches!(l.kind, LabelKind::Join { child } if child == e.tid));
    if spawned || joined {
        return None;
    }
    let Some(loc) = lab.loc() else {
        return Some(prev.clone());
    };
    let mut co = prev.clone();
    let i = match co.binary_search_by_key(&loc, |(l, _)| *l) {
        Ok(i) => i,
        Err(i) => {
            co.insert(i, (loc, Vec::new()));
            i
        }
    };
    let latest = co[i].1.last().copied();
    let src = match lab.kind {
        LabelKind::Read { rf, .. } => rf,
        _ if lab.is_exclusive_write() => g.label(crate::atomicity::read_part(e)).rf(),
        _ => latest,
    };
    if src != latest {
        return None;
    }
    if lab.is_write() {
        co[i].1.push(e);
    }
    Some(co)
}

/// [`extend`] if it applies, else [`verify_sc`]: exact, like [`verify_sc`].
pub fn verify_sc_after(g: &Graph, e: EventId, prev: &CoWitness) -> Option<CoWitness> {
    extend(g, e, prev).or_else(|| verify_sc(g))
}
