//! Heap blocks a complete execution never frees (GenMC's "Unfreed memory" warning).
//!
//! Invariant: a block is leaked in a complete execution exactly when the graph holds
//! its `Malloc` event, no `Free` event of it (a hazard-pointer retire counts as a
//! free), and the program says it is a heap block ([`Program::is_heap_block`]: C's
//! `malloc`, `calloc`, `realloc`, not the shared frames of locals). Reachability
//! plays no part: a block a global still points to when the program ends is leaked
//! too, as GenMC 0.11 reports it (`GenMCDriver::checkUnfreedMemory`: any malloc label
//! without a free). Only complete executions are checked: a blocked or erroneous one
//! never reached the end where the block would have been freed.

use porf_graph::{EventId, Graph, Program, SrcLoc};

/// The leaked blocks of complete graph `g`: one `Malloc` event per allocation site
/// (the earliest added), sorted by site.
pub fn leaked<P: Program>(prog: &P, g: &Graph) -> Vec<(SrcLoc, EventId)> {
    let mut out: Vec<(SrcLoc, EventId)> = Vec::new();
    for (base, b) in g.blocks() {
        let Some((m, _)) = b.malloc else { continue };
        if !b.frees.is_empty() || !prog.is_heap_block(base) {
            continue;
        }
        let src = g.label(m).src;
        let stamp = g.label(m).stamp;
        match out.iter_mut().find(|(s, _)| *s == src) {
            Some((_, e)) if g.label(*e).stamp > stamp => *e = m,
            Some(_) => {}
            None => out.push((src, m)),
        }
    }
    out.sort_by_key(|(s, _)| (s.file, s.line, s.col));
    out
}
