//! Hand-built hardware graphs ([`HwLit`]) and the classic litmus shapes with their
//! published verdicts ([`arm_shapes`], [`riscv_shapes`]), for the hardware models'
//! unit tests here and the cat files' tests in `porf-cat`.
//!
//! Each shape is one execution: the weak outcome the test asks about, with the rf and
//! co that give it. The verdicts are herd7's, as Dat3M records them for the tests of
//! the same names (`dartagnan/src/test/resources/ARM8-expected.csv` and
//! `RISCV-expected.csv`, `1` = the outcome is reachable), and agree with the papers:
//! for ARMv8, Pulte et al., "Simplifying ARM Concurrency" (POPL 2018), §2 (MP, LB, and
//! multi-copy atomicity: IRIW and WRC with dependencies forbidden); for RISC-V, the
//! ISA manual's RVWMO chapter and its explanatory appendix (the same shapes with
//! fences, dependencies and `.aq`/`.rl`). A few shapes have no published verdict and
//! test one clause of a model: their verdict is derived by hand from that clause
//! (said where they are built).

use porf_graph::hw::{BarrierTypes, Deps, Domain, FenceKind, FenceOps, Hw, Tags};
use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Tid, Wrap, WriteKind,
};

pub const X: Loc = Loc(1);
pub const Y: Loc = Loc(2);
pub const Z: Loc = Loc(3);

/// A hand-built hardware graph: main thread 0 spawns threads `1..=threads`; locations
/// `X`, `Y`, `Z` start at 0. Reads are added reading the initial value ([`HwLit::rf`]
/// sets their source later, po-later writes included); writes go co-last
/// ([`HwLit::co`] reorders). porf and hb views are not maintained.
pub struct HwLit {
    pub g: Graph,
    val: i64,
}

/// Dependencies of a new event on reads (or successful store-exclusives) of its thread.
#[derive(Clone, Default)]
pub struct On {
    pub addr: Vec<EventId>,
    pub data: Vec<EventId>,
    pub ctrl: Vec<EventId>,
}

impl On {
    pub fn addr(r: EventId) -> On {
        On {
            addr: vec![r],
            ..On::default()
        }
    }
    pub fn data(r: EventId) -> On {
        On {
            data: vec![r],
            ..On::default()
        }
    }
    pub fn ctrl(r: EventId) -> On {
        On {
            ctrl: vec![r],
            ..On::default()
        }
    }
    fn deps(&self) -> Deps {
        let idx = |v: &[EventId]| {
            let mut v: Vec<u32> = v.iter().map(|e| e.idx).collect();
            v.sort_unstable();
            v
        };
        Deps {
            addr: idx(&self.addr),
            data: idx(&self.data),
            ctrl: idx(&self.ctrl),
            value: vec![],
        }
    }
}

