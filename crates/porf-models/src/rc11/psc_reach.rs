//! RC11's incremental psc check for graphs without seq_cst fences: is there a psc
//! cycle through the newly added event?
//!
//! Without SC fences, psc (both flavours of [`super::psc_acyclic`]) relates SC events
//! only, by `scb` edges (herd: `po ∪ po|≠loc; hb; po|≠loc ∪ hb|loc ∪ co ∪ fr`; GenMC:
//! `po ∪ rf ∪ co ∪ fr`, plus `po; hb; po`). When `e` is added porf-maximally, nothing
//! is po- or hb-after `e`, co among the other writes is unchanged, and so is every
//! `scb` pair not involving `e`: a new psc cycle must pass through `e`. (An SC fence
//! `x` with `x hb e` would make new pairs between *other* events, through `e`:
//! that case is left to the whole-graph check.) So the check is a forward search
//! from `e` that succeeds iff it gets back to `e`.
//!
//! The search never builds psc. Since po between SC events is in psc, reaching an SC
//! event reaches every later SC event of its thread: per thread the search keeps the
//! lowest index reached, and per location the lowest co index its co chain was
//! entered at (co and fr target every co-successor, so a chain walks through non-SC
//! writes). hb edges are read off the stored hb views, which grow along po: the first
//! event of a thread whose view holds an event is found by binary search. Each SC
//! event is expanded at most once; expanding costs O(threads · log(thread length))
//! plus the scans it makes, which stop at what is already reached. When `e` has no
//! psc successor (an SC read of the co-latest write, an SC write placed co-last) the
//! check is O(1).

use super::Flavor;
use porf_graph::{EventId, Graph, Label, LabelKind, Loc, MemOrder, View};
use std::collections::HashMap;

/// True iff psc has a cycle through `e`, an SC read or write added porf-maximally to
/// `g`, which has no SC fence; `hb_e` is `e`'s hb view (the others are stored).
pub(crate) fn cycle_through(g: &Graph, e: EventId, hb_e: &View, f: Flavor) -> bool {
    search(g, e, hb_e, f, true).found
}

/// Runs the search from `e`, stopping at `e` if `stop_at_e`.
fn search<'g>(g: &'g Graph, e: EventId, hb_e: &'g View, f: Flavor, stop_at_e: bool) -> Search<'g> {
    debug_assert_eq!(g.sc_fences(), 0);
    debug_assert!(is_sc(g.label(e)) && g.label(e).is_access());
    let mut s = Search {
        g,
        e,
        hb_e,
        f,
        reached: (0..g.num_threads()).map(|t| g.thread_len(t)).collect(),
        entered: HashMap::new(),
        work: Vec::new(),
        found: false,
    };
    s.expand(e);
    while let Some(x) = s.work.pop() {
        if s.found && stop_at_e {
            break;
        }
        s.expand(x);
    }
    s
}

/// The SC events psc⁺ leads to from `e` (tests compare it with the closure of psc).
#[cfg(test)]
fn reached_from(g: &Graph, e: EventId, hb_e: &View, f: Flavor) -> Vec<EventId> {
    let s = search(g, e, hb_e, f, false);
    let mut out = Vec::new();
    for t in 0..g.num_threads() {
        for i in s.reached[t as usize]..g.thread_len(t) {
            let x = EventId::new(t, i);
            if is_sc(g.label(x)) {
                out.push(x);
            }
        }
    }
    out
}

fn is_sc(lab: &Label) -> bool {
    lab.ord() == Some(MemOrder::SeqCst)
}

struct Search<'g> {
    g: &'g Graph,
    e: EventId,
    hb_e: &'g View,
    f: Flavor,
    /// Per thread: every SC event at this index or later is reached.
    reached: Vec<u32>,
    /// Per location: the co chain was entered at this co index (everything co-after
    /// it is reached).
    entered: HashMap<Loc, usize>,
    /// Reached SC events not yet expanded.
    work: Vec<EventId>,
    /// `e` was reached.
    found: bool,
}

