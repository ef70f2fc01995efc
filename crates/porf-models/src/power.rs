//! POWER: the model of Alglave, Maranget and Tautschnig, "Herding Cats: Modelling,
//! Simulation, Testing, and Data Mining for Weak Memory", TOPLAS 2014, §8 (its cat
//! form, written for porf from the paper, is `crates/porf-cat/cat/power.cat`).
//!
//! Preserved program order is the least fixpoint of the paper's `ii`, `ic`, `ci`, `cc`
//! (Fig. 25): `ii₀ = dd ∪ rdw ∪ rfi`, `ci₀ = ctrl+isync ∪ detour`,
//! `cc₀ = dd ∪ po-loc ∪ ctrl ∪ addr; po`, `ic₀ = ∅`, with `dd = addr ∪ data`,
//! `rdw = po-loc ∩ (fre; rfe)`, `detour = po-loc ∩ (coe; rfe)`, and
//! `ppo = (ii ∩ RR) ∪ (ic ∩ RW)`. Fences: `ffence = sync`,
//! `lwfence = (lwsync \ WR) ∪ (eieio ∩ WW)`, `fences = ffence ∪ lwfence`. Then
//! `hb = ppo ∪ fences ∪ rfe`, `propbase = (fences ∪ rfe; fences); hb*`,
//! `prop = (propbase ∩ WW) ∪ (com*; propbase*; ffence; hb*)`, and the axioms
//! * SC per location: `acyclic(po-loc ∪ com)`,
//! * no thin air: `acyclic(hb)`,
//! * observation: `irreflexive(fre; prop; hb*)`,
//! * propagation: `acyclic(co ∪ prop)`,
//! * atomicity of `lwarx`/`stwcx.` pairs (and porf's RMWs): `empty(rmw ∩ (fre; coe))`.
//!
//! What the model reads of porf's events ([`crate::hwrel`]): dependencies, exclusive
//! pairs and fence kinds from [`porf_graph::hw::Hw`]; a `ctrl+isync` pair is a read on
//! which an `isync` fence control-depends, and an access po-after that fence. A fence
//! of no POWER kind (a C11 fence, or another architecture's) orders nothing; C11
//! memory orders of accesses are ignored (a C program runs under POWER only once
//! compiled to POWER's instructions). Events that are neither accesses nor fences
//! (thread creation and join) are full fences (`sync`): they are on real hardware.
//! Fence relations relate accesses only.
//!
//! Dependencies start at reads: `stwcx.`'s CR0 result carries none, as in herd7's
//! PPC semantics (`PPCSem.ml` sets CR0 in parallel with the store) and the paper's
//! `dd`, which runs from reads; the asm front end gives it none.
//!
//! Load buffering is allowed: `po ∪ rf` cycles not closed by dependencies are
//! consistent.

use crate::atomicity;
use crate::hwrel::{inter, Ev, HwBase};
use crate::relation::Relation;
use porf_graph::hw::FenceKind;
use porf_graph::Graph;

/// The POWER model.
#[derive(Copy, Clone, Debug, Default)]
pub struct Power;

/// The derived relations of POWER on one graph.
pub(crate) struct PowerRels {
    /// `ffence`: `sync` (and thread creation and join).
    pub sync: Relation,
    /// `ffence ∪ lwfence`.
    pub fences: Relation,
    pub hb: Relation,
}

impl Power {
    /// The model's axioms but porf's RMW atomicity (see [`MemoryModel::consistent_with`]).
    fn axioms(&self, g: &Graph) -> bool {
        let h = HwBase::new(g);
        let b = &h.b;
        let po_loc = h.po_loc();
        let com = b.rf.union(&b.co).union(&b.fr);
        if !po_loc.union(&com).is_acyclic() {
            return false;
        }
        let fre = h.ext(&b.fr);
        let coe = h.ext(&b.co);
        // Exclusive pairs: no write of another thread between.
        if !inter(&h.rmw, &fre.compose(&coe)).is_empty() {
            return false;
        }
        let r = derive(&h, &po_loc);
        if !r.hb.is_acyclic() {
            return false;
        }
        let rfe = h.ext(&b.rf);
        let hb_star = r.hb.star();
        let propbase = r.fences.union(&rfe.compose(&r.fences)).compose(&hb_star);
        let ww = propbase.filter(|a, c| h.is_write(a) && h.is_write(c));
        let com_star = com.star();
        let strong = com_star
            .compose(&propbase.star())
            .compose(&r.sync)
            .compose(&hb_star);
        let prop = ww.union(&strong);
        if !b.co.union(&prop).is_acyclic() {
            return false;
        }
        fre.compose(&prop).compose(&hb_star).is_irreflexive()
    }
}

