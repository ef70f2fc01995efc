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

/// Whether thread `t` holds the mutex at `loc` after its first `upto` events.
pub fn holds(g: &Graph, t: Tid, loc: Loc, upto: u32) -> bool {
    let evs = g.thread(t);
    for (i, lab) in evs.range(..upto as usize).enumerate().rev() {
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
