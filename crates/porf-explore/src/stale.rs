//! Subtrees of the optimal explorer that hold blocked executions only, and are skipped.
//!
//! Under TruSt's maximality rule a read added *non-maximally* (not reading the
//! co-latest write it could read when it was added) is never revisited, and no backward
//! revisit below it deletes it or anything added before it
//! ([`crate::optimal`]'s `maximal_extension` refuses such revisits). So if such a read
//! decides that its thread blocks for good, every execution below it has that thread
//! blocked on a stale value: a blocked execution (an erroneous one, with keep-going,
//! if another thread failed). Every other event of such an execution is found again
//! below the read's maximal choice, which the explorer visits first: removing the read
//! and what its thread did after it, and re-adding it reading the co-latest write,
//! leaves a consistent graph (the model's maximal extensions are consistent), so no
//! complete execution, error, deadlock or liveness violation is lost (a spinning thread
//! whose read is stale is not a liveness violation). Only blocked executions (and, with
//! keep-going, erroneous ones) are not counted. Two such reads:
//!
//! * a lock acquire that reads a taken lock ([`prune_blocked_acquires`]): the lock has a
//!   co-later write (its maximal source), so the acquire waits on a stale value;
//! * the read just before a spin-assume block, fences aside ([`stale_spin_block`]):
//!   the thread's events up to it stay, and the thread, a function of the values it
//!   read, blocks again at the same back edge whatever happens below. GenMC drops the
//!   same blocked executions ("moot" executions).
//!
//! [`Config::explore_stale_blocks`](crate::Config::explore_stale_blocks) turns both
//! off, for tests that compare blocked counts with an explorer that enumerates every
//! execution.

use crate::mutex::acquire_blocks;
use porf_graph::{BlockReason, EventId, Graph, LabelKind, Loc};

/// Drops from `sources` (a lock acquire's consistent sources, co-earliest first; the
/// last one is the read's maximal choice) every non-maximal source that blocks
/// ([`acquire_blocks`]). Only under the maximality rule (see the module docs).
pub fn prune_blocked_acquires<T>(g: &Graph, loc: Loc, sources: &mut Vec<(Option<EventId>, T)>) {
    let Some(last) = sources.len().checked_sub(1) else {
        return;
    };
    let mut i = 0;
    sources.retain(|(w, _)| {
        let keep = i == last || !acquire_blocks(g, loc, *w);
        i += 1;
        keep
    });
}

/// Whether `e`, an event just added, is a spin-assume block whose thread's last event
/// before it, fences aside, is a read added non-maximally (GenMC's test on the previous
/// access). Below it the thread stays blocked there (see the module docs): that read and
/// everything before it stay, and the fences after it are re-added the same way if a
/// revisit deletes them. Anything else in between (a write, a nondeterministic choice)
/// could be deleted and redone differently, so then the block is not stale. Only under
/// the maximality rule.
pub fn stale_spin_block(g: &Graph, e: EventId) -> bool {
    if !matches!(
        g.label(e).kind,
        LabelKind::Block {
            reason: BlockReason::SpinLoop { .. }
        }
    ) {
        return false;
    }
    (0..e.idx)
        .rev()
        .map(|i| g.label(EventId::new(e.tid, i)))
        .find(|l| !matches!(l.kind, LabelKind::Fence { .. }))
        .is_some_and(|l| l.is_read() && !l.added_max)
}
