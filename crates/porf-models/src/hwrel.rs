//! The relations hardware models read off a graph, over [`Base`]'s event numbering:
//! program order extended by thread creation and join, the dependencies `addr`, `data`
//! and `ctrl` and the exclusive pairs of [`porf_graph::hw`], and each event's fence kind.
//!
//! Invariants (the same names, and the same meaning, as `porf-cat`'s builder gives
//! herd's cat files, so that a native model and its cat file see one execution):
//! - `po` is `(po ∪ sync)⁺`: a spawn is before the child's events, a thread's events
//!   are before a join of it (porf's programs create their threads; herd's tests start
//!   them together).
//! - `addr`, `data`, `ctrl` relate a po-earlier read of the same thread to the event
//!   whose [`porf_graph::hw::Deps`] name it (a missing `Hw` is no dependency); `data`
//!   ends at writes only; `ctrl` may end at a fence.
//! - `rmw` is `amo ∪ lxsx`: an RMW's read part to its write part
//!   ([`porf_graph::WriteKind::Exclusive`], [`Base::rmw`]; only when the write is
//!   immediately co-after the read's source, see [`HwBase::new`]) and a successful
//!   store-exclusive's [`porf_graph::hw::Hw::excl_read`] to it.
//! - The initialisation writes are not events; [`Base`]'s `fr` makes a read of the
//!   initial value fr-before every write of its location. In herd's execution the
//!   initial writes have no incoming edge in any relation, so they are on no cycle and
//!   the axioms of the models here do not depend on their absence.

use crate::relation::{Base, Relation};

#[cfg(test)]
pub(crate) mod testkit;
use porf_graph::hw::{FenceKind, Hw, Tags};
use porf_graph::{EventId, Graph, LabelKind, MemOrder};

/// What an event is to a hardware model.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Ev {
    Read,
    Write,
    /// A fence: its hardware kind (`None` for a C11 fence) and its C11 order.
    Fence(Option<FenceKind>, MemOrder),
    /// Anything else: thread start, spawn, join, finish, allocation, ... (herd's
    /// `~(M | F)`).
    Other,
}

/// A graph's relations for hardware models; see the module invariants.
pub(crate) struct HwBase {
    pub b: Base,
    pub ev: Vec<Ev>,
    /// The C11 order of each access or fence (`Relaxed` for other events).
    pub ord: Vec<MemOrder>,
    /// herd's `X`, as `porf-cat`'s builder gives it: the events of RMW instructions
    /// (an RMW's read part, a failed compare-exchange's included, and write part,
    /// [`porf_graph::ReadKind::is_exclusive`], [`porf_graph::WriteKind::Exclusive`]);
    /// in a graph with hardware facts, those that are not exclusive pairs
    /// ([`porf_graph::hw::Tags::EXCL`], [`Hw::excl_read`]) and every access tagged
    /// [`porf_graph::hw::Tags::AMO`].
    pub x: Vec<bool>,
    /// Thread of each event.
    pub tid: Vec<u32>,
    pub po: Relation,
    pub addr: Relation,
    pub data: Relation,
    pub ctrl: Relation,
    pub rmw: Relation,
    pub same_loc: Relation,
}

