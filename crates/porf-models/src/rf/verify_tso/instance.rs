//! A porf graph as an instance (X, RF) of the reads-from verification problem for TSO:
//! the nodes (thread events and memory events) and the ordering constraints every
//! witness trace must respect.
//!
//! Nodes are numbered densely ([`Nodes`]): first the thread events of every thread in
//! po order (one per porf event: the buffer event of a write, the read, the fence, …),
//! then the memory events of every thread in FIFO (= po) order (one per porf write).
//! A search tracks, per thread `t`, two counters ("progress slots"): thread events
//! executed (slot `t`) and memory events executed (slot `k + t`, `k` threads); a node is
//! executed iff its slot's counter exceeds its index.
//!
//! [`build`] rejects at once (returns `None`) the graphs no TSO trace can realise for
//! reasons local to one thread or one RMW: a read of its own thread's write that is not
//! the po-latest one of its location before it, a read of the initialisation after its
//! own thread wrote the location, two RMW write parts reading the same write.

use crate::tso::{class, Class};
use porf_graph::{EventId, Graph, LabelKind, Loc, Tid};
use std::collections::HashMap;

/// Index of a write in [`Instance::writes`].
pub(super) type WriteId = usize;

/// Dense numbering of the nodes, and their progress slots.
pub(super) struct Nodes {
    thread_off: Vec<usize>,
    mem_off: Vec<usize>,
    /// Per node: its progress slot and the slot's counter once it is executed.
    pos: Vec<(usize, u32)>,
}

impl Nodes {
    fn new(thread_len: &[u32], thread_writes: &[Vec<WriteId>]) -> Nodes {
        let k = thread_len.len();
        let mut n = Nodes {
            thread_off: Vec::with_capacity(k),
            mem_off: Vec::with_capacity(k),
            pos: Vec::new(),
        };
        for (t, &len) in thread_len.iter().enumerate() {
            n.thread_off.push(n.pos.len());
            n.pos.extend((1..=len).map(|c| (t, c)));
        }
        for (t, ws) in thread_writes.iter().enumerate() {
            n.mem_off.push(n.pos.len());
            n.pos.extend((1..=ws.len() as u32).map(|c| (k + t, c)));
        }
        n
    }
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.pos.len()
    }
    /// Number of threads (slots are `0..2k`).
    pub fn threads(&self) -> usize {
        self.thread_off.len()
    }
    /// The thread event of porf event `e`.
    pub fn thread(&self, e: EventId) -> usize {
        self.thread_off[e.tid as usize] + e.idx as usize
    }
    /// The memory event of the `nth` write of thread `t`.
    pub fn memory(&self, t: Tid, nth: usize) -> usize {
        self.mem_off[t as usize] + nth
    }
    /// Node `v`'s progress slot, and the slot's counter once `v` is executed.
    pub fn slot(&self, v: usize) -> (usize, u32) {
        self.pos[v]
    }
}

/// A porf write: its buffer event is the thread event of `event`, its memory event the
/// node `memory`.
pub(super) struct Write {
    pub event: EventId,
    pub loc: usize,
    pub memory: usize,
    /// The reads that read from it.
    pub readers: Vec<EventId>,
}

/// A porf read (plain, or the read part of an RMW, lock or trylock).
pub(super) struct Read {
    pub node: usize,
    pub loc: usize,
    /// The write it reads from (`None`: the initialisation).
    pub src: Option<WriteId>,
    /// The RMW's write part, if it has one.
    pub write_part: Option<WriteId>,
}

/// The instance. Invariant: every pair in `base` holds in every witness trace.
pub(super) struct Instance {
    pub nodes: Nodes,
    /// Per thread: its number of thread events (= porf events).
    pub thread_len: Vec<u32>,
    /// Per thread: its writes in po order, which is the FIFO order of the buffer.
    pub thread_writes: Vec<Vec<WriteId>>,
    pub writes: Vec<Write>,
    pub reads: Vec<Read>,
    /// Dense location index → location.
    pub locs: Vec<Loc>,
    /// Per location: the reads of the initialisation.
    pub init_readers: Vec<Vec<EventId>>,
    /// Per location: its writes.
    pub loc_writes: Vec<Vec<WriteId>>,
    /// Per thread node: the RMW read it is, as (location, write part); executing it
    /// reserves the location for that write part's memory event (atomicity).
    pub reserves: Vec<Option<(usize, WriteId)>>,
    /// Ordering constraints `(a, b)`: `a` precedes `b` in every witness trace.
    pub base: Vec<(usize, usize)>,
}

