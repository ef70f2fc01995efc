//! Alg. 1 of "Stateless Model Checking under a Reads-Value-From Equivalence": a
//! search over witness prefixes, expanding each witness *state* once.
//!
//! A *witness prefix* is a trace of a po-and-sync-closed set of events in which every
//! executed read read one of its good writes and every unexecuted read that *holds*
//! its location (all its good writes are executed) can still read one: the active
//! (latest) write of the location is among them. Its state is (executed events, active
//! write per location) — the paper's memory map, with the write itself in place of its
//! thread, which the executed set determines — plus, for a [`TaintGoal`], which threads
//! and which active writes are hb-after the goal's source, and whether the source was
//! executed (until the goal is met; a goal `want`ing no hb whose thread is already
//! hb-after the source is dead). Two prefixes with one state extend to witnesses
//! alike (the paper's completeness argument; the taint bits are all the future needs
//! to know of hb), so
//! each state is expanded once: at most `n^k · (k + 1)^d` states (times `2^{k+d}` with
//! a goal) for `n` events, `k` threads and `d` locations.
//!
//! Moves: a read is executable iff the active write is one of its good writes (and, if
//! `last`, every write of its location is executed); an RMW's read part only together
//! with its write part, and only if no *other* unexecuted read holds the location; a
//! write iff no unexecuted read holds its location. Start, spawn, join and other
//! events touching no memory are executed as soon as po and sync allow (a child's
//! start together with its spawn): they change no value and no taint bit a later
//! move depends on, so hoisting them is complete.
//!
//! Greedy moves of §4.2 (taken alone, only without a goal or once it is met: before,
//! hoisting a read could change which write, and so which hb, it gets): (1) an
//! executable plain read;
//! (2) a plain write no unexecuted read may read, over an active write no unexecuted
//! read may read. Branching moves are tried in the order of the guide trace (the
//! auxiliary trace of §4.2, item 3), depth first.
//!
//! With the closure ([`Query::closure`]), a read or write is a move only when its
//! `P`-predecessors are executed.

use super::closure::{closure, closure_until, Order};
use super::instance::{Compiled, Id, Instance, K};
use porf_graph::EventId;
use std::collections::HashSet;

/// What to ask of the search besides a witness.
#[derive(Clone, Default)]
pub struct Query<'a> {
    /// Polled now and then: when it returns true the search gives up
    /// ([`Verdict::Interrupted`]), so a time limit is kept within a few hundred states.
    pub stop: Option<&'a dyn Fn() -> bool>,
    /// Branch in this order first (events not listed come after, by thread).
    pub guide: &'a [EventId],
    /// Require the witness to meet this hb condition.
    pub taint: Option<TaintGoal>,
    /// Compute the closure first (a refutation filter) and search only `P`-minimal
    /// moves.
    pub closure: bool,
}

/// An hb condition on a witness: when `goal` is executed, it is hb-after `source`
/// iff `want`; with `source_first`, `source` must also be executed before `goal`
/// (then `goal` must be a read or a write: events touching no memory are placed as
/// early as po allows).
/// (hb: po, spawn → start, last event → join, and reads-from between an atomic write
/// and an atomic read.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TaintGoal {
    pub source: EventId,
    pub goal: EventId,
    pub want: bool,
    pub source_first: bool,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A witness: every event once.
    Witness(Vec<EventId>),
    /// No witness (the search says so).
    NoWitness,
    /// No witness: the instance has no closure.
    Refuted,
    /// The instance is not well-formed (see [`Instance`]).
    Malformed,
    /// [`Query::stop`] said to give up: nothing is known.
    Interrupted,
}

