//! Alg. 1 of "Stateless Model Checking under a Reads-Value-From Equivalence" (the
//! search over witness prefixes) for fixed sources, with the greedy moves of its §4.2,
//! restricted to the events that are minimal in the closure `P`.
//!
//! A *witness prefix* is a trace of a `P`-downward-closed set of events in which every
//! executed read saw its source, and every unexecuted read whose source is executed
//! can still see it: that source is the *active* (latest) write of its location. Its
//! *state* is (executed events, active write per location); two prefixes with one
//! state extend to witnesses alike (the paper's completeness argument), so each state
//! is expanded once. As `P` contains po, the executed events are one prefix length per
//! thread, and the state is `k + d` numbers for `k` threads and `d` locations — at most
//! `n^k · (n + 1)^d` states, and in fact `n^k · (k + 1)^d` (the active write of a
//! location is the po-last executed write of that location in some thread, or the
//! initialisation): the paper's `O(n^{k+1} · k^{d+1})` bound.
//!
//! Moves from a prefix (an event `e`, `P`-minimal among the unexecuted ones):
//! * a read is executable iff the active write of its location is its source; an RMW
//!   read part only together with its write part (the pair is executed as one move),
//!   so also only if no other unexecuted read must see that source;
//! * a write is executable iff its location is not *held*: no unexecuted read must see
//!   the active write (with fixed sources such a read would otherwise be lost);
//! * any other event is always executable.
//!
//! Greedy moves (taken alone, without branching), each complete because the move can
//! be hoisted to the front of any witness continuing the prefix without changing what
//! any read sees: a non-memory event; an executable read (or RMW pair); an executable
//! write that no read must see. Only writes that some read must see are branched on.

use super::closure::Order;
use super::instance::{Ev, Id, Instance};
use std::collections::HashSet;

/// What the search did, for measurements.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    /// Distinct witness states reached.
    pub states: usize,
}

/// A witness trace of `inst` respecting `p` (dense ids, every event once), if any.
pub(super) fn search(inst: &Instance, p: &Order, stats: &mut SearchStats) -> Option<Vec<Id>> {
    let mut path = Vec::new();
    // Node → (parent, its moves: `path[start..end]`).
    let mut nodes: Vec<(usize, usize, usize)> = Vec::new();
    let mut done: HashSet<Vec<u32>> = HashSet::new();
    let mut stack: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut root = Prefix {
        inst,
        p,
        state: vec![0; inst.k() + inst.locs.len()],
    };
    root.run_greedy(&mut path);
    nodes.push((usize::MAX, 0, path.len()));
    if root.complete() {
        return Some(path);
    }
    done.insert(root.state.clone());
    stack.push((0, root.state));
    let mut moves = Vec::new();
    while let Some((node, state)) = stack.pop() {
        let here = Prefix { inst, p, state };
        let branches = here.branches();
        for &w in branches.iter().rev() {
            let mut next = Prefix {
                inst,
                p,
                state: here.state.clone(),
            };
            moves.clear();
            next.apply(w, &mut moves);
            next.run_greedy(&mut moves);
            if next.complete() || !done.contains(&next.state) {
                let start = path.len();
                path.extend_from_slice(&moves);
                nodes.push((node, start, path.len()));
                if next.complete() {
                    stats.states = done.len() + 1;
                    return Some(trace(&nodes, &path));
                }
                done.insert(next.state.clone());
                stack.push((nodes.len() - 1, next.state));
            }
        }
    }
    stats.states = done.len();
    None
}

/// The moves from the root to the last node, in order.
fn trace(nodes: &[(usize, usize, usize)], path: &[Id]) -> Vec<Id> {
    let mut segments = Vec::new();
    let mut n = nodes.len() - 1;
    loop {
        let (parent, start, end) = nodes[n];
        segments.push(&path[start..end]);
        if parent == usize::MAX {
            break;
        }
        n = parent;
    }
    segments.into_iter().rev().flatten().copied().collect()
}

