//! ARMv8 (AArch64), the multi-copy-atomic axiomatic model of Pulte, Flur, Deacon,
//! French, Sarkar and Sewell, "Simplifying ARM Concurrency: Multicopy-Atomic Axiomatic
//! and Operational Models for ARMv8" (POPL 2018), §3 and its Fig. 5 (the model as Will
//! Deacon wrote it in herd's cat for the Arm architecture reference manual).
//!
//! With `po`, `rf`, `co`, `fr`, the dependencies and `rmw` of [`crate::hwexec`], the
//! event sets `R`, `W`, `A` (acquire reads: `LDAR`, `LDAXR`, the read of `SWPA`…), `Q`
//! (acquire-PC reads, `LDAPR`), `L` (release writes: `STLR`, `STLXR`, the write of
//! `SWPL`…), and the barriers `dmb.full`, `dmb.ld`, `dmb.st` (a DSB counts as the DMB
//! of its type: it orders at least what that DMB orders) and `ISB` — the shareability
//! domain is not modelled (the paper's model has one domain):
//!
//! * **internal** (coherence, SC per location): `acyclic(po-loc ∪ co ∪ fr ∪ rf)`.
//! * **external**: `acyclic(ob)`, `ob = obs ∪ dob ∪ aob ∪ bob`, where
//!   - `obs = rfe ∪ fre ∪ coe` (observed-by);
//!   - `dob = addr ∪ data ∪ ctrl;[W] ∪ (ctrl ∪ addr;po);[ISB];po;[R] ∪ addr;po;[W]
//!     ∪ (ctrl ∪ data);coi ∪ (addr ∪ data);rfi` (dependency-ordered-before);
//!   - `aob = rmw ∪ [range(rmw)];rfi;[A ∪ Q]` (atomic-ordered-before);
//!   - `bob = po;[dmb.full];po ∪ [L];po;[A] ∪ [R];po;[dmb.ld];po ∪ [A ∪ Q];po
//!     ∪ [W];po;[dmb.st];po;[W] ∪ po;[L] ∪ po;[L];coi` (barrier-ordered-before; the
//!     last clause is the Arm ARM's later addition for a release followed by a
//!     same-location write, as in herd's model).
//! * **atomic**: `rmw ∩ (fre; coe) = ∅` (no write of another thread between the two
//!   parts of an RMW or an exclusive pair).
//!
//! Dependencies start at reads: the status register of a store-exclusive (`STXR`)
//! carries none, as in herd7's AArch64 semantics (its `SwitchDepScWrite` and
//! `SwitchDepScResult` are off for AArch64) and the paper's `addr`/`data`/`ctrl`,
//! which run from reads; the asm front end gives it none.
//!
//! **Mixed-size accesses** (Flur, Sarkar, Pulte, Nienhuis, Maranget, Gray, Sezgin,
//! Batty and Sewell, "Mixed-size Concurrency: ARM, POWER, C/C++11, and SC", POPL 2017;
//! the Arm model in herd7 with `-variant mixed`): an access wider than the test's
//! access unit is one event per unit, the events of one instruction related by `si`
//! ([`HwExec::si`]) and not by `po`; `rf`, `co`, `fr` and `loc` are per unit. The Arm
//! model then extends two clauses of `ob` to the whole instruction of their target:
//! `obs; si?` (an observation of one unit of an access orders the access's other
//! units too: single-copy atomicity of an aligned access) and `lws; si?` with
//! `lws = po-loc; [W]` (a write after a same-location access, all its units). Without
//! split accesses `si` is empty and `lws` adds nothing to `ob`'s cycles: an
//! `ob`-predecessor of `e` with `e` po-loc `w` is one of `w` (through `addr; po; [W]`,
//! `ctrl; [W]`, the barriers' `po`, `[A | Q]; po`), or an `rfe` into a read `e`, then
//! `coe` into `w` by coherence; `coi` is `lws` on writes. The Arm model's later
//! `(addr | data); lrs` and `[range(rmw)]; lrs; [A | Q]` (`lrs`: the po-latest earlier
//! write of the location) reach the same events per unit as the `rfi` clauses here
//! with `coe; rfe`, so they are left as the paper wrote them.
//!
//! The model allows load buffering (`po ∪ rf` cycles): only dependencies and barriers
//! order a read before a later write. [`MemoryModel::hb_view`] is the po-prefix of an
//! event, extended by thread creation and join ([`crate::sc`]'s `po_sync_view`): the
//! events the model orders before it *in its own thread or by thread creation*, which
//! is what the SC-per-location axiom makes every later access of the same location
//! see (so that `reads_stale`'s default is sound); the model has no data races
//! ([`MemoryModel::has_data_races`] is false). The incremental
//! [`MemoryModel::consistent_with`] is the whole check without the atomicity axiom,
//! with only the RMW pairs whose write is immediately co-after the read's source (the
//! explorers handle RMW atomicity, [`crate::atomicity`]).

