//! RMW atomicity: an exclusive write (the write part of an RMW or a lock acquire) is
//! placed immediately after the write its read part read from, and no two exclusive
//! writes may read from the same write.

use porf_graph::{EventId, Graph, LabelKind};

/// The read part of exclusive write `w` (its po-predecessor).
pub fn read_part(w: EventId) -> EventId {
    w.prev().expect("exclusive write without a read part")
}

/// True iff exclusive write `w` shares its source with another exclusive write.
pub fn violated_by(g: &Graph, w: EventId) -> bool {
    let r = read_part(w);
    let LabelKind::Read { loc, rf, .. } = g.label(r).kind else {
        panic!("exclusive write not preceded by its read part");
    };
    g.readers(loc, rf)
        .iter()
        .any(|&o| o != r && has_write_part(g, o))
}

/// True iff read `r` is the read part of an RMW whose write part is in the graph.
pub fn has_write_part(g: &Graph, r: EventId) -> bool {
    let n = r.next();
    g.contains(n) && g.label(n).is_exclusive_write()
}

/// Whole-graph atomicity: every exclusive write is immediately co-after its read part's
/// source, and no two exclusive writes read from the same write.
pub fn holds(g: &Graph) -> bool {
    for (w, lab) in g.events() {
        if !lab.is_exclusive_write() {
            continue;
        }
        let r = read_part(w);
        let LabelKind::Read { loc, rf, .. } = g.label(r).kind else {
            return false;
        };
        if g.co_next(loc, rf) != Some(w) || violated_by(g, w) {
            return false;
        }
    }
    true
}

/// True iff write `w`, just placed in co, sits between an exclusive write and the write
/// its read part read from (its immediate co-successor is an exclusive write, whose
/// source must then be `w`'s co-predecessor).
pub fn splits_rmw(g: &Graph, w: EventId) -> bool {
    let loc = g.label(w).loc().expect("splits_rmw of a non-write");
    g.co_next(loc, Some(w))
        .filter(|&n| g.label(n).is_exclusive_write())
        .is_some_and(|n| g.label(read_part(n)).rf() != Some(w))
}
