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
//! **Plain accesses** (Linux v5.3+, as in herd's current `linux-kernel.cat`): a read
//! or write with no kernel tag (an [`porf_graph::Hw`] whose tags mark nothing, or no
//! `Hw` at all; RMWs are always marked) is *plain*. Plain events are in none of `hb`,
//! `pb`, `prop` and `cumul-fence` (each restricted to marked events), `to-r` keeps
//! `dep; rfi` into marked events only, `to-w` gains `addr; [Plain]; wmb`, and
//! dependencies are carried through a write and the same thread's read of it
//! (`carry-dep = (data; rfi)*`). One more axiom, **plain-coherence**, forbids a plain
//! access to read or overwrite against the order the marked accesses and fences
//! around it impose (`vis`, the lifetime bounds `w-pre-bounded` ..., built on
//! `xb* = (hb | pb | rb)*` with `rb = prop; rcu-fence; hb*; pb*` and the `rcu-fence`
//! rewrite of RCU ordering); and [`data_races`] gives herd's `data-race` flag, which
//! [`MemoryModel::flags`] reports and which does not change the verdict. With no plain
//! access these additions change nothing (each restriction is to every event, and
//! carried dependencies are paths of `hb` already), so they are computed only for
//! graphs with one. The RCU axiom stays the paper's counting one.
//!
//! **SRCU** (the kernel's `tools/memory-model` since Linux v6.3): `srcu_read_lock(s)`
//! is a marked read of the `srcu_struct` `s` ([`Tags::SRCU_LOCK`]), the unlock a
//! marked write ([`Tags::SRCU_UNLOCK`]) of the lock's value back to `s`, and the two
//! match when the unlock's value comes from the lock through data dependencies and
//! reads of the writes they feed (`srcu-rscs`, so `srcu_down_read`'s index may be
//! handed to another thread); `synchronize_srcu(s)` is a grace period
//! ([`KernelFence::SyncSrcu`], with `s`) and a strong fence, and
//! `smp_mb__after_srcu_read_unlock` makes the unlock before it a full barrier. Grace
//! periods and critical sections chain as RCU's do, an SRCU grace period with critical
//! sections of its own `srcu_struct` only; with an SRCU grace period in the graph the
//! `rcu` axiom is herd's current form, `irreflexive(rb)` with `rb = prop; rcu-fence;
//! hb*; pb*` ([`rcu_fence`]; the kernel's `explanation.txt` argues it equivalent to the
//! paper's counting axiom, used without SRCU).
//! herd's nesting flags (`unmatched-srcu-lock`, `srcu-bad-value-match`, ...) are not
//! raised.
//!
//! Not modelled (later versions of the LKMM): herd's `mixed-accesses` flag and the
//! fully ordered RMWs' 2023 reformulation.
//!
//! The model allows load buffering (`po ∪ rf` cycles without dependencies). Both
//! consistency questions evaluate the whole model ([`Lkmm::is_consistent`]); `hb_view`
//! is the `po`/creation prefix, the only order the model guarantees a new event
//! observes whatever the rest of the graph; data races are a flag of complete
//! executions ([`MemoryModel::flags`]), not hb-view races
//! ([`MemoryModel::has_data_races`] is false).

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
    dependency_cycles: allowed,
    extra: {
        /// The coherence axiom ([`Axioms::coherence`]) is `uniproc` over every access.
        fn uniproc(&self) -> bool {
            true
        }
        fn flags(&self, g: &Graph) -> Vec<&'static str> {
            if data_races(g).is_empty() {
                Vec::new()
            } else {
                vec!["data-race"]
            }
        }
    },
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
        ("plain-coherence", a.plain_coherence()),
    ] {
        if !ok {
            out.push(name);
        }
    }
    out
}

