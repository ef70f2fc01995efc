//! The causal models against the examples of Lahav and Boker (TOPLAS 2022, §3), their
//! incremental checks against their declarative ones, rf mode against brute force,
//! and the operational systems of §4 against the declarative definitions.

use super::op::{self, System};
use super::{sra::Sra, wra};
use crate::orders::permutations;
use crate::relation::testkit::{self, Expect, Lit, X, Y, Z};
use crate::rf::{self, RandomGraph};
use crate::{by_name, MemoryModel};
use porf_graph::{EventId, LabelKind, Loc, MemOrder, ReadKind, RmwOp, Wrap, WriteKind};
use MemOrder::Relaxed;

/// The weak outcomes of the classic shapes, as §3 states them: SB allowed (Ex. 3.3),
/// MP forbidden (Ex. 3.4: every access synchronises, so relaxed and fenced MP too),
/// LB forbidden (irr-hb), CoRR forbidden (the initialisation is hb-before the write
/// read first), 2+2W allowed by WRA and forbidden by SRA (Ex. 3.6, §3.2). Fences
/// add nothing, so SB with fences stays allowed.
#[test]
fn litmus_shapes() {
    for (m, two_plus_two_w) in [("wra", true), ("sra", false)] {
        let m = by_name(m).unwrap();
        testkit::check_shapes(
            m.as_ref(),
            Expect {
                sb: true,
                sb_sc: true,
                mp: false,
                mp_fences: false,
                sb_fences: true,
                lb: false,
                corr: false,
                two_plus_two_w,
            },
        );
    }
}

/// An RMW of `loc` by thread `t` reading `rf`, its write part placed right after the
/// source in co (porf's representation).
fn faa(l: &mut Lit, t: u32, loc: Loc, rf: Option<EventId>) -> EventId {
    l.push(
        t,
        LabelKind::Read {
            loc,
            bytes: 8,
            ord: Relaxed,
            kind: ReadKind::Rmw(RmwOp::Add(0, Wrap::NONE)),
            rf,
        },
    );
    let pos = l.g.co_pos(rf) + 1;
    let w = l.g.add(
        t,
        LabelKind::Write {
            loc,
            bytes: 8,
            ord: Relaxed,
            val: 0,
            kind: WriteKind::Exclusive,
        },
        porf_graph::SrcLoc::UNKNOWN,
    );
    l.g.co_insert(w, pos);
    l.g.label_mut(w).hb = l.m.hb_view(&l.g, w);
    l.last = w;
    w
}

/// Ex. 3.8: two RMWs never read the same write, under every model.
#[test]
fn two_rmws_on_one_write_are_forbidden() {
    for m in ["wra", "sra"] {
        let m = by_name(m).unwrap();
        let mut l = Lit::new(m.as_ref(), 2);
        faa(&mut l, 1, X, None);
        assert!(l.check());
        faa(&mut l, 2, X, None);
        assert!(!m.is_consistent(&l.g), "{}", m.name());
        assert!(!op::accepts(System::OpWra, &l.g));
        assert!(!op::accepts(System::OpSra, &l.g));
    }
}

/// Ex. 3.9: RMWs of an otherwise unused location act as fences: SB's weak outcome
/// is forbidden whichever RMW reads the other's write.
#[test]
fn rmw_fences_forbid_store_buffering() {
    for m in ["wra", "sra"] {
        let m = by_name(m).unwrap();
        for first in [1, 2] {
            let mut l = Lit::new(m.as_ref(), 2);
            let second = 3 - first;
            l.write(first, X, Relaxed);
            l.write(second, Y, Relaxed);
            let f = faa(&mut l, first, Z, None);
            faa(&mut l, second, Z, Some(f));
            assert!(l.check(), "the fences alone are consistent");
            let (mine, other) = if first == 1 { (Y, X) } else { (X, Y) };
            l.read(first, mine, Relaxed, None);
            l.read(second, other, Relaxed, None);
            assert!(!m.is_consistent(&l.g), "{}: SB + RMW fences", m.name());
        }
    }
}

