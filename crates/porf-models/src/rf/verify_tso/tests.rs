//! VerifyTSO on hand-built litmus shapes: the expected verdict, agreement with brute
//! force, with and without the closure, and witnesses that make `is_consistent` hold.

use super::{verify_tso_with, DecidedBy, Options};
use crate::relation::testkit::{Lit, X, Y};
use crate::rf::{brute_force, install};
use crate::tso::Tso;
use crate::MemoryModel;
use porf_graph::{EventId, LabelKind, Loc, MemOrder, ReadKind, RmwOp, Tid, Wrap, WriteKind};
use MemOrder::{AcqRel, Relaxed, SeqCst};

/// The verdict of VerifyTSO on `l`, after checking it against brute force (with and
/// without the closure) and checking the witness.
fn verdict(l: &Lit) -> bool {
    let g = &l.g;
    let truth = brute_force(&Tso, g).is_some();
    for closure in [true, false] {
        let r = verify_tso_with(g, Options { closure });
        assert_eq!(r.witness.is_some(), truth, "closure {closure} on {g}");
        if let Some(co) = r.witness {
            let mut g2 = g.clone();
            install(&mut g2, &co);
            assert!(Tso.is_consistent(&g2), "witness {co:?} of {g}");
        }
    }
    assert_eq!(Tso.rf_consistent(g).is_some(), truth);
    truth
}

fn lit(children: u32) -> Lit<'static> {
    Lit::new(&Tso, children)
}

/// A fetch-add of `loc` by `t` reading `rf`: read part and write part.
fn faa(l: &mut Lit, t: Tid, loc: Loc, ord: MemOrder, rf: Option<EventId>) -> EventId {
    let op = RmwOp::Add(1, Wrap::NONE);
    l.push(t, rmw_read(loc, ord, op, rf));
    l.push(t, write_kind(loc, ord, WriteKind::Exclusive))
}

/// A compare-exchange of `loc` by `t` that fails, reading `rf`.
fn failed_cas(l: &mut Lit, t: Tid, loc: Loc, rf: Option<EventId>) -> EventId {
    let op = RmwOp::Cas {
        expected: 1000,
        new: 0,
        fail_ord: Relaxed,
    };
    l.push(t, rmw_read(loc, Relaxed, op, rf))
}

fn rmw_read(loc: Loc, ord: MemOrder, op: RmwOp, rf: Option<EventId>) -> LabelKind {
    LabelKind::Read {
        loc,
        bytes: 8,
        ord,
        kind: ReadKind::Rmw(op),
        rf,
    }
}

fn write_kind(loc: Loc, ord: MemOrder, kind: WriteKind) -> LabelKind {
    LabelKind::Write {
        loc,
        bytes: 8,
        ord,
        val: 1,
        kind,
    }
}

/// SB: `x = 1; [F]; r = y || y = 1; [F]; r = x`, both reads of the initialisation.
fn sb(w: MemOrder, fence: Option<MemOrder>) -> bool {
    let mut l = lit(2);
    for (t, a, b) in [(1, X, Y), (2, Y, X)] {
        l.write(t, a, w);
        if let Some(f) = fence {
            l.fence(t, f);
        }
        l.read(t, b, Relaxed, None);
    }
    verdict(&l)
}

#[test]
fn store_buffering() {
    assert!(sb(Relaxed, None));
    assert!(sb(MemOrder::NonAtomic, None));
    assert!(sb(Relaxed, Some(AcqRel)), "non-sc fences are no-ops");
    assert!(!sb(Relaxed, Some(SeqCst)));
    assert!(!sb(SeqCst, None), "seq_cst writes are xchg");
}

#[test]
fn store_buffering_with_rmws() {
    // Fetch-adds instead of the writes: locked, so SB's weak outcome is gone.
    let mut l = lit(2);
    for (t, a, b) in [(1, X, Y), (2, Y, X)] {
        faa(&mut l, t, a, Relaxed, None);
        l.read(t, b, Relaxed, None);
    }
    assert!(!verdict(&l));
    // A failed compare-exchange is a locked read: in one thread only, SB stays weak…
    let sb_cas = |both: bool| {
        let mut l = lit(2);
        l.write(1, X, Relaxed);
        failed_cas(&mut l, 1, Y, None);
        l.write(2, Y, Relaxed);
        if both {
            failed_cas(&mut l, 2, X, None);
        } else {
            l.read(2, X, Relaxed, None);
        }
        verdict(&l)
    };
    assert!(sb_cas(false));
    // … in both, it is forbidden.
    assert!(!sb_cas(true));
}

