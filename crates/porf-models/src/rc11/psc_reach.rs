//! RC11's incremental psc check: does adding one event close a psc cycle? A forward
//! search from the new event, with or without seq_cst fences, that never builds psc.
//!
//! # Which new psc edges there are
//!
//! Setting: `e` is added porf-maximally to a graph whose psc (either flavour of
//! [`super::psc_acyclic`]; Lahav et al., PLDI 2017, "Repairing sequential consistency
//! in C/C++11", for herd's) is acyclic, and `psc'` is psc of the graph with `e`.
//! Nothing is po-, rf- or hb-after `e` (hb ⊆ porf).
//!
//! 1. **Among the other events, po, hb, co, rf and eco are unchanged.** po and rf
//!    trivially; hb = `(po ∪ sw)⁺` gains only pairs ending at `e` (the only new sw
//!    edges end at `e`, and nothing leaves `e`); co of `e`'s location only gains pairs
//!    with `e`; fr = `rf⁻¹; co` between two other events is unchanged; an eco path
//!    through `e` (`a co e co b`, `a rf e fr b`, `a fr e co b`, `a fr e rf b`, …) has
//!    a direct counterpart (`a co b`, `a co b`, `a fr b`, `a fr;rf b`) because co is
//!    total on a location. Hence every `scb` pair between other events is unchanged
//!    (herd's `po|≠loc; hb; po|≠loc` and GenMC's `po; hb; po` would need an hb edge
//!    out of `e`, or `e po b`).
//! 2. **A new psc edge `x → y` not ending at `e` has `e` as the start of its `scb`
//!    step or as the `a` of `hb; eco; hb` (`x hb a eco b hb y`).** The other places
//!    are excluded by 1 and by nothing being hb-after `e` (as the end of `scb` or the
//!    `b` of eco, the following `hb?; [F^sc]` would have to end at `e`). So either
//!    `x = e` (an SC access), or `x` is an SC fence with `x hb e`; the set of those
//!    fences is `X_f`. An edge of the first kind leads from `x` to a member of
//!    `T_scb` = the SC events among `e`'s `scb` successors `b` and the SC fences
//!    `hb?`-after such a `b`; one of the second kind to `T_scb` or to `T_eco` = the SC
//!    fences hb-after an eco successor of `e`. Conversely every `x ∈ X_f` has an
//!    edge to every member of `T_scb ∪ T_eco`, and an SC access `e` one to every
//!    member of `T_scb`.
//! 3. **A new cycle therefore exists iff** (a) `e` is an SC access or `X_f ≠ ∅`, and
//!    some member of `T_scb` reaches `X_f`, or reaches `e` when `e` is an SC access;
//!    or (b) `X_f ≠ ∅` and some member of `T_eco` reaches `X_f` — reaching along
//!    `psc'`. (⇐: close the path with the edge of 2. ⇒: a cycle not in psc uses a new
//!    edge; if it is one into `e`, the cycle continues with one out of `e`, of the
//!    first kind; rotate the cycle to start with a new edge of 2 and read it.) A
//!    reaching path may itself use new edges; the search follows `psc'`, which is
//!    psc plus edges out of `X_f ∪ {e}` (stopping there anyway) and edges into `e`.
//!    An SC fence, or an event with no eco successor (a write placed co-last and
//!    unread, a read of the co-latest write, a fence, a thread event) has empty
//!    `T_scb` and `T_eco`: no cycle, in O(1).
//!
//! [`closes_cycle`] runs (a) with success on `X_f ∪ {e}` (`e` only if SC), then, if
//! not found and `X_f ≠ ∅`, (b) with success on `X_f`, keeping what (a) reached:
//! nothing (a) reached reaches `X_f`. Membership in `X_f` is a look-up in `e`'s hb
//! view.
//!
//! # The search
//!
//! Reaching along `psc'` never builds psc. What is reached is kept as per-thread
//! frontiers (everything of the thread at this index or later), each valid because
//! the set it stands for is closed under po-successors:
//!
//! * `R`, the reached SC events: po between SC events is in psc (`[E^sc]; po;
//!   [E^sc]` ⊆ scb in both flavours).
//! * `H = hb?(R ∩ F^sc)`, the events after a reached SC fence: hb views grow along
//!   po. Every SC fence in `H` is in `R` (`[F^sc]; hb; [F^sc]`), and every event of
//!   `H` is a possible start of an `scb` step (`[F^sc]; hb?; scb`), of `eco`
//!   (`[F^sc]; hb; eco; hb; [F^sc]`) — GenMC's `[F^sc]; hb; scb` has strict hb, the
//!   same here because a fence's only `scb` successors are its po-successors.
//! * `P`, the events `hb?`-after an `scb` target or hb-after an eco target of the
//!   search: every SC fence in `P` is in `R` (`scb; hb?; [F^sc]`, `eco; hb; [F^sc]`).
//!   That is `P`'s only use, so it is not kept: "`P` gains `hb?(x)`" reaches, in
//!   each thread, the first SC fence `hb?`-after `x` if it is below the thread's `R`
//!   frontier (those at or after it are reached already). Each thread's last SC
//!   fence below its `R` frontier is kept ([`Graph::sc_fences_before`] finds it by
//!   binary search): when that fence does not see `x`, no earlier one does and the
//!   thread is done in O(1); a thread with no SC fence left below `R` costs nothing.
//!
//! The first event of a thread whose hb view holds `x` is found by binary search
//! (views grow along po), so "everything `hb?`-after `x`" lowers each thread's `H`
//! frontier, or reaches its first SC fence in `P`, in O(threads · log(thread
//! length)). What is not closed under po is
//! expanded event by event, each event at most once: a reached SC access `a`
//! (psc's `[E^sc]; scb`) and an event `s` entering `H`:
//!
//! * **po**: from `a`, everything after it in its thread: the SC ones reached, `P`
//!   lowered to `hb?((a.tid, a.idx + 1))`. From `H`, the SC events after a thread's
//!   `H` frontier (and a fence at it) are reached when the frontier is lowered; the
//!   `P` part is implied (`P`'s effect inside `H` is `H`'s).
//! * **herd `po|≠loc; hb; po|≠loc`, GenMC `[E^sc]; po; hb; po; [E^sc]`**: from `a`,
//!   per other thread, the first SC event after the first event seeing `a`'s first
//!   po-successor (herd: not at `a`'s location), with herd's location condition on
//!   the last po step; the `P` part is implied by po's. From `s ∈ H` (herd) the
//!   targets are po-after an event of `H`, so po already reached them; GenMC has the
//!   pattern only between SC events.
//! * **herd `hb|loc`**: from `a`, per other thread, the first SC access of `a`'s
//!   location that sees `a`, and `P` lowered to `hb?` of the first access of the
//!   location that sees `a`. From `s ∈ H` the targets are in `H`, and only a
//!   thread's first event of `H` is not po-after another event of `H`: it is reached
//!   if it is an SC access of `s`'s location and the first event of its thread seeing
//!   `s`. (A frontier lowered later is never hb-after an earlier `s`: `s`'s hb
//!   successors were in `H` already.)
//! * **GenMC `rf`**: the SC readers of a write are reached; `P` lowered to `hb?` of
//!   every reader of `a` (of `s`: by eco below).
//! * **co, fr**: per location, the lowest co index the chain was entered at; the
//!   writes from there are `scb` targets (SC ones reached, `P` lowered to `hb?` of
//!   each). From `s ∈ H` also **eco**: per location, the lowest co index whose
//!   writes' readers are eco targets (`P` lowered to `hb?` of each): `co; rf?` from
//!   a write, `fr; rf?` from a read, and `rf` from a write.
//!
//! The seeds are `e` itself: in (a) expanded as an SC access (its `scb` successors
//! are its co, fr and (GenMC) rf successors: po, hb and their compositions leave
//! nothing from `e`), in (b) as an event of `H` (it is hb-after the fences of `X_f`).
//! Without SC fences `H` and `P` stay empty and are not kept; the search is then the
//! one of psc between SC accesses. Cost: O(1) when `e` has no eco successor (the
//! common case: an SC read of the co-latest write, a write placed co-last);
//! otherwise O(threads · log(thread length)) per event expanded plus the scans for
//! the first suitable event, which stop at what is already reached — the part of the
//! graph psc-after `e`'s eco successors, never the whole graph by construction. Proof
//! of exactness: 1–3 above, and each rule's targets are exactly `psc'`'s from the
//! events it expands; `super::consistent_with` asserts it against
//! [`super::psc_with_whole`] in debug builds, and the tests below compare what the
//! search reaches with the closure of `psc'` on random graphs with SC fences.

