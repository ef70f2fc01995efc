//! RISC-V's weak memory ordering RVWMO, as the RISC-V Instruction Set Manual, Volume I
//! (Unprivileged ISA), defines it: chapter "RVWMO Memory Consistency Model" (the
//! preserved program order, rules 1–13, and the load value, atomicity and progress
//! axioms), in the axiomatic form of its appendix "Formal Memory Model
//! Specifications" (the herd formalization: a global memory order exists iff
//! `co ∪ rfe ∪ fr ∪ ppo` is acyclic, given SC per location).
//!
//! Events and relations are [`crate::hwexec`]'s. Annotations as herd's RISC-V
//! semantics gives them: an AMO's read part keeps its `.aq`, its write part its `.rl`,
//! and `.aqrl` makes both `Sc`; LR/SC and plain accesses keep theirs (`Acq`, `Rel`,
//! `AcqRel`). `AQ = Acq ∪ AcqRel ∪ Sc`, `RL = Rel ∪ AcqRel ∪ Sc`, `RCsc = (AQ ∪ RL) ∩
//! (AMO ∪ LR/SC)`; `AMO` the events of AMO instructions, `SC` successful
//! store-conditionals. Preserved program order `ppo` is the union of:
//!
//! 1. `[M];po-loc;[W]` — a later store to an overlapping address;
//! 2. `([R];po-loc-no-w;[R]) \ rsw` — two loads of one address with no store to it
//!    between them in po, reading from different stores (`rsw = rf⁻¹;rf`);
//! 3. `[AMO ∪ SC];rfi;[R]` — a load reading an AMO's or SC's store;
//! 4. fences: `a` in the predecessor set and `b` in the successor set of a `fence`
//!    po-between them (`fence.tso`: `[W];f;[W] ∪ [R];f;[M]`; `fence.i` orders no data
//!    access; the `i`/`o` operand bits order no normal memory access);
//! 5. `[AQ];po;[M]`; 6. `[M];po;[RL]`; 7. `[RCsc];po;[RCsc]`;
//! 8. `rmw` (an LR and its paired SC; an AMO's two parts);
//! 9. `[M];addr;[M]`; 10. `[M];data;[W]`; 11. `[M];ctrl;[W]`;
//! 12. `[M];(addr ∪ data);[W];rfi;[R]`; 13. `[M];addr;[M];po;[W]`.
//!
//! Axioms (the names are the manual's):
//! * **load value**: with SC per location, `acyclic(co ∪ rf ∪ fr ∪ po-loc)`
//!   ("Coherence" in the herd formalization), and the global memory order:
//!   `acyclic(co ∪ rfe ∪ fr ∪ ppo)` ("Model"), an AMO's read and write parts one
//!   operation of it ([`RiscV::model`]);
//! * **atomicity**: `rmw ∩ (fre; coe) = ∅`;
//! * **progress**: a liveness property (no store stays invisible forever): no finite
//!   execution graph violates it, so it is not checked.
//!
//! The model allows load buffering. [`MemoryModel::hb_view`] and the incremental check
//! mean what they mean for [`crate::armv8`]: the po-prefix extended by thread creation
//! and join; the whole check without the atomicity axiom, over the RMW pairs whose
//! write is immediately co-after the read's source.

use crate::hwexec::HwExec;
use crate::relation::Relation;
use porf_graph::hw::{FenceKind, FenceOps, Tags};
use porf_graph::Graph;

/// The RVWMO model.
#[derive(Copy, Clone, Debug, Default)]
pub struct RiscV;

/// An access's RISC-V ordering annotation (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Order {
    Acq,
    Rel,
    AcqRel,
    Sc,
}

fn order(x: &HwExec, i: usize) -> Option<Order> {
    if !x.is_mem(i) {
        return None;
    }
    let (aq, rl) = (x.tagged(i, Tags::ACQ), x.tagged(i, Tags::REL));
    let amo = x.is_amo(i) && !x.is_excl(i);
    match (aq, rl, amo) {
        (true, true, true) => Some(Order::Sc),
        (true, true, false) => Some(Order::AcqRel),
        (true, false, _) if !(amo && x.is_w[i]) => Some(Order::Acq),
        (false, true, _) if !(amo && x.is_r[i]) => Some(Order::Rel),
        _ => None,
    }
}

