//! x86-TSO, for C11 programs compiled the way x86 compilers do (Kokologiannakis et al., PLDI
//! 2019, App. A.2, in
//! the equivalent herd-style axiomatic form):
//!
//! * `acyclic(ppo ∪ sync ∪ rfe ∪ co ∪ fr)` (global happens-before), and
//! * `acyclic(po|loc ∪ rf ∪ co ∪ fr)` (uniproc / SC per location).
//!
//! `ppo` is po minus the pairs (non-locked write, non-locked read) with no barrier
//! between them. Barriers ([`Class::Barrier`]) are the locked events — both parts of
//! RMWs, locks and trylocks (also a failed CAS's read), seq_cst writes (`xchg`) and
//! seq_cst fences (`mfence`) — and the thread-structure events (`Start`, `Spawn`,
//! `Join`, `Finish`, `Block`, `Error`: thread creation and join are full barriers on
//! real hardware, and they must be for the sync edges to be usable in a cycle).
//! Non-seq_cst fences are no-ops on x86 and take no part in ppo at all.
//!
//! The same model reads X86 hardware graphs (herd's `x86tso.cat`, the model of Owens,
//! Sarkar and Sewell, "A better x86 memory model: x86-TSO", TPHOLs 2009) from their
//! [`porf_graph::hw::Hw`] facts, which come first: an `MFENCE`
//! ([`FenceKind::Mfence`]) is a barrier whatever its C11 order; `LFENCE` and `SFENCE`
//! are no-ops (x86-TSO already keeps the orders they enforce: every pair but
//! write-to-read); both events of a `LOCK`-prefixed instruction or `XCHG`
//! ([`Tags::AMO`]) are locked. A hardware access's C11 order is read as usual, so
//! plain `MOV`s must carry a non-seq_cst order (a seq_cst write is C11's `xchg`). A
//! C11 graph has no `Hw`, so nothing changes for it. The locked events of herd's
//! `x86tso.cat` are exactly these barriers: its `implied` edges (`W → R` po pairs
//! with a locked end) and its `mfence` edges are the pairs that a barrier keeps in
//! ppo here.

use crate::atomicity;
use crate::relation::Base;
use crate::sc::{atomic_rf_view, on_cycle, Nav};
use crate::MemoryModel;
use porf_graph::hw::{FenceKind, Tags};
use porf_graph::{EventId, Graph, Label, LabelKind, View, WriteKind};

/// x86-TSO.
#[derive(Copy, Clone, Debug, Default)]
pub struct Tso;

/// The role of an event in x86 preserved program order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// A non-seq_cst fence: not in ppo.
    Skip,
    /// A non-locked read.
    Read,
    /// A non-locked write.
    Write,
    /// A locked or thread-structure event: ordered with everything.
    Barrier,
}

pub(crate) fn class(lab: &Label) -> Class {
    if let Some(hw) = lab.hw.as_deref() {
        match hw.fence {
            Some(FenceKind::Mfence) => return Class::Barrier,
            Some(FenceKind::Lfence | FenceKind::Sfence) => return Class::Skip,
            _ => {}
        }
        if hw.tags.contains(Tags::AMO) && lab.is_access() {
            return Class::Barrier;
        }
    }
    match lab.kind {
        LabelKind::Read { kind, .. } if kind.is_exclusive() => Class::Barrier,
        LabelKind::Read { .. } => Class::Read,
        LabelKind::Write { ord, kind, .. } if kind == WriteKind::Exclusive || ord.is_sc() => {
            Class::Barrier
        }
        LabelKind::Write { .. } => Class::Write,
        LabelKind::Fence { ord } if ord.is_sc() => Class::Barrier,
        LabelKind::Fence { .. } => Class::Skip,
        _ => Class::Barrier,
    }
}