use super::Flavor;
use porf_graph::hash::FastMap;
use porf_graph::{EventId, Graph, Label, LabelKind, Loc, MemOrder, View};

/// True iff adding `e` (porf-maximal, hb view `hb_e`, the others' stored) to `g`,
/// whose psc was acyclic without it, creates a psc cycle.
pub(crate) fn closes_cycle(g: &Graph, e: EventId, hb_e: &View, f: Flavor) -> bool {
    let lab = g.label(e);
    let sc_access = lab.is_access() && is_sc(lab);
    let fences = g.sc_fences() > 0;
    if !(sc_access || fences) || !has_eco_successor(g, e) {
        return false;
    }
    let mut s = Search::new(g, e, hb_e, f, fences);
    if sc_access {
        s.target_e = true;
        s.expand_sc(e);
        s.run();
        if s.found {
            return true;
        }
    }
    if fences && sc_fence_in(g, e, hb_e) {
        s.target_e = false;
        s.expand_h(e);
        s.run();
    }
    s.found
}

/// Does `e` have an eco successor (co and fr successors, readers)? Fences and thread
/// events have none.
fn has_eco_successor(g: &Graph, e: EventId) -> bool {
    let lab = g.label(e);
    match lab.kind {
        LabelKind::Read { loc, rf, .. } => g.co_pos(rf) < g.co(loc).len(),
        LabelKind::Write { loc, .. } => {
            g.co_pos(Some(e)) < g.co(loc).len() || !lab.readers.is_empty()
        }
        _ => false,
    }
}

