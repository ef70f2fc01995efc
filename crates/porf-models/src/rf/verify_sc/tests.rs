//! VerifySC on hand-built litmus shapes and RMW chains (each verdict also checked
//! against brute force, and each witness by installing it), and the incremental check
//! on every insertion prefix of random graphs.

use super::*;
use crate::relation::testkit::{Lit, X, Y};
use crate::rf::{brute_force, install, random_graph, RandomGraph};
use crate::sc::Sc;
use crate::MemoryModel;
use porf_graph::{MemOrder, ReadKind, RmwOp, Tid, Wrap, WriteKind};
use MemOrder::Relaxed;

/// Asserts VerifySC's verdict on `g`, that brute force agrees and that a witness is one.
fn check(g: &Graph, consistent: bool) {
    let got = verify_sc(g);
    assert_eq!(got.is_some(), consistent, "VerifySC on {g}");
    assert_eq!(
        brute_force(&Sc, g).is_some(),
        consistent,
        "brute force on {g}"
    );
    if let Some(co) = got {
        let mut h = g.clone();
        install(&mut h, &co);
        assert!(Sc.is_consistent(&h), "witness {co:?} of {g}");
    }
}

/// An RMW (fetch-add) by thread `t` on `loc` reading `rf`; returns its write part.
fn fetch_add(l: &mut Lit, t: Tid, loc: porf_graph::Loc, rf: Option<EventId>) -> EventId {
    l.push(
        t,
        LabelKind::Read {
            loc,
            bytes: 8,
            ord: Relaxed,
            kind: ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE)),
            rf,
        },
    );
    l.push(
        t,
        LabelKind::Write {
            loc,
            bytes: 8,
            ord: Relaxed,
            val: 1,
            kind: WriteKind::Exclusive,
        },
    )
}

#[test]
fn store_buffering() {
    // Both reads of the initialisation: the weak outcome.
    let mut l = Lit::new(&Sc, 2);
    l.write(1, X, Relaxed);
    l.read(1, Y, Relaxed, None);
    l.write(2, Y, Relaxed);
    l.read(2, X, Relaxed, None);
    check(&l.g, false);
    // T1 sees T2's write instead.
    let mut l = Lit::new(&Sc, 2);
    l.write(1, X, Relaxed);
    let wy = l.write(2, Y, Relaxed);
    l.read(1, Y, Relaxed, Some(wy));
    l.read(2, X, Relaxed, None);
    check(&l.g, true);
}

#[test]
fn message_passing() {
    for sees_data in [false, true] {
        let mut l = Lit::new(&Sc, 2);
        let wx = l.write(1, X, Relaxed);
        let wy = l.write(1, Y, Relaxed);
        l.read(2, Y, Relaxed, Some(wy));
        l.read(2, X, Relaxed, sees_data.then_some(wx));
        check(&l.g, sees_data);
    }
}

#[test]
fn coherence_of_read_read() {
    let mut l = Lit::new(&Sc, 4);
    let w1 = l.write(1, X, Relaxed);
    let w2 = l.write(2, X, Relaxed);
    l.read(3, X, Relaxed, Some(w2));
    l.read(3, X, Relaxed, Some(w1));
    check(&l.g, true);
    assert_eq!(verify_sc(&l.g).unwrap(), vec![(X, vec![w2, w1])]);
    // T4 reading them the other way round: no coherence order fits both.
    l.read(4, X, Relaxed, Some(w1));
    l.read(4, X, Relaxed, Some(w2));
    check(&l.g, false);
}

#[test]
fn independent_reads_of_independent_writes() {
    let mut l = Lit::new(&Sc, 4);
    let wx = l.write(1, X, Relaxed);
    let wy = l.write(2, Y, Relaxed);
    l.read(3, X, Relaxed, Some(wx));
    l.read(3, Y, Relaxed, None);
    l.read(4, Y, Relaxed, Some(wy));
    let rx = l.read(4, X, Relaxed, None);
    check(&l.g, false);
    l.g.set_rf(rx, Some(wx));
    check(&l.g, true);
}

#[test]
fn two_plus_two_writes() {
    // T1: x = 1; y = 2; r = y (sees T2's y = 1). T2: y = 1; x = 2; r = x (sees x = 1).
    let mut l = Lit::new(&Sc, 2);
    let wx1 = l.write(1, X, Relaxed);
    l.write(1, Y, Relaxed);
    let wy1 = l.write(2, Y, Relaxed);
    l.write(2, X, Relaxed);
    l.read(1, Y, Relaxed, Some(wy1));
    let r = l.read(2, X, Relaxed, Some(wx1));
    check(&l.g, false);
    // Without T2's observation, co can put y = 2 first.
    l.g.pop_last();
    check(&l.g, true);
    let _ = r;
}

