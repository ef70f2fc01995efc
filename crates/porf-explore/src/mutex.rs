//! Mutex ownership, read off a thread's own events: a thread holds a mutex iff its
//! po-latest acquire or release of it is an acquire (a lock, or a successful trylock:
//! an exclusive write whose po-predecessor is a lock or trylock read).

use porf_graph::{Graph, LabelKind, Loc, ReadKind, Tid, WriteKind};

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
