//! Random PSO runs (tests only): random straight-line threads executed on a machine
//! with a store buffer per thread and location, scheduled at random — consistent
//! (events, po, rf) graphs of any size, beyond what brute force can check.

use crate::rf::Rng;
use porf_graph::MemOrder::{self, AcqRel, Acquire, NonAtomic, Relaxed, Release, SeqCst};
use porf_graph::{EventId, Graph, LabelKind, Loc, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind};
use std::collections::HashMap;

/// Shape of a run: threads besides main, memory events per thread, locations.
pub(super) struct Shape {
    pub threads: u32,
    pub events: u32,
    pub locs: u64,
}

/// The machine: buffers (store, location, store-store barriers before it), barrier
/// counts, memory and its order.
struct Machine {
    g: Graph,
    buf: Vec<Vec<(EventId, Loc, u32)>>,
    barriers: Vec<u32>,
    mem: HashMap<Loc, EventId>,
    order: HashMap<Loc, Vec<EventId>>,
}

impl Machine {
    fn add(&mut self, t: u32, kind: LabelKind) -> EventId {
        let e = self.g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = self.g.label(e).loc().filter(|_| self.g.label(e).is_write()) {
            let n = self.g.co(loc).len();
            self.g.co_insert(e, n + 1);
        }
        e
    }
    fn write_memory(&mut self, w: EventId, loc: Loc) {
        self.mem.insert(loc, w);
        self.order.entry(loc).or_default().push(w);
    }
    /// The entries of thread `t`'s buffers that may reach memory now.
    fn flushable(&self, t: usize) -> Vec<usize> {
        let b = &self.buf[t];
        (0..b.len())
            .filter(|&k| b[..k].iter().all(|e| e.1 != b[k].1 && e.2 >= b[k].2))
            .collect()
    }
    fn flush(&mut self, t: usize, k: usize) {
        let (w, loc, _) = self.buf[t].remove(k);
        self.write_memory(w, loc);
    }
    /// Thread `t` executes a random event; false if it must wait for its buffers.
    fn step(&mut self, rng: &mut Rng, t: usize, locs: &[Loc]) -> bool {
        let tid = t as u32;
        let loc = rng.pick(locs);
        let empty = self.buf[t].is_empty();
        match rng.below(8) {
            0..=2 => {
                let ord = rng.pick(&[Relaxed, Acquire, NonAtomic, SeqCst]);
                let own = self.buf[t].iter().rev().find(|x| x.1 == loc).map(|x| x.0);
                let rf = own.or_else(|| self.mem.get(&loc).copied());
                let kind = ReadKind::Plain;
                self.add(tid, read(loc, ord, kind, rf));
            }
            3..=5 => {
                let ord = rng.pick(&[Relaxed, Release, NonAtomic, SeqCst]);
                if ord == SeqCst && !empty {
                    return false;
                }
                let kind = WriteKind::Plain;
                let w = self.add(tid, write(loc, ord, kind));
                if ord == SeqCst {
                    self.write_memory(w, loc);
                } else {
                    self.barriers[t] += (ord == Release) as u32;
                    self.buf[t].push((w, loc, self.barriers[t]));
                }
            }
            6 => {
                let ord = rng.pick(&[Acquire, Release, AcqRel, SeqCst]);
                if ord == SeqCst && !empty {
                    return false;
                }
                self.barriers[t] += matches!(ord, Release | AcqRel) as u32;
                self.add(tid, LabelKind::Fence { ord });
            }
            _ => {
                if !empty {
                    return false;
                }
                let rf = self.mem.get(&loc).copied();
                let op = if rng.below(4) == 0 {
                    RmwOp::Cas {
                        expected: 1000,
                        new: 0,
                        fail_ord: Relaxed,
                    }
                } else {
                    RmwOp::Add(1, Wrap::NONE)
                };
                let ord = rng.pick(&[Relaxed, AcqRel, SeqCst]);
                let r = self.add(tid, read(loc, ord, ReadKind::Rmw(op), rf));
                if op.apply(self.g.read_val(r)).is_some() {
                    let w = self.add(tid, write(loc, ord, WriteKind::Exclusive));
                    self.write_memory(w, loc);
                }
            }
        }
        true
    }
}

fn read(loc: Loc, ord: MemOrder, kind: ReadKind, rf: Option<EventId>) -> LabelKind {
    LabelKind::Read {
        loc,
        bytes: 8,
        ord,
        kind,
        rf,
    }
}

fn write(loc: Loc, ord: MemOrder, kind: WriteKind) -> LabelKind {
    LabelKind::Write {
        loc,
        bytes: 8,
        ord,
        val: 1,
        kind,
    }
}

/// A random run: main spawns the threads, each runs `events` random memory events
/// (reads, writes, fences, fetch-adds and failing CASes of random orders) and
/// finishes; main joins them and reads every location. Stores reach memory at random
/// times, so every read sees what PSO allows. co is the order of memory.
pub(super) fn random_run(seed: u64, shape: &Shape) -> Graph {
    let mut rng = Rng::new(seed ^ 0x0b5e_55ed);
    let k = shape.threads as usize + 1;
    let mut m = Machine {
        g: Graph::new(),
        buf: vec![Vec::new(); k],
        barriers: vec![0; k],
        mem: HashMap::new(),
        order: HashMap::new(),
    };
    let locs: Vec<Loc> = (1..=shape.locs).map(Loc).collect();
    for &l in &locs {
        m.g.ensure_loc(l, 0, None);
    }
    m.add(0, LabelKind::Start { parent: None });
    for c in 1..k as u32 {
        let s = m.add(
            0,
            LabelKind::Spawn {
                child: c,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        m.add(c, LabelKind::Start { parent: Some(s) });
    }
    let mut left = vec![shape.events; k];
    left[0] = 0;
    let mut finished = vec![false; k];
    finished[0] = true;
    while finished.iter().any(|f| !f) || m.buf.iter().any(|b| !b.is_empty()) {
        let t = rng.below(k as u64) as usize;
        let flush = rng.below(3) == 0 || finished[t];
        if flush {
            let ks = m.flushable(t);
            if !ks.is_empty() {
                let i = rng.pick(&ks);
                m.flush(t, i);
            }
        } else if left[t] > 0 {
            if m.step(&mut rng, t, &locs) {
                left[t] -= 1;
            }
        } else if m.buf[t].is_empty() {
            m.add(t as u32, LabelKind::Finish { ret: 0 });
            finished[t] = true;
        }
    }
    for c in 1..k as u32 {
        m.add(0, LabelKind::Join { child: c });
    }
    for &l in &locs {
        let rf = m.mem.get(&l).copied();
        m.add(0, read(l, Relaxed, ReadKind::Plain, rf));
    }
    for (loc, order) in std::mem::take(&mut m.order) {
        m.g.set_co(loc, order);
    }
    m.g
}

/// `g` with one random read (not an RMW's) reading another write of its location or
/// the initialisation instead.
pub(super) fn redirect_one_read(seed: u64, g: &Graph) -> Graph {
    let mut rng = Rng::new(seed ^ 0x4ed1_7ec7);
    let reads: Vec<EventId> = g
        .events()
        .filter(|(_, l)| l.read_kind() == Some(ReadKind::Plain))
        .map(|(e, _)| e)
        .collect();
    let mut g = g.clone();
    let r = rng.pick(&reads);
    let loc = g.label(r).loc().unwrap();
    let ws = g.co(loc).to_vec();
    let i = rng.below(ws.len() as u64 + 1) as usize;
    g.set_rf(r, (i > 0).then(|| ws[i - 1]));
    g
}
