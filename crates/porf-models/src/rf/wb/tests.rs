//! The exact rf check on hand-built graphs: every verdict is also the brute force's,
//! and every witness is checked with the declarative model.

use super::{check, Checked, Psc};
use crate::ra::Ra;
use crate::rc11::Rc11;
use crate::rc11_genmc::Rc11Genmc;
use crate::relation::testkit::{Lit, X, Y, Z};
use crate::rf::{brute_force, install};
use crate::MemoryModel;
use porf_graph::{EventId, LabelKind, Loc, MemOrder, ReadKind, RmwOp, Tid, Wrap, WriteKind};
use MemOrder::{Acquire, NonAtomic, Relaxed, Release, SeqCst};

const W: Loc = Loc(4);

/// The three models with their axioms.
fn models() -> [(&'static dyn MemoryModel, Psc); 3] {
    [
        (&Ra, Psc::Absent),
        (&Rc11, Psc::Herd),
        (&Rc11Genmc, Psc::Genmc),
    ]
}

/// Builds a graph with `build` for each model and checks it; returns the verdicts
/// (ra, rc11, rc11-genmc) after asserting they match the brute force and that
/// witnesses are consistent.
fn verdicts(children: u32, build: impl Fn(&mut Lit)) -> [Checked; 3] {
    models().map(|(m, psc)| {
        let mut l = Lit::new(m, children);
        l.g.ensure_loc(W, 0, None);
        build(&mut l);
        let c = check(&l.g, psc);
        let truth = brute_force(m, &l.g);
        assert_eq!(
            c.witness.is_some(),
            truth.is_some(),
            "{}:\n{}",
            m.name(),
            l.g
        );
        if let Some(co) = &c.witness {
            let mut g = l.g.clone();
            install(&mut g, co);
            assert!(m.is_consistent(&g), "{}: bad witness {co:?}", m.name());
        }
        c
    })
}

fn consistent(v: &[Checked; 3]) -> [bool; 3] {
    [0, 1, 2].map(|i| v[i].witness.is_some())
}

/// The co the witness gives `loc`.
fn co_of(c: &Checked, loc: Loc) -> Vec<EventId> {
    let co = c.witness.as_ref().expect("consistent");
    co.iter().find(|(l, _)| *l == loc).unwrap().1.clone()
}

/// An RMW (fetch-add) of thread `t` reading `rf`: (read part, write part).
fn faa(l: &mut Lit, t: Tid, loc: Loc, ord: MemOrder, rf: Option<EventId>) -> (EventId, EventId) {
    let r = l.push(
        t,
        LabelKind::Read {
            loc,
            bytes: 8,
            ord,
            kind: ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE)),
            rf,
        },
    );
    let w = l.push(
        t,
        LabelKind::Write {
            loc,
            bytes: 8,
            ord,
            val: 7,
            kind: WriteKind::Exclusive,
        },
    );
    (r, w)
}

#[test]
fn corr_orders_the_writes_as_read() {
    // x = 1 || x = 2 || x == 2; x == 1: co must put the second write first.
    let v = verdicts(3, |l| {
        let w1 = l.write(1, X, Relaxed);
        let w2 = l.write(2, X, Relaxed);
        l.read(3, X, Relaxed, Some(w2));
        l.read(3, X, Relaxed, Some(w1));
    });
    assert_eq!(consistent(&v), [true; 3]);
    let (w1, w2) = (EventId::new(1, 1), EventId::new(2, 1));
    assert!(v.iter().all(|c| co_of(c, X) == vec![w2, w1]));
    assert!(v.iter().all(|c| c.psc_checks == 0));
    // ... and x = 1; x == 2 in the first thread demands the other order.
    let v = verdicts(3, |l| {
        let w1 = l.write(1, X, Relaxed);
        let w2 = l.write(2, X, Relaxed);
        l.read(3, X, Relaxed, Some(w2));
        l.read(3, X, Relaxed, Some(w1));
        l.read(1, X, Relaxed, Some(w2));
    });
    assert_eq!(consistent(&v), [false; 3]);
}

