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
//! * the read just before a block of its thread, fences aside ([`stale_block`]): a
//!   spin-assume block, a failed `assume`, or a library wait (condition variable,
//!   read-write lock). The thread's events up to the read stay, and the thread, a
//!   function of the values it read, blocks again at the same point whatever happens
//!   below. GenMC drops the same blocked executions ("moot" executions: a block whose
//!   thread's previous access is a read not added maximally).
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

/// Whether `e`, an event just added, is a block for good (a spin-assume block, a failed
/// `assume`, a library wait) whose thread's last event before it, fences aside, is a
/// read added non-maximally (GenMC's test on the previous access). Below it the thread
/// stays blocked there (see the module docs): that read and everything before it stay,
/// and the fences after it are re-added the same way if a revisit deletes them.
/// Anything else in between (a write, a nondeterministic choice) could be deleted and
/// redone differently, so then the block is not stale. A loop-bound block is not a
/// block for good (it marks an execution `--unroll` cut) and is never stale; a lock
/// acquire's block is [`prune_blocked_acquires`]'s. Only under the maximality rule.
pub fn stale_block(g: &Graph, e: EventId) -> bool {
    let LabelKind::Block { reason } = &g.label(e).kind else {
        return false;
    };
    if !matches!(
        reason,
        BlockReason::SpinLoop { .. }
            | BlockReason::Assume
            | BlockReason::Wait
            | BlockReason::Confined
    ) {
        return false;
    }
    (0..e.idx)
        .rev()
        .map(|i| g.label(EventId::new(e.tid, i)))
        .find(|l| !matches!(l.kind, LabelKind::Fence { .. }))
        .is_some_and(|l| l.is_read() && !l.added_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_graph::{MemOrder, ReadKind, SrcLoc, WriteKind};

    const X: Loc = Loc(8);

    fn read(g: &mut Graph, max: bool) -> EventId {
        let r = g.add(
            0,
            LabelKind::Read {
                loc: X,
                bytes: 4,
                ord: MemOrder::Relaxed,
                kind: ReadKind::Plain,
                rf: None,
            },
            SrcLoc::UNKNOWN,
        );
        g.label_mut(r).added_max = max;
        r
    }

    fn add(g: &mut Graph, kind: LabelKind) -> EventId {
        g.add(0, kind, SrcLoc::UNKNOWN)
    }

    fn spin_block(g: &mut Graph) -> EventId {
        add(
            g,
            LabelKind::Block {
                reason: BlockReason::SpinLoop {
                    reads: 1,
                    repeats: true,
                },
            },
        )
    }

    fn graph() -> Graph {
        let mut g = Graph::new();
        g.ensure_loc(X, 0, None);
        add(&mut g, LabelKind::Start { parent: None });
        g
    }

    #[test]
    fn a_block_right_after_a_non_maximal_read_is_stale() {
        let mut g = graph();
        read(&mut g, false);
        let fence = LabelKind::Fence {
            ord: MemOrder::SeqCst,
        };
        add(&mut g, fence);
        let b = spin_block(&mut g);
        assert!(stale_block(&g, b), "fences aside");

        let mut g = graph();
        read(&mut g, true);
        let b = spin_block(&mut g);
        assert!(!stale_block(&g, b), "a maximal read may be revisited");

        let mut g = graph();
        read(&mut g, false);
        add(
            &mut g,
            LabelKind::Write {
                loc: X,
                bytes: 4,
                ord: MemOrder::Relaxed,
                val: 1,
                kind: WriteKind::Plain,
            },
        );
        let b = spin_block(&mut g);
        assert!(!stale_block(&g, b), "a write in between may be redone");

        let mut g = graph();
        read(&mut g, false);
        let b = add(
            &mut g,
            LabelKind::Block {
                reason: BlockReason::LoopBound,
            },
        );
        assert!(!stale_block(&g, b), "a loop-bound block is not stale");

        for reason in [BlockReason::Assume, BlockReason::Wait] {
            let mut g = graph();
            read(&mut g, false);
            let b = add(&mut g, LabelKind::Block { reason });
            assert!(stale_block(&g, b), "{reason:?} after a non-maximal read");
            let mut g = graph();
            read(&mut g, true);
            let b = add(&mut g, LabelKind::Block { reason });
            assert!(!stale_block(&g, b), "{reason:?} after a maximal read");
        }
    }

    #[test]
    fn only_non_maximal_blocking_sources_are_dropped() {
        let mut g = graph();
        // co: taken (1), free (0), taken (1); the last is the maximal choice.
        let ws: Vec<EventId> = [1, 0, 1]
            .into_iter()
            .map(|val| {
                let w = g.add(
                    0,
                    LabelKind::Write {
                        loc: X,
                        bytes: 4,
                        ord: MemOrder::Relaxed,
                        val,
                        kind: WriteKind::Plain,
                    },
                    SrcLoc::UNKNOWN,
                );
                let n = g.co(X).len();
                g.co_insert(w, n + 1);
                w
            })
            .collect();
        let mut sources: Vec<(Option<EventId>, ())> = std::iter::once(None)
            .chain(ws.iter().copied().map(Some))
            .map(|w| (w, ()))
            .collect();
        prune_blocked_acquires(&g, X, &mut sources);
        let kept: Vec<Option<EventId>> = sources.iter().map(|s| s.0).collect();
        assert_eq!(kept, vec![None, Some(ws[1]), Some(ws[2])]);
    }
}
