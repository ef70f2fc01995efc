//! POWER on hand-built litmus shapes. Each verdict is the architectural one: the
//! tests and verdicts of Sarkar, Sewell, Alglave, Maranget and Williams,
//! "Understanding POWER Multiprocessors", PLDI 2011, and of "Herding Cats" §8 (the
//! model's own validation), as herd7 computes them for the tests of the same names in
//! Dat3M's `litmus/PPC` (`dartagnan/src/test/resources/PPC-expected.csv`: 1 =
//! allowed). A test name reads as herd's: `MP+lwsync+addr` is message passing with an
//! `lwsync` between the writes and an address dependency between the reads.

use super::Power;
use crate::hwrel::testkit::{allowed, Src, I};
use crate::relation::testkit::{X, Y};
use porf_graph::hw::FenceKind::{Lwsync, Sync};

const INIT: Src = Src::Init;

/// What separates two accesses of a thread.
#[derive(Copy, Clone)]
enum Sep {
    Po,
    Lwsync,
    Sync,
    Addr,
    Data,
    Ctrl,
    CtrlIsync,
}

fn sep(s: Sep) -> Vec<I> {
    match s {
        Sep::Po => vec![],
        Sep::Lwsync => vec![I::F(Lwsync)],
        Sep::Sync => vec![I::F(Sync)],
        Sep::Addr => vec![I::Addr],
        Sep::Data => vec![I::Data],
        Sep::Ctrl => vec![I::Ctrl],
        Sep::CtrlIsync => vec![I::CtrlIsync],
    }
}

fn thread(a: I, s: Sep, b: I) -> Vec<I> {
    let mut v = vec![a];
    v.extend(sep(s));
    v.push(b);
    v
}

fn run(threads: &[Vec<I>]) -> bool {
    let ts: Vec<&[I]> = threads.iter().map(|t| t.as_slice()).collect();
    allowed(&Power, &ts)
}

/// MP: T1 `x=1; y=1`, T2 `r1=y (1); r2=x (0)`.
fn mp(a: Sep, b: Sep) -> bool {
    run(&[
        thread(I::W(X, 1), a, I::W(Y, 1)),
        thread(I::R(Y, Src::W(1, 1)), b, I::R(X, INIT)),
    ])
}

/// WRC: T1 `x=1`, T2 `r1=x (1); y=1`, T3 `r2=y (1); r3=x (0)`.
fn wrc(a: Sep, b: Sep) -> bool {
    run(&[
        vec![I::W(X, 1)],
        thread(I::R(X, Src::W(1, 0)), a, I::W(Y, 1)),
        thread(I::R(Y, Src::W(2, 0)), b, I::R(X, INIT)),
    ])
}

/// IRIW: T1 `x=1`, T2 `y=1`, T3 `x (1); y (0)`, T4 `y (1); x (0)`.
fn iriw(a: Sep, b: Sep) -> bool {
    run(&[
        vec![I::W(X, 1)],
        vec![I::W(Y, 1)],
        thread(I::R(X, Src::W(1, 0)), a, I::R(Y, INIT)),
        thread(I::R(Y, Src::W(2, 0)), b, I::R(X, INIT)),
    ])
}

/// LB: T1 `r1=x (1); y=1`, T2 `r2=y (1); x=1`.
fn lb(a: Sep, b: Sep) -> bool {
    run(&[
        thread(I::R(X, Src::W(2, 0)), a, I::W(Y, 1)),
        thread(I::R(Y, Src::W(1, 0)), b, I::W(X, 1)),
    ])
}

/// SB: T1 `x=1; r1=y (0)`, T2 `y=1; r2=x (0)`.
fn sb(a: Sep, b: Sep) -> bool {
    run(&[
        thread(I::W(X, 1), a, I::R(Y, INIT)),
        thread(I::W(Y, 1), b, I::R(X, INIT)),
    ])
}

/// 2+2W: T1 `x=1; y=1`, T2 `y=2; x=2`, finally `x=1, y=2`... as herd writes it:
/// each thread's first write is co-last.
fn two_plus_two_w(a: Sep, b: Sep) -> bool {
    run(&[
        thread(I::W(X, 2), a, I::W(Y, 1)),
        thread(I::W(Y, 2), b, I::W(X, 1)),
    ])
}

