//! Random hardware execution graphs, for the differential tests of the hardware models
//! (native models against cat files, here and in `porf-cat`).
//!
//! A graph of [`random_hw_graph`] has the shape litmus tests give (main thread 0
//! spawns threads `1..=threads`, which start at once and hold every memory event):
//! reads and writes with the annotation tags of the chosen [`HwArch`], fences of its
//! kinds, single-instruction RMWs (`ReadKind::Rmw` read part, `WriteKind::Exclusive`
//! write part, both tagged [`Tags::AMO`]; sometimes a failed compare-and-swap, a read
//! part alone), exclusive pairs (a load-exclusive and, later in the thread, a
//! store-exclusive to the same location, both plain kinds tagged [`Tags::EXCL`], the
//! write's [`Hw::excl_read`] naming the read; sometimes the store fails and is
//! absent), and address, data and control dependencies on po-earlier reads (on
//! RISC-V also on successful store-conditionals, whose status register is a
//! dependency source in RVWMO; control
//! dependencies accumulate as after a branch: once a read is in a thread's `ctrl`
//! set, every later event of the thread has it). Every access and fence gets `Some`
//! [`Hw`] (thread starts and spawns have none).
//!
//! rf and co are random and not built in any order: with [`HwShape::load_buffering`],
//! half the reads read from a write added after them (in a random interleaving of
//! the threads) by another thread (rarely a po-later one of their own), so po ∪ rf
//! may have cycles (load buffering); the other reads, and all with `load_buffering`
//! off, read the initial value or a write added before them. Half the graphs are
//! *near-SC*: co is the order of insertion and all reads but one or two read the
//! latest write added before them, so that one weak read decides. co per location is, in three graphs of four,
//! a random interleaving of the threads' writes in program order, else a random
//! order; either way an RMW's write part usually (not always) goes right after the
//! write its read part reads, so that both atomic and non-atomic graphs come up.
//!
//! With [`HwShape::mixed`] (mixed-size graphs, herd7's `-variant mixed`: the
//! locations are the access units of one memory), a read, write, RMW or load-exclusive
//! one time in three is *wide*: it covers two adjacent units, `Loc(k)` and
//! `Loc(k + 1)`, as consecutive events of its thread (an RMW: each unit's read and
//! write parts in turn), the later ones tagged [`Tags::SAME_INSTR`], all with the
//! instruction's tags and dependencies (a later instruction depending on a wide read
//! may depend on either unit); a store-exclusive is as wide as its load-exclusive, each
//! unit write paired with the same unit's read. A one-unit read or write is, one time
//! in four of those, a pair (`LDP`/`STP`): two accesses of adjacent units in one
//! instruction, the second tagged [`Tags::NEXT_ACCESS`] too. Each unit reads and is
//! written on its own: rf and co are per unit, as the litmus front end makes them.
//!
//! Invariants of the graphs: the porf and hb views are *not* maintained (reads get
//! their sources through [`Graph::set_rf_unordered`]); models that allow load
//! buffering read neither. Everything is deterministic in the seed.

pub mod litmus;

use crate::orders::permutations;
use porf_graph::hash::SplitMix64;
use porf_graph::hw::{BarrierTypes, Deps, Domain, FenceKind, FenceOps, Hw, KernelFence, Tags};
use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Tid, Wrap, WriteKind,
};

/// Whose annotations and fences a graph uses.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HwArch {
    /// AArch64: `A`/`Q` reads, `L` writes, DMB/DSB of every domain and type, ISB.
    Arm,
    /// RISC-V: `.aq`/`.rl` on exclusives, AMOs (and sometimes plain accesses),
    /// `fence P,S` for P, S among r, w, rw, `fence.tso`, `fence.i`.
    RiscV,
    /// POWER: `sync`, `lwsync`, `isync`, `eieio`; no annotations.
    Power,
    /// x86: `MFENCE`, `LFENCE`, `SFENCE`; locked RMWs; no annotations.
    X86,
    /// The Linux kernel: `Once`/`Acquire`/`Release` accesses, `Mb`/`Once`/… RMWs,
    /// every kernel fence (RCU ones included).
    Kernel,
}