#[test]
fn message_passing() {
    let mp = |weak: bool| {
        let mut l = lit(2);
        let d = l.write(1, X, Relaxed);
        let f = l.write(1, Y, Relaxed);
        l.read(2, Y, Relaxed, Some(f));
        l.read(2, X, Relaxed, if weak { None } else { Some(d) });
        verdict(&l)
    };
    assert!(mp(false));
    assert!(!mp(true));
}

#[test]
fn store_forwarding() {
    // `x = 1; r1 = x (1); r2 = y (0) || y = 1; r3 = y (1); r4 = x (0)`: reads of the
    // own buffer, then SB — allowed on x86.
    let mut l = lit(2);
    for (t, a, b) in [(1, X, Y), (2, Y, X)] {
        let w = l.write(t, a, Relaxed);
        l.read(t, a, Relaxed, Some(w));
        l.read(t, b, Relaxed, None);
    }
    assert!(verdict(&l));
    // Reading the initialisation, or an older own write, after a newer own write.
    let mut l = lit(1);
    l.write(1, X, Relaxed);
    l.read(1, X, Relaxed, None);
    assert!(!verdict(&l));
    let mut l = lit(1);
    let w = l.write(1, X, Relaxed);
    l.write(1, X, Relaxed);
    l.read(1, X, Relaxed, Some(w));
    assert!(!verdict(&l));
    // n6: `x = 1; r1 = x (1); r2 = y (0) || y = 2; x = 2`, and a third thread sees
    // x = 2 then x = 1: T1's x = 1 reaches memory after T2's x = 2. Allowed.
    let mut l = lit(3);
    let w1 = l.write(1, X, Relaxed);
    l.read(1, X, Relaxed, Some(w1));
    l.read(1, Y, Relaxed, None);
    l.write(2, Y, Relaxed);
    let w2 = l.write(2, X, Relaxed);
    l.read(3, X, Relaxed, Some(w2));
    l.read(3, X, Relaxed, Some(w1));
    assert!(verdict(&l));
    let co = super::verify_tso(&l.g).unwrap();
    assert_eq!(
        co.iter().find(|(loc, _)| *loc == X).unwrap().1,
        vec![w2, w1]
    );
}

#[test]
fn iriw_is_forbidden() {
    // `x = 1 || y = 1 || x (1); y (0) || y (1); x (0)`: TSO is multi-copy atomic.
    let mut l = lit(4);
    let wx = l.write(1, X, Relaxed);
    let wy = l.write(2, Y, Relaxed);
    l.read(3, X, Relaxed, Some(wx));
    l.read(3, Y, Relaxed, None);
    l.read(4, Y, Relaxed, Some(wy));
    l.read(4, X, Relaxed, None);
    assert!(!verdict(&l));
    assert_eq!(
        verify_tso_with(&l.g, Options::default()).decided_by,
        DecidedBy::Closure
    );
}

#[test]
fn two_plus_two_writes() {
    // `x = 1; y = 2; r = y (1) || y = 1; x = 2; r = x (1)`: each read sees the other
    // thread's write after its own, so co is y: 2, 1 and x: 2, 1 — a ghb cycle.
    let mut l = lit(2);
    let x1 = l.write(1, X, Relaxed);
    l.write(1, Y, Relaxed);
    let y1 = l.write(2, Y, Relaxed);
    l.write(2, X, Relaxed);
    l.read(1, Y, Relaxed, Some(y1));
    l.read(2, X, Relaxed, Some(x1));
    assert!(!verdict(&l));
    // Without the reads, any co works.
    let mut l = lit(2);
    l.write(1, X, Relaxed);
    l.write(1, Y, Relaxed);
    l.write(2, Y, Relaxed);
    l.write(2, X, Relaxed);
    assert!(verdict(&l));
}

