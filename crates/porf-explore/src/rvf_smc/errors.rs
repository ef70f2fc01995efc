//! The errors of an RVF class that depend on the trace chosen in it.
//!
//! porf defines data races and heap lifetime errors by hb (po, spawn, join, and rf
//! between atomic accesses), an uninitialised heap read by reading the
//! initialisation, and a deadlock by lock acquires that read the co-latest write of
//! their mutex. Traces of one class read the same values but maybe from other writes,
//! so one trace does not show every such error of its class. For each maximal trace:
//!
//! 1. its graph is checked as every explorer checks a graph ([`race::all_races`],
//!    [`lifetime::all_errors`]);
//! 2. for every error the trace does not show but the class might — a pair the trace
//!    orders by hb through rf (not by po, sync and the rf every witness shares — the
//!    sources the closure forces), or
//!    an in-bounds heap read that may read the initialisation — VerifySC-rvf looks for
//!    a witness of the same events and good writes meeting the hb condition
//!    ([`TaintGoal`]); a witness found is realised and checked as in 1. Errors already
//!    known (by [`crate::ErrorReport::key`]) are not searched again;
//! 3. a maximal trace whose stuck threads all wait for locks, some for a lock a later
//!    write releases, is a deadlock if some witness places every such acquire after
//!    every write of its mutex: VerifySC-rvf with those reads marked `last`.
//!
//! Every witness is a trace of the program with the same events, so every error
//! reported is real; and every graph the graph explorer reaches is the graph of a
//! trace whose class this explorer visits, so none is missed.

use super::trace::{instance, realise, Trace};
use super::Rvf;
use crate::record::{lifetime_class, lifetime_message};
use crate::state::State;
use crate::ErrorClass;
use porf_graph::{BlockReason, EventId, Graph, LabelKind, Loc, Program, ReadKind, SrcLoc, View};
use porf_models::lifetime::{self, LifetimeError, Violation};
use porf_models::race;
use porf_models::rvf::{self as vsc, Kind, Query, TaintGoal, Verdict};
use std::collections::HashMap;

/// A search for one error.
struct Hidden {
    goal: TaintGoal,
    /// A read that must read the initialisation.
    init_only: Option<EventId>,
    class: ErrorClass,
    events: Vec<EventId>,
    msg: String,
}

impl<P: Program> Rvf<'_, '_, P> {
    /// Reports every race and lifetime error of `tr`'s class (steps 1 and 2).
    pub(super) fn class_errors(&mut self, tr: &Trace<P>) {
        self.graph_errors(&tr.st.g);
        let stop = || self.rec.limit_passed();
        for h in hidden(self.prog, tr, &stop) {
            if self.rec.stopped() {
                return;
            }
            if h.class == ErrorClass::Race && !self.rec.reports_races() {
                continue;
            }
            if self.known(&tr.st.g, h.class, &h.events, &h.msg) {
                continue;
            }
            self.counters.error_searches += 1;
            let mut inst = instance(&tr.st.g, &tr.good);
            if let Some(r) = h.init_only {
                if let Kind::Read { good, .. } = &mut inst.threads[r.tid as usize][r.idx as usize] {
                    *good = vec![None];
                }
            }
            let stop = || self.rec.limit_passed();
            let q = Query {
                stop: Some(&stop),
                guide: tr.st.g.insertion_order(),
                taint: Some(h.goal),
                closure: false,
            };
            if let Verdict::Witness(order) = vsc::verify(&inst, &q) {
                self.counters.error_searches_found += 1;
                let g = realise(&tr.st.g, &order, self.model);
                self.graph_errors(&g);
            }
        }
    }

    /// Reports the races and lifetime errors of access or free `e`, the newest event
    /// of `g` (or one just added with it), not already known.
    pub(super) fn event_errors(&mut self, g: &Graph, e: EventId) {
        if !g.label(e).is_access()
            && !matches!(
                g.label(e).kind,
                LabelKind::Free { .. } | LabelKind::Note { .. }
            )
        {
            return;
        }
        let races: Vec<EventId> = if self.rec.reports_races() {
            race::races_with(g, e).collect()
        } else {
            Vec::new()
        };
        for o in races {
            if self.rec.stopped() {
                return;
            }
            if !self.known(g, ErrorClass::Race, &[o, e], "") {
                self.rec.race(g, o, e);
            }
        }
        for err in lifetime::errors_with(g, e) {
            if self.rec.stopped() {
                return;
            }
            let msg = lifetime_message(self.prog, g, &err);
            if !self.known(g, lifetime_class(err.violation), &err.events, &msg) {
                self.rec.lifetime(self.prog, g, &err);
            }
        }
    }

