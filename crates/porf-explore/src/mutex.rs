//! Mutex ownership, read off a thread's own events: a thread holds a mutex iff its
//! po-latest acquire or release of it is an acquire (a lock, or a successful trylock:
//! an exclusive write whose po-predecessor is a lock or trylock read).

use porf_graph::{EventId, Graph, LabelKind, Loc, ReadKind, Tid, WriteKind};

/// Whether a lock acquire of `loc` reading from `w` (`None` = the initialisation)
/// sees a taken lock and so blocks its thread (a nonzero value that is not a destroyed
/// mutex's: reading one of those is an error, not a block).
pub fn acquire_blocks(g: &Graph, loc: Loc, w: Option<EventId>) -> bool {
    let destroyed = w.is_some_and(|w| g.label(w).write_kind() == Some(WriteKind::MutexDestroy));
    !destroyed && g.write_val(loc, w) != 0
}

/// Drops from `sources` (a lock acquire's consistent sources, co-earliest first; the
/// last one is the read's maximal choice) every non-maximal source that blocks
/// ([`acquire_blocks`]). Sound under TruSt's maximality rule only: a read added
/// non-maximally is never revisited, nor deleted by a revisit, in the subtree below it,
/// and a taken lock it reads has a co-later write (the maximal source), so every
/// execution of that subtree keeps the read blocked on a stale lock value: it holds
/// blocked executions only. Every other event of such an execution is found again
/// below the maximal choice (removing the read, or making it read the co-latest write,
/// keeps a graph consistent: the model's maximal extensions are), so no complete
/// execution, error or deadlock is lost; only blocked executions in which a lock
/// acquire is stuck are not counted. GenMC keeps the same single blocking choice.
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

/// Whether thread `t` holds the mutex at `loc` after its first `upto` events.
pub fn holds(g: &Graph, t: Tid, loc: Loc, upto: u32) -> bool {
    let evs = &g.thread(t)[..upto as usize];
    for (i, lab) in evs.iter().enumerate().rev() {
        match lab.kind {
            LabelKind::Write {
                loc: l,
                kind: WriteKind::Unlock,
                ..
            } if l == loc => return false,
            LabelKind::Write {
                loc: l,
                kind: WriteKind::Exclusive,
                ..
            } if l == loc => {
                let acquired = i > 0
                    && matches!(
                        evs[i - 1].read_kind(),
                        Some(ReadKind::Lock | ReadKind::TryLock)
                    );
                if acquired {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}
