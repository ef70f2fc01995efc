//! The Linux kernel memory model (LKMM) of Alglave, Maranget, McKenney, Parri and
//! Stern, "Frightening Small Children and Disconcerting Grown-ups: Concurrency in the
//! Linux Kernel", ASPLOS 2018 (§3–§4, the model as merged in Linux v4.17): four axioms
//! over the events of one candidate execution.
//!
//! * **coherence**: `acyclic(po-loc ∪ rf ∪ co ∪ fr)`;
//! * **atomicity**: `empty(rmw ∩ (fre; coe))` (and porf's [`atomicity`], which every
//!   graph an explorer builds satisfies anyway);
//! * **happens-before**: `acyclic(hb)` with `hb = ppo ∪ rfe ∪ ((prop \ id) ∩ int)`;
//!   preserved program order `ppo = to-r ∪ to-w ∪ fence`, `to-r = addr ∪ (dep; rfi) ∪
//!   rfi-rel-acq` (but see below), `to-w = ((dep ∪ ctrl); [W]) ∪ (overwrite ∩ int)`, `fence =
//!   strong-fence ∪ wmb ∪ po-rel ∪ rmb ∪ acq-po`; propagation `prop = (overwrite ∩
//!   ext)?; cumul-fence*; rfe?` with `cumul-fence = (rfe?; (strong-fence ∪ po-rel)) ∪
//!   wmb` (A-cumulativity of strong fences and releases);
//!   **one later change, for locks** (Linux v4.19, in the form of v5.x): `ppo` also
//!   holds `po-unlock-lock-po ∩ int` and `cumul-fence` holds `po-unlock-lock-po`
//!   (`po; [UL]; (po ∪ rf); [LKR]; po`), and `to-r` loses the paper's `rfi-rel-acq`,
//!   as in the model herd runs today (the verdicts of Dat3M's LKMM corpus); and
//!   `cumul-fence` is followed by `rmw-sequence = (rf; rmw)*` (Linux v6.4: a release
//!   heads a sequence of RMWs);
//! * **propagation**: `acyclic(pb)`, `pb = prop; strong-fence; hb*`;
//! * **rcu**: `irreflexive(rcu-path)`: `rcu-path` is the least relation holding the
//!   chains of `gp-link = gp; link` and `rscs-link = rscs; link` (`link = hb*; pb*;
//!   prop`) with at least as many grace periods as read-side critical sections, built
//!   by the paper's recursion (`gp`, `gp;rscs`, `rscs;gp`, concatenation, and nesting
//!   `gp; path; rscs`, `rscs; path; gp`). `gp = po; [Sync-rcu]; po?`; `rscs = po;
//!   crit⁻¹; po?` where `crit` pairs each `rcu_read_lock` with its matching
//!   `rcu_read_unlock` of the same thread (nested pairs included: their `rscs` edges are
//!   contained in those of the outermost pair, so the relation is the paper's).
//!
//! `strong-fence = mb ∪ gp`. `mb` is `smp_mb` (`[M]; fencerel(Mb); [M]`), the fully
//! ordered RMWs (`xchg`, `cmpxchg`, `atomic_*_return`, tagged [`Tags::MB`]: herd
//! brackets them with two `smp_mb`s, so every access po-before the RMW's read is
//! ordered before it and everything after, and the RMW's write and everything before
//! it before every access po-after it), and the conditional barriers
//! `smp_mb__before_atomic`, `smp_mb__after_atomic` (around an RMW, a failed one
//! included, as the kernel documents and its `cmpxchg-fail-ordered-{1,2}` tests
//! check), `smp_mb__after_spinlock`
//! (after a lock acquire's write `LKW`), `smp_mb__after_unlock_lock` (after an unlock
//! `UL` followed in `co ∪ po` by a lock acquire). `rmb` orders reads other than those of
//! non-value-returning RMWs (`Noreturn`), `wmb` writes.
//!
//! Events and tags: reads and writes carry [`Tags`] in their [`porf_graph::Hw`]:
//! `ONCE`, `ACQ` (herd's `Acquire`), `REL` (`Release`), `MB`, `NORETURN`, `LKR`/`LKW`
//! (a `spin_lock`'s RMW, an acquire), `UL` (`spin_unlock`, a release write), and
//! dependencies `addr`, `data`, `ctrl`; fences carry [`KernelFence`]. Both events of an
//! RMW carry its tags; as in herd's `linux-kernel.bell`, only a read is an acquire
//! and only a write a release. A failed RMW (an exclusive read without write part: a
//! failed `cmpxchg` or `spin_trylock`) orders nothing: its read is a plain `Once` read
//! whatever the RMW's tags (the kernel's `atomic_t.txt`: "unsuccessful RMW operations
//! are unordered"). `po` is program order
//! extended by thread creation and join, as porf-cat's builder has it; events other
//! than reads, writes and fences are in no set.
//!
//! Not modelled (later versions of the LKMM): plain (unannotated) accesses and data
//! races, SRCU, the fully ordered RMWs' 2023 reformulation and the
//! `rcu-fence`/`rb` rewrite of the RCU axiom (Linux v4.19+, equivalent to the paper's
//! counting axiom for RCU). Front ends refuse tests using them.
//!
//! The model allows load buffering (`po ∪ rf` cycles without dependencies). Both
//! consistency questions evaluate the whole model ([`Lkmm::is_consistent`]); `hb_view`
//! is the `po`/creation prefix, the only order the model guarantees a new event
//! observes whatever the rest of the graph; there are no data races (every access of
//! the modelled fragment is marked).

