//! IMM, the intermediate memory model of Podkopaev, Lahav and Vafeiadis, "Bridging the
//! Gap between Programming Languages and Hardware Weak Memory Models", POPL 2019, with
//! SC accesses as in the authors' Coq development of the model (`weakmemory/imm`,
//! `imm_consistent`). Its cat form, written for porf, is `crates/porf-cat/cat/imm.cat`.
//!
//! * `rs = [W]; ((po ∩ sl); [W] ∪ ((po ∩ sl)?; rf; rmw)*)`,
//!   `release = [Rel]; ([F]; po)?; rs`,
//!   `sw = release; (rfi ∪ (po ∩ sl)?; rfe); (po; [F])?; [Acq]`, `hb = (po ∪ sw)⁺`,
//!   `eco = rf ∪ co; rf? ∪ fr; rf?`;
//! * coherence: `irreflexive(hb; eco)`; atomicity: `empty(rmw ∩ (fre; coe))`;
//! * `bob = po; [W ∩ Rel] ∪ [W ∩ Rel]; (po ∩ sl); [W] ∪ po; [F] ∪ [F]; po ∪
//!   [R ∩ Acq]; po`, `deps = data ∪ ctrl ∪ addr; po? ∪ rfi ∪ [R_ex]; po`,
//!   `ppo = [R]; deps⁺; [W]`, `detour = (coe; rfe) ∩ po`,
//!   `psc = [F ∩ Sc]; hb; eco; hb; [F ∩ Sc]`,
//!   `ar = rfe ∪ bob ∪ ppo ∪ detour ∪ psc ∪ [W_strong]; po; [W]`;
//!   no out-of-thin-air: `acyclic(ar)`;
//! * SC accesses: `acyclic(psc_f ∪ psc_base)` with
//!   `scb = po ∪ (po \ sl); hb; (po \ sl) ∪ (hb ∩ sl) ∪ co ∪ fr`,
//!   `psc_base = [Sc]; ([F]; hb)?; scb; (hb; [F])?; [Sc]`,
//!   `psc_f = [F ∩ Sc]; hb; (eco; hb)?; [F ∩ Sc]`.
//!
//! porf's events as IMM's: an access's or fence's C11 order is its IMM mode
//! (non-atomic = IMM's `pln`, below `rlx`; `Acq` = acquire, acq_rel or seq_cst,
//! `Rel` = release, acq_rel or seq_cst, `Sc` = seq_cst); `rmw` pairs an RMW's read
//! and write parts, and a load-exclusive with its store-exclusive
//! ([`crate::hwrel`]); `R_ex` is every exclusive read (an RMW's read part, a failed
//! compare-exchange's included); a *strong* RMW (`W_strong`, the Coq development's
//! `W_ex_acq`) is the write part of an acquire (acquire, acq_rel or seq_cst) RMW;
//! `addr`, `data`, `ctrl` are [`porf_graph::hw::Deps`] (empty for C programs today;
//! IMM's `casdep`/`rmw_dep` are empty). Events that are neither accesses nor fences
//! (thread creation and join) are acq_rel fences. `sl` (same location) relates
//! accesses only.
//!
//! Load buffering is allowed: `po ∪ rf` cycles not closed by `ar` are consistent.

use crate::atomicity;
use crate::hwrel::{inter, minus, Ev, HwBase};
use crate::relation::Relation;
use porf_graph::{Graph, MemOrder};

/// IMM.
#[derive(Copy, Clone, Debug, Default)]
pub struct Imm;

/// A fence for IMM: a fence event or an event that is neither an access nor a fence.
fn is_fence(h: &HwBase, i: usize) -> bool {
    matches!(h.ev[i], Ev::Fence(..) | Ev::Other)
}

/// The event's IMM mode as a C11 order (other events: acq_rel fences).
fn mode(h: &HwBase, i: usize) -> MemOrder {
    match h.ev[i] {
        Ev::Other => MemOrder::AcqRel,
        _ => h.ord[i],
    }
}