impl HwLit {
    pub fn new(threads: u32) -> HwLit {
        let mut g = Graph::new();
        for l in [X, Y, Z] {
            g.ensure_loc(l, 0, None);
        }
        g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
        for c in 1..=threads {
            let spawn = LabelKind::Spawn {
                child: c,
                entry: 0,
                arg: 0,
                symm: None,
            };
            let s = g.add(0, spawn, SrcLoc::UNKNOWN);
            g.add(c, LabelKind::Start { parent: Some(s) }, SrcLoc::UNKNOWN);
        }
        HwLit { g, val: 0 }
    }
    fn push(&mut self, t: Tid, kind: LabelKind, hw: Hw) -> EventId {
        let e = self.g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = self.g.label(e).loc().filter(|_| self.g.label(e).is_write()) {
            self.g.co_insert(e, self.g.co(loc).len() + 1);
        }
        self.g.set_hw(e, Some(hw));
        e
    }
    fn hw(tags: Tags, on: &On) -> Hw {
        Hw {
            deps: on.deps(),
            tags,
            ..Hw::default()
        }
    }
    /// A read of `loc` (reading the initial value until [`HwLit::rf`]).
    pub fn read(&mut self, t: Tid, loc: Loc, tags: Tags, on: On) -> EventId {
        let kind = LabelKind::Read {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            kind: ReadKind::Plain,
            rf: None,
        };
        self.push(t, kind, Self::hw(tags, &on))
    }
    /// A write of `loc`, co-last.
    pub fn write(&mut self, t: Tid, loc: Loc, tags: Tags, on: On) -> EventId {
        self.val += 1;
        let kind = LabelKind::Write {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            val: self.val,
            kind: WriteKind::Plain,
        };
        self.push(t, kind, Self::hw(tags, &on))
    }
    /// A store-exclusive of `loc` pairing with load-exclusive `lx`.
    pub fn store_excl(&mut self, t: Tid, loc: Loc, tags: Tags, lx: EventId) -> EventId {
        let w = self.write(t, loc, tags | Tags::EXCL, On::default());
        let mut hw = self.g.label(w).hw.as_deref().cloned().unwrap_or_default();
        hw.excl_read = Some(lx.idx);
        self.g.set_hw(w, Some(hw));
        w
    }
    /// A single-instruction RMW (fetch-add) of `loc`: its read and write parts.
    pub fn amo(&mut self, t: Tid, loc: Loc, tags: Tags) -> (EventId, EventId) {
        self.amo_on(t, loc, tags, On::default())
    }
    /// [`HwLit::amo`] with dependencies `on` (`data` on the write part only).
    pub fn amo_on(&mut self, t: Tid, loc: Loc, tags: Tags, on: On) -> (EventId, EventId) {
        let tags = tags | Tags::AMO;
        let read_on = On {
            data: Vec::new(),
            ..on.clone()
        };
        let kind = LabelKind::Read {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            kind: ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE)),
            rf: None,
        };
        let r = self.push(t, kind, Self::hw(tags, &read_on));
        self.val += 1;
        let kind = LabelKind::Write {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            val: self.val,
            kind: WriteKind::Exclusive,
        };
        let w = self.push(t, kind, Self::hw(tags, &on));
        (r, w)
    }
    pub fn fence(&mut self, t: Tid, kind: FenceKind, on: On) -> EventId {
        let hw = Hw {
            deps: on.deps(),
            fence: Some(kind),
            ..Hw::default()
        };
        let f = LabelKind::Fence {
            ord: MemOrder::SeqCst,
        };
        self.push(t, f, hw)
    }
    /// Read `r` reads from `w` (`None`: the initial value).
    pub fn rf(&mut self, r: EventId, w: Option<EventId>) -> &mut Self {
        self.g.set_rf_unordered(r, w);
        self
    }
    /// The coherence order of `loc`.
    pub fn co(&mut self, loc: Loc, order: &[EventId]) -> &mut Self {
        self.g.set_co(loc, order.to_vec());
        self
    }
}

/// A named shape and whether its outcome is allowed.
pub struct Shape {
    pub name: &'static str,
    pub graph: Graph,
    pub allowed: bool,
}

const N: Tags = Tags::NONE;
fn none() -> On {
    On::default()
}

