//! Coherence floors: where the choices of a new access can start.
//!
//! In a model coherent with respect to its hb (`irreflexive(hb; eco?)`: SC, TSO, RA,
//! RC11), an event sees the co-latest write it *observes* — a write in its hb prefix,
//! or the source of a read in its hb prefix — and can neither read from a write
//! co-before that one nor be placed co-before it. [`hb_floor`] finds that write's co
//! position by scanning co from its end, so its cost is what lies co-after the
//! observed write (O(1) when the prefix saw the co-latest write), not the length of
//! the location's history.
//!
//! Explorers use it through [`crate::MemoryModel::co_floor`] to skip choices that the
//! consistency check would reject anyway; the check still runs on every choice kept,
//! so this only prunes, it never decides.

use porf_graph::{EventId, Graph, Loc, View};

/// The co position (init = 0, `co[i]` = `i + 1`) of the co-latest write of `loc` that
/// `view` contains, or that a read `view` contains reads from; 0 if there is none.
/// `except` (the event being checked) is left out, as a write and as a reader.
pub fn hb_floor(g: &Graph, loc: Loc, view: &View, except: Option<EventId>) -> usize {
    let co = g.co(loc);
    for (i, &w) in co.iter().enumerate().rev() {
        if Some(w) == except {
            continue;
        }
        if view.contains(w)
            || g.label(w)
                .readers
                .iter()
                .any(|&r| Some(r) != except && view.contains(r))
        {
            return i + 1;
        }
    }
    0
}