/// herd's `data-race` flag on the consistent graph `g`: the pairs of conflicting
/// accesses of different threads, one of them plain, that no marked access or fence
/// orders (herd's `ww-race | wr-race | rw-race`). Empty when `g` has no plain access.
pub fn data_races(g: &Graph) -> Vec<(EventId, EventId)> {
    let idx = crate::relation::EventIndex::new(g);
    let plain = (0..idx.len()).any(|i| {
        let lab = idx.label(g, i);
        (lab.is_read() || lab.is_write())
            && !lab.is_exclusive_read()
            && !lab.is_exclusive_write()
            && !lab.hw.as_deref().is_some_and(|h| {
                h.tags.contains(Tags::LF) || MARKING.iter().any(|&t| h.tags.contains(t))
            })
    });
    if !plain {
        return Vec::new();
    }
    Axioms::of(g)
        .races()
        .into_iter()
        .map(|(a, c)| (idx.event(a), idx.event(c)))
        .collect()
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
    /// herd's `rb = prop; rcu-fence; hb*; pb*` when the graph has an SRCU grace
    /// period: the `rcu` axiom is then `irreflexive(rb)` (see [`rcu_fence`]).
    srcu_rb: Option<Relation>,
    /// The relations of plain accesses, when the graph has one.
    plain: Option<PlainRaces>,
}

/// Plain accesses' axiom and flag (herd's current `linux-kernel.cat`, from Linux v5.3:
/// "plain-coherence" and the `data-race` flag): the pairs of conflicting accesses of
/// different threads, one of them plain, that `plain-coherence` forbids (`incoh`) and
/// that race (`race`).
struct PlainRaces {
    incoh: Relation,
    race: Relation,
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
    /// herd's `Marked`: not a plain access (every event but an unannotated read or
    /// write).
    marked: bool,
    /// The `srcu_struct` of an SRCU event: the location of an `Srcu-lock` read or
    /// `Srcu-unlock` write, the domain of a `Sync-srcu` grace period.
    srcu: Option<u64>,
    tid: u32,
}