impl HwBase {
    pub fn new(g: &Graph) -> HwBase {
        let b = Base::new(g);
        let n = b.len();
        let mut ev = Vec::with_capacity(n);
        let mut ord = Vec::with_capacity(n);
        let mut x = Vec::with_capacity(n);
        let mut tid = Vec::with_capacity(n);
        let mut addr = Relation::empty(n);
        let mut data = Relation::empty(n);
        let mut ctrl = Relation::empty(n);
        // An RMW whose write part is not immediately co-after its read part's source
        // breaks porf's atomicity (`crate::atomicity`), which the whole-graph checks
        // test and the incremental ones leave to the explorer: it gets no edge, as in
        // `porf-cat`'s `from_graph_without_atomicity`.
        let mut rmw = b.rmw.filter(|r, w| {
            let (r, w) = (b.idx.event(r), b.idx.event(w));
            let lab = g.label(r);
            lab.loc()
                .is_some_and(|loc| g.co_next(loc, lab.rf()) == Some(w))
        });
        let default = Hw::default();
        let hardware = g.events().any(|(_, l)| l.hw.is_some());
        for i in 0..n {
            let e = b.idx.event(i);
            let lab = g.label(e);
            let hw = lab.hw.as_deref().unwrap_or(&default);
            ev.push(match lab.kind {
                LabelKind::Read { .. } => Ev::Read,
                LabelKind::Write { .. } => Ev::Write,
                LabelKind::Fence { ord } => Ev::Fence(hw.fence, ord),
                _ => Ev::Other,
            });
            ord.push(lab.ord().unwrap_or(MemOrder::Relaxed));
            x.push(if hardware {
                let excl = hw.tags.contains(Tags::EXCL);
                (lab.is_access() && hw.tags.contains(Tags::AMO))
                    || (lab.is_exclusive_read() && !excl)
                    || (lab.is_exclusive_write() && hw.excl_read.is_none())
            } else {
                lab.is_exclusive_write() || lab.is_exclusive_read()
            });
            tid.push(e.tid);
            let of = |d: u32| b.idx.of(EventId::new(e.tid, d));
            for &d in &hw.deps.addr {
                addr.add(of(d), i);
            }
            if lab.is_write() {
                for &d in &hw.deps.data {
                    data.add(of(d), i);
                }
            }
            for &d in &hw.deps.ctrl {
                ctrl.add(of(d), i);
            }
            if let (Some(r), true) = (hw.excl_read, lab.is_write()) {
                rmw.add(of(r), i);
            }
        }
        let po = b.po.union(&b.sync).closure();
        let same_loc = b.same_loc(g);
        HwBase {
            b,
            ev,
            ord,
            x,
            tid,
            po,
            addr,
            data,
            ctrl,
            rmw,
            same_loc,
        }
    }
    pub fn len(&self) -> usize {
        self.b.len()
    }
    pub fn is_read(&self, i: usize) -> bool {
        self.ev[i] == Ev::Read
    }
    pub fn is_write(&self, i: usize) -> bool {
        self.ev[i] == Ev::Write
    }
    pub fn is_access(&self, i: usize) -> bool {
        matches!(self.ev[i], Ev::Read | Ev::Write)
    }
    /// `r ∩ ext`: pairs of events of different threads.
    pub fn ext(&self, r: &Relation) -> Relation {
        r.filter(|a, b| self.tid[a] != self.tid[b])
    }
    /// `r ∩ int`.
    pub fn int(&self, r: &Relation) -> Relation {
        r.filter(|a, b| self.tid[a] == self.tid[b])
    }
    /// `po ∩ loc`.
    pub fn po_loc(&self) -> Relation {
        inter(&self.po, &self.same_loc)
    }
    /// herd's `fencerel(S)`, `po; [S]; po`, between accesses only: pairs of accesses
    /// with an event of `s` po-between them.
    pub fn fencerel(&self, s: impl Fn(usize) -> bool) -> Relation {
        let n = self.len();
        let mut r = Relation::empty(n);
        for f in (0..n).filter(|&f| s(f)) {
            for a in (0..n).filter(|&a| self.is_access(a) && self.po.contains(a, f)) {
                for c in self.po.successors(f).filter(|&c| self.is_access(c)) {
                    r.add(a, c);
                }
            }
        }
        r
    }
}

/// `a ∩ b`.
pub(crate) fn inter(a: &Relation, b: &Relation) -> Relation {
    a.filter(|x, y| b.contains(x, y))
}

/// `a \ b`.
pub(crate) fn minus(a: &Relation, b: &Relation) -> Relation {
    a.filter(|x, y| !b.contains(x, y))
}
