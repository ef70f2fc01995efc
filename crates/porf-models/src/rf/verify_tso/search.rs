//! Algorithm 1 (VerifyTSO) of "The Reads-From Equivalence for the TSO and PSO Memory
//! Models": enumerate the lower sets of the memory events (a vector of per-thread FIFO
//! prefixes), keeping for each the trace that has executed every thread event it can.
//!
//! A trace here is a [`State`]: per thread, how many thread events and how many memory
//! events ran; per location, the last memory event (`None`: the initialisation) and the
//! RMW write part it is reserved for, if any; and the memory events in order.
//!
//! Executability (§4.1, adapted to porf's events):
//! * every node needs its predecessors in the ordering constraints ([`Needs`]: the
//!   instance's base constraints, or the closure) to have run. For a read of another
//!   thread's write this includes that write's memory event; for a memory event whose
//!   write is read by another thread, the memory events of that thread's earlier
//!   writes to the location (condition 2b); for a barrier, the memory events of its
//!   thread's earlier writes;
//! * a memory event of location `x` also needs `x` not to be *held* (condition 2a): the
//!   last memory event of `x` has no reader still to run, and `x` is not reserved for
//!   another RMW's write part (an RMW whose read part ran reserves `x` until its write
//!   part reaches memory, so no write of `x` comes between them).
//!
//! Invariant (soundness): every read that has run read from its rf source — a read runs
//! only after its remote source's memory event, and from then until the read runs the
//! source is held; a read of its own thread's write reads the buffer, or memory that is
//! held. Completeness is the paper's maximality argument: thread events are executable
//! as soon as their constraints allow, which is monotone in the executed events, so the
//! saturated trace of a lower set contains the thread events of every witness prefix
//! with the same memory events.

use super::instance::{Instance, Nodes, WriteId};
use porf_graph::EventId;
use std::collections::HashSet;

/// Per node, what must have run before it: `(slot, count)` pairs, meaning the progress
/// counter `slot` is at least `count`.
pub(super) struct Needs(Vec<Vec<(usize, u32)>>);

impl Needs {
    /// The needs of the ordering constraints `pairs` (`(a, b)`: `a` before `b`). Pairs
    /// within one slot are left out: a slot's nodes run in order anyway.
    pub fn new(nodes: &Nodes, pairs: impl IntoIterator<Item = (usize, usize)>) -> Needs {
        let mut needs: Vec<Vec<(usize, u32)>> = vec![Vec::new(); nodes.len()];
        for (a, b) in pairs {
            let (sa, ca) = nodes.slot(a);
            if sa == nodes.slot(b).0 {
                continue;
            }
            let nb = &mut needs[b];
            match nb.iter_mut().find(|(s, _)| *s == sa) {
                Some((_, c)) => *c = (*c).max(ca),
                None => nb.push((sa, ca)),
            }
        }
        Needs(needs)
    }
}

#[derive(Clone)]
struct State {
    /// Progress counters: `prog[t]` thread events and `prog[k + t]` memory events of
    /// thread `t` have run.
    prog: Vec<u32>,
    /// Per location: the last memory event (`None`: the initialisation).
    last: Vec<Option<WriteId>>,
    /// Per location: the RMW write part it is reserved for.
    reserved: Vec<Option<WriteId>>,
    /// The memory events so far, in order.
    trace: Vec<WriteId>,
}

/// The result of a search.
pub(super) struct Outcome {
    /// The memory events of a witness trace, in order.
    pub trace: Option<Vec<WriteId>>,
    /// Traces taken from the worklist (lower sets of memory events explored).
    pub states: usize,
}

struct Search<'a> {
    inst: &'a Instance,
    needs: &'a Needs,
    k: usize,
}

/// Runs VerifyTSO on `inst` under the ordering constraints `needs`.
pub(super) fn run(inst: &Instance, needs: &Needs) -> Outcome {
    let k = inst.nodes.threads();
    let s = Search { inst, needs, k };
    let start = State {
        prog: vec![0; 2 * k],
        last: vec![None; inst.locs.len()],
        reserved: vec![None; inst.locs.len()],
        trace: Vec::new(),
    };
    let mut done: HashSet<Vec<u32>> = HashSet::new();
    done.insert(start.prog[k..].to_vec());
    let mut work = vec![start];
    let mut states = 0;
    while let Some(mut st) = work.pop() {
        states += 1;
        s.saturate(&mut st);
        if s.complete(&st) {
            return Outcome {
                trace: Some(st.trace),
                states,
            };
        }
        for t in 0..k {
            let nth = st.prog[k + t] as usize;
            let Some(&w) = inst.thread_writes[t].get(nth) else {
                continue;
            };
            if !s.ready(&st, inst.writes[w].memory) || s.held(&st, w) {
                continue;
            }
            let mut next = st.clone();
            s.flush(&mut next, t, w);
            if done.insert(next.prog[k..].to_vec()) {
                work.push(next);
            }
        }
    }
    Outcome {
        trace: None,
        states,
    }
}

impl Search<'_> {
    fn ready(&self, st: &State, v: usize) -> bool {
        self.needs.0[v].iter().all(|&(s, c)| st.prog[s] >= c)
    }
    fn has_run(&self, st: &State, e: EventId) -> bool {
        st.prog[e.tid as usize] > e.idx
    }
    /// Whether `w`'s location is held against `w`'s memory event.
    fn held(&self, st: &State, w: WriteId) -> bool {
        let x = self.inst.writes[w].loc;
        if st.reserved[x].is_some_and(|r| r != w) {
            return true;
        }
        let readers = match st.last[x] {
            None => &self.inst.init_readers[x],
            Some(l) => &self.inst.writes[l].readers,
        };
        readers.iter().any(|&r| !self.has_run(st, r))
    }
    /// Runs executable thread events until none is left (Alg. 1, line 4).
    fn saturate(&self, st: &mut State) {
        loop {
            let mut progressed = false;
            for t in 0..self.k {
                while st.prog[t] < self.inst.thread_len[t] {
                    let v = self.inst.nodes.thread(EventId::new(t as u32, st.prog[t]));
                    if !self.ready(st, v) {
                        break;
                    }
                    if let Some((x, wp)) = self.inst.reserves[v] {
                        // Another RMW's read part would have read the same write,
                        // which `instance::build` rules out.
                        debug_assert!(st.reserved[x].is_none());
                        st.reserved[x] = Some(wp);
                    }
                    st.prog[t] += 1;
                    progressed = true;
                }
            }
            if !progressed {
                return;
            }
        }
    }
    /// Runs the memory event of write `w`, the next in thread `t`'s buffer.
    fn flush(&self, st: &mut State, t: usize, w: WriteId) {
        let x = self.inst.writes[w].loc;
        st.prog[self.k + t] += 1;
        st.last[x] = Some(w);
        if st.reserved[x] == Some(w) {
            st.reserved[x] = None;
        }
        st.trace.push(w);
    }
    fn complete(&self, st: &State) -> bool {
        (0..self.k).all(|t| {
            st.prog[t] == self.inst.thread_len[t]
                && st.prog[self.k + t] as usize == self.inst.thread_writes[t].len()
        })
    }
}
