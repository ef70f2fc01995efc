//! PSO (partial store order): the per-location store buffers of "The Reads-From
//! Equivalence for the TSO and PSO Memory Models" (Bui et al., OOPSLA 2021, §2.1), in
//! herd-style axiomatic form like [`crate::tso`]:
//!
//! * `acyclic(ppo ∪ sync ∪ rfe ∪ co ∪ fr)` (global happens-before), and
//! * `acyclic(po|loc ∪ rf ∪ co ∪ fr)` (uniproc / SC per location).
//!
//! A thread's stores go to one FIFO buffer per location and may reach memory in any
//! order across locations, so ppo drops from po both (write, read) pairs — as TSO does —
//! and (write, write) pairs of different locations, unless a barrier lies between them.
//!
//! C11 orders under PSO ([`Class`]):
//! * **full fences** ([`Class::Barrier`]): seq_cst stores, both parts of RMWs, locks
//!   and trylocks (also a failed CAS's read), seq_cst fences, and the thread-structure
//!   events (`Start`, `Spawn`, `Join`, `Finish`, `Block`, `Error`, `Malloc`, `Free`),
//!   as in [`crate::tso`]: ordered with every event before and after;
//! * **store-store barriers**: a release (or acq_rel) fence ([`Class::StoreFence`]), and
//!   a release store ([`Class::RelWrite`]), which is a store-store barrier followed by a
//!   plain store: the stores before it reach memory before it, while stores after it
//!   may still overtake it;
//! * everything else is a plain read or write; acquire fences are no-ops
//!   ([`Class::Skip`]).
//!
//! Same-location (write, write) pairs stay in ppo (the per-location buffer is FIFO);
//! uniproc forces that order on co anyway.
//!
//! Happens-before (for race detection) is TSO's: po, sync, and rf between atomic
//! accesses (`sc::atomic_rf_view`). Under PSO a relaxed store does not publish the
//! stores before it, so a non-atomic read after a relaxed flag may see stale data
//! without a race being reported, as with any atomic access under TSO.
//!
//! rf mode: [`MemoryModel::rf_consistent`] is VerifyPSO ([`crate::rf::pso`]).

use crate::atomicity;
use crate::relation::{Base, Relation};
use crate::sc::{atomic_rf_view, on_cycle, Nav};
use crate::tso::po_loc_next;
use crate::{rf, MemoryModel};
use porf_graph::chunked::Chunked;
use porf_graph::{EventId, Graph, Label, LabelKind, Loc, View, WriteKind};

/// PSO.
#[derive(Copy, Clone, Debug, Default)]
pub struct Pso;

/// The role of an event in PSO's preserved program order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Class {
    /// An acquire fence: no effect, not in ppo.
    Skip,
    /// A plain read.
    Read,
    /// A plain store.
    Write,
    /// A release store: a store-store barrier, then a plain store.
    RelWrite,
    /// A release or acq_rel fence: a store-store barrier.
    StoreFence,
    /// A full fence, a locked access or a thread-structure event.
    Barrier,
}

/// The class of an event (see the module documentation for the C11 mapping).
pub fn class(lab: &Label) -> Class {
    match lab.kind {
        LabelKind::Read { kind, .. } if kind.is_exclusive() => Class::Barrier,
        LabelKind::Read { .. } => Class::Read,
        LabelKind::Write { ord, kind, .. } if kind == WriteKind::Exclusive || ord.is_sc() => {
            Class::Barrier
        }
        LabelKind::Write { ord, .. } if ord.is_release() => Class::RelWrite,
        LabelKind::Write { .. } => Class::Write,
        LabelKind::Fence { ord } if ord.is_sc() => Class::Barrier,
        LabelKind::Fence { ord } if ord.is_release() => Class::StoreFence,
        LabelKind::Fence { .. } => Class::Skip,
        _ => Class::Barrier,
    }
}

/// Is `(a, b)`, `a` po-before `b` (neither [`Class::Skip`]), in ppo? `same_loc`: both
/// are writes of one location; `full`/`store` say whether a full barrier / any
/// store-store barrier (a store fence, a release store or a full barrier) lies strictly
/// between them.
fn ordered(a: Class, b: Class, same_loc: bool, full: bool, store: bool) -> bool {
    use Class::*;
    match (a, b) {
        (Read | Barrier, _) | (_, Barrier) => true,
        (_, Read) => full,
        (StoreFence, _) | (_, StoreFence | RelWrite) => true,
        _ => same_loc || store,
    }
}

/// ppo as an explicit relation over `b`'s indices, pair by pair from [`ordered`].
fn ppo_relation(g: &Graph, b: &Base) -> Relation {
    let mut ppo = Relation::empty(b.len());
    for t in 0..g.num_threads() {
        let labs = g.thread(t);
        let id = |i: usize| b.idx.of(EventId::new(t, i as u32));
        for i in 0..labs.len() {
            let ci = class(&labs[i]);
            if ci == Class::Skip {
                continue;
            }
            let (mut full, mut store) = (false, false);
            for (j, lj) in labs.iter().enumerate().skip(i + 1) {
                let cj = class(lj);
                if cj == Class::Skip {
                    continue;
                }
                let same_loc = labs[i].is_write() && lj.is_write() && labs[i].loc() == lj.loc();
                if ordered(ci, cj, same_loc, full, store) {
                    ppo.add(id(i), id(j));
                }
                full |= cj == Class::Barrier;
                store |= matches!(cj, Class::Barrier | Class::StoreFence | Class::RelWrite);
            }
        }
    }
    ppo
}