/// MP's weak outcome (`r0 = 1, r1 = 0`), with `writer` between the writes and
/// `reader(lit, first read)` building the second read.
fn mp(
    name: &'static str,
    allowed: bool,
    wtags: (Tags, Tags),
    writer: Option<FenceKind>,
    reader: impl FnOnce(&mut HwLit, EventId) -> EventId,
    rtag: Tags,
) -> Shape {
    let mut l = HwLit::new(2);
    l.write(1, X, wtags.0, none());
    if let Some(f) = writer {
        l.fence(1, f, none());
    }
    let wy = l.write(1, Y, wtags.1, none());
    let ry = l.read(2, Y, rtag, none());
    let rx = reader(&mut l, ry);
    l.rf(ry, Some(wy)).rf(rx, None);
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

/// LB's outcome (both reads read the other thread's write), each thread's write
/// built by `write(lit, thread, loc, its read)`.
fn lb(
    name: &'static str,
    allowed: bool,
    mut write: impl FnMut(&mut HwLit, Tid, Loc, EventId) -> EventId,
) -> Shape {
    let mut l = HwLit::new(2);
    let rx = l.read(1, X, N, none());
    let wy = write(&mut l, 1, Y, rx);
    let ry = l.read(2, Y, N, none());
    let wx = write(&mut l, 2, X, ry);
    l.rf(rx, Some(wx)).rf(ry, Some(wy));
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

/// SB's outcome (both reads read the initial value), `between` each write and read.
fn sb(name: &'static str, allowed: bool, between: Option<FenceKind>) -> Shape {
    let mut l = HwLit::new(2);
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        l.write(t, a, N, none());
        if let Some(f) = between {
            l.fence(t, f, none());
        }
        l.read(t, b, N, none());
    }
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

/// 2+2W's outcome `x = 1, y = 1` (each thread's first write co-last), `between`
/// each thread's two writes.
fn two_plus_two_w(name: &'static str, allowed: bool, between: Option<FenceKind>) -> Shape {
    let mut l = HwLit::new(2);
    let mut firsts = Vec::new();
    let mut seconds = Vec::new();
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        firsts.push(l.write(t, a, N, none()));
        if let Some(f) = between {
            l.fence(t, f, none());
        }
        seconds.push(l.write(t, b, N, none()));
    }
    // co x: T2's second write, then T1's first; co y: T1's second, then T2's first.
    l.co(X, &[seconds[1], firsts[0]])
        .co(Y, &[seconds[0], firsts[1]]);
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

/// IRIW's outcome (the readers see the two writes in opposite orders), the second
/// read of each reader address-dependent on the first when `addrs`.
fn iriw(name: &'static str, allowed: bool, addrs: bool) -> Shape {
    let mut l = HwLit::new(4);
    let wx = l.write(1, X, N, none());
    let wy = l.write(2, Y, N, none());
    for (t, a, b, w) in [(3, X, Y, wx), (4, Y, X, wy)] {
        let r0 = l.read(t, a, N, none());
        let on = if addrs { On::addr(r0) } else { none() };
        let r1 = l.read(t, b, N, on);
        l.rf(r0, Some(w)).rf(r1, None);
    }
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

/// WRC+addrs's outcome: T2 reads T1's write and writes y (address-dependent), T3
/// reads T2's write and then (address-dependent) the initial x.
fn wrc_addrs(name: &'static str, allowed: bool) -> Shape {
    let mut l = HwLit::new(3);
    let wx = l.write(1, X, N, none());
    let r0 = l.read(2, X, N, none());
    let wy = l.write(2, Y, N, On::addr(r0));
    let r1 = l.read(3, Y, N, none());
    let r2 = l.read(3, X, N, On::addr(r1));
    l.rf(r0, Some(wx)).rf(r1, Some(wy)).rf(r2, None);
    Shape {
        name,
        graph: l.g,
        allowed,
    }
}

fn plain_read(loc: Loc, on: fn(EventId) -> On) -> impl FnOnce(&mut HwLit, EventId) -> EventId {
    move |l: &mut HwLit, r: EventId| l.read(2, loc, N, on(r))
}

/// The ARMv8 shapes (see the module docs for the verdicts' source).
pub fn arm_shapes() -> Vec<Shape> {
    let dmb = |t| FenceKind::Dmb(Domain::Sy, t);
    let (sy, ld, st) = (
        dmb(BarrierTypes::All),
        dmb(BarrierTypes::Ld),
        dmb(BarrierTypes::St),
    );
    let none_on = |_| On::default();
    let mut v = vec![
        mp("MP", true, (N, N), None, plain_read(X, none_on), N),
        mp(
            "MP+dmb.sy+addr",
            false,
            (N, N),
            Some(sy),
            plain_read(X, On::addr),
            N,
        ),
        mp(
            "MP+dmb.sy+ctrl",
            true,
            (N, N),
            Some(sy),
            plain_read(X, On::ctrl),
            N,
        ),
        mp(
            "MP+dmb.st+addr",
            false,
            (N, N),
            Some(st),
            plain_read(X, On::addr),
            N,
        ),
        mp(
            "MP+dmb.sy+ctrlisb",
            false,
            (N, N),
            Some(sy),
            |l, r| {
                l.fence(2, FenceKind::Isb, On::ctrl(r));
                l.read(2, X, N, On::ctrl(r))
            },
            N,
        ),
        mp(
            "MP+dmb.sy+dmb.ld",
            false,
            (N, N),
            Some(sy),
            move |l, _| {
                l.fence(2, ld, none());
                l.read(2, X, N, none())
            },
            N,
        ),
        mp(
            "MP+dmb.st+dmb.ld",
            false,
            (N, N),
            Some(st),
            move |l, _| {
                l.fence(2, ld, none());
                l.read(2, X, N, none())
            },
            N,
        ),
        // A DMB.ST does not order the reader's reads.
        mp(
            "MP+dmb.sy+dmb.st",
            true,
            (N, N),
            Some(sy),
            move |l, _| {
                l.fence(2, st, none());
                l.read(2, X, N, none())
            },
            N,
        ),
        mp(
            "MP+popl+poap",
            false,
            (N, Tags::REL),
            None,
            plain_read(X, none_on),
            Tags::ACQ,
        ),
        mp(
            "MP+popl+poaqp",
            false,
            (N, Tags::REL),
            None,
            plain_read(X, none_on),
            Tags::ACQ_PC,
        ),
        lb("LB", true, |l, t, loc, _| l.write(t, loc, N, none())),
        lb("LB+datas", false, |l, t, loc, r| {
            l.write(t, loc, N, On::data(r))
        }),
        lb("LB+addrs", false, |l, t, loc, r| {
            l.write(t, loc, N, On::addr(r))
        }),
        lb("LB+ctrls", false, |l, t, loc, r| {
            l.write(t, loc, N, On::ctrl(r))
        }),
        sb("SB", true, None),
        sb("SB+dmb.sys", false, Some(sy)),
        // DMB.ST orders writes only: SB stays allowed.
        sb("SB+dmb.sts", true, Some(st)),
        two_plus_two_w("2+2W", true, None),
        two_plus_two_w("2+2W+dmb.sys", false, Some(sy)),
        two_plus_two_w("2+2W+dmb.sts", false, Some(st)),
        iriw("IRIW", true, false),
        iriw("IRIW+addrs", false, true),
        wrc_addrs("WRC+addrs", false),
    ];
    // R+dmb.sys: T1 W x; dmb; W y || T2 W y; dmb; R x = 0, T1's y write co-first.
    let mut l = HwLit::new(2);
    l.write(1, X, N, none());
    l.fence(1, sy, none());
    let wy1 = l.write(1, Y, N, none());
    let wy2 = l.write(2, Y, N, none());
    l.fence(2, sy, none());
    l.read(2, X, N, none());
    l.co(Y, &[wy1, wy2]);
    v.push(Shape {
        name: "R+dmb.sys",
        graph: l.g,
        allowed: false,
    });
    // S+dmb.sy+data: T1 W x; dmb; W y || T2 R y = 1; W x (data), T2's x write co-first.
    let mut l = HwLit::new(2);
    let wx1 = l.write(1, X, N, none());
    l.fence(1, sy, none());
    let wy = l.write(1, Y, N, none());
    let ry = l.read(2, Y, N, none());
    let wx2 = l.write(2, X, N, On::data(ry));
    l.rf(ry, Some(wy)).co(X, &[wx2, wx1]);
    v.push(Shape {
        name: "S+dmb.sy+data",
        graph: l.g,
        allowed: false,
    });
    // CoRR: a thread reads a write and then the initial value.
    let mut l = HwLit::new(2);
    let w = l.write(1, X, N, none());
    let r0 = l.read(2, X, N, none());
    let r1 = l.read(2, X, N, none());
    l.rf(r0, Some(w)).rf(r1, None);
    v.push(Shape {
        name: "CoRR",
        graph: l.g,
        allowed: false,
    });
    // Two fetch-adds reading the initial value: atomicity.
    let mut l = HwLit::new(2);
    let (_, w1) = l.amo(1, X, N);
    let (_, w2) = l.amo(2, X, N);
    l.co(X, &[w1, w2]);
    v.push(Shape {
        name: "2xLDADD (atomicity)",
        graph: l.g,
        allowed: false,
    });
    // An exclusive pair with another thread's write co-between its read's source
    // and its write: atomicity.
    let mut l = HwLit::new(2);
    let lx = l.read(1, X, Tags::EXCL, none());
    let sx = l.store_excl(1, X, N, lx);
    let w = l.write(2, X, N, none());
    l.co(X, &[w, sx]);
    v.push(Shape {
        name: "LDXR/STXR+intervening write (atomicity)",
        graph: l.g,
        allowed: false,
    });
    // Shapes whose verdicts follow from one clause of the POPL 2018 model (derived by
    // hand from it; the clause named). MP+dmb.sy+data-rfi-addr: the reader's data
    // dependency into a write it reads back, then an address dependency — forbidden
    // by dob's `(addr | data); rfi`.
    let mut l = HwLit::new(2);
    l.write(1, X, N, none());
    l.fence(1, sy, none());
    let wy = l.write(1, Y, N, none());
    let ry = l.read(2, Y, N, none());
    let wz = l.write(2, Z, N, On::data(ry));
    let rz = l.read(2, Z, N, none());
    let rx = l.read(2, X, N, On::addr(rz));
    l.rf(ry, Some(wy)).rf(rz, Some(wz)).rf(rx, None);
    v.push(Shape {
        name: "MP+dmb.sy+data-rfi-addr",
        graph: l.g,
        allowed: false,
    });
    // MP+dmb.sy+amo-rfi-acq: the reader's RMW reads y, an acquire load reads the
    // RMW's write back, then x — forbidden by aob's `[range(rmw)]; rfi; [A | Q]`.
    let mut l = HwLit::new(2);
    l.write(1, X, N, none());
    l.fence(1, sy, none());
    let wy = l.write(1, Y, N, none());
    let (ar, aw) = l.amo(2, Y, N);
    let ra = l.read(2, Y, Tags::ACQ, none());
    let rx = l.read(2, X, N, none());
    l.rf(ar, Some(wy)).rf(ra, Some(aw)).rf(rx, None);
    l.co(Y, &[wy, aw]);
    v.push(Shape {
        name: "MP+dmb.sy+amo-rfi-acq",
        graph: l.g,
        allowed: false,
    });
    // SB+rel-acqs (STLR then LDAR in each thread): ARMv8's release and acquire are
    // RCsc — forbidden by bob's `[L]; po; [A]` (POPL 2018, §2).
    let mut l = HwLit::new(2);
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        l.write(t, a, Tags::REL, none());
        l.read(t, b, Tags::ACQ, none());
    }
    v.push(Shape {
        name: "SB+rel-acqs",
        graph: l.g,
        allowed: false,
    });
    // With LDAPR (acquire-PC) instead, release-acquire-PC is not ordered: allowed.
    let mut l = HwLit::new(2);
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        l.write(t, a, Tags::REL, none());
        l.read(t, b, Tags::ACQ_PC, none());
    }
    v.push(Shape {
        name: "SB+rel-acqpcs",
        graph: l.g,
        allowed: true,
    });
    v
}

/// The RISC-V shapes (see the module docs for the verdicts' source).
pub fn riscv_shapes() -> Vec<Shape> {
    let f = |p: u8, s: u8| FenceKind::RiscV {
        pred: FenceOps(p),
        succ: FenceOps(s),
    };
    let (r, w, rw) = (FenceOps::R, FenceOps::W, FenceOps::R | FenceOps::W);
    let none_on = |_| On::default();
    let fenced_read = move |k: FenceKind| {
        move |l: &mut HwLit, _r: EventId| {
            l.fence(2, k, none());
            l.read(2, X, N, none())
        }
    };
    let mut v = vec![
        mp("MP", true, (N, N), None, plain_read(X, none_on), N),
        mp(
            "MP+fence.w.w+addr",
            false,
            (N, N),
            Some(f(w, w)),
            plain_read(X, On::addr),
            N,
        ),
        mp(
            "MP+fence.rw.rws",
            false,
            (N, N),
            Some(f(rw, rw)),
            fenced_read(f(rw, rw)),
            N,
        ),
        mp(
            "MP+fence.rw.rw+fence.rw.w",
            true,
            (N, N),
            Some(f(rw, rw)),
            fenced_read(f(rw, w)),
            N,
        ),
        mp(
            "MP+fence.rw.rw+fence.i",
            true,
            (N, N),
            Some(f(rw, rw)),
            fenced_read(FenceKind::RiscVFenceI),
            N,
        ),
        mp(
            "MP+fence.tsos",
            false,
            (N, N),
            Some(FenceKind::RiscVTso),
            fenced_read(FenceKind::RiscVTso),
            N,
        ),
        mp(
            "MP+poprl+poaqp",
            false,
            (N, Tags::REL),
            None,
            plain_read(X, none_on),
            Tags::ACQ,
        ),
        mp(
            "MP+po+poaqp",
            true,
            (N, N),
            None,
            plain_read(X, none_on),
            Tags::ACQ,
        ),
        mp(
            "MP+poprl+ctrl",
            true,
            (N, Tags::REL),
            None,
            plain_read(X, On::ctrl),
            N,
        ),
        lb("LB", true, |l, t, loc, _| l.write(t, loc, N, none())),
        lb("LB+datas", false, |l, t, loc, r| {
            l.write(t, loc, N, On::data(r))
        }),
        lb("LB+ctrls", false, |l, t, loc, r| {
            l.write(t, loc, N, On::ctrl(r))
        }),
        lb("LB+fence.r.ws", false, move |l, t, loc, _| {
            l.fence(t, f(r, w), none());
            l.write(t, loc, N, none())
        }),
        lb("LB+porls", false, |l, t, loc, _| {
            l.write(t, loc, Tags::REL, none())
        }),
        sb("SB", true, None),
        sb("SB+fence.rw.rws", false, Some(f(rw, rw))),
        sb("SB+fence.tsos", true, Some(FenceKind::RiscVTso)),
        sb("SB+fence.is", true, Some(FenceKind::RiscVFenceI)),
        two_plus_two_w("2+2W", true, None),
        two_plus_two_w("2+2W+fence.w.ws", false, Some(f(w, w))),
        two_plus_two_w("2+2W+fence.is", true, Some(FenceKind::RiscVFenceI)),
        iriw("IRIW+addrs", false, true),
        wrc_addrs("WRC+addrs", false),
    ];
    // CoRR: coherence (the load value axiom).
    let mut l = HwLit::new(2);
    let wx = l.write(1, X, N, none());
    let r0 = l.read(2, X, N, none());
    let r1 = l.read(2, X, N, none());
    l.rf(r0, Some(wx)).rf(r1, None);
    v.push(Shape {
        name: "CoRR",
        graph: l.g,
        allowed: false,
    });
    // Two AMOs reading the initial value: the atomicity axiom.
    let mut l = HwLit::new(2);
    let (_, w1) = l.amo(1, X, N);
    let (_, w2) = l.amo(2, X, N);
    l.co(X, &[w1, w2]);
    v.push(Shape {
        name: "2xAMO (atomicity)",
        graph: l.g,
        allowed: false,
    });
    // An AMO is one memory operation of the global memory order (RVWMO chapter: an
    // AMO generates a single operation, both a load and a store). RR+RR+rmw-fence.tsos
    // (Dat3M/herd: never): each thread `amoswap` of its location, `fence.tso`, a read
    // of the other's; all read 0. `fence.tso` orders the AMO (a load) before the read
    // (rule 4), each read is before the other thread's AMO (it reads 0: fr), so
    // AMO(x) < r(y) < AMO(y) < r(x) < AMO(x) — a cycle only when an AMO's write part
    // and read part are one node.
    let mut l = HwLit::new(2);
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        l.amo(t, a, N);
        l.fence(t, FenceKind::RiscVTso, none());
        l.read(t, b, N, none());
    }
    v.push(Shape {
        name: "RR+RR+rmw-fence.tsos (AMO one operation)",
        graph: l.g,
        allowed: false,
    });
    // MP+fence.rw.rw+data-amoswap-addr (Dat3M/herd: never): the reader's `amoswap`
    // stores a value data-dependent on its read of y (rule 10, into the AMO), and its
    // result gives the address of the read of x (rule 9, out of the AMO): r(y) < AMO
    // < r(x), with the writer's fence and fr from r(x) = 0 a cycle.
    v.push(mp(
        "MP+fence.rw.rw+data-amoswap-addr (AMO one operation)",
        false,
        (N, N),
        Some(f(rw, rw)),
        |l, ry| {
            let (ar, _) = l.amo_on(2, Z, N, On::data(ry));
            l.read(2, X, N, On::addr(ar))
        },
        N,
    ));
    // ISA-DEP-WR-ADDR (the manual's litmus test; Dat3M/herd: never): `lr x; sc x`
    // succeeds, and the address of the read of y depends on `sc`'s status register
    // (RVWMO's syntactic dependencies start at the operation of any instruction whose
    // destination register is read, `sc`'s `rd` included): sc(x) < r(y) (rule 9);
    // the other thread writes y, `fence rw,rw`, reads x = 0; with r(y) = 0:
    // sc(x) < r(y) <fr w(y) < r(x) <fr sc(x), a cycle.
    let mut l = HwLit::new(2);
    let lx = l.read(1, X, Tags::EXCL, none());
    let sc = l.store_excl(1, X, N, lx);
    l.read(1, Y, N, On::addr(sc));
    l.write(2, Y, N, none());
    l.fence(2, f(rw, rw), none());
    l.read(2, X, N, none());
    v.push(Shape {
        name: "ISA-DEP-WR-ADDR (sc status dependency)",
        graph: l.g,
        allowed: false,
    });
    // Shapes whose verdicts follow from one ppo rule (derived by hand from the
    // manual's rule, named). SB with `sc.rl` then `lr.aq` in each thread: RCsc
    // annotations order a release before a later acquire — forbidden by rule 7.
    let mut l = HwLit::new(2);
    for (t, (a, b)) in [(1, (X, Y)), (2, (Y, X))] {
        let lx = l.read(t, a, Tags::EXCL, none());
        l.store_excl(t, a, Tags::REL, lx);
        l.read(t, b, Tags::ACQ | Tags::EXCL, none());
    }
    v.push(Shape {
        name: "SB+lr-sc.rl-lr.aqs (rule 7)",
        graph: l.g,
        allowed: false,
    });
    // MP+fence.rw.rw+data-rfi-addr: rule 12 orders the reader's first read before
    // the read of its own store, rule 9 that read before the read of x — forbidden.
    v.push(mp(
        "MP+fence.rw.rw+data-rfi-addr (rules 12, 9)",
        false,
        (N, N),
        Some(f(rw, rw)),
        |l, ry| {
            let wz = l.write(2, Z, N, On::data(ry));
            let rz = l.read(2, Z, N, none());
            l.rf(rz, Some(wz));
            l.read(2, X, N, On::addr(rz))
        },
        N,
    ));
    // MP+fence.rw.rw+amo-rfi: the reader's AMO on y, a load reading its store back
    // (rule 3), then the read of x address-dependent on it (rule 9) — forbidden.
    let mut l = HwLit::new(2);
    l.write(1, X, N, none());
    l.fence(1, f(rw, rw), none());
    let wy = l.write(1, Y, N, none());
    let (ar, aw) = l.amo(2, Y, N);
    let ra = l.read(2, Y, N, none());
    let rx = l.read(2, X, N, On::addr(ra));
    l.rf(ar, Some(wy)).rf(ra, Some(aw)).rf(rx, None);
    l.co(Y, &[wy, aw]);
    v.push(Shape {
        name: "MP+fence.rw.rw+amo-rfi-addr (rules 8, 3, 9)",
        graph: l.g,
        allowed: false,
    });
    // MP+fence.rw.rw+addr-po: the read of x po-after a read address-dependent on
    // the first read orders nothing for reads (rule 13 is about stores): allowed.
    v.push(mp(
        "MP+fence.rw.rw+addr-po (rule 13 orders stores only)",
        true,
        (N, N),
        Some(f(rw, rw)),
        |l, ry| {
            l.read(2, Z, N, On::addr(ry));
            l.read(2, X, N, none())
        },
        N,
    ));
    v
}
