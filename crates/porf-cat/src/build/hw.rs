//! The hardware part of an [`Execution`] built from a porf graph: herd's dependency
//! relations, RMW pairs, annotation sets and fence sets, read off each event's
//! [`Hw`] facts (`porf_graph::hw`; an event without them reads as [`Hw::default`]).
//!
//! The names are herd7's (its architecture definitions `AArch64Annot.ml`,
//! `RISCVArch_herd.ml`, `PPCArch_herd.ml`, `X86Arch_herd.ml` and the Linux kernel's
//! `linux-kernel.bell`), so that a cat file written for herd finds them:
//!
//! * relations: `si` (herd's single-copy-atomic classes: the unit events one
//!   mixed-size access is split into, of one direction — a split RMW's unit reads are
//!   one class, its unit writes another — and one access of a pair instruction
//!   (`LDP`/`STP`), [`porf_graph::hw::access_class`], and each memory event with itself; `po`
//!   relates events of different instructions only), `addr`, `ctrl` (a read, or a
//!   successful store-exclusive whose status a later instruction reads, to each event,
//!   fences included, that depends on it), `data` (the same sources to each *write*
//!   that depends on them), `amo` (the read part
//!   of a single-instruction RMW to its write part), `lxsx` (a load-exclusive to the
//!   successful store-exclusive that pairs with it, [`Hw::excl_read`]; split ones
//!   from every unit read to every unit write, as herd's
//!   `[R & EX]; po \ (po; [M & EX]; po); [W & EX]`); `rmw` is then
//!   `amo | lxsx` ([`Execution::finish`]).
//! * access sets: `X` (the events of single-instruction atomic RMWs, a failed
//!   compare-and-swap's read included; not exclusives), `EX` (load- and
//!   store-exclusives), `Exp` (every read and write; `NExp` empty);
//!   AArch64 `A` (acquire reads), `Q` (acquire-PC reads), `L` (release writes),
//!   `NoRet`; RISC-V `Acq`, `Rel`, `AcqRel`, `Sc` — an AMO's read part keeps only
//!   its `.aq` and its write part only its `.rl`, and `.aqrl` makes both events `Sc`,
//!   as herd's RISC-V semantics does — and `AQ = Acq | AcqRel | Sc`,
//!   `RL = Rel | AcqRel | Sc` (the manual's names, which herd's `riscv-defs.cat`
//!   defines the same way); the kernel's raw tags `ONCE`, `ACQUIRE`, `RELEASE`,
//!   `MB` (fully ordered RMWs and `smp_mb` fences), `NORETURN`, and the bell's
//!   filtered sets `Once`, `Acquire` (`ACQUIRE \ W \ FailedRMW`), `Release`
//!   (`RELEASE \ R \ FailedRMW`), `Mb` (`MB \ FailedRMW`), `Noreturn`
//!   (`NORETURN \ W`), with `FailedRMW` the reads of RMWs that wrote nothing; the
//!   kernel's lock events `LKR`, `LKW`, `UL`, `LF`.
//! * fence sets, one per kind: `DMB.SY`, `DMB.LD`, `DMB.ST`, `DMB.ISH`, `DMB.ISHLD`,
//!   `DMB.ISHST`, `DMB.OSH`…, `DMB.NSH`…, the same for `DSB.*`, `ISB`; RISC-V
//!   `Fence.P.S` with `P`, `S` the operand sets spelled in the order `i`, `o`, `r`,
//!   `w` (`Fence.rw.rw`, `Fence.r.w`, `Fence.iorw.iorw`…), `Fence.tso`, `Fence.i`;
//!   PPC `SYNC`, `LWSYNC`, `ISYNC`, `EIEIO`; x86 `MFENCE`, `LFENCE`, `SFENCE`; the
//!   kernel's `Rmb`, `Wmb`, `Before-atomic`, `After-atomic`, `After-spinlock`,
//!   `After-unlock-lock`, `Rcu-lock`, `Rcu-unlock`, `Sync-rcu` (and `MB`/`Mb` for
//!   `smp_mb`). Every name in [`FENCE_SETS`] and [`ANNOT_SETS`] is defined, empty
//!   when no event has it.
//!
//! `A` and `X` are also C11 names (atomic accesses; the events of RMWs): a graph
//! is a *hardware graph* when at least one of its events has [`Hw`] facts, and only
//! in a hardware graph do `A` and `X` take their hardware meaning. A front end of a
//! hardware architecture therefore gives its events `Some` facts (an empty [`Hw`]
//! for a plain access) — at least one event must have them.
//!
//! Not built (no porf event carries them): herd's branch set `B`, `iico` relations,
//! the kernel's `RL`/`RU` (`spin_is_locked`; `RL` is RISC-V's release set here) and
//! SRCU events (`Srcu-lock`, `Srcu-unlock`, `Sync-srcu`: empty), AArch64's `S`, `NT`.