/// Builds the instance of `g`, or `None` if a local check already rules it out.
pub(super) fn build(g: &Graph) -> Option<Instance> {
    let k = g.num_threads() as usize;
    let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
    locs.sort();
    let loc_ix: HashMap<Loc, usize> = locs.iter().enumerate().map(|(i, l)| (*l, i)).collect();
    let thread_len: Vec<u32> = (0..k as Tid).map(|t| g.thread_len(t)).collect();

    let mut writes = Vec::new();
    let mut write_id = HashMap::new();
    let mut thread_writes = vec![Vec::new(); k];
    let mut loc_writes = vec![Vec::new(); locs.len()];
    for (e, lab) in g.events() {
        if let LabelKind::Write { loc, .. } = lab.kind {
            let id = writes.len();
            write_id.insert(e, id);
            thread_writes[e.tid as usize].push(id);
            loc_writes[loc_ix[&loc]].push(id);
            writes.push(Write {
                event: e,
                loc: loc_ix[&loc],
                memory: usize::MAX,
                readers: Vec::new(),
            });
        }
    }
    let nodes = Nodes::new(&thread_len, &thread_writes);
    for (t, ws) in thread_writes.iter().enumerate() {
        for (nth, &w) in ws.iter().enumerate() {
            writes[w].memory = nodes.memory(t as Tid, nth);
        }
    }

    let thread_nodes = thread_len.iter().map(|&l| l as usize).sum();
    let mut inst = Instance {
        reserves: vec![None; thread_nodes],
        nodes,
        thread_len,
        thread_writes,
        writes,
        reads: Vec::new(),
        init_readers: vec![Vec::new(); locs.len()],
        locs,
        loc_writes,
        base: Vec::new(),
    };
    for t in 0..k as Tid {
        thread_constraints(g, &mut inst, t, &loc_ix, &write_id)?;
    }
    // Atomicity: no two RMW write parts read from the same write.
    let mut taken = std::collections::HashSet::new();
    for r in inst.reads.iter().filter(|r| r.write_part.is_some()) {
        if !taken.insert((r.loc, r.src)) {
            return None;
        }
    }
    Some(inst)
}

/// The constraints of thread `t`'s events: po, buffer → memory, FIFO, flushes required
/// by barriers, spawn and join, and those of its reads. `None` if a read of `t` cannot
/// be realised (see the module documentation).
fn thread_constraints(
    g: &Graph,
    inst: &mut Instance,
    t: Tid,
    loc_ix: &HashMap<Loc, usize>,
    write_id: &HashMap<EventId, WriteId>,
) -> Option<()> {
    let mut latest: HashMap<usize, WriteId> = HashMap::new();
    // Writes of `t` before the current event; of those, the ones a barrier so far
    // requires to be in memory.
    let (mut written, mut flushed) = (0usize, 0usize);
    let labs = g.thread(t);
    for (i, lab) in labs.iter().enumerate() {
        let e = EventId::new(t, i as u32);
        let v = inst.nodes.thread(e);
        if i > 0 {
            inst.base.push((v - 1, v));
        }
        let barrier = class(lab) == Class::Barrier;
        let flush = if barrier { written } else { flushed };
        if flush > 0 {
            inst.base.push((inst.nodes.memory(t, flush - 1), v));
        }
        match lab.kind {
            LabelKind::Start { parent: Some(p) } => inst.base.push((inst.nodes.thread(p), v)),
            LabelKind::Join { child } => {
                if let Some(fin) = g.last_of(child) {
                    inst.base.push((inst.nodes.thread(fin), v));
                }
            }
            LabelKind::Read { loc, rf, .. } => {
                let x = loc_ix[&loc];
                let own = latest.get(&x).copied();
                let src = rf.map(|w| write_id[&w]);
                match rf {
                    // Reading the initialisation after writing the location itself.
                    None if own.is_some() => return None,
                    None => inst.init_readers[x].push(e),
                    // An own write, but not the latest before the read.
                    Some(w) if w.tid == t && src != own => return None,
                    Some(_) if src.is_some_and(|s| inst.writes[s].loc != x) => return None,
                    Some(w) => {
                        let s = src.unwrap();
                        inst.writes[s].readers.push(e);
                        if w.tid != t {
                            // The source reaches memory before the read, and after
                            // every earlier write of the read's own thread to `x`.
                            let sm = inst.writes[s].memory;
                            inst.base.push((sm, v));
                            if let Some(o) = own {
                                inst.base.push((inst.writes[o].memory, sm));
                            }
                        }
                    }
                }
                let next = labs.get(i + 1).filter(|l| l.is_exclusive_write());
                let write_part = next.map(|_| write_id[&e.next()]);
                if let Some(wp) = write_part {
                    inst.reserves[v] = Some((x, wp));
                }
                inst.reads.push(Read {
                    node: v,
                    loc: x,
                    src,
                    write_part,
                });
            }
            LabelKind::Write { loc, .. } => {
                let w = write_id[&e];
                latest.insert(loc_ix[&loc], w);
                let m = inst.writes[w].memory;
                inst.base.push((v, m));
                if written > 0 {
                    inst.base.push((m - 1, m));
                }
                written += 1;
            }
            _ => {}
        }
        if barrier {
            flushed = written;
        }
    }
    Some(())
}