/// The shape of [`random_hw_graph`]'s graphs.
#[derive(Clone, Debug)]
pub struct HwShape {
    pub arch: HwArch,
    /// Threads besides main (which only spawns them).
    pub threads: u32,
    /// Instructions per thread, at most (an RMW or exclusive pair counts once).
    pub events_per_thread: u32,
    /// Locations used (`Loc(1)..`).
    pub locs: u64,
    /// Whether a read may read from a write added after it (po ∪ rf cycles).
    pub load_buffering: bool,
    /// Whether plain reads and writes may be split into two units (see the module
    /// docs).
    pub mixed: bool,
}

impl HwShape {
    /// A random shape for `arch`, litmus-sized: 2–3 threads (4 one time in eight) of
    /// up to 2–4 instructions over 2 locations (1 or 3 one time in four each), load
    /// buffering in three graphs of four.
    pub fn random(seed: u64, arch: HwArch) -> HwShape {
        let mut rng = SplitMix64(seed ^ 0x5a_4e45);
        let threads = if rng.below(8) == 0 {
            4
        } else {
            2 + rng.below(2) as u32
        };
        HwShape {
            arch,
            threads,
            events_per_thread: 2 + rng.below(3) as u32,
            locs: [2, 2, 1, 3][rng.below(4) as usize],
            load_buffering: rng.below(4) != 0,
            mixed: false,
        }
    }

    /// [`HwShape::random`] with split (mixed-size) accesses over at least two units.
    pub fn random_mixed(seed: u64, arch: HwArch) -> HwShape {
        let s = HwShape::random(seed, arch);
        HwShape {
            locs: s.locs.max(2),
            mixed: true,
            ..s
        }
    }
}

/// One instruction of a generated thread.
enum Instr {
    Read(Loc, Tags),
    Write(Loc, Tags),
    Fence(FenceKind),
    /// A single-instruction RMW; `false`: a failed compare-and-swap (read only).
    Amo(Loc, Tags, bool),
    /// A load-exclusive now; its store-exclusive (if `Some`, tags) some instructions
    /// later.
    LoadExcl(Loc, Tags),
    /// The store-exclusive of the load-exclusive at this `idx`, split if it was.
    StoreExcl(Loc, Tags, u32, bool),
}