use super::GraphIndex;
use crate::exec::Execution;
use crate::rel::{Rel, Set};
use porf_graph::hw::{
    access_class, instruction_start, BarrierTypes, Domain, FenceKind, FenceOps, Hw, KernelFence,
    Tags,
};
use porf_graph::{EventId, Graph, Label, LabelKind};

/// Every fence set the builder defines (the ones of no event are empty).
pub const FENCE_SETS: &[&str] = &[
    "DMB.SY",
    "DMB.LD",
    "DMB.ST",
    "DMB.ISH",
    "DMB.ISHLD",
    "DMB.ISHST",
    "DMB.OSH",
    "DMB.OSHLD",
    "DMB.OSHST",
    "DMB.NSH",
    "DMB.NSHLD",
    "DMB.NSHST",
    "DSB.SY",
    "DSB.LD",
    "DSB.ST",
    "DSB.ISH",
    "DSB.ISHLD",
    "DSB.ISHST",
    "DSB.OSH",
    "DSB.OSHLD",
    "DSB.OSHST",
    "DSB.NSH",
    "DSB.NSHLD",
    "DSB.NSHST",
    "ISB",
    "Fence.r.r",
    "Fence.r.w",
    "Fence.r.rw",
    "Fence.w.r",
    "Fence.w.w",
    "Fence.w.rw",
    "Fence.rw.r",
    "Fence.rw.w",
    "Fence.rw.rw",
    "Fence.tso",
    "Fence.i",
    "SYNC",
    "LWSYNC",
    "ISYNC",
    "EIEIO",
    "MFENCE",
    "LFENCE",
    "SFENCE",
    "Rmb",
    "Wmb",
    "Before-atomic",
    "After-atomic",
    "After-spinlock",
    "After-unlock-lock",
    "Rcu-lock",
    "Rcu-unlock",
    "Sync-rcu",
    "Barrier",
    "After-srcu-read-unlock",
    "Srcu-lock",
    "Srcu-unlock",
    "Sync-srcu",
];

/// Every annotation set the builder defines (`A` and `X` in hardware graphs only).
pub const ANNOT_SETS: &[&str] = &[
    "EX", "Exp", "NExp", "Q", "L", "NoRet", "Acq", "Rel", "AcqRel", "Sc", "AQ", "RL", "ONCE",
    "ACQUIRE", "RELEASE", "MB", "NORETURN", "Once", "Acquire", "Release", "Mb", "Noreturn", "LKR",
    "LKW", "UL", "LF",
];