#[test]
fn reading_the_initialisation_after_a_write_is_incoherent() {
    // x = 1 || x == 1; x == 0
    let v = verdicts(2, |l| {
        let w = l.write(1, X, Relaxed);
        l.read(2, X, Relaxed, Some(w));
        l.read(2, X, Relaxed, None);
    });
    assert_eq!(consistent(&v), [false; 3]);
}

/// 2+2W with its weak outcome observed: `x = 1; y = 2 || y = 1; x = 2`, one observer
/// reading y = 2 then y = 1, another x = 2 then x = 1.
fn observed_2_2w(ord: MemOrder) -> [Checked; 3] {
    verdicts(4, |l| {
        let x1 = l.write(1, X, ord);
        let y2 = l.write(1, Y, ord);
        let y1 = l.write(2, Y, ord);
        let x2 = l.write(2, X, ord);
        l.read(3, Y, Relaxed, Some(y2));
        l.read(3, Y, Relaxed, Some(y1));
        l.read(4, X, Relaxed, Some(x2));
        l.read(4, X, Relaxed, Some(x1));
    })
}

#[test]
fn two_plus_two_w() {
    assert_eq!(consistent(&observed_2_2w(Relaxed)), [true; 3]);
    assert_eq!(consistent(&observed_2_2w(Release)), [true; 3]);
    // seq_cst writes: psc contains po and co between them.
    assert_eq!(consistent(&observed_2_2w(SeqCst)), [true, false, false]);
}

#[test]
fn message_passing() {
    for (flag_w, flag_r, weak_allowed) in [
        (Release, Acquire, false),
        (Relaxed, Acquire, true),
        (Release, Relaxed, true),
    ] {
        let v = verdicts(2, |l| {
            l.write(1, X, NonAtomic);
            let f = l.write(1, Y, flag_w);
            l.read(2, Y, flag_r, Some(f));
            l.read(2, X, Relaxed, None);
        });
        assert_eq!(consistent(&v), [weak_allowed; 3]);
    }
}

/// SB: `x = 1; y == 0 || y = 1; x == 0`.
fn sb(ord: MemOrder) -> [Checked; 3] {
    verdicts(2, |l| {
        l.write(1, X, ord);
        l.read(1, Y, ord, None);
        l.write(2, Y, ord);
        l.read(2, X, ord, None);
    })
}

#[test]
fn store_buffering() {
    assert_eq!(consistent(&sb(Relaxed)), [true; 3]);
    assert_eq!(consistent(&sb(SeqCst)), [true, false, false]);
    // wb leaves nothing open: one psc check decides.
    assert!(sb(SeqCst)[1..].iter().all(|c| c.psc_checks == 1));
}

/// IRIW: `x = 1 || y = 1 || x == 1; [F]; y == 0 || y == 1; [F]; x == 0`.
fn iriw(ord: MemOrder, fence: Option<MemOrder>) -> [Checked; 3] {
    verdicts(4, |l| {
        let wx = l.write(1, X, ord);
        let wy = l.write(2, Y, ord);
        for (t, a, b, w) in [(3, X, Y, wx), (4, Y, X, wy)] {
            l.read(t, a, ord, Some(w));
            if let Some(f) = fence {
                l.fence(t, f);
            }
            l.read(t, b, ord, None);
        }
    })
}

#[test]
fn independent_reads_of_independent_writes() {
    assert_eq!(consistent(&iriw(Relaxed, None)), [true; 3]);
    assert_eq!(consistent(&iriw(SeqCst, None)), [true, false, false]);
    assert_eq!(
        consistent(&iriw(Relaxed, Some(MemOrder::AcqRel))),
        [true; 3]
    );
    assert_eq!(
        consistent(&iriw(Relaxed, Some(SeqCst))),
        [true, false, false]
    );
}