/// R: T1 `x=1; y=1`, T2 `y=2; r=x (0)`, finally `y=2`.
fn r(a: Sep, b: Sep) -> bool {
    run(&[
        thread(I::W(X, 1), a, I::W(Y, 1)),
        thread(I::W(Y, 2), b, I::R(X, INIT)),
    ])
}

#[test]
fn message_passing() {
    use Sep::*;
    assert!(mp(Po, Po), "MP");
    assert!(!mp(Lwsync, Addr), "MP+lwsync+addr");
    assert!(!mp(Lwsync, Lwsync), "MP+lwsyncs");
    assert!(mp(Lwsync, Ctrl), "MP+lwsync+ctrl");
    assert!(!mp(Lwsync, CtrlIsync), "MP+lwsync+ctrlisync");
    assert!(mp(Lwsync, Po), "MP+lwsync+po");
    assert!(!mp(Lwsync, Sync), "MP+lwsync+sync");
    assert!(mp(Po, Sync), "MP+po+sync");
    assert!(!mp(Sync, Addr), "MP+sync+addr");
    assert!(mp(Sync, Ctrl), "MP+sync+ctrl");
}

#[test]
fn write_to_read_causality() {
    use Sep::*;
    assert!(!wrc(Lwsync, Addr), "WRC+lwsync+addr");
    assert!(!wrc(Sync, Addr), "WRC+sync+addr");
    assert!(wrc(Addr, Addr), "WRC+addrs");
    assert!(wrc(Data, Addr), "WRC+data+addr");
}

#[test]
fn independent_reads() {
    use Sep::*;
    assert!(iriw(Po, Po), "IRIW");
    assert!(iriw(Lwsync, Lwsync), "IRIW+lwsyncs");
    assert!(iriw(Sync, Lwsync), "IRIW+sync+lwsync");
    assert!(iriw(Addr, Addr), "IRIW+addrs");
    assert!(!iriw(Sync, Sync), "IRIW+syncs");
}

#[test]
fn load_buffering() {
    use Sep::*;
    assert!(lb(Po, Po), "LB");
    assert!(!lb(Data, Data), "LB+datas");
    assert!(!lb(Addr, Addr), "LB+addrs");
    assert!(!lb(Ctrl, Ctrl), "LB+ctrls");
    assert!(lb(Data, Po), "LB+data+po");
    assert!(!lb(Lwsync, Lwsync), "LB+lwsyncs");
    assert!(!lb(Lwsync, Data), "LB+lwsync+data");
}

#[test]
fn store_buffering_and_write_orders() {
    use Sep::*;
    assert!(sb(Po, Po), "SB");
    assert!(sb(Lwsync, Lwsync), "SB+lwsyncs");
    assert!(!sb(Sync, Sync), "SB+syncs");
    assert!(two_plus_two_w(Po, Po), "2+2W");
    assert!(!two_plus_two_w(Lwsync, Lwsync), "2+2W+lwsyncs");
    assert!(two_plus_two_w(Lwsync, Po), "2+2W+lwsync+po");
    assert!(r(Lwsync, Sync), "R+lwsync+sync");
    assert!(!r(Sync, Sync), "R+syncs");
}

#[test]
fn coherence() {
    // CoRR: T1 `x=1`, T2 `x (1); x (0)`.
    assert!(!run(&[
        vec![I::W(X, 1)],
        vec![I::R(X, Src::W(1, 0)), I::R(X, INIT)],
    ]));
    // CoWR: T1 `x=1; x (0)` reading the initial value over its own write.
    assert!(!run(&[vec![I::W(X, 1), I::R(X, INIT)]]));
}

#[test]
fn exclusive_pairs_are_atomic() {
    // T1 `lwarx x (0); stwcx. x`, T2 `x=1`: T2's write cannot come between.
    let between = run(&[vec![I::Lx(X, INIT), I::Sx(X, 2)], vec![I::W(X, 1)]]);
    assert!(
        !between,
        "a write between a successful pair's read and write"
    );
    let after = run(&[vec![I::Lx(X, INIT), I::Sx(X, 1)], vec![I::W(X, 2)]]);
    assert!(after);
}