/// herd's name of the fence set of `k` (RISC-V fences with operand sets herd has no
/// name for get the same spelling rule).
pub fn fence_set_name(k: FenceKind) -> String {
    let barrier = |kind: &str, d: Domain, t: BarrierTypes| {
        let dom = match d {
            Domain::Sy => "",
            Domain::Ish => "ISH",
            Domain::Osh => "OSH",
            Domain::Nsh => "NSH",
        };
        let types = match t {
            BarrierTypes::All => "",
            BarrierTypes::Ld => "LD",
            BarrierTypes::St => "ST",
        };
        if dom.is_empty() && types.is_empty() {
            format!("{kind}.SY")
        } else {
            format!("{kind}.{dom}{types}")
        }
    };
    let ops = |o: FenceOps| {
        let mut s = String::new();
        for (bit, c) in [
            (FenceOps::I, 'i'),
            (FenceOps::O, 'o'),
            (FenceOps::R, 'r'),
            (FenceOps::W, 'w'),
        ] {
            if o.has(bit) {
                s.push(c);
            }
        }
        s
    };
    match k {
        FenceKind::Dmb(d, t) => barrier("DMB", d, t),
        FenceKind::Dsb(d, t) => barrier("DSB", d, t),
        FenceKind::Isb => "ISB".into(),
        FenceKind::RiscV { pred, succ } => format!("Fence.{}.{}", ops(pred), ops(succ)),
        FenceKind::RiscVTso => "Fence.tso".into(),
        FenceKind::RiscVFenceI => "Fence.i".into(),
        FenceKind::Sync => "SYNC".into(),
        FenceKind::Lwsync => "LWSYNC".into(),
        FenceKind::Isync => "ISYNC".into(),
        FenceKind::Eieio => "EIEIO".into(),
        FenceKind::Mfence => "MFENCE".into(),
        FenceKind::Lfence => "LFENCE".into(),
        FenceKind::Sfence => "SFENCE".into(),
        FenceKind::Kernel(f) => match f {
            KernelFence::Mb => "MB",
            KernelFence::Rmb => "Rmb",
            KernelFence::Wmb => "Wmb",
            KernelFence::BeforeAtomic => "Before-atomic",
            KernelFence::AfterAtomic => "After-atomic",
            KernelFence::AfterSpinlock => "After-spinlock",
            KernelFence::AfterUnlockLock => "After-unlock-lock",
            KernelFence::RcuLock => "Rcu-lock",
            KernelFence::RcuUnlock => "Rcu-unlock",
            KernelFence::SyncRcu => "Sync-rcu",
            KernelFence::SyncSrcu(_) => "Sync-srcu",
            KernelFence::AfterSrcuReadUnlock => "After-srcu-read-unlock",
        }
        .into(),
    }
}

/// True when some event of `g` has hardware facts (see the module docs).
pub fn is_hardware(g: &Graph) -> bool {
    g.events().any(|(_, l)| l.hw.is_some())
}