    /// Reports the races and lifetime errors of one graph not already known.
    fn graph_errors(&mut self, g: &Graph) {
        // `race::all_races`, polling the time limit per event: on a long trace the
        // pairs are quadratic in its length.
        let mut races: Vec<(EventId, EventId)> = Vec::new();
        if self.rec.reports_races() {
            for (e, lab) in g.events() {
                if self.rec.stopped() {
                    return;
                }
                if lab.is_access() {
                    for o in race::races_with(g, e) {
                        let p = if o < e { (o, e) } else { (e, o) };
                        if !races.contains(&p) {
                            races.push(p);
                        }
                    }
                }
            }
        }
        for (a, b) in races {
            if self.rec.stopped() {
                return;
            }
            if !self.known(g, ErrorClass::Race, &[a, b], "") {
                self.rec.race(g, a, b);
            }
        }
        for (_, err) in lifetime::all_errors(g) {
            if self.rec.stopped() {
                return;
            }
            let msg = lifetime_message(self.prog, g, &err);
            if !self.known(g, lifetime_class(err.violation), &err.events, &msg) {
                self.rec.lifetime(self.prog, g, &err);
            }
        }
    }

    /// Whether an error with this key ([`crate::ErrorReport::key`]) was reported.
    fn known(&self, g: &Graph, class: ErrorClass, events: &[EventId], msg: &str) -> bool {
        let mut locs: Vec<SrcLoc> = events.iter().map(|&e| g.label(e).src).collect();
        locs.sort_by_key(|s| (s.file, s.line, s.col));
        locs.dedup();
        let msg = match class {
            ErrorClass::Race | ErrorClass::Deadlock => "",
            _ => msg,
        };
        self.rec
            .stats
            .errors
            .iter()
            .any(|e| e.key() == (class, locs.clone(), msg))
    }

    /// Step 3: a witness of `tr`'s events in which every thread waiting for a lock
    /// waits for good, when `tr` itself has one waiting for a lock a later write
    /// releases and no thread blocked otherwise.
    pub(super) fn deadlock_witness(&mut self, tr: &Trace<P>) -> Option<State<P>> {
        let g = &tr.st.g;
        let mut waits = Vec::new();
        let mut stale = false;
        for t in 0..g.num_threads() {
            if !g.thread_exists(t) || tr.st.finished(t) {
                continue;
            }
            let last = g.last_of(t).unwrap();
            match g.label(last).kind {
                LabelKind::Error { .. } => return None,
                LabelKind::Block {
                    reason: BlockReason::Lock,
                } => {
                    let r = last.prev()?;
                    let LabelKind::Read {
                        kind: ReadKind::Lock,
                        loc,
                        rf,
                        ..
                    } = g.label(r).kind
                    else {
                        return None;
                    };
                    if g.read_val(r) == 0 {
                        return None;
                    }
                    stale |= g.co_next(loc, rf).is_some();
                    waits.push(r);
                }
                LabelKind::Block { .. } => return None,
                _ => {} // waits to join
            }
        }
        if !stale {
            return None;
        }
        self.counters.error_searches += 1;
        let mut inst = instance(g, &tr.good);
        for r in waits {
            if let Kind::Read { last, .. } = &mut inst.threads[r.tid as usize][r.idx as usize] {
                *last = true;
            }
        }
        let stop = || self.rec.limit_passed();
        let q = Query {
            stop: Some(&stop),
            guide: g.insertion_order(),
            taint: None,
            closure: true,
        };
        match vsc::verify(&inst, &q) {
            Verdict::Witness(order) => {
                self.counters.error_searches_found += 1;
                Some(State {
                    g: realise(g, &order, self.model),
                    ts: tr.st.ts.clone(),
                })
            }
            _ => None,
        }
    }
}

/// Per event, the events before it by po, spawn and join alone.
fn sync_views(g: &Graph) -> HashMap<EventId, View> {
    let mut out: HashMap<EventId, View> = HashMap::with_capacity(g.len());
    for &e in g.insertion_order() {
        let mut v = e.prev().map(|p| out[&p].clone()).unwrap_or_default();
        match g.label(e).kind {
            LabelKind::Start { parent: Some(p) } => v.join(&out[&p]),
            LabelKind::Join { child } => {
                if let Some(l) = g.last_of(child) {
                    v.join(&out[&l]);
                }
            }
            _ => {}
        }
        v.include(e);
        out.insert(e, v);
    }
    out
}

/// Per event, the events hb-before it in *every* trace of `tr`'s events and good
/// writes: po, spawn and join, and rf between atomic accesses where the closure
/// forces the source ([`vsc::forced_sources`]).
fn shared_hb<P: Program>(tr: &Trace<P>) -> HashMap<EventId, View> {
    let g = &tr.st.g;
    let forced: HashMap<EventId, Option<EventId>> = vsc::forced_sources(&instance(g, &tr.good))
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut out: HashMap<EventId, View> = HashMap::with_capacity(g.len());
    for &e in g.insertion_order() {
        let mut v = e.prev().map(|p| out[&p].clone()).unwrap_or_default();
        let lab = g.label(e);
        match lab.kind {
            LabelKind::Start { parent: Some(p) } => v.join(&out[&p]),
            LabelKind::Join { child } => {
                if let Some(l) = g.last_of(child) {
                    v.join(&out[&l]);
                }
            }
            LabelKind::Read { ord, .. } if ord.is_atomic() => {
                if let Some(Some(w)) = forced.get(&e) {
                    if g.label(*w).ord().is_some_and(|o| o.is_atomic()) {
                        v.join(&out[w]);
                    }
                }
            }
            _ => {}
        }
        v.include(e);
        out.insert(e, v);
    }
    out
}