use crate::atomicity;
use crate::relation::{Base, Relation};
use porf_graph::hw::{FenceKind, KernelFence, Tags};
use porf_graph::{EventId, Graph, LabelKind};

/// The Linux kernel memory model (ASPLOS 2018).
#[derive(Copy, Clone, Debug, Default)]
pub struct Lkmm;

hardware_model!(
    Lkmm,
    "lkmm",
    incremental: |g| Axioms::of(g).all_hold(false),
    whole: |g| atomicity::holds(g) && Axioms::of(g).all_hold(true),
);

/// Which of the model's axioms fail, by herd's names (`coherence`, `atomic`,
/// `happens-before`, `propagation`, `rcu`): for tests and diagnostics.
pub fn failed_axioms(g: &Graph) -> Vec<&'static str> {
    let a = Axioms::of(g);
    let mut out = Vec::new();
    for (name, ok) in [
        ("coherence", a.coherence()),
        ("atomic", a.atomic()),
        ("happens-before", a.happens_before()),
        ("propagation", a.propagation()),
        ("rcu", a.rcu()),
    ] {
        if !ok {
            out.push(name);
        }
    }
    out
}

/// The sets and derived relations of one graph.
struct Axioms {
    n: usize,
    com: Relation,
    po_loc: Relation,
    rmw: Relation,
    fre: Relation,
    coe: Relation,
    hb: Relation,
    pb: Relation,
    prop: Relation,
    gp: Relation,
    rscs: Relation,
}

/// Per-event facts.
#[derive(Clone, Copy, Default)]
struct Ev {
    r: bool,
    w: bool,
    tags: Tags,
    fence: Option<KernelFence>,
    /// An event of a successful RMW (herd's `RMW`).
    rmw: bool,
    /// The read of an RMW that wrote nothing.
    failed: bool,
    tid: u32,
}

