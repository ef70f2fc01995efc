//! Kernel litmus shapes built by hand, with their published verdicts.
//!
//! Sources: Alglave, Maranget, McKenney, Parri, Stern, ASPLOS 2018 (§2's message
//! passing, store buffering and load buffering examples and §4's RCU example), and
//! the tests Linux ships with the model (`tools/memory-model/litmus-tests/`, whose
//! headers give herd's verdict): `MP+wmbonceonce+rmbonceonce` Never,
//! `SB+mbonceonces` Never, `SB+poonceonces` Sometimes, `LB+poonceonces` Sometimes,
//! `LB+ctrlonceonce+mbonceonce` Never, `MP+poonceonces` Sometimes,
//! `MP+pooncerelease+poacquireonce` Never, `MP+onceassign+derefonce` Never,
//! `RCU+sync+read` Never. Each test builds the execution of the condition and asks
//! whether the model accepts it ("Sometimes" = consistent).

use super::*;
use crate::relation::testkit::{Lit, X, Y, Z};
use porf_graph::hw::{Deps, Hw};
use porf_graph::MemOrder::{Acquire, Relaxed, Release, SeqCst};
use porf_graph::{LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, WriteKind};

fn tag(l: &mut Lit, e: EventId, tags: Tags) {
    let mut hw = l.g.label(e).hw.as_deref().cloned().unwrap_or_default();
    hw.tags = tags;
    l.g.set_hw(e, Some(hw));
}

fn deps(l: &mut Lit, e: EventId, addr: &[u32], data: &[u32], ctrl: &[u32]) {
    let mut hw = l.g.label(e).hw.as_deref().cloned().unwrap_or_default();
    hw.deps = Deps {
        addr: addr.to_vec(),
        data: data.to_vec(),
        ctrl: ctrl.to_vec(),
        value: vec![],
    };
    l.g.set_hw(e, Some(hw));
}

fn once_w(l: &mut Lit, t: u32, loc: Loc) -> EventId {
    let e = l.write(t, loc, Relaxed);
    tag(l, e, Tags::ONCE);
    e
}
fn rel_w(l: &mut Lit, t: u32, loc: Loc) -> EventId {
    let e = l.write(t, loc, Release);
    tag(l, e, Tags::REL);
    e
}
fn once_r(l: &mut Lit, t: u32, loc: Loc, rf: Option<EventId>) -> EventId {
    let e = l.read(t, loc, Relaxed, rf);
    tag(l, e, Tags::ONCE);
    e
}
fn acq_r(l: &mut Lit, t: u32, loc: Loc, rf: Option<EventId>) -> EventId {
    let e = l.read(t, loc, Acquire, rf);
    tag(l, e, Tags::ACQ);
    e
}
fn kfence(l: &mut Lit, t: u32, k: KernelFence) -> EventId {
    let e = l.fence(t, SeqCst);
    l.g.set_hw(
        e,
        Some(Hw {
            fence: Some(FenceKind::Kernel(k)),
            ..Hw::default()
        }),
    );
    e
}

/// `l.check()` (declarative, agreeing with the incremental check) and the axioms that
/// fail, for the message.
fn verdict(l: &Lit) -> bool {
    let ok = l.check();
    assert_eq!(ok, failed_axioms(&l.g).is_empty() && atomicity::holds(&l.g));
    ok
}

/// MP: P0 writes x then y, P1 reads y = 1 then x = 0, with the given barriers.
fn mp(p0_fence: Option<KernelFence>, p1_fence: Option<KernelFence>) -> bool {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    once_w(&mut l, 1, X);
    if let Some(k) = p0_fence {
        kfence(&mut l, 1, k);
    }
    let wy = once_w(&mut l, 1, Y);
    once_r(&mut l, 2, Y, Some(wy));
    if let Some(k) = p1_fence {
        kfence(&mut l, 2, k);
    }
    once_r(&mut l, 2, X, None);
    verdict(&l)
}