impl RiscV {
    /// Preserved program order: rules 1–13 (see the module docs).
    pub fn ppo(x: &HwExec) -> Relation {
        let po = &x.po;
        let m = x.id(|i| x.is_mem(i));
        let r = x.id(|i| x.is_r[i]);
        let w = x.id(|i| x.is_w[i]);
        let po_loc = x.po_loc();
        let rfi = x.internal(&x.rf);
        // 1.
        let r1 = po_loc.compose(&w);
        // 2. po-loc-no-w: no write c with a po-loc? c po-loc b.
        let w_between = po_loc.reflexive().compose(&w).compose(&po_loc);
        let r2 = po_loc.filter(|a, b| {
            x.is_r[a] && x.is_r[b] && !w_between.contains(a, b) && !x.same_source(a, b)
        });
        // 3.
        let amo_sc = x.id(|i| x.is_amo(i) || (x.is_excl(i) && x.is_w[i]));
        let r3 = amo_sc.compose(&rfi).compose(&r);
        // 4.
        let mut r4 = Relation::empty(x.n);
        for (pred, succ) in [(true, true), (true, false), (false, true), (false, false)] {
            // pred/succ: true = reads, false = writes.
            let orders = |i: usize| match x.fence(i) {
                Some(FenceKind::RiscV { pred: p, succ: s }) => {
                    let has = |o: FenceOps, read: bool| {
                        o.has(if read { FenceOps::R } else { FenceOps::W })
                    };
                    has(p, pred) && has(s, succ)
                }
                _ => false,
            };
            let kind = |read: bool| if read { &r } else { &w };
            r4.union_with(&kind(pred).compose(&x.fencerel(orders)).compose(kind(succ)));
        }
        let tso = x.fencerel(|i| x.fence(i) == Some(FenceKind::RiscVTso));
        r4.union_with(&w.compose(&tso).compose(&w));
        r4.union_with(&r.compose(&tso).compose(&m));
        // 5.–7.
        let ord = |want: &[Order]| x.id(|i| order(x, i).is_some_and(|o| want.contains(&o)));
        let aq = ord(&[Order::Acq, Order::AcqRel, Order::Sc]);
        let rl = ord(&[Order::Rel, Order::AcqRel, Order::Sc]);
        let rcsc = x.id(|i| order(x, i).is_some() && (x.is_amo(i) || x.is_excl(i)));
        let r5 = aq.compose(po).compose(&m);
        let r6 = m.compose(po).compose(&rl);
        let r7 = rcsc.compose(po).compose(&rcsc);
        // 8.
        let r8 = x.rmw.clone();
        // 9.–13.
        let r9 = m.compose(&x.addr).compose(&m);
        let r10 = m.compose(&x.data).compose(&w);
        let r11 = m.compose(&x.ctrl).compose(&w);
        let addr_data = x.addr.union(&x.data);
        let r12 = m.compose(&addr_data).compose(&w).compose(&rfi).compose(&r);
        let r13 = m.compose(&x.addr).compose(&m).compose(po).compose(&w);
        let mut ppo = r1;
        for rule in [r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13] {
            ppo.union_with(&rule);
        }
        ppo
    }
    /// SC per location (with the global memory order, the load value axiom).
    pub fn coherence(x: &HwExec) -> bool {
        x.co.union(&x.rf)
            .union(&x.fr)
            .union(&x.po_loc())
            .is_acyclic()
    }
    /// The global memory order exists: `acyclic(co ∪ rfe ∪ fr ∪ ppo)` over memory
    /// operations, an AMO being *one* operation ("RVWMO Memory Consistency Model": an
    /// AMO instruction generates a single memory operation that is both a load and a
    /// store; herd7 gives it a single event). porf splits an AMO into a read and a
    /// write part (`amo`), so the order is taken on the quotient that makes the two
    /// parts one node: `acyclic(((co ∪ rfe ∪ fr ∪ ppo) \ (amo ∪ amo⁻¹)); (amo ∪ amo⁻¹)?)`.
    /// Every ppo rule that holds of the single operation holds of one of its parts (a
    /// part has the operation's annotation, dependencies, and po position relative
    /// to other instructions), and an edge between the two parts is no edge of the
    /// single operation; so the quotient is the single-event order exactly. An LR and
    /// its SC are two instructions, two operations: `lxsx` pairs stay apart.
    pub fn model(x: &HwExec) -> bool {
        let same_op = x.amo.union(&x.amo.inverse());
        x.co.union(&x.external(&x.rf))
            .union(&x.fr)
            .union(&Self::ppo(x))
            .minus(&same_op)
            .compose(&same_op.reflexive())
            .is_acyclic()
    }
    fn check(g: &Graph, with_atomicity: bool) -> bool {
        let x = HwExec::new(g, !with_atomicity);
        Self::coherence(&x) && Self::model(&x) && (!with_atomicity || x.atomic())
    }
}

hardware_model!(
    RiscV,
    "riscv",
    incremental: |g| RiscV::check(g, false),
    whole: |g| RiscV::check(g, true),
    dependency_cycles: forbidden,
    extra: {
        /// The coherence axiom (SC per location) is `uniproc`.
        fn uniproc(&self) -> bool {
            true
        }
    },
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hwgen::litmus::riscv_shapes;
    use crate::MemoryModel;

    /// The published verdicts of the classic shapes ([`crate::hwgen::litmus`]).
    #[test]
    fn litmus_shapes_have_their_published_verdicts() {
        for s in riscv_shapes() {
            assert_eq!(RiscV.is_consistent(&s.graph), s.allowed, "{}", s.name);
            // The incremental check leaves atomicity to the explorers.
            let last = s.graph.events().last().map(|(e, _)| e).unwrap();
            if !s.name.contains("atomicity") {
                assert_eq!(
                    RiscV.consistent_with(&s.graph, last),
                    s.allowed,
                    "{}",
                    s.name
                );
            }
        }
        assert!(RiscV.allows_load_buffering() && !RiscV.has_data_races());
    }
}
