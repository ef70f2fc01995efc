//! A porf graph as an instance (X, RF) of VerifyPSO: the thread events ("steps") of
//! every thread, the two-phase writes and the reads, with the C11 mapping of
//! [`crate::pso`] (the same [`class`] decides both).
//!
//! * A plain or release store is a buffer-write step; its memory-write is the flush the
//!   search schedules. A release store (or fence) is a store-store barrier: every write
//!   carries the number of barriers its thread executed before it (a release store
//!   counts its own), and a write may not be flushed while an earlier write of its
//!   thread with fewer barriers, or of its location, is still buffered.
//! * A full fence — a seq_cst fence or a thread-structure event — drains its thread's
//!   buffers. A *locked* step (both parts of an RMW, a failed CAS or a lock read alone,
//!   a seq_cst store) drains them too and then reads and writes memory atomically: its
//!   write never sits in a buffer.
//! * Thread creation and join are waits across threads: a child's first step waits
//!   for the spawn, a join for every step of the child.
//!
//! Reads that no PSO trace can realise whatever the rest does are rejected here (the
//! paper's "wlog" assumption): a read of the initialisation after a write of its own
//! thread to the location, and a read of its own thread's write that is not the last
//! one before it.

use crate::pso::{class, Class};
use porf_graph::{EventId, Graph, LabelKind, Loc};
use std::collections::HashMap;

/// Index into [`Instance::writes`].
pub(super) type WriteId = usize;
/// Index into [`Instance::reads`].
pub(super) type ReadId = usize;

/// Where a read reads from.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Src {
    Init,
    Write(WriteId),
}

/// A two-phase write (for a locked step, both phases are the step).
pub(super) struct Write {
    pub ev: EventId,
    pub thread: usize,
    /// Index of the step that performs it (its buffer-write) in its thread.
    pub step: u32,
    pub loc: usize,
    /// Written to memory by a locked step, never buffered.
    pub locked: bool,
    /// Store-store barriers its thread executed before it (a release store's included).
    pub barriers: u32,
}

pub(super) struct Read {
    pub thread: usize,
    pub step: u32,
    pub loc: usize,
    pub src: Src,
    /// The last write of its own thread to its location before it.
    pub own_before: Option<WriteId>,
    /// For the read part of an RMW, its write part.
    pub rmw_write: Option<WriteId>,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum StepKind {
    /// An acquire fence: no effect.
    Nop,
    /// A release or acq_rel fence (its effect is in the barrier counts of writes).
    StoreBarrier,
    /// Drains the thread's buffers.
    Fence,
    /// A buffer-write.
    Write(WriteId),
    /// A plain read: from its own thread's buffer, else memory.
    Read(ReadId),
    /// Drains the buffers, then reads and/or writes memory in one step.
    Locked {
        read: Option<ReadId>,
        write: Option<WriteId>,
    },
}

/// What a step waits for in other threads.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Wait {
    None,
    /// A child's start: its parent's spawn event.
    Spawn(EventId),
    /// A join: every step of the child.
    Thread(usize),
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Step {
    pub kind: StepKind,
    pub wait: Wait,
}

pub(super) struct Instance {
    pub locs: Vec<Loc>,
    pub steps: Vec<Vec<Step>>,
    pub writes: Vec<Write>,
    pub reads: Vec<Read>,
    /// Per write: its readers.
    pub readers: Vec<Vec<ReadId>>,
    /// Per location: the readers of its initialisation.
    pub init_readers: Vec<Vec<ReadId>>,
    /// Per thread: its buffered (not locked) writes, in po order.
    pub buffered: Vec<Vec<WriteId>>,
    /// Per thread, per event index: the step containing the event.
    pub step_of: Vec<Vec<u32>>,
    /// Per thread: store-store barriers after each number of executed steps
    /// (`barriers_after[t][k]` for the first `k` steps).
    pub barriers_after: Vec<Vec<u32>>,
}

impl Instance {
    /// The instance of `g`, or `None` if a read is unrealisable on its own (see the
    /// module documentation).
    pub fn new(g: &Graph) -> Option<Instance> {
        let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
        locs.sort();
        let mut b = Builder {
            inst: Instance {
                locs,
                steps: Vec::new(),
                writes: Vec::new(),
                reads: Vec::new(),
                readers: Vec::new(),
                init_readers: Vec::new(),
                buffered: Vec::new(),
                step_of: Vec::new(),
                barriers_after: Vec::new(),
            },
            write_of: HashMap::new(),
            rfs: Vec::new(),
        };
        b.inst.init_readers = vec![Vec::new(); b.inst.locs.len()];
        for t in 0..g.num_threads() {
            b.thread(g, t);
        }
        b.resolve_rf()
    }

    /// The readers of `src`.
    pub fn readers_of(&self, src: Src, loc: usize) -> &[ReadId] {
        match src {
            Src::Init => &self.init_readers[loc],
            Src::Write(w) => &self.readers[w],
        }
    }