#[test]
fn rmw_chains_are_contiguous() {
    // x = 1 || faa(x) reads it || faa(x) reads that || x = 5 || faa(x) reads init.
    let v = verdicts(5, |l| {
        let w1 = l.write(1, X, Relaxed);
        let (_, u1) = faa(l, 2, X, Relaxed, Some(w1));
        faa(l, 3, X, Relaxed, Some(u1));
        l.write(4, X, Relaxed);
        faa(l, 5, X, Relaxed, None);
    });
    assert_eq!(consistent(&v), [true; 3]);
    let (w1, u1, u2) = (EventId::new(1, 1), EventId::new(2, 2), EventId::new(3, 2));
    for c in &v {
        let co = co_of(c, X);
        assert_eq!(co[0], EventId::new(5, 2), "the RMW of init comes first");
        let i = co.iter().position(|&w| w == w1).unwrap();
        assert_eq!(co[i..i + 3], [w1, u1, u2]);
    }
}

#[test]
fn two_rmws_cannot_read_one_write() {
    let v = verdicts(3, |l| {
        let w = l.write(1, X, Relaxed);
        faa(l, 2, X, Relaxed, Some(w));
        faa(l, 3, X, Relaxed, Some(w));
    });
    assert_eq!(consistent(&v), [false; 3]);
    let v = verdicts(2, |l| {
        faa(l, 1, X, Relaxed, None);
        faa(l, 2, X, Relaxed, None);
    });
    assert_eq!(consistent(&v), [false; 3]);
}

/// `x = 1 || r = x (reads x = 1); x = 3 (w3) || ...`: wb puts w3 between `x = 1` and
/// what reads it, which atomicity forbids if that is an RMW.
#[test]
fn wb_cannot_split_an_rmw_chain() {
    for rmw in [false, true] {
        let v = verdicts(4, |l| {
            let w1 = l.write(1, X, Relaxed);
            let u1 = if rmw {
                faa(l, 2, X, Relaxed, Some(w1)).1
            } else {
                l.read(2, X, Relaxed, Some(w1));
                l.write(2, X, Relaxed)
            };
            // T3: reads x = 1, then writes x (w1 wb w3), then releases y.
            l.read(3, X, Relaxed, Some(w1));
            l.write(3, X, Relaxed);
            let wy = l.write(3, Y, Release);
            // T4: acquires y, then reads u1 (w3 wb u1).
            l.read(4, Y, Acquire, Some(wy));
            l.read(4, X, Relaxed, Some(u1));
        });
        assert_eq!(consistent(&v), [!rmw; 3], "rmw: {rmw}");
    }
}

/// Two seq_cst writes of x that wb leaves unordered, with psc forcing their order:
/// `x = 2; ...` is added first, so the first linearisation tried is the wrong one.
/// T2: `y = 1; x = 2`; T1: `x = 1; y == 0` (x = 1 po y == 0 fr y = 1 po x = 2).
#[test]
fn psc_picks_the_order_wb_leaves_open() {
    let v = verdicts(2, |l| {
        l.write(2, Y, SeqCst);
        l.write(2, X, SeqCst);
        l.write(1, X, SeqCst);
        l.read(1, Y, SeqCst, None);
    });
    assert_eq!(consistent(&v), [true; 3]);
    let (x1, x2) = (EventId::new(1, 1), EventId::new(2, 2));
    for c in &v[1..] {
        assert_eq!(co_of(c, X), vec![x1, x2]);
        assert_eq!(c.open_pairs, 1);
        assert!(c.searched(), "{c:?}");
    }
}

/// Both orders of the two seq_cst writes `a`, `b` of x close a psc cycle through fr,
/// though wb orders neither: `b` is psc-before `a`'s reader and `a` psc-before `b`'s
/// (`b; z == 0` fr `z = 1; reads a`, and `a; w == 0` fr `w = 1; reads b`).
#[test]
fn psc_can_refute_every_order_wb_leaves_open() {
    let v = verdicts(4, |l| {
        let a = l.write(1, X, SeqCst);
        l.read(1, W, SeqCst, None);
        let b = l.write(2, X, SeqCst);
        l.read(2, Z, SeqCst, None);
        l.write(3, Z, SeqCst);
        l.read(3, X, SeqCst, Some(a));
        l.write(4, W, SeqCst);
        l.read(4, X, SeqCst, Some(b));
    });
    assert_eq!(consistent(&v), [true, false, false]);
    for c in &v[1..] {
        assert_eq!(c.open_pairs, 1);
        assert!(c.searched(), "{c:?}");
    }
}
