//! An [`Execution`] from a porf execution graph: the events of C11 programs and, from
//! their [`porf_graph::hw::Hw`] facts, of hardware and Linux-kernel programs.
//!
//! * Events: one initial write per accessed location (`IW`, first, in location
//!   order), then the graph's events thread by thread in program order — every event,
//!   also thread starts, spawns, joins, finishes, allocations and the like, which are
//!   in no memory set (`~(M | F)` names them).
//! * Sets: `R` (every read, RMW and lock read parts included), `W` (writes, `IW`
//!   included), `F` (fences), `IW`, `FW` (per location the co-last write),
//!   the C11 orders `NA` (non-atomic accesses, `IW` included), `RLX`, `ACQ`, `REL`,
//!   `ACQ_REL`, `SC` (accesses and fences by their memory order), in graphs of C11
//!   programs `A` (atomic accesses and fences) and `X` (the events of atomic read-modify-write instructions:
//!   exclusive reads, a failed compare-exchange's included, and their writes).
//! * Relations: `po` is program order *extended by thread creation and join*
//!   (a spawn before the child's events, a thread's events before a join of it),
//!   transitively closed: herd's tests start their threads together, porf's programs
//!   create them, and this is what those events are ordered by; `int` relates the
//!   events of one thread (the initial writes form a thread of their own); `rf`
//!   (a read of the initial value reads its location's `IW`), `co` (`IW` first, then
//!   the graph's coherence order; transitive), `loc` (accesses of one location,
//!   reflexive).
//! * The hardware names — dependencies `addr`, `data`, `ctrl`, the RMW pairs `amo`
//!   (an RMW's read part to its write part) and `lxsx` (exclusive pairs), so
//!   `rmw = amo | lxsx`, herd's annotation sets (`X`, `EX`, AArch64 `A`, `Q`, `L`,
//!   RISC-V `Acq`, `Rel`, `AcqRel`, `AQ`, `RL`, the kernel's `Once`, `Acquire`, …)
//!   and one set per fence kind (`DMB.ISH`, `Fence.rw.rw`, `SYNC`, `MFENCE`,
//!   `Rcu-lock`, …) — come from the events' `Hw` facts: see [`hw`] for the list,
//!   and for when `A` and `X` mean the hardware sets instead of the C11 ones.
//! * Not built: herd's branch set `B` (empty).

pub mod hw;

use crate::exec::Execution;
use crate::rel::{Rel, Set};
use porf_graph::{EventId, Graph, LabelKind, Loc, MemOrder};

/// The execution of `g` with its events numbered as [`GraphIndex`] says.
pub fn from_graph(g: &Graph) -> Execution {
    build(g, false)
}

/// [`from_graph`] for porf's incremental question, in which RMW atomicity is the
/// explorer's business (`porf_models::atomicity`), not the model's: an RMW whose write
/// part is not immediately co-after the write its read part reads gets no `amo`/`rmw`
/// edge, so that a model's own atomicity axiom (`empty rmw & (fr; co)`) cannot reject
/// the graph for it. A graph satisfying atomicity gets the same execution as from
/// [`from_graph`].
pub fn from_graph_without_atomicity(g: &Graph) -> Execution {
    build(g, true)
}

