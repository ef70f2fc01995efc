//! IMM on hand-built litmus shapes. Verdicts: LB allowed and LB with dependencies
//! forbidden, message passing through release/acquire forbidden, SB and IRIW
//! forbidden with seq_cst fences, from Podkopaev, Lahav and Vafeiadis, POPL 2019 (§3,
//! the examples motivating `ar`, `ppo` and `psc`); the others derived by hand from the
//! definitions in the module documentation, each next to its test.

use super::Imm;
use crate::hwrel::testkit::{allowed, Src, I};
use crate::relation::testkit::{X, Y};
use porf_graph::MemOrder::{self, AcqRel, Acquire, Relaxed, Release, SeqCst};

const INIT: Src = Src::Init;

fn run(threads: &[&[I]]) -> bool {
    allowed(&Imm, threads)
}

/// MP: T1 `x=1; y=1 (w)`, T2 `r1=y (1) (r); [dep]; r2=x (0)`.
fn mp(w: MemOrder, r: MemOrder, dep: &[I]) -> bool {
    let mut t2 = vec![I::Ro(Y, Src::W(1, 1), r)];
    t2.extend_from_slice(dep);
    t2.push(I::R(X, INIT));
    run(&[&[I::W(X, 1), I::Wo(Y, 1, w)], &t2])
}

#[test]
fn message_passing() {
    assert!(mp(Relaxed, Relaxed, &[]), "MP");
    assert!(!mp(Release, Acquire, &[]), "MP+rel+acq");
    // IMM's ppo ends in writes: an address dependency orders no read, and nothing
    // puts r2's fr edge into `ar` or hb. Allowed.
    assert!(mp(Release, Relaxed, &[I::Addr]), "MP+rel+addr");
    // An acquire fence between the reads: sw from the release write to the fence.
    assert!(!mp(Release, Relaxed, &[I::Fo(Acquire)]), "MP+rel+acqfence");
}

#[test]
fn load_buffering() {
    let lb = |a: &[I], b: &[I]| {
        let mut t1 = vec![I::R(X, Src::W(2, 0))];
        t1.extend_from_slice(a);
        t1.push(I::W(Y, 1));
        let mut t2 = vec![I::R(Y, Src::W(1, 0))];
        t2.extend_from_slice(b);
        t2.push(I::W(X, 1));
        run(&[&t1, &t2])
    };
    assert!(lb(&[], &[]), "LB");
    assert!(!lb(&[I::Data], &[I::Data]), "LB+datas");
    assert!(!lb(&[I::Ctrl], &[I::Ctrl]), "LB+ctrls");
    assert!(!lb(&[I::Addr], &[I::Data]), "LB+addr+data");
    assert!(lb(&[I::Data], &[]), "LB+data+po");
    // A release write after the read: bob orders it (po; [W ∩ Rel]).
    let lb_rel = run(&[
        &[I::R(X, Src::W(2, 0)), I::Wo(Y, 1, Release)],
        &[I::R(Y, Src::W(1, 0)), I::Data, I::W(X, 1)],
    ]);
    assert!(!lb_rel, "LB+rel+data");
}

#[test]
fn store_buffering() {
    let sb = |between: &[I], w: MemOrder, r: MemOrder| {
        let mut t1 = vec![I::Wo(X, 1, w)];
        t1.extend_from_slice(between);
        t1.push(I::Ro(Y, INIT, r));
        let mut t2 = vec![I::Wo(Y, 1, w)];
        t2.extend_from_slice(between);
        t2.push(I::Ro(X, INIT, r));
        run(&[&t1, &t2])
    };
    assert!(sb(&[], Relaxed, Relaxed), "SB");
    assert!(sb(&[I::Fo(AcqRel)], Relaxed, Relaxed), "SB+acqrel fences");
    assert!(!sb(&[I::Fo(SeqCst)], Relaxed, Relaxed), "SB+sc fences");
    // seq_cst accesses: psc_base orders them (po between SC events is in scb).
    assert!(!sb(&[], SeqCst, SeqCst), "SB+sc accesses");
    assert!(sb(&[], Release, Acquire), "SB+rel+acq");
}

#[test]
fn independent_reads() {
    let iriw = |between: &[I], r: MemOrder| {
        let mut t3 = vec![I::Ro(X, Src::W(1, 0), r)];
        t3.extend_from_slice(between);
        t3.push(I::Ro(Y, INIT, r));
        let mut t4 = vec![I::Ro(Y, Src::W(2, 0), r)];
        t4.extend_from_slice(between);
        t4.push(I::Ro(X, INIT, r));
        run(&[&[I::W(X, 1)], &[I::W(Y, 1)], &t3, &t4])
    };
    // Not multi-copy atomic: POWER allows IRIW with its compilation of acquire loads
    // (ctrl+isync), and IMM is sound for that compilation.
    assert!(iriw(&[], Acquire), "IRIW+acqs");
    assert!(!iriw(&[I::Fo(SeqCst)], Relaxed), "IRIW+sc fences");
}

#[test]
fn write_to_read_causality() {
    // T1 `x=1`, T2 `r1=x (1); y=1`, T3 `r2=y (1); r3=x (0)`.
    let wrc = |r: MemOrder, w: MemOrder, mid: &[I], last: &[I]| {
        let mut t2 = vec![I::Ro(X, Src::W(1, 0), r)];
        t2.extend_from_slice(mid);
        t2.push(I::Wo(Y, 1, w));
        let mut t3 = vec![I::Ro(Y, Src::W(2, 0), Acquire)];
        t3.extend_from_slice(last);
        t3.push(I::R(X, INIT));
        run(&[&[I::W(X, 1)], &t2, &t3])
    };
    // hb: x=1 rf r1 (T2), po to the release write, sw to r2, po to r3: coherence.
    assert!(!wrc(Relaxed, Release, &[], &[]), "WRC+rel+acq");
    // The write x=1 is not hb before r3 without the release: allowed.
    assert!(wrc(Relaxed, Relaxed, &[I::Data], &[]), "WRC+data+acq");
}

#[test]
fn coherence_and_atomicity() {
    assert!(
        !run(&[&[I::W(X, 1)], &[I::R(X, Src::W(1, 0)), I::R(X, INIT)]]),
        "CoRR"
    );
    let between = run(&[&[I::Lx(X, INIT), I::Sx(X, 2)], &[I::W(X, 1)]]);
    assert!(!between, "a write between an RMW's read and write");
    assert!(run(&[&[I::Lx(X, INIT), I::Sx(X, 1)], &[I::W(X, 2)]]));
}