#[test]
fn rmw_atomicity() {
    // Two fetch-adds of the initialisation: not atomic.
    let mut l = lit(2);
    faa(&mut l, 1, X, Relaxed, None);
    faa(&mut l, 2, X, Relaxed, None);
    assert!(!verdict(&l));
    assert_eq!(
        verify_tso_with(&l.g, Options::default()).decided_by,
        DecidedBy::Precheck
    );
    // A chain, and a plain write after reading its end: the write goes last.
    let mut l = lit(3);
    let a = faa(&mut l, 1, X, Relaxed, None);
    let b = faa(&mut l, 2, X, Relaxed, Some(a));
    l.read(3, X, Relaxed, Some(b));
    let w = l.write(3, X, Relaxed);
    assert!(verdict(&l));
    let co = super::verify_tso(&l.g).unwrap();
    assert_eq!(co[0].1, vec![a, b, w]);
    // Writing before reading the chain's end would put the write inside the chain.
    let mut l = lit(3);
    let a = faa(&mut l, 1, X, Relaxed, None);
    let b = faa(&mut l, 2, X, Relaxed, Some(a));
    l.write(3, X, Relaxed);
    l.read(3, X, Relaxed, Some(b));
    assert!(!verdict(&l));
    // The plain write cannot go between a fetch-add and its source.
    let mut l = lit(2);
    let w = l.write(1, X, Relaxed);
    let a = faa(&mut l, 2, X, Relaxed, Some(w));
    l.read(1, X, Relaxed, Some(a));
    l.read(2, X, Relaxed, Some(a));
    assert!(verdict(&l));
    // T3 writes x after seeing w1; T4 then sees T3's write before the fetch-add of w1:
    // T3's write would sit between the fetch-add and its source.
    let mut l = lit(4);
    let w1 = l.write(1, X, Relaxed);
    let a = faa(&mut l, 2, X, Relaxed, Some(w1));
    l.read(3, X, Relaxed, Some(w1));
    let w2 = l.write(3, X, Relaxed);
    l.read(4, X, Relaxed, Some(w2));
    assert!(verdict(&l));
    l.read(4, X, Relaxed, Some(a));
    assert!(!verdict(&l));
}

#[test]
fn spawn_and_join_synchronise() {
    // main: x = 1; spawn; the child reads the initialisation — impossible, as the spawn
    // flushes main's buffer. Built by hand, since `Lit` spawns first.
    let mut l = lit(0);
    l.write(0, X, Relaxed);
    let s = l.push(
        0,
        LabelKind::Spawn {
            child: 1,
            entry: 0,
            arg: 0,
            symm: None,
        },
    );
    l.push(1, LabelKind::Start { parent: Some(s) });
    l.read(1, X, Relaxed, None);
    assert!(!verdict(&l));
    // The child writes y and finishes; main joins and reads the initialisation.
    let mut l = lit(1);
    l.write(1, Y, Relaxed);
    l.push(1, LabelKind::Finish { ret: 0 });
    l.push(0, LabelKind::Join { child: 1 });
    l.read(0, Y, Relaxed, None);
    assert!(!verdict(&l));
}

#[test]
fn closure_is_incomplete() {
    // Two choices, each forcing the other to contradict itself, with seq_cst writes
    // (so TSO is SC here). x: a1 (T1) read by r1 (T3), a2 (T2) read by r2 (T4);
    // y: b1 (T3) read by s1 (T1), b2 (T4) read by s2 (T2). Messages on private
    // locations order both a's before both s's and both b's before both r's:
    //   T1: a1; c1; read c2; s1      T3: b1; d1; read d2; r1
    //   T2: a2; c2; read c1; s2      T4: b2; d2; read d1; r2
    // If r1 < a2 then b2 < r1 < a2 < s1, so b2 < b1 (s1 reads b1) and s2 < b1, so
    // a2 < s2 < b1 < r1: a contradiction; symmetrically r2 < a1 is one too, and one
    // of them must hold. The closure orders none of these pairs, so only the search
    // finds out.
    let mut l = lit(4);
    let (c, d) = ([Loc(4), Loc(5)], [Loc(6), Loc(7)]);
    for loc in c.into_iter().chain(d) {
        l.g.ensure_loc(loc, 0, None);
    }
    let (a1, a2) = (l.write(1, X, SeqCst), l.write(2, X, SeqCst));
    let (b1, b2) = (l.write(3, Y, SeqCst), l.write(4, Y, SeqCst));
    let c1 = l.write(1, c[0], SeqCst);
    let c2 = l.write(2, c[1], SeqCst);
    let d1 = l.write(3, d[0], SeqCst);
    let d2 = l.write(4, d[1], SeqCst);
    l.read(1, c[1], Relaxed, Some(c2));
    l.read(2, c[0], Relaxed, Some(c1));
    l.read(3, d[1], Relaxed, Some(d2));
    l.read(4, d[0], Relaxed, Some(d1));
    let reads = [(1, Y, b1), (2, Y, b2), (3, X, a1), (4, X, a2)];
    for (t, loc, w) in reads {
        l.read(t, loc, Relaxed, Some(w));
    }
    assert!(!verdict(&l));
    assert_eq!(
        verify_tso_with(&l.g, Options::default()).decided_by,
        DecidedBy::Search
    );
}
