//! A graph as the hardware models see it ([`HwExec`]): events numbered as
//! [`EventIndex`] does, with the relations and event sets of herd's executions, read
//! off the events' labels and their [`Hw`] facts (a missing `Hw` reads as
//! [`Hw::default`]). The same definitions as `porf-cat`'s builder gives a cat file
//! (`porf_cat::build::hw`), so that a native model and a cat file of it answer the
//! same question:
//!
//! * `po`: program order extended by thread creation and join, transitive, between
//!   events of different instructions (herd's `po`); `int`: same thread. `si` (herd's
//!   `si`/`sm` without its identity part, its single-copy-atomic classes): the unit
//!   events one mixed-size access is split into, of one direction (a split RMW's unit
//!   reads are one class, its unit writes another) and one access of a pair
//!   instruction (`LDP`/`STP`), [`porf_graph::hw::access_class`]. The initial writes are not events: a read of the initial value has
//!   no `rf` edge, is `fr`-before every write of its location (all of them external
//!   to it in the sense of `fre`: no thread writes the initial value), and reads the
//!   same write as every other read of the initial value (`rf⁻¹; rf`, see
//!   [`HwExec::same_source`]). Initial writes only have outgoing edges, so no cycle
//!   and no `rmw` pair passes through them and leaving them out changes no axiom.
//! * `addr`, `ctrl` (to any event, fences included), `data` (to writes only);
//!   `amo` (an RMW's read part to its write part: `WriteKind::Exclusive` writes
//!   without [`Hw::excl_read`]; with `atomic_pairs_only`, only the pairs whose write
//!   is immediately co-after the read's source), `lxsx` ([`Hw::excl_read`] pairs: from every
//!   unit read of a split load-exclusive to every unit write of its split
//!   store-exclusive, as herd's `[R & EX]; po \ (po; [M & EX]; po); [W & EX]` relates
//!   them), `rmw = amo ∪ lxsx`.
//! * sets: [`HwExec::is_amo`] (herd's `X`), [`HwExec::is_excl`] (`EX`), the tags and
//!   fence kinds of each event.

use crate::relation::{Base, EventIndex, Relation};
use porf_graph::hw::{access_class, instruction_start, FenceKind, Hw, Tags};
use porf_graph::{EventId, Graph, LabelKind, Loc};

/// The hardware view of a graph (see the module docs).
pub struct HwExec {
    pub idx: EventIndex,
    pub n: usize,
    pub tid: Vec<u32>,
    pub loc: Vec<Option<Loc>>,
    pub is_r: Vec<bool>,
    pub is_w: Vec<bool>,
    pub is_fence: Vec<bool>,
    pub hw: Vec<Hw>,
    /// For a read, its source (`None`: the initial value).
    pub src: Vec<Option<Option<usize>>>,
    pub po: Relation,
    pub rf: Relation,
    pub co: Relation,
    pub fr: Relation,
    pub addr: Relation,
    pub data: Relation,
    pub ctrl: Relation,
    pub amo: Relation,
    pub lxsx: Relation,
    pub rmw: Relation,
    /// Distinct events of one split access (see the module docs); empty in tests
    /// without mixed-size accesses.
    pub si: Relation,
    amo_event: Vec<bool>,
}