/// Decides whether `inst` has a witness meeting `q`.
pub fn verify(inst: &Instance, q: &Query) -> Verdict {
    let Some(c) = Compiled::new(inst) else {
        return Verdict::Malformed;
    };
    let goal = match q.taint {
        None => None,
        Some(tg) => match (c.id(tg.source), c.id(tg.goal)) {
            (Some(s), Some(g))
                if s != g
                    && (!tg.source_first
                        || matches!(c.kind[g as usize], K::Read { .. } | K::Write { .. })) =>
            {
                Some((s, g, tg.want, tg.source_first))
            }
            _ => return Verdict::Malformed,
        },
    };
    let p = if q.closure {
        match closure_until(&c, q.stop) {
            Ok(Some(p)) => Some(p),
            Ok(None) => return Verdict::Refuted,
            Err(Interrupted) => return Verdict::Interrupted,
        }
    } else {
        None
    };
    let mut guide_pos = vec![u32::MAX; c.n()];
    for (i, &e) in q.guide.iter().enumerate() {
        if let Some(id) = c.id(e) {
            if guide_pos[id as usize] == u32::MAX {
                guide_pos[id as usize] = i as u32;
            }
        }
    }
    let mut s = Search {
        c: &c,
        p: p.as_ref(),
        goal,
        guide_pos,
        done: HashSet::new(),
        stop: q.stop,
        interrupted: false,
    };
    let found = s.run();
    match found {
        Some(tr) => Verdict::Witness(tr.iter().map(|&i| c.ev[i as usize]).collect()),
        None if s.interrupted => Verdict::Interrupted,
        None => Verdict::NoWitness,
    }
}

/// The reads that read one and the same write in every witness of `inst` (as
/// `(read, source)`, `None` = the initialisation), found through the closure; `None`
/// when the closure refutes `inst` (it has no witness). Not every read with a single
/// possible source is found.
pub fn forced_sources(inst: &Instance) -> Option<Vec<(EventId, Option<EventId>)>> {
    let c = Compiled::new(inst)?;
    let p = closure(&c)?;
    Some(
        super::closure::forced(&c, &p)
            .into_iter()
            .map(|(r, w)| (c.ev[r as usize], w.map(|w| c.ev[w as usize])))
            .collect(),
    )
}

/// The closure of an instance, to ask which pairs every witness orders.
/// A computation asked to give up by its `stop` callback (a time limit): nothing is
/// known.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Interrupted;

pub struct Closure {
    c: Compiled,
    p: Order,
}

impl Closure {
    /// The closure of `inst`; `None` if it has none (no witness exists) or `inst` is
    /// not well-formed.
    pub fn new(inst: &Instance) -> Option<Closure> {
        let c = Compiled::new(inst)?;
        let p = closure(&c)?;
        Some(Closure { c, p })
    }

    /// [`Closure::new`], asking `stop` as it goes: `Err(Interrupted)` if `stop` said
    /// to give up (nothing is known then).
    pub fn new_until(
        inst: &Instance,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Closure>, Interrupted> {
        let Some(c) = Compiled::new(inst) else {
            return Ok(None);
        };
        Ok(closure_until(&c, Some(stop))?.map(|p| Closure { c, p }))
    }
    /// `a ≤P b`: `a` is `b` or comes before it in every witness. False for events not
    /// in the instance.
    pub fn le(&self, a: EventId, b: EventId) -> bool {
        match (self.c.id(a), self.c.id(b)) {
            (Some(a), Some(b)) => self.p.le(&self.c, a, b),
            _ => false,
        }
    }
}

struct Search<'a> {
    c: &'a Compiled,
    p: Option<&'a Order>,
    /// (source, goal, want, source_first).
    goal: Option<(Id, Id, bool, bool)>,
    guide_pos: Vec<u32>,
    done: HashSet<Vec<u32>>,
    stop: Option<&'a dyn Fn() -> bool>,
    interrupted: bool,
}

/// A witness prefix.
#[derive(Clone)]
struct Prefix {
    pos: Vec<u32>,
    /// Dense location → active write (`None`: the initialisation).
    active: Vec<Option<Id>>,
    /// Thread → hb-after the source.
    taint: Vec<bool>,
    /// Dense location → its active write is hb-after the source.
    wtaint: Vec<bool>,
    src_done: bool,
    trace: Vec<Id>,
}

