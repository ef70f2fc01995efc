//! Data races: two accesses of one location, at least one a write and at least one
//! non-atomic, from different threads, neither happening before the other. Uses the hb
//! views stored in the graph (filled in by the memory model).

use porf_graph::{EventId, Graph};

/// An access of `g` that races with the just-added access `e`, if any (`e` is
/// hb-maximal, so only "the other is not in `e`'s hb view" needs checking).
pub fn race_with(g: &Graph, e: EventId) -> Option<EventId> {
    races_with(g, e).next()
}

/// Every access of `g` that races with the just-added access `e`.
pub fn races_with(g: &Graph, e: EventId) -> impl Iterator<Item = EventId> + '_ {
    let lab = g.label(e);
    let e_na = lab.ord().is_some_and(|o| !o.is_atomic());
    let e_w = lab.is_write();
    let accesses = match lab.loc() {
        Some(loc) => g.loc_info(loc).accesses.as_slice(),
        None => &[],
    };
    accesses.iter().copied().filter(move |&o| {
        if o.tid == e.tid || o == e {
            return false;
        }
        let ol = g.label(o);
        (e_w || ol.is_write())
            && (e_na || !ol.ord().unwrap().is_atomic())
            && !lab.hb.contains(o)
            && !ol.hb.contains(e)
    })
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