impl Axioms {
    fn of(g: &Graph) -> Axioms {
        let b = Base::new(g);
        let n = b.len();
        let ev: Vec<Ev> = (0..n)
            .map(|i| {
                let e = b.idx.event(i);
                let lab = g.label(e);
                let hw = lab.hw.as_deref();
                let mut tags = hw.map_or(Tags::NONE, |h| h.tags);
                let failed_rmw = lab.is_exclusive_read() && !atomicity::has_write_part(g, e);
                let rmw = (lab.is_exclusive_read() && !failed_rmw) || lab.is_exclusive_write();
                if failed_rmw {
                    tags = Tags(tags.0 & (Tags::ONCE.0 | Tags::NORETURN.0));
                }
                let fence = match (&lab.kind, hw.and_then(|h| h.fence)) {
                    (LabelKind::Fence { .. }, Some(FenceKind::Kernel(k))) => Some(k),
                    _ => None,
                };
                Ev {
                    r: lab.is_read(),
                    w: lab.is_write(),
                    tags,
                    fence,
                    rmw,
                    failed: failed_rmw,
                    tid: e.tid,
                }
            })
            .collect();
        let m = |i: usize| ev[i].r || ev[i].w;
        let has = |i: usize, t: Tags| ev[i].tags.contains(t);
        let is_fence = |i: usize, k: KernelFence| ev[i].fence == Some(k);
        let int = |a: usize, c: usize| ev[a].tid == ev[c].tid;

        // po extended by thread creation and join (porf-cat's builder).
        let po = b.po.union(&b.sync).closure();
        let po_q = po.reflexive();
        let same_loc = b.same_loc(g);
        let po_loc = po.filter(|a, c| same_loc.contains(a, c));
        let rf = b.rf.clone();
        let rfe = rf.filter(|a, c| !int(a, c));
        let rfi = rf.filter(int);
        let co = b.co.clone();
        let fr = b.fr.clone();
        let overwrite = co.union(&fr);
        let com = rf.union(&overwrite);

        // Dependencies, from the events' hardware facts.
        let mut addr = Relation::empty(n);
        let mut data = Relation::empty(n);
        let mut ctrl = Relation::empty(n);
        for i in 0..n {
            let e = b.idx.event(i);
            if let Some(h) = g.label(e).hw.as_deref() {
                for (set, rel) in [
                    (&h.deps.addr, &mut addr),
                    (&h.deps.data, &mut data),
                    (&h.deps.ctrl, &mut ctrl),
                ] {
                    for &d in set {
                        rel.add(b.idx.of(EventId::new(e.tid, d)), i);
                    }
                }
            }
        }
        let dep = addr.union(&data);

        // fencerel(S) = po; [S]; po
        let fencerel =
            |s: &dyn Fn(usize) -> bool| po.restrict(|_| true, s).compose(&po).restrict(m, m);
        let rmb_ok = |i: usize| ev[i].r && !has(i, Tags::NORETURN);
        let rmb = fencerel(&|i| is_fence(i, KernelFence::Rmb)).restrict(rmb_ok, rmb_ok);
        let wmb = fencerel(&|i| is_fence(i, KernelFence::Wmb)).restrict(|i| ev[i].w, |i| ev[i].w);
        let mut mb = fencerel(&|i| is_fence(i, KernelFence::Mb));
        // Fully ordered RMWs: an smp_mb before the read part and one after the write part.
        let mb_read = |i: usize| ev[i].r && ev[i].rmw && has(i, Tags::MB);
        let mb_write = |i: usize| ev[i].w && ev[i].rmw && has(i, Tags::MB);
        mb.union_with(&po.restrict(m, mb_read).compose(&po_q).restrict(m, m));
        mb.union_with(&po_q.restrict(m, mb_write).compose(&po).restrict(m, m));
        // smp_mb__{before,after}_atomic order around an RMW, a failed one included.
        let rmw_ev = |i: usize| ev[i].rmw || ev[i].failed;
        mb.union_with(
            &fencerel(&|i| is_fence(i, KernelFence::BeforeAtomic))
                .restrict(m, rmw_ev)
                .compose(&po_q)
                .restrict(m, m),
        );
        mb.union_with(
            &po_q
                .restrict(m, rmw_ev)
                .compose(&fencerel(&|i| is_fence(i, KernelFence::AfterAtomic))),
        );
        let lkw = |i: usize| ev[i].w && ev[i].rmw && has(i, Tags::LKW);
        let ul = |i: usize| ev[i].w && has(i, Tags::UL);
        mb.union_with(
            &po_q
                .restrict(m, lkw)
                .compose(&fencerel(&|i| is_fence(i, KernelFence::AfterSpinlock))),
        );
        mb.union_with(
            &po.restrict(m, ul)
                .compose(&co.union(&po).restrict(ul, lkw))
                .compose(&fencerel(&|i| is_fence(i, KernelFence::AfterUnlockLock))),
        );
        let gp = po
            .restrict(|_| true, |i| is_fence(i, KernelFence::SyncRcu))
            .compose(&po_q);
        let strong_fence = mb.union(&gp);
        // herd's bell: only reads acquire, only writes release.
        let acquire = |i: usize| ev[i].r && has(i, Tags::ACQ);
        let release = |i: usize| ev[i].w && has(i, Tags::REL);
        let acq_po = po.restrict(|i| m(i) && acquire(i), m);
        let po_rel = po.restrict(m, |i| m(i) && release(i));
        // Linux v4.19+: an unlock followed (in po or rf) by a lock acquire orders
        // what precedes the unlock before what follows the lock.
        let lkr = |i: usize| ev[i].r && ev[i].rmw && has(i, Tags::LKR);
        let po_unlock_lock_po = po
            .restrict(|_| true, ul)
            .compose(&po.union(&rf).restrict(ul, lkr))
            .compose(&po);

        let w = |i: usize| ev[i].w;
        let to_w = dep
            .union(&ctrl)
            .restrict(|_| true, w)
            .union(&overwrite.filter(int));
        let to_r = addr.union(&dep.compose(&rfi));
        let fence = strong_fence
            .union(&wmb)
            .union(&po_rel)
            .union(&rmb)
            .union(&acq_po);
        let ppo = to_r
            .union(&to_w)
            .union(&fence)
            .union(&po_unlock_lock_po.filter(int));

        let cumul_fence = rfe
            .reflexive()
            .compose(&strong_fence.union(&po_rel))
            .union(&wmb)
            .union(&po_unlock_lock_po)
            // Linux v6.4: release sequences through RMWs (`rmw-sequence`).
            .compose(&rf.compose(&b.rmw).star());
        let prop = overwrite
            .filter(|a, c| !int(a, c))
            .reflexive()
            .compose(&cumul_fence.star())
            .compose(&rfe.reflexive());
        let hb = ppo
            .union(&rfe)
            .union(&prop.filter(|a, c| a != c && int(a, c)));
        let pb = prop.compose(&strong_fence).compose(&hb.star());

        let crit = crit(&ev, &po);
        let rscs = po.compose(&crit.inverse()).compose(&po_q);
        Axioms {
            n,
            com,
            po_loc,
            rmw: b.rmw.clone(),
            fre: fr.filter(|a, c| !int(a, c)),
            coe: co.filter(|a, c| !int(a, c)),
            hb,
            pb,
            prop,
            gp,
            rscs,
        }
    }