const NONE: u32 = u32::MAX;

/// An item of a thread's *extended* sequence, where each release store at index `i` is
/// split into a store-store barrier (item `2i`) and a plain store (item `2i + 1`); every
/// other event `i` is item `2i + 1`, and item `2i` is absent.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Item {
    Absent,
    Read,
    Write(Loc),
    StoreBarrier,
    Barrier,
}

fn items(labs: &Chunked<Label>) -> Vec<Item> {
    let mut out = Vec::with_capacity(2 * labs.len());
    for lab in labs {
        let (virt, real) = match class(lab) {
            Class::Skip => (Item::Absent, Item::Absent),
            Class::Read => (Item::Absent, Item::Read),
            Class::Write => (Item::Absent, Item::Write(lab.loc().unwrap())),
            Class::RelWrite => (Item::StoreBarrier, Item::Write(lab.loc().unwrap())),
            Class::StoreFence => (Item::Absent, Item::StoreBarrier),
            Class::Barrier => (Item::Absent, Item::Barrier),
        };
        out.push(virt);
        out.push(real);
    }
    out
}

/// Per-thread tables over the extended sequences generating ppo (built in O(graph)).
///
/// Successors of an item: a read or barrier → the stores of the run of stores right
/// after it, the next read-or-barrier and the next store barrier; a store → the next
/// store of its location, the next store barrier and the next barrier; a store barrier
/// → every store up to the next store barrier or barrier, and those two. The transitive
/// closure of these edges, restricted to real events, is exactly ppo.
struct Ppo {
    items: Vec<Vec<Item>>,
    next_store_barrier: Vec<Vec<u32>>,
    next_barrier: Vec<Vec<u32>>,
    next_read_or_barrier: Vec<Vec<u32>>,
    next_same_loc: Vec<Vec<u32>>,
}

impl Ppo {
    fn new(g: &Graph) -> Ppo {
        let mut p = Ppo {
            items: Vec::new(),
            next_store_barrier: Vec::new(),
            next_barrier: Vec::new(),
            next_read_or_barrier: Vec::new(),
            next_same_loc: Vec::new(),
        };
        for t in 0..g.num_threads() {
            let its = items(g.thread(t));
            let n = its.len();
            let (mut sb, mut b, mut rb) = (NONE, NONE, NONE);
            let mut last_of_loc: Vec<(Loc, u32)> = Vec::new();
            let mut tabs = [vec![NONE; n], vec![NONE; n], vec![NONE; n], vec![NONE; n]];
            for i in (0..n).rev() {
                tabs[0][i] = sb;
                tabs[1][i] = b;
                tabs[2][i] = rb;
                match its[i] {
                    Item::Absent => {}
                    Item::Read => rb = i as u32,
                    Item::Barrier => (b, rb) = (i as u32, i as u32),
                    Item::StoreBarrier => sb = i as u32,
                    Item::Write(loc) => match last_of_loc.iter_mut().find(|(l, _)| *l == loc) {
                        Some((_, j)) => {
                            tabs[3][i] = *j;
                            *j = i as u32;
                        }
                        None => last_of_loc.push((loc, i as u32)),
                    },
                }
            }
            let [sb, b, rb, sl] = tabs;
            p.items.push(its);
            p.next_store_barrier.push(sb);
            p.next_barrier.push(b);
            p.next_read_or_barrier.push(rb);
            p.next_same_loc.push(sl);
        }
        p
    }

    /// Pushes the ppo successors of item `i` of thread `t`.
    fn succ(&self, t: usize, i: usize, out: &mut Vec<(u32, u32)>) {
        let its = &self.items[t];
        let mut push = |j: u32| {
            if j != NONE {
                out.push((t as u32, j));
            }
        };
        let (sb, b) = (self.next_store_barrier[t][i], self.next_barrier[t][i]);
        match its[i] {
            Item::Absent => {}
            Item::Read | Item::Barrier => {
                for (j, it) in its.iter().enumerate().skip(i + 1) {
                    match it {
                        Item::Write(_) => push(j as u32),
                        Item::Absent => {}
                        _ => break,
                    }
                }
                push(sb);
                push(self.next_read_or_barrier[t][i]);
            }
            Item::Write(_) => {
                push(self.next_same_loc[t][i]);
                push(sb);
                push(b);
            }
            Item::StoreBarrier => {
                let end = sb.min(b).min(its.len() as u32) as usize;
                for (j, it) in its.iter().enumerate().take(end).skip(i + 1) {
                    if matches!(it, Item::Write(_)) {
                        push(j as u32);
                    }
                }
                push(sb);
                push(b);
            }
        }
    }
}

