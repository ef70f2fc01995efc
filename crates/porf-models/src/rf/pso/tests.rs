//! VerifyPSO against brute force over coherence orders (PSO's declarative definition)
//! on hand-built graphs and on every reads-from of the test programs, and its two
//! deduplications against each other on random PSO runs too large for brute force
//! ([`runs`]). The acceptance test on random graphs is `tests/verify_pso.rs`.

mod closure;
mod runs;

use super::{verify, verify_with, Dedup};
use crate::pso::Pso;
use crate::relation::testkit::{self, Lit, X, Y, Z};
use crate::rf::{self, brute_force};
use crate::MemoryModel;
use porf_graph::MemOrder::{Relaxed, Release, SeqCst};
use porf_graph::{EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, Wrap, WriteKind};
use std::time::Instant;

/// VerifyPSO's answer, after checking it against brute force and its witness.
fn check(g: &Graph) -> bool {
    let fast = verify(g);
    assert_eq!(
        fast.is_some(),
        brute_force(&Pso, g).is_some(),
        "VerifyPSO {fast:?} on {g}"
    );
    if let Some(co) = &fast {
        let mut g = g.clone();
        rf::install(&mut g, co);
        assert!(Pso.is_consistent(&g), "witness {co:?} on {g}");
    }
    fast.is_some()
}

