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

use porf_graph::{BlockReason, EventId, Graph, LabelKind, Tid};

/// The first spinning thread's block event if `g`, a maximal execution, has threads
/// that spin forever (see the module documentation).
pub fn violation(g: &Graph) -> Option<EventId> {
    let mut spinning = Vec::new();
    for t in 0..g.num_threads() {
        if !g.thread_exists(t) {
            continue;
        }
        let last = g.last_of(t)?;
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
            } => return None,
            LabelKind::Block {
                reason: BlockReason::Lock | BlockReason::Wait,
            } => {
                let r = last.prev()?;
                match g.label(r).kind {
                    LabelKind::Read { loc, rf, .. } if g.co_next(loc, rf).is_none() => {}
                    _ => return None,
                }
            }
            LabelKind::Block { .. } | LabelKind::Error { .. } => return None,
            // Waiting for a join.
            _ => {}
        }
    }
    if spinning.is_empty() {
        return None;
    }
    spinning
        .iter()
        .all(|&(t, last, reads)| reads_latest(g, t, last, reads))
        .then(|| spinning[0].1)
}

/// Whether the last `reads` reads of thread `t` before `last` all read the co-latest
/// write of their location.
fn reads_latest(g: &Graph, t: Tid, last: EventId, reads: u32) -> bool {
    let mut left = reads;
    let mut i = last.idx;
    while left > 0 && i > 0 {
        i -= 1;
        if let LabelKind::Read { loc, rf, .. } = g.label(EventId::new(t, i)).kind {
            if g.co_next(loc, rf).is_some() {
                return false;
            }
            left -= 1;
        }
    }
    left == 0
}