/// The ppo successors of `a`, found by scanning `a`'s thread forward: a `Write` →
/// the next non-`Read`; a `Read`/`Barrier` → the next event and the next non-`Write`
/// (`Skip` events are never targets). The transitive closure of these edges is
/// exactly ppo (ppo on non-`Skip` events is itself transitive). A scan stops at its
/// first hit, so over one DFS (each event expanded once) a run of events of one class
/// is crossed only by the scan of the event just before it.
fn ppo_succ(g: &Graph, a: EventId, out: &mut Vec<EventId>) {
    let labs = g.thread(a.tid);
    let first = |want: &dyn Fn(Class) -> bool| {
        labs.range(a.idx as usize + 1..)
            .position(|l| want(class(l)))
            .map(|j| EventId::new(a.tid, a.idx + 1 + j as u32))
    };
    match class(&labs[a.idx as usize]) {
        Class::Skip => {}
        Class::Write => out.extend(first(&|c| c != Class::Skip && c != Class::Read)),
        Class::Read | Class::Barrier => {
            let any = first(&|c| c != Class::Skip);
            out.extend(any);
            if any.is_some_and(|n| class(g.label(n)) == Class::Write) {
                out.extend(first(&|c| c != Class::Skip && c != Class::Write));
            }
        }
    }
}

/// The next access of `a`'s location in `a`'s thread, if any.
pub(crate) fn po_loc_next(g: &Graph, a: EventId) -> Option<EventId> {
    let loc = g.label(a).loc()?;
    let j = g
        .thread(a.tid)
        .range(a.idx as usize + 1..)
        .position(|l| l.loc() == Some(loc))?;
    Some(EventId::new(a.tid, a.idx + 1 + j as u32))
}