/// A random hardware graph (see the module docs), deterministic in `seed`.
pub fn random_hw_graph(seed: u64, shape: &HwShape) -> Graph {
    let mut rng = SplitMix64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x4877_6765);
    let mut g = Graph::new();
    let locs: Vec<Loc> = (1..=shape.locs).map(Loc).collect();
    for &l in &locs {
        g.ensure_loc(l, 0, None);
    }
    g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
    for c in 1..=shape.threads {
        let spawn = LabelKind::Spawn {
            child: c,
            entry: 0,
            arg: 0,
            symm: None,
        };
        let s = g.add(0, spawn, SrcLoc::UNKNOWN);
        g.add(c, LabelKind::Start { parent: Some(s) }, SrcLoc::UNKNOWN);
    }
    // Per thread: instructions left, reads so far, ctrl set, open exclusive.
    struct T {
        tid: Tid,
        left: u32,
        reads: Vec<u32>,
        ctrl: Vec<u32>,
        /// The open load-exclusive: its (first unit's) `idx`, location, whether split.
        open_excl: Option<(u32, Loc, bool)>,
        first: bool,
    }
    // A ring (half the load-buffering graphs over two or more locations): thread `t`
    // has at least two instructions, starts with a read of location `t`, ends with a
    // write of location `t + 1` (modulo), and mostly accesses these two in between,
    // so that po ∪ rf cycles pass through several locations, as in LB, rather than
    // break coherence on one.
    let ring = shape.load_buffering && locs.len() > 1 && rng.below(2) == 0;
    let mut threads: Vec<T> = (1..=shape.threads)
        .map(|tid| T {
            tid,
            left: 1 + rng.below(shape.events_per_thread as u64) as u32 + u32::from(ring),
            first: true,
            reads: Vec::new(),
            ctrl: Vec::new(),
            open_excl: None,
        })
        .collect();
    // Reads in insertion order with the writes of their location added before them.
    let mut reads: Vec<(EventId, Vec<EventId>)> = Vec::new();
    let mut amos: Vec<(EventId, EventId)> = Vec::new();
    let mut val = 0;
    while !threads.is_empty() {
        let k = rng.below(threads.len() as u64) as usize;
        let th = &mut threads[k];
        let loc = locs[rng.below(locs.len() as u64) as usize];
        let mut instr = if let Some((r, l, wide)) = th.open_excl.filter(|_| rng.below(2) == 0) {
            th.open_excl = None;
            Instr::StoreExcl(l, write_tags(&mut rng, shape.arch) | Tags::EXCL, r, wide)
        } else {
            random_instr(&mut rng, shape.arch, loc, th.open_excl.is_none())
        };
        if ring {
            let t = th.tid as usize;
            let (rloc, wloc) = (locs[t % locs.len()], locs[(t + 1) % locs.len()]);
            if th.first {
                instr = Instr::Read(rloc, read_tags(&mut rng, shape.arch));
            } else if th.left == 1 {
                instr = Instr::Write(wloc, write_tags(&mut rng, shape.arch));
            }
            instr = match instr {
                _ if rng.below(8) == 0 => instr,
                Instr::Read(_, t) => Instr::Read(rloc, t),
                Instr::Write(_, t) => Instr::Write(wloc, t),
                Instr::Amo(_, t, w) => Instr::Amo(rloc, t, w),
                Instr::LoadExcl(_, t) if th.open_excl.is_none() => Instr::LoadExcl(rloc, t),
                other => other,
            };
        }
        // Mixed-size graphs: one access in three covers two units (a store-exclusive
        // as many as its load-exclusive; a failed compare-and-swap is never split).
        let units: u64 = match instr {
            Instr::StoreExcl(.., wide) => 1 + u64::from(wide),
            Instr::Fence(_) | Instr::Amo(_, _, false) => 1,
            _ if shape.mixed && rng.below(3) == 0 => 2,
            _ => 1,
        };
        // A plain read or write of one unit is, one time in four, an `LDP`/`STP`-like
        // pair instead: two accesses of one instruction, the second's event tagged
        // `NEXT_ACCESS` (not `si`-related to the first).
        let pair = units == 1
            && shape.mixed
            && matches!(instr, Instr::Read(..) | Instr::Write(..))
            && rng.below(4) == 0;
        let units = if pair { 2 } else { units };
        if units == 2 {
            // The first unit of a wide access: the previous one at the last unit.
            let first = |l: Loc| Loc(l.0.min(shape.locs - 1));
            instr = match instr {
                Instr::Read(l, t) => Instr::Read(first(l), t),
                Instr::Write(l, t) => Instr::Write(first(l), t),
                Instr::Amo(l, t, w) => Instr::Amo(first(l), t, w),
                Instr::LoadExcl(l, t) => Instr::LoadExcl(first(l), t),
                other => other,
            };
        }
        // The unit locations and each unit's tags (`SAME_INSTR` after the first).
        let unit_locs = |l: Loc| (0..units).map(move |u| Loc(l.0 + u));
        let unit_tags = |t: Tags, u: u64| match (u, pair) {
            (0, _) => t,
            (_, false) => t | Tags::SAME_INSTR,
            (_, true) => t | Tags::SAME_INSTR | Tags::NEXT_ACCESS,
        };
        // Dependencies on po-earlier reads: a few of them, sometimes.
        let some_reads = |rng: &mut SplitMix64, reads: &[u32]| -> Vec<u32> {
            let mut v: Vec<u32> = reads
                .iter()
                .copied()
                .filter(|_| rng.below(3) == 0)
                .collect();
            v.truncate(2);
            v
        };
        if !th.reads.is_empty() && rng.below(6) == 0 {
            let r = th.reads[rng.below(th.reads.len() as u64) as usize];
            if !th.ctrl.contains(&r) {
                th.ctrl.push(r);
                th.ctrl.sort_unstable();
            }
        }
        let addr = if rng.below(3) == 0 {
            some_reads(&mut rng, &th.reads)
        } else {
            Vec::new()
        };
        let data = if rng.below(3) == 0 {
            some_reads(&mut rng, &th.reads)
        } else {
            Vec::new()
        };
        let mut deps = Deps {
            addr,
            data,
            ctrl: th.ctrl.clone(),
            value: vec![],
        };
        val += 1;
        let tid = th.tid;
        let read = |loc, kind| LabelKind::Read {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            kind,
            rf: None,
        };
        let write = |loc, kind| LabelKind::Write {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            val,
            kind,
        };
        let hw = |tags, fence, excl_read, deps: &Deps| Hw {
            deps: deps.clone(),
            tags,
            fence,
            excl_read,
        };
        let mut seen = |g: &Graph, r: EventId, loc: Loc| {
            let before: Vec<EventId> = g.co(loc).to_vec();
            reads.push((r, before));
        };
        match instr {
            Instr::Read(loc, tags) | Instr::LoadExcl(loc, tags) => {
                deps.data.clear();
                for (u, l) in unit_locs(loc).enumerate() {
                    let e = g.add(tid, read(l, ReadKind::Plain), SrcLoc::UNKNOWN);
                    g.set_hw(e, Some(hw(unit_tags(tags, u as u64), None, None, &deps)));
                    seen(&g, e, l);
                    if u == 0 && matches!(instr, Instr::LoadExcl(..)) {
                        th.open_excl = Some((e.idx, loc, units == 2));
                    }
                    th.reads.push(e.idx);
                }
            }
            Instr::Write(loc, tags) | Instr::StoreExcl(loc, tags, ..) => {
                for (u, l) in unit_locs(loc).enumerate() {
                    // Each unit write pairs with the same unit's read.
                    let excl_read = match instr {
                        Instr::StoreExcl(_, _, r, _) => Some(r + u as u32),
                        _ => None,
                    };
                    let e = g.add(tid, write(l, WriteKind::Plain), SrcLoc::UNKNOWN);
                    let t = unit_tags(tags, u as u64);
                    g.set_hw(e, Some(hw(t, None, excl_read, &deps)));
                    g.co_insert(e, g.co(l).len() + 1);
                    if excl_read.is_some() && shape.arch == HwArch::RiscV {
                        // An `sc`'s status register: a dependency source (RVWMO).
                        th.reads.push(e.idx);
                    }
                }
            }
            Instr::Fence(k) => {
                deps.addr.clear();
                deps.data.clear();
                let e = g.add(
                    tid,
                    LabelKind::Fence {
                        ord: MemOrder::SeqCst,
                    },
                    SrcLoc::UNKNOWN,
                );
                g.set_hw(e, Some(hw(Tags::NONE, Some(k), None, &deps)));
            }
            Instr::Amo(loc, tags, writes) => {
                let op = if writes {
                    RmwOp::Add(1, Wrap::NONE)
                } else {
                    RmwOp::Cas {
                        expected: -1,
                        new: 1,
                        fail_ord: MemOrder::Relaxed,
                    }
                };
                // A split RMW: each unit's read and write parts in turn.
                for (u, l) in unit_locs(loc).enumerate() {
                    let h = hw(unit_tags(tags, u as u64), None, None, &deps);
                    let mut rh = h.clone();
                    rh.deps.data.clear();
                    let r = g.add(tid, read(l, ReadKind::Rmw(op)), SrcLoc::UNKNOWN);
                    g.set_hw(r, Some(rh));
                    seen(&g, r, l);
                    th.reads.push(r.idx);
                    if writes {
                        let w = g.add(tid, write(l, WriteKind::Exclusive), SrcLoc::UNKNOWN);
                        g.set_hw(w, Some(h));
                        g.co_insert(w, g.co(l).len() + 1);
                        amos.push((r, w));
                    }
                }
            }
        }
        th.left -= 1;
        th.first = false;
        if th.left == 0 {
            threads.swap_remove(k);
        }
    }
    // rf: any write of the location (load buffering) or one added before.
    let mut all_writes: Vec<Vec<EventId>> = Vec::new();
    for &l in &locs {
        all_writes.push(g.co(l).to_vec());
    }
    // Near-SC graphs (half of them): co is the order in which writes were added, and
    // every read but one or two reads the latest write added before it, as in an
    // interleaving; the others read as below. So that a graph is often inconsistent
    // for one reason only, the one weak read.
    let near_sc = rng.below(2) == 0;
    let weak: Vec<usize> = (0..1 + rng.below(2))
        .map(|_| rng.below(reads.len().max(1) as u64) as usize)
        .collect();
    for (k, (r, before)) in reads.iter().enumerate() {
        if near_sc && !weak.contains(&k) {
            g.set_rf_unordered(*r, before.last().copied());
            continue;
        }
        let loc = g.label(*r).loc().expect("a read");
        // With load buffering, half the reads read a write added after them: one of
        // another thread (or, one time in eight, any, a po-later one of their own
        // thread included, which is always incoherent); the others read as in an
        // interleaving.
        let later: Vec<EventId> = all_writes[(loc.0 - 1) as usize]
            .iter()
            .copied()
            .filter(|w| !before.contains(w))
            .collect();
        let own_later = rng.below(8) == 0;
        let later: Vec<EventId> = later
            .into_iter()
            .filter(|w| w.tid != r.tid || own_later)
            .collect();
        let cands: Vec<EventId> = if shape.load_buffering && !later.is_empty() && rng.below(2) == 0
        {
            later
        } else {
            before.clone()
        };
        // An RMW's own write part is never a source of its read part.
        let cands: Vec<EventId> = cands.into_iter().filter(|&w| w != r.next()).collect();
        let k = rng.below(cands.len() as u64 + 1) as usize;
        let src = (k > 0).then(|| cands[k - 1]);
        g.set_rf_unordered(*r, src);
    }
    // co: in three graphs of four a random interleaving of the threads' writes in
    // po order, else a random order; an RMW's write mostly right after its read's
    // source.
    let po_respecting = rng.below(4) != 0;
    for &l in &locs {
        let mut order = g.co(l).to_vec();
        if !near_sc {
            rng.shuffle(&mut order);
        }
        if po_respecting && !near_sc {
            // The k-th slot taken by a thread's writes gets its k-th write in po.
            let mut by_thread: Vec<Vec<EventId>> = Vec::new();
            for &w in &order {
                let t = w.tid as usize;
                if by_thread.len() <= t {
                    by_thread.resize_with(t + 1, Vec::new);
                }
                by_thread[t].push(w);
            }
            for ws in &mut by_thread {
                ws.sort();
                ws.reverse();
            }
            for slot in order.iter_mut() {
                *slot = by_thread[slot.tid as usize].pop().expect("a write");
            }
        }
        for &(r, w) in amos.iter().filter(|(r, _)| g.label(*r).loc() == Some(l)) {
            if rng.below(4) == 0 {
                continue;
            }
            let src = g.label(r).rf();
            order.retain(|&x| x != w);
            let at = match src {
                None => 0,
                Some(s) => order.iter().position(|&x| x == s).map_or(0, |p| p + 1),
            };
            order.insert(at, w);
        }
        g.set_co(l, order);
    }
    g
}