#[test]
fn mp_needs_wmb_and_rmb() {
    assert!(mp(None, None), "MP+poonceonces: Sometimes");
    assert!(!mp(Some(KernelFence::Wmb), Some(KernelFence::Rmb)));
    assert!(mp(Some(KernelFence::Wmb), None), "MP+wmb+po: Sometimes");
    assert!(mp(None, Some(KernelFence::Rmb)), "MP+po+rmb: Sometimes");
    assert!(!mp(Some(KernelFence::Mb), Some(KernelFence::Mb)));
    // smp_rmb does not order writes, smp_wmb does not order reads.
    assert!(mp(Some(KernelFence::Rmb), Some(KernelFence::Wmb)));
}

#[test]
fn mp_release_acquire_is_forbidden() {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    once_w(&mut l, 1, X);
    let wy = rel_w(&mut l, 1, Y);
    acq_r(&mut l, 2, Y, Some(wy));
    once_r(&mut l, 2, X, None);
    assert!(!verdict(&l), "MP+pooncerelease+poacquireonce: Never");
}

#[test]
fn mp_with_an_address_dependency_is_forbidden() {
    // MP+onceassign+derefonce: P0 x = 1; rcu_assign_pointer(p, &x). P1 r = p; *r:
    // the second read depends on the first by address.
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    once_w(&mut l, 1, X);
    let wp = rel_w(&mut l, 1, Y);
    let rp = once_r(&mut l, 2, Y, Some(wp));
    let rx = once_r(&mut l, 2, X, None);
    deps(&mut l, rx, &[rp.idx], &[], &[]);
    assert!(!verdict(&l), "MP+onceassign+derefonce: Never");
}

fn sb(fence: Option<KernelFence>) -> bool {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    once_w(&mut l, 1, X);
    if let Some(k) = fence {
        kfence(&mut l, 1, k);
    }
    once_r(&mut l, 1, Y, None);
    once_w(&mut l, 2, Y);
    if let Some(k) = fence {
        kfence(&mut l, 2, k);
    }
    once_r(&mut l, 2, X, None);
    verdict(&l)
}

#[test]
fn sb_needs_full_barriers() {
    assert!(sb(None), "SB+poonceonces: Sometimes");
    assert!(!sb(Some(KernelFence::Mb)), "SB+mbonceonces: Never");
    assert!(sb(Some(KernelFence::Wmb)));
    assert!(sb(Some(KernelFence::Rmb)));
}

/// LB: each thread reads what the other writes after its read; `ctrl0` makes P0's
/// write depend on its read by control, `fence1` sits between P1's read and write.
fn lb(ctrl0: bool, fence1: Option<KernelFence>) -> bool {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    // The reads' sources are added later: build with init, then redirect.
    let rx = once_r(&mut l, 1, X, None);
    let wy = once_w(&mut l, 1, Y);
    if ctrl0 {
        deps(&mut l, wy, &[], &[], &[rx.idx]);
    }
    let ry = once_r(&mut l, 2, Y, Some(wy));
    if let Some(k) = fence1 {
        kfence(&mut l, 2, k);
    }
    let wx = once_w(&mut l, 2, X);
    l.g.set_rf(rx, Some(wx));
    let _ = ry;
    verdict(&l)
}

#[test]
fn load_buffering_is_allowed_unless_ordered() {
    assert!(lb(false, None), "LB+poonceonces: Sometimes");
    assert!(
        !lb(true, Some(KernelFence::Mb)),
        "LB+ctrlonceonce+mbonceonce: Never"
    );
    assert!(lb(true, None), "LB+ctrl+po: Sometimes");
    assert!(lb(false, Some(KernelFence::Mb)), "LB+po+mb: Sometimes");
}

/// RCU+sync+read: P0 `rcu_read_lock(); r1 = x; r2 = y; rcu_read_unlock()`, P1 `y = 1;
/// synchronize_rcu(); x = 1`; r1 = 1 ∧ r2 = 0 would put the whole critical section
/// across the grace period.
fn rcu_mp(critical_section: bool, sync: bool) -> bool {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    let wy = once_w(&mut l, 2, Y);
    if sync {
        kfence(&mut l, 2, KernelFence::SyncRcu);
    }
    let wx = once_w(&mut l, 2, X);
    if critical_section {
        kfence(&mut l, 1, KernelFence::RcuLock);
    }
    once_r(&mut l, 1, X, Some(wx));
    once_r(&mut l, 1, Y, None);
    if critical_section {
        kfence(&mut l, 1, KernelFence::RcuUnlock);
    }
    let _ = wy;
    verdict(&l)
}