impl MemoryModel for Tso {
    fn name(&self) -> &'static str {
        "tso"
    }
    /// [`crate::floor::hb_floor`]: the model is coherent with respect to its hb.
    fn co_floor(&self, g: &Graph, loc: porf_graph::Loc, view: &View) -> usize {
        crate::floor::hb_floor(g, loc, view, None)
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        atomic_rf_view(g, e)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        let nav = Nav::new(g);
        let ghb_cycle = on_cycle(g, e, |a, out| {
            ppo_succ(g, a, out);
            nav.sync_succ(a, out);
            nav.rf_succ(a, true, out);
            nav.co_fr_succ(a, out);
        });
        if ghb_cycle {
            return false;
        }
        !on_cycle(g, e, |a, out| {
            out.extend(po_loc_next(g, a));
            nav.rf_succ(a, false, out);
            nav.co_fr_succ(a, out);
        })
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        if !atomicity::holds(g) {
            return false;
        }
        let b = Base::new(g);
        let classes: Vec<Class> = (0..b.len()).map(|i| class(b.idx.label(g, i))).collect();
        // (non-locked write, non-locked read) pairs with no barrier between them.
        let mut relaxed = std::collections::HashSet::new();
        for (w, lab) in g.events() {
            if class(lab) != Class::Write {
                continue;
            }
            for (j, l2) in g.thread(w.tid).iter().enumerate().skip(w.idx as usize + 1) {
                match class(l2) {
                    Class::Barrier => break,
                    Class::Read => {
                        relaxed.insert((b.idx.of(w), b.idx.of(EventId::new(w.tid, j as u32))));
                    }
                    _ => {}
                }
            }
        }
        let ppo = b.po.filter(|x, y| {
            classes[x] != Class::Skip && classes[y] != Class::Skip && !relaxed.contains(&(x, y))
        });
        let rfe = b.rf.filter(|x, y| b.idx.event(x).tid != b.idx.event(y).tid);
        let ghb = ppo.union(&b.sync).union(&rfe).union(&b.co).union(&b.fr);
        let same_loc = b.same_loc(g);
        let po_loc = b.po.filter(|x, y| same_loc.contains(x, y));
        let uniproc = po_loc.union(&b.rf).union(&b.co).union(&b.fr);
        ghb.is_acyclic() && uniproc.is_acyclic()
    }
    /// VerifyTSO ([`crate::rf::verify_tso`]).
    fn rf_consistent(&self, g: &Graph) -> Option<crate::rf::CoWitness> {
        self.rf_check(g).witness
    }
    /// VerifyTSO, saying whether its pre-check or closure alone refuted the graph.
    fn rf_check(&self, g: &Graph) -> crate::rf::RfCheck {
        crate::rf::verify_tso::verify_tso_check(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::testkit::{self, Expect};

    #[test]
    fn litmus_shapes() {
        testkit::check_shapes(
            &Tso,
            Expect {
                sb: true,
                sb_sc: false,
                mp: false,
                mp_fences: false,
                sb_fences: false,
                lb: false,
                corr: false,
                two_plus_two_w: false,
            },
        );
    }

    #[test]
    fn execution_counts() {
        testkit::check_counts(&Tso);
    }
}

#[cfg(test)]
mod hw_tests {
    //! x86-TSO on X86 hardware shapes. Verdicts: Owens, Sarkar and Sewell, "A better
    //! x86 memory model: x86-TSO", TPHOLs 2009 (SB allowed, SB with `MFENCE`s or
    //! locked instructions forbidden, MP, LB and IRIW forbidden), as herd7 computes
    //! them for Dat3M's `litmus/X86` (`TSO-expected.csv`: `SB+mfences` 0); `LFENCE`
    //! and `SFENCE` order nothing x86-TSO does not already order (Intel SDM vol. 3
    //! §8.2; herd7's `x86tso.cat` has no edge for them).
    use super::Tso;
    use crate::hwrel::testkit::{allowed, Src, I};
    use crate::relation::testkit::{X, Y};
    use porf_graph::hw::FenceKind::{Lfence, Mfence, Sfence};
    use porf_graph::MemOrder::{Relaxed, SeqCst};

    const INIT: Src = Src::Init;

    fn sb(between: &[I]) -> bool {
        let mut t1 = vec![I::W(X, 1)];
        t1.extend_from_slice(between);
        t1.push(I::R(Y, INIT));
        let mut t2 = vec![I::W(Y, 1)];
        t2.extend_from_slice(between);
        t2.push(I::R(X, INIT));
        allowed(&Tso, &[&t1, &t2])
    }

    #[test]
    fn store_buffering() {
        assert!(sb(&[]), "SB");
        assert!(!sb(&[I::F(Mfence)]), "SB+mfences");
        assert!(
            !sb(&[I::Fx(Mfence, Relaxed)]),
            "an MFENCE whatever its C11 order"
        );
        assert!(sb(&[I::F(Lfence)]), "SB+lfences");
        assert!(
            sb(&[I::Fx(Sfence, SeqCst)]),
            "an SFENCE whatever its C11 order"
        );
        // XCHG as the stores: locked.
        let xchg = allowed(
            &Tso,
            &[
                &[I::Amo(X, INIT, 1), I::R(Y, INIT)],
                &[I::Amo(Y, INIT, 1), I::R(X, INIT)],
            ],
        );
        assert!(!xchg, "SB with XCHGs");
        // A LOCK'd RMW of another location between: a barrier.
        let locked = allowed(
            &Tso,
            &[
                &[
                    I::W(X, 1),
                    I::Amo(porf_graph::Loc(3), INIT, 1),
                    I::R(Y, INIT),
                ],
                &[
                    I::W(Y, 1),
                    I::Amo(porf_graph::Loc(3), Src::W(1, 1), 2),
                    I::R(X, INIT),
                ],
            ],
        );
        assert!(!locked, "SB+lock-adds");
    }

    #[test]
    fn other_shapes() {
        let mp = allowed(
            &Tso,
            &[
                &[I::W(X, 1), I::W(Y, 1)],
                &[I::R(Y, Src::W(1, 1)), I::R(X, INIT)],
            ],
        );
        assert!(!mp, "MP");
        let lb = allowed(
            &Tso,
            &[
                &[I::R(X, Src::W(2, 0)), I::W(Y, 1)],
                &[I::R(Y, Src::W(1, 0)), I::W(X, 1)],
            ],
        );
        assert!(!lb, "LB");
        let iriw = allowed(
            &Tso,
            &[
                &[I::W(X, 1)],
                &[I::W(Y, 1)],
                &[I::R(X, Src::W(1, 0)), I::R(Y, INIT)],
                &[I::R(Y, Src::W(2, 0)), I::R(X, INIT)],
            ],
        );
        assert!(!iriw, "IRIW");
    }
}
