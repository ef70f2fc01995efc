//! Data races: two accesses of one location, at least one a write and at least one
//! non-atomic, from different threads, neither happening before the other. Uses the hb
//! views stored in the graph (filled in by the memory model).
//!
//! The accesses racing with a new access `e` are found through the location's
//! per-thread index ([`porf_graph::LocInfo::thread_accesses`]): of each other thread,
//! only the accesses outside `e`'s hb view, of the classes that can race with `e`'s,
//! are looked at, so the cost does not grow with the length of the threads.

use porf_graph::{AccessClass, EventId, Graph};

/// The access of `g` racing with the just-added access `e` that was added first, if
/// any (`e` is hb-maximal, so only "the other is not in `e`'s hb view" needs
/// checking).
pub fn race_with(g: &Graph, e: EventId) -> Option<EventId> {
    races_with(g, e).next()
}

/// Every access of `g` that races with the just-added access `e`, in insertion order.
pub fn races_with(g: &Graph, e: EventId) -> impl Iterator<Item = EventId> + '_ {
    let lab = g.label(e);
    let mut out = Vec::new();
    if let Some(loc) = lab.loc() {
        let e_na = lab.ord().is_some_and(|o| !o.is_atomic());
        let e_w = lab.is_write();
        // The classes an access racing with `e` may have been added with (an access
        // added non-atomic may be atomic now, never the other way round: the filter
        // below decides on the label).
        let others: &[AccessClass] = match (e_w, e_na) {
            (true, true) => &AccessClass::ALL,
            (false, true) => &[AccessClass::NaWrite, AccessClass::AtomicWrite],
            (true, false) => &[AccessClass::NaRead, AccessClass::NaWrite],
            (false, false) => &[AccessClass::NaWrite],
        };
        let info = g.loc_info(loc);
        let races = |o: EventId| {
            let ol = g.label(o);
            (e_w || ol.is_write())
                && (e_na || !ol.ord().unwrap().is_atomic())
                && !lab.hb.contains(o)
                && !ol.hb.contains(e)
        };
        // A short list is cheaper to scan than the index is to search (`accesses` is
        // in insertion order).
        if info.accesses.len() <= porf_graph::SCAN_BELOW {
            out.extend(
                info.accesses
                    .iter()
                    .copied()
                    .filter(|&o| o.tid != e.tid && races(o)),
            );
            return out.into_iter();
        }
        for t in (0..info.thread_slots()).filter(|&t| t != e.tid) {
            let from = lab.hb.get(t);
            for &c in others {
                for &i in info.thread_accesses(t, c, from) {
                    let o = EventId::new(t, i);
                    if races(o) {
                        out.push(o);
                    }
                }
            }
        }
        out.sort_by_key(|&o| g.label(o).stamp);
    }
    out.into_iter()
}

/// Every racy pair of the graph (each pair once, smaller event first).
pub fn all_races(g: &Graph) -> Vec<(EventId, EventId)> {
    let mut out = Vec::new();
    for (e, lab) in g.events() {
        if lab.is_access() {
            for o in races_with(g, e) {
                let p = if o < e { (o, e) } else { (e, o) };
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}