/// The searches of step 2 for trace `tr`. The pairs are quadratic in the length of
/// the trace, so `stop` (the time limit) is asked per access: when it says to stop,
/// the list is cut short (the caller then stops before searching).
fn hidden<P: Program>(prog: &P, tr: &Trace<P>, stop: &dyn Fn() -> bool) -> Vec<Hidden> {
    let g = &tr.st.g;
    // Pairs every trace orders: by po and sync alone (cheap), else also through the
    // rf the closure forces (computed once, only if some pair needs it).
    let sync = sync_views(g);
    let forced = std::cell::OnceCell::new();
    let fixed = |a: EventId, b: EventId| {
        if sync[&b].contains(a) || sync[&a].contains(b) {
            return true;
        }
        let sv = forced.get_or_init(|| shared_hb(tr));
        sv[&b].contains(a) || sv[&a].contains(b)
    };
    let hb = |a: EventId, b: EventId| g.label(b).hb.contains(a);
    let mut out = Vec::new();
    let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
    locs.sort();
    // Races: conflicting accesses, one non-atomic, that this trace orders through rf.
    for &loc in &locs {
        let acc = &g.loc_info(loc).accesses;
        for (i, &a) in acc.iter().enumerate() {
            if stop() {
                return out;
            }
            for &b in &acc[i + 1..] {
                let (la, lb) = (g.label(a), g.label(b));
                let na = |l: &porf_graph::Label| l.ord().is_some_and(|o| !o.is_atomic());
                if a.tid == b.tid || !(la.is_write() || lb.is_write()) || !(na(la) || na(lb)) {
                    continue;
                }
                if !(hb(a, b) || hb(b, a)) || fixed(a, b) {
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    out.push(Hidden {
                        goal: TaintGoal {
                            source: x,
                            goal: y,
                            want: false,
                            source_first: true,
                        },
                        init_only: None,
                        class: ErrorClass::Race,
                        events: vec![a, b],
                        msg: String::new(),
                    });
                }
            }
        }
    }
    // Lifetime errors of allocated blocks.
    let mut bases: Vec<Loc> = locs
        .iter()
        .filter_map(|&l| g.loc_info(l).block)
        .chain(g.events().filter_map(|(_, l)| l.block()))
        .collect();
    bases.sort();
    bases.dedup();
    let search = |source, goal, want, class, events, msg| Hidden {
        goal: TaintGoal {
            source,
            goal,
            want,
            source_first: false,
        },
        init_only: None,
        class,
        events,
        msg,
    };
    for base in bases {
        let Some(info) = g.block(base) else { continue };
        let Some((m, size)) = info.malloc else {
            continue; // never allocated: every condition is the same in every trace
        };
        let zeroed = matches!(g.label(m).kind, LabelKind::Malloc { zeroed: true, .. });
        let accesses: Vec<EventId> = g.block_accesses(base).collect();
        let mem = ErrorClass::Memory;
        for &a in &accesses {
            let la = g.label(a);
            let visible = hb(m, a);
            let loc = la.loc().unwrap();
            let end =
                (loc.0.wrapping_sub(base.0)).saturating_add(la.bytes().unwrap_or(1).max(1) as u64);
            let oob = loc.0 < base.0 || end > size;
            if visible && !fixed(m, a) {
                let msg = Violation::AccessNonAllocated.message().to_string();
                out.push(search(m, a, false, mem, vec![a], msg));
            }
            if !visible && oob {
                let msg = Violation::OutOfBounds.message().to_string();
                out.push(search(m, a, true, mem, vec![a], msg));
            }
            let may_init = tr.good.get(&a).is_some_and(|ws| ws.contains(&None));
            // A copy read (`realloc`) of an uninitialised cell is not an error.
            let checked = la.is_read() && la.read_kind() != Some(porf_graph::ReadKind::Copy);
            let seen_init = visible && la.rf().is_none();
            if checked && !oob && !zeroed && may_init && !seen_init {
                let err = LifetimeError {
                    violation: Violation::UninitializedRead,
                    events: vec![a],
                };
                let msg = lifetime_message(prog, g, &err);
                let mut h = search(m, a, true, mem, vec![a], msg);
                h.init_only = Some(a);
                out.push(h);
            }
        }
        for &f in &info.frees {
            if hb(m, f) && !fixed(m, f) {
                let msg = Violation::FreeNonAllocated.message().to_string();
                out.push(search(m, f, false, mem, vec![f], msg));
            }
            for &a in &accesses {
                if hb(a, f) && !fixed(a, f) {
                    let msg = Violation::AccessFreed.message().to_string();
                    out.push(search(a, f, false, mem, vec![a, f], msg));
                }
            }
        }
    }
    out
}