/// Adds the hardware names to `x` (before [`Execution::finish`]); `labels[i]` is
/// event `i`'s label (`None` for initial writes). With `atomic_pairs_only`, an `amo`
/// pair whose write is not immediately co-after the write its read reads is left
/// out (see [`super::from_graph_without_atomicity`]); `lxsx` pairs are always kept.
pub(super) fn fill(
    x: &mut Execution,
    g: &Graph,
    ix: &GraphIndex,
    labels: &[Option<&Label>],
    atomic_pairs_only: bool,
) {
    let n = labels.len();
    let default = Hw::default();
    let hw = |i: usize| -> &Hw { labels[i].and_then(|l| l.hw.as_deref()).unwrap_or(&default) };
    let hardware = is_hardware(g);
    let is_read = |i: usize| labels[i].is_some_and(|l| l.is_read());
    let is_write = |i: usize| labels[i].is_some_and(|l| l.is_write());
    let tagged = |i: usize, t: Tags| hw(i).tags.contains(t);

    // Each event's instruction: its first event (`hw::instruction_start`).
    let instr: Vec<usize> = (0..n)
        .map(|i| ix.event(i).map_or(i, |e| ix.of(instruction_start(g, e))))
        .collect();

    // Dependencies and pairs.
    let (mut addr, mut data, mut ctrl) = (Rel::empty(n), Rel::empty(n), Rel::empty(n));
    let (mut amo, mut lxsx) = (Rel::empty(n), Rel::empty(n));
    for (i, &label) in labels.iter().enumerate() {
        let (Some(e), Some(l)) = (ix.event(i), label) else {
            continue;
        };
        let h = hw(i);
        let of = |idx: &u32| ix.of(EventId::new(e.tid, *idx));
        for r in &h.deps.addr {
            addr.add(of(r), i);
        }
        if l.is_write() {
            for r in &h.deps.data {
                data.add(of(r), i);
            }
        }
        for r in &h.deps.ctrl {
            ctrl.add(of(r), i);
        }
        if let Some(r) = h.excl_read {
            // Every unit read of the load-exclusive's instruction.
            let first = instr[of(&r)];
            for u in (0..n).filter(|&u| instr[u] == first) {
                lxsx.add(u, i);
            }
        } else if l.is_exclusive_write() {
            if let (Some(r), LabelKind::Write { loc, .. }) = (e.prev(), &l.kind) {
                let adjacent = g.co_next(*loc, g.label(r).rf()) == Some(e);
                if adjacent || !atomic_pairs_only {
                    amo.add(ix.of(r), i);
                }
            }
        }
    }
    // `si`: the unit events of one split access (`Tags::SAME_INSTR` chains) and every
    // memory event with itself, as herd's; `po` then relates different instructions
    // only.
    let mem_event = |i: usize| is_read(i) || is_write(i);
    let mut si = Rel::from_pairs(n, (0..n).filter(|&i| mem_event(i)).map(|i| (i, i)));
    if (0..n).any(|i| instr[i] != i) {
        let class: Vec<_> = (0..n)
            .map(|i| ix.event(i).map(|e| access_class(g, e)))
            .collect();
        let mut same_instr = Rel::empty(n);
        for a in 0..n {
            for b in 0..n {
                if a != b && instr[a] == instr[b] {
                    same_instr.add(a, b);
                    if class[a] == class[b] {
                        si.add(a, b);
                    }
                }
            }
        }
        let po = x
            .get_rel("po")
            .expect("po is built first")
            .diff(&same_instr);
        x.rel("po", po);
    }
    x.rel("si", si);
    x.rel("addr", addr);
    x.rel("data", data);
    x.rel("ctrl", ctrl);
    x.rel("amo", amo);
    x.rel("lxsx", lxsx);

    // RMW structure: reads of RMW instructions with and without their write part.
    let rmw_read =
        |i: usize| labels[i].is_some_and(|l| l.is_exclusive_read()) && !tagged(i, Tags::EXCL);
    let has_write_part = |i: usize| {
        ix.event(i + 1).zip(ix.event(i)).is_some_and(|(nx, e)| {
            nx.tid == e.tid && labels[i + 1].is_some_and(|l| l.is_exclusive_write())
        })
    };
    let failed_rmw = Set::from_fn(n, |i| rmw_read(i) && !has_write_part(i));
    let amo_event = |i: usize| {
        tagged(i, Tags::AMO)
            || rmw_read(i)
            || (labels[i].is_some_and(|l| l.is_exclusive_write()) && hw(i).excl_read.is_none())
    };
    if hardware {
        x.set("X", Set::from_fn(n, amo_event));
    }
    let set = |f: &dyn Fn(usize) -> bool| Set::from_fn(n, f);
    let mem = set(&|i| is_read(i) || is_write(i));
    x.set("EX", set(&|i| tagged(i, Tags::EXCL)));
    x.set("Exp", mem.clone());
    x.set("NExp", Set::empty(n));

    // AArch64.
    if hardware {
        x.set("A", set(&|i| is_read(i) && tagged(i, Tags::ACQ)));
    }
    x.set("Q", set(&|i| is_read(i) && tagged(i, Tags::ACQ_PC)));
    x.set("L", set(&|i| is_write(i) && tagged(i, Tags::REL)));
    x.set("NoRet", set(&|i| tagged(i, Tags::NORETURN)));

    // RISC-V: an AMO's read keeps `.aq`, its write `.rl`; `.aqrl` is `Sc` on both.
    let riscv = |i: usize| -> Option<RiscvOrder> {
        if !(is_read(i) || is_write(i)) {
            return None;
        }
        let (aq, rl) = (tagged(i, Tags::ACQ), tagged(i, Tags::REL));
        let amo = amo_event(i) && !tagged(i, Tags::EXCL);
        match (aq, rl, amo) {
            (true, true, true) => Some(RiscvOrder::Sc),
            (true, true, false) => Some(RiscvOrder::AcqRel),
            (true, false, _) if !(amo && is_write(i)) => Some(RiscvOrder::Acq),
            (false, true, _) if !(amo && is_read(i)) => Some(RiscvOrder::Rel),
            _ => None,
        }
    };
    let order = |o: RiscvOrder| set(&|i| riscv(i) == Some(o));
    let (acq, rel) = (order(RiscvOrder::Acq), order(RiscvOrder::Rel));
    let (acq_rel, sc) = (order(RiscvOrder::AcqRel), order(RiscvOrder::Sc));
    x.set("AQ", acq.union(&acq_rel).union(&sc));
    x.set("RL", rel.union(&acq_rel).union(&sc));
    x.set("Acq", acq);
    x.set("Rel", rel);
    x.set("AcqRel", acq_rel);
    x.set("Sc", sc);

    // The Linux kernel: herd's raw tags, then linux-kernel.bell's filtered sets.
    let mem_ok = |i: usize| is_read(i) || is_write(i);
    let fence_is = |i: usize, k: KernelFence| hw(i).fence == Some(FenceKind::Kernel(k));
    let once = set(&|i| mem_ok(i) && tagged(i, Tags::ONCE));
    let acquire = set(&|i| mem_ok(i) && tagged(i, Tags::ACQ));
    let release = set(&|i| mem_ok(i) && tagged(i, Tags::REL));
    let mb = set(&|i| (mem_ok(i) && tagged(i, Tags::MB)) || fence_is(i, KernelFence::Mb));
    let noreturn = set(&|i| mem_ok(i) && tagged(i, Tags::NORETURN));
    let reads = set(&is_read);
    let writes = set(&is_write);
    x.set("Once", once.clone());
    x.set("Acquire", acquire.diff(&writes).diff(&failed_rmw));
    x.set("Release", release.diff(&reads).diff(&failed_rmw));
    x.set("Mb", mb.diff(&failed_rmw));
    x.set("Noreturn", noreturn.diff(&writes));
    x.set("ONCE", once);
    x.set("ACQUIRE", acquire);
    x.set("RELEASE", release);
    x.set("MB", mb);
    x.set("NORETURN", noreturn);
    for (name, t) in [
        ("LKR", Tags::LKR),
        ("LKW", Tags::LKW),
        ("UL", Tags::UL),
        ("LF", Tags::LF),
    ] {
        x.set(name, set(&|i| tagged(i, t)));
    }

    // Fences, one set per kind.
    for name in FENCE_SETS {
        x.set(name, Set::empty(n));
    }
    let mut by_name: std::collections::BTreeMap<String, Set> = Default::default();
    for (i, label) in labels.iter().enumerate() {
        let is_fence = label.is_some_and(|l| matches!(l.kind, LabelKind::Fence { .. }));
        if let (true, Some(k)) = (is_fence, hw(i).fence) {
            if k == FenceKind::Kernel(KernelFence::Mb) {
                continue; // in `MB` and `Mb` above
            }
            by_name
                .entry(fence_set_name(k))
                .or_insert_with(|| Set::empty(n))
                .add(i);
        }
    }
    for (name, s) in by_name {
        x.set(&name, s);
    }
    // SRCU's read-side events are accesses of the `srcu_struct`, not fences.
    for (name, t) in [
        ("Srcu-lock", Tags::SRCU_LOCK),
        ("Srcu-unlock", Tags::SRCU_UNLOCK),
    ] {
        x.set(name, set(&|i| mem_ok(i) && tagged(i, t)));
    }
}