#[test]
fn rcu_grace_period_waits_for_critical_sections() {
    assert!(!rcu_mp(true, true), "RCU+sync+read: Never");
    assert!(
        rcu_mp(false, true),
        "without the read-side critical section"
    );
    assert!(rcu_mp(true, false), "without the grace period");
    assert_eq!(
        {
            let m = Lkmm;
            let mut l = Lit::new(&m, 2);
            let wy = once_w(&mut l, 2, Y);
            kfence(&mut l, 2, KernelFence::SyncRcu);
            let wx = once_w(&mut l, 2, X);
            kfence(&mut l, 1, KernelFence::RcuLock);
            once_r(&mut l, 1, X, Some(wx));
            once_r(&mut l, 1, Y, None);
            kfence(&mut l, 1, KernelFence::RcuUnlock);
            let _ = wy;
            failed_axioms(&l.g)
        },
        vec!["rcu"]
    );
}

#[test]
fn coherence_and_atomicity() {
    // CoRR: two reads of x in one thread see 1 then the initial value.
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    let w = once_w(&mut l, 1, X);
    once_r(&mut l, 2, X, Some(w));
    once_r(&mut l, 2, X, None);
    assert!(!verdict(&l));
    assert_eq!(failed_axioms(&l.g), vec!["coherence"]);
    let _ = Z;
}

/// An RMW (xchg) at `t`: read part then exclusive write part right after its source.
fn xchg(l: &mut Lit, t: u32, loc: Loc, rf: Option<EventId>, tags: Tags) -> (EventId, EventId) {
    let r = l.push(
        t,
        LabelKind::Read {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            kind: ReadKind::Rmw(RmwOp::Xchg(1)),
            rf,
        },
    );
    let pos = rf.map_or(1, |w| l.g.co(loc).iter().position(|&x| x == w).unwrap() + 2);
    let w = l.g.add(
        t,
        LabelKind::Write {
            loc,
            bytes: 8,
            ord: MemOrder::Relaxed,
            val: 1,
            kind: WriteKind::Exclusive,
        },
        SrcLoc::UNKNOWN,
    );
    l.g.co_insert(w, pos);
    l.g.label_mut(w).hb = l.m.hb_view(&l.g, w);
    l.last = w;
    tag(l, r, tags);
    tag(l, w, tags);
    (r, w)
}

#[test]
fn fully_ordered_rmws_are_full_barriers() {
    // SB with an xchg on a third location in each thread: `xchg` (Mb) orders like
    // smp_mb, `xchg_relaxed` (Once) does not.
    for (tags, allowed) in [(Tags::MB, false), (Tags::ONCE, true)] {
        let m = Lkmm;
        let mut l = Lit::new(&m, 2);
        once_w(&mut l, 1, X);
        let (_, w1) = xchg(&mut l, 1, Z, None, tags);
        once_r(&mut l, 1, Y, None);
        once_w(&mut l, 2, Y);
        xchg(&mut l, 2, Z, Some(w1), tags);
        once_r(&mut l, 2, X, None);
        assert_eq!(verdict(&l), allowed, "{tags:?}");
    }
}

#[test]
fn before_and_after_atomic_make_a_relaxed_rmw_a_full_barrier() {
    let m = Lkmm;
    let mut l = Lit::new(&m, 2);
    once_w(&mut l, 1, X);
    kfence(&mut l, 1, KernelFence::BeforeAtomic);
    let (_, w1) = xchg(&mut l, 1, Z, None, Tags::ONCE | Tags::NORETURN);
    once_r(&mut l, 1, Y, None);
    once_w(&mut l, 2, Y);
    let (_, _) = xchg(&mut l, 2, Z, Some(w1), Tags::ONCE | Tags::NORETURN);
    kfence(&mut l, 2, KernelFence::AfterAtomic);
    once_r(&mut l, 2, X, None);
    // P0: x before the RMW before y; P1: y before the RMW before x.
    assert!(!verdict(&l));
}