    fn coherence(&self) -> bool {
        self.po_loc.union(&self.com).is_acyclic()
    }
    fn atomic(&self) -> bool {
        let fre_coe = self.fre.compose(&self.coe);
        self.rmw.filter(|a, c| fre_coe.contains(a, c)).is_empty()
    }
    fn happens_before(&self) -> bool {
        self.hb.is_acyclic()
    }
    fn propagation(&self) -> bool {
        self.pb.is_acyclic()
    }
    fn rcu(&self) -> bool {
        if self.gp.is_empty() {
            return true; // every rcu-path starts or ends with a grace period
        }
        let link = self.hb.star().compose(&self.pb.star()).compose(&self.prop);
        let gp_link = self.gp.compose(&link);
        let rscs_link = self.rscs.compose(&link);
        rcu_path(&gp_link, &rscs_link, self.n).is_irreflexive()
    }

    /// `atomic` is checked only by the declarative question: in the incremental one
    /// RMW atomicity is the explorer's business.
    fn all_hold(&self, with_atomic: bool) -> bool {
        self.coherence()
            && (!with_atomic || self.atomic())
            && self.happens_before()
            && self.propagation()
            && self.rcu()
    }
}

/// The paper's `rcu-path`: the least relation closed under its six rules.
fn rcu_path(gp_link: &Relation, rscs_link: &Relation, n: usize) -> Relation {
    let mut path = Relation::empty(n);
    loop {
        let mut next = gp_link.clone();
        next.union_with(&gp_link.compose(rscs_link));
        next.union_with(&rscs_link.compose(gp_link));
        next.union_with(&path.compose(&path));
        next.union_with(&gp_link.compose(&path).compose(rscs_link));
        next.union_with(&rscs_link.compose(&path).compose(gp_link));
        next.union_with(&path);
        if next == path {
            return path;
        }
        path = next;
    }
}

/// `crit`: each `rcu_read_lock` to the `rcu_read_unlock` matching it in its thread
/// (brackets matched innermost first; unmatched ones belong to no pair).
fn crit(ev: &[Ev], po: &Relation) -> Relation {
    let n = ev.len();
    let mut crit = Relation::empty(n);
    // Events are numbered thread by thread in po order.
    let mut open: Vec<usize> = Vec::new();
    let mut tid = None;
    for (i, e) in ev.iter().enumerate() {
        if tid != Some(e.tid) {
            open.clear();
            tid = Some(e.tid);
        }
        match e.fence {
            Some(KernelFence::RcuLock) => open.push(i),
            Some(KernelFence::RcuUnlock) => {
                if let Some(l) = open.pop() {
                    debug_assert!(po.contains(l, i));
                    crit.add(l, i);
                }
            }
            _ => {}
        }
    }
    crit
}

#[cfg(test)]
mod tests;