impl Search<'_> {
    fn hb(&self, x: EventId) -> &View {
        if x == self.e {
            self.hb_e
        } else {
            &self.g.label(x).hb
        }
    }

    /// The SC event at `(t, i)` is reached, hence so is every later one of `t`.
    fn reach(&mut self, t: u32, i: u32) {
        let old = self.reached[t as usize];
        if i >= old {
            return;
        }
        self.reached[t as usize] = i;
        for j in i..old {
            let x = EventId::new(t, j);
            if is_sc(self.g.label(x)) {
                self.found |= x == self.e;
                self.work.push(x);
            }
        }
    }

    /// Every write of `loc` at co index `from` or later is reached through co or fr.
    fn enter_chain(&mut self, loc: Loc, from: usize) {
        let co = self.g.co(loc);
        let old = *self.entered.get(&loc).unwrap_or(&co.len());
        if from >= old {
            return;
        }
        self.entered.insert(loc, from);
        for &w in &co[from..old] {
            if is_sc(self.g.label(w)) {
                self.reach(w.tid, w.idx);
            }
        }
    }

    /// The first index of thread `t` whose hb view holds event `(u, k)`, if any.
    fn first_seeing(&self, t: u32, u: u32, k: u32) -> Option<u32> {
        let (mut lo, mut hi) = (0, self.g.thread_len(t));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.hb(EventId::new(t, mid)).get(u) > k {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        (lo < self.g.thread_len(t)).then_some(lo)
    }

    fn expand(&mut self, a: EventId) {
        let g = self.g;
        let lab = g.label(a);
        let loc = lab.loc().expect("an SC access");
        // co (a write's co-successors) and fr (those of a read's source).
        match lab.kind {
            LabelKind::Read { rf, .. } => self.enter_chain(loc, g.co_pos(rf)),
            _ => self.enter_chain(loc, g.co_pos(Some(a))),
        }
        if self.f == Flavor::Genmc && lab.is_write() {
            for &r in &lab.readers {
                if is_sc(g.label(r)) {
                    self.reach(r.tid, r.idx);
                }
            }
        }
        let len_a = g.thread_len(a.tid);
        // po; hb; po (herd: po|≠loc at both ends) starts with the first event c0
        // po-after `a` (herd: not an access of `a`'s location).
        let c0 = match self.f {
            Flavor::Herd => {
                (a.idx + 1..len_a).find(|&j| g.label(EventId::new(a.tid, j)).loc() != Some(loc))
            }
            Flavor::Genmc => (a.idx + 1 < len_a).then_some(a.idx + 1),
        };
        for t in 0..g.num_threads() {
            if t == a.tid {
                continue; // po covers a's own thread
            }
            let stop = self.reached[t as usize];
            // herd: hb|loc — the first SC access of `loc` seeing `a`.
            if self.f == Flavor::Herd {
                if let Some(d) = self.first_seeing(t, a.tid, a.idx) {
                    let hit = (d..stop).find(|&j| {
                        let l = g.label(EventId::new(t, j));
                        is_sc(l) && l.loc() == Some(loc)
                    });
                    if let Some(j) = hit {
                        self.reach(t, j);
                    }
                }
            }
            let stop = self.reached[t as usize];
            // po; hb; po: `c0 hb d po b`, the earliest `d` seeing c0.
            let Some(c0) = c0 else { continue };
            let Some(d) = self.first_seeing(t, a.tid, c0) else {
                continue;
            };
            // herd: some event in [d, b) must not be an access of b's location.
            // `only` = Some(l) while every event of [d, b) is an access of l.
            let mut only = g.label(EventId::new(t, d)).loc();
            let mut mixed = only.is_none();
            for j in d + 1..stop {
                let l = g.label(EventId::new(t, j));
                let ok = match self.f {
                    Flavor::Genmc => true,
                    Flavor::Herd => mixed || l.loc() != only,
                };
                if is_sc(l) && ok {
                    self.reach(t, j);
                    break;
                }
                if !mixed && l.loc() != only {
                    mixed = true;
                    only = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Differential tests: on random graphs grown one event at a time, the incremental
    //! check ([`super::super::consistent_with`], with [`cycle_through`]) must agree with
    //! the whole-graph psc check it replaces ([`super::super::psc_with_whole`]) on every
    //! choice tried, consistent or not; and the coherence floor
    //! ([`crate::floor::hb_floor`]) must only cut choices that check rejects.
    use super::super::{consistent_with, hb_view, psc_relation, psc_with_whole, Flavor};
    use crate::floor::hb_floor;
    use crate::ra::coherent_with;
    use crate::relation::{Base, Relation};
    use crate::{atomicity, MemoryModel};
    use porf_graph::{
        EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind,
    };

    /// splitmix64 ([`porf_graph::hash::SplitMix64`]), with `usize` bounds and a shuffle.
    struct Rng(porf_graph::hash::SplitMix64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0.below(n as u64) as usize
        }
        fn shuffle<T>(&mut self, xs: &mut [T]) {
            for i in (1..xs.len()).rev() {
                xs.swap(i, self.below(i + 1));
            }
        }
    }

    /// Checks `e` both ways, asserting agreement; returns the answer. Without SC
    /// fences, for an SC access `e`, also compares what the search reaches from `e`
    /// with psc⁺ from `e` (a stronger test than the cycle alone).
    fn both(g: &Graph, e: EventId, f: Flavor, tried: &mut [usize; 2]) -> bool {
        let new = consistent_with(g, e, f);
        let hb_e = hb_view(g, e, f);
        let lab = g.label(e);
        if g.sc_fences() == 0 && lab.is_access() && lab.ord() == Some(MemOrder::SeqCst) {
            let b = Base::new(g);
            let hb = Relation::from_fn(b.len(), |x, y| {
                let (a, c) = (b.idx.event(x), b.idx.event(y));
                let view = if c == e { &hb_e } else { &g.label(c).hb };
                a != c && view.contains(a)
            });
            let psc = psc_relation(g, &b, &hb, &b.eco(), f).closure();
            let want: Vec<EventId> = psc
                .successors(b.idx.of(e))
                .map(|i| b.idx.event(i))
                .collect();
            let mut got = super::reached_from(g, e, &hb_e, f);
            got.sort_by_key(|x| b.idx.of(*x));
            assert_eq!(got, want, "psc reach from {e} ({f:?}):\n{g}");
        }
        let old = coherent_with(g, e, &hb_e) && psc_with_whole(g, e, &hb_e, f);
        assert_eq!(new, old, "incremental psc disagrees on {e} ({f:?}):\n{g}");
        tried[new as usize] += 1;
        new
    }

    fn add(g: &mut Graph, t: u32, kind: LabelKind, f: Flavor) -> EventId {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        g.label_mut(e).hb = hb_view(g, e, f);
        e
    }

    /// Grows one random graph of `threads` threads, keeping it consistent.
    fn grow(seed: u64, f: Flavor, sc_fences: bool, tried: &mut [usize; 2]) {
        let mut rng = Rng(porf_graph::hash::SplitMix64(
            seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x9c11,
        ));
        let mut g = Graph::new();
        let locs = [Loc(1), Loc(2), Loc(3)];
        for &l in &locs {
            g.ensure_loc(l, 0, None);
        }
        add(&mut g, 0, LabelKind::Start { parent: None }, f);
        let threads = 2 + rng.below(2) as u32;
        for c in 1..=threads {
            let s = add(
                &mut g,
                0,
                LabelKind::Spawn {
                    child: c,
                    entry: 0,
                    arg: 0,
                    symm: None,
                },
                f,
            );
            add(&mut g, c, LabelKind::Start { parent: Some(s) }, f);
        }
        use MemOrder::*;
        let orders = [SeqCst, SeqCst, SeqCst, Relaxed, Acquire, Release, NonAtomic];
        for _ in 0..10 + rng.below(10) {
            let t = 1 + rng.below(threads as usize) as u32;
            let nlocs = 2 + rng.below(2);
            let loc = locs[rng.below(nlocs)];
            let ord = orders[rng.below(orders.len())];
            let prev_hb = g.label(g.last_of(t).unwrap()).hb.clone();
            let floor = hb_floor(&g, loc, &prev_hb, None);
            match rng.below(9) {
                0..=2 => {
                    let ord = if ord == Release { Relaxed } else { ord };
                    let mut srcs: Vec<Option<EventId>> = std::iter::once(None)
                        .chain(g.co(loc).iter().copied().map(Some))
                        .collect();
                    rng.shuffle(&mut srcs);
                    let kind = LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind: ReadKind::Plain,
                        rf: None,
                    };
                    let r = add(&mut g, t, kind, f);
                    let mut kept = false;
                    for w in srcs {
                        g.set_rf(r, w);
                        g.label_mut(r).hb = hb_view(&g, r, f);
                        let ok = both(&g, r, f, tried);
                        assert!(!ok || g.co_pos(w) >= floor, "floor cut a good source");
                        if ok {
                            kept = true;
                            break;
                        }
                    }
                    if !kept {
                        g.pop_last();
                    }
                }
                3..=5 => {
                    let ord = if ord == Acquire { Relaxed } else { ord };
                    let kind = LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val: 1,
                        kind: WriteKind::Plain,
                    };
                    let w = add(&mut g, t, kind, f);
                    let mut pos: Vec<usize> = (1..=g.co(loc).len() + 1).collect();
                    rng.shuffle(&mut pos);
                    let mut kept = false;
                    for p in pos {
                        g.co_insert(w, p);
                        let ok = !atomicity::splits_rmw(&g, w) && both(&g, w, f, tried);
                        assert!(!ok || p > floor, "floor cut a good co place");
                        if ok {
                            kept = true;
                            break;
                        }
                        g.co_remove(w);
                    }
                    if !kept {
                        g.pop_last();
                    }
                }
                6 | 7 => {
                    // A fetch-add reading a random source, its write part right after it.
                    let ord = if ord == NonAtomic { SeqCst } else { ord };
                    let n = g.co(loc).len();
                    let src = match rng.below(n + 1) {
                        0 => None,
                        i => Some(g.co(loc)[i - 1]),
                    };
                    let kind = LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind: ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE)),
                        rf: src,
                    };
                    let r = add(&mut g, t, kind, f);
                    if !both(&g, r, f, tried) {
                        g.pop_last();
                        continue;
                    }
                    let kind = LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val: 1,
                        kind: WriteKind::Exclusive,
                    };
                    let w = add(&mut g, t, kind, f);
                    g.co_insert(w, g.co_pos(src) + 1);
                    if atomicity::violated_by(&g, w) || !both(&g, w, f, tried) {
                        g.pop_last();
                        g.pop_last();
                    }
                }
                _ => {
                    let ord = match ord {
                        SeqCst if !sc_fences => AcqRel,
                        NonAtomic | Relaxed => Acquire,
                        o => o,
                    };
                    let e = add(&mut g, t, LabelKind::Fence { ord }, f);
                    if !both(&g, e, f, tried) {
                        g.pop_last();
                    }
                }
            }
        }
        // The graph grown is consistent by the declarative definition too.
        let m: &dyn MemoryModel = match f {
            Flavor::Herd => &crate::rc11::Rc11,
            Flavor::Genmc => &crate::rc11_genmc::Rc11Genmc,
        };
        assert!(m.is_consistent(&g), "grown graph inconsistent:\n{g}");
    }

    #[test]
    fn incremental_psc_agrees_with_the_whole_graph_check() {
        for f in [Flavor::Herd, Flavor::Genmc] {
            let mut tried = [0, 0];
            for seed in 0..1500 {
                grow(seed, f, seed % 5 == 0, &mut tried);
            }
            // Both answers must have been exercised plenty.
            assert!(tried[0] > 2000 && tried[1] > 2000, "{f:?}: {tried:?}");
        }
    }

    /// The same with SC fences allowed in every graph: [`super::super::psc_new`]'s
    /// shortcuts against the whole-graph check on every step.
    #[test]
    fn psc_with_sc_fences_agrees_with_the_whole_graph_check() {
        for f in [Flavor::Herd, Flavor::Genmc] {
            let mut tried = [0, 0];
            for seed in 0..1500 {
                grow(seed, f, true, &mut tried);
            }
            assert!(tried[0] > 2000 && tried[1] > 2000, "{f:?}: {tried:?}");
        }
    }
}