impl HwExec {
    pub fn new(g: &Graph, atomic_pairs_only: bool) -> HwExec {
        let base = Base::new(g);
        let idx = base.idx.clone();
        let n = idx.len();
        let labels: Vec<_> = (0..n).map(|i| idx.label(g, i)).collect();
        let hw: Vec<Hw> = labels
            .iter()
            .map(|l| l.hw.as_deref().cloned().unwrap_or_default())
            .collect();
        let tid = (0..n).map(|i| idx.event(i).tid).collect();
        let loc = labels.iter().map(|l| l.loc()).collect();
        let is_r: Vec<bool> = labels.iter().map(|l| l.is_read()).collect();
        let is_w: Vec<bool> = labels.iter().map(|l| l.is_write()).collect();
        let is_fence = labels
            .iter()
            .map(|l| matches!(l.kind, LabelKind::Fence { .. }))
            .collect();
        let src = labels
            .iter()
            .map(|l| match l.kind {
                LabelKind::Read { rf, .. } => Some(rf.map(|w| idx.of(w))),
                _ => None,
            })
            .collect();
        // Each event's instruction: its first event (`hw::instruction_start`).
        let instr: Vec<usize> = (0..n)
            .map(|i| idx.of(instruction_start(g, idx.event(i))))
            .collect();
        let (mut addr, mut data, mut ctrl) =
            (Relation::empty(n), Relation::empty(n), Relation::empty(n));
        let (mut amo, mut lxsx) = (Relation::empty(n), Relation::empty(n));
        for i in 0..n {
            let e = idx.event(i);
            let of = |r: &u32| idx.of(EventId::new(e.tid, *r));
            for r in &hw[i].deps.addr {
                addr.add(of(r), i);
            }
            if is_w[i] {
                for r in &hw[i].deps.data {
                    data.add(of(r), i);
                }
            }
            for r in &hw[i].deps.ctrl {
                ctrl.add(of(r), i);
            }
            if let Some(r) = hw[i].excl_read {
                // Every unit read of the load-exclusive's instruction.
                let first = instr[of(&r)];
                for u in (first..n).take_while(|&u| instr[u] == first) {
                    lxsx.add(u, i);
                }
            } else if labels[i].is_exclusive_write() {
                if let (Some(r), Some(l)) = (e.prev(), labels[i].loc()) {
                    let adjacent = g.co_next(l, g.label(r).rf()) == Some(e);
                    if adjacent || !atomic_pairs_only {
                        amo.add(idx.of(r), i);
                    }
                }
            }
        }
        let rmw_read = |i: usize| labels[i].is_exclusive_read() && !hw[i].tags.contains(Tags::EXCL);
        let amo_event = (0..n)
            .map(|i| {
                hw[i].tags.contains(Tags::AMO)
                    || rmw_read(i)
                    || (labels[i].is_exclusive_write() && hw[i].excl_read.is_none())
            })
            .collect();
        let (same_instr, si) = if (0..n).any(|i| instr[i] != i) {
            let same = Relation::from_fn(n, |a, b| a != b && instr[a] == instr[b]);
            let class: Vec<_> = (0..n).map(|i| access_class(g, idx.event(i))).collect();
            let si = same.filter(|a, b| class[a] == class[b]);
            (same, si)
        } else {
            (Relation::empty(n), Relation::empty(n))
        };
        let po = base.po.union(&base.sync).closure().minus(&same_instr);
        let rmw = amo.union(&lxsx);
        HwExec {
            idx,
            n,
            tid,
            loc,
            is_r,
            is_w,
            is_fence,
            hw,
            src,
            po,
            rf: base.rf,
            co: base.co,
            fr: base.fr,
            addr,
            data,
            ctrl,
            amo,
            lxsx,
            rmw,
            si,
            amo_event,
        }
    }

    pub fn is_mem(&self, i: usize) -> bool {
        self.is_r[i] || self.is_w[i]
    }
    /// herd's `X`: the events of single-instruction atomic RMWs.
    pub fn is_amo(&self, i: usize) -> bool {
        self.amo_event[i]
    }
    /// herd's `EX`: load- and store-exclusives.
    pub fn is_excl(&self, i: usize) -> bool {
        self.tagged(i, Tags::EXCL)
    }
    pub fn tagged(&self, i: usize, t: Tags) -> bool {
        self.hw[i].tags.contains(t)
    }
    /// The fence kind of fence event `i`.
    pub fn fence(&self, i: usize) -> Option<FenceKind> {
        if self.is_fence[i] {
            self.hw[i].fence
        } else {
            None
        }
    }
    /// Same thread.
    pub fn int(&self, a: usize, b: usize) -> bool {
        self.tid[a] == self.tid[b]
    }
    /// `r ∩ int`.
    pub fn internal(&self, r: &Relation) -> Relation {
        r.filter(|a, b| self.int(a, b))
    }
    /// `r ∩ ext`.
    pub fn external(&self, r: &Relation) -> Relation {
        r.filter(|a, b| !self.int(a, b))
    }
    /// `fr` with a read of the initial value external to every write.
    pub fn fre(&self) -> Relation {
        self.fr.filter(|a, b| !self.int(a, b))
    }
    /// Accesses of one location: `(a, b)` with both accesses to one location.
    pub fn same_loc(&self, a: usize, b: usize) -> bool {
        self.loc[a].is_some() && self.loc[a] == self.loc[b]
    }
    /// `po-loc`.
    pub fn po_loc(&self) -> Relation {
        self.po.filter(|a, b| self.same_loc(a, b))
    }
    /// `rf⁻¹; rf`: reads `a`, `b` reading the same write (the same initial value).
    pub fn same_source(&self, a: usize, b: usize) -> bool {
        self.src[a].is_some() && self.src[a] == self.src[b] && self.same_loc(a, b)
    }
    /// `[s]`.
    pub fn id(&self, s: impl Fn(usize) -> bool) -> Relation {
        Relation::identity(self.n, s)
    }
    /// `fencerel(S)`: `(po ∩ (_ × S)); po`.
    pub fn fencerel(&self, s: impl Fn(usize) -> bool) -> Relation {
        self.po.filter(|_, b| s(b)).compose(&self.po)
    }
    /// `r; si?`: `r` extended to the other events of each target's instruction.
    pub fn then_si(&self, r: &Relation) -> Relation {
        r.union(&r.compose(&self.si))
    }
    /// The atomicity axiom shared by ARMv8 and RISC-V: `rmw ∩ (fre; coe) = ∅`.
    pub fn atomic(&self) -> bool {
        let fre_coe = self.fre().compose(&self.external(&self.co));
        self.rmw.pairs().all(|(a, b)| !fre_coe.contains(a, b))
    }
}
