//! Test support: hardware litmus shapes built by hand as graphs, the way
//! [`crate::relation::testkit`] builds C11 ones, with dependencies, fence kinds and
//! exclusive pairs ([`porf_graph::hw::Hw`]).
//!
//! A test is a list of threads (threads `1..`, spawned by main), each a list of
//! [`I`]nstructions; every read names the write it reads ([`Src`]) and every write its
//! place in its location's coherence order.

use crate::relation::testkit::Lit;
use crate::{atomicity, MemoryModel};
use porf_graph::hw::{FenceKind, Hw, Tags};
use porf_graph::{EventId, LabelKind, Loc, MemOrder, ReadKind, SrcLoc, Tid, WriteKind};

/// Where a read reads from: the initial value, or the `k`-th write (0-based) of
/// test thread `t` (1-based, as in [`I`]'s threads).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Src {
    Init,
    W(Tid, usize),
}

/// An instruction of a hardware litmus thread.
#[derive(Copy, Clone, Debug)]
pub(crate) enum I {
    /// A write at co position `pos` (1 = first after the initial value).
    W(Loc, usize),
    /// A read.
    R(Loc, Src),
    /// A write with a C11 order, at co position `pos`.
    Wo(Loc, usize, MemOrder),
    /// A read with a C11 order.
    Ro(Loc, Src, MemOrder),
    /// A hardware fence.
    F(FenceKind),
    /// A hardware fence with a C11 order too.
    Fx(FenceKind, MemOrder),
    /// A single-instruction atomic RMW (`XCHG`, `LOCK`-prefixed): its read part reads
    /// from `Src`, its write part (a write of the thread, for [`Src::W`]) goes at co
    /// position `pos`; both tagged `amo`.
    Amo(Loc, Src, usize),
    /// A C11 fence.
    Fo(MemOrder),
    /// The next access has an address dependency on the thread's last read.
    Addr,
    /// The next write has a data dependency on the thread's last read.
    Data,
    /// A branch on the thread's last read: every later event control-depends on it.
    Ctrl,
    /// [`I::Ctrl`] followed by an `isync` (which control-depends on the read too).
    CtrlIsync,
    /// A load-exclusive (`lwarx`).
    Lx(Loc, Src),
    /// A successful store-exclusive (`stwcx.`) pairing with the thread's last
    /// load-exclusive, at co position `pos`.
    Sx(Loc, usize),
}