/// The executions of `g`'s program: `g` with every choice of rf (each read reads
/// the initial value or any write of its location but its own RMW's write part) and
/// co (every order of each location's writes; a random one per execution where a
/// location has more than 5) — all of them when there are at most
/// `limit`, else `limit` random ones (deterministic in `seed`). As for
/// [`random_hw_graph`], porf and hb views are not maintained.
pub fn hw_executions(g: &Graph, limit: usize, seed: u64) -> Vec<Graph> {
    let mut rng = SplitMix64(seed ^ 0xe7ec_5eed);
    let mut reads: Vec<(EventId, Vec<Option<EventId>>)> = Vec::new();
    for (e, l) in g.events() {
        if let LabelKind::Read { loc, .. } = l.kind {
            let srcs = std::iter::once(None)
                .chain(
                    g.co(loc)
                        .iter()
                        .copied()
                        .filter(|&w| w != e.next())
                        .map(Some),
                )
                .collect();
            reads.push((e, srcs));
        }
    }
    let locs: Vec<Loc> = g.locations().map(|(&l, _)| l).collect();
    // Every order of up to 5 writes; more get a random order per execution.
    let cos: Vec<Vec<Vec<EventId>>> = locs
        .iter()
        .map(|&l| {
            if g.co(l).len() <= 5 {
                permutations(g.co(l))
            } else {
                vec![g.co(l).to_vec()]
            }
        })
        .collect();
    let radices: Vec<usize> = reads
        .iter()
        .map(|(_, s)| s.len())
        .chain(cos.iter().map(Vec::len))
        .collect();
    let total = radices
        .iter()
        .try_fold(1usize, |acc, &r| acc.checked_mul(r))
        .unwrap_or(usize::MAX);
    let build = |rng: &mut SplitMix64, digits: &[usize]| {
        let mut h = g.clone();
        for ((r, srcs), &d) in reads.iter().zip(digits) {
            h.set_rf_unordered(*r, srcs[d]);
        }
        for ((l, orders), &d) in locs.iter().zip(&cos).zip(&digits[reads.len()..]) {
            let mut order = orders[d].clone();
            if order.len() > 5 {
                rng.shuffle(&mut order);
            }
            h.set_co(*l, order);
        }
        h
    };
    let mut out = Vec::new();
    if total <= limit {
        let mut digits = vec![0; radices.len()];
        loop {
            out.push(build(&mut rng, &digits));
            let mut i = 0;
            while i < digits.len() {
                digits[i] += 1;
                if digits[i] < radices[i] {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
            if i == digits.len() {
                break;
            }
        }
    } else {
        for _ in 0..limit {
            let digits: Vec<usize> = radices
                .iter()
                .map(|&r| rng.below(r as u64) as usize)
                .collect();
            out.push(build(&mut rng, &digits));
        }
    }
    out
}

fn pick<T: Copy>(rng: &mut SplitMix64, xs: &[T]) -> T {
    xs[rng.below(xs.len() as u64) as usize]
}

fn read_tags(rng: &mut SplitMix64, arch: HwArch) -> Tags {
    match arch {
        HwArch::Arm => pick(rng, &[Tags::NONE, Tags::NONE, Tags::ACQ, Tags::ACQ_PC]),
        HwArch::RiscV => pick(rng, &[Tags::NONE, Tags::NONE, Tags::NONE, Tags::ACQ]),
        HwArch::Power | HwArch::X86 => Tags::NONE,
        HwArch::Kernel => pick(rng, &[Tags::NONE, Tags::ONCE, Tags::ONCE, Tags::ACQ]),
    }
}

fn write_tags(rng: &mut SplitMix64, arch: HwArch) -> Tags {
    match arch {
        HwArch::Arm => pick(rng, &[Tags::NONE, Tags::NONE, Tags::REL]),
        HwArch::RiscV => pick(rng, &[Tags::NONE, Tags::NONE, Tags::NONE, Tags::REL]),
        HwArch::Power | HwArch::X86 => Tags::NONE,
        HwArch::Kernel => pick(rng, &[Tags::NONE, Tags::ONCE, Tags::ONCE, Tags::REL]),
    }
}

fn rmw_tags(rng: &mut SplitMix64, arch: HwArch) -> Tags {
    let acq_rel = Tags::ACQ | Tags::REL;
    match arch {
        HwArch::Arm | HwArch::RiscV => pick(rng, &[Tags::NONE, Tags::ACQ, Tags::REL, acq_rel]),
        HwArch::Power | HwArch::X86 => Tags::NONE,
        HwArch::Kernel => pick(
            rng,
            &[Tags::ONCE, Tags::MB, Tags::ACQ, Tags::REL, Tags::NORETURN],
        ),
    }
}

fn fence_kind(rng: &mut SplitMix64, arch: HwArch) -> FenceKind {
    match arch {
        HwArch::Arm => {
            let d = pick(
                rng,
                &[
                    Domain::Sy,
                    Domain::Ish,
                    Domain::Sy,
                    Domain::Osh,
                    Domain::Nsh,
                ],
            );
            let t = pick(
                rng,
                &[BarrierTypes::All, BarrierTypes::Ld, BarrierTypes::St],
            );
            match rng.below(8) {
                0 | 1 => FenceKind::Isb,
                2 => FenceKind::Dsb(d, t),
                _ => FenceKind::Dmb(d, t),
            }
        }
        HwArch::RiscV => {
            let ops = [FenceOps::R, FenceOps::W, FenceOps::R | FenceOps::W];
            match rng.below(8) {
                0 => FenceKind::RiscVTso,
                1 => FenceKind::RiscVFenceI,
                _ => FenceKind::RiscV {
                    pred: FenceOps(pick(rng, &ops)),
                    succ: FenceOps(pick(rng, &ops)),
                },
            }
        }
        HwArch::Power => pick(
            rng,
            &[
                FenceKind::Sync,
                FenceKind::Lwsync,
                FenceKind::Isync,
                FenceKind::Eieio,
            ],
        ),
        HwArch::X86 => pick(
            rng,
            &[FenceKind::Mfence, FenceKind::Lfence, FenceKind::Sfence],
        ),
        HwArch::Kernel => FenceKind::Kernel(pick(
            rng,
            &[
                KernelFence::Mb,
                KernelFence::Rmb,
                KernelFence::Wmb,
                KernelFence::BeforeAtomic,
                KernelFence::AfterAtomic,
                KernelFence::AfterSpinlock,
                KernelFence::AfterUnlockLock,
                KernelFence::RcuLock,
                KernelFence::RcuUnlock,
                KernelFence::SyncRcu,
            ],
        )),
    }
}

fn random_instr(rng: &mut SplitMix64, arch: HwArch, loc: Loc, may_open_excl: bool) -> Instr {
    match rng.below(13) {
        0..=3 => Instr::Read(loc, read_tags(rng, arch)),
        4..=6 => Instr::Write(loc, write_tags(rng, arch)),
        7..=9 => Instr::Fence(fence_kind(rng, arch)),
        10 | 11 => Instr::Amo(loc, rmw_tags(rng, arch) | Tags::AMO, rng.below(5) != 0),
        _ if may_open_excl && !matches!(arch, HwArch::X86 | HwArch::Kernel) => {
            let tags = match arch {
                HwArch::Arm | HwArch::RiscV => pick(rng, &[Tags::NONE, Tags::ACQ]),
                _ => Tags::NONE,
            };
            Instr::LoadExcl(loc, tags | Tags::EXCL)
        }
        _ => Instr::Read(loc, read_tags(rng, arch)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::{Base, Relation};

    /// The generator makes what the module docs promise: load-buffering cycles,
    /// exclusive pairs, RMWs, dependencies and fences, deterministic in the seed.
    #[test]
    fn graphs_have_every_feature() {
        let (mut cycles, mut pairs, mut amos, mut deps, mut fences) = (0, 0, 0, 0, 0);
        for seed in 0..500 {
            let arch = [HwArch::Arm, HwArch::RiscV, HwArch::Power, HwArch::Kernel][seed % 4];
            let shape = HwShape::random(seed as u64, arch);
            let g = random_hw_graph(seed as u64, &shape);
            let again = random_hw_graph(seed as u64, &shape);
            assert_eq!(format!("{g}"), format!("{again}"));
            let b = Base::new(&g);
            let porf: Relation = b.porf();
            cycles += usize::from(!porf.is_acyclic());
            for (e, l) in g.events() {
                if !l.is_access() && !matches!(l.kind, LabelKind::Fence { .. }) {
                    continue;
                }
                let h = l.hw.as_deref().expect("every access and fence has Hw");
                if let Some(r) = h.excl_read {
                    pairs += 1;
                    let rl = g.label(EventId::new(e.tid, r));
                    assert!(rl.hw.as_ref().unwrap().tags.contains(Tags::EXCL));
                    assert_eq!(rl.loc(), l.loc());
                }
                amos += usize::from(l.is_exclusive_write());
                deps += usize::from(!h.deps.is_empty());
                fences += usize::from(h.fence.is_some());
            }
        }
        for (what, n) in [
            ("cycles", cycles),
            ("pairs", pairs),
            ("amos", amos),
            ("deps", deps),
            ("fences", fences),
        ] {
            assert!(n > 20, "{what}: {n}");
        }
    }

    /// Mixed-size graphs split accesses into two adjacent units (the later events
    /// tagged `SAME_INSTR`, in the instruction of their first, with its dependencies):
    /// reads, writes, RMWs and exclusive pairs; without `mixed` no event is tagged.
    #[test]
    fn mixed_graphs_split_accesses_into_adjacent_units() {
        use porf_graph::hw::instruction_start;
        let (mut reads, mut writes, mut rmws, mut excls, mut pairs) = (0, 0, 0, 0, 0);
        for seed in 0..300 {
            let plain = random_hw_graph(seed, &HwShape::random(seed, HwArch::Arm));
            let tagged = |g: &Graph| {
                g.events()
                    .filter(|(_, l)| {
                        l.hw.as_ref()
                            .is_some_and(|h| h.tags.contains(Tags::SAME_INSTR))
                    })
                    .map(|(e, _)| e)
                    .collect::<Vec<_>>()
            };
            assert!(tagged(&plain).is_empty());
            let g = random_hw_graph(seed, &HwShape::random_mixed(seed, HwArch::Arm));
            for e in tagged(&g) {
                let (l, first) = (g.label(e), g.label(instruction_start(&g, e)));
                let (lo, hi) = (first.loc().unwrap().0, l.loc().unwrap().0);
                assert!(hi == lo || hi == lo + 1, "{e}: {lo} {hi}");
                let deps = |l: &porf_graph::Label| l.hw.as_ref().unwrap().deps.addr.clone();
                assert_eq!(deps(l), deps(first));
                if let Some(r) = l.hw.as_ref().unwrap().excl_read {
                    assert_eq!(g.label(EventId::new(e.tid, r)).loc(), l.loc());
                    excls += 1;
                }
                reads += usize::from(l.is_read() && !l.is_exclusive_read());
                writes += usize::from(l.is_write() && !l.is_exclusive_write());
                rmws += usize::from(l.is_exclusive_write());
                pairs += usize::from(l.hw.as_ref().unwrap().tags.contains(Tags::NEXT_ACCESS));
            }
        }
        assert!(
            reads > 50 && writes > 50 && rmws > 20 && excls > 5 && pairs > 20,
            "{reads} wide reads, {writes} wide writes, {rmws} wide RMWs, {excls} wide \
             exclusive pairs, {pairs} LDP/STP pairs"
        );
    }
}