/// The tags that make an access marked (herd's `Marked`: `Once`, `Release`,
/// `Acquire`, `Mb`, lock events; RMWs are marked whatever their tags).
const MARKING: [Tags; 12] = [
    Tags::ONCE,
    Tags::ACQ,
    Tags::REL,
    Tags::MB,
    Tags::NORETURN,
    Tags::RCU_DEREF,
    Tags::RCU_ASSIGN,
    Tags::LKR,
    Tags::LKW,
    Tags::UL,
    Tags::SRCU_LOCK,
    Tags::SRCU_UNLOCK,
];

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
                let raw = hw.map_or(Tags::NONE, |h| h.tags);
                let access = lab.is_read() || lab.is_write();
                let marked = !access
                    || lab.is_exclusive_read()
                    || lab.is_exclusive_write()
                    || raw.contains(Tags::LF)
                    || MARKING.iter().any(|&t| raw.contains(t));
                let srcu = match fence {
                    Some(KernelFence::SyncSrcu(s)) => Some(s),
                    _ if access
                        && (raw.contains(Tags::SRCU_LOCK) || raw.contains(Tags::SRCU_UNLOCK)) =>
                    {
                        lab.loc().map(|l| l.0)
                    }
                    _ => None,
                };
                Ev {
                    r: lab.is_read(),
                    w: lab.is_write(),
                    tags,
                    fence,
                    rmw,
                    failed: failed_rmw,
                    marked,
                    srcu,
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
        // SRCU: a lock read and the unlock that writes its value back to the same
        // `srcu_struct`, through data dependencies and reads of the writes they feed
        // (`srcu-rscs = ([Srcu-lock]; (data; [~Srcu-unlock]; rf)*; data; [Srcu-unlock])
        // & loc`), so that `srcu_down_read`'s index may be handed to another thread.
        let srcu_lock = |i: usize| ev[i].r && has(i, Tags::SRCU_LOCK);
        let srcu_unlock = |i: usize| ev[i].w && has(i, Tags::SRCU_UNLOCK);
        let not_srcu_unlock = |i: usize| !srcu_unlock(i);
        let same_domain = |a: usize, c: usize| ev[a].srcu.is_some() && ev[a].srcu == ev[c].srcu;
        let srcu_rscs = data
            .restrict(|_| true, not_srcu_unlock)
            .compose(&rf)
            .star()
            .restrict(srcu_lock, |_| true)
            .compose(&data.restrict(|_| true, srcu_unlock))
            .filter(same_domain);
        // Plain accesses (Linux v5.3+): a plain access is in none of hb, pb, prop;
        // dependencies are carried through a write and the same thread's read of it
        // (`carry-dep = (data; [~Srcu-unlock]; rfi)*`), so that a plain intermediate
        // keeps them.
        let any_plain = ev.iter().any(|e| !e.marked);
        let marked = |i: usize| ev[i].marked;
        if any_plain {
            let carry = data
                .restrict(|_| true, not_srcu_unlock)
                .compose(&rfi)
                .star();
            addr = carry.compose(&addr);
            ctrl = carry.compose(&ctrl);
            data = carry.compose(&data);
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
        mb.union_with(&po_q.restrict(m, srcu_unlock).compose(&fencerel(&|i| {
            is_fence(i, KernelFence::AfterSrcuReadUnlock)
        })));
        let sync_rcu = |i: usize| is_fence(i, KernelFence::SyncRcu);
        let sync_srcu = |i: usize| matches!(ev[i].fence, Some(KernelFence::SyncSrcu(_)));
        let gp = po
            .restrict(|_| true, |i| sync_rcu(i) || sync_srcu(i))
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
        let plain = |i: usize| m(i) && !marked(i);
        let to_w = dep
            .union(&ctrl)
            .restrict(|_| true, w)
            .union(&overwrite.filter(int))
            .union(&addr.restrict(|_| true, plain).compose(&wmb));
        let to_r = addr
            .restrict(|_| true, |i| ev[i].r)
            .union(&dep.restrict(|_| true, marked).compose(&rfi));
        let fence = strong_fence
            .union(&wmb)
            .union(&po_rel)
            .union(&rmb)
            .union(&acq_po);
        let ppo = to_r
            .union(&to_w)
            .union(&fence)
            .union(&po_unlock_lock_po.filter(int));

        // Linux v6.4: release sequences through RMWs (`rmw-sequence`).
        let rmw_sequence = rf.compose(&b.rmw).star();
        let cumul_fence = rfe
            .restrict(|_| true, marked)
            .reflexive()
            .compose(&strong_fence.union(&po_rel))
            .union(&wmb)
            .union(&po_unlock_lock_po)
            .restrict(marked, marked)
            .compose(&rmw_sequence);
        let prop = overwrite
            .filter(|a, c| !int(a, c))
            .reflexive()
            .restrict(marked, |_| true)
            .compose(&cumul_fence.star())
            .compose(&rfe.reflexive().restrict(marked, marked));
        let hb = ppo
            .union(&rfe)
            .union(&prop.filter(|a, c| a != c && int(a, c)))
            .restrict(marked, marked);
        let pb = prop
            .compose(&strong_fence)
            .compose(&hb.star())
            .restrict(|_| true, marked);

        let crit = crit(&ev, &po);
        let rscs = po.compose(&crit.inverse()).compose(&po_q);
        let any_sync_srcu = (0..n).any(sync_srcu);
        let rcu_fence = (any_plain || any_sync_srcu).then(|| {
            let grace = GracePeriods {
                rcu_gp: Relation::identity(n, sync_rcu),
                rcu_rscsi: crit.inverse(),
                srcu_gp: Relation::identity(n, sync_srcu),
                srcu_rscsi: srcu_rscs.inverse(),
                same_domain: Relation::from_fn(n, same_domain),
            };
            rcu_fence(&grace, &po, &hb, &pb, &prop)
        });
        let srcu_rb = any_sync_srcu.then(|| {
            let rcu_fence = rcu_fence.as_ref().expect("computed with a Sync-srcu");
            prop.compose(rcu_fence)
                .compose(&hb.star())
                .compose(&pb.star())
                .restrict(|_| true, marked)
        });
        let plain = any_plain.then(|| {
            let rcu_fence = rcu_fence.as_ref().expect("computed with a plain access");
            let not_noreturn = |i: usize| !has(i, Tags::NORETURN) || ev[i].w;
            let rmb_rel = po
                .restrict(|_| true, |i| is_fence(i, KernelFence::Rmb))
                .compose(&po);
            Plain {
                n,
                marked: &marked,
                plain: &plain,
                m: &m,
                w: &w,
                ext: &|a, c| !int(a, c),
                rf: &rf,
                co: &co,
                fr: &fr,
                hb: &hb,
                pb: &pb,
                prop: &prop,
                rfe: &rfe,
                addr: &addr,
                cumul_fence: &cumul_fence,
                rmw_sequence: &rmw_sequence,
                strong_fence: &strong_fence,
                nonrw_fence: &strong_fence.union(&po_rel).union(&acq_po),
                fence: &fence,
                rcu_fence,
                rmb_r4rmb_to_any: &rmb_rel.restrict(rmb_ok, not_noreturn),
                rmb_any_to_r4rmb: &rmb_rel.restrict(not_noreturn, rmb_ok),
            }
            .races()
        });
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
            srcu_rb,
            plain,
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
        if let Some(rb) = &self.srcu_rb {
            return rb.is_irreflexive();
        }
        if self.gp.is_empty() {
            return true; // every rcu-path starts or ends with a grace period
        }
        let link = self.hb.star().compose(&self.pb.star()).compose(&self.prop);
        let gp_link = self.gp.compose(&link);
        let rscs_link = self.rscs.compose(&link);
        rcu_path(&gp_link, &rscs_link, self.n).is_irreflexive()
    }

    /// `plain-coherence`: no plain access reads, or is overwritten, against the order
    /// the marked accesses around it impose.
    fn plain_coherence(&self) -> bool {
        self.plain.as_ref().is_none_or(|p| p.incoh.is_empty())
    }

    /// herd's `data-race` flag: the racing pairs (first, second), by index.
    fn races(&self) -> Vec<(usize, usize)> {
        self.plain
            .as_ref()
            .map_or_else(Vec::new, |p| p.race.pairs().collect())
    }

    /// `atomic` is checked only by the declarative question: in the incremental one
    /// RMW atomicity is the explorer's business.
    fn all_hold(&self, with_atomic: bool) -> bool {
        self.coherence()
            && (!with_atomic || self.atomic())
            && self.happens_before()
            && self.propagation()
            && self.rcu()
            && self.plain_coherence()
    }
}