#[test]
fn rmw_chains() {
    // Three fetch-adds in a chain: init → w1 → w2 → w3.
    let mut l = Lit::new(&Sc, 3);
    let w1 = fetch_add(&mut l, 1, X, None);
    let w2 = fetch_add(&mut l, 2, X, Some(w1));
    let w3 = fetch_add(&mut l, 3, X, Some(w2));
    check(&l.g, true);
    assert_eq!(verify_sc(&l.g).unwrap(), vec![(X, vec![w1, w2, w3])]);
    // A plain read of w1 by T3 before its RMW: fine, it goes between w1 and w2.
    let mut l = Lit::new(&Sc, 3);
    let w1 = fetch_add(&mut l, 1, X, None);
    l.read(3, X, Relaxed, Some(w1));
    let w2 = fetch_add(&mut l, 2, X, Some(w1));
    fetch_add(&mut l, 3, X, Some(w2));
    check(&l.g, true);
    // Reading w1 *after* its own RMW read w2: impossible.
    l.read(3, X, Relaxed, Some(w1));
    check(&l.g, false);
}

#[test]
fn two_rmws_reading_one_write() {
    let mut l = Lit::new(&Sc, 2);
    fetch_add(&mut l, 1, X, None);
    fetch_add(&mut l, 2, X, None);
    check(&l.g, false);
}

#[test]
fn a_plain_write_cannot_split_an_rmw() {
    // T1: x = 1 (plain). T2: fetch-add reading init. T3 reads T2's write, then T1's:
    // co init → rmw → w, fine; but if T1 also reads init after its write, no order.
    let mut l = Lit::new(&Sc, 3);
    let w = l.write(1, X, Relaxed);
    let u = fetch_add(&mut l, 2, X, None);
    l.read(3, X, Relaxed, Some(u));
    l.read(3, X, Relaxed, Some(w));
    check(&l.g, true);
    l.read(1, X, Relaxed, None);
    check(&l.g, false);
}

#[test]
fn joins_order_the_child_before_the_parent() {
    let mut l = Lit::new(&Sc, 1);
    let w = l.write(1, X, Relaxed);
    l.push(1, LabelKind::Finish { ret: 0 });
    l.push(0, LabelKind::Join { child: 1 });
    let r = l.read(0, X, Relaxed, None);
    check(&l.g, false);
    l.g.set_rf(r, Some(w));
    check(&l.g, true);
}

#[test]
fn reads_of_the_initialisation_precede_every_write() {
    let mut l = Lit::new(&Sc, 2);
    let w = l.write(1, X, Relaxed);
    l.read(1, Y, Relaxed, None);
    l.write(2, Y, Relaxed);
    l.read(2, X, Relaxed, Some(w));
    check(&l.g, true);
    l.read(2, Y, Relaxed, None);
    check(&l.g, false);
}

#[test]
fn incremental_check_agrees_on_every_prefix() {
    let shapes = [
        RandomGraph::default(),
        RandomGraph {
            threads: 4,
            events_per_thread: 4,
            locs: 1,
            sc: true,
            rmws: true,
        },
    ];
    let (mut fast, mut full) = (0, 0);
    for shape in &shapes {
        for seed in 0..300 {
            let whole = random_graph(seed, shape, &Sc);
            let mut prev = verify_sc(&{
                let mut g = whole.clone();
                g.truncate(1);
                g
            })
            .expect("a lone start is consistent");
            for s in 2..=whole.len() {
                let mut g = whole.clone();
                g.truncate(s);
                let e = g.insertion_order()[s - 1];
                let want = verify_sc(&g);
                let quick = extend(&g, e, &prev);
                let got = verify_sc_after(&g, e, &prev);
                assert_eq!(got.is_some(), want.is_some(), "{g}");
                match got {
                    None => break,
                    Some(co) => {
                        if quick.is_some() {
                            fast += 1;
                        } else {
                            full += 1;
                        }
                        install(&mut g, &co);
                        assert!(Sc.is_consistent(&g), "{co:?} for {g}");
                        prev = co;
                    }
                }
            }
        }
    }
    eprintln!("incremental: {fast} prefixes by the fast path, {full} by VerifySC");
    assert!(fast > 0 && full > 0, "fast path {fast}, full search {full}");
}

#[test]
fn incremental_check_falls_back_when_the_new_event_precedes_a_join() {
    // T1 reads x's initialisation; main joins T1, then writes x.
    let mut l = Lit::new(&Sc, 1);
    l.read(1, X, Relaxed, None);
    l.push(0, LabelKind::Join { child: 1 });
    let w = l.write(0, X, Relaxed);
    let prev = verify_sc(&l.g).expect("consistent");
    // A new last event of T1 is sync-before the join: it cannot go last. Reading
    // main's write after the join closes a cycle.
    let e = l.read(1, X, Relaxed, Some(w));
    assert_eq!(extend(&l.g, e, &prev), None);
    assert_eq!(verify_sc_after(&l.g, e, &prev), None);
    check(&l.g, false);
}