/// Brute force over every rf and co agrees with adding events one at a time, checked
/// incrementally, on the shared straight-line programs.
#[test]
fn incremental_agrees_with_declarative() {
    testkit::check_agreement(&wra::Wra);
    testkit::check_agreement(&Sra);
}

/// rf mode: WRA's and SRA's exact checks against brute force over every co, on
/// random (events, po, rf) graphs; every witness makes the graph consistent.
#[test]
fn rf_mode_matches_brute_force() {
    let shape = RandomGraph::default();
    for name in ["wra", "sra"] {
        let m = by_name(name).unwrap();
        let mut yes = 0;
        for seed in 0..1500 {
            let g = rf::random_graph(seed, &shape, m.as_ref());
            let bf = rf::brute_force(m.as_ref(), &g);
            let fast = m.rf_consistent(&g);
            assert_eq!(bf.is_some(), fast.is_some(), "{name}, seed {seed}:\n{g}");
            if let Some(co) = fast {
                let mut g2 = g.clone();
                rf::install(&mut g2, &co);
                assert!(m.is_consistent(&g2), "{name}: witness rejected:\n{g2}");
                yes += 1;
            }
        }
        assert!(
            (150..1350).contains(&yes),
            "{name}: {yes} of 1500 consistent"
        );
    }
}

/// The operational systems agree with the declarative models on random graphs, with
/// every co (opSRA reads mo from co; opWRA ignores it).
#[test]
fn operational_matches_declarative_on_random_graphs() {
    let shape = RandomGraph {
        threads: 3,
        events_per_thread: 3,
        locs: 2,
        ..RandomGraph::default()
    };
    let (mut wra_yes, mut sra_yes) = (0, 0);
    for seed in 0..600 {
        let g = rf::random_graph(seed, &shape, &Sra);
        let w = wra::consistent_ignoring_co(&g);
        assert_eq!(
            op::accepts(System::OpWra, &g),
            w,
            "opWRA, seed {seed}:\n{g}"
        );
        wra_yes += usize::from(w);
        for co in every_co(&g) {
            let mut g2 = g.clone();
            rf::install(&mut g2, &co);
            let s = Sra.is_consistent(&g2);
            assert_eq!(
                op::accepts(System::OpSra, &g2),
                s,
                "opSRA, seed {seed}:\n{g2}"
            );
            sra_yes += usize::from(s);
        }
    }
    assert!(wra_yes > 50 && sra_yes > 50, "{wra_yes} / {sra_yes}");
}

/// Every coherence order of `g`'s writes (small graphs only).
fn every_co(g: &porf_graph::Graph) -> Vec<rf::CoWitness> {
    let mut out: Vec<rf::CoWitness> = vec![Vec::new()];
    let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
    locs.sort();
    for loc in locs {
        let ws: Vec<EventId> = g.co(loc).to_vec();
        let perms = permutations(&ws);
        out = out
            .into_iter()
            .flat_map(|c| {
                perms.iter().map(move |p| {
                    let mut c = c.clone();
                    c.push((loc, p.clone()));
                    c
                })
            })
            .collect();
    }
    out
}

/// Proposition 3.2 on single graphs: SRA-consistency implies WRA-consistency (with
/// the same co), and porf's `ra` lies between them when every access is
/// release/acquire (the random graphs here have other orders, so `ra` is left to the
/// explorer-level tests).
#[test]
fn sra_implies_wra() {
    let shape = RandomGraph::default();
    for seed in 0..1000 {
        let g = rf::random_graph(seed, &shape, &Sra);
        for co in every_co(&g).into_iter().take(50) {
            let mut g2 = g.clone();
            rf::install(&mut g2, &co);
            if Sra.is_consistent(&g2) {
                assert!(wra::Wra.is_consistent(&g2), "seed {seed}:\n{g2}");
            }
        }
    }
}

/// Neither model reports data races.
#[test]
fn no_data_races() {
    assert!(!wra::Wra.has_data_races() && !Sra.has_data_races());
    assert!(by_name("ra").unwrap().has_data_races());
}