    pub fn threads(&self) -> usize {
        self.steps.len()
    }

    /// Number of events (the paper's n: porf events, both parts of an RMW counted).
    pub fn events(&self) -> usize {
        self.step_of.iter().map(Vec::len).sum()
    }
}

/// Builds an [`Instance`] thread by thread.
struct Builder {
    inst: Instance,
    write_of: HashMap<EventId, WriteId>,
    /// Every read with the write it reads from, resolved once all writes have ids.
    rfs: Vec<(ReadId, Option<EventId>)>,
}

impl Builder {
    fn loc(&self, g: &Graph, e: EventId) -> usize {
        let l = g.label(e).loc().expect("an access");
        self.inst.locs.binary_search(&l).unwrap()
    }

    fn write(&mut self, g: &Graph, ev: EventId, step: u32, locked: bool, barriers: u32) -> WriteId {
        let w = self.inst.writes.len();
        self.inst.writes.push(Write {
            ev,
            thread: ev.tid as usize,
            step,
            loc: self.loc(g, ev),
            locked,
            barriers,
        });
        self.inst.readers.push(Vec::new());
        self.write_of.insert(ev, w);
        w
    }

    fn read(&mut self, g: &Graph, ev: EventId, step: u32, last: &[Option<WriteId>]) -> ReadId {
        let loc = self.loc(g, ev);
        let r = self.inst.reads.len();
        self.inst.reads.push(Read {
            thread: ev.tid as usize,
            step,
            loc,
            src: Src::Init,
            own_before: last[loc],
            rmw_write: None,
        });
        self.rfs.push((r, g.label(ev).rf()));
        r
    }

    /// The steps of thread `t`.
    fn thread(&mut self, g: &Graph, t: u32) {
        let labs = g.thread(t);
        let (mut steps, mut step_of, mut buffered) = (Vec::new(), Vec::new(), Vec::new());
        let mut barriers = 0;
        let mut barriers_after = vec![0];
        let mut last: Vec<Option<WriteId>> = vec![None; self.inst.locs.len()];
        let mut i = 0;
        while i < labs.len() {
            let e = EventId::new(t, i as u32);
            let step = steps.len() as u32;
            step_of.push(step);
            let lab = &labs[i];
            let wait = match lab.kind {
                LabelKind::Start { parent: Some(p) } => Wait::Spawn(p),
                LabelKind::Join { child } => Wait::Thread(child as usize),
                _ => Wait::None,
            };
            let kind = match class(lab) {
                Class::Skip => StepKind::Nop,
                Class::StoreFence => {
                    barriers += 1;
                    StepKind::StoreBarrier
                }
                Class::Read => StepKind::Read(self.read(g, e, step, &last)),
                c @ (Class::Write | Class::RelWrite) => {
                    if c == Class::RelWrite {
                        barriers += 1;
                    }
                    let w = self.write(g, e, step, false, barriers);
                    last[self.inst.writes[w].loc] = Some(w);
                    buffered.push(w);
                    StepKind::Write(w)
                }
                Class::Barrier if lab.is_exclusive_read() => {
                    let r = self.read(g, e, step, &last);
                    let n = e.next();
                    let write = (g.contains(n) && g.label(n).is_exclusive_write()).then(|| {
                        i += 1;
                        step_of.push(step);
                        let w = self.write(g, n, step, true, barriers);
                        last[self.inst.writes[w].loc] = Some(w);
                        w
                    });
                    self.inst.reads[r].rmw_write = write;
                    StepKind::Locked {
                        read: Some(r),
                        write,
                    }
                }
                Class::Barrier if lab.is_write() => {
                    assert!(
                        !lab.is_exclusive_write(),
                        "exclusive write without its read"
                    );
                    let w = self.write(g, e, step, true, barriers);
                    last[self.inst.writes[w].loc] = Some(w);
                    StepKind::Locked {
                        read: None,
                        write: Some(w),
                    }
                }
                Class::Barrier => StepKind::Fence,
            };
            steps.push(Step { kind, wait });
            barriers_after.push(barriers);
            i += 1;
        }
        self.inst.steps.push(steps);
        self.inst.step_of.push(step_of);
        self.inst.buffered.push(buffered);
        self.inst.barriers_after.push(barriers_after);
    }

    /// Resolves every read's source; `None` if a read is unrealisable on its own.
    fn resolve_rf(mut self) -> Option<Instance> {
        let inst = &mut self.inst;
        for &(r, rf) in &self.rfs {
            let read = &mut inst.reads[r];
            read.src = match rf {
                None => Src::Init,
                Some(w) => Src::Write(self.write_of[&w]),
            };
            match read.src {
                Src::Init if read.own_before.is_some() => return None,
                Src::Init => inst.init_readers[read.loc].push(r),
                Src::Write(w) => {
                    if inst.writes[w].thread == read.thread && read.own_before != Some(w) {
                        return None;
                    }
                    inst.readers[w].push(r);
                }
            }
        }
        Some(self.inst)
    }
}
