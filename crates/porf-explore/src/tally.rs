//! Per-error execution counts (`--keep-going`): for each error, the number of maximal
//! executions explored that contain it ([`Stats::error_counts`]).
//!
//! Invariant: the count of an error is a function of the set of maximal executions
//! explored, never of the order or the thread that explored them: each maximal
//! execution adds 1 to every distinct error key ([`ErrorReport::owned_key`]) it
//! contains, decided on its final graph by the same checks that report errors as
//! events are added (error events, data races, heap lifetime errors) plus the errors
//! of a maximal graph (deadlock, liveness), which [`crate::record::Recorder::maximal`]
//! adds. Races and lifetime errors are functions of the graph (hb views are fixed when
//! an event is added), so a final graph holds every one found on the way to it.
//! Sums of counts over the parts of a search tree (parallel segments, shards) are
//! therefore the whole run's.
//!
//! [`Stats::error_counts`]: crate::Stats::error_counts
//! [`ErrorReport::owned_key`]: crate::ErrorReport::owned_key

use crate::record::{lifetime_class, lifetime_message};
use crate::stats::{error_key, ErrorClass, ErrorKey};
use crate::step::error_class;
use porf_graph::{Graph, LabelKind, Program};
use porf_models::{lifetime, race};
use std::collections::BTreeSet;

/// The keys of the errors maximal graph `g` contains: its error events, its data
/// races (when `races`: reported at all), its heap lifetime errors.
pub fn errors_in<P: Program>(prog: &P, g: &Graph, races: bool) -> BTreeSet<ErrorKey> {
    let mut out = BTreeSet::new();
    for t in 0..g.num_threads() {
        if let Some(e) = g.last_of(t) {
            let lab = g.label(e);
            if let LabelKind::Error { kind, msg } = &lab.kind {
                out.insert(error_key(error_class(*kind), [lab.src], msg));
            }
        }
    }
    // Every racy pair has a non-atomic access, and `races_with` checks both
    // directions; lifetime errors need a block or a final-write note.
    let mut notes = false;
    for (e, lab) in g.events() {
        notes |= matches!(lab.kind, LabelKind::Note { .. });
        if !races || !lab.is_access() || lab.ord().is_none_or(|o| o.is_atomic()) {
            continue;
        }
        for o in race::races_with(g, e) {
            out.insert(error_key(ErrorClass::Race, [lab.src, g.label(o).src], ""));
        }
    }
    if !notes && g.blocks().next().is_none() {
        return out;
    }
    for (_, err) in lifetime::all_errors(g) {
        let srcs = err.events.iter().map(|&e| g.label(e).src);
        out.insert(error_key(
            lifetime_class(err.violation),
            srcs,
            &lifetime_message(prog, g, &err),
        ));
    }
    out
}