use crate::hwexec::HwExec;
use crate::relation::Relation;
use porf_graph::hw::{BarrierTypes, FenceKind, Tags};
use porf_graph::Graph;

/// The ARMv8 model.
#[derive(Copy, Clone, Debug, Default)]
pub struct Armv8;

/// The barrier classes of the model.
fn barrier(x: &HwExec, i: usize, want: BarrierTypes) -> bool {
    matches!(x.fence(i), Some(FenceKind::Dmb(_, t) | FenceKind::Dsb(_, t)) if t == want)
}

impl Armv8 {
    /// The internal (SC per location) axiom.
    pub fn internal(x: &HwExec) -> bool {
        x.po_loc()
            .union(&x.co)
            .union(&x.fr)
            .union(&x.rf)
            .is_acyclic()
    }
    /// The ordered-before relation `ob` (not closed).
    pub fn ob(x: &HwExec) -> Relation {
        let po = &x.po;
        let r = x.id(|i| x.is_r[i]);
        let w = x.id(|i| x.is_w[i]);
        let rfi = x.internal(&x.rf);
        let coi = x.internal(&x.co);
        let obs = x.then_si(&x.external(&x.rf).union(&x.fre()).union(&x.external(&x.co)));
        let lws = x.then_si(&x.po_loc().compose(&w));
        // dob
        let addr_data = x.addr.union(&x.data);
        let ctrl_data = x.ctrl.union(&x.data);
        let isb = x.id(|i| x.fence(i) == Some(FenceKind::Isb));
        let dob = addr_data
            .union(&x.ctrl.compose(&w))
            .union(
                &x.ctrl
                    .union(&x.addr.compose(po))
                    .compose(&isb)
                    .compose(po)
                    .compose(&r),
            )
            .union(&x.addr.compose(po).compose(&w))
            .union(&ctrl_data.compose(&coi))
            .union(&addr_data.compose(&rfi));
        // aob
        let acq_q = x.id(|i| x.is_r[i] && (x.tagged(i, Tags::ACQ) || x.tagged(i, Tags::ACQ_PC)));
        let acq = x.id(|i| x.is_r[i] && x.tagged(i, Tags::ACQ));
        let rel = x.id(|i| x.is_w[i] && x.tagged(i, Tags::REL));
        let range_rmw = {
            let mut s = vec![false; x.n];
            for (_, b) in x.rmw.pairs() {
                s[b] = true;
            }
            x.id(|i| s[i])
        };
        let aob = x.rmw.union(&range_rmw.compose(&rfi).compose(&acq_q));
        // bob
        let fenced = |t: BarrierTypes| x.id(|i| barrier(x, i, t)).compose(po);
        let po_f = |t: BarrierTypes| po.compose(&fenced(t));
        let bob = po_f(BarrierTypes::All)
            .union(&rel.compose(po).compose(&acq))
            .union(&r.compose(&po_f(BarrierTypes::Ld)))
            .union(&acq_q.compose(po))
            .union(&w.compose(&po_f(BarrierTypes::St)).compose(&w))
            .union(&po.compose(&rel))
            .union(&po.compose(&rel).compose(&coi));
        obs.union(&lws).union(&dob).union(&aob).union(&bob)
    }
    /// The external axiom.
    pub fn external(x: &HwExec) -> bool {
        Self::ob(x).is_acyclic()
    }
    fn check(g: &Graph, with_atomicity: bool) -> bool {
        let x = HwExec::new(g, !with_atomicity);
        Self::internal(&x) && Self::external(&x) && (!with_atomicity || x.atomic())
    }
}

hardware_model!(
    Armv8,
    "armv8",
    incremental: |g| Armv8::check(g, false),
    whole: |g| Armv8::check(g, true),
    dependency_cycles: forbidden,
    extra: {
        /// The internal axiom is `uniproc`.
        fn uniproc(&self) -> bool {
            true
        }
    },
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hwgen::litmus::arm_shapes;
    use crate::MemoryModel;

    /// The published verdicts of the classic shapes ([`crate::hwgen::litmus`]).
    #[test]
    fn litmus_shapes_have_their_published_verdicts() {
        for s in arm_shapes() {
            assert_eq!(Armv8.is_consistent(&s.graph), s.allowed, "{}", s.name);
        }
    }

    /// Without the atomicity shapes, the incremental check is the declarative one.
    #[test]
    fn incremental_is_the_whole_check_but_atomicity() {
        for s in arm_shapes() {
            let last = s.graph.events().last().map(|(e, _)| e).unwrap();
            if !s.name.contains("atomicity") {
                assert_eq!(
                    Armv8.consistent_with(&s.graph, last),
                    s.allowed,
                    "{}",
                    s.name
                );
            }
        }
        assert!(Armv8.allows_load_buffering() && !Armv8.has_data_races());
    }
}