/// A full fence: `sync`, or an event that is neither an access nor a fence.
fn is_sync(h: &HwBase, f: usize) -> bool {
    match h.ev[f] {
        Ev::Fence(k, _) => k == Some(FenceKind::Sync),
        Ev::Other => true,
        _ => false,
    }
}

/// `ppo`, the fences and `hb = ppo ∪ fences ∪ rfe`.
pub(crate) fn derive(h: &HwBase, po_loc: &Relation) -> PowerRels {
    let b = &h.b;
    let n = h.len();
    let dd = h.addr.union(&h.data);
    let fre = h.ext(&b.fr);
    let rfe = h.ext(&b.rf);
    let coe = h.ext(&b.co);
    let rdw = inter(po_loc, &fre.compose(&rfe));
    let detour = inter(po_loc, &coe.compose(&rfe));
    let rfi = h.int(&b.rf);
    // ctrl+isync: r ctrl f, f an isync, f po e.
    let mut ctrl_isync = Relation::empty(n);
    for f in (0..n).filter(|&f| matches!(h.ev[f], Ev::Fence(Some(FenceKind::Isync), _))) {
        for r in (0..n).filter(|&r| h.ctrl.contains(r, f)) {
            for e in h.po.successors(f) {
                ctrl_isync.add(r, e);
            }
        }
    }
    let ii0 = dd.union(&rdw).union(&rfi);
    let ci0 = ctrl_isync.union(&detour);
    let cc0 = dd
        .union(po_loc)
        .union(&h.ctrl)
        .union(&h.addr.compose(&h.po));
    let (mut ii, mut ic, mut ci, mut cc) = (
        Relation::empty(n),
        Relation::empty(n),
        Relation::empty(n),
        Relation::empty(n),
    );
    loop {
        let ci2 = ci0.union(&ci.compose(&ii)).union(&cc.compose(&ci));
        let ii2 = ii0
            .union(&ci)
            .union(&ic.compose(&ci))
            .union(&ii.compose(&ii));
        let cc2 = cc0
            .union(&ci)
            .union(&ci.compose(&ic))
            .union(&cc.compose(&cc));
        let ic2 = ii
            .union(&cc)
            .union(&ic.compose(&cc))
            .union(&ii.compose(&ic));
        if ci2 == ci && ii2 == ii && cc2 == cc && ic2 == ic {
            break;
        }
        (ii, ic, ci, cc) = (ii2, ic2, ci2, cc2);
    }
    let ppo = ii
        .filter(|a, c| h.is_read(a) && h.is_read(c))
        .union(&ic.filter(|a, c| h.is_read(a) && h.is_write(c)));
    let sync = h.fencerel(|f| is_sync(h, f));
    let lwsync = h
        .fencerel(|f| matches!(h.ev[f], Ev::Fence(Some(FenceKind::Lwsync), _)))
        .filter(|a, c| !(h.is_write(a) && h.is_read(c)));
    let eieio = h
        .fencerel(|f| matches!(h.ev[f], Ev::Fence(Some(FenceKind::Eieio), _)))
        .filter(|a, c| h.is_write(a) && h.is_write(c));
    let fences = sync.union(&lwsync).union(&eieio);
    let hb = ppo.union(&fences).union(&rfe);
    PowerRels { sync, fences, hb }
}

hardware_model!(
    Power,
    "power",
    incremental: |g| Power.axioms(g),
    whole: |g| atomicity::holds(g) && Power.axioms(g),
    dependency_cycles: forbidden,
    extra: {
        /// The SC-per-location axiom `acyclic(po-loc ∪ com)` is `uniproc`.
        fn uniproc(&self) -> bool {
            true
        }
        /// Reading a stale value is a matter of the whole model (no hb coherence).
        fn reads_stale(&self, _g: &porf_graph::Graph, _r: porf_graph::EventId) -> bool {
            false
        }
        fn maximal_extensions_consistent(&self) -> bool {
            false
        }
    }
);

#[cfg(test)]
mod tests;