/// A RISC-V access's ordering annotation as herd's semantics gives it.
#[derive(Copy, Clone, PartialEq, Eq)]
enum RiscvOrder {
    Acq,
    Rel,
    AcqRel,
    Sc,
}

#[cfg(test)]
mod tests {
    use crate::build::from_graph;
    use porf_graph::hw::{BarrierTypes, Deps, Domain, FenceKind, Hw, Tags};
    use porf_graph::{EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc};
    use porf_graph::{Wrap, WriteKind};

    fn add(g: &mut Graph, t: u32, kind: LabelKind, hw: Hw) -> EventId {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            g.co_insert(e, g.co(loc).len() + 1);
        }
        g.set_hw(e, Some(hw));
        e
    }
    fn read(loc: u64, kind: ReadKind) -> LabelKind {
        LabelKind::Read {
            loc: Loc(loc),
            bytes: 8,
            ord: MemOrder::Relaxed,
            kind,
            rf: None,
        }
    }
    fn write(loc: u64, kind: WriteKind) -> LabelKind {
        LabelKind::Write {
            loc: Loc(loc),
            bytes: 8,
            ord: MemOrder::Relaxed,
            val: 1,
            kind,
        }
    }
    fn tags(t: Tags) -> Hw {
        Hw {
            tags: t,
            ..Hw::default()
        }
    }

    /// One thread: `LDAR r0,[x]; DMB ISHLD; STR r0 -> [y] (data, ctrl on r0);
    /// LDAXR [x]; STLXR [x]; SWPAL [y]; LDR [r0] (addr)` — each name built from it.
    #[test]
    fn hardware_names_from_hw_facts() {
        let mut g = Graph::new();
        g.ensure_loc(Loc(1), 0, None);
        g.ensure_loc(Loc(2), 0, None);
        g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
        let r0 = add(&mut g, 0, read(1, ReadKind::Plain), tags(Tags::ACQ));
        let fence = FenceKind::Dmb(Domain::Ish, BarrierTypes::Ld);
        let f = add(
            &mut g,
            0,
            LabelKind::Fence {
                ord: MemOrder::SeqCst,
            },
            Hw {
                fence: Some(fence),
                ..Hw::default()
            },
        );
        let deps = Deps {
            addr: vec![],
            data: vec![r0.idx],
            ctrl: vec![r0.idx],
            value: vec![],
        };
        let w = add(
            &mut g,
            0,
            write(2, WriteKind::Plain),
            Hw {
                deps,
                ..Hw::default()
            },
        );
        let lx = add(
            &mut g,
            0,
            read(1, ReadKind::Plain),
            tags(Tags::ACQ | Tags::EXCL),
        );
        let sx = add(
            &mut g,
            0,
            write(1, WriteKind::Plain),
            Hw {
                tags: Tags::REL | Tags::EXCL,
                excl_read: Some(lx.idx),
                ..Hw::default()
            },
        );
        let op = RmwOp::Xchg(1);
        let swp = Tags::AMO | Tags::ACQ | Tags::REL;
        let ar = add(&mut g, 0, read(2, ReadKind::Rmw(op)), tags(swp));
        let aw = add(&mut g, 0, write(2, WriteKind::Exclusive), tags(swp));
        let addr = Deps {
            addr: vec![r0.idx],
            ..Deps::default()
        };
        let last = add(
            &mut g,
            0,
            read(1, ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE))),
            Hw {
                deps: addr,
                tags: Tags::AMO,
                ..Hw::default()
            },
        );
        let x = from_graph(&g);
        let ix = super::GraphIndex::new(&g);
        let i = |e: EventId| ix.of(e);
        let set = |name: &str| -> Vec<usize> { x.get_set(name).unwrap().iter().collect() };
        let rel =
            |name: &str| -> Vec<(usize, usize)> { x.get_rel(name).unwrap().pairs().collect() };
        assert_eq!(rel("data"), vec![(i(r0), i(w))]);
        assert_eq!(rel("ctrl"), vec![(i(r0), i(w))]);
        assert_eq!(rel("addr"), vec![(i(r0), i(last))]);
        assert_eq!(rel("lxsx"), vec![(i(lx), i(sx))]);
        assert_eq!(rel("amo"), vec![(i(ar), i(aw))]);
        assert_eq!(set("X"), vec![i(ar), i(aw), i(last)]);
        assert_eq!(set("EX"), vec![i(lx), i(sx)]);
        assert_eq!(set("A"), vec![i(r0), i(lx), i(ar)]);
        assert_eq!(set("L"), vec![i(sx), i(aw)]);
        assert_eq!(set("DMB.ISHLD"), vec![i(f)]);
        assert!(set("DMB.SY").is_empty());
        // RISC-V's reading of the same tags: SWPAL's events are `Sc`.
        assert_eq!(set("Sc"), vec![i(ar), i(aw)]);
        assert_eq!(set("Acq"), vec![i(r0), i(lx)]);
        assert_eq!(set("Rel"), vec![i(sx)]);
        assert!(set("AcqRel").is_empty());
        assert_eq!(set("AQ"), vec![i(r0), i(lx), i(ar), i(aw)]);
        assert_eq!(set("RL"), vec![i(sx), i(ar), i(aw)]);
    }

    #[test]
    fn fence_names_are_herds() {
        use super::fence_set_name as name;
        use porf_graph::hw::{FenceOps, KernelFence};
        assert_eq!(
            name(FenceKind::Dmb(Domain::Sy, BarrierTypes::All)),
            "DMB.SY"
        );
        assert_eq!(name(FenceKind::Dmb(Domain::Sy, BarrierTypes::Ld)), "DMB.LD");
        assert_eq!(
            name(FenceKind::Dsb(Domain::Ish, BarrierTypes::St)),
            "DSB.ISHST"
        );
        let rw = FenceOps(FenceOps::R | FenceOps::W);
        let (r, w) = (FenceOps(FenceOps::R), FenceOps(FenceOps::W));
        assert_eq!(name(FenceKind::RiscV { pred: rw, succ: rw }), "Fence.rw.rw");
        assert_eq!(name(FenceKind::RiscV { pred: r, succ: w }), "Fence.r.w");
        assert_eq!(name(FenceKind::RiscVTso), "Fence.tso");
        assert_eq!(name(FenceKind::Kernel(KernelFence::RcuLock)), "Rcu-lock");
        for k in [FenceKind::Lwsync, FenceKind::Mfence, FenceKind::Isb] {
            assert!(super::FENCE_SETS.contains(&name(k).as_str()));
        }
    }
}