fn build(g: &Graph, atomic_pairs_only: bool) -> Execution {
    let ix = GraphIndex::new(g);
    let n = ix.len();
    let mut x = Execution::new(n);
    let labels: Vec<Option<&porf_graph::Label>> =
        (0..n).map(|i| ix.event(i).map(|e| g.label(e))).collect();
    // Location of each access (initial writes included).
    let locs: Vec<Option<Loc>> = (0..n)
        .map(|i| match labels[i] {
            Some(l) => l.loc(),
            None => Some(ix.locs[i]),
        })
        .collect();
    let iw = Set::from_fn(n, |i| i < ix.locs.len());
    let set = |f: &dyn Fn(usize, &porf_graph::Label) -> bool| {
        Set::from_fn(n, |i| labels[i].is_some_and(|l| f(i, l)))
    };
    x.set("R", set(&|_, l| l.is_read()));
    x.set("W", set(&|_, l| l.is_write()).union(&iw));
    x.set("F", set(&|_, l| matches!(l.kind, LabelKind::Fence { .. })));
    let ord_set = |o: MemOrder| set(&|_, l| l.ord() == Some(o));
    x.set("NA", ord_set(MemOrder::NonAtomic).union(&iw));
    x.set("RLX", ord_set(MemOrder::Relaxed));
    x.set("ACQ", ord_set(MemOrder::Acquire));
    x.set("REL", ord_set(MemOrder::Release));
    x.set("ACQ_REL", ord_set(MemOrder::AcqRel));
    x.set("SC", ord_set(MemOrder::SeqCst));
    if !hw::is_hardware(g) {
        x.set("A", set(&|_, l| l.ord().is_some_and(|o| o.is_atomic())));
    }
    if !hw::is_hardware(g) {
        x.set(
            "X",
            set(&|_, l| l.read_kind().is_some_and(|k| k.is_exclusive()) || l.is_exclusive_write()),
        );
    }
    let mut fw = Set::empty(n);
    let mut co = Rel::empty(n);
    for (k, &loc) in ix.locs.iter().enumerate() {
        let chain: Vec<usize> = std::iter::once(k)
            .chain(g.co(loc).iter().map(|&w| ix.of(w)))
            .collect();
        for (a, &w) in chain.iter().enumerate() {
            for &w2 in &chain[a + 1..] {
                co.add(w, w2);
            }
        }
        fw.add(*chain.last().expect("IW"));
    }
    x.set("IW", iw);
    x.set("FW", fw);
    x.rel("co", co);
    let mut po = Rel::empty(n);
    let mut int = Rel::empty(n);
    let mut rf = Rel::empty(n);
    // One block per thread (the initial writes are one), so `int` is a union of
    // products.
    let mut start = 0;
    while start < n {
        let t = ix.thread(start);
        let end = (start..n).find(|&j| ix.thread(j) != t).unwrap_or(n);
        let block = Set::from_fn(n, |j| (start..end).contains(&j));
        int = int.union(&Rel::product(&block, &block));
        start = end;
    }
    for (i, l) in labels.iter().enumerate() {
        let (Some(e), Some(l)) = (ix.event(i), l) else {
            continue;
        };
        if let Some(next) = ix.event(i + 1).filter(|n| n.tid == e.tid) {
            po.add(i, ix.of(next));
        }
        match l.kind {
            LabelKind::Start { parent: Some(p) } => po.add(ix.of(p), i),
            LabelKind::Join { child } => {
                if let Some(last) = g.last_of(child) {
                    po.add(ix.of(last), i);
                }
            }
            LabelKind::Read { loc, rf: src, .. } => {
                let w = match src {
                    Some(w) => ix.of(w),
                    None => ix.init_of(loc),
                };
                rf.add(w, i);
            }
            _ => {}
        }
    }
    x.rel("po", po.plus());
    x.rel("int", int);
    x.rel("rf", rf);
    hw::fill(&mut x, g, &ix, &labels, atomic_pairs_only);
    let mut loc = Rel::empty(n);
    for &l in &ix.locs {
        let same = Set::from_fn(n, |i| locs[i] == Some(l));
        loc = loc.union(&Rel::product(&same, &same));
    }
    x.rel("loc", loc);
    x.finish();
    x
}

/// The numbering: initial writes `0..locs.len()` (one per accessed location, in
/// location order), then the graph's events thread by thread.
pub struct GraphIndex {
    locs: Vec<Loc>,
    offsets: Vec<usize>,
    events: Vec<EventId>,
}

impl GraphIndex {
    pub fn new(g: &Graph) -> GraphIndex {
        let mut locs: Vec<Loc> = g.locations().map(|(&l, _)| l).collect();
        locs.sort();
        let mut offsets = Vec::new();
        let mut events = Vec::new();
        for t in 0..g.num_threads() {
            offsets.push(locs.len() + events.len());
            events.extend((0..g.thread_len(t)).map(|i| EventId::new(t, i)));
        }
        GraphIndex {
            locs,
            offsets,
            events,
        }
    }
    pub fn len(&self) -> usize {
        self.locs.len() + self.events.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The graph event numbered `i` (`None` for an initial write or past the end).
    pub fn event(&self, i: usize) -> Option<EventId> {
        i.checked_sub(self.locs.len())
            .and_then(|k| self.events.get(k).copied())
    }
    /// The number of graph event `e`.
    pub fn of(&self, e: EventId) -> usize {
        self.offsets[e.tid as usize] + e.idx as usize
    }
    /// The number of `loc`'s initial write.
    pub fn init_of(&self, loc: Loc) -> usize {
        self.locs.binary_search(&loc).expect("an accessed location")
    }
    /// The thread of event `i` (`None` for the initial writes).
    fn thread(&self, i: usize) -> Option<u32> {
        self.event(i).map(|e| e.tid)
    }
}