/// Builds the test under `m`; returns the graph builder (its `last` is the last event
/// added).
pub(crate) fn build<'m>(m: &'m dyn MemoryModel, threads: &[&[I]]) -> Lit<'m> {
    let mut l = Lit::new(m, threads.len() as u32);
    let mut writes: Vec<Vec<EventId>> = vec![Vec::new(); threads.len() + 1];
    let mut reads: Vec<(EventId, Src)> = Vec::new();
    let mut co: Vec<(Loc, usize, EventId)> = Vec::new();
    for (k, ops) in threads.iter().enumerate() {
        let t = k as Tid + 1;
        let (mut last_read, mut last_excl) = (None::<u32>, None::<u32>);
        let mut ctrl: Vec<u32> = Vec::new();
        let (mut addr_next, mut data_next) = (false, false);
        for &op in ops.iter() {
            let mut hw = Hw {
                deps: porf_graph::hw::Deps {
                    ctrl: ctrl.clone(),
                    ..Default::default()
                },
                ..Default::default()
            };
            let kind = match op {
                I::Addr => {
                    addr_next = true;
                    continue;
                }
                I::Data => {
                    data_next = true;
                    continue;
                }
                I::Ctrl | I::CtrlIsync => {
                    let r = last_read.expect("a branch without a read");
                    if !ctrl.contains(&r) {
                        ctrl.push(r);
                        ctrl.sort();
                    }
                    if let I::Ctrl = op {
                        continue;
                    }
                    hw.deps.ctrl = ctrl.clone();
                    hw.fence = Some(FenceKind::Isync);
                    LabelKind::Fence {
                        ord: MemOrder::Relaxed,
                    }
                }
                I::F(kind) => {
                    hw.fence = Some(kind);
                    LabelKind::Fence {
                        ord: MemOrder::Relaxed,
                    }
                }
                I::Fx(kind, ord) => {
                    hw.fence = Some(kind);
                    LabelKind::Fence { ord }
                }
                I::Amo(loc, src, pos) => {
                    hw.tags = Tags::AMO;
                    let kind = ReadKind::Rmw(porf_graph::RmwOp::Add(1, porf_graph::Wrap::NONE));
                    let read = LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord: MemOrder::Relaxed,
                        kind,
                        rf: None,
                    };
                    let r = l.g.add(t, read, SrcLoc::UNKNOWN);
                    l.g.set_hw(r, Some(hw.clone()));
                    reads.push((r, src));
                    last_read = Some(r.idx);
                    co.push((loc, pos, r.next()));
                    writes[t as usize].push(r.next());
                    LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord: MemOrder::Relaxed,
                        val: 1,
                        kind: WriteKind::Exclusive,
                    }
                }
                I::Fo(ord) => LabelKind::Fence { ord },
                I::W(loc, _) | I::Wo(loc, _, _) | I::Sx(loc, _) => {
                    let ord = match op {
                        I::Wo(_, _, o) => o,
                        _ => MemOrder::Relaxed,
                    };
                    LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val: 1,
                        kind: WriteKind::Plain,
                    }
                }
                I::R(loc, _) | I::Ro(loc, _, _) | I::Lx(loc, _) => {
                    let ord = match op {
                        I::Ro(_, _, o) => o,
                        _ => MemOrder::Relaxed,
                    };
                    LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind: ReadKind::Plain,
                        rf: None,
                    }
                }
            };
            let is_access = matches!(kind, LabelKind::Read { .. } | LabelKind::Write { .. });
            if is_access {
                if std::mem::take(&mut addr_next) {
                    hw.deps.addr = vec![last_read.expect("addr without a read")];
                }
                if std::mem::take(&mut data_next) {
                    hw.deps.data = vec![last_read.expect("data without a read")];
                }
            }
            let e = l.g.add(t, kind, SrcLoc::UNKNOWN);
            match op {
                I::W(loc, pos) | I::Wo(loc, pos, _) => {
                    writes[t as usize].push(e);
                    co.push((loc, pos, e));
                }
                I::Sx(loc, pos) => {
                    writes[t as usize].push(e);
                    co.push((loc, pos, e));
                    hw.tags = Tags::EXCL;
                    hw.excl_read = Some(last_excl.expect("stwcx. without lwarx"));
                }
                I::R(_, src) | I::Ro(_, src, _) => {
                    reads.push((e, src));
                    last_read = Some(e.idx);
                }
                I::Lx(_, src) => {
                    reads.push((e, src));
                    last_read = Some(e.idx);
                    last_excl = Some(e.idx);
                    hw.tags = Tags::EXCL;
                }
                _ => {}
            }
            l.g.set_hw(e, Some(hw));
            l.last = e;
        }
    }
    co.sort_by_key(|&(loc, pos, _)| (loc, pos));
    for (i, &(loc, _, w)) in co.iter().enumerate() {
        let pos = co[..i].iter().filter(|c| c.0 == loc).count() + 1;
        l.g.co_insert(w, pos);
    }
    for (r, src) in reads {
        let w = match src {
            Src::Init => None,
            Src::W(t, k) => Some(writes[t as usize][k]),
        };
        l.g.set_rf(r, w);
    }
    let events: Vec<EventId> = l.g.events().map(|(e, _)| e).collect();
    for e in events {
        let hb = l.m.hb_view(&l.g, e);
        l.g.label_mut(e).hb = hb;
    }
    l
}

/// Whether the test's execution is consistent under `m` (the whole-graph check, after
/// asserting that the incremental check of the last event agrees with it).
pub(crate) fn allowed(m: &dyn MemoryModel, threads: &[&[I]]) -> bool {
    let l = build(m, threads);
    let dec = m.is_consistent(&l.g);
    let inc = m.consistent_with(&l.g, l.last) && atomicity::holds(&l.g);
    assert_eq!(inc, dec, "{}: incremental vs declarative", m.name());
    dec
}