/// The grace periods and read-side critical sections `rcu-order` chains: RCU's
/// (`Sync-rcu`, `crit⁻¹`) and SRCU's (`Sync-srcu`, `srcu-rscs⁻¹`), whose chains must
/// keep to one `srcu_struct` (`same_domain`).
struct GracePeriods {
    rcu_gp: Relation,
    rcu_rscsi: Relation,
    srcu_gp: Relation,
    srcu_rscsi: Relation,
    same_domain: Relation,
}

/// `rcu-fence = po; rcu-order; po?` of herd's current `linux-kernel.cat` (Linux
/// v4.19+, SRCU as in v6.3's data-matched read-side critical sections): `rcu-order`
/// is the least relation holding each grace period and the chains, joined by
/// `rcu-link = po?; hb*; pb*; prop; po`, of grace periods and critical sections with
/// at least as many grace periods, an SRCU grace period bracketing (or bracketed by)
/// critical sections of its own domain only. Without SRCU the paper's counting axiom
/// is the RCU axiom here ([`rcu_path`]); this relation orders plain accesses (`rb`,
/// the strong fences of `vis`) and, with an SRCU grace period, gives the axiom.
fn rcu_fence(
    gps: &GracePeriods,
    po: &Relation,
    hb: &Relation,
    pb: &Relation,
    prop: &Relation,
) -> Relation {
    let n = po.size();
    if gps.rcu_gp.is_empty() && gps.srcu_gp.is_empty() {
        return Relation::empty(n);
    }
    let link = po
        .reflexive()
        .compose(&hb.star())
        .compose(&pb.star())
        .compose(prop)
        .compose(po);
    // The four bracketings `gp; inner; rscsi` and `rscsi; inner; gp`, SRCU's within
    // one domain.
    let bracket = |inner: &Relation| {
        let mut r = gps.rcu_gp.compose(inner).compose(&gps.rcu_rscsi);
        r.union_with(&gps.rcu_rscsi.compose(inner).compose(&gps.rcu_gp));
        let mut s = gps.srcu_gp.compose(inner).compose(&gps.srcu_rscsi);
        s.union_with(&gps.srcu_rscsi.compose(inner).compose(&gps.srcu_gp));
        r.union_with(&s.intersect(&gps.same_domain));
        r
    };
    let mut order = gps.rcu_gp.union(&gps.srcu_gp);
    order.union_with(&bracket(&link));
    loop {
        let mut next = order.clone();
        next.union_with(&bracket(&link.compose(&order).compose(&link)));
        next.union_with(&order.compose(&link).compose(&order));
        if next == order {
            break;
        }
        order = next;
    }
    po.compose(&order).compose(&po.reflexive())
}