/// A witness prefix, by its state: `state[..k]` the executed prefix length per thread,
/// `state[k + l]` the active write of location `l` (0 = the initialisation, `w + 1` =
/// write `w`).
struct Prefix<'a> {
    inst: &'a Instance,
    p: &'a Order,
    state: Vec<u32>,
}

impl Prefix<'_> {
    fn k(&self) -> usize {
        self.inst.k()
    }
    fn executed(&self, e: Id) -> bool {
        let ev = self.inst.events[e as usize];
        ev.idx < self.state[ev.tid as usize]
    }
    fn complete(&self) -> bool {
        self.state[..self.k()] == self.inst.len[..]
    }
    fn active(&self, loc: u32) -> Option<Id> {
        self.state[self.k() + loc as usize].checked_sub(1)
    }
    /// The next event of thread `t`, if `P`-minimal among the unexecuted events.
    fn next(&self, t: usize) -> Option<Id> {
        let i = self.state[t];
        (i < self.inst.len[t])
            .then(|| self.inst.at(t, i))
            .filter(|&e| self.ready(e))
    }
    /// Every `P`-predecessor of `e` outside its own thread is executed.
    fn ready(&self, e: Id) -> bool {
        let own = self.inst.events[e as usize].tid as usize;
        let clock = self.p.clock(e);
        (0..self.k()).all(|t| t == own || clock[t] <= self.state[t])
    }
    /// Some unexecuted read other than `except` must see the active write of `loc`.
    fn held(&self, loc: u32, except: Option<Id>) -> bool {
        self.inst
            .readers_of(loc, self.active(loc))
            .iter()
            .any(|&r| Some(r) != except && !self.executed(r))
    }
    /// Whether `e` (ready) is executable, and whether taking it greedily is complete.
    fn classify(&self, e: Id) -> Option<Greedy> {
        match &self.inst.ev[e as usize] {
            Ev::Other => Some(Greedy::Yes),
            Ev::Read { loc, src, rmw } => {
                if self.active(*loc) != *src {
                    return None;
                }
                // The write part must be ready right after `e`, its location unheld.
                let pair_ok = !rmw || (self.ready(e + 1) && !self.held(*loc, Some(e)));
                pair_ok.then_some(Greedy::Yes)
            }
            Ev::Write {
                loc,
                exclusive,
                readers,
            } => {
                debug_assert!(!exclusive, "a write part is executed with its read part");
                if self.held(*loc, None) {
                    None
                } else if readers.is_empty() {
                    Some(Greedy::Yes)
                } else {
                    Some(Greedy::No)
                }
            }
        }
    }
    /// Executes `e` (and the write part of an RMW read part), recording the events.
    fn apply(&mut self, e: Id, moves: &mut Vec<Id>) {
        let k = self.k();
        let mut one = |s: &mut Vec<u32>, e: Id| {
            let ev = self.inst.events[e as usize];
            s[ev.tid as usize] += 1;
            if let Ev::Write { loc, .. } = self.inst.ev[e as usize] {
                s[k + loc as usize] = e + 1;
            }
            moves.push(e);
        };
        one(&mut self.state, e);
        if let Ev::Read { rmw: true, .. } = self.inst.ev[e as usize] {
            one(&mut self.state, e + 1);
        }
    }
    /// Takes greedy moves until there is none.
    fn run_greedy(&mut self, moves: &mut Vec<Id>) {
        'outer: loop {
            for t in 0..self.k() {
                if let Some(e) = self.next(t) {
                    if self.classify(e) == Some(Greedy::Yes) {
                        self.apply(e, moves);
                        continue 'outer;
                    }
                }
            }
            return;
        }
    }
    /// The executable moves that are not greedy (writes some read must see).
    fn branches(&self) -> Vec<Id> {
        (0..self.k())
            .filter_map(|t| self.next(t))
            .filter(|&e| self.classify(e) == Some(Greedy::No))
            .collect()
    }
}

/// Whether an executable move may be taken without considering the others.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Greedy {
    Yes,
    No,
}