fn axioms(g: &Graph) -> bool {
    let h = HwBase::new(g);
    let b = &h.b;
    let n = h.len();
    let acq = |i: usize| mode(&h, i).is_acquire();
    let rel = |i: usize| mode(&h, i).is_release();
    let sc = |i: usize| (h.is_access(i) || is_fence(&h, i)) && mode(&h, i).is_sc();
    let po = &h.po;
    let po_sl = h.po_loc();
    let rfi = h.int(&b.rf);
    let rfe = h.ext(&b.rf);
    let coe = h.ext(&b.co);
    let fre = h.ext(&b.fr);
    let id = |keep: &dyn Fn(usize) -> bool| Relation::identity(n, keep);
    // Release sequences and synchronisation.
    let w = id(&|i| h.is_write(i));
    let chain = po_sl.reflexive().compose(&b.rf).compose(&h.rmw).star();
    let rs = w.compose(&po_sl.compose(&w).union(&chain));
    let f_po = id(&|i| is_fence(&h, i)).compose(po);
    let release = id(&rel).compose(&f_po.reflexive()).compose(&rs);
    let po_f = po.compose(&id(&|i| is_fence(&h, i)));
    let sw = release
        .compose(&rfi.union(&po_sl.reflexive().compose(&rfe)))
        .compose(&po_f.reflexive())
        .compose(&id(&acq));
    let hb = po.union(&sw).closure();
    let rf_opt = b.rf.reflexive();
    let eco =
        b.rf.union(&b.co.compose(&rf_opt))
            .union(&b.fr.compose(&rf_opt));
    if !hb.compose(&eco).is_irreflexive() {
        return false;
    }
    if !inter(&h.rmw, &fre.compose(&coe)).is_empty() {
        return false;
    }
    // No out-of-thin-air.
    let w_rel = id(&|i| h.is_write(i) && rel(i));
    let fence = id(&|i| is_fence(&h, i));
    let bob = po
        .compose(&w_rel)
        .union(&w_rel.compose(&po_sl).compose(&w))
        .union(&po.compose(&fence))
        .union(&fence.compose(po))
        .union(&id(&|i| h.is_read(i) && acq(i)).compose(po));
    let r_ex = id(&|i| h.is_read(i) && h.x[i]);
    let deps = h
        .data
        .union(&h.ctrl)
        .union(&h.addr.compose(&po.reflexive()))
        .union(&rfi)
        .union(&r_ex.compose(po));
    let ppo = id(&|i| h.is_read(i)).compose(&deps.closure()).compose(&w);
    let detour = inter(&coe.compose(&rfe), po);
    let f_sc = id(&|i| is_fence(&h, i) && sc(i));
    let psc = f_sc.compose(&hb).compose(&eco).compose(&hb).compose(&f_sc);
    let strong = id(&|i| h.is_write(i) && h.x[i] && acq(i));
    let ar = rfe
        .union(&bob)
        .union(&ppo)
        .union(&detour)
        .union(&psc)
        .union(&strong.compose(po).compose(&w));
    if !ar.is_acyclic() {
        return false;
    }
    // SC accesses.
    let po_nsl = minus(po, &h.same_loc);
    let scb = po
        .union(&po_nsl.compose(&hb).compose(&po_nsl))
        .union(&inter(&hb, &h.same_loc))
        .union(&b.co)
        .union(&b.fr);
    let sc_id = id(&sc);
    let psc_base = sc_id
        .compose(&fence.compose(&hb).reflexive())
        .compose(&scb)
        .compose(&hb.compose(&fence).reflexive())
        .compose(&sc_id);
    let psc_f = f_sc
        .compose(&hb)
        .compose(&eco.compose(&hb).reflexive())
        .compose(&f_sc);
    psc_f.union(&psc_base).is_acyclic()
}

hardware_model!(
    Imm,
    "imm",
    incremental: axioms,
    whole: |g| atomicity::holds(g) && axioms(g),
    dependency_cycles: forbidden,
    extra: {
        /// Coherence `irreflexive(hb; eco)` with `po ⊆ hb` gives `uniproc`.
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