/// What the plain-access part of the model reads of one graph.
struct Plain<'a> {
    n: usize,
    marked: &'a dyn Fn(usize) -> bool,
    plain: &'a dyn Fn(usize) -> bool,
    m: &'a dyn Fn(usize) -> bool,
    w: &'a dyn Fn(usize) -> bool,
    ext: &'a dyn Fn(usize, usize) -> bool,
    rf: &'a Relation,
    co: &'a Relation,
    fr: &'a Relation,
    hb: &'a Relation,
    pb: &'a Relation,
    prop: &'a Relation,
    rfe: &'a Relation,
    addr: &'a Relation,
    cumul_fence: &'a Relation,
    rmw_sequence: &'a Relation,
    strong_fence: &'a Relation,
    nonrw_fence: &'a Relation,
    fence: &'a Relation,
    rcu_fence: &'a Relation,
    /// `[R4rmb]; fencerel(Rmb); [~Noreturn]` and its mirror.
    rmb_r4rmb_to_any: &'a Relation,
    rmb_any_to_r4rmb: &'a Relation,
}

impl Plain<'_> {
    /// herd's `plain-coherence` violations and `data-race` pairs: the executes-before
    /// order `xb* = (hb | pb | rb)*`, visibility `vis`, the bounds of a plain
    /// access's lifetime by the marked accesses and fences around it, and from them
    /// the pairs of conflicting accesses (one plain, different threads) that are
    /// ordered against coherence (`*-incoh`) or not ordered at all (`*-race`).
    fn races(&self) -> PlainRaces {
        let n = self.n;
        let marked = self.marked;
        let rb = self
            .prop
            .compose(self.rcu_fence)
            .compose(&self.hb.star())
            .compose(&self.pb.star())
            .restrict(|_| true, marked);
        let xbstar = self.hb.union(self.pb).union(&rb).star();
        let fence = self.fence.union(self.rcu_fence);
        let strong = self.strong_fence.union(self.rcu_fence);
        let vis = self
            .cumul_fence
            .star()
            .compose(&self.rfe.reflexive())
            .restrict(|_| true, marked)
            .compose(
                &strong
                    .restrict(|_| true, marked)
                    .compose(&xbstar)
                    .union(&xbstar.filter(|a, c| !(self.ext)(a, c))),
            );
        let w_pre = self
            .addr
            .union(&fence)
            .reflexive()
            .restrict(marked, |_| true);
        let r_pre = self
            .addr
            .union(self.nonrw_fence)
            .union(self.rmb_r4rmb_to_any)
            .reflexive()
            .restrict(marked, |_| true);
        let w_post = fence
            .reflexive()
            .restrict(|_| true, marked)
            .compose(self.rmw_sequence);
        let r_post = self
            .nonrw_fence
            .union(self.rmb_any_to_r4rmb)
            .reflexive()
            .restrict(|_| true, marked);
        let strong_xb = strong.compose(&xbstar);
        let w_post_vis = w_post.compose(&vis);
        let ww_vis = fence
            .union(&strong_xb.compose(&w_pre))
            .union(&w_post_vis.compose(&w_pre));
        let wr_vis = fence
            .union(&strong_xb.compose(&r_pre))
            .union(&w_post_vis.compose(&r_pre));
        let rw_xbstar = fence.union(&r_post.compose(&xbstar).compose(&w_pre));
        let (plain, m, w) = (self.plain, self.m, self.w);
        let pre_race = Relation::from_fn(n, |a, c| {
            (self.ext)(a, c) && ((plain(a) && m(c)) || (m(a) && plain(c)))
        });
        let mut incoh = pre_race.intersect(self.rf).intersect(&rw_xbstar.inverse());
        incoh.union_with(&pre_race.intersect(self.fr).intersect(&wr_vis.inverse()));
        incoh.union_with(&pre_race.intersect(self.co).intersect(&ww_vis.inverse()));
        let ww_nonrace = ww_vis
            .intersect(&Relation::from_fn(n, |a, c| marked(a) && w(c)).union(&rw_xbstar))
            .intersect(&Relation::from_fn(n, |a, c| w(a) && marked(c)).union(&wr_vis));
        let mut race = pre_race.intersect(self.co).minus(&ww_nonrace);
        race.union_with(
            &pre_race
                .intersect(&self.co.reflexive().compose(self.rf))
                .minus(&wr_vis)
                .minus(&rw_xbstar.inverse()),
        );
        race.union_with(&pre_race.intersect(self.fr).minus(&rw_xbstar));
        PlainRaces { incoh, race }
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