/// The items reached from event `from` by one or more steps of `ppo ∪ sync ∪ rfe`, and
/// of `co ∪ fr` too if `co_fr`, searched over the extended sequences (item `2 idx + 1`
/// is event `idx`). `None` if `stop_at_start` and the search comes back to `from`.
fn ghb_reach(
    nav: &Nav,
    ppo: &Ppo,
    from: EventId,
    co_fr: bool,
    stop_at_start: bool,
) -> Option<Vec<Vec<bool>>> {
    let mut seen: Vec<Vec<bool>> = ppo.items.iter().map(|v| vec![false; v.len()]).collect();
    let start = (from.tid, 2 * from.idx + 1);
    let mut events = Vec::new();
    let mut succ = |(t, i): (u32, u32), out: &mut Vec<(u32, u32)>| {
        ppo.succ(t as usize, i as usize, out);
        if i % 2 == 1 {
            let a = EventId::new(t, i / 2);
            events.clear();
            nav.sync_succ(a, &mut events);
            nav.rf_succ(a, true, &mut events);
            if co_fr {
                nav.co_fr_succ(a, &mut events);
            }
            out.extend(events.iter().map(|b| (b.tid, 2 * b.idx + 1)));
        }
    };
    let mut stack = Vec::new();
    succ(start, &mut stack);
    while let Some(a) = stack.pop() {
        if stop_at_start && a == start {
            return None;
        }
        let s = &mut seen[a.0 as usize][a.1 as usize];
        if !*s {
            *s = true;
            succ(a, &mut stack);
        }
    }
    Some(seen)
}

/// True iff `e` lies on a cycle of `ppo ∪ sync ∪ rfe ∪ co ∪ fr`.
fn on_ghb_cycle(g: &Graph, e: EventId) -> bool {
    ghb_reach(&Nav::new(g), &Ppo::new(g), e, true, true).is_none()
}

/// The items `(ppo ∪ sync ∪ rfe)+`-after `from`.
fn ghb_after(nav: &Nav, ppo: &Ppo, from: EventId) -> Vec<Vec<bool>> {
    ghb_reach(nav, ppo, from, false, false).expect("a search that does not stop")
}

/// See [`Pso::reads_stale`].
fn stale_by_ghb(g: &Graph, r: EventId) -> bool {
    let LabelKind::Read { loc, rf, .. } = g.label(r).kind else {
        return false;
    };
    let nav = Nav::new(g);
    let ppo = Ppo::new(g);
    let before_r = |w2: EventId| ghb_after(&nav, &ppo, w2)[r.tid as usize][2 * r.idx as usize + 1];
    let from_w = rf.map(|w| ghb_after(&nav, &ppo, w));
    g.co(loc).iter().any(|&w2| {
        Some(w2) != rf
            && from_w
                .as_ref()
                .is_none_or(|after_w| after_w[w2.tid as usize][2 * w2.idx as usize + 1])
            && before_r(w2)
    })
}

impl MemoryModel for Pso {
    fn name(&self) -> &'static str {
        "pso"
    }
    /// PSO's hb (TSO's: po and atomic rf) orders stores to different locations that
    /// PSO lets reach memory in the other order, so hb staleness does not apply.
    /// Instead: the read's own thread already saw the write overwritten
    /// ([`rf::stale_in_thread`]), or `w (ppo ∪ sync ∪ rfe)* w' (ppo ∪ sync ∪ rfe)+ r` for
    /// a write `w'` of the location (then `co(w, w')` and `fr(r, w')` close a ghb
    /// cycle); reading the initial value with such a `w'` before `r` likewise.
    fn reads_stale(&self, g: &Graph, r: EventId) -> bool {
        rf::stale_in_thread(g, r) || stale_by_ghb(g, r)
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        atomic_rf_view(g, e)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        if on_ghb_cycle(g, e) {
            return false;
        }
        let nav = Nav::new(g);
        !on_cycle(g, e, |a, out| {
            out.extend(po_loc_next(g, a));
            nav.rf_succ(a, false, out);
            nav.co_fr_succ(a, out);
        })
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        if !atomicity::holds(g) {
            return false;
        }
        let b = Base::new(g);
        let rfe = b.rf.filter(|x, y| b.idx.event(x).tid != b.idx.event(y).tid);
        let ghb = ppo_relation(g, &b)
            .union(&b.sync)
            .union(&rfe)
            .union(&b.co)
            .union(&b.fr);
        let same_loc = b.same_loc(g);
        let po_loc = b.po.filter(|x, y| same_loc.contains(x, y));
        let uniproc = po_loc.union(&b.rf).union(&b.co).union(&b.fr);
        ghb.is_acyclic() && uniproc.is_acyclic()
    }
    fn rf_consistent(&self, g: &Graph) -> Option<rf::CoWitness> {
        self.rf_check(g).witness
    }
    /// VerifyPSO, saying whether its pre-check or closure alone refuted the graph.
    fn rf_check(&self, g: &Graph) -> rf::RfCheck {
        rf::pso::check(g)
    }
}

#[cfg(test)]
mod machine;

#[cfg(test)]
pub(crate) mod tests;
