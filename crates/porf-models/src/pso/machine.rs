//! An operational store-buffer machine (tests only), the operational definition of
//! "The Reads-From Equivalence for the TSO and PSO Memory Models" (Bui et al., OOPSLA
//! 2021, §2.1): it runs a straight-line test program of [`testkit`] in every possible
//! way and collects the (rf, co) of every complete run, the executions the axiomatic
//! models must allow — no more, no fewer.
//!
//! A store enters its thread's buffer; a flush moves the oldest store of a buffer to
//! memory (appending it to the location's co); a read takes the newest store of its
//! location in its own buffer, else memory. With [`Buffers::PerThread`] each thread has
//! one FIFO buffer (TSO); with [`Buffers::PerLocation`] one per location (PSO), and a
//! release store or release fence is a store-store barrier: a store may not be flushed
//! while an older store of its thread from before a barrier is still buffered. Full
//! fences (seq_cst fences, `Finish`, `Join`), seq_cst stores and RMWs wait until their
//! thread's buffers are empty; seq_cst stores and RMWs then access memory directly,
//! an RMW's read and write in one step.

use crate::relation::testkit::{self, Prog, Step};
use crate::rf::CoWitness;
use crate::MemoryModel;
use porf_graph::{EventId, Loc, MemOrder, WriteKind};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The store buffers of the machine.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Buffers {
    /// One FIFO buffer per thread (TSO).
    PerThread,
    /// One FIFO buffer per thread and location (PSO).
    PerLocation,
}

/// A buffered store: its event, location and the number of store-store barriers its
/// thread had executed before it.
type Entry = (EventId, Loc, u32);

/// The reads-from of a run, read by read.
type Rf = Vec<(EventId, Option<EventId>)>;

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    pc: Vec<usize>,
    buf: Vec<Vec<Entry>>,
    barriers: Vec<u32>,
    mem: BTreeMap<Loc, EventId>,
    co: BTreeMap<Loc, Vec<EventId>>,
    rf: BTreeMap<EventId, Option<EventId>>,
}

struct Machine {
    buffers: Buffers,
    steps: Vec<Vec<Step>>,
    ids: Vec<Vec<EventId>>,
    seen: HashSet<State>,
    /// Final (rf, co) of every complete run.
    done: BTreeSet<(Rf, CoWitness)>,
}

impl Machine {
    /// Indices of the entries of thread `t`'s buffers that may be flushed now.
    fn flushable(&self, s: &State, t: usize) -> Vec<usize> {
        let b = &s.buf[t];
        (0..b.len())
            .filter(|&k| match self.buffers {
                Buffers::PerThread => k == 0,
                Buffers::PerLocation => b[..k].iter().all(|e| e.1 != b[k].1 && e.2 >= b[k].2),
            })
            .collect()
    }

    fn run(&mut self, s: State) {
        if !self.seen.insert(s.clone()) {
            return;
        }
        let mut finished = true;
        for t in 0..s.pc.len() {
            for k in self.flushable(&s, t) {
                finished = false;
                let mut n = s.clone();
                let (w, loc, _) = n.buf[t].remove(k);
                n.mem.insert(loc, w);
                n.co.entry(loc).or_default().push(w);
                self.run(n);
            }
            if let Some(&step) = self.steps[t].get(s.pc[t]) {
                finished = false;
                if let Some(n) = self.step(&s, t, step) {
                    self.run(n);
                }
            }
        }
        if finished {
            let rf = s.rf.into_iter().collect();
            self.done.insert((rf, s.co.into_iter().collect()));
        }
    }

    /// Thread `t` performing `step`, if it can now.
    fn step(&self, s: &State, t: usize, step: Step) -> Option<State> {
        let e = self.ids[t][s.pc[t]];
        let empty = s.buf[t].is_empty();
        let mut n = s.clone();
        n.pc[t] += 1;
        match step {
            Step::Join(c) if s.pc[c as usize] < self.steps[c as usize].len() => return None,
            Step::Join(_) | Step::Finish if !empty => return None,
            Step::Join(_) | Step::Finish => {}
            Step::Fence(MemOrder::SeqCst) if !empty => return None,
            Step::Fence(ord) if ord.is_release() && ord != MemOrder::SeqCst => {
                n.barriers[t] += 1;
            }
            Step::Fence(_) => {}
            Step::Read(loc, _, kind) if kind.is_exclusive() => {
                if !empty {
                    return None;
                }
                n.rf.insert(e, s.mem.get(&loc).copied());
                let w = self.ids[t][s.pc[t] + 1];
                n.pc[t] += 1;
                n.mem.insert(loc, w);
                n.co.entry(loc).or_default().push(w);
            }
            Step::Read(loc, _, _) => {
                let own = s.buf[t].iter().rev().find(|x| x.1 == loc).map(|x| x.0);
                n.rf.insert(e, own.or_else(|| s.mem.get(&loc).copied()));
            }
            Step::Write(_, _, WriteKind::Exclusive) => unreachable!("RMW write part"),
            Step::Write(loc, MemOrder::SeqCst, _) => {
                if !empty {
                    return None;
                }
                n.mem.insert(loc, e);
                n.co.entry(loc).or_default().push(e);
            }
            Step::Write(loc, ord, _) => {
                if ord.is_release() {
                    n.barriers[t] += 1;
                }
                n.buf[t].push((e, loc, n.barriers[t]));
            }
        }
        Some(n)
    }
}

/// The executions of `p` on the machine, as [`testkit::signature`]s of the graphs
/// (built for model `m`, which only fills in hb views).
pub(crate) fn executions(m: &dyn MemoryModel, p: &Prog, buffers: Buffers) -> BTreeSet<String> {
    let (g, ids) = testkit::skeleton(m, p);
    let steps = testkit::steps(p);
    let k = steps.len();
    let mut machine = Machine {
        buffers,
        steps,
        ids,
        seen: HashSet::new(),
        done: BTreeSet::new(),
    };
    machine.run(State {
        pc: vec![0; k],
        buf: vec![Vec::new(); k],
        barriers: vec![0; k],
        mem: BTreeMap::new(),
        co: BTreeMap::new(),
        rf: BTreeMap::new(),
    });
    machine
        .done
        .iter()
        .map(|(rf, co)| {
            let mut g = g.clone();
            for &(r, w) in rf {
                g.set_rf(r, w);
            }
            crate::rf::install(&mut g, co);
            testkit::signature(&g)
        })
        .collect()
}