#[cfg(test)]
mod random {
    use crate::build::{from_graph, from_graph_without_atomicity};
    use porf_models::hwgen::{random_hw_graph, HwArch, HwShape};

    /// On random hardware graphs of every architecture, dependencies go from a read
    /// (or, on RISC-V, a successful store-conditional, `EX ∩ W`) to a po-later event
    /// of its thread, `data` ends in writes, and `rmw` pairs sit in one thread on one
    /// location.
    #[test]
    fn relations_of_random_graphs_are_well_formed() {
        let archs = [
            HwArch::Arm,
            HwArch::RiscV,
            HwArch::Power,
            HwArch::X86,
            HwArch::Kernel,
        ];
        for seed in 0..1000u64 {
            let g = random_hw_graph(seed, &HwShape::random(seed, archs[seed as usize % 5]));
            let x = from_graph(&g);
            let _ = from_graph_without_atomicity(&g);
            let (po, int, loc) = (
                x.get_rel("po").unwrap(),
                x.get_rel("int").unwrap(),
                x.get_rel("loc").unwrap(),
            );
            let (r, w) = (x.get_set("R").unwrap(), x.get_set("W").unwrap());
            let ex = x.get_set("EX").unwrap();
            let riscv = archs[seed as usize % 5] == HwArch::RiscV;
            let source = |a| r.contains(a) || (riscv && w.contains(a) && ex.contains(a));
            for dep in ["addr", "data", "ctrl"] {
                for (a, b) in x.get_rel(dep).unwrap().pairs() {
                    assert!(po.contains(a, b) && int.contains(a, b) && source(a));
                    assert!(dep != "data" || w.contains(b));
                }
            }
            for (a, b) in x.get_rel("rmw").unwrap().pairs() {
                assert!(po.contains(a, b) && loc.contains(a, b));
                assert!(r.contains(a) && w.contains(b));
            }
        }
    }
}