/// `fetch_add(loc, 1)` in thread `t` reading `rf`: the read part and the write part.
fn faa(l: &mut Lit, t: u32, loc: Loc, rf: Option<EventId>) -> EventId {
    let add = RmwOp::Add(1, Wrap::NONE);
    l.push(
        t,
        LabelKind::Read {
            loc,
            bytes: 8,
            ord: Relaxed,
            kind: ReadKind::Rmw(add),
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

/// MP: `x = 1; y = 1 (ord) || y == 1; x == 0`.
fn mp(flag: MemOrder) -> bool {
    let mut l = Lit::new(&Pso, 2);
    l.write(1, X, Relaxed);
    let wy = l.write(1, Y, flag);
    l.read(2, Y, Relaxed, Some(wy));
    l.read(2, X, Relaxed, None);
    check(&l.g)
}

/// SB: `x = 1 (ord); y == 0 || y = 1 (ord); x == 0`.
fn sb(ord: MemOrder) -> bool {
    let mut l = Lit::new(&Pso, 2);
    l.write(1, X, ord);
    l.read(1, Y, Relaxed, None);
    l.write(2, Y, ord);
    l.read(2, X, Relaxed, None);
    check(&l.g)
}

/// The paper's Fig. 1: PSO shows SB's and MP's weak outcomes; a seq_cst store (a full
/// fence) forbids SB's, a release flag (a store-store barrier) MP's.
#[test]
fn store_buffering_and_message_passing() {
    assert!(sb(Relaxed));
    assert!(!sb(SeqCst));
    assert!(mp(Relaxed));
    assert!(!mp(Release));
    assert!(!mp(SeqCst));
}

#[test]
fn reads_of_the_own_buffer() {
    // A read after its thread's write reads it, or a later write from memory.
    let mut l = Lit::new(&Pso, 2);
    let w1 = l.write(1, X, Relaxed);
    let r = l.read(1, X, Relaxed, Some(w1));
    assert!(check(&l.g));
    l.g.set_rf(r, None);
    assert!(
        !check(&l.g),
        "the initialisation is overwritten by its own store"
    );
    let w2 = l.write(2, X, Relaxed);
    l.g.set_rf(r, Some(w2));
    assert!(check(&l.g));
    // ... but not an older write of its own thread.
    let mut l = Lit::new(&Pso, 1);
    let w1 = l.write(1, X, Relaxed);
    l.write(1, X, Relaxed);
    l.read(1, X, Relaxed, Some(w1));
    assert!(!check(&l.g));
}

#[test]
fn rmws_are_atomic_and_drain_the_buffers() {
    // Two increments reading the initialisation: not atomic.
    let mut l = Lit::new(&Pso, 2);
    faa(&mut l, 1, X, None);
    faa(&mut l, 2, X, None);
    assert!(!check(&l.g));
    let mut l = Lit::new(&Pso, 2);
    let a2 = faa(&mut l, 1, X, None);
    faa(&mut l, 2, X, Some(a2));
    assert!(check(&l.g));
    // x = 1; faa(z); y = 1 || y == 1; x == 0: the RMW orders the stores.
    let mut l = Lit::new(&Pso, 2);
    l.write(1, X, Relaxed);
    faa(&mut l, 1, Z, None);
    let wy = l.write(1, Y, Relaxed);
    l.read(2, Y, Relaxed, Some(wy));
    l.read(2, X, Relaxed, None);
    assert!(!check(&l.g));
}

/// Every reads-from of every test program (each read from the initialisation or any
/// write of its location): VerifyPSO agrees with brute force, and its witnesses are
/// consistent.
#[test]
fn every_reads_from_of_the_test_programs() {
    let progs = testkit::program_list()
        .into_iter()
        .chain(crate::pso::tests::pso_programs());
    let (mut total, mut consistent) = (0, 0);
    for (_, p) in progs {
        let (mut g, _) = testkit::skeleton(&Pso, &p);
        let reads: Vec<(EventId, Loc)> = g
            .events()
            .filter(|(_, l)| l.is_read())
            .map(|(e, l)| (e, l.loc().unwrap()))
            .collect();
        let choices: Vec<Vec<Option<EventId>>> = reads
            .iter()
            .map(|&(_, loc)| {
                std::iter::once(None)
                    .chain(g.co(loc).iter().copied().map(Some))
                    .collect()
            })
            .collect();
        let mut pick = vec![0; reads.len()];
        loop {
            for (k, &(r, _)) in reads.iter().enumerate() {
                g.set_rf(r, choices[k][pick[k]]);
            }
            total += 1;
            consistent += check(&g) as usize;
            // Next combination (odometer).
            let Some(k) = (0..pick.len()).find(|&k| pick[k] + 1 < choices[k].len()) else {
                break;
            };
            pick[k] += 1;
            pick[..k].iter_mut().for_each(|x| *x = 0);
        }
    }
    assert!(
        consistent > 0 && consistent < total,
        "{consistent} of {total}"
    );
}

/// On random PSO runs of 3–4 threads of up to 8 events (consistent) and on the same
/// runs with one read redirected (mostly not), the fence-map deduplication of Alg. 2
/// and the exact one (the whole state) agree, and every witness is consistent.
#[test]
fn fence_maps_lose_nothing_on_larger_graphs() {
    let n = std::env::var("PORF_VERIFY_PSO_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600u64);
    let (mut consistent, mut fm, mut exact) = (0, 0, 0);
    for seed in 0..n {
        let shape = runs::Shape {
            threads: 3 + (seed % 2) as u32,
            events: 8,
            locs: 1 + (seed % 3),
        };
        let run = runs::random_run(seed, &shape);
        for g in [run.clone(), runs::redirect_one_read(seed, &run)] {
            let (a, sa) = verify_with(&g, Dedup::FenceMap);
            let (b, sb) = verify_with(&g, Dedup::Exact);
            assert_eq!(a.is_some(), b.is_some(), "seed {seed}: {g}");
            fm += sa.prefixes;
            exact += sb.prefixes;
            if let Some(co) = a {
                consistent += 1;
                let mut g = g.clone();
                rf::install(&mut g, &co);
                assert!(Pso.is_consistent(&g), "seed {seed}: {co:?} {g}");
            }
        }
        assert!(verify(&run).is_some(), "seed {seed}: a run is consistent");
    }
    println!(
        "{} graphs, {consistent} consistent; prefixes kept: fence maps {fm}, exact {exact}",
        2 * n
    );
    assert!(fm <= exact);
}

/// The cost on graphs of about 50 events: random runs of 4 threads of 8 memory events
/// over 3 locations (with spawns, starts, finishes, joins and main's final reads), and
/// the same with one read redirected. Prints the times; `--show-output` to see them.
#[test]
fn cost_on_fifty_events() {
    let shape = runs::Shape {
        threads: 4,
        events: 8,
        locs: 3,
    };
    let (mut events, mut prefixes, mut worst) = (0, 0, 0.0f64);
    let seeds = 200;
    let start = Instant::now();
    for seed in 0..seeds {
        let run = runs::random_run(seed, &shape);
        for g in [run.clone(), runs::redirect_one_read(seed, &run)] {
            let t = Instant::now();
            let (_, s) = verify_with(&g, Dedup::FenceMap);
            worst = worst.max(t.elapsed().as_secs_f64());
            events += s.events;
            prefixes += s.prefixes;
        }
    }
    let total = start.elapsed().as_secs_f64();
    println!(
        "VerifyPSO on {} graphs of {:.1} events on average: {:.2} ms per graph, worst {:.2} ms, {:.0} prefixes per graph",
        2 * seeds,
        events as f64 / (2 * seeds) as f64,
        total * 1000.0 / (2 * seeds) as f64,
        worst * 1000.0,
        prefixes as f64 / (2 * seeds) as f64
    );
}

/// Random PSO runs with one read redirected, small enough for brute force (at most
/// 7! coherence orders): VerifyPSO, with either deduplication, agrees with it. These
/// graphs are richer in store-store barriers, RMWs, seq_cst accesses and joins than
/// `tests/verify_pso.rs`'s. `PORF_VERIFY_PSO_REDIRECTED` sets the number of graphs.
#[test]
fn redirected_runs_agree_with_brute_force() {
    let n = std::env::var("PORF_VERIFY_PSO_REDIRECTED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000usize);
    let (mut checked, mut consistent, mut seed) = (0, 0, 0u64);
    while checked < n {
        seed += 1;
        let shape = runs::Shape {
            threads: 2 + (seed % 3) as u32,
            events: 2 + (seed / 3 % 3) as u32,
            locs: 1 + seed / 9 % 3,
        };
        let g = runs::redirect_one_read(seed, &runs::random_run(seed, &shape));
        let orders = g
            .locations()
            .map(|(_, i)| (1..=i.co.len() as u64).product::<u64>())
            .product::<u64>();
        if orders > 5040 {
            continue;
        }
        checked += 1;
        let exact = verify_with(&g, Dedup::Exact).0.is_some();
        let fast = check(&g);
        assert_eq!(fast, exact, "seed {seed}: exact deduplication on {g}");
        consistent += fast as usize;
    }
    println!("{checked} redirected runs, {consistent} consistent");
    assert!(consistent * 10 > n && consistent * 10 < 9 * n);
}

/// The `co` lists stored in the graph play no part.
#[test]
fn stored_coherence_is_ignored() {
    for seed in 0..300 {
        let shape = runs::Shape {
            threads: 3,
            events: 4,
            locs: 2,
        };
        let g = runs::redirect_one_read(seed, &runs::random_run(seed, &shape));
        let mut reversed = g.clone();
        for (loc, mut ws) in g.locations().map(|(l, i)| (*l, i.co.clone())) {
            ws.reverse();
            reversed.set_co(loc, ws);
        }
        assert_eq!(verify(&g), verify(&reversed), "seed {seed}");
    }
}
