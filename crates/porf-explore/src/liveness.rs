//! `--check-liveness`: threads that spin forever.
//!
//! GenMC 0.11 (`GenMCDriver::checkLiveness`, `threadReadsMaximal`) checks each blocked
//! execution: if some threads are blocked by a spin-assume and every one of them read,
//! in its blocked iteration, the co-latest write of each location it read, it reports
//! "Non-terminating spinloop". The reasoning: in a maximal execution nothing more
//! will be written, so a re-run of the iteration can only read those same writes
//! (read-read coherence forbids reading a co-earlier one), takes the same path, and
//! fails again, forever.
//!
//! porf's definition is that one, for the blocks whose iteration ended in the state it
//! began in (`repeats`: the interpreter's rule (a); a block by rule (b), a re-read
//! before the loop, says nothing about the next iteration, and the execution where
//! that read returned the value directly is explored as well), with one more
//! condition, to report nothing that
//! depends on executions porf did not explore: every other thread has finished, or
//! waits for good — for a join, or for a lock whose acquire read the co-latest write
//! of the lock (no later unlock), or in a library wait (`BlockReason::Wait`) whose read
//! saw the co-latest write. A thread blocked by a failed assume (the execution
//! is not one of the program's), by `--unroll` (its future was not explored), by a
//! read of an uninitialised location, or stopped by an error, voids the check.
//!
//! A value-preserving RMW of the iteration (which spin-assume counts as a read: an
//! exchange of the value already there) reads a write its own write then follows; its
//! read, and any read of the iteration of the same write, counts as latest when the
//! chain of such RMWs ends at the latest write (`carried`): a re-run reads the same
//! values, writes them back, and fails again.
//!
//! "Co-latest" stands for "the only write a later read of the thread may read", which
//! is what the argument needs. That holds in every model coherent with respect to its
//! hb ([`porf_models::MemoryModel::maximal_extensions_consistent`]). It does not in
//! WRA (Lahav and Boker, TOPLAS 2022), where co plays no role: a later read may read
//! any write not hb-overwritten before it, a co-earlier one included (a lock released
//! co-before the taken value the loop read can still be acquired). There a read's
//! source counts as latest only if every other write of its location happens before
//! it: every other write is then hb-overwritten for any later read of the thread
//! ([`crate::outcome::sole_source`], which the deadlock rule uses too).

use porf_graph::{BlockReason, EventId, Graph, LabelKind, ReadKind, Tid};

/// The block events of the threads that spin forever in `g`, a maximal execution, in
/// thread order: every thread blocked in a spin loop, if the execution is a violation
/// (see the module documentation); else none. `coherent`: whether the model is
/// coherent with respect to its hb (if not, "latest" is the stricter hb rule). In rf mode `g`'s co is a witness the
/// model accepted, so a violation is one of a consistent execution, though another
/// co of the same class might show none.
pub fn spinning_forever(g: &Graph, coherent: bool) -> Vec<EventId> {
    let mut spinning = Vec::new();
    for t in 0..g.num_threads() {
        if !g.thread_exists(t) {
            continue;
        }
        let Some(last) = g.last_of(t) else {
            return Vec::new();
        };
        match &g.label(last).kind {
            LabelKind::Finish { .. } => {}
            LabelKind::Block {
                reason:
                    BlockReason::SpinLoop {
                        reads,
                        repeats: true,
                    },
            } => spinning.push((t, last, *reads)),
            // Blocked because the state equals one a re-read before the loop gives:
            // the next iteration may run differently, so nothing is claimed here (the
            // execution with that re-read is explored too).
            LabelKind::Block {
                reason: BlockReason::SpinLoop { repeats: false, .. },
            } => return Vec::new(),
            LabelKind::Block {
                reason: BlockReason::Lock | BlockReason::Wait,
            } => {
                let waits_for_good = last.prev().is_some_and(|r| match g.label(r).kind {
                    LabelKind::Read { loc, rf, .. } => {
                        crate::outcome::sole_source(g, loc, rf, coherent)
                    }
                    _ => false,
                });
                if !waits_for_good {
                    return Vec::new();
                }
            }
            LabelKind::Block { .. } | LabelKind::Error { .. } => return Vec::new(),
            // Waiting for a join.
            _ => {}
        }
    }
    if spinning
        .iter()
        .all(|&(t, last, reads)| reads_latest(g, t, last, reads, coherent))
    {
        spinning.into_iter().map(|(_, last, _)| last).collect()
    } else {
        Vec::new()
    }
}

/// Whether the last `reads` reads of thread `t` before `last` (the blocked iteration's
/// reads) all read the latest write of their location ([`crate::outcome::sole_source`]),
/// or a write whose value the iteration's value-preserving RMWs carried on to the
/// latest one: a read of `w'` followed, in the iteration, by RMWs each reading the
/// previous one's write and writing back the value it read ([`carried`]). A re-run of
/// the iteration then reads those same values again.
fn reads_latest(g: &Graph, t: Tid, last: EventId, reads: u32, coherent: bool) -> bool {
    let mut its = Vec::with_capacity(reads as usize);
    let mut i = last.idx;
    while its.len() < reads as usize && i > 0 {
        i -= 1;
        let e = EventId::new(t, i);
        if matches!(g.label(e).kind, LabelKind::Read { .. }) {
            its.push(e);
        }
    }
    its.len() == reads as usize
        && its.iter().all(|&r| match g.label(r).kind {
            LabelKind::Read { loc, rf, .. } => {
                crate::outcome::sole_source(g, loc, carried(g, &its, rf), coherent)
            }
            _ => unreachable!(),
        })
}

/// The write `w` ends at when followed along the value-preserving RMWs among `its`
/// (read parts of the blocked iteration) that read it: an RMW's read part reading `w`
/// whose write part (the next event) holds the value read.
fn carried(g: &Graph, its: &[EventId], mut w: Option<EventId>) -> Option<EventId> {
    loop {
        let next = its.iter().find_map(|&r| {
            let LabelKind::Read {
                kind: ReadKind::Rmw(_),
                rf,
                ..
            } = g.label(r).kind
            else {
                return None;
            };
            let wp = EventId::new(r.tid, r.idx + 1);
            let preserving = rf == w
                && wp.idx < g.thread_len(r.tid)
                && matches!(g.label(wp).kind, LabelKind::Write { val, .. } if val == g.read_val(r));
            preserving.then_some(wp)
        });
        match next {
            Some(wp) => w = Some(wp),
            None => return w,
        }
    }
}