/// Is some SC fence other than `e` in the hb view `hb_e` (is `X_f` non-empty)? Counted
/// per thread in O(1) ([`Graph::sc_fences_before`]).
fn sc_fence_in(g: &Graph, e: EventId, hb_e: &View) -> bool {
    let e_fence = is_sc_fence(g.label(e)) as u32;
    (0..g.num_threads()).any(|t| {
        let n = hb_e.get(t).min(g.thread_len(t));
        let own = if t == e.tid && e.idx < n { e_fence } else { 0 };
        g.sc_fences_before(t, n) > own
    })
}

/// The SC events psc'⁺ leads to from an SC access `e` (tests compare it with the
/// closure of psc').
#[cfg(test)]
fn reached_from(g: &Graph, e: EventId, hb_e: &View, f: Flavor) -> Vec<EventId> {
    let mut s = Search::new(g, e, hb_e, f, g.sc_fences() > 0);
    s.stop_when_found = false;
    s.expand_sc(e);
    s.run();
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

fn is_sc_fence(lab: &Label) -> bool {
    matches!(
        lab.kind,
        LabelKind::Fence {
            ord: MemOrder::SeqCst
        }
    )
}

/// A thread's last SC fence below its `R` frontier ([`Search::last_fence`]).
#[derive(Copy, Clone)]
enum LastFence<'g> {
    /// Not computed since the frontier was lowered.
    Unknown,
    None,
    /// Its index and hb view.
    At(u32, &'g View),
}

/// The first index in `[lo, hi]` where the monotone `holds` holds, given that it holds
/// at `hi`.
fn first_index(mut lo: u32, mut hi: u32, holds: impl Fn(u32) -> bool) -> u32 {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if holds(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// What is left to expand.
enum Work {
    /// A reached SC event.
    Sc(EventId),
    /// The events `[from, to)` of a thread, new in `H`.
    H(u32, u32, u32),
}

/// Per location, the lowest co slice index entered so far (absent: the co list's
/// length, nothing entered). Most searches enter a few locations: a list, which
/// becomes a map past [`Entered::LIST`] entries.
#[derive(Default)]
struct Entered {
    list: Vec<(Loc, usize)>,
    map: FastMap<Loc, usize>,
}

impl Entered {
    const LIST: usize = 16;

    /// Lowers `loc`'s index to `from` (`len` if absent) and returns the old one, or
    /// `None` if it was already at or below `from`.
    fn lower(&mut self, loc: Loc, from: usize, len: usize) -> Option<usize> {
        let slot = match self.list.iter_mut().find(|(l, _)| *l == loc) {
            Some((_, i)) => Some(i),
            None => self.map.get_mut(&loc),
        };
        match slot {
            Some(i) if from < *i => Some(std::mem::replace(i, from)),
            Some(_) => None,
            None if from < len => {
                if self.list.len() < Self::LIST {
                    self.list.push((loc, from));
                } else {
                    self.map.insert(loc, from);
                }
                Some(len)
            }
            None => None,
        }
    }
}

struct Search<'g> {
    g: &'g Graph,
    e: EventId,
    hb_e: &'g View,
    f: Flavor,
    /// The graph has SC fences: `H` is kept and `P`'s fences reached.
    fences: bool,
    /// Reaching `e` is success (search (a) of the module docs).
    target_e: bool,
    /// Tests: keep going after success.
    stop_when_found: bool,
    /// `R` per thread: every SC event at this index or later is reached.
    reached: Vec<u32>,
    /// `H` per thread: every event at this index or later is hb?-after a reached
    /// SC fence.
    h: Vec<u32>,
    /// Per thread (with SC fences): the last SC fence below `reached`, with its hb
    /// view.
    last_fence: Vec<LastFence<'g>>,
    /// Per location: the writes from this co slice index on are co/fr targets.
    co_entered: Entered,
    /// Per location: the readers of the writes from this co slice index on are eco
    /// targets.
    rd_entered: Entered,
    work: Vec<Work>,
    /// A member of `X_f` was reached, or `e` while `target_e`.
    found: bool,
}

impl<'g> Search<'g> {
    fn new(g: &'g Graph, e: EventId, hb_e: &'g View, f: Flavor, fences: bool) -> Search<'g> {
        let lens: Vec<u32> = (0..g.num_threads()).map(|t| g.thread_len(t)).collect();
        Search {
            g,
            e,
            hb_e,
            f,
            fences,
            target_e: false,
            stop_when_found: true,
            reached: lens.clone(),
            h: if fences { lens.clone() } else { Vec::new() },
            last_fence: if fences {
                vec![LastFence::Unknown; lens.len()]
            } else {
                Vec::new()
            },
            co_entered: Entered::default(),
            rd_entered: Entered::default(),
            work: Vec::new(),
            found: false,
        }
    }

    fn run(&mut self) {
        while let Some(w) = self.work.pop() {
            if self.found && self.stop_when_found {
                return;
            }
            match w {
                Work::Sc(x) => self.expand_sc(x),
                Work::H(t, from, to) => {
                    for i in from..to {
                        self.expand_h(EventId::new(t, i));
                    }
                }
            }
        }
    }

    fn hb(&self, x: EventId) -> &'g View {
        if x == self.e {
            self.hb_e
        } else {
            &self.g.label(x).hb
        }
    }

    /// Every SC event of thread `t` at index `i` or later is reached.
    fn reach(&mut self, t: u32, i: u32) {
        let old = self.reached[t as usize];
        if i >= old {
            return;
        }
        self.reached[t as usize] = i;
        if let Some(f) = self.last_fence.get_mut(t as usize) {
            // Still the last SC fence below `i` if it is below `i`.
            if matches!(*f, LastFence::At(j, _) if j >= i) {
                *f = LastFence::Unknown;
            }
        }
        for j in i..old {
            let x = EventId::new(t, j);
            let lab = self.g.label(x);
            if is_sc(lab) {
                let in_xf = x != self.e && is_sc_fence(lab) && self.hb_e.contains(x);
                self.found |= in_xf || (x == self.e && self.target_e);
                self.work.push(Work::Sc(x));
            }
        }
    }

    /// The first index of thread `t` below `bound` whose hb view holds `x`, if any
    /// (O(1) when the event before `bound` does not hold it).
    fn first_seeing_below(&self, t: u32, x: EventId, bound: u32) -> Option<u32> {
        if t == x.tid {
            return (x.idx < bound).then_some(x.idx);
        }
        let sees = |i: u32| self.hb(EventId::new(t, i)).get(x.tid) > x.idx;
        if bound == 0 || !sees(bound - 1) {
            return None;
        }
        let (mut lo, mut hi) = (0, bound - 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if sees(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// `H` gains everything hb?-after the reached SC fence `a`.
    fn h_after(&mut self, a: EventId) {
        for t in 0..self.g.num_threads() {
            if let Some(i) = self.first_seeing_below(t, a, self.h[t as usize]) {
                self.lower_h(t, i);
            }
        }
    }

    fn lower_h(&mut self, t: u32, i: u32) {
        let old = self.h[t as usize];
        if i >= old {
            return;
        }
        self.h[t as usize] = i;
        self.work.push(Work::H(t, i, old));
        // po from the first event of H; SC fences of H are reached.
        let first = if is_sc_fence(self.g.label(EventId::new(t, i))) {
            i
        } else {
            i + 1
        };
        self.reach(t, first);
    }

    /// `P` gains everything hb?-after `x` (a no-op without SC fences): in each thread,
    /// the first SC fence hb?-after `x` below the `R` frontier is reached.
    fn p_after(&mut self, x: EventId) {
        if !self.fences {
            return;
        }
        for t in 0..self.g.num_threads() {
            let (f, hb_f) = match self.last_fence[t as usize] {
                LastFence::At(f, hb_f) => (f, hb_f),
                LastFence::None => continue,
                LastFence::Unknown => match self.last_fence(t) {
                    LastFence::At(f, hb_f) => (f, hb_f),
                    _ => continue,
                },
            };
            // Views grow along po: if `f` does not see `x` (hb?, views are reflexive),
            // no fence before it does.
            if hb_f.get(x.tid) <= x.idx {
                continue;
            }
            if let Some(i) = self.first_seeing_below(t, x, f + 1) {
                let j = self.first_fence_from(t, i, f);
                self.reach(t, j);
            }
        }
    }

    /// Computes the last SC fence of thread `t` below its `R` frontier.
    fn last_fence(&mut self, t: u32) -> LastFence<'g> {
        let g = self.g;
        let r = self.reached[t as usize];
        let c = g.sc_fences_before(t, r);
        let f = match c {
            0 => LastFence::None,
            _ => {
                // The fence is the first event with `c` fences up to it.
                let f = first_index(0, r - 1, |j| g.sc_fences_before(t, j + 1) >= c);
                LastFence::At(f, self.hb(EventId::new(t, f)))
            }
        };
        self.last_fence[t as usize] = f;
        f
    }

    /// The first SC fence of thread `t` at index `i` or later, given that `f >= i` is
    /// one.
    fn first_fence_from(&self, t: u32, i: u32, f: u32) -> u32 {
        let g = self.g;
        let c = g.sc_fences_before(t, i);
        let j = first_index(i, f, |j| g.sc_fences_before(t, j + 1) > c);
        debug_assert!(is_sc_fence(g.label(EventId::new(t, j))));
        j
    }

    /// co/fr targets: the writes of `loc` from co slice index `from` on.
    fn enter_co(&mut self, loc: Loc, from: usize) {
        let co = self.g.co(loc);
        let Some(old) = self.co_entered.lower(loc, from, co.len()) else {
            return;
        };
        for &w in &co[from..old] {
            if is_sc(self.g.label(w)) {
                self.reach(w.tid, w.idx);
            }
            self.p_after(w);
        }
    }

    /// eco targets (P only): the readers of the writes of `loc` from co slice index
    /// `from` on.
    fn enter_readers(&mut self, loc: Loc, from: usize) {
        let co = self.g.co(loc);
        let Some(old) = self.rd_entered.lower(loc, from, co.len()) else {
            return;
        };
        for &w in &co[from..old] {
            for &r in &self.g.label(w).readers {
                self.p_after(r);
            }
        }
    }

    /// The co/fr chain of access `a`: co slice index of its first co/fr successor.
    fn chain_start(&self, a: EventId) -> usize {
        match self.g.label(a).kind {
            LabelKind::Read { rf, .. } => self.g.co_pos(rf),
            _ => self.g.co_pos(Some(a)),
        }
    }

    /// GenMC's rf in scb: the SC readers of write `a` are reached.
    fn genmc_rf(&mut self, a: EventId) {
        let g = self.g;
        for &r in &g.label(a).readers {
            if is_sc(g.label(r)) {
                self.reach(r.tid, r.idx);
            }
        }
    }

    /// Expands a reached SC event `a`.
    fn expand_sc(&mut self, a: EventId) {
        let g = self.g;
        let lab = g.label(a);
        let Some(loc) = lab.loc() else {
            // An SC fence: everything hb?-after it joins H.
            if self.fences {
                self.h_after(a);
            }
            return;
        };
        self.enter_co(loc, self.chain_start(a));
        if self.f == Flavor::Genmc && lab.is_write() {
            self.genmc_rf(a);
            for &r in &lab.readers {
                self.p_after(r);
            }
        }
        let len_a = g.thread_len(a.tid);
        // po.
        if a.idx + 1 < len_a {
            self.reach(a.tid, a.idx + 1);
            self.p_after(EventId::new(a.tid, a.idx + 1));
        }
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
            // herd: hb|loc — the first SC access of `loc` seeing `a` is reached; P
            // gains what is hb?-after the first access of `loc` seeing `a`.
            if self.f == Flavor::Herd {
                // Without fences only SC accesses below `R` matter.
                let bound = if self.fences {
                    g.thread_len(t)
                } else {
                    self.reached[t as usize]
                };
                if let Some(d) = self.first_seeing_below(t, a, bound) {
                    let mut p_done = !self.fences;
                    for j in d..g.thread_len(t) {
                        if p_done && j >= self.reached[t as usize] {
                            break;
                        }
                        let l = g.label(EventId::new(t, j));
                        if l.loc() != Some(loc) {
                            continue;
                        }
                        if !p_done {
                            p_done = true;
                            self.p_after(EventId::new(t, j));
                        }
                        if is_sc(l) {
                            self.reach(t, j);
                            break;
                        }
                    }
                }
            }
            let stop = self.reached[t as usize];
            // po; hb; po: `c0 hb d po b`, the earliest `d` seeing c0.
            let Some(c0) = c0 else { continue };
            // (Only a `d` below `stop - 1` leaves room for `b`.)
            let c0 = EventId::new(a.tid, c0);
            let Some(d) = self.first_seeing_below(t, c0, stop.saturating_sub(1)) else {
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

    /// Expands `s`, an event hb?-after a reached SC fence (or `e` in search (b)).
    fn expand_h(&mut self, s: EventId) {
        let g = self.g;
        let lab = g.label(s);
        let Some(loc) = lab.loc() else { return };
        let k = self.chain_start(s);
        self.enter_co(loc, k);
        if lab.is_write() {
            // co; rf? and rf: the readers of `s` and of the writes co-after it.
            self.enter_readers(loc, k - 1);
            if self.f == Flavor::Genmc {
                self.genmc_rf(s);
            }
        } else {
            // fr; rf?.
            self.enter_readers(loc, k);
        }
        if self.f == Flavor::Herd {
            // hb|loc to the first event of H of another thread.
            for t in 0..g.num_threads() {
                if t == s.tid {
                    continue;
                }
                // Is `d`, the first event of H in `t`, the first to see `s`?
                let d = self.h[t as usize];
                if d >= g.thread_len(t) {
                    continue;
                }
                let sees = |i: u32| self.hb(EventId::new(t, i)).get(s.tid) > s.idx;
                let l = g.label(EventId::new(t, d));
                if is_sc(l) && l.loc() == Some(loc) && sees(d) && (d == 0 || !sees(d - 1)) {
                    self.reach(t, d);
                }
            }
        }
    }
}
#[cfg(test)]
mod tests {
    //! Differential tests: on random graphs grown one event at a time, the incremental
    //! check ([`super::super::consistent_with`], with [`closes_cycle`]) must agree with
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
            self.0.shuffle(xs)
        }
    }

    /// Checks `e` both ways, asserting agreement; returns the answer. For an SC access
    /// `e`, also compares what the search reaches from `e` with psc'⁺ from `e` (a
    /// stronger test than the cycle alone), SC fences or not.
    fn both(g: &Graph, e: EventId, f: Flavor, tried: &mut [usize; 2]) -> bool {
        let new = consistent_with(g, e, f);
        let hb_e = hb_view(g, e, f);
        let lab = g.label(e);
        if lab.is_access() && lab.ord() == Some(MemOrder::SeqCst) {
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

    /// The same with SC fences allowed in every graph: the search with `H` and `P`
    /// against the whole-graph check on every step.
    #[test]
    fn psc_with_sc_fences_agrees_with_the_whole_graph_check() {
        for f in [Flavor::Herd, Flavor::Genmc] {
            let mut tried = [0, 0];
            for seed in 0..8000 {
                grow(seed, f, true, &mut tried);
            }
            assert!(tried[0] > 2000 && tried[1] > 2000, "{f:?}: {tried:?}");
        }
    }
}