impl Search<'_> {
    fn run(&mut self) -> Option<Vec<Id>> {
        let c = self.c;
        let mut root = Prefix {
            pos: vec![0; c.k],
            active: vec![None; c.nlocs],
            taint: vec![false; c.k],
            wtaint: vec![false; c.nlocs],
            src_done: false,
            trace: Vec::with_capacity(c.n()),
        };
        if !self.settle(&mut root) {
            return None;
        }
        self.dfs(root)
    }

    fn dfs(&mut self, pre: Prefix) -> Option<Vec<Id>> {
        if pre.trace.len() == self.c.n() {
            return Some(pre.trace);
        }
        if let Some((_, g, false, _)) = self.goal {
            // Taint only grows: a goal whose thread is already hb-after the source can
            // no longer be executed outside its hb-future.
            let t = self.c.tid(g);
            if !self.executed(&pre, Some(g)) && pre.taint[t] {
                return None;
            }
        }
        if self.interrupted {
            return None;
        }
        if self.done.len() % 256 == 255 && self.stop.is_some_and(|f| f()) {
            self.interrupted = true;
            return None;
        }
        if !self.done.insert(self.key(&pre)) {
            return None;
        }
        for e in self.moves(&pre) {
            let mut next = pre.clone();
            if self.exec(&mut next, e) && self.settle(&mut next) {
                if let Some(t) = self.dfs(next) {
                    return Some(t);
                }
            }
        }
        None
    }

    /// Whether the goal (if any) is met and only a completion is left to find.
    fn goal_met(&self, p: &Prefix) -> bool {
        self.goal
            .is_none_or(|(_, g, _, _)| self.executed(p, Some(g)))
    }

    fn key(&self, p: &Prefix) -> Vec<u32> {
        let mut k = Vec::with_capacity(p.pos.len() + p.active.len() + 2);
        k.extend_from_slice(&p.pos);
        k.extend(p.active.iter().map(|a| a.map_or(0, |w| w + 1)));
        // Once the goal is met the taint bits no longer matter.
        if !self.goal_met(p) {
            k.push(p.src_done as u32);
            k.extend(p.taint.iter().map(|&b| b as u32));
            k.extend(p.wtaint.iter().map(|&b| b as u32));
        }
        k
    }

    fn executed(&self, p: &Prefix, w: Option<Id>) -> bool {
        w.is_none_or(|w| p.pos[self.c.tid(w)] > self.c.idx(w))
    }

    fn next_of(&self, p: &Prefix, t: usize) -> Option<Id> {
        (p.pos[t] < self.c.len[t]).then(|| self.c.at(t, p.pos[t]))
    }

    /// Some unexecuted read of `loc` other than `except` has all its good writes
    /// executed (and so must read the active write).
    fn held(&self, p: &Prefix, loc: u32, except: Option<Id>) -> bool {
        self.c.reads_of[loc as usize].iter().any(|&r| {
            Some(r) != except
                && !self.executed(p, Some(r))
                && self.c.good[r as usize].iter().all(|&w| self.executed(p, w))
        })
    }

    fn p_ready(&self, p: &Prefix, e: Id) -> bool {
        let Some(order) = self.p else { return true };
        let own = self.c.tid(e);
        order
            .clock(e)
            .iter()
            .enumerate()
            .all(|(t, &n)| t == own || p.pos[t] >= n)
    }

    /// Whether the read or write `e` (its thread's next event) can be executed.
    fn executable(&self, p: &Prefix, e: Id) -> bool {
        let c = self.c;
        match c.kind[e as usize] {
            K::Read { loc, last, rmw, .. } => {
                let l = loc as usize;
                if !c.good[e as usize].contains(&p.active[l]) {
                    return false;
                }
                if last && !c.writes_of[l].iter().all(|&w| self.executed(p, Some(w))) {
                    return false;
                }
                if rmw && (self.held(p, loc, Some(e)) || !self.p_ready(p, e + 1)) {
                    return false;
                }
                self.p_ready(p, e)
            }
            K::Write {
                loc,
                exclusive: false,
                ..
            } => !self.held(p, loc, None) && self.p_ready(p, e),
            _ => false,
        }
    }

    /// The moves to branch on from a settled prefix, best first.
    fn moves(&self, p: &Prefix) -> Vec<Id> {
        let c = self.c;
        let mut out: Vec<Id> = (0..c.k)
            .filter_map(|t| self.next_of(p, t))
            .filter(|&e| self.executable(p, e))
            .collect();
        if self.goal_met(p) {
            // Greedy (1): a plain read.
            if let Some(&r) = out
                .iter()
                .find(|&&e| matches!(c.kind[e as usize], K::Read { rmw: false, .. }))
            {
                return vec![r];
            }
            // Greedy (2): a write nobody may read over an active write nobody may read.
            let wanted = |w: Option<Id>, loc: u32| {
                c.reads_of[loc as usize]
                    .iter()
                    .any(|&r| !self.executed(p, Some(r)) && c.good[r as usize].contains(&w))
            };
            if let Some(&w) = out.iter().find(|&&e| match c.kind[e as usize] {
                K::Write { loc, .. } => {
                    !wanted(p.active[loc as usize], loc) && !wanted(Some(e), loc)
                }
                _ => false,
            }) {
                return vec![w];
            }
        }
        out.sort_by_key(|&e| (self.guide_pos[e as usize], e));
        out
    }

    /// Marks `e` executed (source and goal bookkeeping); false if the goal fails.
    fn mark(&self, p: &mut Prefix, e: Id) -> bool {
        let t = self.c.tid(e);
        let mut ok = true;
        if let Some((s, g, want, first)) = self.goal {
            if e == g {
                ok = (!first || p.src_done) && p.taint[t] == want;
            }
            if e == s {
                p.taint[t] = true;
                p.src_done = true;
            }
        }
        p.pos[t] += 1;
        p.trace.push(e);
        ok
    }

    /// Executes read or write `e` (a read with its write part).
    fn exec(&self, p: &mut Prefix, e: Id) -> bool {
        let c = self.c;
        let t = c.tid(e);
        match c.kind[e as usize] {
            K::Read {
                loc, atomic, rmw, ..
            } => {
                let l = loc as usize;
                if atomic && p.wtaint[l] && p.active[l].is_some_and(|w| c.is_atomic_write(w)) {
                    p.taint[t] = true;
                }
                if !self.mark(p, e) {
                    return false;
                }
                if rmw {
                    return self.exec(p, e + 1);
                }
                true
            }
            K::Write { loc, .. } => {
                let ok = self.mark(p, e);
                let l = loc as usize;
                p.active[l] = Some(e);
                p.wtaint[l] = p.taint[t];
                ok
            }
            _ => unreachable!("only accesses are moves"),
        }
    }

    /// Executes every event touching no memory that po and sync allow; false if the
    /// goal fails.
    fn settle(&self, p: &mut Prefix) -> bool {
        let c = self.c;
        loop {
            let mut progress = false;
            for t in 0..c.k {
                while let Some(e) = self.next_of(p, t) {
                    if p.pos[t] == 0 && c.spawned[t] {
                        break; // started by its spawn
                    }
                    match c.kind[e as usize] {
                        K::Other => {
                            if !self.mark(p, e) {
                                return false;
                            }
                        }
                        K::Spawn { child } => {
                            if !self.mark(p, e) {
                                return false;
                            }
                            let ch = child as usize;
                            if c.len[ch] > 0 {
                                p.taint[ch] = p.taint[t];
                                if !self.mark(p, c.at(ch, 0)) {
                                    return false;
                                }
                            }
                        }
                        K::Join { child } => {
                            let ch = child as usize;
                            if p.pos[ch] < c.len[ch] {
                                break;
                            }
                            if p.taint[ch] {
                                p.taint[t] = true;
                            }
                            if !self.mark(p, e) {
                                return false;
                            }
                        }
                        _ => break,
                    }
                    progress = true;
                }
            }
            if !progress {
                return true;
            }
        }
    }
}
