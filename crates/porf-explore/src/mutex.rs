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

/// Whether the optimal explorer may skip the branch where lock acquire `r` reads
/// from `w`, a choice that blocks ([`acquire_blocks`]) and is not the read's maximal
/// one. Under TruSt's maximality rule a read added non-maximally is never revisited,
/// nor deleted by a revisit, in the subtree below it: every execution there keeps `r`
/// blocked, so the subtree holds blocked executions only. Its other events are all
/// found again in the branch where `r` takes its maximal choice instead (any graph of
/// the subtree without `r`, plus `r` reading the co-latest write, is consistent: the
/// model's maximal extensions are), so no error is lost. GenMC does the same (it keeps
/// only the maximal store among the values that make a lock's CAS block).
pub fn skip_blocked_acquire(
    g: &Graph,
    kind: ReadKind,
    loc: Loc,
    w: Option<EventId>,
    maximal: bool,
) -> bool {
    kind == ReadKind::Lock && !maximal && acquire_blocks(g, loc, w)
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
